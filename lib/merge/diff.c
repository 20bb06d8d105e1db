/* SPDX-License-Identifier: MIT */
/* diff.c - two profiles compared (cgdiff): a merger whose two parts are
 * the old and the new side, walked with the part last so that each
 * position, call and function meets its counterpart; each side's
 * inclusive costs by lib/common's callgraph.h, the profile model's rule
 * (cycles taken whole). */
#include <math.h>
#include <string.h>

#include "callgraph.h"
#include "merge.h"

struct cgw_differ {
    cgw_merger *m;
    cgw_diff_row *rows;
    size_t nrows;
    int computed;
    uint32_t *order;   /* column -> merged event */
    uint64_t *fsum;    /* per function: [2][nev] old self, new self */
    uint64_t *tot;     /* [2][nev] the totals of each side */
    uint32_t *ends;    /* the calls between functions: caller, callee */
    uint64_t *ecost;   /* their inclusive costs: [2][nev] old, new */
    size_t nedges, capedges;
};

cgw_differ *cgw_diff_new(const cgw_merge_options *opts)
{
    cgw_merge_options mo = CGW_MERGE_OPTIONS_INIT;
    const cgw_merge_options *use = &mo;
    if (cgwp_options_take(&mo, sizeof mo, sizeof mo, opts) < 0)
        use = opts; /* for cgw_merge_new() to say what is wrong */
    mo.flags = 0;
    cgw_merger *m = cgw_merge_new(use);
    if (m == NULL)
        return NULL;
    cgw_differ *d = cgwm_alloc(m, sizeof *d);
    if (d == NULL) {
        cgw_merge_free(m);
        return NULL;
    }
    memset(d, 0, sizeof *d);
    d->m = m;
    if (opts != NULL && opts->flags != 0)
        cgwm_fail(m, CGW_EINVAL, "cgw_diff_new", "unknown flags %#x", opts->flags);
    return d;
}

void cgw_diff_free(cgw_differ *d)
{
    if (d == NULL)
        return;
    cgw_merger *m = d->m;
    cgwm_free(m, d->rows);
    cgwm_free(m, d->order);
    cgwm_free(m, d->fsum);
    cgwm_free(m, d->tot);
    cgwm_free(m, d->ends);
    cgwm_free(m, d->ecost);
    cgwm_free(m, d);
    cgw_merge_free(m);
}

cgw_status cgw_diff_error(const cgw_differ *d)
{
    return d == NULL ? CGW_EUSAGE : d->m->err;
}

const char *cgw_diff_errmsg(const cgw_differ *d)
{
    return d == NULL ? "cgw_diff: the differ is NULL" : d->m->msg;
}

cgw_status cgw_diff_add(cgw_differ *d, int side, cgw_reader *r)
{
    if (d == NULL)
        return CGW_EUSAGE;
    if (side != CGW_DIFF_OLD && side != CGW_DIFF_NEW)
        return cgwm_fail(d->m, CGW_EINVAL, "cgw_diff_add", "side %d is neither old nor new",
                         side);
    if (d->computed)
        return cgwm_fail(d->m, CGW_EUSAGE, "cgw_diff_add", "the rows were already computed");
    return cgwm_add(d->m, r, (uint64_t)side, "cgw_diff_add");
}

/* ----------------------------------------------------------- the rows */

static cgw_status add_to(cgw_merger *m, uint64_t *sum, const uint64_t *vals, size_t count)
{
    for (size_t ev = 0; ev < count; ev++) {
        if (vals[ev] > UINT64_MAX - sum[ev])
            return cgwm_fail(m, CGW_ERANGE, "cgw_diff_rows", "a sum of %s passes 2^64-1",
                             cgwm_name(m, m->ev_name[ev]));
        sum[ev] += vals[ev];
    }
    return CGW_OK;
}

/* A call between two functions, its costs of both sides kept. */
static cgw_status add_edge(cgw_differ *d, const uint64_t *key, const uint64_t *old,
                           const uint64_t *new)
{
    cgw_merger *m = d->m;
    size_t nev = m->nev;
    if (d->nedges == d->capedges) {
        size_t cap = d->capedges ? 2 * d->capedges : 64;
        uint32_t *ends = cgwm_grow(m, d->ends, 2 * cap * sizeof *ends);
        if (ends != NULL)
            d->ends = ends;
        uint64_t *ecost = ends ? cgwm_grow(m, d->ecost, 2 * nev * cap * sizeof *ecost) : NULL;
        if (ecost == NULL)
            return m->err;
        d->ecost = ecost;
        d->capedges = cap;
    }
    d->ends[2 * d->nedges] = (uint32_t)key[K_FN];
    d->ends[2 * d->nedges + 1] = (uint32_t)key[K_CALLEE];
    memcpy(d->ecost + 2 * nev * d->nedges, old, nev * sizeof *old);
    memcpy(d->ecost + 2 * nev * d->nedges + nev, new, nev * sizeof *new);
    d->nedges++;
    return CGW_OK;
}

