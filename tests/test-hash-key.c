/* SPDX-License-Identifier: MIT */
/* test-hash-key: the keyed hash of lib/common/hash.h against names and
 * IDs built to collide.  Names that all share one value of the reader's
 * former hash (and IDs that share the low bits of their former keys)
 * cost a quadratic number of probes when inserted by those keys; by the
 * keyed hash, under each of two keys from cgwp_hash_key_init(), they
 * cost under 4 probes a name at the table's load of one half, and the
 * two keys lay the same names out differently.  The probes are counted
 * here, by the test's own loop over the table calls the reader uses.
 * This proves that these collision sets no longer collide and that the
 * layout depends on a key a file cannot see; that no other set can
 * collide rests on SipHash being a pseudo-random function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/hash.h"
#include "testutil.h"

#define N 4096

/* Insert keys[0..N) (values index + 1) into table; the probes taken. */
static cgw_allocator alloc;

static uint64_t insert_all(cgwp_hash *table, const uint64_t *keys)
{
    uint64_t probes = 0;
    for (size_t i = 0; i < N; i++) {
        CHECK(cgwp_hash_reserve(table, &alloc, 64) >= 0);
        size_t slot = cgwp_hash_start(table, keys[i]);
        for (; table->vals[slot] != 0; slot = cgwp_hash_next(table, slot))
            probes++;
        cgwp_hash_put(table, slot, keys[i], i + 1);
    }
    return probes;
}

/* How many values sit in different slots in a and b. */
static size_t moved(const cgwp_hash *a, const cgwp_hash *b)
{
    CHECK(a->mask == b->mask);
    size_t *slot_a = calloc(N + 1, sizeof *slot_a), n = 0;
    CHECK(slot_a != NULL);
    for (size_t s = 0; s <= a->mask; s++)
        slot_a[a->vals[s]] = s;
    for (size_t s = 0; s <= b->mask; s++)
        n += b->vals[s] != 0 && slot_a[b->vals[s]] != s;
    free(slot_a);
    return n;
}

static void check_layouts(const char *what, const uint64_t *old, const uint64_t *ka,
                          const uint64_t *kb)
{
    cgwp_hash t_old = { 0 }, t_a = { 0 }, t_b = { 0 };
    uint64_t p_old = insert_all(&t_old, old);
    uint64_t p_a = insert_all(&t_a, ka), p_b = insert_all(&t_b, kb);
    size_t n_moved = moved(&t_a, &t_b);
    printf("%s: %llu probes by the old keys, %llu and %llu by two keyed ones, "
           "%zu of %d moved\n", what, (unsigned long long)p_old, (unsigned long long)p_a,
           (unsigned long long)p_b, n_moved, N);
    CHECK(p_old >= (uint64_t)N * (N - 1) / 4);
    CHECK(p_a < 4 * N && p_b < 4 * N);
    CHECK(n_moved > N / 2);
    cgwp_hash_free(&t_old, &alloc);
    cgwp_hash_free(&t_a, &alloc);
    cgwp_hash_free(&t_b, &alloc);
}

int main(void)
{
    static char names[N][17];
    static uint64_t old[N], ka[N], kb[N];
    CHECK(cgwp_pick_allocator(NULL, &alloc) == 0);
    cgwp_hash_key a, b;
    cgwp_hash_key_init(&a);
    cgwp_hash_key_init(&b);
    CHECK(a.k0 != b.k0 || a.k1 != b.k1);

    uint64_t counter = 0;
    for (size_t i = 0; i < N; i++) {
        cgwt_flood_next(&counter, names[i]);
        CHECK(i == 0 || strcmp(names[i], names[i - 1]) != 0);
        old[i] = cgwt_old_hash(names[i], 16);
        CHECK(old[i] == old[0]);
        ka[i] = cgwp_hash_bytes(names[i], 16, &a, 0, NULL);
        kb[i] = cgwp_hash_bytes(names[i], 16, &b, 0, NULL);
    }
    check_layouts("names", old, ka, kb);

    /* IDs whose former keys all end in 16 zero bits */
    for (size_t i = 0; i < N; i++) {
        uint64_t id = cgwt_old_id_unmix((uint64_t)(i + 1) << 16);
        old[i] = cgwp_hash_mix(id);
        CHECK((old[i] & 0xffff) == 0);
        ka[i] = cgwp_hash_int(&a, id);
        kb[i] = cgwp_hash_int(&b, id);
    }
    check_layouts("IDs", old, ka, kb);

    /* the writer's scope is part of a name's key */
    CHECK(cgwp_hash_bytes("main", 4, &a, 1, NULL) != cgwp_hash_bytes("main", 4, &a, 2, NULL));
    return 0;
}
