/* SPDX-License-Identifier: MIT */
/* merge-walk.c - the sums in canonical order: every entry sorted by the
 * names of its function, source file and target and by its positions,
 * never by when it came, so that the output does not depend on the
 * order of the inputs; entries that the chosen positions make equal are
 * summed into one group. */
#include <string.h>

#include "merge.h"

static int cmp_u64(uint64_t left, uint64_t right)
{
    return left < right ? -1 : left > right;
}

static int cmp_pos(const cgw_merger *m, const uint64_t *left, const uint64_t *right, unsigned mask)
{
    for (int slot = 0; slot < CGW_NPOS_MAX; slot++)
        if ((mask & m->slot_kind[slot]) && left[slot] != right[slot])
            return cmp_u64(left[slot], right[slot]);
    return 0;
}

/* The order of two items; the part only when with_part. */
static int cmp_items(const mwalk *wk, const mitem *left, const mitem *right, int with_part)
{
    const mtable *tab = wk->m->tab;
    const uint64_t *lkey = cgwm_key(&tab[left->table], left->entry);
    const uint64_t *rkey = cgwm_key(&tab[right->table], right->entry);
    int cmp = 0;
    if (!wk->part_last && (cmp = cmp_u64(lkey[K_PART], rkey[K_PART])) != 0)
        return cmp;
    if ((cmp = cmp_u64(wk->frank[lkey[K_FN]], wk->frank[rkey[K_FN]])) != 0 ||
        (cmp = cmp_u64(wk->nrank[lkey[K_SRC]], wk->nrank[rkey[K_SRC]])) != 0 ||
        (cmp = cmp_pos(wk->m, lkey + K_POS, rkey + K_POS, wk->mask)) != 0 ||
        (cmp = cmp_u64(left->table, right->table)) != 0)
        return cmp;
    if (left->table != T_COST &&
        ((cmp = cmp_u64(wk->frank[lkey[K_CALLEE]], wk->frank[rkey[K_CALLEE]])) != 0 ||
         (cmp = cmp_pos(wk->m, lkey + K_TPOS, rkey + K_TPOS, wk->mask)) != 0))
        return cmp;
    if (left->table == T_JUMP && (cmp = cmp_u64(lkey[K_COND], rkey[K_COND])) != 0)
        return cmp;
    return with_part && wk->part_last ? cmp_u64(lkey[K_PART], rkey[K_PART]) : 0;
}

static int by_item(const void *left, const void *right, void *ctx)
{
    return cmp_items(ctx, left, right, 1);
}

static int by_function(const void *left, const void *right, void *ctx)
{
    const mwalk *wk = ctx;
    const uint64_t *lkey = cgwm_key(&wk->m->fns, *(const uint32_t *)left);
    const uint64_t *rkey = cgwm_key(&wk->m->fns, *(const uint32_t *)right);
    for (int k = 0; k < 3; k++)
        if (lkey[k] != rkey[k])
            return cmp_u64(wk->nrank[lkey[k]], wk->nrank[rkey[k]]);
    return 0;
}

static cgw_status function_ranks(mwalk *wk)
{
    cgw_merger *m = wk->m;
    size_t count = m->fns.n;
    uint32_t *ids = cgwm_alloc(m, count * sizeof *ids);
    wk->frank = cgwm_alloc(m, count * sizeof *wk->frank);
    if (ids == NULL || wk->frank == NULL) {
        cgwm_free(m, ids);
        return m->err;
    }
    for (size_t i = 0; i < count; i++)
        ids[i] = (uint32_t)i;
    if (cgwm_sort(m, ids, count, sizeof *ids, by_function, wk) == 0)
        for (size_t i = 0; i < count; i++)
            wk->frank[ids[i]] = (uint32_t)i;
    cgwm_free(m, ids);
    return m->err;
}

static uint64_t item_part(const mwalk *wk, const mitem *item)
{
    return cgwm_key(&wk->m->tab[item->table], item->entry)[K_PART];
}