/* Sums per function and per side from the walk's groups. */
static cgw_status gather(void *ctx, const mwalk *wk, int table, const uint64_t *key,
                         const uint64_t *old, const uint64_t *new)
{
    cgw_differ *d = ctx;
    size_t nev = wk->m->nev;
    uint64_t *fsum = d->fsum + key[K_FN] * 2 * nev;
    cgw_status st = CGW_OK;
    if (table == T_COST) {
        if ((st = add_to(wk->m, fsum, old, nev)) == CGW_OK &&
            (st = add_to(wk->m, fsum + nev, new, nev)) == CGW_OK &&
            (st = add_to(wk->m, d->tot, old, nev)) == CGW_OK)
            st = add_to(wk->m, d->tot + nev, new, nev);
    } else if (table == T_CALL && key[K_CALLEE] != key[K_FN]) {
        st = add_edge(d, key, old + 1, new + 1);
    }
    return st;
}

/* The inclusive costs of one side (0 old, 1 new) into incl[fn * nev + e]. */
static cgw_status side_inclusive(cgw_differ *d, int side, uint64_t *incl)
{
    cgw_merger *m = d->m;
    size_t nev = m->nev, nf = m->fns.n;
    uint64_t *self = cgwm_alloc(m, (nf * nev + 1) * sizeof *self);
    uint64_t *cost = cgwm_alloc(m, (d->nedges * nev + 1) * sizeof *cost);
    uint32_t *cycle = cgwm_alloc(m, (nf + 1) * sizeof *cycle);
    uint64_t *cycle_self = NULL, *cycle_incl = NULL;
    long ncycles = -1;
    if (self != NULL && cost != NULL && cycle != NULL) {
        for (size_t fn = 0; fn < nf; fn++)
            memcpy(self + fn * nev, d->fsum + (fn * 2 + (size_t)side) * nev, nev * sizeof *self);
        for (size_t i = 0; i < d->nedges; i++)
            memcpy(cost + i * nev, d->ecost + (i * 2 + (size_t)side) * nev, nev * sizeof *cost);
        cgwp_callgraph g = { nf, d->nedges, nev, d->ends, self, cost, d->tot + (size_t)side * nev };
        ncycles = cgwp_cycles(&m->a, &g, cycle);
        if (ncycles >= 0) {
            cycle_self = cgwm_alloc(m, ((size_t)ncycles * nev + 1) * sizeof *cycle_self);
            cycle_incl = cgwm_alloc(m, ((size_t)ncycles * nev + 1) * sizeof *cycle_incl);
        }
        if (cycle_self == NULL || cycle_incl == NULL ||
            cgwp_inclusive(&m->a, &g, cycle, (size_t)ncycles, incl, cycle_self, cycle_incl) < 0)
            ncycles = -1;
    }
    void *blocks[] = { self, cost, cycle, cycle_self, cycle_incl };
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        cgwm_free(m, blocks[i]);
    if (ncycles < 0 && m->err == CGW_OK)
        cgwm_fail(m, CGW_ENOMEM, "cgw_diff_rows", "out of memory");
    return m->err;
}

static uint64_t magnitude(const cgw_diff_row *row)
{
    return row->new_cost > row->old_cost ? row->new_cost - row->old_cost
                                         : row->old_cost - row->new_cost;
}

/* The totals first, then the largest change first; ties keep the order
 * rows were made in (by event, self before inclusive, by function name),
 * the sort being stable. */
static int by_change(const void *left, const void *right, void *ctx)
{
    const cgw_diff_row *lrow = left, *rrow = right;
    (void)ctx;
    if ((lrow->function == NULL) != (rrow->function == NULL))
        return lrow->function == NULL ? -1 : 1;
    uint64_t lmag = magnitude(lrow), rmag = magnitude(rrow);
    if (lrow->function == NULL || lmag == rmag)
        return 0;
    return lmag > rmag ? -1 : 1;
}

static double percent(uint64_t old, uint64_t new, uint64_t total)
{
    double delta = new >= old ? (double)(new - old) : -(double)(old - new);
    if (total == 0)
        return delta == 0 ? 0 : delta > 0 ? HUGE_VAL : -HUGE_VAL;
    return delta * 100.0 / (double)total;
}

