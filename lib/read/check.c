/* check.c - the checks of CGW_READ_CHECK that need a whole part:
 * callees without a block of their own, and inclusive costs that a
 * function cannot have had.  Split blocks and name clashes are found as
 * fn= lines come (emit.c). */
#include "read.h"

static void add(uint64_t *to, const uint64_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        to[i] = c[i] > UINT64_MAX - to[i] ? UINT64_MAX : to[i] + c[i];
}

/* The self cost of the block that ends: what the part's totals grew by
 * since it began, so cost lines pay nothing for the check. */
void cgwr_check_block(cgw_reader *r)
{
    if (r->fn_index < 0)
        return;
    cgwr_fn *f = r->fns[r->fn_index];
    const uint64_t *t = r->part.totals;
    uint64_t *t0 = r->block_start;
    for (size_t i = 0; f->nagg == r->nevents && i < r->nevents; i++) {
        uint64_t grew = t[i] - t0[i];
        f->agg[i] = grew > UINT64_MAX - f->agg[i] ? UINT64_MAX : f->agg[i] + grew;
        t0[i] = t[i]; /* counted once, however often the block is ended */
    }
}

void cgwr_check_call(cgw_reader *r, int callee, uint64_t line, const uint64_t *c)
{
    if (callee < 0)
        return;
    cgwr_fn *f = r->fns[r->fn_index], *g = r->fns[callee];
    size_t n = r->nevents;
    if (!g->called)
        g->call_line = line;
    g->called = 1;
    if (callee == r->fn_index)
        f->recursive = 1;
    if (f->nagg == n)
        add(f->agg + n, c, n);
    if (g->nagg == n)
        add(g->agg + 2 * n, c, n);
}

void cgwr_check_part(cgw_reader *r)
{
    size_t n = r->nevents;
    for (size_t k = 0; k < r->nfns; k++) {
        const cgwr_fn *f = r->fns[k];
        if (f->called && f->blocks == 0)
            cgwr_diag(r, f->call_line, CGWR_CALLEE_WITHOUT_BLOCK,
                      "callee %s has no fn= block in this part (Qt Creator drops the call, "
                      "speedscope and callgrind_annotate show a phantom)", f->name->s);
        if (f->nagg != n || f->recursive || f->blocks == 0)
            continue;
        const uint64_t *self = f->agg, *out = f->agg + n, *in = f->agg + 2 * n;
        for (size_t i = 0; i < n; i++) {
            uint64_t own = self[i] > UINT64_MAX - out[i] ? UINT64_MAX : self[i] + out[i];
            if (in[i] > own) {
                cgwr_diag(r, f->first_line, CGWR_INCLUSIVE_EXCESS,
                          "calls into %s carry %llu %s inclusive, more than its self cost "
                          "plus its calls (%llu)", f->name->s, (unsigned long long)in[i],
                          r->part.events[i].name, (unsigned long long)own);
                break;
            }
        }
    }
}
