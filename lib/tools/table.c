/* SPDX-License-Identifier: MIT */
/* table.c - the one hash index of lib/tools (util.h) over lib/common's
 * table: the merger's tables and names and the converters' functions,
 * names and edges all find their entries here. */
#include <string.h>

#include "util.h"

int cgwu_index_find(const cgwu_index *ix, uint64_t hash, cgwu_eq_fn eq, const void *ctx,
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

int cgwu_index_put(cgwu_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
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

void cgwu_index_free(cgwu_index *ix, const cgw_allocator *alloc)
{
    cgwp_hash_free(&ix->table, alloc);
    ix->keyed = 0;
}
