/* SPDX-License-Identifier: MIT */
/* subject.c - the workload that test-writers.sh compiles and profiles
 * with valgrind: recursion (fib), mutual recursion (even and odd, deep
 * enough that Callgrind's one context for the inner calls, odd'2 ->
 * even'2, carries more than the whole run), a callback (qsort's
 * comparator), a few hundred calls, and a second thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static unsigned odd(unsigned n);

static unsigned even(unsigned n)
{
    return n == 0 ? 1 : odd(n - 1);
}

static unsigned odd(unsigned n)
{
    return n == 0 ? 0 : even(n - 1);
}

static int by_value(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static void *worker(void *arg)
{
    *(unsigned *)arg = fib(11);
    return NULL;
}

int main(void)
{
    pthread_t t;
    unsigned v[64], in_thread = 0;
    if (pthread_create(&t, NULL, worker, &in_thread) != 0)
        return 1;
    for (unsigned i = 0; i < 64; i++)
        v[i] = (i * 2654435761u) >> 7;
    qsort(v, 64, sizeof v[0], by_value);
    unsigned s = fib(12) + v[0];
    for (unsigned i = 0; i < 100; i++)
        s += even(i);
    pthread_join(t, NULL);
    printf("%u %u\n", s, in_thread);
    return 0;
}
