/* SPDX-License-Identifier: MIT */
/* jobs.h - a pool of worker processes for the tools that work on many
 * files one at a time (cgverify -j N; cgrecode and cgmerge could use it
 * too): each job runs in a worker (fork()) with its stdout and stderr on
 * unlinked temporary files, and the parent copies them out in job order,
 * so that the tool prints the bytes it prints running the jobs one after
 * another (not installed). */
#ifndef CGW_JOBS_H
#define CGW_JOBS_H

#include <stddef.h>

typedef struct tool_jobs {
    const char *tool;         /* messages say "TOOL: NAME: ..." */
    const char *const *names; /* job i's name (its file) */
    size_t n;                 /* the jobs, 0 to n - 1 */
    unsigned workers;         /* at most so many at once, at least 1 */
    /* Run job i, printing on stdout and stderr; its exit status (0 to
     * 124: more says the worker failed). */
    int (*run)(void *ctx, size_t i);
    /* Whether job i must run in the parent, in its turn (one that reads
     * stdin); NULL: none. */
    int (*here)(void *ctx, size_t i);
    /* In the parent, in job order, after job i's output: its status, or
     * -1 when its worker died (said on stderr); in_worker 0 when it ran
     * in the parent. */
    void (*done)(void *ctx, size_t i, int status, int in_worker);
    void *ctx;
} tool_jobs;

/* Run the jobs of j, at most j->workers at once; a job whose worker
 * cannot be started (no process or temporary file to spare) runs in the
 * parent in its turn. */
void tool_jobs_run(const tool_jobs *j);

/* The workers -j asks for by default: the online processors, at most
 * jobs (the jobs that may run in a worker), at least 1. */
unsigned tool_jobs_default(size_t jobs);

#endif
