/* alloc.c - the per-writer allocator and the small growable strings of
 * the header.  Nothing here aborts: a NULL from the allocator becomes
 * CGW_ENOMEM in the caller. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

void cgwp_default_allocator(cgw_allocator *a)
{
    a->malloc = libc_malloc;
    a->realloc = libc_realloc;
    a->free = libc_free;
    a->ctx = NULL;
}

/* The allocator of a writer or reader: given, or libc's when NULL; -1
 * when given lacks a member. */
int cgwp_pick_allocator(const cgw_allocator *given, cgw_allocator *a)
{
    if (given == NULL) {
        cgwp_default_allocator(a);
        return 0;
    }
    if (!given->malloc || !given->realloc || !given->free)
        return -1;
    *a = *given;
    return 0;
}

void *cgwp_malloc(cgw_writer *w, size_t n)
{
    return w->alloc.malloc(w->alloc.ctx, n ? n : 1);
}

void *cgwp_realloc(cgw_writer *w, void *p, size_t n)
{
    if (p == NULL)
        return cgwp_malloc(w, n);
    return w->alloc.realloc(w->alloc.ctx, p, n ? n : 1);
}

void cgwp_free(cgw_writer *w, void *p)
{
    if (p != NULL)
        w->alloc.free(w->alloc.ctx, p);
}

char *cgwp_strdup(cgw_writer *w, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cgwp_malloc(w, n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

cgw_status cgwp_text_add(cgw_writer *w, cgwp_text *t, const char *s, size_t n)
{
    if (t->cap - t->len < n) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap - t->len < n)
            cap *= 2;
        char *p = cgwp_realloc(w, t->p, cap);
        if (p == NULL)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory growing header text to %zu bytes",
                             cap);
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    return CGW_OK;
}

cgw_status cgwp_text_adds(cgw_writer *w, cgwp_text *t, const char *s)
{
    return cgwp_text_add(w, t, s, strlen(s));
}
