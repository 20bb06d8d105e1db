/* SPDX-License-Identifier: MIT */
/* merge-table.c - the merger's memory: its allocator (util.h's, with the
 * first error recorded), interned names (found through util.h's hash
 * index) and the word-keyed tables that hold the sums (rows found
 * through an index of their own: merge.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "merge.h"
#include "message.h"
#include "random.h"

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
    tab->stride = kw + tab->nv;
    cgwp_random(tab->mul, sizeof tab->mul);
    return 0;
}

void cgwm_table_free(cgw_merger *m, mtable *tab)
{
    cgwm_free(m, tab->rows);
    cgwm_free(m, tab->after);
    cgwm_free(m, tab->slots);
    memset(tab, 0, sizeof *tab);
}

/* The key's tag: sum(mul * half-word) + offset over its 32-bit halves
 * (Dietzfelbinger's vector multiply-shift), through a bijective mix, the
 * high half. */
uint32_t cgwm_table_tag(const mtable *tab, const uint64_t *key)
{
    uint64_t sum = tab->mul[2 * tab->kw];
    for (size_t i = 0; i < tab->kw; i++)
        sum += tab->mul[2 * i] * (key[i] & 0xffffffffu) + tab->mul[2 * i + 1] * (key[i] >> 32);
    return (uint32_t)(cgwp_hash_mix(sum) >> 32);
}

/* Where the probe for tag starts: its top bits. */
static size_t tag_start(const mtable *tab, uint32_t tag)
{
    return (size_t)(tag >> (32 - tab->bits));
}

/* Room for one more entry: rows, and an index at most half full. */
static int table_room(cgw_merger *m, mtable *tab)
{
    if (tab->n == tab->cap) {
        size_t cap = tab->cap ? tab->cap * 2 : 64;
        if (tab->cap >= UINT32_MAX / 2 || cap > SIZE_MAX / 2 / (tab->stride * sizeof *tab->rows)) {
            cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "more than %zu entries in a table", tab->cap);
            return -1;
        }
        uint64_t *rows = cgwm_grow(m, tab->rows, cap * tab->stride * sizeof *rows);
        if (rows == NULL)
            return -1;
        tab->rows = rows;
        uint32_t *after = cgwm_grow(m, tab->after, cap * sizeof *after);
        if (after == NULL)
            return -1;
        tab->after = after;
        tab->cap = cap;
    }
    size_t nslots = tab->slots != NULL ? (size_t)1 << tab->bits : 0;
    if ((tab->n + 1) * 2 <= nslots)
        return 0;
    unsigned bits = tab->slots != NULL ? tab->bits + 1 : 7;
    size_t grown = (size_t)1 << bits, mask = grown - 1;
    uint64_t *slots = cgwm_alloc(m, grown * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, grown * sizeof *slots);
    tab->bits = bits;
    for (size_t i = 0; i < nslots; i++) {
        if (tab->slots[i] == 0)
            continue;
        size_t j = tag_start(tab, (uint32_t)(tab->slots[i] >> 32));
        while (slots[j] != 0)
            j = (j + 1) & mask;
        slots[j] = tab->slots[i];
    }
    cgwm_free(m, tab->slots);
    tab->slots = slots;
    return 0;
}

void cgwm_table_prefetch(const mtable *tab, uint32_t tag)
{
    if (tab->slots != NULL)
        CGWP_PREFETCH(&tab->slots[tag_start(tab, tag)]);
}

long cgwm_table_get(cgw_merger *m, mtable *tab, const uint64_t *key)
{
    return cgwm_table_get_tagged(m, tab, key, cgwm_table_tag(tab, key));
}

long cgwm_table_get_tagged(cgw_merger *m, mtable *tab, const uint64_t *key, uint32_t tag)
{
    if (table_room(m, tab) < 0)
        return -1;
    size_t mask = ((size_t)1 << tab->bits) - 1, i = tag_start(tab, tag);
    for (; tab->slots[i] != 0; i = (i + 1) & mask) {
        uint64_t slot = tab->slots[i];
        size_t entry = (uint32_t)slot - 1;
        if ((uint32_t)(slot >> 32) == tag &&
            !memcmp(cgwm_key(tab, entry), key, tab->kw * sizeof *key))
            return (long)entry;
    }
    size_t entry = tab->n++;
    tab->slots[i] = (uint64_t)tag << 32 | (entry + 1);
    memcpy(cgwm_key(tab, entry), key, tab->kw * sizeof *key);
    memset(cgwm_val(tab, entry), 0, tab->nv * sizeof *key);
    tab->after[entry] = 0;
    return (long)entry;
}

int cgwm_table_events(cgw_merger *m, mtable *tab, size_t nev)
{
    size_t nv = tab->head + nev, stride = tab->kw + nv;
    if (nv <= tab->nv)
        return 0;
    uint64_t *rows = cgwm_alloc(m, (tab->cap ? tab->cap : 1) * stride * sizeof *rows);
    if (rows == NULL)
        return -1;
    for (size_t i = 0; i < tab->n; i++) {
        memcpy(rows + i * stride, cgwm_key(tab, i), tab->stride * sizeof *rows);
        memset(rows + i * stride + tab->stride, 0, (stride - tab->stride) * sizeof *rows);
    }
    cgwm_free(m, tab->rows);
    tab->rows = rows;
    tab->nv = nv;
    tab->stride = stride;
    return 0;
}

/* ------------------------------------------------------------------ names */

static void no_memory(cgw_merger *m)
{
    cgwm_fail(m, CGW_ENOMEM, "cgw_merge", "out of memory for a hash index");
}

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
    uint64_t hash = cgwp_index_hash(&nm->ix, str, len);
    uint32_t id;
    size_t slot;
    if (cgwp_index_find(&nm->ix, hash, name_eq, nm, &key, &id, &slot))
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
    if (cgwp_index_put(&nm->ix, &m->a, slot, hash, (uint32_t)nm->n) < 0) {
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
    cgwp_index_free(&m->names.ix, &m->a);
    memset(&m->names, 0, sizeof m->names);
}

/* A stable merge sort of count elements of size bytes with a context for
 * cmp (qsort() has none, and the library keeps no global state), through
 * tmp, room for count elements. */
void cgwm_sort_in(void *base, size_t count, size_t size,
                  int (*cmp)(const void *, const void *, void *), void *ctx, void *tmp_room)
{
    char *elems = base, *tmp = tmp_room;
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
}

int cgwm_sort(cgw_merger *m, void *base, size_t count, size_t size,
              int (*cmp)(const void *, const void *, void *), void *ctx)
{
    void *tmp = cgwm_alloc(m, count * size);
    if (tmp == NULL)
        return -1;
    cgwm_sort_in(base, count, size, cmp, ctx, tmp);
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
