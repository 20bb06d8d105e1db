/* clock.c - the profiler's clock: choose the TSC or CLOCK_MONOTONIC and
 * calibrate the TSC against CLOCK_MONOTONIC once, at start. */
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
 * the clock read takes (large under sanitizers) adds no bias. */
static void both(uint64_t *ns, uint64_t *ticks)
{
    uint64_t c0 = tsc();
    *ns = mono_ns();
    uint64_t c1 = tsc();
    *ticks = c0 + (c1 - c0) / 2;
}

/* Ticks per nanosecond over 2 ms of both clocks (an error near 1e-3 in
 * a VM, whose clock reads jitter by microseconds). */
static int tsc_calibrate(void)
{
    uint64_t t0, c0, t1, c1;
    both(&t0, &c0);
    do
        both(&t1, &c1);
    while (t1 - t0 < 2000000u);
    if (c1 <= c0)
        return 0;
    prof_clk.mult = (uint64_t)(((unsigned __int128)(t1 - t0) << 32) / (c1 - c0));
    return prof_clk.mult != 0;
}
#endif

void prof_clock_init(void)
{
    const char *want = getenv("CGWPROF_CLOCK");
    prof_clk.tsc = 0;
#if defined(__x86_64__)
    if ((want == NULL || strcmp(want, "tsc") == 0) && tsc_invariant())
        prof_clk.tsc = tsc_calibrate();
#else
    (void)want;
#endif
}

const char *prof_clock_name(void)
{
    return prof_clk.tsc ? "TSC calibrated against CLOCK_MONOTONIC" : "CLOCK_MONOTONIC";
}
