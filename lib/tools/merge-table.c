/* SPDX-License-Identifier: MIT */
/* merge-table.c - the merger's memory: its allocator (util.h's, with the
 * first error recorded), interned names and the word-keyed tables that
 * hold the sums (entries found through util.h's hash index). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "message.h"

void *cgwm_alloc(cgw_merger *m, size_t len)
{
    void *ptr = cgwp_alloc(&m->a, len);
    if (ptr == NULL)
        cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "out of memory for %zu bytes", len);
    return ptr;
}

void *cgwm_grow(cgw_merger *m, void *ptr, size_t len)
{
    void *grown = cgwp_realloc(&m->a, ptr, len);
    if (grown == NULL)
        cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "out of memory for %zu bytes", len);
    return grown;
}

void cgwm_free(cgw_merger *m, void *ptr)
{
    cgwp_free(&m->a, ptr);
}

cgw_status cgwm_fail(cgw_merger *m, cgw_status st, const char *call, const char *fmt, ...)
{
    CGWP_STICKY(st, &m->err, m->msg, sizeof m->msg, call, fmt);
    return st;
}

/* ----------------------------------------------------------------- tables */

int cgwm_table_init(cgw_merger *m, mtable *tab, size_t kw, size_t head, size_t nev)
{
    (void)m;
    memset(tab, 0, sizeof *tab);
    tab->kw = kw;
    tab->head = head;
    tab->nv = head + nev;
    return 0;
}

void cgwm_table_free(cgw_merger *m, mtable *tab)
{
    cgwm_free(m, tab->keys);
    cgwm_free(m, tab->vals);
    cgwu_index_free(&tab->ix, &m->a);
    memset(tab, 0, sizeof *tab);
}

static int key_eq(const void *ctx, uint32_t entry, const void *key)
{
    const mtable *tab = ctx;
    return !memcmp(cgwm_key(tab, entry), key, tab->kw * sizeof(uint64_t));
}

/* Room for one more entry. */
static int table_room(cgw_merger *m, mtable *tab)
{
    if (tab->n < tab->cap)
        return 0;
    if (tab->cap >= UINT32_MAX / 2) {
        cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "more than 2^31 entries in a table");
        return -1;
    }
    size_t cap = tab->cap ? tab->cap * 2 : 64;
    uint64_t *keys = cgwm_grow(m, tab->keys, cap * tab->kw * sizeof *keys);
    if (keys == NULL)
        return -1;
    tab->keys = keys;
    uint64_t *vals = cgwm_grow(m, tab->vals, cap * (tab->nv ? tab->nv : 1) * sizeof *vals);
    if (vals == NULL)
        return -1;
    tab->vals = vals;
    tab->cap = cap;
    return 0;
}

static void no_memory(cgw_merger *m)
{
    cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "out of memory for a hash index");
}

long cgwm_table_get(cgw_merger *m, mtable *tab, const uint64_t *key)
{
    uint64_t hash = cgwu_index_hash(&tab->ix, key, tab->kw * sizeof *key);
    uint32_t found;
    size_t slot;
    if (cgwu_index_find(&tab->ix, hash, key_eq, tab, key, &found, &slot))
        return (long)found;
    if (table_room(m, tab) < 0)
        return -1;
    if (cgwu_index_put(&tab->ix, &m->a, slot, hash, (uint32_t)tab->n) < 0) {
        no_memory(m);
        return -1;
    }
    size_t i = tab->n++;
    memcpy(cgwm_key(tab, i), key, tab->kw * sizeof *key);
    memset(cgwm_val(tab, i), 0, tab->nv * sizeof(uint64_t));
    return (long)i;
}

int cgwm_table_events(cgw_merger *m, mtable *tab, size_t nev)
{
    size_t nv = tab->head + nev;
    if (nv <= tab->nv)
        return 0;
    uint64_t *vals = cgwm_alloc(m, (tab->cap ? tab->cap : 1) * nv * sizeof *vals);
    if (vals == NULL)
        return -1;
    for (size_t i = 0; i < tab->n; i++) {
        memcpy(vals + i * nv, cgwm_val(tab, i), tab->nv * sizeof *vals);
        memset(vals + i * nv + tab->nv, 0, (nv - tab->nv) * sizeof *vals);
    }
    cgwm_free(m, tab->vals);
    tab->vals = vals;
    tab->nv = nv;
    return 0;
}

/* ------------------------------------------------------------------ names */

