/* SPDX-License-Identifier: MIT */
/* check.c - the checks of CGW_READ_CHECK that need a whole part:
 * callees without a block of their own, inclusive costs that a
 * function cannot have had, calls that cost more than the whole part,
 * and the total of speedscope's flame graph (flame_total()).  A
 * function on a cycle of calls (direct recursion, or through others:
 * stacks converted from a sampler count each edge once a stack)
 * is exempt from the second: the calls into it count the same time more
 * than once.  A call whose caller and callee are on one cycle is exempt
 * from the third (calls_above_total()).  Split blocks and name clashes
 * are found as fn= lines come (emit.c).  The inclusive costs are summed
 * per function, and the dearest call of each edge kept, for the first
 * CGWR_CHECK_EVENTS events only, so that their memory follows the
 * functions and edges, not times events (a 188 KB file of thousands of
 * events and functions once needed 2.36 GB). */
#include <stdlib.h>
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
    void *blocks[] = { r->edges, r->edge_max, r->edge_line, r->ss_callees };
    cgwp_free_all(&r->alloc, blocks, sizeof blocks / sizeof *blocks);
}

/* A file as speedscope names a frame's: "(unknown)" for none or an
 * empty one (this reader's "???", which an empty name is read as). */
static const cgwr_str *ss_file(const cgw_reader *r, const cgwr_str *file)
{
    return file == NULL ? r->unknown : file;
}

/* The call's callee as speedscope takes it: the function itself when it
 * names the same file (it takes no object), else the frame (file, name),
 * kept for flame_total(). */
static void ss_call(cgw_reader *r, cgwr_fn *callee)
{
    const cgwr_str *file = ss_file(r, r->ss_callee_fl);
    if (file == ss_file(r, callee->fl)) {
        callee->ss_called = 1;
        return;
    }
    if (r->nss_callees + 2 > r->capss_callees) {
        size_t cap = r->capss_callees ? 2 * r->capss_callees : 64;
        const cgwr_str **grown = cap < SIZE_MAX / sizeof *grown
                                     ? cgwp_realloc(&r->alloc, r->ss_callees, cap * sizeof *grown)
                                     : NULL;
        if (grown == NULL) {
            no_memory(r);
            return;
        }
        r->ss_callees = grown;
        r->capss_callees = cap;
    }
    r->ss_callees[r->nss_callees++] = file;
    r->ss_callees[r->nss_callees++] = callee->name;
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
    ss_call(r, callee_fn);
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

/* speedscope's frames: a (file, name) and the functions of the part
 * that it merges into one (it takes no object), sorted by name and file
 * (as addresses: names are interned); called when a call reaches it. */
typedef struct ss_frame {
    uintptr_t name, file;
    uint32_t fn; /* UINT32_MAX: a callee as speedscope names it */
} ss_frame;

static int ss_cmp(const void *left, const void *right)
{
    const ss_frame *x = left, *y = right;
    if (x->name != y->name)
        return x->name < y->name ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

/* The total that speedscope's flame graph of event i shows: it draws
 * from the frames that no call reaches (one calling itself is reached),
 * each with its self cost and calls (summed over the part's functions
 * it merges, a run of frames; called[] at the run's first), and leaves
 * out those of no cost or of less than 1/10000 of the dearest frame's.
 * So a part whose every function is called (Python's exec and imports
 * make such a cycle) shows nothing, and one whose calls count time
 * twice shows more than the total.  *roots: how many it draws from. */
static uint64_t flame_total(const cgw_reader *r, const ss_frame *frames, size_t n,
                            const uint8_t *called, size_t i, size_t nevents, uint64_t *roots)
{
    uint64_t dearest = 0, sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < n;) {
            uint64_t own = 0;
            size_t start = k;
            for (; k < n && ss_cmp(&frames[k], &frames[start]) == 0; k++) {
                const cgwr_fn *func = r->fns[frames[k].fn];
                uint64_t add = func->nagg == nevents ? func->agg[i] : 0;
                own = add > UINT64_MAX - own ? UINT64_MAX : own + add;
            }
            if (pass == 0) {
                dearest = own > dearest ? own : dearest;
            } else if (!called[start] && own > 0 && (long double)own >= 1e-4L * dearest) {
                sum = own > UINT64_MAX - sum ? UINT64_MAX : sum + own;
                ++*roots;
            }
        }
    }
    return sum;
}

