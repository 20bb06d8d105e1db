/* SPDX-License-Identifier: MIT */
/* alloc.c - libc's allocator as a cgw_allocator, and the calls through
 * a cgw_allocator that the writer and the reader share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static void *libc_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void *libc_realloc(void *ctx, void *block, size_t size)
{
    (void)ctx;
    return realloc(block, size);
}

static void libc_free(void *ctx, void *block)
{
    (void)ctx;
    free(block);
}

int cgwp_pick_allocator(const cgw_allocator *given, cgw_allocator *out)
{
    if (given == NULL) {
        *out = (cgw_allocator){ libc_malloc, libc_realloc, libc_free, NULL };
        return 0;
    }
    if (!given->malloc || !given->realloc || !given->free)
        return -1;
    *out = *given;
    return 0;
}

void *cgwp_new_handle(int options_ok, const cgw_allocator *given, size_t size,
                      cgw_allocator *out)
{
    if (!options_ok || cgwp_pick_allocator(given, out) < 0) {
        errno = EINVAL;
        return NULL;
    }
    void *handle = out->malloc(out->ctx, size);
    if (handle == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    memset(handle, 0, size);
    return handle;
}

void *cgwp_alloc(const cgw_allocator *alloc, size_t size)
{
    return alloc->malloc(alloc->ctx, size ? size : 1);
}

void *cgwp_realloc(const cgw_allocator *alloc, void *block, size_t size)
{
    if (block == NULL)
        return cgwp_alloc(alloc, size);
    return alloc->realloc(alloc->ctx, block, size ? size : 1);
}

void cgwp_free(const cgw_allocator *alloc, void *block)
{
    if (block != NULL)
        alloc->free(alloc->ctx, block);
}

void cgwp_free_all(const cgw_allocator *alloc, void *const *blocks, size_t count)
{
    for (size_t i = 0; i < count; i++)
        cgwp_free(alloc, blocks[i]);
}

char *cgwp_strdup(const cgw_allocator *alloc, const char *str)
{
    size_t size = strlen(str) + 1;
    char *copy = cgwp_alloc(alloc, size);
    if (copy != NULL)
        memcpy(copy, str, size);
    return copy;
}
