/* SPDX-License-Identifier: MIT */
/* dump.c - write the profile through libcgw: one part per thread (with
 * thread:), each function's self time on its entry position, each call
 * edge with its count and inclusive time, all in nanoseconds.  The path
 * sink is atomic, so a dump that fails leaves any earlier file intact.
 *
 * Calls still in progress in the dumping thread count as returning now;
 * other threads contribute the calls they have finished. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>
#include "dump.h"

static int by_number(const void *left, const void *right)
{
    const prof_thread *one = *(prof_thread *const *)left, *other = *(prof_thread *const *)right;
    return one->number < other->number ? -1 : one->number > other->number;
}

static int collect_threads(dump *d)
{
    size_t count = 0;
    for (prof_thread *t = prof_threads(); t != NULL; t = t->next)
        count++;
    d->threads = calloc(count ? count : 1, sizeof *d->threads);
    d->snaps = calloc(count ? count : 1, sizeof *d->snaps);
    d->nsnaps = calloc(count ? count : 1, sizeof *d->nsnaps);
    if (d->threads == NULL || d->snaps == NULL || d->nsnaps == NULL)
        return -1;
    for (prof_thread *t = prof_threads(); t != NULL && d->nthreads < count; t = t->next)
        d->threads[d->nthreads++] = t;
    qsort(d->threads, d->nthreads, sizeof *d->threads, by_number);
    return 0;
}

/* The dumping thread's calls in progress, added to its copy as if they
 * returned now (its own data is left alone), as prof_pop() counts them. */
static void close_open_calls(prof_thread *t, snap *copy, uint64_t now)
{
    uint64_t inner = 0;
    for (size_t i = t->depth - 1; i >= 1; i--) {
        const prof_frame *frame = &t->stack[i];
        snap *call = &copy[frame->edge->id];
        uint64_t spent = prof_span(frame->t0, now);
        uint64_t done = frame->child + inner < spent ? frame->child + inner : spent;
        call->count++;
        if (call->caller != call->callee)
            call->incl += spent;
        call->self += spent - done;
        inner = spent;
    }
}

/* Copy the thread's edges, with times in ticks (write_thread() turns
 * them into ns); the dumping thread's calls in progress are added as if
 * they returned now (in the copy only), and the calls into objects that
 * dlclose() unloaded get snaps of their own. */
static int snapshot(dump *d, size_t k, uint64_t now)
{
    prof_thread *t = d->threads[k];
    prof_chunk *head = __atomic_load_n(&t->chunks, __ATOMIC_ACQUIRE);
    size_t nedges = head ? head->base + __atomic_load_n(&head->used, __ATOMIC_ACQUIRE) : 0;
    size_t extra = prof_retired_count(t);
    snap *copy = calloc(nedges + extra ? nedges + extra : 1, sizeof *copy);
    if (copy == NULL)
        return -1;
    for (prof_chunk *chunk = head; chunk != NULL; chunk = chunk->prev) {
        uint32_t used = __atomic_load_n(&chunk->used, __ATOMIC_ACQUIRE);
        for (uint32_t i = 0; i < used && chunk->base + i < nedges; i++) {
            const prof_edge *edge = &chunk->edges[i];
            copy[edge->id] = (snap){ edge->caller, edge->site, edge->callee, prof_load(&edge->count),
                               prof_load(&edge->incl), prof_load(&edge->self), 0, 0, 0, 0 };
        }
    }
    if (t == prof_self || d->frozen)
        close_open_calls(t, copy, now);
    if (extra != 0)
        prof_retired_apply(t, copy, &nedges);
    d->snaps[k] = copy;
    d->nsnaps[k] = nedges;
    return 0;
}

static int by_edge(const void *left, const void *right)
{
    const snap *one = left, *other = right;
    if (one->from != other->from)
        return one->from < other->from ? -1 : 1;
    if (one->site != other->site)
        return (uintptr_t)one->site < (uintptr_t)other->site ? -1 : 1;
    return one->to < other->to ? -1 : one->to > other->to;
}

/* The part of a position { address, line } that the profile has: both,
 * or the line alone (the default with lines: the portable subset, which
 * every reader tested reads right; speedscope misreads two columns), or
 * the address alone (no debug lines). */