/* A name to look up: bytes, not a C string. */
typedef struct name_key {
    const char *str;
    size_t len;
} name_key;

static int name_eq(const void *ctx, uint32_t entry, const void *key)
{
    const char *have = ((const mnames *)ctx)->s[entry];
    const name_key *want = key;
    return !strncmp(have, want->str, want->len) && have[want->len] == '\0';
}

uint32_t cgwm_intern(cgw_merger *m, const char *str, size_t len)
{
    mnames *nm = &m->names;
    name_key key = { str, len };
    uint64_t hash = cgwu_index_hash(&nm->ix, str, len);
    uint32_t id;
    size_t slot;
    if (cgwu_index_find(&nm->ix, hash, name_eq, nm, &key, &id, &slot))
        return id;
    if (nm->n + 2 > nm->cap) {
        size_t cap = nm->cap ? nm->cap * 2 : 64;
        char **names = cgwm_grow(m, nm->s, cap * sizeof *names);
        if (names == NULL)
            return 0;
        nm->s = names;
        nm->cap = cap;
        if (nm->n == 0)
            nm->s[nm->n++] = NULL; /* id 0 */
    }
    char *copy = cgwm_alloc(m, len + 1);
    if (copy == NULL)
        return 0;
    if (cgwu_index_put(&nm->ix, &m->a, slot, hash, (uint32_t)nm->n) < 0) {
        cgwm_free(m, copy);
        no_memory(m);
        return 0;
    }
    memcpy(copy, str, len);
    copy[len] = '\0';
    id = (uint32_t)nm->n++;
    nm->s[id] = copy;
    return id;
}

void cgwm_names_free(cgw_merger *m)
{
    for (size_t i = 1; i < m->names.n; i++)
        cgwm_free(m, m->names.s[i]);
    cgwm_free(m, m->names.s);
    cgwu_index_free(&m->names.ix, &m->a);
    memset(&m->names, 0, sizeof m->names);
}

/* A stable merge sort of count elements of size bytes with a context for
 * cmp (qsort() has none, and the library keeps no global state). */
int cgwm_sort(cgw_merger *m, void *base, size_t count, size_t size,
              int (*cmp)(const void *, const void *, void *), void *ctx)
{
    char *elems = base, *tmp = cgwm_alloc(m, count * size);
    if (tmp == NULL)
        return -1;
    for (size_t width = 1; width < count; width *= 2) {
        for (size_t lo = 0; lo < count; lo += 2 * width) {
            size_t mid = lo + width < count ? lo + width : count;
            size_t hi = lo + 2 * width < count ? lo + 2 * width : count, i = lo, j = mid, k = lo;
            /* runs already in order (a merged profile merged again) */
            if (mid < hi && cmp(elems + (mid - 1) * size, elems + mid * size, ctx) <= 0) {
                memcpy(tmp + lo * size, elems + lo * size, (hi - lo) * size);
                continue;
            }
            while (i < mid && j < hi) {
                const char *src = cmp(elems + j * size, elems + i * size, ctx) < 0
                                      ? elems + j++ * size
                                      : elems + i++ * size;
                memcpy(tmp + k++ * size, src, size);
            }
            memcpy(tmp + k * size, elems + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(tmp + k * size, elems + j * size, (hi - j) * size);
        }
        memcpy(elems, tmp, count * size);
    }
    cgwm_free(m, tmp);
    return 0;
}

static int by_name(const void *left, const void *right, void *ctx)
{
    char *const *names = ctx;
    uint32_t left_id = *(const uint32_t *)left, right_id = *(const uint32_t *)right;
    if (left_id == 0 || right_id == 0)
        return (left_id != 0) - (right_id != 0);
    return strcmp(names[left_id], names[right_id]);
}

uint32_t *cgwm_name_ranks(cgw_merger *m)
{
    size_t count = m->names.n ? m->names.n : 1;
    uint32_t *ids = cgwm_alloc(m, count * sizeof *ids);
    uint32_t *rank = cgwm_alloc(m, count * sizeof *rank);
    if (ids == NULL || rank == NULL) {
        cgwm_free(m, ids);
        cgwm_free(m, rank);
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        ids[i] = (uint32_t)i;
    if (cgwm_sort(m, ids, count, sizeof *ids, by_name, m->names.s) < 0) {
        cgwm_free(m, ids);
        cgwm_free(m, rank);
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        rank[ids[i]] = (uint32_t)i;
    cgwm_free(m, ids);
    return rank;
}