static uint64_t item_fn(const mwalk *wk, const mitem *item)
{
    return wk->frank[cgwm_key(&wk->m->tab[item->table], item->entry)[K_FN]];
}

/* An item with the words that decide most comparisons within a group:
 * the source file's rank and the first position the walk compares. */
struct gitem {
    uint64_t src, pos;
    mitem item;
};

/* One stable counting sort pass of the items by word(item) < nkeys; the
 * most items of one word into *largest. */
static int count_pass(mwalk *wk, mitem *tmp, size_t nkeys,
                      uint64_t (*word)(const mwalk *, const mitem *), size_t *largest)
{
    size_t *start = cgwm_alloc(wk->m, (nkeys + 1) * sizeof *start);
    if (start == NULL)
        return -1;
    memset(start, 0, (nkeys + 1) * sizeof *start);
    for (size_t i = 0; i < wk->n; i++)
        start[word(wk, &wk->items[i]) + 1]++;
    *largest = 0;
    for (size_t k = 0; k < nkeys; k++) {
        *largest = start[k + 1] > *largest ? start[k + 1] : *largest;
        start[k + 1] += start[k];
    }
    for (size_t i = 0; i < wk->n; i++)
        tmp[start[word(wk, &wk->items[i])]++] = wk->items[i];
    if (wk->n > 0) /* no items: wk->items may be NULL */
        memcpy(wk->items, tmp, wk->n * sizeof *tmp);
    cgwm_free(wk->m, start);
    return 0;
}

/* The items grouped, in a stable order, by the part when it comes first
 * and by function rank: the first words of the canonical order.  Each
 * group is then sorted on its own, small enough to stay in the cache,
 * where one sort of every item went to memory at each comparison (the
 * walk sorts it when it reaches it, in room made here for the largest,
 * so that it cannot fail once it writes).  1 when every item is sorted
 * here already, 0 when the groups are left to the walk, -1 out of
 * memory. */
static int by_group(mwalk *wk)
{
    cgw_merger *m = wk->m;
    uint64_t parts = 0;
    for (size_t i = 0; !wk->part_last && i < wk->n; i++) {
        uint64_t part = item_part(wk, &wk->items[i]);
        parts = part > parts ? part : parts;
    }
    if (parts >= wk->n) /* more parts than items: a part of its own each */
        return cgwm_sort(m, wk->items, wk->n, sizeof *wk->items, by_item, wk) < 0 ? -1 : 1;
    mitem *tmp = cgwm_alloc(m, (wk->n ? wk->n : 1) * sizeof *tmp);
    if (tmp == NULL)
        return -1;
    size_t largest = 0, unused;
    int rc = count_pass(wk, tmp, m->fns.n, item_fn, &largest);
    if (rc == 0 && parts > 0)
        rc = count_pass(wk, tmp, (size_t)parts + 1, item_part, &unused);
    cgwm_free(m, tmp);
    if (rc == 0 && largest > 1) { /* a group holds at most a function's items */
        wk->g = cgwm_alloc(m, largest * sizeof *wk->g);
        wk->gtmp = cgwm_alloc(m, largest * sizeof *wk->gtmp);
        if (wk->g == NULL || wk->gtmp == NULL)
            return -1;
    }
    return rc;
}

static int by_gitem(const void *left, const void *right, void *ctx)
{
    const gitem *lg = left, *rg = right;
    if (lg->src != rg->src)
        return lg->src < rg->src ? -1 : 1;
    if (lg->pos != rg->pos)
        return lg->pos < rg->pos ? -1 : 1;
    return cmp_items(ctx, &lg->item, &rg->item, 1);
}

