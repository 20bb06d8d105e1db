/* SPDX-License-Identifier: MIT */
/* index.c - memory, growing arrays and the hash index that the
 * converters share (convert.h). */
#include <stdlib.h>
#include <string.h>

#include "convert.h"

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

const cgw_allocator *cgwc_libc(void)
{
    static const cgw_allocator libc = { libc_malloc, libc_realloc, libc_free, NULL };
    return &libc;
}

int cgwc_grow(const cgw_allocator *alloc, void *array, size_t *cap, size_t need, size_t elem)
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
    void *grown = *pp ? alloc->realloc(alloc->ctx, *pp, count * elem)
                      : alloc->malloc(alloc->ctx, count * elem);
    if (grown == NULL)
        return -1;
    *pp = grown;
    *cap = count;
    return 0;
}

uint64_t cgwc_hash(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ bytes[i]) * 0x100000001b3u;
    return hash;
}

/* The 32 bits of a hash that the slots keep and start probing from. */
static uint32_t fold(uint64_t hash)
{
    return (uint32_t)(hash ^ (hash >> 32));
}

int cgwc_index_find(const cgwc_index *ix, uint64_t hash, cgwc_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot)
{
    if (ix->nslots == 0) {
        *slot = 0;
        return 0;
    }
    uint32_t hv = fold(hash);
    size_t mask = ix->nslots - 1, i = hv & mask;
    for (;; i = (i + 1) & mask) {
        const cgwc_slot *here = &ix->slots[i];
        if (here->entry == 0) {
            *slot = i;
            return 0;
        }
        if (here->hash == hv && eq(ctx, here->entry - 1, key)) {
            *found = here->entry - 1;
            return 1;
        }
    }
}

/* The index twice as large (16 slots at first), entries moved by their
 * kept hashes. */
static int rehash(cgwc_index *ix, const cgw_allocator *alloc)
{
    size_t count = ix->nslots ? ix->nslots * 2 : 16;
    if (count > SIZE_MAX / sizeof(cgwc_slot) || count > ((size_t)1 << 33))
        return -1;
    cgwc_slot *slots = alloc->malloc(alloc->ctx, count * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, count * sizeof *slots);
    for (size_t k = 0; k < ix->nslots; k++) {
        cgwc_slot old = ix->slots[k];
        if (old.entry == 0)
            continue;
        size_t i = (size_t)old.hash & (count - 1);
        while (slots[i].entry != 0)
            i = (i + 1) & (count - 1);
        slots[i] = old;
    }
    if (ix->slots != NULL)
        alloc->free(alloc->ctx, ix->slots);
    ix->slots = slots;
    ix->nslots = count;
    return 0;
}

int cgwc_index_put(cgwc_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
                   uint32_t entry)
{
    if (entry == UINT32_MAX)
        return -1;
    if ((ix->count + 1) * 2 > ix->nslots) {
        if (rehash(ix, alloc) < 0)
            return -1;
        size_t mask = ix->nslots - 1;
        slot = fold(hash) & mask;
        while (ix->slots[slot].entry != 0)
            slot = (slot + 1) & mask;
    }
    ix->slots[slot].entry = entry + 1;
    ix->slots[slot].hash = fold(hash);
    ix->count++;
    return 0;
}

void cgwc_index_free(cgwc_index *ix, const cgw_allocator *alloc)
{
    if (ix->slots != NULL)
        alloc->free(alloc->ctx, ix->slots);
    ix->slots = NULL;
    ix->nslots = ix->count = 0;
}