static const uint64_t *written(const dump *d, const uint64_t *pos)
{
    return (d->positions & CGW_POS_INSTR) ? pos : pos + 1;
}

/* The positions of the profile: CGWPROF_POSITIONS (line, instr or
 * instr,line) where the debug lines allow it, else lines when there are
 * some, else addresses. */
static unsigned profile_positions(const dump *d)
{
    const char *want = prof_getenv("CGWPROF_POSITIONS");
    if (d->npos == 1)
        return CGW_POS_INSTR;
    if (want != NULL && strcmp(want, "instr") == 0)
        return CGW_POS_INSTR;
    if (want != NULL && (strcmp(want, "instr,line") == 0 || strcmp(want, "line,instr") == 0))
        return CGW_POS_INSTR | CGW_POS_LINE;
    return CGW_POS_LINE;
}

/* The instruction of a call, from its return address: on x86-64 a
 * direct call is 5 bytes (E8 rel32); otherwise one byte back, which is
 * inside the call and on its line. */
static uintptr_t call_address(void *site)
{
    const unsigned char *code = site;
#if defined(__x86_64__)
    if (code[-5] == 0xe8)
        return (uintptr_t)(code - 5);
#endif
    return (uintptr_t)(code - 1);
}

/* A call from caller, at its call site; a site outside the caller's
 * object (a callback called by qsort() in libc), or in an object that
 * was unloaded since, is not looked up, and the call is placed on the
 * caller's entry. */
static void write_call(const dump *d, cgw_writer *w, const fnaddr *caller, const snap *call)
{
    const fnaddr *callee = &d->fns[d->rep[call->to]];
    const char *file = NULL;
    prof_symbol sym;
    uint64_t src[2] = { caller->n.pos[0], caller->n.pos[1] };
    if (call->tag_from == 0 && prof_symtab_lookup(d->syms, (char *)call->site - 1, &sym) == 0 &&
        strcmp(sym.object, caller->n.object) == 0) {
        uintptr_t at = call_address(call->site);
        src[0] = sym.addr + 1 - ((uintptr_t)call->site - at);
        src[1] = prof_lines_lookup(d->lines, (void *)at, &file);
        if (src[1] == 0)
            src[1] = caller->n.pos[1];
    }
    cgw_target to = { callee->n.object, callee->n.file, callee->n.name };
    cgw_call(w, &to, call->count, written(d, callee->n.pos), written(d, src), &call->incl, 1);
}

/* A function's times in one part: ticks as measured, and the ns that
 * its calls are written with. */
typedef struct fnsum {
    uint64_t self, in, out; /* ticks: own time; calls into it (the
                             * thread's entry too) and out of it   */
    uint64_t in_ns, out_ns; /* the same calls, each turned into ns  */
    int seen;
} fnsum;

/* Count the call e in the sums of its caller and callee, and turn its
 * inclusive time into ns. */
static void add_call(fnsum *sum, snap *call)
{
    uint64_t ticks = call->incl;
    call->incl = prof_ns(ticks);
    fnsum *to = &sum[call->to];
    to->self += call->self;
    to->in += ticks;
    to->in_ns += call->incl;
    to->seen = 1;
    if (call->caller != NULL) {
        sum[call->from].out += ticks;
        sum[call->from].out_ns += call->incl;
        sum[call->from].seen = 1;
    }
}

/* A function's self time in ns, such that its calls in never carry more
 * than its self time plus its calls out (what cgverify checks), though
 * each call is rounded on its own.  When the ticks add up (every call
 * of it finished) it is exactly the difference; otherwise (calls in
 * progress in another thread) its own time, raised to the difference
 * when rounding left it short. */
static uint64_t self_ns(const fnsum *fn)
{
    uint64_t spare = fn->in_ns > fn->out_ns ? fn->in_ns - fn->out_ns : 0;
    if (fn->self + fn->out == fn->in)
        return spare;
    uint64_t own = prof_ns(fn->self);
    return own > spare ? own : spare;
}

/* One thread's part: functions in identity order, each with its self
 * time and then its calls. */
