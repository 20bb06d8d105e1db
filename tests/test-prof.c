/* SPDX-License-Identifier: MIT */
/* test-prof: libcgwprof on prof-subject, a program with a known call
 * graph: exact call counts per edge, self and inclusive times that add
 * up, to the ns (no nanosecond counted twice through recursion), names
 * of static functions and demangled C++ and Rust names, file and line
 * when built with libdw, one part per thread (or one for the finished
 * threads, folded), a forked child's own profile (and the calls it
 * goes on skipping), CGWPROF_OUT's %p and %%, on-demand dumps, and
 * exit() from inside nested calls.  Every profile is read back through
 * the reader and the round trip, and through callgrind_annotate when
 * single-part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proftest.h"

static uint64_t fib_calls(int n)
{
    return n < 2 ? 1 : 1 + fib_calls(n - 1) + fib_calls(n - 2);
}

/* The line of the first line of the subject's source holding text. */
static uint64_t source_line(const char *text)
{
    const char *src = getenv("CGW_PROF_SOURCE");
    CHECK(src != NULL);
    FILE *f = fopen(src, "r");
    CHECK(f != NULL);
    char line[512];
    uint64_t n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f) != NULL)
        if (n++, strstr(line, text) != NULL)
            found = n;
    fclose(f);
    CHECK(found != 0);
    return found;
}

/* The graph mode with clock (NULL: the default).  The time of nap(), a
 * 20 ms sleep, is in ns: at least 20 ms, and no more than the subject
 * measured around the call, give or take 1% for the TSC's calibration
 * (ticks taken for ns would be off by the TSC's GHz). */
static void graph_with(const char *clock)
{
    char out[512];
    snprintf(out, sizeof out, "%s/graph.stdout", cgwt_tmpdir());
    if (clock != NULL)
        setenv("CGWPROF_CLOCK", clock, 1);
    profile prof;
    cgwt_profile_mode("graph", out, &prof);
    unsetenv("CGWPROF_CLOCK");
    size_t len;
    char *text = cgwt_read_file(out, &len);
    CHECK(text != NULL);
    uint64_t around = strtoull(text, NULL, 10);
    free(text);
    CHECK_U64(prof.nparts, 1);
    part *p = &prof.parts[0];
    CHECK(!p->has_thread); /* one thread: no thread: line */
    CGWT_CHECK_CALLS(p, { "main", "outer", 3 },
                        { "outer", "inner", 6 },
                        { "inner", "spin", 6 },
                        { "main", "fib", 1 },
                        { "fib", "fib", fib_calls(12) - 1 });
    /* recursion: the inner calls' time is inside main's call of fib */
    CHECK_U64(cgwt_edge_of(p, "fib", "fib")->incl, 0);
    CHECK(cgwt_edge_of(p, "main", "fib")->incl >= cgwt_fn_named(p, "fib")->self);
    CHECK(cgwt_edge_of(p, "outer", "inner")->incl >= cgwt_edge_of(p, "inner", "spin")->incl);
    cgwt_check_times(p);
    cgwt_check_exact(p);
    CHECK(cgwt_fn_named(p, "spin")->self > 0);
    uint64_t napped = cgwt_edge_of(p, "main", "nap")->incl;
    if (napped < 20000000u - 200000u || napped > around + around / 100)
        cgwt_fail(__FILE__, __LINE__, "nap() took %llu ns in the profile, %llu around it",
                  (unsigned long long)napped, (unsigned long long)around);
    CGWT_CHECK_CALLS(p, { "main", "ns::thing(int)", 1 },
                        { "main", "core::fmt::write", 1 });
    CHECK(strstr(cgwt_fn_named(p, "main")->object, "prof-subject") != NULL);
    /* the portable subset: lines alone where there are some (speedscope
     * misreads two columns), addresses otherwise; CGWPROF_POSITIONS asks
     * for both */
    const char *dw = getenv("CGW_HAVE_LIBDW"), *want = getenv("CGWPROF_POSITIONS");
    fn *outer = cgwt_fn_named(p, "outer");
    if (dw != NULL && strcmp(dw, "yes") == 0) {
        int both = want != NULL && strcmp(want, "instr,line") == 0;
        CHECK_U64(p->positions, both ? CGW_POS_INSTR | CGW_POS_LINE : CGW_POS_LINE);
        size_t n = strlen(outer->file);
        CHECK(n > 15 && strcmp(outer->file + n - 15, "/prof-subject.c") == 0);
        uint64_t line = source_line("NOINLINE static void outer(void)"), at = outer->pos[both];
        if (at < line || at > line + 1)
            cgwt_fail(__FILE__, __LINE__, "outer at line %llu, defined at %llu",
                      (unsigned long long)at, (unsigned long long)line);
        if (both)
            CHECK(outer->pos[0] > line);
    } else {
        CHECK_U64(p->positions, CGW_POS_INSTR);
        CHECK(outer->pos[0] != 0);
        CHECK_STR(outer->file, "???");
    }
    printf("graph (%s clock): exact counts, times add up, nap() %llu ns (%llu around), %s\n",
           clock ? clock : "default", (unsigned long long)napped, (unsigned long long)around,
           p->positions & CGW_POS_LINE ? "with file and line" : "names only");
}