/* The part's functions as speedscope's frames, sorted, into *framesp (n
 * = the functions), and whether a call reaches each run into called (at
 * the run's first frame); -1 without memory. */
static int ss_frames(cgw_reader *r, ss_frame **framesp, uint8_t **calledp)
{
    size_t n = r->nfns, npairs = r->nss_callees / 2;
    ss_frame *frames = cgwp_alloc(&r->alloc, (n + npairs + 1) * sizeof *frames);
    uint8_t *called = cgwp_alloc(&r->alloc, n + 1);
    if (frames == NULL || called == NULL) {
        cgwp_free(&r->alloc, frames);
        cgwp_free(&r->alloc, called);
        return -1;
    }
    ss_frame *pairs = frames + n;
    for (size_t k = 0; k < n; k++)
        frames[k] = (ss_frame){ (uintptr_t)r->fns[k]->name,
                                (uintptr_t)ss_file(r, r->fns[k]->fl), (uint32_t)k };
    for (size_t k = 0; k < npairs; k++)
        pairs[k] = (ss_frame){ (uintptr_t)r->ss_callees[2 * k + 1],
                               (uintptr_t)r->ss_callees[2 * k], UINT32_MAX };
    qsort(frames, n, sizeof *frames, ss_cmp);
    qsort(pairs, npairs, sizeof *pairs, ss_cmp);
    size_t j = 0;
    for (size_t k = 0; k < n;) {
        size_t start = k;
        int reached = 0;
        for (; k < n && ss_cmp(&frames[k], &frames[start]) == 0; k++)
            reached |= r->fns[frames[k].fn]->ss_called;
        while (j < npairs && ss_cmp(&pairs[j], &frames[start]) < 0)
            j++;
        called[start] = reached || (j < npairs && ss_cmp(&pairs[j], &frames[start]) == 0);
    }
    *framesp = frames;
    *calledp = called;
    return 0;
}

/* Warn when speedscope's flame graph of an event would show a total more
 * than 0.1% away from the part's (the first such event), on a part of
 * one position column, the only kind it reads the costs of. */
static void flame_totals(cgw_reader *r, size_t nevents)
{
    const uint64_t *totals = r->part.totals;
    ss_frame *frames;
    uint8_t *called;
    if (r->part.pub.npos != 1 || r->nfns == 0)
        return; /* it reads a second position as a cost: instr-positions' finding */
    if (ss_frames(r, &frames, &called) < 0) {
        no_memory(r);
        return;
    }
    for (size_t i = 0; i < nevents; i++) {
        uint64_t roots = 0, shown = flame_total(r, frames, r->nfns, called, i, nevents, &roots);
        uint64_t off = shown > totals[i] ? shown - totals[i] : totals[i] - shown;
        if (off == 0 || off <= totals[i] / 1000)
            continue;
        if (roots == 0)
            cgwr_diag(r, r->lineno, CGWR_FLAME_TOTAL,
                      "speedscope's flame graph of %s is empty: it draws from the functions "
                      "that no call reaches, and every function of part %u is called (a "
                      "cycle of calls)", r->part.events[i].name, r->part.pub.index);
        else
            cgwr_diag(r, r->lineno, CGWR_FLAME_TOTAL,
                      "speedscope's flame graph of %s shows %llu, not part %u's total %llu: "
                      "it draws from the %llu function%s that no call reaches, each with "
                      "its self cost and calls", r->part.events[i].name,
                      (unsigned long long)shown, r->part.pub.index,
                      (unsigned long long)totals[i], (unsigned long long)roots,
                      roots == 1 ? "" : "s");
        break;
    }
    cgwp_free(&r->alloc, frames);
    cgwp_free(&r->alloc, called);
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
    flame_totals(r, nevents);
    r->nss_callees = 0;
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