static void write_thread(dump *d, cgw_writer *w, size_t k, fnsum *sum)
{
    snap *calls = d->snaps[k];
    size_t ncopied = d->nsnaps[k], ncalls = 0;
    memset(sum, 0, d->nids * sizeof *sum);
    for (size_t i = 0; i < ncopied; i++) {
        if (calls[i].count == 0)
            continue;
        calls[i].to = prof_fn_of(d, calls[i].callee, calls[i].tag_to)->id;
        if (calls[i].caller != NULL)
            calls[i].from = prof_fn_of(d, calls[i].caller, calls[i].tag_from)->id;
        add_call(sum, &calls[i]);
        if (calls[i].caller != NULL)
            calls[ncalls++] = calls[i]; /* the calls, compacted in place */
    }
    qsort(calls, ncalls, sizeof *calls, by_edge);
    size_t next = 0;
    for (uint32_t id = 0; id < d->nids; id++) {
        if (!sum[id].seen)
            continue;
        const fnaddr *fn = &d->fns[d->rep[id]];
        uint64_t self = self_ns(&sum[id]);
        cgw_object(w, fn->n.object);
        cgw_file(w, fn->n.file);
        cgw_function(w, fn->n.name);
        cgw_cost(w, written(d, fn->n.pos), &self, 1);
        for (; next < ncalls && calls[next].from == id; next++)
            write_call(d, w, fn, &calls[next]);
    }
}

/* cmd: the command line, from /proc/self/cmdline. */
static void set_cmd(cgw_writer *w)
{
    char buf[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (got <= 0)
        return;
    while (got > 0 && buf[got - 1] == '\0')
        got--;
    for (ssize_t i = 0; i < got; i++)
        if (buf[i] == '\0' || buf[i] == '\n' || buf[i] == '\r')
            buf[i] = ' ';
    buf[got] = '\0';
    cgw_set_cmd(w, buf);
}

/* A writer to path, atomically; or to d->fd when it is not -1. */
static cgw_writer *open_profile(const dump *d, const char *path)
{
    /* CGWPROF_OUT=...gz: gzip, as cgrecode -o x.gz */
    size_t len = strlen(path);
    cgw_options opts = { .struct_size = sizeof opts, .positions = d->positions,
                      .flags = (len > 3 && !strcmp(path + len - 3, ".gz") ? CGW_GZIP : 0) |
                               d->path_flags };
    cgw_writer *w = d->fd >= 0 ? cgw_open_fd(d->fd, &opts) : cgw_open_path(path, &opts);
    if (w == NULL)
        return NULL;
    cgw_set_creator(w, "libcgwprof-" CGW_VERSION_STRING);
    set_cmd(w);
    cgw_set_pid(w, (uint64_t)d->pid);
    cgw_add_desc(w, "Timer", prof_clock_name());
    cgw_add_event(w, "ns", NULL); /* an event: line would end Qt Creator's header */
    return w;
}

static void dump_free(dump *d)
{
    for (size_t k = 0; k < d->nthreads; k++)
        free(d->snaps[k]);
    for (size_t i = 0; i < d->nfns; i++) {
        prof_names_free(&d->fns[i].n);
    }
    free(d->threads);
    free(d->snaps);
    free(d->nsnaps);
    free(d->fns);
    free(d->rep);
    prof_symtab_free(d->syms);
    prof_lines_free(d->lines);
}

/* The header of thread k's part: what was folded into it, or not
 * recorded, as desc: lines. */
static void part_notes(const dump *d, cgw_writer *w, size_t k)
{
    char note[64];
    uint64_t folded = d->threads[k]->folded;
    if (folded != 0) {
        snprintf(note, sizeof note, "%llu finished threads folded into this part",
                 (unsigned long long)folded);
        cgw_add_desc(w, "Threads", note);
    }
    uint64_t dropped = prof_load(&d->threads[k]->dropped);
    if (dropped != 0) {
        snprintf(note, sizeof note, "%llu calls not recorded (out of memory)",
                 (unsigned long long)dropped);
        cgw_add_desc(w, "Warning", note);
    }
}

/* A part for each thread that made calls; thread: only when there are
 * several: Qt Creator stops reading the header at it. */
static void write_parts(dump *d, cgw_writer *w, fnsum *sum)
{
    size_t busy = 0, parts = 0;
    for (size_t k = 0; k < d->nthreads; k++)
        busy += d->nsnaps[k] != 0;
    for (size_t k = 0; k < d->nthreads; k++) {
        if (d->nsnaps[k] == 0)
            continue;
        if (parts++ > 0)
            cgw_new_part(w);
        if (busy > 1)
            cgw_set_thread(w, d->threads[k]->number);
        part_notes(d, w, k);
        write_thread(d, w, k, sum);
    }
}

/* Write every thread's profile to path (into d->fd when it is not -1):
 * 0, or -1 with errno set and a message in err. */
static int write_profile(dump *d, const char *path, char *err, size_t errlen)
{
    uint64_t now = d->now;
    prof_clock_calibrate();
    d->lines = prof_lines_new();
    d->npos = d->lines != NULL ? 2 : 1;
    d->positions = profile_positions(d);
    int rc = collect_threads(d);
    for (size_t k = 0; k < d->nthreads && rc == 0; k++)
        rc = snapshot(d, k, now);
    if (rc == 0)
        rc = prof_resolve_all(d);
    fnsum *sum = rc == 0 ? calloc(d->nids ? d->nids : 1, sizeof *sum) : NULL;
    if (sum == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        errno = ENOMEM;
        return -1;
    }
    cgw_writer *w = open_profile(d, path);
    if (w == NULL) {
        int saved = errno;
        if ((d->path_flags & CGW_EXCL) && (saved == EEXIST || saved == ELOOP))
            snprintf(err, errlen, "%s: %s there, not written by this process: not replaced "
                     "(CGWPROF_OUT names another file)", path,
                     saved == ELOOP ? "a symlink is" : "a file is");
        else
            snprintf(err, errlen, "%s: %s", path, strerror(saved));
        free(sum);
        errno = saved;
        return -1;
    }
    write_parts(d, w, sum);
    free(sum);
    cgw_status st = cgw_finish(w);
    if (st != CGW_OK) {
        snprintf(err, errlen, "%s: %s", path, cgw_errmsg(w));
        cgw_free(w);
        errno = st == CGW_ENOMEM ? ENOMEM : EIO;
        return -1;
    }
    cgw_free(w);
    return 0;
}

/* The dump itself, with the calling thread's calls ignored meanwhile:
 * they are not the program's.  d is set up by the caller. */
static int dump_as(dump *d, const char *path, char *err, size_t errlen)
{
    prof_thread *me = prof_self;
    int was_busy = me != NULL ? me->busy : 0;
    if (me != NULL)
        me->busy = 1;
    prof_dump_begin();
    int rc = write_profile(d, path, err, errlen);
    int saved = errno;
    dump_free(d);
    prof_dump_end();
    if (me != NULL)
        me->busy = was_busy;
    errno = saved;
    return rc;
}

/* A dump of this process, with the calls in progress ending now. */
static void dump_init(dump *d)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->pid = (long)getpid();
    d->now = prof_ticks();
}

