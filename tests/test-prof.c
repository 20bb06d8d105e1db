/* test-prof: libcgwprof on prof-subject, a program with a known call
 * graph: exact call counts per edge, self and inclusive times that add
 * up (no nanosecond counted twice through recursion), names of static
 * functions, file and line when built with libdw, one part per thread,
 * a forked child's own profile, on-demand dumps, and exit() from inside
 * nested calls.  Every profile is read back through the reader and the
 * round trip, and through callgrind_annotate when single-part. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

static fn *fn_named(part *p, const char *name)
{
    for (size_t i = 0; i < p->nfn; i++)
        if (strcmp(p->fns[i].name, name) == 0)
            return &p->fns[i];
    return NULL;
}

static edge *edge_of(part *p, const char *caller, const char *callee)
{
    for (size_t i = 0; i < p->nedge; i++)
        if (strcmp(p->edges[i].caller, caller) == 0 && strcmp(p->edges[i].callee, callee) == 0)
            return &p->edges[i];
    return NULL;
}

/* The count of calls caller -> callee, summed over call sites (0: none). */
static uint64_t calls(part *p, const char *caller, const char *callee)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->nedge; i++)
        if (strcmp(p->edges[i].caller, caller) == 0 && strcmp(p->edges[i].callee, callee) == 0)
            n += p->edges[i].count;
    return n;
}

static void add_record(profile *prof, const cgw_record *r)
{
    part *p = &prof->parts[prof->nparts - 1];
    if (r->kind == CGW_REC_FUNCTION) {
        CHECK(p->nfn < MAXF);
        fn *f = &p->fns[p->nfn++];
        snprintf(f->name, sizeof f->name, "%s", r->function);
        snprintf(f->file, sizeof f->file, "%s", r->file);
        snprintf(f->object, sizeof f->object, "%s", r->object ? r->object : "");
    } else if (r->kind == CGW_REC_COST) {
        fn *f = fn_named(p, r->function);
        CHECK(f != NULL);
        f->self += r->costs[0];
        memcpy(f->pos, r->pos, r->part->npos * sizeof *r->pos);
    } else if (r->kind == CGW_REC_CALL) {
        edge *e = edge_of(p, r->function, r->target.function);
        if (e == NULL) {
            CHECK(p->nedge < MAXE);
            e = &p->edges[p->nedge++];
            snprintf(e->caller, sizeof e->caller, "%s", r->function);
            snprintf(e->callee, sizeof e->callee, "%s", r->target.function);
        }
        e->count += r->count;
        e->incl += r->costs[0];
    } else if (r->kind == CGW_REC_PART_END) {
        p->total = r->costs[0];
    }
}

/* A diagnostic that a profile of libcgwprof must never get: an error,
 * or calls carrying more inclusive time than the callee's self time plus
 * its calls (each call's time rounded on its own to ns). */
static void no_excess(void *ctx, const cgw_diagnostic *d)
{
    if (d->severity == CGW_ERROR || strcmp(d->code, "inclusive-excess") == 0)
        cgwt_fail(__FILE__, __LINE__, "%s:%llu: %s [%s]", (const char *)ctx,
                  (unsigned long long)d->line, d->message, d->code);
}

/* Read the profile at path: no error from the reader and no
 * inclusive-excess warning, the round trip and (one part)
 * callgrind_annotate agree, and the functions and call edges of each
 * part. */
