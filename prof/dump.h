/* SPDX-License-Identifier: MIT */
/* dump.h - what the dump shares between its files: dump.c writes the
 * profile, resolve.c names the addresses (names.c: as loaded now),
 * unload.c keeps the calls and names of objects that dlclose()
 * unloaded. */
#ifndef CGWPROF_DUMP_H
#define CGWPROF_DUMP_H

#include "prof.h"

/* What a function is called, where it starts (instruction, line). */
typedef struct prof_names {
    char *object, *file, *name;
    uint64_t pos[2];
} prof_names;

/* One call edge of a thread as the dump copied it (times in ticks).
 * A tag other than 0 says the caller or callee lay in an object that
 * dlclose() unloaded (the tag-th unload): its names are those taken
 * then, not what is at the address now. */
typedef struct snap {
    void *caller, *site, *callee;
    uint64_t count, incl, self;
    uint32_t from, to;          /* identities of caller and callee */
    uint32_t tag_from, tag_to;
} snap;

typedef struct fnaddr {
    void *addr;
    uint32_t tag;
    uint32_t id; /* identity: equal (object, file, name), equal id */
    prof_names n;
} fnaddr;

typedef struct dump {
    prof_thread **threads;
    snap **snaps;
    size_t *nsnaps, nthreads;
    fnaddr *fns;
    size_t nfns, nids;
    uint32_t *rep; /* id -> index of its first fnaddr */
    prof_symtab *syms;
    prof_lines *lines;
    unsigned npos;    /* 2: addresses and lines, 1: addresses */
    unsigned positions; /* the profile's: CGW_POS_LINE and/or CGW_POS_INSTR */
    int fd;           /* -1: write to the path, atomically      */
    unsigned path_flags; /* cgw_open_path()'s: CGW_EXCL, CGW_NOFOLLOW */
    int frozen;       /* a copy of the process (signal.c): every
                       * thread's calls in progress count        */
    long pid;         /* the process the profile is of          */
    uint64_t now;     /* the tick calls in progress end at       */
} dump;

/* names.c: the names of the code at an address, as loaded now */
int prof_name(prof_symtab *syms, prof_lines *lines, void *addr, prof_names *out);
void prof_names_free(prof_names *names);

/* resolve.c */
int prof_resolve_all(dump *d);
const fnaddr *prof_fn_of(const dump *d, void *addr, uint32_t tag);

/* unload.c: the calls of thread t's edges made before an unload, as
 * snaps of their own (tagged), taken out of t's copy (indexed by edge
 * id); *ncopied grows by them (copy has room for prof_retired_count(t) more). */
size_t prof_retired_count(const prof_thread *t);
void prof_retired_apply(const prof_thread *t, snap *copy, size_t *ncopied);
const prof_names *prof_retired_names(void *addr, uint32_t tag);

#endif
