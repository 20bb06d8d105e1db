/* SPDX-License-Identifier: MIT */
/* clock.c - the profiler's clock: choose the TSC or CLOCK_MONOTONIC, and
 * calibrate the TSC against CLOCK_MONOTONIC at each dump, over the whole
 * run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

prof_clock prof_clk;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t tsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/* CPUID 0x80000007, EDX bit 8: the TSC ticks at a constant rate in every
 * power state, so it measures time and not cycles. */
static int tsc_invariant(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}

/* A reading of CLOCK_MONOTONIC (ns) and the TSC at the same instant:
 * the mean of the TSC read just before it and just after, so the time
 * the clock read takes (large under sanitizers) adds no bias.  Of a few
 * tries, the one whose TSC reads are closest counts: a thread preempted
 * inside a try would put its instant anywhere in the pause. */
static void both(uint64_t *ns, uint64_t *ticks)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t c0 = tsc();
        uint64_t t = mono_ns();
        uint64_t c1 = tsc();
        if (i == 0 || c1 - c0 < best) {
            best = c1 - c0;
            *ns = t;
            *ticks = c0 + (c1 - c0) / 2;
        }
    }
}

/* A reading of both clocks at least wait ns after the start's. */
static void both_after(uint64_t wait, uint64_t *ns, uint64_t *ticks)
{
    do
        both(ns, ticks);
    while (*ns - prof_clk.start_ns < wait);
}

/* The scale from the start's reading to one taken now, at least 2 ms
 * later; 0 when the TSC did not move forward. */
static uint64_t tsc_mult(void)
{
    uint64_t t1, c1;
    both_after(2000000u, &t1, &c1);
    if (c1 <= prof_clk.start_ticks)
        return 0;
    return (uint64_t)(((unsigned __int128)(t1 - prof_clk.start_ns) << 32) /
                      (c1 - prof_clk.start_ticks));
}
#endif

/* The start's reading of both clocks, and a check that the TSC moves
 * forward with CLOCK_MONOTONIC over 10 us; the scale waits for a dump. */
void prof_clock_init(void)
{
    const char *want = prof_getenv("CGWPROF_CLOCK");
    prof_clk.tsc = 0;
#if defined(__x86_64__)
    if ((want == NULL || strcmp(want, "tsc") == 0) && tsc_invariant()) {
        uint64_t t, c;
        both(&prof_clk.start_ns, &prof_clk.start_ticks);
        both_after(10000u, &t, &c);
        prof_clk.tsc = c > prof_clk.start_ticks;
    }
#else
    (void)want;
#endif
}

/* The scale, over the whole run so far: a pause while one of the two
 * readings was taken (a loaded machine) weighs the run's length, not a
 * short window.  Only the dump converts ticks, under its lock. */
void prof_clock_calibrate(void)
{
#if defined(__x86_64__)
    if (prof_clk.tsc)
        prof_clk.mult = tsc_mult();
#endif
}

const char *prof_clock_name(void)
{
    return prof_clk.tsc ? "TSC calibrated against CLOCK_MONOTONIC" : "CLOCK_MONOTONIC";
}
