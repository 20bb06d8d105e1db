/* hash.h - the one hash table of the library, and its hash functions.
 *
 * An open-addressing table with linear probing at a load of at most one
 * half.  Each slot holds a 64-bit key, already well mixed (its low bits
 * pick the slot), and a value that is never 0 (0 marks an empty slot): a
 * pointer, or an index + 1.  The key is kept in the slot so that a probe
 * compares it before touching the entry it stands for: in the reader's
 * tables of names and functions, that entry is a cache miss.  The
 * owner probes inline (cgwp_hash_start/next) and compares what the key
 * alone cannot tell; growing is here.  Never installed. */
#ifndef CGW_COMMON_HASH_H
#define CGW_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cgw.h"
#include "compiler.h"

typedef struct cgwp_hash {
    uint64_t *keys;   /* the start of one block with vals */
    uintptr_t *vals;
    size_t count, mask; /* mask + 1 slots; none before the first reserve */
} cgwp_hash;

/* Grow: the first time to min_slots slots (a power of two), then to
 * twice as many; 0, or -1 when the allocator fails (the table is then
 * unchanged). */
int cgwp_hash_grow(cgwp_hash *table, const cgw_allocator *alloc, size_t min_slots);

/* Room for one more entry, growing the table when the load would pass
 * one half: 0, 1 when it grew (slots found before are stale), -1 when
 * the allocator failed.  Inline, since every new name asks. */
static inline int cgwp_hash_reserve(cgwp_hash *table, const cgw_allocator *alloc,
                                    size_t min_slots)
{
    if (table->vals != NULL && (table->count + 1) * 2 <= table->mask + 1)
        return 0;
    return cgwp_hash_grow(table, alloc, min_slots) < 0 ? -1 : 1;
}

/* Every entry gone, the slots kept. */
void cgwp_hash_clear(cgwp_hash *table);
void cgwp_hash_free(cgwp_hash *table, const cgw_allocator *alloc);

/* Where the probe for key starts; only once the table has slots. */
static inline size_t cgwp_hash_start(const cgwp_hash *table, uint64_t key)
{
    return (size_t)key & table->mask;
}

static inline size_t cgwp_hash_next(const cgwp_hash *table, size_t slot)
{
    return (slot + 1) & table->mask;
}

/* Fill the empty slot where a probe for key ended. */
static inline void cgwp_hash_put(cgwp_hash *table, size_t slot, uint64_t key, uintptr_t val)
{
    table->keys[slot] = key;
    table->vals[slot] = val;
    table->count++;
}

/* A bijection of 64-bit values that spreads every input bit over the low
 * ones: equal keys mean equal inputs, so an integer key needs no other
 * comparison. */
static inline uint64_t cgwp_hash_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return x;
}

/* The hash of str[0..len) with seed, eight bytes a multiply (a byte a
 * multiply took 5% of the reader's instructions on a Callgrind file with
 * long C++ names).  *high, when not NULL, gets the OR of every 8-byte
 * word, so that (*high & CGWP_BYTES(0x80)) == 0 says the name is ASCII. */
static inline uint64_t cgwp_hash_bytes(const char *str, size_t len, uint64_t seed,
                                       uint64_t *high)
{
    uint64_t hash = (len ^ seed) * 0x9e3779b97f4a7c15u, any = 0, word;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        memcpy(&word, str + i, sizeof word);
        any |= word;
        hash = (hash ^ word) * 0xff51afd7ed558ccdu;
        hash ^= hash >> 32;
    }
    if (i < len) {
        for (word = 0; i < len; i++)
            word = word << 8 | (unsigned char)str[i];
        any |= word;
        hash = (hash ^ word) * 0xff51afd7ed558ccdu;
    }
    if (high != NULL)
        *high = any;
    return cgwp_hash_mix(hash);
}

#endif /* CGW_COMMON_HASH_H */
