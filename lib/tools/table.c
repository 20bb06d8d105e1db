/* SPDX-License-Identifier: MIT */
/* table.c - the hashes and the one hash index of lib/tools (util.h): the
 * merger's tables and names and the converters' functions, names and
 * edges all find their entries here. */
#include <string.h>

#include "util.h"

uint64_t cgwu_hash(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ bytes[i]) * 0x100000001b3u;
    return hash;
}

static uint64_t mix(uint64_t hash, uint64_t word)
{
    hash ^= word + 0x9e3779b97f4a7c15u + (hash << 6) + (hash >> 2);
    return hash * 0xbf58476d1ce4e5b9u;
}

uint64_t cgwu_hash_words(const uint64_t *words, size_t count)
{
    uint64_t hash = 0x243f6a8885a308d3u;
    for (size_t i = 0; i < count; i++)
        hash = mix(hash, words[i]);
    return hash ^ (hash >> 29);
}

/* The 32 bits of a hash that the slots keep and start probing from. */
static uint32_t fold(uint64_t hash)
{
    return (uint32_t)(hash ^ (hash >> 32));
}

int cgwu_index_find(const cgwu_index *ix, uint64_t hash, cgwu_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot)
{
    if (ix->nslots == 0) {
        *slot = 0;
        return 0;
    }
    uint32_t hv = fold(hash);
    size_t mask = ix->nslots - 1, i = hv & mask;
    for (;; i = (i + 1) & mask) {
        const cgwu_slot *here = &ix->slots[i];
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
static int rehash(cgwu_index *ix, const cgw_allocator *alloc)
{
    size_t count = ix->nslots ? ix->nslots * 2 : 16;
    if (count > SIZE_MAX / sizeof(cgwu_slot) || count > ((size_t)1 << 33))
        return -1;
    cgwu_slot *slots = cgwu_alloc(alloc, count * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, count * sizeof *slots);
    for (size_t k = 0; k < ix->nslots; k++) {
        cgwu_slot old = ix->slots[k];
        if (old.entry == 0)
            continue;
        size_t i = (size_t)old.hash & (count - 1);
        while (slots[i].entry != 0)
            i = (i + 1) & (count - 1);
        slots[i] = old;
    }
    cgwu_free(alloc, ix->slots);
    ix->slots = slots;
    ix->nslots = count;
    return 0;
}

int cgwu_index_put(cgwu_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
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

void cgwu_index_free(cgwu_index *ix, const cgw_allocator *alloc)
{
    cgwu_free(alloc, ix->slots);
    ix->slots = NULL;
    ix->nslots = ix->count = 0;
}
