/* SPDX-License-Identifier: MIT */
/* demangle.c - readable names for C++ and Rust symbols, with the C++
 * runtime's own demangler, __cxa_demangle().  A C++ program has it
 * loaded; for a C program that calls mangled code (a C++ library loaded
 * later, or asm names) libstdc++.so.6 is opened at the first mangled
 * name, so C programs need not link it.  Rust's legacy symbols are
 * Itanium names with a "::h<16 hex digits>" hash last, which is
 * dropped; Rust's v0 names (_R...) are left as they are. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

typedef char *(*demangler)(const char *, char *, size_t *, int *);

static demangler find_demangler(void)
{
    static demangler fn;
    static int tried;
    if (tried)
        return fn;
    tried = 1;
    *(void **)&fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (fn == NULL) {
        void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (lib != NULL)
            *(void **)&fn = dlsym(lib, "__cxa_demangle"); /* lib stays open with the names */
    }
    return fn;
}

/* Drop a Rust legacy hash, "::h" and 16 hex digits at the end. */
static void drop_rust_hash(char *name)
{
    size_t len = strlen(name);
    if (len < 19 || memcmp(name + len - 19, "::h", 3) != 0)
        return;
    for (size_t i = len - 16; i < len; i++)
        if (strchr("0123456789abcdef", name[i]) == NULL)
            return;
    name[len - 19] = '\0';
}

/* The readable name of symbol (malloc'd): demangled when it is a
 * mangled C++ or Rust name the demangler takes, else a copy; NULL when
 * out of memory. */
char *prof_demangle(const char *symbol)
{
    demangler fn = strncmp(symbol, "_Z", 2) == 0 ? find_demangler() : NULL;
    int status = -1;
    char *out = fn != NULL ? fn(symbol, NULL, NULL, &status) : NULL;
    if (out == NULL || status != 0) {
        free(out);
        return strdup(symbol);
    }
    if (strncmp(symbol, "_ZN", 3) == 0 && symbol[strlen(symbol) - 1] == 'E')
        drop_rust_hash(out);
    return out;
}
