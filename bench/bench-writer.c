/* SPDX-License-Identifier: MIT */
/* bench-writer: libcgw's writer against writers that make the same bytes
 * without it (writer-base.c), in the same run, each into the same
 * temporary file, the best of ROUNDS rounds that take every writer in
 * turn (the best: this machine's noise only ever adds time, and the
 * medians of 7 rounds gave one build's compact mode 0.89-1.17 times the
 * default in five runs):
 *   hand      by hand into a buffer, integer IDs it keeps itself, libcgw's
 *             digit code, write(2) when full: the target (libcgw within
 *             1.0 times it);
 *   strings   libcgw, every name passed as a string (cgw_object,
 *             cgw_file, cgw_function, cgw_call);
 *   str-mv    the same, but each name first copied into the next slot of
 *             a ring of RING buffers, so that it comes at a pointer it
 *             did not come at last time: the writer's cache of recent
 *             pointers misses and it hashes the name (the issue 43
 *             target: strings within 1.15 times the handles whether or
 *             not the pointer is the same);
 *   copy      those copies alone, with no writer (not a writer: no
 *             output); mv-net = str-mv - copy, the moved strings' cost
 *             with the copying taken out (the copy cannot be made
 *             outside the timed loop without a copy a call of every name,
 *             far more memory than the profile: it is measured, the same
 *             way, best of the same rounds, and subtracted);
 *   handles   libcgw, every name registered once (cgw_intern,
 *             cgw_intern_function, cgw_function_h, cgw_call_h);
 *   compact   both again with CGW_COMPACT (other, fewer bytes): no
 *             slower than the default;
 *   fprintf-line, fprintf-field   one fprintf a line, one a field;
 *   limit     the bytes, copied into a buffer and written.
 * And, apart, the floor: the self-cost lines alone, formatted into memory
 * by libcgw's number code with no API around it; the input: the floor's
 * reading of the replay list alone.
 * The profiles are cggen's (cgw_generate), in the shapes Callgrind writes
 * by default (line, Ir), with --dump-instr=yes (instr+line, Ir) and with
 * --cache-sim=yes --branch-sim=yes (line, 13 events), read back once into
 * the list of calls every writer replays.  Then the two modes again on
 * Callgrind's own files, made now when $VALGRIND names valgrind
 * (writer-callgrind.c): the shapes users have, which cggen only imitates.
 *
 * It also counts, through the allocator hook, the allocations the writer
 * makes inside cgw_cost() and cgw_call()/cgw_call_h(): there must be none.
 *
 * Ratios: s/h strings over handles, mv/h mv-net over handles, s/hand
 * and h/hand over the hand-written writer, cmp/s, cmph/h compact over
 * the default, fpf/s, fpl/s the fprintf writers over strings, s/lim
 * strings over the limit; all of CPU time.
 *
 *   bench-writer [MB]           (default 16: the size of each profile)
 *   bench-writer MB WRITER [P]  one run of WRITER alone on each profile
 *                               (or on profile P), for callgrind:
 *                               --toggle-collect=run_one
 *
 * Exit 1 when bytes differ (a baseline, handles against strings, or the
 * floor), or when an allocation happens in a cost line. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cgw.h>

#include "counting.h"
#include "writer.h"

/* W_COPY is not a writer: the copies of W_MOVED alone, subtracted from
 * it (and not checked: it writes nothing) */
enum { W_HAND, W_STRINGS, W_MOVED, W_HANDLES, W_COMPACT, W_COMPACT_H, W_FPRINTF_LINE, W_FPRINTF,
       W_LIMIT, W_COPY, NWRITERS };
static const char *const writer_names[NWRITERS] = {
    "hand", "strings", "strings-moved", "handles", "compact", "compact-h", "fprintf-line",
    "fprintf-field", "limit", "copy-only"
};
/* the columns' heads */
static const char *const writer_heads[NWRITERS] = {
    "hand", "str", "str-mv", "handle", "cmp-s", "cmp-h", "fpr-ln", "fpr-fd", "limit", "copy"
};

double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* This process's CPU time (user + system, every thread), in seconds:
 * what the rounds are ranked by and the ratios taken from, as other
 * jobs share the machine. */
double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void die(const char *what)
{
    fprintf(stderr, "bench-writer: %s\n", what);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        die("out of memory");
    return p;
}

/* ------------------------------------------------------ libcgw */