/* The end of the group of by_group() that starts at item i. */
static size_t group_end(const mwalk *wk, size_t i)
{
    uint64_t part = wk->part_last ? 0 : item_part(wk, &wk->items[i]);
    uint64_t fn = item_fn(wk, &wk->items[i]);
    size_t j = i + 1;
    while (j < wk->n && item_fn(wk, &wk->items[j]) == fn &&
           (wk->part_last || item_part(wk, &wk->items[j]) == part))
        j++;
    return j;
}

/* The group [i, j) sorted in the canonical order, in the room that
 * by_group() made (no allocation: the walk may be writing). */
static void sort_group(mwalk *wk, size_t i, size_t j)
{
    cgw_merger *m = wk->m;
    if (j - i < 2)
        return;
    int first = 0;
    while (first < CGW_NPOS_MAX && !(wk->mask & m->slot_kind[first]))
        first++;
    gitem *g = wk->g;
    for (size_t k = i; k < j; k++) {
        const uint64_t *key = cgwm_key(&m->tab[wk->items[k].table], wk->items[k].entry);
        g[k - i] = (gitem){ wk->nrank[key[K_SRC]], first < CGW_NPOS_MAX ? key[K_POS + first] : 0,
                            wk->items[k] };
    }
    cgwm_sort_in(g, j - i, sizeof *g, by_gitem, wk, wk->gtmp);
    for (size_t k = i; k < j; k++)
        wk->items[k] = g[k - i].item;
}

cgw_status cgwm_walk_init(cgw_merger *m, mwalk *wk, unsigned mask, int part_last,
                          const char *call)
{
    memset(wk, 0, sizeof *wk);
    wk->m = m;
    wk->call = call;
    wk->mask = mask;
    wk->part_last = part_last;
    if ((wk->nrank = cgwm_name_ranks(m)) == NULL || function_ranks(wk) != CGW_OK)
        return m->err;
    size_t count = 0;
    for (int table = 0; table < T_N; table++)
        count += m->tab[table].n;
    wk->items = cgwm_alloc(m, count * sizeof *wk->items);
    wk->sum = cgwm_alloc(m, 2 * (2 + m->nev) * sizeof *wk->sum);
    wk->joins = cgwm_alloc(m, count ? count : 1);
    if (wk->items == NULL || wk->sum == NULL || wk->joins == NULL)
        return m->err;
    for (int table = 0; table < T_N; table++)
        for (size_t i = 0; i < m->tab[table].n; i++)
            wk->items[wk->n++] = (mitem){ (uint32_t)table, (uint32_t)i };
    if (by_group(wk) == 1) /* sorted whole */
        wk->sorted = wk->n;
    return m->err;
}

void cgwm_walk_free(mwalk *wk)
{
    cgwm_free(wk->m, wk->nrank);
    cgwm_free(wk->m, wk->frank);
    cgwm_free(wk->m, wk->items);
    cgwm_free(wk->m, wk->sum);
    cgwm_free(wk->m, wk->g);
    cgwm_free(wk->m, wk->gtmp);
    cgwm_free(wk->m, wk->joins);
}

/* sum += the values of item, exactly. */
static cgw_status add_item(mwalk *wk, const mitem *item, uint64_t *sum)
{
    const mtable *tab = &wk->m->tab[item->table];
    const uint64_t *vals = cgwm_val(tab, item->entry);
    for (size_t k = 0; k < tab->nv; k++) {
        if (vals[k] > UINT64_MAX - sum[k])
            return cgwm_fail(wk->m, CGW_ERANGE, wk->call, "a sum in %s passes 2^64-1",
                             cgwm_target(wk->m, cgwm_key(tab, item->entry)[K_FN]).function);
        sum[k] += vals[k];
    }
    return CGW_OK;
}

/* Whether item j (sorted, as is j - 1) is in the group of the item
 * before; the first walk compares, the next ones read what it found. */
static int joins_previous(mwalk *wk, size_t j)
{
    if (j >= wk->joined) {
        wk->joins[j] = cmp_items(wk, &wk->items[j - 1], &wk->items[j], 0) == 0;
        wk->joined = j + 1;
    }
    return wk->joins[j];
}

