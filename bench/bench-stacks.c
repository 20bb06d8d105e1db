/* SPDX-License-Identifier: MIT */
/* bench-stacks: stacks per second through cgw_stacks_add(), and through
 * cgw_stacks_add_h() and cgw_stacks_add_at() with functions registered
 * once, each with its cgw_stacks_write() into memory, against the floor
 * (a plain aggregator on the same stacks: one lookup of a hash table and
 * an add per frame, caller, line and callee, and nothing written) and
 * the same stacks formatted as folded text and read back with
 * cgw_stacks_add_folded() (what a profiler without the structured call
 * does), in one run, CPU time of this process for each; and the memory
 * of the stacks after a tenth of the stacks and after all of them (the
 * distinct stacks are the same set: it should not grow).  Targets
 * (issue 52): cgw_stacks_add_h() at most 1.5x the floor,
 * cgw_stacks_add() at most 3x.
 *
 *   bench-stacks [STACKS [DISTINCT]]   (default 1000000 of 20000)
 *
 * The stacks: DISTINCT call paths of depth 8 to 40 over 500 functions in
 * 40 files, seen in a fixed pseudo-random order; each is one stack of
 * count 1 (a sample). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cgw.h>

#define NFUNCS 500
#define MAXDEPTH 40

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds of CPU time of this process and of wall-clock time: the
 * clocks at a run's start, or (timing_since()) what the run took. */
typedef struct timing {
    double cpu, wall;
} timing;

/* The clocks now, for timing_since() at the run's end. */
static timing timing_start(void)
{
    return (timing){ cpu_now(), wall_now() };
}

/* The CPU and wall seconds since start. */
static timing timing_since(timing start)
{
    return (timing){ cpu_now() - start.cpu, wall_now() - start.wall };
}

/* One row of the table: a way's CPU and wall seconds and its stacks per
 * CPU second. */
static void print_row(const char *way, timing took, size_t nstacks)
{
    printf("  %-38s %9.3f %9.3f %12.0f\n", way, took.cpu, took.wall,
           (double)nstacks / took.cpu);
}

/* Resident set now, in KiB (VmRSS), 0 where /proc is not there. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f != NULL)
        fclose(f);
    return kib;
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

typedef struct path {
    unsigned depth;
    unsigned short fn[MAXDEPTH];
    unsigned line[MAXDEPTH];
} path;

static char names[NFUNCS][32], files[40][16];

/* The floor: an open-addressing table of (caller, line, callee) keys
 * (callee NFUNCS for a leaf's self cost) and their sums. */
typedef struct floor_slot {
    uint64_t key, sum;
} floor_slot;

static floor_slot *floor_table;
static size_t floor_mask, floor_used;

static void floor_add(uint64_t key, uint64_t n)
{
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15u) >> 20) & floor_mask;
    while (floor_table[i].key != 0 && floor_table[i].key != key)
        i = (i + 1) & floor_mask;
    if (floor_table[i].key == 0) {
        floor_table[i].key = key;
        floor_used++;
    }
    floor_table[i].sum += n;
}

/* Write the stacks s into memory: what the library's rows include. */
static int write_out(cgw_stacks *s, unsigned positions)
{
    char *out = NULL;
    size_t len = 0;
    cgw_options o = CGW_OPTIONS_INIT;
    o.positions = positions;
    cgw_writer *w = cgw_open_memory(&out, &len, &o);
    if (w == NULL || cgw_stacks_write(s, w) != CGW_OK) {
        fprintf(stderr, "bench-stacks: %s\n", w ? cgw_errmsg(w) : "no writer");
        return -1;
    }
    int rc = cgw_close(w) == CGW_OK ? 0 : -1;
    free(out);
    return rc;
}

