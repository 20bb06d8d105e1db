/* SPDX-License-Identifier: MIT */
/* proftest.c - running prof-subject and reading its profiles back, for
 * the tests of libcgwprof (proftest.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proftest.h"

fn *cgwt_fn_named(part *p, const char *name)
{
    for (size_t i = 0; i < p->nfn; i++)
        if (strcmp(p->fns[i].name, name) == 0)
            return &p->fns[i];
    return NULL;
}

edge *cgwt_edge_of(part *p, const char *caller, const char *callee)
{
    for (size_t i = 0; i < p->nedge; i++)
        if (strcmp(p->edges[i].caller, caller) == 0 && strcmp(p->edges[i].callee, callee) == 0)
            return &p->edges[i];
    return NULL;
}

/* The count of calls caller -> callee, summed over call sites (0: none). */
uint64_t cgwt_calls(part *p, const char *caller, const char *callee)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->nedge; i++)
        if (strcmp(p->edges[i].caller, caller) == 0 && strcmp(p->edges[i].callee, callee) == 0)
            n += p->edges[i].count;
    return n;
}

void cgwt_check_calls(const char *file, int line, part *p, const cgwt_call_count *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t got = cgwt_calls(p, want[i].caller, want[i].callee);
        if (got != want[i].count)
            cgwt_fail(file, line, "calls %s -> %s: got %llu, want %llu", want[i].caller,
                      want[i].callee, (unsigned long long)got,
                      (unsigned long long)want[i].count);
    }
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
        fn *f = cgwt_fn_named(p, r->function);
        CHECK(f != NULL);
        f->self += r->costs[0];
        memcpy(f->pos, r->pos, r->part->npos * sizeof *r->pos);
    } else if (r->kind == CGW_REC_CALL) {
        edge *e = cgwt_edge_of(p, r->function, r->target.function);
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
void cgwt_load_profile(const char *path, profile *prof)
{
    size_t len;
    char *text = cgwt_read_file(path, &len);
    CHECK(text != NULL);
    cgwt_readback(text, len, NULL);
    free(text);
    memset(prof, 0, sizeof *prof);
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = no_excess,
                           .diag_ctx = (void *)path };
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
void cgwt_check_times(part *p)
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
void cgwt_check_exact(part *p)
{
    for (size_t i = 0; i < p->nfn; i++) {
        const char *name = p->fns[i].name;
        uint64_t in = 0, out = 0;
        int called = 0;
        if (cgwt_edge_of(p, name, name) != NULL)
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

const char *cgwt_subject_path; /* prof-subject elsewhere (NULL: the built one) */
long cgwt_last_maxrss; /* KB: the peak of the subjects run so far */

/* The signals the subject is to die of (test-prof-ends) at their
 * defaults and unblocked: a test started with one ignored (a background
 * job of a non-interactive shell ignores SIGINT) or blocked would hand
 * that on through fork() and exec(). */
static void default_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGABRT };
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        signal(sigs[i], SIG_DFL);
        sigaddset(&set, sigs[i]);
    }
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* Run prof-subject with CGWPROF_OUT=out and the arguments; its stdout
 * goes to the file stdout_path (may be NULL).  Returns its pid, and its
 * wait status in *status. */
pid_t cgwt_spawn(const char *out, const char *stdout_path, const char *mode, const char *arg,
                   int *status)
{
    const char *subject = cgwt_subject_path != NULL ? cgwt_subject_path : getenv("CGW_PROF_SUBJECT");
    CHECK(subject != NULL);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("CGWPROF_OUT", out, 1);
        default_signals();
        if (stdout_path != NULL && freopen(stdout_path, "w", stdout) == NULL)
            _exit(126);
        execl(subject, subject, mode, arg, (char *)NULL);
        _exit(127);
    }
    CHECK(waitpid(pid, status, 0) == pid);
    struct rusage ru;
    CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0);
    cgwt_last_maxrss = ru.ru_maxrss;
    return pid;
}

/* cgwt_spawn(), and the subject must exit with 0. */
pid_t cgwt_run_subject(const char *out, const char *stdout_path, const char *mode, const char *arg)
{
    int status;
    pid_t pid = cgwt_spawn(out, stdout_path, mode, arg, &status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        cgwt_fail(__FILE__, __LINE__, "prof-subject %s: status %d", mode, status);
    return pid;
}

/* Run prof-subject in mode (profile at <tmp>/<mode>.out, its stdout to
 * stdout_path unless NULL) and load the profile. */
void cgwt_profile_mode(const char *mode, const char *stdout_path, profile *prof)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.out", cgwt_tmpdir(), mode);
    cgwt_run_subject(path, stdout_path, mode, NULL);
    cgwt_load_profile(path, prof);
}

