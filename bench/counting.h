/* SPDX-License-Identifier: MIT */
/* counting.h - an allocator for the benchmarks that counts the calls
 * through libcgw's allocator hook.  Each benchmark includes it once. */
#ifndef CGW_BENCH_COUNTING_H
#define CGW_BENCH_COUNTING_H

#include <stdlib.h>

#include <cgw.h>

static long allocs; /* malloc and realloc calls so far */

static void *count_malloc(void *ctx, size_t n)
{
    (void)ctx;
    allocs++;
    return malloc(n);
}

static void *count_realloc(void *ctx, void *q, size_t n)
{
    (void)ctx;
    allocs++;
    return realloc(q, n);
}

static void count_free(void *ctx, void *q)
{
    (void)ctx;
    free(q);
}

static const cgw_allocator counting = { count_malloc, count_realloc, count_free, NULL };

#endif /* CGW_BENCH_COUNTING_H */