static int discard(void *ctx, const char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

/* Every name of p registered in w, as a profiler would on first sight. */
static cgw_name_id *register_all(profile *p, cgw_writer *w)
{
    for (size_t i = 0; i < p->nobjs; i++)
        p->objs[i].h = cgw_intern(w, CGW_NAME_OBJECT, p->objs[i].str);
    for (size_t i = 0; i < p->nfiles; i++)
        p->files[i].h = cgw_intern(w, CGW_NAME_FILE, p->files[i].str);
    cgw_name_id *fns = xmalloc(p->nfuncs * sizeof *fns);
    for (size_t i = 0; i < p->nfuncs; i++) {
        const func *f = &p->funcs[i];
        fns[i] = cgw_intern_function(w, p->objs[f->ob].h, p->files[f->fl].h,
                                     p->fnames[f->fn].str);
    }
    return fns;
}

/* Replay p through w, with strings or (handles) registered names.  When
 * seen is not NULL (one flag a function), *line_allocs collects the
 * allocations made inside cgw_cost() and inside a call to a function
 * named before: cost lines, as opposed to a name's first use.  Inlined,
 * so that a timed replay (seen NULL) has no bookkeeping in its loop, as
 * the hand-written writers have none. */
static inline __attribute__((always_inline)) void replay(profile *p, cgw_writer *w, int handles, char *seen, long *line_allocs)
{
    for (size_t e = 0; e < p->nev; e++)
        cgw_add_event(w, p->evnames[e], NULL);
    cgw_name_id *fns = handles ? register_all(p, w) : NULL;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        const func *f = &p->funcs[x->fn];
        long before = allocs;
        int known = seen != NULL && seen[x->fn];
        if (x->kind == OP_FN && handles) {
            cgw_function_h(w, fns[x->fn]);
        } else if (x->kind == OP_FN) {
            cgw_object(w, p->objs[f->ob].str);
            cgw_file(w, p->files[f->fl].str);
            cgw_function(w, p->fnames[f->fn].str);
        } else if (x->kind == OP_COST) {
            cgw_cost(w, x->pos, x->costs, p->nev);
            known = seen != NULL;
        } else if (handles) {
            cgw_call_h(w, fns[x->fn], x->count, x->target, x->pos, x->costs, p->nev);
        } else {
            cgw_target t = { p->objs[f->ob].str, p->files[f->fl].str, p->fnames[f->fn].str };
            cgw_call(w, &t, x->count, x->target, x->pos, x->costs, p->nev);
        }
        if (seen != NULL)
            seen[x->fn] = 1;
        if (known)
            *line_allocs += allocs - before;
    }
    if (cgw_close(w) != CGW_OK)
        die("the writer failed");
    free(fns);
}

/* The strings at other pointers (W_MOVED): before each cgw_object(),
 * cgw_file(), cgw_function() and cgw_call(), each name is copied into
 * the next slot of a ring of RING slots, so that the same name comes at
 * a pointer it did not come at last time (the writer's cache of recent
 * pointers misses, and it must hash the name).  RING is prime, so that
 * the program's own period does not bring a name back to its slot. */
#define RING 509
static char *ring;        /* RING slots of ring_slot bytes */
static size_t ring_slot, ring_at;
static uint32_t *obj_len, *file_len, *fname_len;

static uint32_t *lengths(const name *v, size_t n, size_t *max)
{
    uint32_t *len = xmalloc(n * sizeof *len);
    for (size_t i = 0; i < n; i++) {
        len[i] = (uint32_t)strlen(v[i].str);
        *max = len[i] > *max ? len[i] : *max;
    }
    return len;
}

static void ring_setup(const profile *p)
{
    size_t max = 0;
    obj_len = lengths(p->objs, p->nobjs, &max);
    file_len = lengths(p->files, p->nfiles, &max);
    fname_len = lengths(p->fnames, p->nfnames, &max);
    ring_slot = (max + 1 + 15) & ~(size_t)15;
    ring = xmalloc(RING * ring_slot);
    ring_at = 0;
}

static void ring_free(void)
{
    free(ring);
    free(obj_len);
    free(file_len);
    free(fname_len);
}

static inline __attribute__((always_inline)) const char *moved(const char *s, uint32_t len)
{
    char *at = ring + ring_at * ring_slot;
    ring_at = ring_at + 1 == RING ? 0 : ring_at + 1;
    memcpy(at, s, (size_t)len + 1);
    __asm__ __volatile__("" : : "r"(at) : "memory"); /* the copy is made, here */
    return at;
}