static void load(const char *path, profile *prof)
{
    size_t len;
    char *text = cgwt_read_file(path, &len);
    CHECK(text != NULL);
    cgwt_readback(text, len, NULL);
    free(text);
    memset(prof, 0, sizeof *prof);
    cgw_read_options o = { CGW_READ_CHECK, no_excess, (void *)path, NULL, 0 };
    cgw_reader *r = cgw_reader_open_path(path, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (CHECK_ST(cgw_reader_next(r, &rec), CGW_OK), rec != NULL) {
        if (rec->kind == CGW_REC_PART) {
            CHECK(prof->nparts < MAXP);
            part *p = &prof->parts[prof->nparts++];
            p->thread = rec->part->thread;
            p->has_thread = rec->part->has_thread;
            p->positions = rec->part->positions;
            CHECK_U64(rec->part->nevents, 1);
            CHECK_STR(rec->part->events[0].name, "ns");
        } else {
            add_record(prof, rec);
        }
    }
    cgw_reader_close(r);
    if (prof->nparts == 1)
        cgwt_annotate_totals(path, &prof->parts[0].total, 1);
}

/* Times that add up: each function's calls in carry at least its self
 * time, and never more than the whole part (recursion counted once). */
static void check_times(part *p)
{
    for (size_t i = 0; i < p->nfn; i++) {
        uint64_t in = 0;
        int called = 0;
        for (size_t j = 0; j < p->nedge; j++) {
            if (strcmp(p->edges[j].callee, p->fns[i].name) == 0) {
                in += p->edges[j].incl;
                called = 1;
            }
        }
        if (called && in < p->fns[i].self)
            cgwt_fail(__FILE__, __LINE__, "%s: self %llu > inclusive of its calls %llu",
                      p->fns[i].name, (unsigned long long)p->fns[i].self,
                      (unsigned long long)in);
        if (in > p->total)
            cgwt_fail(__FILE__, __LINE__, "%s: inclusive %llu > part total %llu",
                      p->fns[i].name, (unsigned long long)in, (unsigned long long)p->total);
    }
}

/* Times that add up exactly: a function that is called and does not
 * call itself spends in its calls its self time plus its own calls, to
 * the ns (every call finished, so nothing is in progress). */
static void check_exact(part *p)
{
    for (size_t i = 0; i < p->nfn; i++) {
        const char *name = p->fns[i].name;
        uint64_t in = 0, out = 0;
        int called = 0;
        if (edge_of(p, name, name) != NULL)
            continue;
        for (size_t j = 0; j < p->nedge; j++) {
            if (strcmp(p->edges[j].callee, name) == 0) {
                in += p->edges[j].incl;
                called = 1;
            }
            if (strcmp(p->edges[j].caller, name) == 0)
                out += p->edges[j].incl;
        }
        if (called && in != p->fns[i].self + out)
            cgwt_fail(__FILE__, __LINE__, "%s: calls in carry %llu ns, self %llu + calls out %llu",
                      name, (unsigned long long)in, (unsigned long long)p->fns[i].self,
                      (unsigned long long)out);
    }
}

static const char *subject_path; /* prof-subject elsewhere (NULL: the built one) */
static long last_maxrss; /* KB: the peak of the subjects run so far */

/* Run prof-subject with CGWPROF_OUT=out and the arguments; its stdout
 * goes to the file stdout_path (may be NULL).  Returns its pid, and its
 * wait status in *status. */
static pid_t spawn(const char *out, const char *stdout_path, const char *mode, const char *arg,
                   int *status)
{
    const char *subject = subject_path != NULL ? subject_path : getenv("CGW_PROF_SUBJECT");
    CHECK(subject != NULL);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("CGWPROF_OUT", out, 1);
        if (stdout_path != NULL && freopen(stdout_path, "w", stdout) == NULL)
            _exit(126);
        execl(subject, subject, mode, arg, (char *)NULL);
        _exit(127);
    }
    CHECK(waitpid(pid, status, 0) == pid);
    struct rusage ru;
    CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0);
    last_maxrss = ru.ru_maxrss;
    return pid;
}

