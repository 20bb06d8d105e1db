/* SPDX-License-Identifier: MIT */
/* check.c - the checks of CGW_READ_CHECK that need a whole part:
 * callees without a block of their own, inclusive costs that a
 * function cannot have had, and calls that cost more than the whole
 * part.  A function on a cycle of calls (direct recursion, or through
 * others: stacks converted from a sampler count each edge once a stack)
 * is exempt from the second: the calls into it count the same time more
 * than once.  A call whose caller and callee are on one cycle is exempt
 * from the third (calls_above_total()).  Split blocks and name clashes
 * are found as fn= lines come (emit.c).  The inclusive costs are summed
 * per function, and the dearest call of each edge kept, for the first
 * CGWR_CHECK_EVENTS events only, so that their memory follows the
 * functions and edges, not times events (a 188 KB file of thousands of
 * events and functions once needed 2.36 GB). */
#include <string.h>

#include "read.h"
#include "common/scc.h"

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

static void no_memory(cgw_reader *r)
{
    cgwr_fail(r, CGW_ENOMEM, "out of memory for the call edges of the check at line %llu",
              (unsigned long long)r->lineno);
}

/* Room for one more edge, and for its dearest calls. */
static int room_for_edge(cgw_reader *r)
{
    if (r->nedges == r->capedges) {
        size_t cap = r->capedges ? 2 * r->capedges : 64;
        uint64_t *grown = cap < SIZE_MAX / sizeof *grown
                              ? cgwp_realloc(&r->alloc, r->edges, cap * sizeof *grown)
                              : NULL;
        if (grown == NULL)
            return -1;
        r->edges = grown;
        r->capedges = cap;
    }
    size_t want = (r->nedges + 1) * r->edge_events;
    if (r->edge_events > 0 && want > r->capmax) {
        size_t cap = r->capedges * r->edge_events;
        uint64_t *max = NULL, *line = NULL;
        if (cap / r->edge_events == r->capedges && cap < SIZE_MAX / sizeof *max) {
            max = cgwp_realloc(&r->alloc, r->edge_max, cap * sizeof *max);
            if (max != NULL)
                r->edge_max = max;
            line = max ? cgwp_realloc(&r->alloc, r->edge_line, cap * sizeof *line) : NULL;
            if (line != NULL)
                r->edge_line = line;
        }
        if (line == NULL)
            return -1;
        r->capmax = cap;
    }
    return 0;
}

/* The index of the edge caller -> callee of the part, kept once; -1
 * without memory. */
static long note_edge(cgw_reader *r, uint32_t caller, uint32_t callee)
{
    uint64_t edge = (uint64_t)caller << 32 | callee;
    uint64_t key = cgwp_hash_int(&r->hash_key, edge); /* a bijection: the key is the edge */
    cgwp_hash *set = &r->edge_set;
    if (set->vals != NULL)
        for (size_t slot = cgwp_hash_start(set, key); set->vals[slot] != 0;
             slot = cgwp_hash_next(set, slot))
            if (set->keys[slot] == key)
                return (long)set->vals[slot] - 1;
    if (r->nedges == 0)
        r->edge_events = cgwr_checked_events(r);
    if (room_for_edge(r) < 0 || cgwp_hash_reserve(set, &r->alloc, 64) < 0) {
        no_memory(r);
        return -1;
    }
    size_t slot = cgwp_hash_start(set, key);
    while (set->vals[slot] != 0)
        slot = cgwp_hash_next(set, slot);
    cgwp_hash_put(set, slot, key, r->nedges + 1);
    if (r->edge_events > 0)
        memset(r->edge_max + r->nedges * r->edge_events, 0,
               r->edge_events * sizeof *r->edge_max);
    r->edges[r->nedges++] = edge;
    return (long)r->nedges - 1;
}

/* The strongly connected component of each function of the part's
 * calls (n entries, to free), the functions on a cycle marked recursive;
 * NULL without memory. */
static uint32_t *components(cgw_reader *r)
{
    size_t n = r->nfns, ne = r->nedges;
    uint32_t *at = cgwp_alloc(&r->alloc, (n + 1) * sizeof *at);
    uint32_t *to = cgwp_alloc(&r->alloc, (ne + 1) * sizeof *to);
    uint32_t *comp = cgwp_alloc(&r->alloc, (n + 1) * sizeof *comp);
    uint32_t *size = cgwp_alloc(&r->alloc, (n + 1) * sizeof *size);
    int ok = at != NULL && to != NULL && comp != NULL && size != NULL;
    if (ok) {
        memset(at, 0, (n + 1) * sizeof *at);
        for (size_t e = 0; e < ne; e++)
            at[(r->edges[e] >> 32) + 1]++;
        for (size_t v = 0; v < n; v++)
            at[v + 1] += at[v];
        memcpy(size, at, n * sizeof *size); /* the next free place of each */
        for (size_t e = 0; e < ne; e++)
            to[size[r->edges[e] >> 32]++] = (uint32_t)r->edges[e];
        ok = cgwp_scc(&r->alloc, n, at, to, comp) == 0;
    }
    if (ok) {
        memset(size, 0, n * sizeof *size);
        for (size_t v = 0; v < n; v++)
            size[comp[v]]++;
        for (size_t v = 0; v < n; v++)
            if (size[comp[v]] > 1)
                r->fns[v]->recursive = 1;
    } else {
        no_memory(r);
    }
    void *blocks[] = { at, to, size, ok ? NULL : comp };
    cgwp_free_all(&r->alloc, blocks, sizeof blocks / sizeof *blocks);
    return ok ? comp : NULL;
}