/* Replay p through w (NULL: the copies alone, W_COPY) with every name
 * moved first. */
static inline __attribute__((always_inline)) void replay_moved_or_copy(profile *p, cgw_writer *w)
{
    if (w != NULL)
        for (size_t e = 0; e < p->nev; e++)
            cgw_add_event(w, p->evnames[e], NULL);
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        const func *f = &p->funcs[x->fn];
        if (x->kind == OP_COST) {
            if (w != NULL)
                cgw_cost(w, x->pos, x->costs, p->nev);
            continue;
        }
        const char *ob = moved(p->objs[f->ob].str, obj_len[f->ob]);
        const char *fl = moved(p->files[f->fl].str, file_len[f->fl]);
        const char *fn = moved(p->fnames[f->fn].str, fname_len[f->fn]);
        if (w == NULL)
            continue;
        if (x->kind == OP_FN) {
            cgw_object(w, ob);
            cgw_file(w, fl);
            cgw_function(w, fn);
        } else {
            cgw_target t = { ob, fl, fn };
            cgw_call(w, &t, x->count, x->target, x->pos, x->costs, p->nev);
        }
    }
    if (w != NULL && cgw_close(w) != CGW_OK)
        die("the writer failed");
}

static __attribute__((noinline)) void replay_moved(profile *p, cgw_writer *w)
{
    replay_moved_or_copy(p, w);
}

static __attribute__((noinline)) void copy_only(profile *p)
{
    replay_moved_or_copy(p, NULL);
}

/* ------------------------------------------------------ the run */

void rewind_fd(int fd)
{
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
        die("cannot reset the output file");
}

/* Writer k's output of p into fd, from its start. */
static __attribute__((noinline)) void run_one(profile *p, int k, int fd, const char *ref, size_t len)
{
    cgw_options o = { .struct_size = sizeof o, .positions = p->positions, .buffer_size = BUFSZ };
    if (k == W_COMPACT || k == W_COMPACT_H)
        o.flags = CGW_COMPACT;
    if (k == W_MOVED) {
        replay_moved(p, cgw_open_fd(fd, &o));
    } else if (k == W_COPY) {
        copy_only(p);
    } else if (k >= W_STRINGS && k <= W_COMPACT_H) {
        replay(p, cgw_open_fd(fd, &o), k == W_HANDLES || k == W_COMPACT_H, NULL, NULL);
    } else if (k == W_HAND) {
        with_hand(p, fd);
    } else if (k == W_LIMIT) {
        with_memcpy(ref, len, fd);
    } else {
        FILE *f = fdopen(dup(fd), "w");
        if (f == NULL || setvbuf(f, NULL, _IOFBF, BUFSZ) != 0)
            die("fdopen failed");
        if (k == W_FPRINTF)
            with_fprintf(p, f);
        else
            with_fprintf_line(p, f);
        if (fclose(f) != 0)
            die("fclose failed");
    }
}

/* The file holds exactly want[0..len): what writer k had to make. */
static void check_output(int fd, const char *want, size_t len, int k, const profile *p)
{
    off_t end = lseek(fd, 0, SEEK_END);
    char *got = xmalloc(len);
    if (end < 0 || (size_t)end != len || pread(fd, got, len, 0) != (ssize_t)len ||
        memcmp(got, want, len) != 0) {
        fprintf(stderr, "bench-writer: %s: %s wrote other bytes (%lld, not %zu)\n", p->label,
                writer_names[k], (long long)end, len);
        exit(1);
    }
    free(got);
}

/* The bytes of libcgw on p into memory (compact or not, strings or
 * handles); *len their length. */
static char *in_memory(profile *p, unsigned flags, int handles, size_t *len)
{
    char *text;
    cgw_options o = { .struct_size = sizeof o, .positions = p->positions, .flags = flags,
                      .buffer_size = BUFSZ };
    replay(p, cgw_open_memory(&text, len, &o), handles, NULL, NULL);
    return text;
}

/* Allocations in cost lines (and in all) of libcgw on p, into a sink
 * that keeps nothing (a memory sink grows). */
