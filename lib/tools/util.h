/* SPDX-License-Identifier: MIT */
/* util.h - what every part of lib/tools shares (the merger, the differ
 * and the converters): memory through a cgw_allocator, arrays that grow,
 * the hashes and the one hash index over entries that the caller stores.
 * lib/tools is built on <cgw.h> alone, so this is its own, not
 * lib/common's.  Not installed. */
#ifndef CGW_UTIL_H
#define CGW_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* ------------------------------------------------------------- memory */

/* libc's malloc, realloc and free, for callers given no allocator. */
const cgw_allocator *cgwu_libc(void);

/* size bytes (at least one) from alloc; NULL when out of memory. */
void *cgwu_alloc(const cgw_allocator *alloc, size_t size);
/* block (NULL: a new one) resized to size bytes (at least one); NULL when
 * out of memory, block kept. */
void *cgwu_realloc(const cgw_allocator *alloc, void *block, size_t size);
/* NULL is a no-op. */
void cgwu_free(const cgw_allocator *alloc, void *block);
/* cgwu_free() of each of blocks[0..count) (a handle's arrays at its end). */
void cgwu_free_all(const cgw_allocator *alloc, void *const *blocks, size_t count);

/* Make *array hold at least need elements of size elem (*cap counts them),
 * doubling from 16; 0, or -1 when out of memory or the size would
 * overflow. */
int cgwu_grow(const cgw_allocator *alloc, void *array, size_t *cap, size_t need, size_t elem);

/* ------------------------------------------------------------ options */

/* Copy the caller's options at given (NULL: keep the defaults) over
 * *dflt, known bytes long: given's struct_size (its first member) is at
 * least known, and its bytes past known are zero.  0, or -1 when
 * struct_size is bad.  (See "Options structs" in cgw.h.) */
int cgwu_options_take(void *dflt, size_t known, const void *given);

/* ------------------------------------------------------------- hashing */

/* FNV-1a over len bytes of data, continuing from hash (start with
 * CGWU_HASH0). */
#define CGWU_HASH0 0xcbf29ce484222325u
uint64_t cgwu_hash(uint64_t hash, const void *data, size_t len);
/* A hash of count 64-bit words (the merger's table keys). */
uint64_t cgwu_hash_words(const uint64_t *words, size_t count);

/* ---------------------------------------------------------- hash index */

/* A hash index: slots hold an entry number (of the caller's array) and
 * its hash; lookups compare through the caller's eq() only when the
 * hashes agree, and growing moves slots by their kept hashes. */
typedef struct cgwu_slot {
    uint32_t entry; /* entry number + 1; 0: empty */
    uint32_t hash;
} cgwu_slot;

typedef struct cgwu_index {
    cgwu_slot *slots;
    size_t nslots; /* a power of two, or 0 */
    size_t count;
} cgwu_index;

/* Whether entry `entry` of ctx's array equals key. */
typedef int (*cgwu_eq_fn)(const void *ctx, uint32_t entry, const void *key);

/* The entry equal to key (of that hash) in *found: 1; else 0, and *slot is
 * where cgwu_index_put() puts a new one. */
int cgwu_index_find(const cgwu_index *ix, uint64_t hash, cgwu_eq_fn eq, const void *ctx,
                    const void *key, uint32_t *found, size_t *slot);
/* Put entry (of that hash) at the slot cgwu_index_find() gave, growing the
 * index first when it is half full; 0, or -1 when out of memory. */
int cgwu_index_put(cgwu_index *ix, const cgw_allocator *alloc, size_t slot, uint64_t hash,
                   uint32_t entry);
void cgwu_index_free(cgwu_index *ix, const cgw_allocator *alloc);

#endif
