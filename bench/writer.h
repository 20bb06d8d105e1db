/* SPDX-License-Identifier: MIT */
/* writer.h - what bench-writer's files share: the profile replayed as a
 * list of writer calls, and the writers it is timed against
 * (writer-base.c). */
#ifndef CGW_BENCH_WRITER_H
#define CGW_BENCH_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include <cgw.h>

#define BUFSZ 65536
#define MAX_EV 64
/* bench-writer takes the best of ROUNDS rounds of every writer */
#define ROUNDS 21

enum { OP_FN, OP_COST, OP_CALL };

/* One writer call.  fn indexes funcs: the function of OP_FN, the callee
 * of OP_CALL. */
typedef struct op {
    int kind;
    uint32_t fn;
    uint64_t count;
    uint64_t pos[2], target[2];
    const uint64_t *costs;
} op;

/* A name as the hand-written writers keep it: its text and compressed
 * ID, and libcgw's handle of it. */
typedef struct name {
    const char *str;
    unsigned id;
    cgw_name_id h;
} name;

typedef struct func {
    uint32_t ob, fl, fn; /* into objs, files, fnames */
} func;

typedef struct profile {
    const char *label;
    unsigned positions;
    size_t npos, nev;
    const char *evnames[MAX_EV];
    op *ops;
    size_t nops, ncost;
    uint64_t *pool;
    name *objs, *files, *fnames;
    size_t nobjs, nfiles, nfnames;
    func *funcs;
    size_t nfuncs;
    char *gen;          /* cggen's bytes */
    cgw_reader *reader; /* open: the names are its */
} profile;

/* writer-profile.c: p (label, positions, npos, nev set) from a cggen
 * profile of about mb MB; the floor and its input pass; the self-cost
 * lines and totals of the file ref, which the floor must reproduce. */
void load(profile *p, unsigned mb);
void unload(profile *p);
size_t with_floor(const profile *p, char *out, uint64_t *totals);
uint64_t with_input(const profile *p, uint64_t *totals);
size_t cost_lines_of(const char *ref, size_t len, char *out, uint64_t *totals, size_t nev);

/* bench-writer.c */
void die(const char *what);
void *xmalloc(size_t n);
double now(void);     /* wall (CLOCK_MONOTONIC), s */
double cpu_now(void); /* this process's CPU time (CLOCK_PROCESS_CPUTIME_ID), s */
void rewind_fd(int fd); /* the output file emptied, its offset 0 */

/* writer-callgrind.c: the default and the compact mode on Callgrind's
 * own files, made now when $VALGRIND names valgrind (rows printed). */
void bench_callgrind(int fd);

/* writer-base.c: the same bytes as libcgw's default mode, written
 * without libcgw: one fprintf per field, one fprintf per line, and by
 * hand into a buffer with integer IDs (libcgw's digit code, so that
 * only the API, the names and the checks differ); and the limit: the
 * bytes ref, copied into a buffer and written. */
void with_fprintf(profile *p, FILE *f);
void with_fprintf_line(profile *p, FILE *f);
void with_hand(profile *p, int fd);
void with_memcpy(const char *ref, size_t len, int fd);

#endif /* CGW_BENCH_WRITER_H */
