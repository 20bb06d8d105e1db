/* SPDX-License-Identifier: MIT */
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

/* The secret of one table's owner (a reader, a writer): 128 random bits
 * (cgwp_hash_key_init), so that the slots of a name cannot be known
 * before the run and no input can choose names that collide. */
typedef struct cgwp_hash_key {
    uint64_t k0, k1;
} cgwp_hash_key;

void cgwp_hash_key_init(cgwp_hash_key *key);

#define CGWP_ROTL(x, b) ((uint64_t)((x) << (b)) | ((x) >> (64 - (b))))
#define CGWP_SIPROUND(v0, v1, v2, v3)                                          \
    do {                                                                       \
        v0 += v1; v1 = CGWP_ROTL(v1, 13); v1 ^= v0; v0 = CGWP_ROTL(v0, 32);    \
        v2 += v3; v3 = CGWP_ROTL(v3, 16); v3 ^= v2;                            \
        v0 += v3; v3 = CGWP_ROTL(v3, 21); v3 ^= v0;                            \
        v2 += v1; v1 = CGWP_ROTL(v1, 17); v1 ^= v2; v2 = CGWP_ROTL(v2, 32);    \
    } while (0)

/* SipHash-1-3 of str[0..len) under key, with tweak (a writer's scope)
 * folded into the key: a keyed pseudo-random function, so that without
 * the key no set of names is more likely to collide than any other (a
 * multiply-xor per word, as before, is inverted a word at a time: with
 * its seed known, a last word chosen after the others cancels them, and
 * tests/flood.c makes any number of names of one hash that way).  The words are read in the
 * host's order; the hash never leaves the process.  *high, when not NULL,
 * gets the OR of every word, so that (*high & CGWP_BYTES(0x80)) == 0
 * says the name is ASCII. */
static inline uint64_t cgwp_hash_bytes(const char *str, size_t len, const cgwp_hash_key *key,
                                       uint64_t tweak, uint64_t *high)
{
    uint64_t k1 = key->k1 ^ tweak;
    uint64_t v0 = key->k0 ^ 0x736f6d6570736575u, v1 = k1 ^ 0x646f72616e646f6du;
    uint64_t v2 = key->k0 ^ 0x6c7967656e657261u, v3 = k1 ^ 0x7465646279746573u;
    uint64_t any = 0, word;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        memcpy(&word, str + i, sizeof word);
        any |= word;
        v3 ^= word;
        CGWP_SIPROUND(v0, v1, v2, v3);
        v0 ^= word;
    }
    for (word = 0; i < len; i++)
        word = word << 8 | (unsigned char)str[i];
    any |= word;
    word |= (uint64_t)len << 56;
    v3 ^= word;
    CGWP_SIPROUND(v0, v1, v2, v3);
    v0 ^= word;
    v2 ^= 0xff;
    CGWP_SIPROUND(v0, v1, v2, v3);
    CGWP_SIPROUND(v0, v1, v2, v3);
    CGWP_SIPROUND(v0, v1, v2, v3);
    if (high != NULL)
        *high = any;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The key of an integer an input chooses (a compressed ID): a keyed
 * bijection, so that equal keys still mean equal integers; the secret
 * xor and odd multiplier come before the fixed mixer, so that the
 * integers that share slots under the mixer alone (found by inverting
 * it) are scattered. */
static inline uint64_t cgwp_hash_int(const cgwp_hash_key *key, uint64_t x)
{
    return cgwp_hash_mix((x ^ key->k0) * (key->k1 | 1));
}

#endif /* CGW_COMMON_HASH_H */
