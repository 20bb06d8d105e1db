/* hooks.c - the two functions that -finstrument-functions calls around
 * every instrumented function, and the library's start and end.
 *
 * The hot path finds the thread's data through initial-exec TLS, reads
 * the clock and pushes or pops a frame: no lock, no atomic
 * read-modify-write, no allocation, no call once the call edge is
 * known.  While the profiler allocates, busy makes the calls that arrive
 * (an instrumented allocator, a signal handler) pass unrecorded, entry
 * and exit alike. */
#include <stdio.h>

#include "prof.h"

PROF_API PROF_HOT void __cyg_profile_func_enter(void *fn, void *site);
PROF_API PROF_HOT void __cyg_profile_func_exit(void *fn, void *site);

#define PROF_SLOW __attribute__((noinline, cold, no_instrument_function))

/* Everything but a known edge with a frame to spare: the thread's first
 * call, a new edge, a deeper stack, calls being skipped, or a clock that
 * is not the TSC. */
static PROF_SLOW void enter_slow(prof_thread *t, void *fn, void *site)
{
    if (t == NULL && (t = prof_thread_start()) == NULL)
        return;
    if (t->busy)
        return;
    if (t->skip != 0 || prof_push(t, fn, site, prof_ticks()) != 0) {
        t->skip++;
        prof_add(&t->dropped, 1); /* a dump may read it meanwhile */
    }
}

/* The hot path is a leaf: it tests, reads the clock last and pushes;
 * anything else goes to enter_slow() as a tail call. */
void __cyg_profile_func_enter(void *fn, void *site)
{
    prof_thread *t = prof_self;
    if (__builtin_expect(t != NULL && prof_fast_clock() && !t->busy && t->skip == 0 &&
                             t->depth < t->cap, 1)) {
        prof_edge *e = prof_recent_edge(t, fn, site);
        if (__builtin_expect(e != NULL, 1)) {
            prof_claim(t, e, prof_ticks());
            return;
        }
    }
    enter_slow(t, fn, site);
}

/* An exit that is not the top frame's: exits were skipped (longjmp, an
 * exception through code without cleanups), so the frames above fn's
 * return now too.  An exit with no frame at all is ignored. */
static void unwind_to(prof_thread *t, void *fn, uint64_t now)
{
    size_t i = t->depth;
    while (i > 1 && t->stack[i - 1].edge->callee != fn)
        i--;
    if (i <= 1)
        return;
    while (t->depth >= i)
        prof_pop(t, now);
}

static PROF_SLOW void exit_slow(prof_thread *t, void *fn, uint64_t now)
{
    if (t == NULL || t->busy)
        return;
    if (!prof_fast_clock())
        now = prof_ticks();
    if (t->skip != 0)
        t->skip--;
    else
        unwind_to(t, fn, now);
}

/* The hot path reads the clock first, then pops the top frame when it is
 * fn's. */
void __cyg_profile_func_exit(void *fn, void *site)
{
    prof_thread *t = prof_self;
    uint64_t now = 0;
    (void)site;
    if (__builtin_expect(t != NULL && prof_fast_clock(), 1)) {
        now = prof_ticks();
        if (__builtin_expect(!t->busy && t->skip == 0 && t->depth > 1 &&
                                 t->stack[t->depth - 1].edge->callee == fn, 1)) {
            prof_pop(t, now);
            return;
        }
    }
    exit_slow(t, fn, now);
}

__attribute__((constructor)) static void start(void)
{
    prof_init();
}

/* The dump at exit.  Threads still running go on recording meanwhile;
 * the profile holds what they had finished. */
__attribute__((destructor)) static void finish(void)
{
    char err[512];
    if (prof_dump(NULL, err, sizeof err) != 0)
        fprintf(stderr, "libcgwprof: %s\n", err);
}