/* spawn(), and the subject must exit with 0. */
static pid_t run(const char *out, const char *stdout_path, const char *mode, const char *arg)
{
    int status;
    pid_t pid = spawn(out, stdout_path, mode, arg, &status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        cgwt_fail(__FILE__, __LINE__, "prof-subject %s: status %d", mode, status);
    return pid;
}

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

/* Run prof-subject in mode (profile at <tmp>/<mode>.out, its stdout to
 * stdout_path unless NULL) and load the profile. */
static void profile_mode(const char *mode, const char *stdout_path, profile *prof)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.out", cgwt_tmpdir(), mode);
    run(path, stdout_path, mode, NULL);
    load(path, prof);
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
    profile_mode("graph", out, &prof);
    unsetenv("CGWPROF_CLOCK");
    size_t len;
    char *text = cgwt_read_file(out, &len);
    CHECK(text != NULL);
    uint64_t around = strtoull(text, NULL, 10);
    free(text);
    CHECK_U64(prof.nparts, 1);
    part *p = &prof.parts[0];
    CHECK(!p->has_thread); /* one thread: no thread: line */
    CHECK_U64(calls(p, "main", "outer"), 3);
    CHECK_U64(calls(p, "outer", "inner"), 6);
    CHECK_U64(calls(p, "inner", "spin"), 6);
    CHECK_U64(calls(p, "main", "fib"), 1);
    CHECK_U64(calls(p, "fib", "fib"), fib_calls(12) - 1);
    /* recursion: the inner calls' time is inside main's call of fib */
    CHECK_U64(edge_of(p, "fib", "fib")->incl, 0);
    CHECK(edge_of(p, "main", "fib")->incl >= fn_named(p, "fib")->self);
    CHECK(edge_of(p, "outer", "inner")->incl >= edge_of(p, "inner", "spin")->incl);
    check_times(p);
    check_exact(p);
    CHECK(fn_named(p, "spin")->self > 0);
    uint64_t napped = edge_of(p, "main", "nap")->incl;
    if (napped < 20000000u - 200000u || napped > around + around / 100)
        cgwt_fail(__FILE__, __LINE__, "nap() took %llu ns in the profile, %llu around it",
                  (unsigned long long)napped, (unsigned long long)around);
    CHECK_U64(calls(p, "main", "ns::thing(int)"), 1);
    CHECK_U64(calls(p, "main", "core::fmt::write"), 1);
    CHECK(strstr(fn_named(p, "main")->object, "prof-subject") != NULL);
    CHECK(p->positions & CGW_POS_INSTR);
    CHECK(fn_named(p, "outer")->pos[0] != 0);
    const char *dw = getenv("CGW_HAVE_LIBDW");
    if (dw != NULL && strcmp(dw, "yes") == 0) {
        CHECK(p->positions & CGW_POS_LINE);
        fn *outer = fn_named(p, "outer");
        size_t n = strlen(outer->file);
        CHECK(n > 15 && strcmp(outer->file + n - 15, "/prof-subject.c") == 0);
        uint64_t line = source_line("NOINLINE static void outer(void)");
        if (outer->pos[1] < line || outer->pos[1] > line + 1)
            cgwt_fail(__FILE__, __LINE__, "outer at line %llu, defined at %llu",
                      (unsigned long long)outer->pos[1], (unsigned long long)line);
    } else {
        CHECK(!(p->positions & CGW_POS_LINE));
        CHECK_STR(fn_named(p, "outer")->file, "???");
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
}

static void test_threads(void)
{
    profile prof;
    profile_mode("threads", NULL, &prof);
    CHECK_U64(prof.nparts, 4); /* main and three workers */
    int seen[4] = { 0 };
    for (size_t i = 0; i < prof.nparts; i++) {
        part *p = &prof.parts[i];
        CHECK(p->has_thread);
        check_times(p);
        if (fn_named(p, "worker") == NULL) {
            CHECK(fn_named(p, "main") != NULL);
            seen[0]++;
            continue;
        }
        uint64_t k = calls(p, "worker", "leaf") / 10;
        CHECK(k >= 1 && k <= 3);
        CHECK_U64(calls(p, "worker", "leaf"), 10 * k);
        CHECK_U64(calls(p, "leaf", "spin"), 10 * k);
        /* worker 3 left through pthread_exit() from inside quit_thread */
        CHECK_U64(calls(p, "worker", "quit_thread"), k == 3);
        seen[k]++;
    }
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
    printf("threads: one part each, exact counts, pthread_exit counted\n");
}

static void test_fork(void)
{
    char pattern[512], out[512], parent[512], child[512];
    snprintf(pattern, sizeof pattern, "%s/fork.%%p", cgwt_tmpdir());
    snprintf(out, sizeof out, "%s/fork.stdout", cgwt_tmpdir());
    pid_t pid = run(pattern, out, "fork", NULL);
    size_t len;
    char *text = cgwt_read_file(out, &len);
    CHECK(text != NULL);
    long cpid = atol(text);
    free(text);
    CHECK(cpid > 0 && cpid != (long)pid);
    snprintf(parent, sizeof parent, "%s/fork.%ld", cgwt_tmpdir(), (long)pid);
    snprintf(child, sizeof child, "%s/fork.%ld", cgwt_tmpdir(), cpid);
    profile prof;
    load(parent, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "run_fork", "before_fork"), 2);
    CHECK_U64(calls(p, "run_fork", "parent_work"), 4);
    CHECK(fn_named(p, "child_work") == NULL);
    check_times(p);
    load(child, &prof);
    CHECK_U64(prof.nparts, 1);
    p = &prof.parts[0];
    CHECK_U64(calls(p, "run_fork", "child_work"), 3);
    CHECK_U64(calls(p, "main", "run_fork"), 1); /* the child returned through it */
    CHECK(fn_named(p, "before_fork") == NULL);
    CHECK(fn_named(p, "parent_work") == NULL);
    check_times(p);
    printf("fork: parent and child each wrote only their own calls\n");
}