static void row(cgw_differ *d, const cgw_target *target, size_t column, int incl, uint64_t old,
                uint64_t new)
{
    cgw_merger *m = d->m;
    size_t ev = d->order[column];
    cgw_diff_row *out = &d->rows[d->nrows++];
    out->object = target ? target->object : NULL;
    out->file = target ? target->file : NULL;
    out->function = target ? target->function : NULL;
    out->event = cgwm_name(m, m->ev_name[ev]);
    out->column = column;
    out->inclusive = incl;
    out->old_cost = old;
    out->new_cost = new;
    out->change = percent(old, new, d->tot[ev]);
}

/* A row for each event's totals and each change of a function's self or
 * inclusive cost, functions taken by their rank. */
static cgw_status make_rows(cgw_differ *d, const uint32_t *frank)
{
    cgw_merger *m = d->m;
    size_t nev = m->nev, nf = m->fns.n;
    uint32_t *byrank = cgwm_alloc(m, (nf ? nf : 1) * sizeof *byrank);
    uint64_t *incl = cgwm_alloc(m, (2 * nf * nev + 1) * sizeof *incl);
    d->rows = cgwm_alloc(m, (nev + 2 * nev * nf) * sizeof *d->rows);
    if (byrank == NULL || incl == NULL || d->rows == NULL ||
        side_inclusive(d, 0, incl) != CGW_OK || side_inclusive(d, 1, incl + nf * nev) != CGW_OK) {
        cgwm_free(m, byrank);
        cgwm_free(m, incl);
        return m->err;
    }
    for (size_t fn = 0; fn < nf; fn++)
        byrank[frank[fn]] = (uint32_t)fn;
    for (size_t k = 0; k < nev; k++)
        row(d, NULL, k, 0, d->tot[d->order[k]], d->tot[nev + d->order[k]]);
    for (size_t k = 0; k < nev && m->err == CGW_OK; k++) {
        size_t ev = d->order[k];
        for (size_t i = 0; i < nf && m->err == CGW_OK; i++) {
            const uint64_t *sums = d->fsum + (size_t)byrank[i] * 2 * nev;
            cgw_target target = cgwm_target(m, byrank[i]);
            uint64_t old_incl = incl[byrank[i] * nev + ev];
            uint64_t new_incl = incl[(nf + byrank[i]) * nev + ev];
            if (sums[ev] != sums[nev + ev])
                row(d, &target, k, 0, sums[ev], sums[nev + ev]);
            if (old_incl != new_incl)
                row(d, &target, k, 1, old_incl, new_incl);
        }
    }
    cgwm_free(m, byrank);
    cgwm_free(m, incl);
    if (m->err == CGW_OK)
        cgwm_sort(m, d->rows, d->nrows, sizeof *d->rows, by_change, NULL);
    return m->err;
}

static cgw_status compute(cgw_differ *d)
{
    cgw_merger *m = d->m;
    if (m->err == CGW_OK && m->parts == 0)
        return cgwm_fail(m, CGW_EUSAGE, "cgw_diff_rows", "no profile was added");
    size_t nev = m->nev, nf = m->fns.n;
    d->order = cgwm_alloc(m, nev * sizeof *d->order);
    d->fsum = cgwm_alloc(m, (2 * nev * nf + 1) * sizeof *d->fsum);
    d->tot = cgwm_alloc(m, 2 * nev * sizeof *d->tot);
    if (m->err != CGW_OK || cgwm_event_order(m, d->order) < 0)
        return m->err;
    memset(d->fsum, 0, 2 * nev * nf * sizeof *d->fsum);
    memset(d->tot, 0, 2 * nev * sizeof *d->tot);
    mwalk wk = { .m = m };
    if (cgwm_walk_init(m, &wk, m->mask, 1, "cgw_diff_rows") == CGW_OK &&
        cgwm_walk(&wk, gather, d) == CGW_OK)
        make_rows(d, wk.frank);
    cgwm_walk_free(&wk);
    return m->err;
}

cgw_status cgw_diff_rows(cgw_differ *d, const cgw_diff_row **rows, size_t *count)
{
    if (d == NULL || rows == NULL || count == NULL)
        return d == NULL ? CGW_EUSAGE
                         : cgwm_fail(d->m, CGW_EUSAGE, "cgw_diff_rows", "a NULL argument");
    if (!d->computed && d->m->err == CGW_OK) {
        d->computed = 1;
        compute(d);
    }
    *rows = d->m->err == CGW_OK ? d->rows : NULL;
    *count = d->m->err == CGW_OK ? d->nrows : 0;
    return d->m->err;
}

/* ------------------------------------------------- the difference profile */

