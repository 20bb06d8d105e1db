/* SPDX-License-Identifier: MIT */
/* elf.c - reading ELF images mapped whole: header and section checks,
 * and the separate debug file of a stripped object, where its .symtab
 * went.  The debug file is found the way gdb finds it: by build ID
 * (/usr/lib/debug/.build-id/xx/rest.debug), else by .gnu_debuglink
 * (beside the object, in its .debug folder, or under /usr/lib/debug
 * with the object's folder), the link's file checked against its
 * CRC-32.  $CGWPROF_DEBUGDIR replaces /usr/lib/debug. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof.h"

/* Where separate debug files live. */
const char *prof_debug_root(void)
{
    const char *root = prof_getenv("CGWPROF_DEBUGDIR");
    return root != NULL && root[0] != '\0' ? root : "/usr/lib/debug";
}

/* Whether the image is an ELF object of this machine's class with a
 * section table inside it. */
int prof_elf_ok(const unsigned char *image, size_t len)
{
    const ElfW(Ehdr) *eh = (const void *)image;
    return len >= sizeof *eh && memcmp(image, ELFMAG, SELFMAG) == 0 &&
           eh->e_ident[EI_CLASS] == (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) &&
           eh->e_shentsize == sizeof(ElfW(Shdr)) && eh->e_shoff <= len &&
           (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) <= len - eh->e_shoff;
}

static const ElfW(Shdr) *shdr(const unsigned char *m, size_t i)
{
    const ElfW(Ehdr) *eh = (const void *)m;
    return (const void *)(m + eh->e_shoff + i * sizeof(ElfW(Shdr)));
}

/* Section i's name, or "" (an image that passed prof_elf_ok()). */
static const char *section_name(const unsigned char *image, size_t len, const ElfW(Shdr) *sh)
{
    const ElfW(Ehdr) *eh = (const void *)image;
    if (eh->e_shstrndx >= eh->e_shnum)
        return "";
    const ElfW(Shdr) *names = shdr(image, eh->e_shstrndx);
    if (names->sh_offset > len || names->sh_size > len - names->sh_offset ||
        sh->sh_name >= names->sh_size)
        return "";
    const char *name = (const char *)image + names->sh_offset + sh->sh_name;
    return memchr(name, '\0', names->sh_size - sh->sh_name) != NULL ? name : "";
}

/* The first section of type 'type' (and name, unless NULL) whose bytes
 * lie inside the image (an image that passed prof_elf_ok()). */
const ElfW(Shdr) *prof_elf_section(const unsigned char *image, size_t len, unsigned type,
                                   const char *name)
{
    const ElfW(Ehdr) *eh = (const void *)image;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const ElfW(Shdr) *sh = shdr(image, i);
        if (sh->sh_type == type && sh->sh_offset <= len && sh->sh_size <= len - sh->sh_offset &&
            (name == NULL || strcmp(section_name(image, len, sh), name) == 0))
            return sh;
    }
    return NULL;
}

/* The file at path mapped read-only; NULL when it cannot be. */
void *prof_elf_map(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *image = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        *len = (size_t)st.st_size;
    }
    if (fd >= 0)
        close(fd);
    return image == MAP_FAILED ? NULL : image;
}

/* The debug file at path, mapped, if it is an ELF image with a .symtab
 * (and, when crc is not NULL, its CRC-32 is *crc). */
static void *try_debug(const char *path, const uint32_t *crc, size_t *len)
{
    void *image = prof_elf_map(path, len);
    if (image == NULL)
        return NULL;
    if (prof_elf_ok(image, *len) && prof_elf_section(image, *len, SHT_SYMTAB, NULL) != NULL &&
        (crc == NULL || prof_crc32(image, *len) == *crc))
        return image;
    munmap(image, *len);
    return NULL;
}

/* By build ID: the GNU build-id note's bytes in hex. */
static void *by_build_id(const unsigned char *image, size_t len, size_t *dlen)
{
    const ElfW(Shdr) *sh = prof_elf_section(image, len, SHT_NOTE, ".note.gnu.build-id");
    if (sh == NULL || sh->sh_size < sizeof(ElfW(Nhdr)) + 4)
        return NULL;
    const ElfW(Nhdr) *nh = (const void *)(image + sh->sh_offset);
    size_t at = sizeof *nh + ((nh->n_namesz + 3u) & ~3u);
    if (nh->n_type != NT_GNU_BUILD_ID || nh->n_descsz < 2 || nh->n_descsz > 64 ||
        at > sh->sh_size || nh->n_descsz > sh->sh_size - at)
        return NULL;
    const unsigned char *id = image + sh->sh_offset + at;
    char hex[160], path[4096];
    for (size_t i = 0; i < nh->n_descsz; i++)
        snprintf(hex + 2 * i, sizeof hex - 2 * i, "%02x", id[i]);
    snprintf(path, sizeof path, "%s/.build-id/%.2s/%s.debug", prof_debug_root(), hex, hex + 2);
    return try_debug(path, NULL, dlen);
}

/* By .gnu_debuglink: a file name, padded to 4 bytes, then its CRC-32. */
static void *by_debuglink(const unsigned char *image, size_t len, const char *object,
                          size_t *dlen)
{
    const ElfW(Shdr) *sh = prof_elf_section(image, len, SHT_PROGBITS, ".gnu_debuglink");
    if (sh == NULL)
        return NULL;
    const char *name = (const char *)image + sh->sh_offset;
    const char *end = memchr(name, '\0', sh->sh_size);
    size_t at = end != NULL ? ((size_t)(end - name) + 4u) & ~(size_t)3u : 0;
    if (end == NULL || at + 4 > sh->sh_size || strchr(name, '/') != NULL)
        return NULL;
    uint32_t crc;
    memcpy(&crc, name + at, 4);
    const char *slash = strrchr(object, '/');
    int dir = slash != NULL ? (int)(slash - object) : 0;
    /* beside it, in its .debug folder, under the root with its folder */
    const char *roots[] = { "", "", prof_debug_root() }, *subs[] = { "", "/.debug", "" };
    void *d = NULL;
    for (size_t i = 0; i < 3 && d == NULL; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%.*s%s/%s", roots[i], dir, object, subs[i], name);
        if (strcmp(path, object) != 0)
            d = try_debug(path, &crc, dlen);
    }
    return d;
}

/* The separate debug file of the object at path, mapped image, when
 * the object has no .symtab of its own; NULL when there is none. */
void *prof_elf_debug_file(const unsigned char *image, size_t len, const char *path, size_t *dlen)
{
    void *d = by_build_id(image, len, dlen);
    return d != NULL ? d : by_debuglink(image, len, path, dlen);
}

/* The CRC-32 of .gnu_debuglink (zlib's). */
uint32_t prof_crc32(const unsigned char *bytes, size_t len)
{
    static uint32_t table[256];
    if (table[1] == 0) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    }
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++)
        crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffu;
}