int prof_dump(const char *path, char *err, size_t errlen)
{
    char def[4200];
    dump d;
    dump_init(&d);
    if (path == NULL && prof_default_target(def, sizeof def, &d.path_flags) != 0) {
        snprintf(err, errlen, "a setuid or setgid program writes no profile to a default "
                 "path; cgwprof_dump(path) writes one where the program chooses");
        return -1;
    }
    if (path == NULL)
        path = def;
    if (strcmp(path, "-") == 0)
        d.fd = STDOUT_FILENO; /* as "-" is in every tool */
    prof_lock();
    int rc = dump_as(&d, path, err, errlen);
    int saved = errno;
    if (rc == 0 && path == def && d.fd < 0)
        prof_output_written(def);
    prof_unlock();
    errno = saved;
    return rc;
}

/* In the copy of the process that a fatal signal forks (signal.c): the
 * profile of process pid, with the calls in progress of every thread
 * (frozen in the copy) ending at tick now, into fd, a temporary file the
 * caller renames.  No lock: the copy has one thread, and a lock held at
 * the fork would never open. */
int prof_dump_fd(int fd, const char *path, long pid, uint64_t now)
{
    char err[512];
    dump d;
    dump_init(&d);
    d.fd = fd;
    d.frozen = 1;
    d.pid = pid;
    d.now = now;
    return dump_as(&d, path, err, sizeof err);
}
