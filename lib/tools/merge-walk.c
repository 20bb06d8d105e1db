/* merge-walk.c - the sums in canonical order: every entry sorted by the
 * names of its function, source file and target and by its positions,
 * never by when it came, so that the output does not depend on the
 * order of the inputs; entries that the chosen positions make equal are
 * summed into one group. */
#include <string.h>

#include "merge.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

static int cmp_pos(const cgw_merger *m, const uint64_t *a, const uint64_t *b, unsigned mask)
{
    for (int s = 0; s < CGW_NPOS_MAX; s++)
        if ((mask & m->slot_kind[s]) && a[s] != b[s])
            return cmp_u64(a[s], b[s]);
    return 0;
}

/* The order of two items; the part only when with_part. */
static int cmp_items(const mwalk *wk, const mitem *x, const mitem *y, int with_part)
{
    const mtable *tab = wk->m->tab;
    const uint64_t *a = cgwm_key(&tab[x->table], x->entry), *b = cgwm_key(&tab[y->table], y->entry);
    int c = 0;
    if (!wk->part_last && (c = cmp_u64(a[K_PART], b[K_PART])) != 0)
        return c;
    if ((c = cmp_u64(wk->frank[a[K_FN]], wk->frank[b[K_FN]])) != 0 ||
        (c = cmp_u64(wk->nrank[a[K_SRC]], wk->nrank[b[K_SRC]])) != 0 ||
        (c = cmp_pos(wk->m, a + K_POS, b + K_POS, wk->mask)) != 0 || (c = cmp_u64(x->table, y->table)) != 0)
        return c;
    if (x->table != T_COST && ((c = cmp_u64(wk->frank[a[K_CALLEE]], wk->frank[b[K_CALLEE]])) != 0 ||
                           (c = cmp_pos(wk->m, a + K_TPOS, b + K_TPOS, wk->mask)) != 0))
        return c;
    if (x->table == T_JUMP && (c = cmp_u64(a[K_COND], b[K_COND])) != 0)
        return c;
    return with_part && wk->part_last ? cmp_u64(a[K_PART], b[K_PART]) : 0;
}

static int by_item(const void *x, const void *y, void *ctx)
{
    return cmp_items(ctx, x, y, 1);
}

static int by_function(const void *x, const void *y, void *ctx)
{
    const mwalk *wk = ctx;
    const uint64_t *a = cgwm_key(&wk->m->fns, *(const uint32_t *)x);
    const uint64_t *b = cgwm_key(&wk->m->fns, *(const uint32_t *)y);
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return cmp_u64(wk->nrank[a[k]], wk->nrank[b[k]]);
    return 0;
}

static cgw_status function_ranks(mwalk *wk)
{
    cgw_merger *m = wk->m;
    size_t n = m->fns.n;
    uint32_t *ids = cgwm_alloc(m, n * sizeof *ids);
    wk->frank = cgwm_alloc(m, n * sizeof *wk->frank);
    if (ids == NULL || wk->frank == NULL) {
        cgwm_free(m, ids);
        return m->err;
    }
    for (size_t i = 0; i < n; i++)
        ids[i] = (uint32_t)i;
    if (cgwm_sort(m, ids, n, sizeof *ids, by_function, wk) == 0)
        for (size_t i = 0; i < n; i++)
            wk->frank[ids[i]] = (uint32_t)i;
    cgwm_free(m, ids);
    return m->err;
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
    size_t n = 0;
    for (int t = 0; t < T_N; t++)
        n += m->tab[t].n;
    wk->items = cgwm_alloc(m, n * sizeof *wk->items);
    wk->sum = cgwm_alloc(m, 2 * (2 + m->nev) * sizeof *wk->sum);
    if (wk->items == NULL || wk->sum == NULL)
        return m->err;
    for (int t = 0; t < T_N; t++)
        for (size_t i = 0; i < m->tab[t].n; i++)
            wk->items[wk->n++] = (mitem){ (uint32_t)t, (uint32_t)i };
    cgwm_sort(m, wk->items, wk->n, sizeof *wk->items, by_item, wk);
    return m->err;
}