static long allocations(profile *p, int handles, long *all)
{
    long line_allocs = 0;
    cgw_options o = { .struct_size = sizeof o, .positions = p->positions, .buffer_size = BUFSZ,
                      .allocator = &counting };
    char *seen = calloc(p->nfuncs, 1);
    if (seen == NULL)
        die("out of memory");
    allocs = 0;
    replay(p, cgw_open_callback(discard, NULL, &o), handles, seen, &line_allocs);
    *all = allocs;
    free(seen);
    return line_allocs;
}

/* The floor must make exactly the self-cost lines of the file; its best
 * CPU time and the input's, per the whole profile, into *floor_s,
 * *input_s. */
static void floor_and_input(const profile *p, const char *ref, size_t rlen, double *floor_s,
                            double *input_s)
{
    char *lines = xmalloc(rlen), *fl = xmalloc(rlen + 64);
    uint64_t want[MAX_EV] = { 0 }, got[MAX_EV] = { 0 };
    size_t llen = cost_lines_of(ref, rlen, lines, want, p->nev);
    if (with_floor(p, fl, got) != llen || memcmp(fl, lines, llen) != 0 ||
        memcmp(got, want, sizeof got) != 0)
        die("the floor makes other cost lines or totals");
    free(lines);
    *floor_s = *input_s = 1e30;
    uint64_t first_sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        memset(got, 0, sizeof got);
        double t0 = cpu_now();
        with_floor(p, fl, got);
        double t1 = cpu_now();
        memset(got, 0, sizeof got);
        uint64_t sum = with_input(p, got);
        double t2 = cpu_now();
        if (r == 0)
            first_sum = sum;
        if (memcmp(got, want, sizeof got) != 0 || sum != first_sum)
            die("the input pass sums other totals");
        if (t1 - t0 < *floor_s)
            *floor_s = t1 - t0;
        if (t2 - t1 < *input_s)
            *input_s = t2 - t1;
    }
    free(fl);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The row of CPU times, whose ratios it prints, then the row of wall
 * times (wall: each writer's best wall time) under it. */
static void print_row(const profile *p, size_t rlen, const double *ns, const double *wall,
                      long line_allocs, long all_allocs, double floor_ns, double input_ns)
{
    printf("%-10s %8zu %5.1f %4s", p->label, p->ncost, rlen / 1e6, "cpu");
    for (int k = 0; k < NWRITERS; k++)
        printf(" %6.1f", ns[k]);
    double net = ns[W_MOVED] - ns[W_COPY]; /* the moved strings, less their copies */
    printf(" %6.1f %5.2fx %5.2fx %5.2fx %5.2fx %5.2fx %5.2fx %5.1fx %5.1fx %5.2fx %3ld/%ld %5.1f %5.1f\n",
           net, ns[W_STRINGS] / ns[W_HANDLES], net / ns[W_HANDLES],
           ns[W_STRINGS] / ns[W_HAND], ns[W_HANDLES] / ns[W_HAND],
           ns[W_COMPACT] / ns[W_STRINGS], ns[W_COMPACT_H] / ns[W_HANDLES],
           ns[W_FPRINTF] / ns[W_STRINGS], ns[W_FPRINTF_LINE] / ns[W_STRINGS],
           ns[W_STRINGS] / ns[W_LIMIT], line_allocs, all_allocs, floor_ns, input_ns);
    printf("%-10s %8s %5s %4s", "", "", "", "wall");
    for (int k = 0; k < NWRITERS; k++)
        printf(" %6.1f", wall[k]);
    printf(" %6.1f\n", wall[W_MOVED] - wall[W_COPY]);
}

/* Every writer's bytes checked, then ROUNDS rounds of every writer. */
static int bench(profile *p, unsigned mb, int fd)
{
    load(p, mb);
    ring_setup(p);
    size_t rlen, hlen, clen, chlen;
    char *ref = in_memory(p, 0, 0, &rlen), *hs = in_memory(p, 0, 1, &hlen);
    char *compact = in_memory(p, CGW_COMPACT, 0, &clen);
    char *compact_h = in_memory(p, CGW_COMPACT, 1, &chlen);
    if (hlen != rlen || memcmp(hs, ref, rlen) != 0 || chlen != clen ||
        memcmp(compact, compact_h, clen) != 0)
        die("the handles make other bytes than the strings");
    long all_s, all_h, line_s = allocations(p, 0, &all_s), line_h = allocations(p, 1, &all_h);
    double floor_s, input_s;
    floor_and_input(p, ref, rlen, &floor_s, &input_s);

    double t[NWRITERS][ROUNDS], tw[NWRITERS][ROUNDS], ns[NWRITERS], wall[NWRITERS];
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < NWRITERS; k++) {
            rewind_fd(fd);
            double c0 = cpu_now(), w0 = now();
            run_one(p, k, fd, ref, rlen);
            t[k][r] = cpu_now() - c0;
            tw[k][r] = now() - w0;
            if (k == W_COPY)
                continue;
            int is_compact = k == W_COMPACT || k == W_COMPACT_H;
            check_output(fd, is_compact ? compact : ref, is_compact ? clen : rlen, k, p);
        }
    }
    double n = (double)p->ncost;
    for (int k = 0; k < NWRITERS; k++) {
        qsort(t[k], ROUNDS, sizeof t[k][0], by_value);
        qsort(tw[k], ROUNDS, sizeof tw[k][0], by_value);
        ns[k] = t[k][0] * 1e9 / n;
        wall[k] = tw[k][0] * 1e9 / n;
    }
    print_row(p, rlen, ns, wall, line_s > line_h ? line_s : line_h, all_s > all_h ? all_s : all_h,
              floor_s * 1e9 / n, input_s * 1e9 / n);
    free(ref);
    free(hs);
    free(compact);
    free(compact_h);
    ring_free();
    unload(p);
    if (line_s != 0 || line_h != 0)
        fprintf(stderr, "bench-writer: %s: the writer allocated inside cost lines\n", p->label);
    return line_s != 0 || line_h != 0;
}

