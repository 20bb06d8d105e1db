/* SPDX-License-Identifier: MIT */
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

/* Whether sp lies on the thread's machine stack. */
static int on_stack(const prof_thread *t, uintptr_t sp)
{
    return sp >= t->stack_lo && sp < t->stack_hi;
}

/* The calls that longjmp() left: every frame at or below limit on the
 * machine stack, which a call or a return at limit shows cannot be in
 * progress any more, counted as returning now.  A frame or a limit off
 * the thread's stack (a handler on sigaltstack) proves nothing. */
static void drop_abandoned(prof_thread *t, uintptr_t limit, uint64_t now)
{
    if (!on_stack(t, limit))
        return;
    while (t->depth > 1) {
        uintptr_t sp = t->stack[t->depth - 1].sp;
        if (sp > limit || !on_stack(t, sp))
            break;
        prof_pop(t, now);
    }
}

/* Everything but a known edge with a frame to spare: the thread's first
 * call, a new edge, a deeper stack, calls being skipped, a clock that
 * is not the TSC.  Frames that longjmp() left are dropped here. */
static PROF_SLOW void enter_slow(prof_thread *t, void *fn, void *site, uintptr_t sp)
{
    if (t == NULL && (t = prof_thread_start()) == NULL)
        return;
    if (t->busy)
        return;
    uint64_t now = prof_ticks();
    if (t->skip == 0)
        drop_abandoned(t, sp, now);
    if (t->skip != 0 || prof_push(t, fn, site, now, sp) != 0) {
        t->skip++;
        prof_add(&t->dropped, 1); /* a dump may read it meanwhile */
    }
}

/* The hot path is a leaf: it tests, reads the clock last and pushes;
 * anything else goes to enter_slow() as a tail call.  It does not look
 * for frames that longjmp() left: the first call after the jump, from
 * the function that called setjmp(), finds no edge among the left top
 * frame's latest calls and goes to enter_slow(), unless that frame is a
 * call of the same function (the jump went up its recursion): then the
 * edge is the right one, the time goes to a frame of the same function,
 * and the left frames go at the next slow entry or at the exit. */
void __cyg_profile_func_enter(void *fn, void *site)
{
    prof_thread *t = prof_self;
    uintptr_t sp = prof_sp();
    if (__builtin_expect(t != NULL && prof_fast_clock() && !t->busy && t->skip == 0 &&
                             t->depth < t->cap, 1)) {
        prof_edge *e = prof_recent_edge(t, fn, site);
        if (__builtin_expect(e != NULL, 1)) {
            prof_claim(t, e, prof_ticks(), sp);
            return;
        }
    }
    enter_slow(t, fn, site, sp);
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

/* Frames below the exiting call's were abandoned (longjmp()); then fn's
 * frame is the top one, or found by its function. */
static PROF_SLOW void exit_slow(prof_thread *t, void *fn, uint64_t now, uintptr_t sp)
{
    if (t == NULL || t->busy)
        return;
    if (!prof_fast_clock())
        now = prof_ticks();
    if (t->skip != 0) {
        t->skip--;
        return;
    }
    drop_abandoned(t, sp - 1, now);
    unwind_to(t, fn, now);
}

/* The hot path reads the clock first, then pops the top frame when it is
 * fn's and not below the exit's (a recursive call that longjmp()
 * abandoned). */
void __cyg_profile_func_exit(void *fn, void *site)
{
    prof_thread *t = prof_self;
    uintptr_t sp = prof_sp();
    uint64_t now = 0;
    (void)site;
    if (__builtin_expect(t != NULL && prof_fast_clock(), 1)) {
        now = prof_ticks();
        const prof_frame *top = &t->stack[t->depth - 1];
        if (__builtin_expect(!t->busy && t->skip == 0 && t->depth > 1 &&
                                 top->edge->callee == fn && top->sp >= sp, 1)) {
            prof_pop(t, now);
            return;
        }
    }
    exit_slow(t, fn, now, sp);
}

__attribute__((constructor)) static void start(void)
{
    prof_init();
}

/* The dump at exit.  Threads still running go on recording meanwhile;
 * the profile holds what they had finished.  A program that never made
 * an instrumented call (one that LD_PRELOAD reached, as a shell the
 * profiled program runs) writes nothing. */
__attribute__((destructor)) static void finish(void)
{
    if (prof_threads() == NULL)
        return;
    char err[512];
    if (prof_dump(NULL, err, sizeof err) != 0)
        fprintf(stderr, "libcgwprof: %s\n", err);
}
