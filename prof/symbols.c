/* SPDX-License-Identifier: MIT */
/* symbols.c - what a code address is: the loaded ELF object that holds
 * it (dl_iterate_phdr), its address inside that object's file (what
 * objdump and the debug info use), and the function symbol around it,
 * from the object's own .symtab, that of its separate debug file when
 * it was stripped (elf.c), or else its .dynsym.
 * Reading the tables, rather than dladdr(), also names static functions
 * and those of an executable not linked with -rdynamic. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof.h"

typedef struct fsym {
    uint64_t start, size;
    const char *name;
} fsym;

typedef struct object {
    char *path;
    uintptr_t bias;           /* load address minus file address  */
    void *map;                /* the file, mapped while resolving */
    size_t maplen;
    void *debug;              /* its separate debug file, if read */
    size_t debuglen;
    fsym *syms;               /* functions, by start              */
    size_t nsyms;
} object;

struct prof_symtab {
    object *objs;
    size_t nobjs;
    char hex[32];
};

prof_symtab *prof_symtab_new(void)
{
    return calloc(1, sizeof(prof_symtab));
}

void prof_symtab_free(prof_symtab *tab)
{
    if (tab == NULL)
        return;
    for (size_t i = 0; i < tab->nobjs; i++) {
        free(tab->objs[i].path);
        free(tab->objs[i].syms);
        if (tab->objs[i].map != NULL)
            munmap(tab->objs[i].map, tab->objs[i].maplen);
        if (tab->objs[i].debug != NULL)
            munmap(tab->objs[i].debug, tab->objs[i].debuglen);
    }
    free(tab->objs);
    free(tab);
}

typedef struct found {
    uintptr_t addr, bias;
    const char *name;
    int hit;
} found;

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    found *want = arg;
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && want->addr >= lo && want->addr - lo < p->p_memsz) {
            want->bias = info->dlpi_addr;
            want->name = info->dlpi_name;
            want->hit = 1;
            return 1;
        }
    }
    return 0;
}

static int by_start(const void *left, const void *right)
{
    const fsym *one = left, *other = right;
    return one->start < other->start ? -1 : one->start > other->start;
}

/* The function symbols of table tab in the image, sorted; none when
 * the table's strings are not inside the image. */
static void read_table(object *obj, const unsigned char *image, size_t len, const ElfW(Shdr) *tab)
{
    const ElfW(Ehdr) *eh = (const void *)image;
    if (tab->sh_link >= eh->e_shnum)
        return;
    const ElfW(Shdr) *str = (const void *)(image + eh->e_shoff + tab->sh_link * sizeof *tab);
    if (str->sh_offset > len || str->sh_size > len - str->sh_offset || str->sh_size == 0)
        return;
    const char *strs = (const char *)image + str->sh_offset;
    const ElfW(Sym) *sym = (const void *)(image + tab->sh_offset);
    size_t count = tab->sh_size / sizeof *sym;
    obj->syms = malloc((count ? count : 1) * sizeof *obj->syms);
    if (obj->syms == NULL)
        return;
    for (size_t i = 0; i < count; i++) {
        unsigned type = ELF64_ST_TYPE(sym[i].st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym[i].st_shndx == SHN_UNDEF ||
            sym[i].st_value == 0 || sym[i].st_name >= str->sh_size ||
            memchr(strs + sym[i].st_name, '\0', str->sh_size - sym[i].st_name) == NULL)
            continue;
        obj->syms[obj->nsyms++] = (fsym){ sym[i].st_value, sym[i].st_size, strs + sym[i].st_name };
    }
    qsort(obj->syms, obj->nsyms, sizeof *obj->syms, by_start);
}

/* The function symbols of the object: its .symtab, else that of its
 * separate debug file, else its .dynsym; none when the file is not an
 * ELF object of this machine's class or has no table. */
static void read_symbols(object *obj)
{
    if (!prof_elf_ok(obj->map, obj->maplen))
        return;
    const ElfW(Shdr) *tab = prof_elf_section(obj->map, obj->maplen, SHT_SYMTAB, NULL);
    if (tab != NULL) {
        read_table(obj, obj->map, obj->maplen, tab);
        return;
    }
    obj->debug = prof_elf_debug_file(obj->map, obj->maplen, obj->path, &obj->debuglen);
    if (obj->debug != NULL) {
        read_table(obj, obj->debug, obj->debuglen,
                   prof_elf_section(obj->debug, obj->debuglen, SHT_SYMTAB, NULL));
        return;
    }
    tab = prof_elf_section(obj->map, obj->maplen, SHT_DYNSYM, NULL);
    if (tab != NULL)
        read_table(obj, obj->map, obj->maplen, tab);
}

static object *add_object(prof_symtab *tab, const char *name, uintptr_t bias)
{
    object *objs = realloc(tab->objs, (tab->nobjs + 1) * sizeof *objs);
    if (objs == NULL)
        return NULL;
    tab->objs = objs;
    object *obj = memset(&objs[tab->nobjs], 0, sizeof *obj);
    /* the executable has no name in the link map */
    char exe[4096];
    if (name == NULL || name[0] == '\0') {
        ssize_t got = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[got > 0 ? got : 0] = '\0';
        name = got > 0 ? exe : "???";
    }
    if ((obj->path = strdup(name)) == NULL)
        return NULL;
    obj->bias = bias;
    tab->nobjs++;
    obj->map = prof_elf_map(obj->path, &obj->maplen);
    if (obj->map != NULL)
        read_symbols(obj);
    return obj;
}

/* The function at file address addr: the last symbol starting at or before
 * it, if a lies inside it (or it has no size). */
static const fsym *lookup(const object *obj, uint64_t addr)
{
    size_t lo = 0, hi = obj->nsyms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (obj->syms[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const fsym *sym = &obj->syms[lo - 1];
    return addr - sym->start < sym->size || (sym->size == 0 && addr == sym->start) ? sym : NULL;
}

/* Fill *out for addr: 0, or -1 when addr is in no loaded object or out
 * of memory.  Strings live until prof_symtab_free(), except a "0x..."
 * name, which lives until the next lookup. */
int prof_symtab_lookup(prof_symtab *tab, const void *addr, prof_symbol *out)
{
    found want = { (uintptr_t)addr, 0, NULL, 0 };
    dl_iterate_phdr(find_object, &want);
    if (!want.hit)
        return -1;
    object *obj = NULL;
    for (size_t i = 0; i < tab->nobjs && obj == NULL; i++)
        if (tab->objs[i].bias == want.bias)
            obj = &tab->objs[i];
    if (obj == NULL && (obj = add_object(tab, want.name, want.bias)) == NULL)
        return -1;
    out->object = obj->path;
    out->addr = (uint64_t)(want.addr - obj->bias);
    const fsym *sym = lookup(obj, out->addr);
    if (sym != NULL) {
        out->name = sym->name;
        out->start = sym->start;
    } else {
        snprintf(tab->hex, sizeof tab->hex, "0x%llx", (unsigned long long)out->addr);
        out->name = tab->hex;
        out->start = out->addr;
    }
    return 0;
}