static void test_dump(void)
{
    char final[512], early[512];
    snprintf(final, sizeof final, "%s/dump.out", cgwt_tmpdir());
    snprintf(early, sizeof early, "%s/dump.early", cgwt_tmpdir());
    run(final, NULL, "dump", early);
    profile prof;
    load(early, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "outer"), 1);
    CHECK_U64(calls(p, "outer", "inner"), 2);
    CHECK_U64(calls(p, "main", "dumper"), 1); /* in progress: counted */
    check_times(p);
    load(final, &prof);
    p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "outer"), 2);
    CHECK_U64(calls(p, "outer", "inner"), 4);
    CHECK_U64(calls(p, "main", "dumper"), 1);
    check_times(p);
    printf("dump: cgwprof_dump() mid-run, then the full profile at exit\n");
}

static void test_exit(void)
{
    profile prof;
    profile_mode("exit", NULL, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "deep"), 1);
    CHECK_U64(calls(p, "deep", "deep"), 5);
    CHECK_U64(edge_of(p, "deep", "deep")->incl, 0);
    CHECK(edge_of(p, "main", "deep")->incl > 0);
    check_times(p);
    printf("exit: calls in progress at exit() counted once\n");
}

/* A stripped copy of prof-subject, its symbols in a separate debug file
 * that .gnu_debuglink names: its functions are named all the same. */
static void test_debug_file(void)
{
    if (system("command -v objcopy >/dev/null 2>&1") != 0) {
        printf("debug file: skipped (no objcopy)\n");
        return;
    }
    const char *tmp = cgwt_tmpdir();
    char cmd[4096], copy[512], path[512];
    snprintf(cmd, sizeof cmd,
             "cp '%s' '%s/ps' && objcopy --only-keep-debug '%s/ps' '%s/ps.debug' && "
             "objcopy --strip-all --add-gnu-debuglink='%s/ps.debug' '%s/ps' '%s/stripped' && "
             "chmod +x '%s/stripped' && ! nm '%s/stripped' 2>/dev/null | grep -q outer",
             getenv("CGW_PROF_SUBJECT"), tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    CHECK(system(cmd) == 0);
    snprintf(copy, sizeof copy, "%s/stripped", tmp);
    snprintf(path, sizeof path, "%s/stripped.out", tmp);
    subject_path = copy;
    run(path, "/dev/null", "graph", NULL);
    subject_path = NULL;
    profile prof;
    load(path, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "outer"), 3);
    CHECK_U64(calls(p, "inner", "spin"), 6);
    CHECK_U64(calls(p, "main", "ns::thing(int)"), 1);
    printf("debug file: a stripped program named from its .gnu_debuglink file\n");
}

