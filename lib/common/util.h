/* SPDX-License-Identifier: MIT */
/* util.h - what the modules over <cgw.h> share (lib/merge, lib/convert,
 * lib/gen, lib/profile, and libcgw-pprof): lib/common's memory, options
 * and keyed hash (reached by name: the modules are built with
 * -I lib/common, never -I lib), arrays that grow (grow.c), and the one
 * hash index over entries that the caller stores (index.c).  Not
 * installed. */
#ifndef CGW_UTIL_H
#define CGW_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"   /* cgwp_alloc, cgwp_realloc, cgwp_free, cgwp_free_all */
#include "cgw.h"
#include "hash.h"
#include "options.h" /* cgwp_options_take: oldest is known, as every
                      * options struct of the modules is as it was in 0.1 */

/* ------------------------------------------------------------- memory */

/* libc's malloc, realloc and free, for callers given no allocator. */
const cgw_allocator *cgwp_libc(void);

/* Make *array hold at least need elements of size elem (*cap counts them),
 * doubling from 16; 0, or -1 when out of memory or the size would
 * overflow. */
int cgwp_grow(const cgw_allocator *alloc, void *array, size_t *cap, size_t need, size_t elem);

/* ---------------------------------------------------------- hash index */

/* A hash index over lib/common's table (hash.h): a slot holds an entry
 * number + 1 (of the caller's array) and its hash; lookups compare
 * through the caller's eq() only when the hashes agree.  The hash is
 * keyed (SipHash-1-3 under a key of the index's own, drawn when it first
 * hashes), so that names an input chooses cannot be made to collide and
 * slow it down; nothing may depend on the order of the slots. */
typedef struct cgwp_index {
    cgwp_hash table;
    cgwp_hash_key key;
    int keyed;     /* key drawn */
} cgwp_index;

/* The hash of len bytes at data under ix's key (drawn the first time). */
static inline uint64_t cgwp_index_hash(cgwp_index *ix, const void *data, size_t len)
{
    if (!ix->keyed) {
        cgwp_hash_key_init(&ix->key);
        ix->keyed = 1;
    }
    return cgwp_hash_bytes(data, len, &ix->key, 0, NULL);
}

/* Whether entry `entry` of ctx's array equals key. */
typedef int (*cgwp_eq_fn)(const void *ctx, uint32_t entry, const void *key);

/* The entry equal to key (of that hash) in *found: 1; else 0, and *slot is
 * where cgwp_index_put() puts a new one. */
int cgwp_index_find(const cgwp_index *ix, uint64_t hash, cgwp_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot);
/* Put entry (of that hash) at the slot cgwp_index_find() gave, growing the
 * index first when it is half full; 0, or -1 when out of memory. */
int cgwp_index_put(cgwp_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
                   uint32_t entry);
void cgwp_index_free(cgwp_index *ix, const cgw_allocator *alloc);

#endif
