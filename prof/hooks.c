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

/* A call's place on the machine stack (prof_frame.sp).  The hooks' own
 * prof_sp() is the instrumented function's stack pointer, below its
 * frame: a call after longjmp() to a function with a larger frame than
 * the call it left at the same depth would lie below that one, and the
 * left frame would be taken for its caller.  On x86-64 the place is the
 * function's CFA, its caller's stack pointer at the call, whatever its
 * own frame: the word just below it holds the function's return address,
 * site (what GCC and clang pass the hooks), found by looking up from
 * prof_sp().  A stale copy of site in the function's locals (not set
 * yet at the entry) can be found first: the place is then lower than
 * the CFA, still above prof_sp() and so above every callee's, which at
 * worst leaves a frame that longjmp() abandoned for later, as the hooks'
 * prof_sp() would.  The first call of an edge looks; the next ones check
 * the edge's offset (cfa_off) with one load from the stack.  Elsewhere,
 * and for a frame larger than CFA_SCAN, the place is prof_sp() + 1,
 * above its callees' places all the same. */
#define CFA_SCAN 8192 /* bytes looked through for site (cfa_off holds it) */

/* The offset of the CFA above sp, the hooks' prof_sp() in a call whose
 * return address is site: 0 when not found.  It reads the instrumented
 * function's frame word by word, AddressSanitizer's red zones between its
 * locals too: not instrumented. */
static PROF_SLOW __attribute__((no_sanitize_address)) uint16_t
find_cfa(const prof_thread *t, uintptr_t sp, void *site)
{
#if defined(__x86_64__)
    uintptr_t end = sp + CFA_SCAN;
    if (on_stack(t, sp) && end > t->stack_hi)
        end = t->stack_hi;
    for (uintptr_t p = sp; p + sizeof site <= end; p += sizeof site)
        if (*(void *const *)p == site)
            return (uint16_t)(p + sizeof site - sp);
#else
    (void)t, (void)sp, (void)site;
#endif
    return 0;
}

/* Whether edge e's offset holds for a call at sp (site is where it
 * says): then *at is its place.  An offset of 0 (not known) reads the
 * hooks' own return address, which is in the instrumented function,
 * never site in its caller. */
static inline int known_place(const prof_thread *t, const prof_edge *e, uintptr_t sp,
                              void *site, uintptr_t *at)
{
#if defined(__x86_64__)
    *at = sp + e->cfa_off;
    return *at <= t->stack_hi && ((void *const *)*at)[-1] == site;
#else
    (void)t, (void)e, (void)site;
    *at = sp + 1;
    return 1;
#endif
}

/* The place of a call of fn from site at sp, from the edge's offset when
 * it holds, else looked for; e is the call's edge when known (NULL: not
 * yet), and is told what was found. */
static uintptr_t place_of(prof_thread *t, prof_edge *e, uintptr_t sp, void *site)
{
    uintptr_t at;
    if (e != NULL && e->cfa_none)
        return sp + 1;
    if (e != NULL && known_place(t, e, sp, site, &at))
        return at;
    uint16_t off = find_cfa(t, sp, site);
    if (e != NULL) {
        e->cfa_off = off;
        e->cfa_none = off == 0;
    }
    return off != 0 ? sp + off : sp + 1;
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

/* Everything but a known edge with a frame to spare and its place: the
 * thread's first call, a new edge, a deeper stack, calls being skipped,
 * a clock that is not the TSC, a frame of another size.  Frames that
 * longjmp() left are dropped here. */
static PROF_SLOW void enter_slow(prof_thread *t, void *fn, void *site, uintptr_t sp)
{
    if (t == NULL && (t = prof_thread_start()) == NULL)
        return;
    if (t->busy)
        return;
    uint64_t now = prof_ticks();
    uintptr_t at = 0;
    if (t->skip == 0) {
        at = place_of(t, prof_recent_edge(t, fn, site), sp, site);
        drop_abandoned(t, at, now);
    }
    if (t->skip != 0 || prof_push(t, fn, site, now, at) != 0) {
        t->skip++;
        prof_add(&t->dropped, 1); /* a dump may read it meanwhile */
        return;
    }
    prof_edge *e = t->stack[t->depth - 1].edge;
    if (e->cfa_off == 0 && !e->cfa_none) /* a new edge */
        place_of(t, e, sp, site);
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
        uintptr_t at;
        if (__builtin_expect(e != NULL && known_place(t, e, sp, site, &at), 1)) {
            prof_claim(t, e, prof_ticks(), at);
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

/* Frames placed at or below the exiting function's stack pointer sp
 * were its callees', abandoned (longjmp()); then fn's frame is the top
 * one, or found by its function. */
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
    drop_abandoned(t, sp, now);
    unwind_to(t, fn, now);
}

/* The hot path reads the clock first, then pops the top frame when it is
 * fn's and placed above the exiting function's stack pointer (not a
 * recursive call of it that longjmp() abandoned): the exit needs no
 * place of its own. */
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
                                 top->edge->callee == fn && top->sp > sp, 1)) {
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
 * an instrumented call writes nothing: a shell or any other program
 * that the preload reaches as well says nothing either, but the one
 * the user gave cgwprof says why there is no profile (it was built
 * without -finstrument-functions, most likely). */
__attribute__((destructor)) static void finish(void)
{
    if (prof_threads() == NULL) {
        if (prof_launched())
            fputs("cgwprof: no instrumented function was called, so no profile was "
                  "written: build the program with -finstrument-functions, then run it "
                  "under cgwprof or link it with -lcgwprof\n", stderr);
        return;
    }
    char err[512];
    if (prof_dump(NULL, err, sizeof err) != 0)
        fprintf(stderr, "libcgwprof: %s\n", err);
}