/* Calls into a plugin that dlclose() unloaded keep its names, though
 * another plugin may be loaded at its address later; a dlclose() that
 * leaves it loaded (a second handle) changes nothing. */
static void test_dlclose(void)
{
    const char *dir = getenv("CGW_PROF_PLUGINS");
    char plugin[4096], out[512], path[512];
    snprintf(plugin, sizeof plugin, "%s/libprofplug-a.so", dir != NULL ? dir : ".");
    if (dir == NULL || access(plugin, R_OK) != 0) {
        printf("dlclose: skipped (no shared plugins: a static build)\n");
        return;
    }
    snprintf(out, sizeof out, "%s/dlclose.stdout", cgwt_tmpdir());
    snprintf(path, sizeof path, "%s/dlclose.out", cgwt_tmpdir());
    run(path, out, "dlclose", dir);
    size_t len;
    char *where = cgwt_read_file(out, &len);
    CHECK(where != NULL);
    profile prof;
    load(path, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "call_plugin", "plug_a_entry"), 7);
    CHECK_U64(calls(p, "plug_a_entry", "plug_a_work"), 7);
    CHECK_U64(calls(p, "call_plugin", "plug_b_entry"), 7);
    CHECK_U64(calls(p, "plug_b_entry", "plug_b_work"), 7);
    CHECK(strstr(fn_named(p, "plug_a_work")->object, "libprofplug-a.so") != NULL);
    CHECK(strstr(fn_named(p, "plug_b_work")->object, "libprofplug-b.so") != NULL);
    check_times(p);
    printf("dlclose: the unloaded plugin's calls keep its names (the next one loaded %s)\n",
           strncmp(where, "same", 4) == 0 ? "at the same address" : "elsewhere");
    free(where);
}

/* Calls that longjmp() left are counted as returning, and the calls
 * after the jump go to the function that called setjmp(). */
static void test_longjmp(void)
{
    profile prof;
    profile_mode("longjmp", NULL, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "jumper"), 1);
    CHECK_U64(calls(p, "jumper", "leaf"), 1000);
    CHECK_U64(calls(p, "jumper", "jump"), 1000);
    CHECK_U64(calls(p, "jump", "jump"), 3000 + 2); /* and bounce()'s jump(2) */
    CHECK_U64(calls(p, "leaf", "spin"), 1000);
    CHECK_U64(calls(p, "jump", "leaf"), 0);
    CHECK_U64(calls(p, "main", "bounce"), 1);
    CHECK_U64(calls(p, "bounce", "jump"), 1);
    CHECK_U64(calls(p, "main", "outer"), 1); /* not under bounce or jump */
    CHECK_U64(calls(p, "outer", "inner"), 2);
    check_times(p);
    printf("longjmp: calls after the jump charged to the function that called setjmp()\n");
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
    run(path, NULL, "many", n);
    unsetenv("CGWPROF_THREADS");
    unsetenv("ASAN_OPTIONS");
    profile prof;
    load(path, &prof);
    CHECK_U64(prof.nparts, 2);
    part *p = &prof.parts[0], *f = &prof.parts[1];
    if (fn_named(p, "short_worker") != NULL) {
        p = &prof.parts[1];
        f = &prof.parts[0];
    }
    CHECK(fn_named(p, "main") != NULL && fn_named(p, "short_worker") == NULL);
    CHECK_U64(calls(f, "short_worker", "leaf"), strtoull(n, NULL, 10));
    CHECK_U64(calls(f, "leaf", "spin"), strtoull(n, NULL, 10));
    check_times(f);
    return last_maxrss;
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

