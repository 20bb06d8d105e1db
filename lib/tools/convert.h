/* SPDX-License-Identifier: MIT */
/* convert.h - what the converters of lib/tools share (folded stacks in
 * and out): memory through a cgw_allocator, arrays that grow, and a hash
 * index over entries that the caller stores.  Not installed. */
#ifndef CGW_CONVERT_H
#define CGW_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* libc's malloc, realloc and free, for converters given no allocator. */
const cgw_allocator *cgwc_libc(void);

/* Make *array hold at least need elements of size elem (*cap counts them),
 * doubling; 0, or -1 when out of memory or the size would overflow. */
int cgwc_grow(const cgw_allocator *alloc, void *array, size_t *cap, size_t need, size_t elem);

/* A hash index: slots hold an entry number (the caller's array) and its
 * hash; lookups compare through the caller's eq(). */
typedef struct cgwc_slot {
    uint32_t entry; /* entry number + 1; 0: empty */
    uint32_t hash;
} cgwc_slot;

typedef struct cgwc_index {
    cgwc_slot *slots;
    size_t nslots; /* a power of two, or 0 */
    size_t count;
} cgwc_index;

/* Whether entry `entry` of ctx's array equals key. */
typedef int (*cgwc_eq_fn)(const void *ctx, uint32_t entry, const void *key);

/* The entry equal to key (of that hash) in *found: 1; else 0, and *slot is
 * where cgwc_index_put() puts a new one. */
int cgwc_index_find(const cgwc_index *ix, uint64_t hash, cgwc_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot);
/* Put entry (of that hash) at the slot cgwc_index_find() gave, growing the index
 * first when it is half full; 0, or -1 when out of memory. */
int cgwc_index_put(cgwc_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
                   uint32_t entry);
void cgwc_index_free(cgwc_index *ix, const cgw_allocator *alloc);

/* The strongly connected components of the graph of count vertices whose
 * neighbours of v are to[at[v], at[v+1]): comp[v] numbers v's.  0, or -1
 * when out of memory. */
int cgwc_scc(const cgw_allocator *alloc, size_t count, const uint32_t *at, const uint32_t *to,
             uint32_t *comp);

/* FNV-1a over len bytes of data, continuing from hash (start with CGWC_HASH0). */
#define CGWC_HASH0 0xcbf29ce484222325u
uint64_t cgwc_hash(uint64_t hash, const void *data, size_t len);

#endif
