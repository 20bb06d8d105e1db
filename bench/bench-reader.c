/* SPDX-License-Identifier: MIT */
/* bench-reader: the reader API and cgverify against a floor (bench/floor:
 * every number of every cost line parsed, nothing checked), against
 * callgrind_annotate and KCachegrind's loader on the same files, in the
 * same run, and their peak memory on a big file.
 *
 *   bench-reader [MID_MB [BIG_MB]]     (defaults 16 and 1024)
 *   bench-reader flood                 (the flood files alone)
 *
 * Files (written into the current folder, removed at the end):
 * - mid: cggen --positions instr,line --events 4 (cgw_generate), MID_MB;
 * - real: Callgrind's own file (--dump-instr=yes --collect-jumps=yes) of
 *   a Python start-up, made now when $VALGRIND names valgrind and
 *   /usr/bin/python3 is there;
 * - real0: the same run with Callgrind's default options (fewer cost
 *   lines, so calls and names weigh more);
 * - cache: Callgrind's file with --cache-sim=yes --branch-sim=yes
 *   --dump-instr=yes (13 events, trailing zero costs dropped) of gcc's
 *   cc1 ($CC1) compiling $CC1_INPUT with $CC1_FLAGS, about 20 MB;
 * - big: the same cggen shape, BIG_MB.
 * The targets (issue 24), printed as met or not for each real file:
 * cgverify within 1.5 times the floor ($FLOOR), 150 times
 * callgrind_annotate, 10 times KCachegrind's load (of $KCGDUMP's run,
 * the load alone: see kcg_load(); and its parse between its own load
 * messages: kcg_parse()), and a peak RSS under 64 MiB.
 * - flood: 83,000 names built to collide in the reader's former hash
 *   (tests/flood.c; a 3 MB file that took 13.6 s), against as many
 *   ordinary names of the same length: the ratio of their times is
 *   about 1 with a keyed hash, and was in the hundreds.
 * The reader (with CGW_READ_CHECK, cgverify's checks) and cgverify
 * ($CGVERIFY) each run in a child process, so time and peak RSS are
 * theirs alone; the best of 3 runs of the reader counts, and the best
 * of 5 to 201 of cgverify and the floor, run in turn (against_floor()).
 * Every time is the child's CPU time (user + system, from wait4()), with
 * its wall time printed beside; every "best" is the least CPU time, and
 * every ratio is of CPU times.  A baseline that cannot run here says so
 * on a line of its own ("<baseline>: not run: <why>").
 * callgrind_annotate ($CALLGRIND_ANNOTATE) runs once on mid, real, real0
 * and cache. */
#define _DEFAULT_SOURCE /* wait4 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cgw.h>

#define BENCH_NAME "bench-reader"
#include "bench.h"
#include "../tests/testutil.h" /* cgwt_flood_next() */

#include "callgrind.h"
#include "counting.h"

/* The reader's allocations while it reads the cost lines of path (the
 * cgw_reader_next() calls that return a COST record), and in all. */
static void count_allocations(const char *path)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK,
                           .allocator = &counting };
    allocs = 0;
    cgw_reader *r = cgw_reader_open_path(path, &o);
    const cgw_record *rec;
    long in_lines = 0;
    uint64_t lines = 0;
    for (;;) {
        long before = allocs;
        if (r == NULL || cgw_reader_next(r, &rec) != CGW_OK || rec == NULL)
            break;
        if (rec->kind == CGW_REC_COST) {
            in_lines += allocs - before;
            lines++;
        }
    }
    cgw_reader_close(r);
    printf("reader allocations: %ld in %" PRIu64 " cost lines, %ld in all\n", in_lines, lines,
           allocs);
    if (in_lines != 0)
        die("the reader allocated inside cost lines");
}

/* The wall time of the last run_env() (of the least CPU time, after
 * best_of_env()), in seconds. */
static double last_wall;

/* Run argv (cgb_exec_child(), errors to /dev/null) or read_all(path) when
 * argv is NULL, in a child: its CPU time (user + system) in seconds, its
 * wall time into last_wall, and its peak RSS in KiB; -1 when it failed. */
