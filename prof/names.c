/* SPDX-License-Identifier: MIT */
/* names.c - what the code at an address is called as loaded now:
 * object, symbol (demangled), file and line.  The dump (resolve.c) and
 * dlclose() (unload.c, which keeps the names of what it unloads) both
 * name addresses through it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

void prof_names_free(prof_names *names)
{
    free(names->object);
    free(names->file);
    free(names->name);
}

/* The names of the code at addr, as loaded now: 0, or -1 out of memory
 * (out holds what was allocated, for prof_names_free()). */
int prof_name(prof_symtab *syms, prof_lines *lines, void *addr, prof_names *out)
{
    prof_symbol sym;
    const char *file = NULL;
    if (prof_symtab_lookup(syms, addr, &sym) == 0) {
        out->object = strdup(sym.object);
        out->pos[0] = sym.addr;
        out->name = prof_demangle(sym.name);
    } else {
        char hex[32];
        snprintf(hex, sizeof hex, "%p", addr);
        out->object = strdup("???");
        out->pos[0] = (uint64_t)(uintptr_t)addr;
        out->name = strdup(hex);
    }
    out->pos[1] = prof_lines_lookup(lines, addr, &file);
    out->file = strdup(file != NULL ? file : "???");
    return out->object != NULL && out->name != NULL && out->file != NULL ? 0 : -1;
}
