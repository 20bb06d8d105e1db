/* SPDX-License-Identifier: MIT */
/* merge-write.c - the merged profile written through a writer: once dry,
 * to find any sum that passes 2^64-1 before a byte is written (only when
 * the sums of whole tables do not fit: any other sum is less), then for
 * real, one function block after another in the canonical order. */
#include <stdio.h>
#include <string.h>

#include "calls.h"
#include "merge.h"

unsigned cgw_merge_positions(const cgw_merger *m)
{
    return m == NULL || m->parts == 0 ? 0 : m->mask;
}

static void columns(const mwrite *mw, size_t nev, const uint64_t *vals)
{
    for (size_t k = 0; k < nev; k++)
        mw->cols[k] = vals[mw->order[k]];
}

/* The dry walk: the totals of each part must fit too. */
static cgw_status dry(void *ctx, const mwalk *wk, int table, const uint64_t *key,
                      const uint64_t *sum, const uint64_t *unused)
{
    mwrite *mw = ctx;
    (void)unused;
    if (key[K_PART] != mw->part)
        memset(mw->totals, 0, wk->m->nev * sizeof *mw->totals);
    mw->part = key[K_PART];
    for (size_t ev = 0; table == T_COST && ev < wk->m->nev; ev++) {
        if (sum[ev] > UINT64_MAX - mw->totals[ev])
            return cgwm_fail(wk->m, CGW_ERANGE, wk->call, "the total of %s passes 2^64-1",
                             cgwm_name(wk->m, wk->m->ev_name[ev]));
        mw->totals[ev] += sum[ev];
    }
    return CGW_OK;
}

/* Whether every column of every table sums, over all its entries, to at
 * most 2^64-1: then so does each part's total and each group's sum, and
 * the dry walk has nothing to find.  Passes over the rows in memory
 * order, where the walks visit them in the canonical order. */
static int sums_fit(const cgw_merger *m)
{
    for (int table = 0; table < T_N; table++) {
        const mtable *tab = &m->tab[table];
        for (size_t k = 0; k < tab->nv; k++) {
            uint64_t total = 0;
            for (size_t i = 0; i < tab->n; i++) {
                uint64_t value = cgwm_val(tab, i)[k];
                if (value > UINT64_MAX - total)
                    return 0;
                total += value;
            }
        }
    }
    return 1;
}

cgw_status cgwm_place(mwrite *mw, const cgw_merger *m, const uint64_t *key)
{
    cgw_status st = CGW_OK;
    if (mw->part != key[K_PART] && mw->part != UINT64_MAX)
        st = cgw_new_part(mw->w);
    if (mw->part != key[K_PART])
        mw->fn = UINT64_MAX;
    mw->part = key[K_PART];
    if (st == CGW_OK && mw->fn != key[K_FN]) {
        cgw_target target = cgwm_target(m, key[K_FN]);
        st = cgw_object(mw->w, target.object); /* NULL: none */
        if (st == CGW_OK)
            st = cgw_file(mw->w, target.file != NULL ? target.file : "???");
        if (st == CGW_OK)
            st = cgw_function(mw->w, target.function);
        mw->fn = key[K_FN];
        mw->src = cgwm_key(&m->fns, key[K_FN])[1];
    }
    if (st == CGW_OK && mw->src != key[K_SRC]) {
        st = cgw_inline_file(mw->w, cgwm_name(m, key[K_SRC]));
        mw->src = key[K_SRC];
    }
    return st;
}

static cgw_status wet(void *ctx, const mwalk *wk, int table, const uint64_t *key,
                      const uint64_t *sum, const uint64_t *unused)
{
    mwrite *mw = ctx;
    const cgw_merger *m = wk->m;
    size_t nev = m->nev;
    uint64_t pos[CGW_NPOS_MAX], tpos[CGW_NPOS_MAX];
    (void)unused;
    uint64_t count = sum[0];
    if (table == T_CALL && !cgwp_call_count(&count, sum + 1, nev, mw->wo.flags))
        return CGW_OK;
    cgw_status st = cgwm_place(mw, m, key);
    if (st != CGW_OK)
        return st;
    cgwm_positions(m, wk->mask, key + K_POS, pos);
    if (table == T_COST) {
        columns(mw, nev, sum);
        return cgw_cost(mw->w, pos, mw->cols, nev);
    }
    cgw_target to = cgwm_target(m, key[K_CALLEE]);
    if (to.object == NULL)
        to.object = CGW_NO_OBJECT; /* not the caller's */
    cgwm_positions(m, wk->mask, key + K_TPOS, tpos);
    if (table == T_CALL) {
        columns(mw, nev, sum + 1);
        return cgw_call(mw->w, &to, count, tpos, pos, mw->cols, nev);
    }
    if (key[K_COND])
        return cgw_cond_jump(mw->w, &to, sum[0], sum[1], tpos, pos);
    return cgw_jump(mw->w, &to, sum[0], tpos, pos);
}

