/* SPDX-License-Identifier: MIT */
/* subject: the program that tests/test-real profiles with valgrind: a
 * little recursion, a loop, an inlined helper from a header, and a
 * second thread, so every kind of record shows up. */
#include <pthread.h>
#include <stdio.h>

#include "subject.h"

static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
    unsigned *out = arg;
    *out = fib(14);
    return NULL;
}

__attribute__((noinline)) static unsigned work(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += mix(i);
    return s;
}

int main(void)
{
    pthread_t t;
    unsigned in_thread = 0;
    if (pthread_create(&t, NULL, worker, &in_thread) != 0)
        return 1;
    unsigned a = fib(16), b = work(2000);
    pthread_join(t, NULL);
    printf("%u %u %u\n", a, b, in_thread);
    return 0;
}
