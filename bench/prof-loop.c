/* SPDX-License-Identifier: MIT */
/* prof-loop: the program bench-prof times, built four times from this
 * file: prof-plain as is, prof-empty with -finstrument-functions and the
 * C library's empty hooks, prof-gprof with -pg, and prof-instr with
 * -finstrument-functions and libcgwprof.  It prints the ns per call of a loop calling a small leaf
 * function and of a recursive fib(), measured around the calls only
 * (the start and the dump at exit are outside): of this process's CPU
 * time (CLOCK_PROCESS_CPUTIME_ID), then of wall time:
 *   LEAF_CPU FIB_CPU LEAF_WALL FIB_WALL CHECK
 *
 *   prof-loop [CALLS]     (default 20000000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) static unsigned leaf(unsigned x)
{
    __asm__ volatile("" : "+r"(x)); /* keep the call and its work */
    return x * 2654435761u + 1;
}

__attribute__((noinline)) static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000ul;
    unsigned acc = 0;
    double c0 = cpu_now(), t0 = now();
    for (unsigned long i = 0; i < n; i++)
        acc += leaf((unsigned)i);
    double t1 = now(), c1 = cpu_now();
    /* fib(k) makes 2 fib(k+1) - 1 calls: about n of them */
    unsigned k = 1;
    unsigned long c = 1, a = 1, b = 1; /* fib(k+1) */
    while (2 * b - 1 < n) {
        unsigned long t = a + b;
        a = b;
        b = t;
        k++;
    }
    c = 2 * b - 1;
    double c2 = cpu_now(), t2 = now();
    acc += fib(k);
    double t3 = now(), c3 = cpu_now();
    printf("%.3f %.3f %.3f %.3f %u\n", (c1 - c0) / (double)n, (c3 - c2) / (double)c,
           (t1 - t0) / (double)n, (t3 - t2) / (double)c, acc & 1);
    return 0;
}
