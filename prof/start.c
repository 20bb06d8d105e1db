/* SPDX-License-Identifier: MIT */
/* start.c - the profiler's start, once a process (clock, output, fold,
 * signals), a thread's first call and its end, and what a forked child
 * keeps; and cgwprof_dump(), which starts the profiler before it dumps.
 * It is the top of libcgwprof under the hooks: it calls threads.c,
 * fold.c, signal.c and dump.c, none of which calls it. */
#include <pthread.h>
#include <stdint.h>

#include "cgwprof.h"
#include "prof.h"

static __thread int starting __attribute__((tls_model("initial-exec")));
static __thread int folded_away __attribute__((tls_model("initial-exec"))); /* this
                                * thread's data went into the folded part at its
                                * end: later calls (other TLS destructors) are
                                * not recorded */
static pthread_key_t exit_key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* A thread that ends inside instrumented calls (pthread_exit, or cancel)
 * has them counted as returning now.  With CGWPROF_THREADS=fold its
 * data then goes into the folded part and is freed. */
static void thread_exit(void *arg)
{
    prof_thread *t = arg;
    t->busy = 1;
    uint64_t now = prof_ticks();
    while (t->depth > 1)
        prof_pop(t, now);
    if (prof_fold(t) == 0) {
        prof_self = NULL;
        folded_away = 1;
        return;
    }
    t->busy = 0;
}

/* In a forked child only the forking thread goes on.  Its calls in
 * progress are kept (the child returns through them) but restart from
 * zero in fresh data; every earlier profile is the parent's. */
static void after_fork_child(void)
{
    prof_thread *old = prof_self;
    prof_lock_after_fork();
    prof_fold_after_fork();
    prof_threads_after_fork();
    prof_self = NULL;
    if (old == NULL)
        return;
    prof_thread *t = prof_thread_new();
    if (t == NULL)
        return;
    uint64_t now = prof_ticks();
    for (size_t i = 1; i < old->depth; i++) {
        prof_edge *edge = old->stack[i].edge;
        if (prof_push(t, edge->callee, edge->site, now, old->stack[i].sp) != 0)
            break;
    }
    /* the calls that found no room, and those that had none before */
    t->skip = old->depth - t->depth + old->skip;
    t->dropped = t->skip;
    prof_publish(t);
    prof_self = t;
    pthread_setspecific(exit_key, t);
}

static void init(void)
{
    prof_clock_init();
    prof_launched_init();
    prof_output_init();
    prof_fold_init();
    pthread_key_create(&exit_key, thread_exit);
    pthread_atfork(NULL, NULL, after_fork_child);
    prof_signals_init();
}

void prof_init(void)
{
    pthread_once(&once, init);
}

/* The caller's data, created on its first call; NULL when there is no
 * memory or the thread is creating it right now (an instrumented
 * allocator calling back). */
prof_thread *prof_thread_start(void)
{
    if (prof_self != NULL || starting || folded_away)
        return prof_self;
    starting = 1;
    prof_init();
    prof_thread *t = prof_thread_new();
    if (t != NULL) {
        prof_publish(t);
        pthread_setspecific(exit_key, t);
        prof_self = t;
    }
    starting = 0;
    return t;
}

int cgwprof_dump(const char *path)
{
    char err[512];
    prof_init();
    return prof_dump(path, err, sizeof err);
}