/* events:, event: lines and cmd:, in the order given. */
static cgw_status header(cgw_merger *m, cgw_writer *w, const uint32_t *order)
{
    cgw_status st = CGW_OK;
    if (m->seen_cmd)
        st = cgw_set_cmd(w, cgwm_name(m, m->cmd));
    for (size_t k = 0; st == CGW_OK && k < m->nev; k++)
        st = cgw_add_event(w, cgwm_name(m, m->ev_name[order[k]]),
                           cgwm_name(m, m->ev_long[order[k]]));
    uint32_t *der = cgwm_alloc(m, m->nder * sizeof *der);
    if (der == NULL || cgwm_derived_order(m, der) < 0) {
        cgwm_free(m, der);
        return cgw_set_error(w, m->err, "cgw_merge_write", "%s", m->msg);
    }
    for (size_t k = 0; st == CGW_OK && k < m->nder; k++) {
        const uint32_t *ids = m->der[der[k]];
        st = cgw_add_derived_event(w, cgwm_name(m, ids[0]), cgwm_name(m, ids[1]),
                                   cgwm_name(m, ids[2]));
    }
    cgwm_free(m, der);
    return st;
}

/* "instr line", "line"..., the names of the kinds in mask; "none". */
static const char *shared_positions(unsigned mask, char *out, size_t size)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t count = cgw_pos_kinds(mask, kinds), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "",
                                 cgw_pos_name(kinds[i]));
    return count ? out : "none";
}

/* The checks of a writer and merger about to be written; OK or an error
 * made sticky in w. */
cgw_status cgwm_write_check(cgw_merger *m, cgw_writer *w, cgw_options *wo, const char *call)
{
    char shared[32];
    *wo = (cgw_options)CGW_OPTIONS_INIT;
    cgw_status st = cgw_get_options(w, wo);
    if (st != CGW_OK || (st = cgw_error(w)) != CGW_OK)
        return st;
    if (m == NULL)
        return cgw_set_error(w, CGW_EUSAGE, call, "the merger is NULL");
    if (m->err == CGW_OK && m->written)
        cgwm_fail(m, CGW_EUSAGE, call, "already written");
    if (m->err == CGW_OK && cgw_get_state(w) != CGW_STATE_HEADER)
        cgwm_fail(m, CGW_EUSAGE, call, "the writer is not fresh");
    if (m->err == CGW_OK && m->parts == 0)
        cgwm_fail(m, CGW_EUSAGE, call, "no profile was added");
    if (m->err == CGW_OK && m->nev == 0)
        cgwm_fail(m, CGW_EINVAL, call, "the inputs have no events");
    if (m->err == CGW_OK && (wo->positions & m->mask) != wo->positions)
        cgwm_fail(m, CGW_EINVAL, call,
                  "the writer wants positions that not every input has (they share %s)",
                  shared_positions(m->mask, shared, sizeof shared));
    m->written = 1;
    if (m->err == CGW_OK)
        return CGW_OK;
    size_t n = strlen(call); /* m->msg names the call already */
    const char *msg = strncmp(m->msg, call, n) == 0 && m->msg[n] == ':' ? m->msg + n + 1 : m->msg;
    return cgw_set_error(w, m->err, call, "%s", msg + (*msg == ' '));
}

cgw_status cgw_merge_write(cgw_merger *m, cgw_writer *w)
{
    static const char call[] = "cgw_merge_write";
    mwrite mw = { .w = w, .part = UINT64_MAX };
    cgw_status st = cgwm_write_check(m, w, &mw.wo, call);
    if (st != CGW_OK)
        return st;
    mwalk wk = { .m = m };
    uint32_t *order = cgwm_alloc(m, m->nev * sizeof *order);
    mw.cols = cgwm_alloc(m, 2 * m->nev * sizeof *mw.cols);
    mw.totals = mw.cols + m->nev;
    mw.order = order;
    if (order != NULL && mw.cols != NULL && cgwm_event_order(m, order) == 0 &&
        cgwm_walk_init(m, &wk, mw.wo.positions, 0, call) == CGW_OK &&
        (sums_fit(m) || cgwm_walk(&wk, dry, &mw) == CGW_OK) &&
        (st = header(m, w, order)) == CGW_OK) {
        mw.part = UINT64_MAX;
        st = cgwm_walk(&wk, wet, &mw);
    }
    cgwm_walk_free(&wk);
    cgwm_free(m, order);
    cgwm_free(m, mw.cols);
    if (m->err != CGW_OK)
        return cgw_set_error(w, m->err, call, "%s", m->msg);
    return st == CGW_OK ? cgw_error(w) : st;
}