int main(int argc, char **argv)
{
    size_t nstacks = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
    size_t ndistinct = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000;
    if (nstacks == 0 || ndistinct == 0) {
        fputs("usage: bench-stacks [STACKS [DISTINCT]]\n", stderr);
        return 2;
    }
    for (int i = 0; i < NFUNCS; i++)
        snprintf(names[i], sizeof names[i], "module::function_%d", i);
    for (int i = 0; i < 40; i++)
        snprintf(files[i], sizeof files[i], "src/f%d.c", i);
    path *paths = malloc(ndistinct * sizeof *paths);
    if (paths == NULL)
        return 2;
    uint64_t x = 88172645463325252ull;
    for (size_t p = 0; p < ndistinct; p++) {
        paths[p].depth = 8 + (unsigned)(next_random(&x) % (MAXDEPTH - 8));
        for (unsigned d = 0; d < paths[p].depth; d++) {
            paths[p].fn[d] = (unsigned short)(next_random(&x) % NFUNCS);
            paths[p].line[d] = 1 + (unsigned)(next_random(&x) % 400);
        }
    }

    /* 0. the floor */
    floor_mask = (1u << 20) - 1; /* 2^20 slots: under half full */
    floor_table = calloc(floor_mask + 1, sizeof *floor_table);
    if (floor_table == NULL)
        return 2;
    timing start = timing_start();
    uint64_t y = 1;
    for (size_t i = 0; i < nstacks; i++) {
        const path *p = &paths[next_random(&y) % ndistinct];
        unsigned d = 0;
        for (; d + 1 < p->depth; d++)
            floor_add(1 + ((uint64_t)p->fn[d] << 40 | (uint64_t)p->line[d] << 16 | p->fn[d + 1]), 1);
        floor_add(1 + ((uint64_t)p->fn[d] << 40 | (uint64_t)p->line[d] << 16 | NFUNCS), 1);
    }
    timing floor_took = timing_since(start);
    free(floor_table);

    /* 1. the structured call */
    cgw_stacks *s = cgw_stacks_new(NULL);
    cgw_frame frames[MAXDEPTH];
    long rss0 = rss_kib(), rss_tenth = 0;
    start = timing_start();
    y = 1;
    for (size_t i = 0; i < nstacks; i++) {
        const path *p = &paths[next_random(&y) % ndistinct];
        for (unsigned d = 0; d < p->depth; d++)
            frames[d] = (cgw_frame){ NULL, files[p->fn[d] % 40], names[p->fn[d]], NULL,
                                     p->line[d] };
        if (cgw_stacks_add(s, NULL, frames, p->depth, 1, 0) != CGW_OK)
            break;
        if (i + 1 == nstacks / 10)
            rss_tenth = rss_kib();
    }
    long rss_all = rss_kib();
    if (write_out(s, CGW_POS_LINE) < 0)
        return 1;
    timing add = timing_since(start);
    if (cgw_stacks_errmsg(s)[0] != '\0') {
        fprintf(stderr, "bench-stacks: %s\n", cgw_stacks_errmsg(s));
        return 1;
    }
    cgw_stacks_free(s);

    /* 2. the handle form: every function registered once */
    s = cgw_stacks_new(NULL);
    uint64_t *handle = malloc(NFUNCS * sizeof *handle), hs[MAXDEPTH], ls[MAXDEPTH];
    if (s == NULL || handle == NULL)
        return 2;
    for (int f = 0; f < NFUNCS; f++) {
        cgw_frame fr = { NULL, files[f % 40], names[f], NULL, 0 };
        if (cgw_stacks_intern(s, &fr, &handle[f]) != CGW_OK)
            return 1;
    }
    start = timing_start();
    y = 1;
    for (size_t i = 0; i < nstacks; i++) {
        const path *p = &paths[next_random(&y) % ndistinct];
        for (unsigned d = 0; d < p->depth; d++) {
            hs[d] = handle[p->fn[d]];
            ls[d] = p->line[d];
        }
        if (cgw_stacks_add_h(s, NULL, hs, ls, p->depth, 1, 0) != CGW_OK) {
            fprintf(stderr, "bench-stacks: %s\n", cgw_stacks_errmsg(s));
            return 1;
        }
    }
    if (write_out(s, CGW_POS_LINE) < 0)
        return 1;
    timing by_handle = timing_since(start);
    cgw_stacks_free(s);

    /* 2b. the handle form with addresses, into an "instr line" writer */
    s = cgw_stacks_new(NULL);
    uint64_t as[MAXDEPTH];
    for (int f = 0; s != NULL && f < NFUNCS; f++) {
        cgw_frame fr = { NULL, files[f % 40], names[f], NULL, 0 };
        if (cgw_stacks_intern(s, &fr, &handle[f]) != CGW_OK)
            return 1;
    }
    start = timing_start();
    y = 1;
    for (size_t i = 0; s != NULL && i < nstacks; i++) {
        const path *p = &paths[next_random(&y) % ndistinct];
        for (unsigned d = 0; d < p->depth; d++) {
            hs[d] = handle[p->fn[d]];
            ls[d] = p->line[d];
            as[d] = 0x400000u + (uint64_t)p->fn[d] * 0x1000u + (uint64_t)p->line[d] * 4u;
        }
        if (cgw_stacks_add_at(s, NULL, hs, as, ls, p->depth, 1, 1, 0) != CGW_OK) {
            fprintf(stderr, "bench-stacks: %s\n", cgw_stacks_errmsg(s));
            return 1;
        }
    }
    if (s == NULL || write_out(s, CGW_POS_INSTR | CGW_POS_LINE) < 0)
        return 1;
    timing by_addr = timing_since(start);
    cgw_stacks_free(s);
    free(handle);

    /* 3. folded text, formatted and read back, a batch at a time */
    s = cgw_stacks_new(NULL);
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap + 4096);
    if (s == NULL || text == NULL)
        return 2;
    start = timing_start();
    y = 1;
    for (size_t i = 0; i < nstacks; i++) {
        const path *p = &paths[next_random(&y) % ndistinct];
        for (unsigned d = 0; d < p->depth; d++)
            len += (size_t)snprintf(text + len, 4096, "%s%s (%s:%u)", d ? ";" : "",
                                    names[p->fn[d]], files[p->fn[d] % 40], p->line[d]);
        text[len++] = ' ';
        text[len++] = '1';
        text[len++] = '\n';
        if (len > cap || i + 1 == nstacks) {
            if (cgw_stacks_add_folded(s, NULL, "bench", text, len) != CGW_OK) {
                fprintf(stderr, "bench-stacks: %s\n", cgw_stacks_errmsg(s));
                return 1;
            }
            len = 0;
        }
    }
    timing folded = timing_since(start);
    cgw_stacks_free(s);
    free(text);
    free(paths);

    printf("bench-stacks: %zu stacks of %zu distinct paths (depth 8-39, %d functions)\n",
           nstacks, ndistinct, NFUNCS);
    printf("  %-38s %9s %9s %12s\n", "", "CPU s", "wall s", "stacks/s CPU");
    print_row("floor (a table lookup a frame)", floor_took, nstacks);
    print_row("cgw_stacks_add() + write", add, nstacks);
    print_row("cgw_stacks_add_h() (handles) + write", by_handle, nstacks);
    print_row("cgw_stacks_add_at() + write", by_addr, nstacks);
    print_row("folded text + cgw_stacks_add_folded()", folded, nstacks);
    printf("  against the floor (%zu keys), CPU: cgw_stacks_add() %.2fx (target 3x), "
           "cgw_stacks_add_h() %.2fx (target 1.5x), cgw_stacks_add_at() %.2fx\n",
           floor_used, add.cpu / floor_took.cpu, by_handle.cpu / floor_took.cpu,
           by_addr.cpu / floor_took.cpu);
    printf("  the structured call takes %.2fx the CPU of the folded path, the handles %.2fx\n",
           add.cpu / folded.cpu, by_handle.cpu / folded.cpu);
    if (rss0 > 0)
        printf("  resident memory of the stacks: %ld KiB after %zu stacks, %ld KiB after all "
               "%zu (grows with distinct frames and edges, not stacks)\n",
               rss_tenth - rss0, nstacks / 10, rss_all - rss0, nstacks);
    return 0;
}