void cgwr_check_free(cgw_reader *r)
{
    cgwp_hash_free(&r->edge_set, &r->alloc);
    void *blocks[] = { r->edges, r->edge_max, r->edge_line };
    cgwp_free_all(&r->alloc, blocks, sizeof blocks / sizeof *blocks);
}

void cgwr_check_call(cgw_reader *r, int callee, uint64_t line, const uint64_t *costs)
{
    if (callee < 0)
        return;
    long edge = note_edge(r, (uint32_t)r->fn_index, (uint32_t)callee);
    size_t nevents = cgwr_checked_events(r);
    if (edge >= 0 && r->edge_events == nevents) {
        uint64_t *max = r->edge_max + (size_t)edge * nevents;
        for (size_t i = 0; i < nevents; i++) {
            if (costs[i] > max[i]) {
                max[i] = costs[i];
                r->edge_line[(size_t)edge * nevents + i] = line;
            }
        }
    }
    cgwr_fn *caller = r->fns[r->fn_index], *callee_fn = r->fns[callee];
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

/* Whether a function that is not directly recursive has calls into it
 * that carry more than it has: only then are the cycles looked for. */
static int any_excess(const cgw_reader *r, size_t nevents)
{
    for (size_t k = 0; k < r->nfns; k++) {
        const cgwr_fn *func = r->fns[k];
        if (func->nagg != nevents || func->recursive || func->blocks == 0)
            continue;
        for (size_t i = 0; i < nevents; i++)
            if (func->agg[nevents + i] > func->agg[i])
                return 1;
    }
    return 0;
}

/* Whether an edge between two functions has a call that costs more
 * than the part's cost lines sum to. */
static int any_above(const cgw_reader *r)
{
    const uint64_t *totals = r->part.totals, *max = r->edge_max;
    for (size_t e = 0; e < r->nedges; e++)
        for (size_t i = 0; i < r->edge_events; i++)
            if (max[e * r->edge_events + i] > totals[i] &&
                r->edges[e] >> 32 != (uint32_t)r->edges[e])
                return 1;
    return 0;
}

/* Warn about each call that costs more than the whole part, unless its
 * caller and callee are on one cycle (comp: their components): Callgrind
 * itself adds a recursion's inner calls into the one call of a context
 * (odd'2 -> even'2 with the default --separate-recs=2), so that such a
 * call may carry the same cost many times.  A call off every cycle
 * cannot: its calls never run inside one another.  The dearest call of
 * the first such event is named, once an edge. */
static void calls_above_total(cgw_reader *r, const uint32_t *comp)
{
    const uint64_t *totals = r->part.totals;
    size_t k = r->edge_events;
    for (size_t e = 0; e < r->nedges; e++) {
        uint32_t caller = (uint32_t)(r->edges[e] >> 32), callee = (uint32_t)r->edges[e];
        if (comp[caller] == comp[callee])
            continue;
        for (size_t i = 0; i < k; i++) {
            uint64_t cost = r->edge_max[e * k + i];
            if (cost > totals[i]) {
                cgwr_diag(r, r->edge_line[e * k + i], CGWR_CALL_ABOVE_TOTAL,
                          "the call to %s carries %llu %s inclusive, more than the total of "
                          "part %u (%llu, the sum of its cost lines)", r->fns[callee]->name->s,
                          (unsigned long long)cost, r->part.events[i].name, r->part.pub.index,
                          (unsigned long long)totals[i]);
                break;
            }
        }
    }
}

void cgwr_check_part(cgw_reader *r)
{
    size_t nevents = cgwr_checked_events(r);
    int above = r->edge_events <= r->nevents && any_above(r);
    if (above || any_excess(r, nevents)) {
        uint32_t *comp = components(r);
        if (comp != NULL && above)
            calls_above_total(r, comp);
        cgwp_free(&r->alloc, comp);
    }
    cgwp_hash_clear(&r->edge_set);
    r->nedges = 0;
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
