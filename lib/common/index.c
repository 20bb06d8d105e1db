/* SPDX-License-Identifier: MIT */
/* index.c - the one hash index of the modules over <cgw.h> (util.h) over
 * hash.h's table: the merger's tables and names, the converters' and the
 * profile model's functions, names and edges all find their entries
 * here. */
#include <string.h>

#include "util.h"

int cgwp_index_find(const cgwp_index *ix, uint64_t hash, cgwp_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot)
{
    const cgwp_hash *t = &ix->table;
    if (t->vals == NULL) {
        *slot = 0;
        return 0;
    }
    for (size_t i = cgwp_hash_start(t, hash);; i = cgwp_hash_next(t, i)) {
        if (t->vals[i] == 0) {
            *slot = i;
            return 0;
        }
        if (t->keys[i] == hash && eq(ctx, (uint32_t)(t->vals[i] - 1), key)) {
            *found = (uint32_t)(t->vals[i] - 1);
            return 1;
        }
    }
}

int cgwp_index_put(cgwp_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
                   uint32_t entry)
{
    cgwp_hash *t = &ix->table;
    if (entry == UINT32_MAX)
        return -1;
    int grew = cgwp_hash_reserve(t, alloc, 16);
    if (grew < 0)
        return -1;
    if (grew) /* the slot found before is stale */
        for (slot = cgwp_hash_start(t, hash); t->vals[slot] != 0; slot = cgwp_hash_next(t, slot))
            ;
    cgwp_hash_put(t, slot, hash, (uintptr_t)entry + 1);
    return 0;
}

void cgwp_index_free(cgwp_index *ix, const cgw_allocator *alloc)
{
    cgwp_hash_free(&ix->table, alloc);
    ix->keyed = 0;
}