static double run_env(char *const argv[], char *assign, const char *path, long *maxrss_kb)
{
    fflush(stdout);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (argv == NULL)
            _exit(read_all(path));
        cgb_exec_child(argv, assign, -1);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
        die("cannot run a child");
    last_wall = now() - t0;
    double t = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    *maxrss_kb = ru.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static double run(char *const argv[], const char *path, long *maxrss_kb)
{
    return run_env(argv, NULL, path, maxrss_kb);
}

static double best_of_env(int n, char *const argv[], char *assign, const char *path, long *rss)
{
    double best = -1, wall = -1;
    for (int i = 0; i < n; i++) {
        double t = run_env(argv, assign, path, rss);
        if (t < 0)
            return -1;
        if (best < 0 || t < best)
            best = t, wall = last_wall;
    }
    last_wall = wall;
    return best;
}

static double best_of(int n, char *const argv[], const char *path, long *rss)
{
    return best_of_env(n, argv, NULL, path, rss);
}

static const char *tool(const char *env, const char *dflt)
{
    const char *v = getenv(env);
    return v && *v ? v : dflt;
}

/* KCachegrind's load of path alone, in CPU seconds (-1 when $KCGDUMP is
 * not there or failed; *load_wall its wall time): kcgdump prints what it loaded (with KCGNORM=1 the
 * totals and each function's self cost and calls, 1-9 MB for the files
 * here; without it every line and instruction too, 5-25 times more), and
 * has no switch to turn that off.  So it runs on the file once and on
 * the file twice (two parts, whose functions it merges: the same dump,
 * the costs added), the best of 3 of each, and the difference is one
 * load, with Qt's start-up and the dump gone.  *whole gets the run on
 * the file once. */
static double kcg_load(const char *path, double *whole, double *whole_wall, double *load_wall)
{
    static char norm[] = "KCGNORM=1";
    const char *kcg = getenv("KCGDUMP");
    if (kcg == NULL || *kcg == '\0')
        return -1;
    char *once[] = { (char *)kcg, (char *)path, NULL };
    char *twice[] = { (char *)kcg, (char *)path, (char *)path, NULL };
    long rss;
    *whole = best_of_env(3, once, norm, path, &rss);
    *whole_wall = last_wall;
    double both = best_of_env(3, twice, norm, path, &rss);
    *load_wall = last_wall - *whole_wall;
    return *whole > 0 && both > *whole ? both - *whole : -1;
}

/* KCachegrind's parse of path as it reports it, in CPU seconds (-1 when
 * $KCGDUMP is not there or failed; *wall its wall time): the time
 * between its own load messages, "Loading" and "loaded."
 * (CachegrindLoader's loadStart() and loadFinished(), which kcgdump
 * prints on stderr as they come), read through a pipe as they arrive,
 * the child's CPU clock (clock_getcpuclockid()) read with each; the
 * best of 3 by CPU.  It leaves out what
 * KCachegrind does after the parse (the parts sorted, the call cycles
 * found), which kcg_load() includes. */
static double kcg_cpu(clockid_t clk)
{
    struct timespec ts;
    if (clock_gettime(clk, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double kcg_parse(const char *path, double *wall)
{
    static char norm[] = "KCGNORM=1";
    const char *kcg = getenv("KCGDUMP");
    if (kcg == NULL || *kcg == '\0')
        return -1;
    char *argv[] = { (char *)kcg, (char *)path, NULL };
    double best = -1;
    for (int i = 0; i < 3; i++) {
        int fds[2];
        if (pipe(fds) != 0)
            die("cannot make a pipe");
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            cgb_exec_child(argv, norm, fds[1]);
        }
        close(fds[1]);
        char text[4096];
        size_t have = 0;
        ssize_t got;
        double start = -1, end = -1, cstart = -1, cend = -1;
        clockid_t clk;
        if (pid > 0 && clock_getcpuclockid(pid, &clk) != 0)
            return -1;
        while (pid > 0 && (got = read(fds[0], text + have, sizeof text - 1 - have)) > 0) {
            double t = now(), c = kcg_cpu(clk);
            have += (size_t)got;
            text[have] = '\0';
            if (start < 0 && strstr(text, "Loading") != NULL)
                start = t, cstart = c;
            if (end < 0 && strstr(text, "loaded.") != NULL)
                end = t, cend = c;
            if (have > sizeof text / 2) { /* keep a tail: a message may be cut */
                memmove(text, text + have - 16, 16);
                have = 16;
            }
        }
        close(fds[0]);
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0 || start < 0 || end < start || cstart < 0 || cend < cstart)
            return -1;
        if (best < 0 || cend - cstart < best)
            best = cend - cstart, *wall = end - start;
    }
    return best;
}

/* cgverify (b) against the floor (a, from $FLOOR; its time -1 when it is
 * not there) on one file: run in turn, each as often as about a second
 * of both allows (5 to 201 times), the best (CPU) of each, so that the
 * drift of a noisy machine falls on both alike; b's peak RSS into
 * *rss_b; the wall times of the best runs into *wa, *wb. */
static void against_floor(char *const b[], const char *path, double *ta, double *tb,
                          long *rss_b, double *wa, double *wb)
{
    const char *floor = getenv("FLOOR");
    char *a[] = { (char *)floor, (char *)path, NULL };
    int with_a = floor != NULL && *floor != '\0';
    long rss_a;
    *ta = with_a ? run(a, path, &rss_a) : -1;
    *wa = last_wall;
    *tb = run(b, path, rss_b);
    *wb = last_wall;
    if (*tb < 0 || (with_a && *ta < 0)) {
        *ta = *tb = -1;
        return;
    }
    int n = (int)(0.5 / (*ta > *tb ? *ta : *tb));
    n = n < 5 ? 5 : n > 201 ? 201 : n;
    for (int i = 1; i < n; i++) {
        long rss;
        double t = with_a ? run(a, path, &rss_a) : -1;
        if (t > 0 && t < *ta)
            *ta = t, *wa = last_wall;
        if ((t = run(b, path, &rss)) > 0 && t < *tb)
            *tb = t, *wb = last_wall;
    }
}

/* What the file's targets give: cgverify's CPU time tv against the
 * floor's, callgrind_annotate's (tc) and KCachegrind's load (tk:
 * kcg_load()) and parse (tp: kcg_parse()), its RSS; all CPU times. */
static void targets(const char *label, double tv, double tf, double tc, double tk, double tp,
                    long rss_kb)
{
    printf("%-5s targets (CPU):", label);
    if (tf > 0)
        printf("  floor %.4f s, cgverify %.2fx of it (<= 1.5: %s)", tf, tv / tf,
               tv / tf <= 1.5 ? "met" : "NOT met");
    if (tc > 0)
        printf("  %.0fx callgrind_annotate (>= 150: %s)", tc / tv, tc / tv >= 150 ? "met" : "NOT met");
    if (tk > 0 && tp > 0) /* met only when both ways say so */
        printf("  %.1fx kcgdump's load, %.1fx its parse (>= 10: %s)", tk / tv, tp / tv,
               tk / tv >= 10 && tp / tv >= 10 ? "met" : "NOT met");
    else if (tk > 0)
        printf("  %.1fx kcgdump's load (>= 10: %s)", tk / tv, tk / tv >= 10 ? "met" : "NOT met");
    printf("  RSS %ld MiB (< 64: %s)\n", rss_kb / 1024, rss_kb < 64 * 1024 ? "met" : "NOT met");
}

/* One file: the reader, cgverify and (with_ca) callgrind_annotate, the
 * floor and KCachegrind's loader. */
static void measure(const char *label, const char *path, int with_ca)
{
    double mb = (double)file_size(path) / 1e6;
    long rss_r, rss_v, rss_ca;
    char *verify[] = { (char *)tool("CGVERIFY", "cgverify"), "--quiet", (char *)path, NULL };
    double tr = best_of(3, NULL, path, &rss_r), wr = last_wall, tv, tf, tc = -1, wv, wf, wc = -1;
    against_floor(verify, path, &tf, &tv, &rss_v, &wf, &wv);
    if (tr < 0)
        die("the reader failed");
    printf("%-5s %8.1f  reader cpu %6.3f s wall %6.3f s %6.0f MB/s %4ld MiB", label, mb, tr, wr,
           mb / tr, rss_r / 1024);
    if (tv >= 0)
        printf("  cgverify cpu %6.3f s wall %6.3f s %6.0f MB/s %4ld MiB", tv, wv, mb / tv,
               rss_v / 1024);
    else
        printf("  cgverify failed (%s)", verify[0]);
    if (tf > 0)
        printf("  floor cpu %6.4f s wall %6.4f s", tf, wf);
    char *ca[] = { (char *)tool("CALLGRIND_ANNOTATE", "callgrind_annotate"), "--auto=no",
                   "--threshold=100", (char *)path, NULL };
    if (with_ca) {
        tc = run(ca, path, &rss_ca);
        wc = last_wall;
        if (tc > 0)
            printf("  callgrind_annotate cpu %6.2f s wall %6.2f s %5.1f MB/s  ratio %4.0fx reader "
                   "%4.0fx cgverify", tc, wc, mb / tc, tc / tr, tv > 0 ? tc / tv : 0);
    }
    printf("\n");
    const char *floor = getenv("FLOOR"), *kcg = getenv("KCGDUMP");
    if (floor == NULL || *floor == '\0')
        printf("%-5s the floor: not run: no $FLOOR (make bench sets it to bench/floor)\n", label);
    if (with_ca && tc <= 0)
        printf("%-5s callgrind_annotate: not run: %s failed or is not there\n", label, ca[0]);
    double tk = -1, whole = -1, tp = -1, whole_wall = -1, load_wall = -1, parse_wall = -1;
    if (with_ca && (kcg == NULL || *kcg == '\0'))
        printf("%-5s KCachegrind's loader: not run: no $KCGDUMP (make bench builds kcgdump "
               "from ../shared/oracles with Qt5Core and g++; one is missing here)\n", label);
    else if (with_ca && (tk = kcg_load(path, &whole, &whole_wall, &load_wall)) <= 0)
        printf("%-5s KCachegrind's loader: not run: %s failed\n", label, kcg);
    else if (with_ca) {
        tp = kcg_parse(path, &parse_wall);
        printf("%-5s kcgdump (KCGNORM=1) cpu %.3f s (wall %.3f s), on the file twice cpu %.3f s: "
               "its load cpu %.3f s (wall %.3f s); between its load messages cpu %.3f s "
               "(wall %.3f s)\n", label, whole, whole_wall, whole + tk, tk, load_wall, tp,
               parse_wall);
    }
    if (tv > 0)
        targets(label, tv, tf, tc, tk, tp, rss_v);
    fflush(stdout);
}

#define FLOOD_NAMES 83000

static void write_names(const char *path, int flood)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        die("cannot write a flood file");
    fprintf(f, "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n");
    char name[17];
    uint64_t counter = 0;
    for (int i = 1; i <= FLOOD_NAMES; i++) {
        if (flood)
            cgwt_flood_next(&counter, name);
        else
            snprintf(name, sizeof name, "f%015d", i);
        fprintf(f, "fn=(%d) %s\n%d 1\n", i, name, i);
    }
    if (fclose(f) != 0)
        die("cannot write a flood file");
}

static void measure_flood(void)
{
    const char *flood = "bench-reader-flood.out", *plain = "bench-reader-plain.out";
    write_names(flood, 1);
    write_names(plain, 0);
    long rss;
    double tf = best_of(3, NULL, flood, &rss), wf = last_wall;
    double tp = best_of(3, NULL, plain, &rss), wp = last_wall;
    if (tf < 0 || tp < 0)
        die("the reader failed on a flood file");
    printf("flood %d names built to collide in the former hash cpu %.3f s (wall %.3f s), "
           "ordinary names cpu %.3f s (wall %.3f s): ratio (CPU) %.2f\n", FLOOD_NAMES, tf, wf,
           tp, wp, tf / tp);
    remove(flood);
    remove(plain);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "flood") == 0) {
        measure_flood();
        return 0;
    }
    unsigned mid = argc > 1 ? (unsigned)atoi(argv[1]) : 16;
    unsigned big = argc > 2 ? (unsigned)atoi(argv[2]) : 1024;
    const char *mid_path = "bench-reader-mid.out", *real_path = "bench-reader-real.out",
               *big_path = "bench-reader-big.out";
    printf("bench-reader: each run in a child, its CPU time (user + system, wait4()) beside its "
           "wall time; the reader (CGW_READ_CHECK) best of 3 runs, cgverify --quiet and the floor "
           "best of 5-201 run in turn, best by CPU; MB/s and every ratio of CPU time; MB are 10^6 "
           "bytes\n");
    printf("mid: cggen --positions instr,line --events 4; real: callgrind --dump-instr=yes "
           "--collect-jumps=yes of python3; real0: the same with callgrind's defaults; "
           "cache: callgrind --cache-sim=yes --branch-sim=yes --dump-instr=yes of cc1; "
           "big: as mid\n");

    make_profile(mid_path, mid, 0);
    measure("mid", mid_path, 1);
    count_allocations(mid_path);
    remove(mid_path);

    static const char *const labels[] = { "real0", "real", "cache" };
    static const int shapes[] = { CGB_DEFAULT, CGB_INSTR_JUMPS, CGB_CACHE_CC1 };
    for (int i = 0; i < 3; i++) {
        int made = cgb_make_callgrind(real_path, shapes[i]);
        if (made > 0)
            measure(labels[i], real_path, 1);
        else
            printf("%-5s Callgrind's file: not run: %s%s\n", labels[i],
                   made < 0 ? "valgrind failed; it needs " : "it needs ",
                   cgb_callgrind_needs(shapes[i]));
        remove(real_path);
    }

    make_profile(big_path, big, 0);
    measure("big", big_path, 0);
    remove(big_path);
    measure_flood();
    return 0;
}