/* For each column k: EVENT_plus (new above old), EVENT_minus; no long
 * names, whose event: lines callgrind_annotate would not read. */
static cgw_status diff_header(cgw_differ *d, cgw_writer *w)
{
    cgw_merger *m = d->m;
    cgw_status st = m->seen_cmd ? cgw_set_cmd(w, cgwm_name(m, m->cmd)) : CGW_OK;
    for (size_t k = 0; st == CGW_OK && k < m->nev; k++) {
        const char *ev = cgwm_name(m, m->ev_name[d->order[k]]);
        char *name = cgwm_alloc(m, strlen(ev) + 8);
        if (name == NULL)
            return cgw_set_error(w, m->err, "cgw_diff_write", "%s", m->msg);
        for (int minus = 0; st == CGW_OK && minus < 2; minus++) {
            strcpy(name, ev);
            strcat(name, minus ? "_minus" : "_plus");
            st = cgw_add_event(w, name, NULL);
        }
        cgwm_free(m, name);
    }
    return st;
}

/* cols[2k] the gain of column k, cols[2k + 1] its loss; 0 when equal. */
static int split(const cgw_differ *d, uint64_t *cols, const uint64_t *old, const uint64_t *new)
{
    int moved = 0;
    for (size_t k = 0; k < d->m->nev; k++) {
        uint64_t before = old[d->order[k]], after = new[d->order[k]];
        cols[2 * k] = after > before ? after - before : 0;
        cols[2 * k + 1] = before > after ? before - after : 0;
        moved |= before != after;
    }
    return moved;
}

typedef struct dwrite {
    cgw_differ *d;
    mwrite mw;
} dwrite;

static cgw_status diff_group(void *ctx, const mwalk *wk, int table, const uint64_t *key,
                             const uint64_t *old, const uint64_t *new)
{
    dwrite *dw = ctx;
    uint64_t k0[K_JUMP_END], pos[CGW_NPOS_MAX], tpos[CGW_NPOS_MAX];
    size_t ncols = 2 * wk->m->nev;
    int head = table == T_CALL;
    if (table == T_JUMP || (!split(dw->d, dw->mw.cols, old + head, new + head) &&
                        (table == T_COST || old[0] == new[0])))
        return CGW_OK;
    memcpy(k0, key, wk->m->tab[table].kw * sizeof *key);
    k0[K_PART] = 0; /* both sides go to one part */
    cgw_status st = cgwm_place(&dw->mw, wk->m, k0);
    cgwm_positions(wk->m, wk->mask, key + K_POS, pos);
    if (st != CGW_OK || table == T_COST)
        return st != CGW_OK ? st : cgw_cost(dw->mw.w, pos, dw->mw.cols, ncols);
    cgw_target to = cgwm_target(wk->m, key[K_CALLEE]);
    cgwm_positions(wk->m, wk->mask, key + K_TPOS, tpos);
    uint64_t count = new[0] > old[0] ? new[0] - old[0] : old[0] - new[0];
    return cgw_call(dw->mw.w, &to, count ? count : 1, tpos, pos, dw->mw.cols, ncols);
}

unsigned cgw_diff_positions(const cgw_differ *d)
{
    return d == NULL ? 0 : cgw_merge_positions(d->m);
}

cgw_status cgw_diff_write(cgw_differ *d, cgw_writer *w)
{
    static const char call[] = "cgw_diff_write";
    const cgw_diff_row *rows;
    size_t nrows;
    if (d == NULL)
        return w != NULL ? cgw_set_error(w, CGW_EUSAGE, call, "the differ is NULL") : CGW_EUSAGE;
    dwrite dw = { d, { .w = w, .part = UINT64_MAX } };
    cgw_merger *m = d->m;
    if (w != NULL)
        cgw_diff_rows(d, &rows, &nrows);
    cgw_status st = cgwm_write_check(m, w, &dw.mw.wo, call);
    if (st != CGW_OK)
        return st;
    dw.mw.cols = cgwm_alloc(m, 2 * m->nev * sizeof *dw.mw.cols);
    mwalk wk = { .m = m };
    if (dw.mw.cols != NULL && (st = diff_header(d, w)) == CGW_OK &&
        cgwm_walk_init(m, &wk, dw.mw.wo.positions, 1, call) == CGW_OK)
        st = cgwm_walk(&wk, diff_group, &dw);
    cgwm_walk_free(&wk);
    cgwm_free(m, dw.mw.cols);
    if (m->err != CGW_OK)
        return cgw_set_error(w, m->err, call, "%s", m->msg);
    return st == CGW_OK ? cgw_error(w) : st;
}
