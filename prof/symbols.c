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

void prof_symtab_free(prof_symtab *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nobjs; i++) {
        free(s->objs[i].path);
        free(s->objs[i].syms);
        if (s->objs[i].map != NULL)
            munmap(s->objs[i].map, s->objs[i].maplen);
        if (s->objs[i].debug != NULL)
            munmap(s->objs[i].debug, s->objs[i].debuglen);
    }
    free(s->objs);
    free(s);
}

typedef struct found {
    uintptr_t addr, bias;
    const char *name;
    int hit;
} found;

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    found *f = arg;
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < p->p_memsz) {
            f->bias = info->dlpi_addr;
            f->name = info->dlpi_name;
            f->hit = 1;
            return 1;
        }
    }
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const fsym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The function symbols of table tab in the image m, sorted; none when
 * the table's strings are not inside the image. */
static void read_table(object *o, const unsigned char *m, size_t len, const ElfW(Shdr) *tab)
{
    const ElfW(Ehdr) *eh = (const void *)m;
    if (tab->sh_link >= eh->e_shnum)
        return;
    const ElfW(Shdr) *str = (const void *)(m + eh->e_shoff + tab->sh_link * sizeof *tab);
    if (str->sh_offset > len || str->sh_size > len - str->sh_offset || str->sh_size == 0)
        return;
    const char *strs = (const char *)m + str->sh_offset;
    const ElfW(Sym) *sym = (const void *)(m + tab->sh_offset);
    size_t n = tab->sh_size / sizeof *sym;
    o->syms = malloc((n ? n : 1) * sizeof *o->syms);
    if (o->syms == NULL)
        return;
    for (size_t i = 0; i < n; i++) {
        unsigned type = ELF64_ST_TYPE(sym[i].st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym[i].st_shndx == SHN_UNDEF ||
            sym[i].st_value == 0 || sym[i].st_name >= str->sh_size ||
            memchr(strs + sym[i].st_name, '\0', str->sh_size - sym[i].st_name) == NULL)
            continue;
        o->syms[o->nsyms++] = (fsym){ sym[i].st_value, sym[i].st_size, strs + sym[i].st_name };
    }
    qsort(o->syms, o->nsyms, sizeof *o->syms, by_start);
}

/* The function symbols of the object: its .symtab, else that of its
 * separate debug file, else its .dynsym; none when the file is not an
 * ELF object of this machine's class or has no table. */
static void read_symbols(object *o)
{
    if (!prof_elf_ok(o->map, o->maplen))
        return;
    const ElfW(Shdr) *tab = prof_elf_section(o->map, o->maplen, SHT_SYMTAB, NULL);
    if (tab != NULL) {
        read_table(o, o->map, o->maplen, tab);
        return;
    }
    o->debug = prof_elf_debug_file(o->map, o->maplen, o->path, &o->debuglen);
    if (o->debug != NULL) {
        read_table(o, o->debug, o->debuglen,
                   prof_elf_section(o->debug, o->debuglen, SHT_SYMTAB, NULL));
        return;
    }
    tab = prof_elf_section(o->map, o->maplen, SHT_DYNSYM, NULL);
    if (tab != NULL)
        read_table(o, o->map, o->maplen, tab);
}

static object *add_object(prof_symtab *s, const char *name, uintptr_t bias)
{
    object *objs = realloc(s->objs, (s->nobjs + 1) * sizeof *objs);
    if (objs == NULL)
        return NULL;
    s->objs = objs;
    object *o = memset(&objs[s->nobjs], 0, sizeof *o);
    /* the executable has no name in the link map */
    char exe[4096];
    if (name == NULL || name[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        name = n > 0 ? exe : "???";
    }
    if ((o->path = strdup(name)) == NULL)
        return NULL;
    o->bias = bias;
    s->nobjs++;
    o->map = prof_elf_map(o->path, &o->maplen);
    if (o->map != NULL)
        read_symbols(o);
    return o;
}

/* The function at file address a: the last symbol starting at or before
 * it, if a lies inside it (or it has no size). */
static const fsym *lookup(const object *o, uint64_t a)
{
    size_t lo = 0, hi = o->nsyms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->syms[mid].start <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const fsym *f = &o->syms[lo - 1];
    return a - f->start < f->size || (f->size == 0 && a == f->start) ? f : NULL;
}

/* Fill *out for addr: 0, or -1 when addr is in no loaded object or out
 * of memory.  Strings live until prof_symtab_free(), except a "0x..."
 * name, which lives until the next lookup. */
int prof_symtab_lookup(prof_symtab *s, const void *addr, prof_symbol *out)
{
    found f = { (uintptr_t)addr, 0, NULL, 0 };
    dl_iterate_phdr(find_object, &f);
    if (!f.hit)
        return -1;
    object *o = NULL;
    for (size_t i = 0; i < s->nobjs && o == NULL; i++)
        if (s->objs[i].bias == f.bias)
            o = &s->objs[i];
    if (o == NULL && (o = add_object(s, f.name, f.bias)) == NULL)
        return -1;
    out->object = o->path;
    out->addr = (uint64_t)(f.addr - o->bias);
    const fsym *sym = lookup(o, out->addr);
    if (sym != NULL) {
        out->name = sym->name;
        out->start = sym->start;
    } else {
        snprintf(s->hex, sizeof s->hex, "0x%llx", (unsigned long long)out->addr);
        out->name = s->hex;
        out->start = out->addr;
    }
    return 0;
}