/* The files in dir whose names start with prefix. */
static int files_named(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* A program killed by sig (how: the subject's name for it) leaves its
 * profile, with the calls in progress counted, and dies of sig still;
 * the temporary file is gone. */
static void signal_with(const char *how, int sig)
{
    char path[512], name[64], pid_line[64];
    snprintf(name, sizeof name, "signal-%s.out", how);
    snprintf(path, sizeof path, "%s/%s", cgwt_tmpdir(), name);
    int status;
    pid_t pid = spawn(path, NULL, "signal", how, &status);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
        cgwt_fail(__FILE__, __LINE__, "prof-subject signal %s: status %d, not killed by %d",
                  how, status, sig);
    CHECK_U64(files_named(cgwt_tmpdir(), name), 1);
    profile prof;
    load(path, &prof);
    part *p = &prof.parts[0];
    CHECK_U64(calls(p, "main", "outer"), 2);
    CHECK_U64(calls(p, "outer", "inner"), 4);
    CHECK_U64(calls(p, "main", "die"), 1); /* in progress: counted */
    check_times(p);
    size_t len;
    char *text = cgwt_read_file(path, &len);
    snprintf(pid_line, sizeof pid_line, "\npid: %ld\n", (long)pid);
    CHECK(text != NULL && strstr(text, pid_line) != NULL); /* the program's, not the copy's */
    free(text);
}

/* SIGINT, SIGTERM and abort(); and a profile that cannot be written
 * does not keep the program from dying of its signal. */
static void test_signals(void)
{
    signal_with("int", SIGINT);
    signal_with("term", SIGTERM);
    signal_with("abort", SIGABRT);
    int status;
    spawn("/nonexistent/signal.out", NULL, "signal", "term", &status);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    printf("signals: a profile on SIGINT, SIGTERM and abort(), then death by the signal\n");
}

/* A copy of prof-subject at copy, setuid to uid (and setgid). */
static void setuid_copy(const char *copy, uid_t uid)
{
    size_t len;
    char *bin = cgwt_read_file(getenv("CGW_PROF_SUBJECT"), &len);
    CHECK(bin != NULL);
    FILE *f = fopen(copy, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(bin, 1, len, f) == len);
    CHECK(fclose(f) == 0);
    free(bin);
    CHECK(chown(copy, uid, (gid_t)uid) == 0);
    CHECK(chmod(copy, 06755) == 0); /* after chown(), which clears the bits */
}

/* A setuid program: CGWPROF_OUT, which whoever runs it chooses, is
 * ignored; the profile goes to callgrind.out.<pid> in its folder,
 * written by its effective user.  Making a program setuid to another
 * user takes root. */
static void test_setuid(void)
{
    const uid_t nobody = 65534;
    if (geteuid() != 0) {
        printf("setuid: skipped (it takes root to make a copy setuid to another user)\n");
        return;
    }
#ifdef __SANITIZE_ADDRESS__
    /* it cannot stop a setuid process's threads, nor read its
     * environment to be told not to */
    printf("setuid: skipped (LeakSanitizer fails in a setuid process)\n");
    return;
#endif
    char dir[512], copy[600], steered[600], def[600];
    snprintf(dir, sizeof dir, "%s/setuid", cgwt_tmpdir());
    CHECK(chmod(cgwt_tmpdir(), 0711) == 0); /* the effective user passes through */
    CHECK(mkdir(dir, 0777) == 0 && chmod(dir, 0777) == 0);
    snprintf(copy, sizeof copy, "%s/prof-subject", dir);
    snprintf(steered, sizeof steered, "%s/steered.out", dir);
    setuid_copy(copy, nobody);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("CGWPROF_OUT", steered, 1);
        if (chdir(dir) != 0 || freopen("/dev/null", "w", stdout) == NULL)
            _exit(126);
        execl(copy, copy, "graph", (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(access(steered, F_OK) != 0);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    struct stat st;
    CHECK(stat(def, &st) == 0);
    CHECK_U64(st.st_uid, nobody);
    profile prof;
    load(def, &prof);
    CHECK_U64(calls(&prof.parts[0], "main", "outer"), 3);
    printf("setuid: CGWPROF_OUT ignored, the profile in the program's folder\n");
}

int main(void)
{
    test_graph();
    test_threads();
    test_fork();
    test_dump();
    test_exit();
    test_debug_file();
    test_dlclose();
    test_longjmp();
    test_fold();
    test_signals();
    test_setuid();
    return 0;
}
