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
    prof_lines *lines = calloc(1, sizeof *lines);
    if (lines == NULL || (lines->dwfl = dwfl_begin(&callbacks)) == NULL)
        goto fail;
    if (dwfl_linux_proc_report(lines->dwfl, getpid()) != 0 ||
        dwfl_report_end(lines->dwfl, NULL, NULL) != 0)
        goto fail;
    return lines;
fail:
    prof_lines_free(lines);
    return NULL;
}

/* dir/file in lines->buf; file itself when that fails */
static const char *join(prof_lines *lines, const char *dir, const char *file)
{
    size_t dirlen = strlen(dir), filelen = strlen(file);
    if (dirlen + filelen + 2 > lines->cap) {
        char *path = realloc(lines->buf, dirlen + filelen + 2);
        if (path == NULL)
            return file;
        lines->buf = path;
        lines->cap = dirlen + filelen + 2;
    }
    memcpy(lines->buf, dir, dirlen);
    lines->buf[dirlen] = '/';
    memcpy(lines->buf + dirlen + 1, file, filelen + 1);
    return lines->buf;
}

uint64_t prof_lines_lookup(prof_lines *lines, const void *addr, const char **file)
{
    *file = NULL;
    if (lines == NULL)
        return 0;
    Dwarf_Addr at = (Dwarf_Addr)(uintptr_t)addr;
    Dwfl_Module *mod = dwfl_addrmodule(lines->dwfl, at);
    Dwfl_Line *line = mod != NULL ? dwfl_module_getsrc(mod, at) : NULL;
    int lineno = 0;
    const char *name = line != NULL ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (name == NULL || lineno <= 0)
        return 0;
    const char *dir = name[0] == '/' ? NULL : dwfl_line_comp_dir(line);
    *file = dir != NULL ? join(lines, dir, name) : name;
    return (uint64_t)lineno;
}

void prof_lines_free(prof_lines *lines)
{
    if (lines == NULL)
        return;
    if (lines->dwfl != NULL)
        dwfl_end(lines->dwfl);
    free(lines->buf);
    free(lines);
}

#else /* !HAVE_LIBDW */

prof_lines *prof_lines_new(void)
{
    return NULL;
}

uint64_t prof_lines_lookup(prof_lines *lines, const void *addr, const char **file)
{
    (void)lines;
    (void)addr;
    *file = NULL;
    return 0;
}

void prof_lines_free(prof_lines *lines)
{
    (void)lines;
}

#endif
