/* SPDX-License-Identifier: MIT */
/* proftest.h - what the tests of libcgwprof share: running
 * prof-subject in a mode, and reading its profile back (through the
 * reader with its checks, the round trip and callgrind_annotate) into
 * the functions and call edges of each part. */
#ifndef CGW_PROFTEST_H
#define CGW_PROFTEST_H

#include <sys/types.h>

#include "testutil.h"

#define MAXP 8
#define MAXE 64
#define MAXF 64

typedef struct edge {
    char caller[64], callee[64];
    uint64_t count, incl;
} edge;

typedef struct fn {
    char name[64], file[512], object[512];
    uint64_t self, pos[2];
} fn;

typedef struct part {
    uint64_t thread, total;
    int has_thread;
    unsigned positions;
    size_t nfn, nedge;
    fn fns[MAXF];
    edge edges[MAXE];
} part;

typedef struct profile {
    size_t nparts;
    part parts[MAXP];
} profile;

fn *cgwt_fn_named(part *p, const char *name);
edge *cgwt_edge_of(part *p, const char *caller, const char *callee);
/* The count of calls caller -> callee, summed over call sites (0: none). */
uint64_t cgwt_calls(part *p, const char *caller, const char *callee);
/* Calls that a part must have: caller -> callee, count times in all. */
typedef struct cgwt_call_count {
    const char *caller, *callee;
    uint64_t count;
} cgwt_call_count;
void cgwt_check_calls(const char *file, int line, part *p, const cgwt_call_count *want, size_t n);
/* CGWT_CHECK_CALLS(p, { "main", "f", 2 }, { "f", "g", 4 }, ...) */
#define CGWT_CHECK_CALLS(p, ...)                                                        \
    cgwt_check_calls(__FILE__, __LINE__, p, (const cgwt_call_count[]){ __VA_ARGS__ },   \
                     sizeof((const cgwt_call_count[]){ __VA_ARGS__ }) / sizeof(cgwt_call_count))
/* Read the profile at path: no error from the reader and no
 * inclusive-excess warning, the round trip and (one part)
 * callgrind_annotate agree, and the functions and call edges of each
 * part. */
void cgwt_load_profile(const char *path, profile *prof);
/* Times that add up: each function's calls in carry at least its self
 * time, and never more than the whole part (recursion counted once). */
void cgwt_check_times(part *p);
/* Times that add up exactly: calls in = self + calls out, to the ns,
 * for every called function that does not call itself. */
void cgwt_check_exact(part *p);

extern const char *cgwt_subject_path; /* prof-subject elsewhere (NULL: the built one) */
extern long cgwt_last_maxrss;         /* KB: the peak of the subjects run so far */
/* Run prof-subject with CGWPROF_OUT=out and the arguments; its stdout
 * goes to the file stdout_path (may be NULL).  Returns its pid, and its
 * wait status in *status. */
pid_t cgwt_spawn(const char *out, const char *stdout_path, const char *mode, const char *arg,
            int *status);
/* cgwt_spawn(), and the subject must exit with 0. */
pid_t cgwt_run_subject(const char *out, const char *stdout_path, const char *mode, const char *arg);
/* Run prof-subject in mode (profile at <tmp>/<mode>.out, its stdout to
 * stdout_path unless NULL) and load the profile. */
void cgwt_profile_mode(const char *mode, const char *stdout_path, profile *prof);

#endif