/* bench-writer MB WRITER [PROFILE]: one run of one writer, for callgrind. */
static int alone(profile *ps, int nps, unsigned mb, const char *writer, const char *only,
                 int fd)
{
    int k = 0;
    while (k < NWRITERS && strcmp(writer_names[k], writer) != 0)
        k++;
    if (k == NWRITERS)
        die("no such writer (hand, strings, strings-moved, handles, compact, compact-h, "
            "fprintf-line, fprintf-field, limit, copy-only)");
    for (int i = 0; i < nps; i++) {
        if (only != NULL && strcmp(only, ps[i].label) != 0)
            continue;
        load(&ps[i], mb);
        ring_setup(&ps[i]);
        size_t rlen;
        char *ref = in_memory(&ps[i], 0, 0, &rlen);
        rewind_fd(fd);
        run_one(&ps[i], k, fd, ref, rlen);
        printf("%s: %s wrote %lld bytes\n", ps[i].label, writer, (long long)lseek(fd, 0,
                                                                                   SEEK_END));
        free(ref);
        ring_free();
        unload(&ps[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned mb = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 16;
    if (mb == 0)
        die("usage: bench-writer [MB [WRITER [PROFILE]]]");
    char path[] = "bench-writer-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("cannot create a temporary file");
    unlink(path);

    profile ps[3] = {
        { .label = "line", .positions = CGW_POS_LINE, .npos = 1, .nev = 1 },
        { .label = "instr+line", .positions = CGW_POS_INSTR | CGW_POS_LINE, .npos = 2, .nev = 1 },
        { .label = "many-event", .positions = CGW_POS_LINE, .npos = 1, .nev = 13 },
    };
    if (argc > 2)
        return alone(ps, 3, mb, argv[2], argc > 3 ? argv[3] : NULL, fd);
    printf("bench-writer: cggen profiles of %u MB, best of %d rounds of every writer (ranked "
           "by CPU time), each into the same file; ns a cost line, of this process's CPU time "
           "(CLOCK_PROCESS_CPUTIME_ID, user + system) and, under it, of wall time; every ratio "
           "and the floor and input are of CPU time\n", mb, ROUNDS);
    printf("%-10s %8s %5s %4s", "profile", "lines", "MB", "time");
    for (int k = 0; k < NWRITERS; k++)
        printf(" %6s", writer_heads[k]);
    printf(" %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %5s %5s %5s\n", "mv-net", "s/h", "mv/h",
           "s/hand", "h/hand", "cmp/s", "cmph/h",
           "fpf/s", "fpl/s", "s/lim", "alloc", "floor", "input");
    int bad = 0;
    for (int i = 0; i < 3; i++)
        bad |= bench(&ps[i], mb, fd);
    bench_callgrind(fd);
    close(fd);
    return bad;
}