/* Each call's ticks rounded to ns on its own left a caller 1-3 ns short
 * on most runs: a few runs make it show. */
static void test_graph(void)
{
    for (int i = 0; i < 4; i++)
        graph_with(NULL);
    graph_with("monotonic");
    setenv("CGWPROF_POSITIONS", "instr,line", 1);
    graph_with(NULL);
    unsetenv("CGWPROF_POSITIONS");
}

static void test_threads(void)
{
    profile prof;
    cgwt_profile_mode("threads", NULL, &prof);
    CHECK_U64(prof.nparts, 4); /* main and three workers */
    int seen[4] = { 0 };
    for (size_t i = 0; i < prof.nparts; i++) {
        part *p = &prof.parts[i];
        CHECK(p->has_thread);
        cgwt_check_times(p);
        if (cgwt_fn_named(p, "worker") == NULL) {
            CHECK(cgwt_fn_named(p, "main") != NULL);
            seen[0]++;
            continue;
        }
        uint64_t k = cgwt_calls(p, "worker", "leaf") / 10;
        CHECK(k >= 1 && k <= 3);
        CGWT_CHECK_CALLS(p, { "worker", "leaf", 10 * k },
                            { "leaf", "spin", 10 * k });
        /* worker 3 left through pthread_exit() from inside quit_thread:
         * its calls in progress closed, the outermost (worker) too, so
         * that worker's own time is counted as the others' is */
        CHECK_U64(cgwt_calls(p, "worker", "quit_thread"), k == 3);
        CHECK(cgwt_fn_named(p, "worker")->self > 0);
        seen[k]++;
    }
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
    printf("threads: one part each, exact counts, pthread_exit counted to the outermost "
           "call\n");
}

/* The pid of the child a fork subject (pid) printed into file out:
 * another process's. */
static long child_pid(const char *out, pid_t pid)
{
    size_t len;
    char *text = cgwt_read_file(out, &len);
    CHECK(text != NULL);
    long cpid = atol(text);
    free(text);
    CHECK(cpid > 0 && cpid != (long)pid);
    return cpid;
}

static void test_fork(void)
{
    char pattern[512], out[512], parent[512], child[512];
    /* CGWPROF_OUT=.../fork.%%.%p: %% is a %, %p the pid of each */
    snprintf(pattern, sizeof pattern, "%s/fork.%%%%.%%p", cgwt_tmpdir());
    snprintf(out, sizeof out, "%s/fork.stdout", cgwt_tmpdir());
    pid_t pid = cgwt_run_subject(pattern, out, "fork", NULL);
    long cpid = child_pid(out, pid);
    snprintf(parent, sizeof parent, "%s/fork.%%.%ld", cgwt_tmpdir(), (long)pid);
    snprintf(child, sizeof child, "%s/fork.%%.%ld", cgwt_tmpdir(), cpid);
    profile prof;
    cgwt_load_profile(parent, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "run_fork", "before_fork", 2 },
                        { "run_fork", "parent_work", 4 });
    CHECK(cgwt_fn_named(p, "child_work") == NULL);
    cgwt_check_times(p);
    cgwt_load_profile(child, &prof);
    CHECK_U64(prof.nparts, 1);
    p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "run_fork", "child_work", 3 },
                        { "main", "run_fork", 1 }); /* the child returned through it */
    CHECK(cgwt_fn_named(p, "before_fork") == NULL);
    CHECK(cgwt_fn_named(p, "parent_work") == NULL);
    cgwt_check_times(p);
    printf("fork: parent and child each wrote only their own calls\n");
}

/* A child forked while calls were being skipped (their frames found no
 * memory: prof-subject refuses realloc() past 64 frames, 40 calls of
 * down() deep) keeps skipping them: it returns through them, not
 * through the frames it has, and says they were not recorded. */
