/* SPDX-License-Identifier: MIT */
/* grow.c - libc's allocator for callers given none, and arrays that
 * grow, for the modules over <cgw.h> (util.h); the calls through an
 * allocator are alloc.c's. */
#include <stdlib.h>

#include "util.h"

static void *libc_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size ? size : 1);
}

static void *libc_realloc(void *ctx, void *block, size_t size)
{
    (void)ctx;
    return realloc(block, size ? size : 1);
}

static void libc_free(void *ctx, void *block)
{
    (void)ctx;
    free(block);
}

const cgw_allocator *cgwp_libc(void)
{
    static const cgw_allocator libc = { libc_malloc, libc_realloc, libc_free, NULL };
    return &libc;
}

int cgwp_grow(const cgw_allocator *alloc, void *array, size_t *cap, size_t need, size_t elem)
{
    void **pp = array;
    if (need <= *cap)
        return 0;
    size_t count = *cap ? *cap : 16;
    while (count < need) {
        if (count > SIZE_MAX / 2)
            return -1;
        count *= 2;
    }
    if (count > SIZE_MAX / elem)
        return -1;
    void *grown = cgwp_realloc(alloc, *pp, count * elem);
    if (grown == NULL)
        return -1;
    *pp = grown;
    *cap = count;
    return 0;
}
