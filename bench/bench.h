/* SPDX-License-Identifier: MIT */
/* bench.h - what the benchmarks share: a clock, the exit on a failure,
 * the cggen profile they time, and a read with cgverify's checks.  A
 * benchmark defines BENCH_NAME, then includes it once (inline: a
 * benchmark need not use them all). */
#ifndef CGW_BENCH_H
#define CGW_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include <cgw.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's CPU time (user + system, every thread), in seconds:
 * the benchmarks rank rounds by it and take their ratios from it, as
 * other jobs share the machine; wall time (now()) is printed beside. */
static inline double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void die(const char *what)
{
    fprintf(stderr, BENCH_NAME ": %s\n", what);
    exit(2);
}

/* A cggen profile of about mb megabytes of text at path, written with
 * the writer flags: instr and line positions, 4 events, the generator's
 * default program shape. */
static inline void make_profile(const char *path, unsigned mb, unsigned flags)
{
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_LINE,
                      .flags = flags };
    cgw_writer *w = cgw_open_path(path, &o);
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = 1;
    g.events = 4;
    g.size = (uint64_t)mb << 20;
    if (w == NULL || cgw_generate(w, &g) != CGW_OK || cgw_close(w) != CGW_OK)
        die("writing a cggen profile failed");
}

static inline uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Read path with the reader API, as cgverify checks it; exit status 0
 * when every record came with no error. */
static inline int read_all(const char *path)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK };
    cgw_reader *r = cgw_reader_open_path(path, &o);
    const cgw_record *rec;
    uint64_t n = 0, errors = 1;
    while (r != NULL && cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        n++;
    if (r != NULL)
        cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    return n == 0 || errors != 0;
}

#endif /* CGW_BENCH_H */
