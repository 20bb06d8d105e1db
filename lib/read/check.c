/* SPDX-License-Identifier: MIT */
/* check.c - the checks of CGW_READ_CHECK that need a whole part:
 * callees without a block of their own, and inclusive costs that a
 * function cannot have had.  A function on a cycle of calls (direct
 * recursion, or through others: stacks converted from a sampler count
 * each edge once a stack) is exempt from the latter: the calls into it
 * count the same time more than once.  Split blocks and name clashes are found as
 * fn= lines come (emit.c).  The inclusive costs are summed per function
 * for the first CGWR_CHECK_EVENTS events only, so that their memory
 * follows the functions, not functions times events (a 188 KB file of
 * thousands of events and functions once needed 2.36 GB). */
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

/* Keep the edge caller -> callee of the part, once. */
static void note_edge(cgw_reader *r, uint32_t caller, uint32_t callee)
{
    uint64_t edge = (uint64_t)caller << 32 | callee;
    uint64_t key = cgwp_hash_int(&r->hash_key, edge); /* a bijection: the key is the edge */
    cgwp_hash *set = &r->edge_set;
    if (set->vals != NULL)
        for (size_t slot = cgwp_hash_start(set, key); set->vals[slot] != 0;
             slot = cgwp_hash_next(set, slot))
            if (set->keys[slot] == key)
                return;
    if (r->nedges == r->capedges) {
        size_t cap = r->capedges ? 2 * r->capedges : 64;
        uint64_t *grown = cap < SIZE_MAX / sizeof *grown
                              ? cgwp_realloc(&r->alloc, r->edges, cap * sizeof *grown)
                              : NULL;
        if (grown == NULL) {
            no_memory(r);
            return;
        }
        r->edges = grown;
        r->capedges = cap;
    }
    if (cgwp_hash_reserve(set, &r->alloc, 64) < 0) {
        no_memory(r);
        return;
    }
    size_t slot = cgwp_hash_start(set, key);
    while (set->vals[slot] != 0)
        slot = cgwp_hash_next(set, slot);
    cgwp_hash_put(set, slot, key, r->nedges + 1);
    r->edges[r->nedges++] = edge;
}

/* Mark the functions on a cycle of the part's calls recursive. */
static void mark_cycles(cgw_reader *r)
{
    size_t n = r->nfns, ne = r->nedges;
    uint32_t *at = cgwp_alloc(&r->alloc, (n + 1) * sizeof *at);
    uint32_t *to = cgwp_alloc(&r->alloc, (ne + 1) * sizeof *to);
    uint32_t *comp = cgwp_alloc(&r->alloc, (n + 1) * sizeof *comp);
    uint32_t *size = cgwp_alloc(&r->alloc, (n + 1) * sizeof *size);
    if (at != NULL && to != NULL && comp != NULL && size != NULL) {
        memset(at, 0, (n + 1) * sizeof *at);
        for (size_t e = 0; e < ne; e++)
            at[(r->edges[e] >> 32) + 1]++;
        for (size_t v = 0; v < n; v++)
            at[v + 1] += at[v];
        memcpy(size, at, n * sizeof *size); /* the next free place of each */
        for (size_t e = 0; e < ne; e++)
            to[size[r->edges[e] >> 32]++] = (uint32_t)r->edges[e];
        if (cgwp_scc(&r->alloc, n, at, to, comp) == 0) {
            memset(size, 0, n * sizeof *size);
            for (size_t v = 0; v < n; v++)
                size[comp[v]]++;
            for (size_t v = 0; v < n; v++)
                if (size[comp[v]] > 1)
                    r->fns[v]->recursive = 1;
        } else {
            no_memory(r);
        }
    } else {
        no_memory(r);
    }
    void *blocks[] = { at, to, comp, size };
    cgwp_free_all(&r->alloc, blocks, sizeof blocks / sizeof *blocks);
}

void cgwr_check_free(cgw_reader *r)
{
    cgwp_hash_free(&r->edge_set, &r->alloc);
    cgwp_free(&r->alloc, r->edges);
}

void cgwr_check_call(cgw_reader *r, int callee, uint64_t line, const uint64_t *costs)
{
    if (callee < 0)
        return;
    note_edge(r, (uint32_t)r->fn_index, (uint32_t)callee);
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

void cgwr_check_part(cgw_reader *r)
{
    size_t nevents = cgwr_checked_events(r);
    if (any_excess(r, nevents))
        mark_cycles(r);
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
