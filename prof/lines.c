/* SPDX-License-Identifier: MIT */
/* lines.c - source file and line of a code address, from the debug info
 * through elfutils' libdwfl when configure found it; without it the
 * profile has names and instruction addresses only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "prof.h"

#if HAVE_LIBDW
#include <elfutils/libdwfl.h>

struct prof_lines {
    Dwfl *dwfl;
    char *buf; /* a joined path, until the next lookup */
    size_t cap;
};

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

prof_lines *prof_lines_new(void)
{
    /* elfutils' list: beside the object, its .debug folder, the root */
    static char path[4200];
    snprintf(path, sizeof path, ":.debug:%s", prof_debug_root());
    debuginfo_path = path;
    prof_lines *l = calloc(1, sizeof *l);
    if (l == NULL || (l->dwfl = dwfl_begin(&callbacks)) == NULL)
        goto fail;
    if (dwfl_linux_proc_report(l->dwfl, getpid()) != 0 ||
        dwfl_report_end(l->dwfl, NULL, NULL) != 0)
        goto fail;
    return l;
fail:
    prof_lines_free(l);
    return NULL;
}

/* dir/file in l->buf; file itself when that fails */
static const char *join(prof_lines *l, const char *dir, const char *file)
{
    size_t a = strlen(dir), b = strlen(file);
    if (a + b + 2 > l->cap) {
        char *p = realloc(l->buf, a + b + 2);
        if (p == NULL)
            return file;
        l->buf = p;
        l->cap = a + b + 2;
    }
    memcpy(l->buf, dir, a);
    l->buf[a] = '/';
    memcpy(l->buf + a + 1, file, b + 1);
    return l->buf;
}

uint64_t prof_lines_lookup(prof_lines *l, const void *addr, const char **file)
{
    *file = NULL;
    if (l == NULL)
        return 0;
    Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)addr;
    Dwfl_Module *m = dwfl_addrmodule(l->dwfl, a);
    Dwfl_Line *line = m != NULL ? dwfl_module_getsrc(m, a) : NULL;
    int lineno = 0;
    const char *f = line != NULL ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (f == NULL || lineno <= 0)
        return 0;
    const char *dir = f[0] == '/' ? NULL : dwfl_line_comp_dir(line);
    *file = dir != NULL ? join(l, dir, f) : f;
    return (uint64_t)lineno;
}

void prof_lines_free(prof_lines *l)
{
    if (l == NULL)
        return;
    if (l->dwfl != NULL)
        dwfl_end(l->dwfl);
    free(l->buf);
    free(l);
}

#else /* !HAVE_LIBDW */

prof_lines *prof_lines_new(void)
{
    return NULL;
}

uint64_t prof_lines_lookup(prof_lines *l, const void *addr, const char **file)
{
    (void)l;
    (void)addr;
    *file = NULL;
    return 0;
}

void prof_lines_free(prof_lines *l)
{
    (void)l;
}

#endif
