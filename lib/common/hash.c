/* SPDX-License-Identifier: MIT */
/* hash.c - growing and clearing the one hash table (hash.h). */
#include <string.h>

#include "alloc.h"
#include "hash.h"
#include "random.h"

int cgwp_hash_grow(cgwp_hash *table, const cgw_allocator *alloc, size_t min_slots)
{
    size_t slots = table->vals ? table->mask + 1 : 0;
    /* twice: growing four times at once saved rehashes but cost more
     * in the page faults of a fresh process (BENCHMARKS.md) */
    size_t cap = !slots ? min_slots : slots * 2;
    /* keys and values in one block: one allocation a growth */
    uint64_t *block = cgwp_alloc(alloc, cap * (sizeof(uint64_t) + sizeof(uintptr_t)));
    if (block == NULL)
        return -1;
    cgwp_hash grown = { block, (uintptr_t *)(block + cap), 0, cap - 1 };
    memset(grown.vals, 0, cap * sizeof *grown.vals);
    for (size_t i = 0; i < slots; i++) {
        if (table->vals[i] == 0)
            continue;
        size_t j = cgwp_hash_start(&grown, table->keys[i]);
        while (grown.vals[j] != 0)
            j = cgwp_hash_next(&grown, j);
        cgwp_hash_put(&grown, j, table->keys[i], table->vals[i]);
    }
    cgwp_hash_free(table, alloc);
    *table = grown;
    return 0;
}

void cgwp_hash_clear(cgwp_hash *table)
{
    if (table->vals != NULL)
        memset(table->vals, 0, (table->mask + 1) * sizeof *table->vals);
    table->count = 0;
}

void cgwp_hash_free(cgwp_hash *table, const cgw_allocator *alloc)
{
    cgwp_free(alloc, table->keys); /* the block of both */
    memset(table, 0, sizeof *table);
}

void cgwp_hash_key_init(cgwp_hash_key *key)
{
    cgwp_random(key, sizeof *key);
}
