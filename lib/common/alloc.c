/* alloc.c - libc's allocator as a cgw_allocator, and the calls through
 * a cgw_allocator that the writer and the reader share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static void *libc_malloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static void *libc_realloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    return realloc(p, n);
}

static void libc_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
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

void *cgwp_new_handle(const cgw_allocator *given, size_t size, cgw_allocator *out)
{
    if (cgwp_pick_allocator(given, out) < 0) {
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

void *cgwp_alloc(const cgw_allocator *a, size_t n)
{
    return a->malloc(a->ctx, n ? n : 1);
}

void *cgwp_realloc(const cgw_allocator *a, void *p, size_t n)
{
    if (p == NULL)
        return cgwp_alloc(a, n);
    return a->realloc(a->ctx, p, n ? n : 1);
}

void cgwp_free(const cgw_allocator *a, void *p)
{
    if (p != NULL)
        a->free(a->ctx, p);
}

char *cgwp_strdup(const cgw_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cgwp_alloc(a, n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}