static void test_fork_skipping(void)
{
    char pattern[512], out[512], path[512];
    snprintf(pattern, sizeof pattern, "%s/fork-skip.%%p", cgwt_tmpdir());
    snprintf(out, sizeof out, "%s/fork-skip.stdout", cgwt_tmpdir());
    int status;
    pid_t pid = cgwt_spawn(pattern, out, "fork-skip", NULL, &status);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        printf("fork-skip: skipped (no realloc() of its own in this build)\n");
        return;
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    long cpid = child_pid(out, pid);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/fork-skip.%ld", cgwt_tmpdir(), i ? cpid : (long)pid);
        profile prof;
        cgwt_load_profile(path, &prof);
        CHECK_U64(prof.nparts, 1);
        part *p = &prof.parts[0];
        /* main, run_fork_skip and 61 of down()'s 101 calls recorded */
        CGWT_CHECK_CALLS(p, { "main", "run_fork_skip", 1 },
                            { "run_fork_skip", "down", 1 },
                            { "down", "down", 60 });
        cgwt_check_times(p);
        size_t len;
        char *text = cgwt_read_file(path, &len);
        CHECK(text != NULL && strstr(text, "\ndesc: Warning: 40 calls not recorded") != NULL);
        free(text);
    }
    printf("fork-skip: the child goes on skipping the 40 calls its parent skipped\n");
}

static void test_dump(void)
{
    char final[512], early[512];
    snprintf(final, sizeof final, "%s/dump.out", cgwt_tmpdir());
    snprintf(early, sizeof early, "%s/dump.early", cgwt_tmpdir());
    cgwt_run_subject(final, NULL, "dump", early);
    profile prof;
    cgwt_load_profile(early, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "main", "outer", 1 },
                        { "outer", "inner", 2 },
                        { "main", "dumper", 1 }); /* in progress: counted */
    cgwt_check_times(p);
    /* main, the outermost call, in progress too: its time so far is its
     * self time and its calls', which is the whole part's */
    fn *m = cgwt_fn_named(p, "main");
    CHECK(m != NULL && m->self > 0);
    uint64_t out = 0;
    for (size_t i = 0; i < p->nedge; i++)
        if (strcmp(p->edges[i].caller, "main") == 0)
            out += p->edges[i].incl;
    if (m->self + out != p->total)
        cgwt_fail(__FILE__, __LINE__, "main: self %llu + calls out %llu, part total %llu",
                  (unsigned long long)m->self, (unsigned long long)out,
                  (unsigned long long)p->total);
    cgwt_load_profile(final, &prof);
    p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "main", "outer", 2 },
                        { "outer", "inner", 4 },
                        { "main", "dumper", 1 });
    cgwt_check_times(p);
    printf("dump: cgwprof_dump() mid-run, main's call in progress counted, then the full "
           "profile at exit\n");
}

static void test_exit(void)
{
    profile prof;
    cgwt_profile_mode("exit", NULL, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "main", "deep", 1 },
                        { "deep", "deep", 5 });
    CHECK_U64(cgwt_edge_of(p, "deep", "deep")->incl, 0);
    CHECK(cgwt_edge_of(p, "main", "deep")->incl > 0);
    cgwt_check_times(p);
    printf("exit: calls in progress at exit() counted once\n");
}

/* n short threads with CGWPROF_THREADS=fold: two parts, main's and
 * the finished threads', with every call; returns the peak memory (KB)
 * of the subjects so far, this one's when it is the largest. */
static long fold_many(const char *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/many-%s.out", cgwt_tmpdir(), n);
    setenv("CGWPROF_THREADS", "fold", 1);
    setenv("ASAN_OPTIONS", "quarantine_size_mb=0", 1); /* freed memory is reused */
    cgwt_run_subject(path, NULL, "many", n);
    unsetenv("CGWPROF_THREADS");
    unsetenv("ASAN_OPTIONS");
    profile prof;
    cgwt_load_profile(path, &prof);
    CHECK_U64(prof.nparts, 2);
    part *p = &prof.parts[0], *f = &prof.parts[1];
    if (cgwt_fn_named(p, "short_worker") != NULL) {
        p = &prof.parts[1];
        f = &prof.parts[0];
    }
    CHECK(cgwt_fn_named(p, "main") != NULL && cgwt_fn_named(p, "short_worker") == NULL);
    CGWT_CHECK_CALLS(f, { "short_worker", "leaf", strtoull(n, NULL, 10) },
                        { "leaf", "spin", strtoull(n, NULL, 10) });
    cgwt_check_times(f);
    return cgwt_last_maxrss;
}

/* Thousands of short threads, folded: two parts whatever their number,
 * and memory that does not grow with it (without folding each thread
 * kept about 9 KB: 20,000 of them 180 MB). */
static void test_fold(void)
{
    long few = fold_many("2000"), many = fold_many("20000");
    if (many > few + 8192)
        cgwt_fail(__FILE__, __LINE__, "20000 folded threads took %ld KB, 2000 took %ld KB",
                  many, few);
    printf("fold: 20000 threads in one part; the subjects' peak %ld KB after 2000 threads, "
           "%ld KB after 20000\n", few, many);
}

int main(void)
{
    test_graph();
    test_threads();
    test_fork();
    test_fork_skipping();
    test_dump();
    test_exit();
    test_fold();
    return 0;
}
