/* index.c - memory, growing arrays and the hash index that the
 * converters share (convert.h). */
#include <stdlib.h>
#include <string.h>

#include "convert.h"

static void *libc_malloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n ? n : 1);
}

static void *libc_realloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    return realloc(p, n ? n : 1);
}

static void libc_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

const cgw_allocator *cgwc_libc(void)
{
    static const cgw_allocator libc = { libc_malloc, libc_realloc, libc_free, NULL };
    return &libc;
}

int cgwc_grow(const cgw_allocator *a, void *p, size_t *cap, size_t need, size_t elem)
{
    void **pp = p;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (n > SIZE_MAX / elem)
        return -1;
    void *q = *pp ? a->realloc(a->ctx, *pp, n * elem) : a->malloc(a->ctx, n * elem);
    if (q == NULL)
        return -1;
    *pp = q;
    *cap = n;
    return 0;
}

uint64_t cgwc_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}

/* The 32 bits of a hash that the slots keep and start probing from. */
static uint32_t fold(uint64_t h)
{
    return (uint32_t)(h ^ (h >> 32));
}

int cgwc_index_find(const cgwc_index *ix, uint64_t h, cgwc_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot)
{
    if (ix->nslots == 0) {
        *slot = 0;
        return 0;
    }
    uint32_t hv = fold(h);
    size_t mask = ix->nslots - 1, i = hv & mask;
    for (;; i = (i + 1) & mask) {
        const cgwc_slot *s = &ix->slots[i];
        if (s->entry == 0) {
            *slot = i;
            return 0;
        }
        if (s->hash == hv && eq(ctx, s->entry - 1, key)) {
            *found = s->entry - 1;
            return 1;
        }
    }
}

/* The index twice as large (16 slots at first), entries moved by their
 * kept hashes. */
static int rehash(cgwc_index *ix, const cgw_allocator *a)
{
    size_t n = ix->nslots ? ix->nslots * 2 : 16;
    if (n > SIZE_MAX / sizeof(cgwc_slot) || n > ((size_t)1 << 33))
        return -1;
    cgwc_slot *s = a->malloc(a->ctx, n * sizeof *s);
    if (s == NULL)
        return -1;
    memset(s, 0, n * sizeof *s);
    for (size_t k = 0; k < ix->nslots; k++) {
        cgwc_slot o = ix->slots[k];
        if (o.entry == 0)
            continue;
        size_t i = (size_t)o.hash & (n - 1);
        while (s[i].entry != 0)
            i = (i + 1) & (n - 1);
        s[i] = o;
    }
    if (ix->slots != NULL)
        a->free(a->ctx, ix->slots);
    ix->slots = s;
    ix->nslots = n;
    return 0;
}

int cgwc_index_put(cgwc_index *ix, const cgw_allocator *a, size_t slot, uint64_t h,
                   uint32_t entry)
{
    if (entry == UINT32_MAX)
        return -1;
    if ((ix->count + 1) * 2 > ix->nslots) {
        if (rehash(ix, a) < 0)
            return -1;
        size_t mask = ix->nslots - 1;
        slot = fold(h) & mask;
        while (ix->slots[slot].entry != 0)
            slot = (slot + 1) & mask;
    }
    ix->slots[slot].entry = entry + 1;
    ix->slots[slot].hash = fold(h);
    ix->count++;
    return 0;
}

void cgwc_index_free(cgwc_index *ix, const cgw_allocator *a)
{
    if (ix->slots != NULL)
        a->free(a->ctx, ix->slots);
    ix->slots = NULL;
    ix->nslots = ix->count = 0;
}
