/* SPDX-License-Identifier: MIT */
/* check.c - the checks of CGW_READ_CHECK that need a whole part:
 * callees without a block of their own, and inclusive costs that a
 * function cannot have had.  Split blocks and name clashes are found as
 * fn= lines come (emit.c).  The inclusive costs are summed per function
 * for the first CGWR_CHECK_EVENTS events only, so that their memory
 * follows the functions, not functions times events (a 188 KB file of
 * thousands of events and functions once needed 2.36 GB). */
#include "read.h"

static void add(uint64_t *to, const uint64_t *from, size_t count)
{
    for (size_t i = 0; i < count; i++)
        to[i] = from[i] > UINT64_MAX - to[i] ? UINT64_MAX : to[i] + from[i];
}

/* The self cost of the block that ends: what the part's totals grew by
 * since it began, so cost lines pay nothing for the check. */
void cgwr_check_block(cgw_reader *r)
{
    if (r->fn_index < 0)
        return;
    cgwr_fn *func = r->fns[r->fn_index];
    const uint64_t *totals = r->part.totals;
    uint64_t *start = r->block_start;
    size_t nchecked = cgwr_checked_events(r);
    for (size_t i = 0; func->nagg == nchecked && i < nchecked; i++) {
        uint64_t grew = totals[i] - start[i];
        func->agg[i] = grew > UINT64_MAX - func->agg[i] ? UINT64_MAX : func->agg[i] + grew;
        start[i] = totals[i]; /* counted once, however often the block is ended */
    }
}

void cgwr_check_call(cgw_reader *r, int callee, uint64_t line, const uint64_t *costs)
{
    if (callee < 0)
        return;
    cgwr_fn *caller = r->fns[r->fn_index], *callee_fn = r->fns[callee];
    size_t nevents = cgwr_checked_events(r);
    if (!callee_fn->called)
        callee_fn->call_line = line;
    callee_fn->called = 1;
    if (callee == r->fn_index)
        caller->recursive = 1;
    if (caller->nagg == nevents)
        add(caller->agg, costs, nevents);
    if (callee_fn->nagg == nevents)
        add(callee_fn->agg + nevents, costs, nevents);
}

void cgwr_check_part(cgw_reader *r)
{
    size_t nevents = cgwr_checked_events(r);
    for (size_t k = 0; k < r->nfns; k++) {
        const cgwr_fn *func = r->fns[k];
        if (func->called && func->blocks == 0)
            cgwr_diag(r, func->call_line, CGWR_CALLEE_WITHOUT_BLOCK,
                      "callee %s has no fn= block in this part (Qt Creator drops the call, "
                      "speedscope and callgrind_annotate show a phantom)", func->name->s);
        if (func->nagg != nevents || func->recursive || func->blocks == 0)
            continue;
        const uint64_t *own = func->agg, *in = func->agg + nevents;
        for (size_t i = 0; i < nevents; i++) {
            if (in[i] > own[i]) {
                cgwr_diag(r, func->first_line, CGWR_INCLUSIVE_EXCESS,
                          "calls into %s carry %llu %s inclusive, more than its self cost "
                          "plus its calls (%llu)", func->name->s, (unsigned long long)in[i],
                          r->part.events[i].name, (unsigned long long)own[i]);
                break;
            }
        }
    }
}
