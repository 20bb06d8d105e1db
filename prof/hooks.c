/* hooks.c - the two functions that -finstrument-functions calls around
 * every instrumented function, and the library's start and end.
 *
 * The hot path reads the clock, finds the thread's data through
 * initial-exec TLS and pushes or pops a frame: no lock, no atomic
 * read-modify-write, no allocation once the call edge is known.  While
 * the profiler allocates, busy makes the calls that arrive (an
 * instrumented allocator, a signal handler) pass unrecorded, entry and
 * exit alike. */
#include <stdio.h>

#include "prof.h"

PROF_API PROF_HOT void __cyg_profile_func_enter(void *fn, void *site);
PROF_API PROF_HOT void __cyg_profile_func_exit(void *fn, void *site);

void __cyg_profile_func_enter(void *fn, void *site)
{
    uint64_t now = prof_ticks();
    prof_thread *t = prof_self;
    if (__builtin_expect(t == NULL, 0)) {
        if ((t = prof_thread_start()) == NULL)
            return;
        now = prof_ticks(); /* the clock may have just been calibrated */
    }
    if (t->busy)
        return;
    if (__builtin_expect(t->skip != 0, 0) || prof_push(t, fn, site, now) != 0) {
        t->skip++;
        prof_add(&t->dropped, 1); /* a dump may read it meanwhile */
    }
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

void __cyg_profile_func_exit(void *fn, void *site)
{
    uint64_t now = prof_ticks();
    prof_thread *t = prof_self;
    (void)site;
    if (t == NULL || t->busy)
        return;
    if (__builtin_expect(t->skip != 0, 0))
        t->skip--;
    else if (__builtin_expect(t->depth > 1 && t->stack[t->depth - 1].edge->callee == fn, 1))
        prof_pop(t, now);
    else
        unwind_to(t, fn, now);
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