void cgwm_walk_free(mwalk *wk)
{
    cgwm_free(wk->m, wk->nrank);
    cgwm_free(wk->m, wk->frank);
    cgwm_free(wk->m, wk->items);
    cgwm_free(wk->m, wk->sum);
}

/* sum += the values of item x, exactly. */
static cgw_status add_item(mwalk *wk, const mitem *x, uint64_t *sum)
{
    const mtable *tab = &wk->m->tab[x->table];
    const uint64_t *v = cgwm_val(tab, x->entry);
    for (size_t k = 0; k < tab->nv; k++) {
        if (v[k] > UINT64_MAX - sum[k])
            return cgwm_fail(wk->m, CGW_ERANGE, wk->call, "a sum in %s passes 2^64-1",
                             cgwm_target(wk->m, cgwm_key(tab, x->entry)[K_FN]).function);
        sum[k] += v[k];
    }
    return CGW_OK;
}

cgw_status cgwm_walk(mwalk *wk, mvisit visit, void *ctx)
{
    size_t stride = 2 + wk->m->nev;
    cgw_status st = wk->m->err;
    for (size_t i = 0; st == CGW_OK && i < wk->n;) {
        size_t j = i;
        memset(wk->sum, 0, 2 * stride * sizeof *wk->sum);
        for (; st == CGW_OK && j < wk->n && cmp_items(wk, &wk->items[i], &wk->items[j], 0) == 0;
             j++) {
            const mitem *x = &wk->items[j];
            uint64_t side = wk->part_last ? cgwm_key(&wk->m->tab[x->table], x->entry)[K_PART] : 0;
            st = add_item(wk, x, wk->sum + (side ? stride : 0));
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
    const uint64_t *k = cgwm_key(&m->fns, (size_t)fn);
    cgw_target target = { cgwm_name(m, k[0]), cgwm_name(m, k[1]), cgwm_name(m, k[2]) };
    return target;
}

void cgwm_positions(const cgw_merger *m, unsigned mask, const uint64_t *slots, uint64_t *pos)
{
    size_t j = 0;
    for (int s = 0; s < CGW_NPOS_MAX; s++)
        if (mask & m->slot_kind[s])
            pos[j++] = slots[s];
}

/* Callgrind's and Cachegrind's own order of their events. */
static const char *const known[] = {
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
    "Bc", "Bcm", "Bi", "Bim", "Ge", "sysCount", "sysTime", "sysCpuTime"
};

static size_t known_rank(const char *s)
{
    size_t k = 0;
    while (k < sizeof known / sizeof *known && strcmp(known[k], s) != 0)
        k++;
    return k;
}

static int by_event(const void *x, const void *y, void *ctx)
{
    const cgw_merger *m = ctx;
    const char *a = m->names.s[m->ev_name[*(const uint32_t *)x]];
    const char *b = m->names.s[m->ev_name[*(const uint32_t *)y]];
    size_t ka = known_rank(a), kb = known_rank(b);
    return ka != kb ? (ka < kb ? -1 : 1) : strcmp(a, b);
}

static int by_derived(const void *x, const void *y, void *ctx)
{
    const cgw_merger *m = ctx;
    return strcmp(m->names.s[m->der[*(const uint32_t *)x][0]],
                  m->names.s[m->der[*(const uint32_t *)y][0]]);
}

/* 0..n-1 into out: the inputs' own order when they all had it (uniform),
 * else sorted by cmp, an order that does not depend on which input came
 * first. */
static int order(cgw_merger *m, uint32_t *out, size_t n, int uniform,
                 int (*cmp)(const void *, const void *, void *))
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)i;
    if (uniform)
        return 0;
    return cgwm_sort(m, out, n, sizeof *out, cmp, m);
}

int cgwm_event_order(cgw_merger *m, uint32_t *out)
{
    return order(m, out, m->nev, m->ev_uniform, by_event);
}

int cgwm_derived_order(cgw_merger *m, uint32_t *out)
{
    return order(m, out, m->nder, m->der_uniform, by_derived);
}