cgw_status cgwm_walk(mwalk *wk, mvisit visit, void *ctx)
{
    size_t stride = 2 + wk->m->nev;
    cgw_status st = wk->m->err;
    for (size_t i = 0; st == CGW_OK && i < wk->n;) {
        if (i >= wk->sorted) { /* the next group, sorted while its rows are at hand */
            size_t end = group_end(wk, i);
            sort_group(wk, i, end);
            wk->sorted = end;
            wk->joins[i] = 0; /* another function or part than the item before */
            wk->joined = i + 1;
        }
        size_t j = i;
        memset(wk->sum, 0, 2 * stride * sizeof *wk->sum);
        for (; st == CGW_OK && (j == i || (j < wk->sorted && joins_previous(wk, j))); j++) {
            const mitem *item = &wk->items[j];
            uint64_t side =
                wk->part_last ? cgwm_key(&wk->m->tab[item->table], item->entry)[K_PART] : 0;
            st = add_item(wk, item, wk->sum + (side ? stride : 0));
        }
        if (st == CGW_OK)
            st = visit(ctx, wk, (int)wk->items[i].table,
                       cgwm_key(&wk->m->tab[wk->items[i].table], wk->items[i].entry), wk->sum,
                       wk->sum + stride);
        i = j;
    }
    return st;
}

/* ------------------------------------------------------- what is written */

cgw_target cgwm_target(const cgw_merger *m, uint64_t fn)
{
    const uint64_t *key = cgwm_key(&m->fns, (size_t)fn);
    cgw_target target = { cgwm_name(m, key[0]), cgwm_name(m, key[1]), cgwm_name(m, key[2]) };
    return target;
}

void cgwm_positions(const cgw_merger *m, unsigned mask, const uint64_t *slots, uint64_t *pos)
{
    size_t j = 0;
    for (int slot = 0; slot < CGW_NPOS_MAX; slot++)
        if (mask & m->slot_kind[slot])
            pos[j++] = slots[slot];
}

/* Callgrind's and Cachegrind's own order of their events. */
static const char *const known[] = {
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
    "Bc", "Bcm", "Bi", "Bim", "Ge", "sysCount", "sysTime", "sysCpuTime"
};

static size_t known_rank(const char *name)
{
    size_t k = 0;
    while (k < sizeof known / sizeof *known && strcmp(known[k], name) != 0)
        k++;
    return k;
}

static int by_event(const void *left, const void *right, void *ctx)
{
    const cgw_merger *m = ctx;
    const char *lname = m->names.s[m->ev_name[*(const uint32_t *)left]];
    const char *rname = m->names.s[m->ev_name[*(const uint32_t *)right]];
    size_t lrank = known_rank(lname), rrank = known_rank(rname);
    return lrank != rrank ? (lrank < rrank ? -1 : 1) : strcmp(lname, rname);
}

static int by_derived(const void *left, const void *right, void *ctx)
{
    const cgw_merger *m = ctx;
    return strcmp(m->names.s[m->der[*(const uint32_t *)left][0]],
                  m->names.s[m->der[*(const uint32_t *)right][0]]);
}

/* 0..count-1 into out: the inputs' own order when they all had it (uniform),
 * else sorted by cmp, an order that does not depend on which input came
 * first. */
static int order(cgw_merger *m, uint32_t *out, size_t count, int uniform,
                 int (*cmp)(const void *, const void *, void *))
{
    for (size_t i = 0; i < count; i++)
        out[i] = (uint32_t)i;
    if (uniform)
        return 0;
    return cgwm_sort(m, out, count, sizeof *out, cmp, m);
}

int cgwm_event_order(cgw_merger *m, uint32_t *out)
{
    return order(m, out, m->nev, m->ev_uniform, by_event);
}

int cgwm_derived_order(cgw_merger *m, uint32_t *out)
{
    return order(m, out, m->nder, m->der_uniform, by_derived);
}
