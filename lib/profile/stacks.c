/* SPDX-License-Identifier: MIT */
/* stacks.c - the stacks of one event rebuilt from the call graph, from
 * each function that has a self cost up to the roots (cgw.h's
 * cgw_profile_stacks() says how the cost is split).  The walk is over the
 * graph of components, where a cycle is one node: a frame of a cycle's
 * member is split among the calls into the cycle from outside (and the
 * cycle's own share as a root, at the member that starts it), and each share first climbs, inside the cycle, the
 * shortest chain of the cycle's calls from the member that was called to
 * this one (a breadth-first tree from that entry, made once an entry).
 * A stack of frames, not of calls: a chain of callers can be a million
 * deep. */
#include <string.h>

#include "profile.h"

#define NO_CALLER UINT32_MAX
#define MAX_FRAMES_OUT ((uint64_t)1 << 26)

/* A frame of the stack being rebuilt, leaf first, and its share of the
 * leaf's cost; its callers' shares are shares[begin, end). */
typedef struct frame {
    uint32_t fn;
    uint64_t amount;
    size_t begin, next, end;
    int expanded;
} frame;

/* A share of a frame's amount: the caller (NO_CALLER: the stack starts)
 * and, for a cycle's member, the member the call entered. */
typedef struct share {
    uint32_t caller, entry;
    long double weight;
    uint64_t amount;
} share;

typedef struct walk {
    cgw_profile *p;
    size_t ev;
    cgw_profile_stack_fn each;
    void *ctx;
    cgw_status err;
    uint64_t *root;      /* a node's weight as a root; a cycle's at cycle_root */
    uint64_t *cycle_root;
    uint64_t *start;     /* a member's weight as the start of its cycle */
    frame *frames;
    size_t depth, capframes;
    share *shares;
    size_t nshares, capshares;
    uint32_t *ids;
    size_t capids;
    uint64_t frames_out;
    /* breadth-first trees inside cycles: tree_at[fn] (an entry's) is the
     * offset in parents of its cycle's members' parents, CGWPM_NONE
     * until made */
    uint32_t *tree_at, *parents, *queue;
    size_t nparents, capparents;
} walk;

static cgw_status failed(walk *w, cgw_status st)
{
    if (w->err == CGW_OK)
        w->err = st == CGW_ENOMEM ? cgwpm_fail(w->p, st, "cgw_profile_stacks", "out of memory")
                                  : st;
    return w->err;
}

static uint64_t edge_cost(const walk *w, uint32_t e)
{
    return w->p->eincl[(size_t)e * w->p->nev + w->ev];
}

static uint64_t self_cost(const walk *w, uint32_t fn)
{
    return w->p->self[(size_t)fn * w->p->nev + w->ev];
}

static uint64_t less(uint64_t left, uint64_t right)
{
    return left > right ? left - right : 0;
}

/* Root weights: what a node's inclusive cost has beyond the calls into
 * it from outside it; for a member, what it starts beyond its calls from
 * anywhere (which of them a cycle's own stacks start from). */
static void root_weights(walk *w)
{
    const cgw_profile *p = w->p;
    memset(w->cycle_root, 0, (p->ncycles + 1) * sizeof *w->cycle_root);
    uint64_t *cycle_in = w->cycle_root + p->ncycles + 1;
    memset(cycle_in, 0, (p->ncycles + 1) * sizeof *cycle_in);
    for (size_t fn = 0; fn < p->nfns; fn++) {
        uint32_t c = p->fns[fn].cycle;
        uint64_t out = self_cost(w, (uint32_t)fn), out_all = out, in = 0;
        for (uint32_t i = p->out_at[fn]; i < p->out_at[fn + 1]; i++) {
            uint32_t e = p->out_edges[i], callee = p->ekeys[e].callee;
            if (callee == fn)
                continue;
            out_all = cgwpm_sat_add(out_all, edge_cost(w, e));
            if (c == 0 || p->fns[callee].cycle != c)
                out = cgwpm_sat_add(out, edge_cost(w, e));
        }
        for (uint32_t i = p->in_at[fn]; i < p->in_at[fn + 1]; i++) {
            uint32_t e = p->in_edges[i], caller = p->ekeys[e].caller;
            if (caller == fn)
                continue;
            in = cgwpm_sat_add(in, edge_cost(w, e));
            if (c != 0 && p->fns[caller].cycle != c)
                cycle_in[c] = cgwpm_sat_add(cycle_in[c], edge_cost(w, e));
        }
        if (c == 0) {
            w->root[fn] = less(out, in);
        } else {
            w->cycle_root[c] = cgwpm_sat_add(w->cycle_root[c], out);
            w->start[fn] = less(out_all, in);
        }
    }
    for (size_t c = 1; c <= p->ncycles; c++)
        w->cycle_root[c] = less(w->cycle_root[c], cycle_in[c]);
}

/* The parents of cycle c's members in the breadth-first tree of its
 * calls from entry (its members' places); NULL when out of memory. */
static const uint32_t *tree(walk *w, uint32_t entry)
{
    cgw_profile *p = w->p;
    if (w->tree_at[entry] != CGWPM_NONE)
        return w->parents + w->tree_at[entry];
    const cgw_profile_cycle *cy = &p->cycles[p->fns[entry].cycle - 1];
    size_t n = cy->nmembers;
    if (cgwp_grow(&p->a, &w->parents, &w->capparents, w->nparents + n, sizeof *w->parents) < 0)
        return NULL;
    uint32_t *parent = w->parents + w->nparents;
    for (size_t i = 0; i < n; i++)
        parent[i] = CGWPM_NONE;
    uint32_t c = p->fns[entry].cycle;
    size_t head = 0, tail = 0;
    w->queue[tail++] = entry;
    parent[p->member_ix[entry]] = p->member_ix[entry];
    while (head < tail) {
        uint32_t fn = w->queue[head++];
        for (uint32_t i = p->out_at[fn]; i < p->out_at[fn + 1]; i++) {
            uint32_t callee = p->ekeys[p->out_edges[i]].callee;
            if (p->fns[callee].cycle != c || parent[p->member_ix[callee]] != CGWPM_NONE)
                continue;
            parent[p->member_ix[callee]] = p->member_ix[fn];
            w->queue[tail++] = callee;
        }
    }
    w->tree_at[entry] = (uint32_t)w->nparents;
    w->nparents += n;
    return parent;
}

/* ------------------------------------------------------------ the walk */

static cgw_status emit(walk *w, uint64_t amount)
{
    w->frames_out += w->depth;
    if (w->frames_out > MAX_FRAMES_OUT)
        return failed(w, cgwpm_fail(w->p, CGW_ERANGE, "cgw_profile_stacks",
                                    "more than 2^26 frames of stacks: the call graph has too "
                                    "many paths to write them all"));
    if (cgwp_grow(&w->p->a, &w->ids, &w->capids, w->depth, sizeof *w->ids) < 0)
        return failed(w, CGW_ENOMEM);
    for (size_t i = 0; i < w->depth; i++)
        w->ids[i] = w->frames[i].fn;
    cgw_status st = w->each(w->ctx, w->ids, w->depth, amount);
    return st == CGW_OK ? CGW_OK : failed(w, st);
}

static cgw_status push(walk *w, uint32_t fn, uint64_t amount, int expanded)
{
    if (cgwp_grow(&w->p->a, &w->frames, &w->capframes, w->depth + 1, sizeof *w->frames) < 0)
        return failed(w, CGW_ENOMEM);
    frame f = { fn, amount, w->nshares, w->nshares, w->nshares, expanded };
    w->frames[w->depth++] = f;
    return CGW_OK;
}

static cgw_status add_share(walk *w, uint32_t caller, uint32_t entry, long double weight)
{
    if (cgwp_grow(&w->p->a, &w->shares, &w->capshares, w->nshares + 1, sizeof *w->shares) < 0)
        return failed(w, CGW_ENOMEM);
    share s = { caller, entry, weight, 0 };
    w->shares[w->nshares++] = s;
    return CGW_OK;
}

/* The shares of a function in no cycle: its callers, and itself as a
 * root when it has callers and more cost than they give it. */
static cgw_status callers(walk *w, uint32_t fn)
{
    const cgw_profile *p = w->p;
    size_t first = w->nshares;
    for (uint32_t i = p->in_at[fn]; i < p->in_at[fn + 1]; i++) {
        uint32_t e = p->in_edges[i], caller = p->ekeys[e].caller;
        if (caller != fn && edge_cost(w, e) > 0 &&
            add_share(w, caller, CGWPM_NONE, (long double)edge_cost(w, e)) != CGW_OK)
            return w->err;
    }
    if (w->nshares > first && w->root[fn] > 0)
        return add_share(w, NO_CALLER, CGWPM_NONE, (long double)w->root[fn]);
    return CGW_OK;
}

/* The shares of a member of cycle c: the calls into the cycle from
 * outside, and the cycle as a root (or only that).  As a root, it starts
 * at one member, the one that starts most beyond the calls to it (the
 * first of equals): every member is called inside the cycle, and a
 * profiler that counts a recursive call's time once (cProfile) leaves
 * others a little of it, which is no reason to start stacks there. */
static cgw_status cycle_callers(walk *w, uint32_t c)
{
    const cgw_profile *p = w->p;
    const cgw_profile_cycle *cy = &p->cycles[c - 1];
    size_t first = w->nshares;
    for (uint32_t i = p->entry_at[c - 1]; i < p->entry_at[c]; i++) {
        uint32_t e = p->entry_edges[i];
        if (edge_cost(w, e) > 0 && add_share(w, p->ekeys[e].caller, p->ekeys[e].callee,
                                             (long double)edge_cost(w, e)) != CGW_OK)
            return w->err;
    }
    long double as_root = w->nshares == first ? 1 : (long double)w->cycle_root[c];
    if (as_root <= 0)
        return CGW_OK;
    uint32_t start = cy->members[0];
    for (size_t i = 1; i < cy->nmembers; i++)
        if (w->start[cy->members[i]] > w->start[start])
            start = cy->members[i];
    return add_share(w, NO_CALLER, start, as_root);
}

/* The frame's amount split among its shares in proportion to their
 * weights, rounded down, the remainder a unit at a time in their order. */
static void split(walk *w, frame *top)
{
    long double sum = 0;
    for (size_t i = top->begin; i < top->end; i++)
        sum += w->shares[i].weight;
    uint64_t given = 0;
    for (size_t i = top->begin; i < top->end; i++) {
        long double exact = (long double)top->amount * w->shares[i].weight / sum;
        uint64_t part = exact >= (long double)top->amount ? top->amount : (uint64_t)exact;
        part = part > top->amount - given ? top->amount - given : part;
        w->shares[i].amount = part;
        given += part;
    }
    for (size_t i = top->begin; top->end > top->begin && given < top->amount;
         i = i + 1 < top->end ? i + 1 : top->begin) {
        w->shares[i].amount++;
        given++;
    }
}

static cgw_status expand(walk *w, frame *top)
{
    uint32_t c = w->p->fns[top->fn].cycle;
    size_t first = w->nshares;
    if ((c == 0 ? callers(w, top->fn) : cycle_callers(w, c)) != CGW_OK)
        return w->err;
    top = &w->frames[w->depth - 1]; /* add_share() does not move frames, but be plain */
    top->begin = top->next = first;
    top->end = w->nshares;
    top->expanded = 1;
    split(w, top);
    return CGW_OK;
}

/* A share of a cycle's member fn taken: the chain from the member the
 * call entered up to fn's parent, as frames that expand no further. */
static cgw_status climb(walk *w, uint32_t fn, uint32_t entry, uint64_t amount)
{
    const uint32_t *parent = tree(w, entry);
    if (parent == NULL)
        return failed(w, CGW_ENOMEM);
    const uint32_t *members = w->p->cycles[w->p->fns[fn].cycle - 1].members;
    for (uint32_t at = w->p->member_ix[fn]; members[at] != entry;) {
        at = parent[at];
        if (push(w, members[at], amount, 1) != CGW_OK)
            return w->err;
    }
    return CGW_OK;
}

/* Every stack that ends in function leaf: depth first up its callers. */
static cgw_status stacks_of(walk *w, uint32_t leaf)
{
    cgw_status st = push(w, leaf, self_cost(w, leaf), 0);
    while (st == CGW_OK && w->depth > 0) {
        frame *top = &w->frames[w->depth - 1];
        if (!top->expanded) {
            st = expand(w, top);
            top = &w->frames[w->depth - 1];
            if (st == CGW_OK && top->begin == top->end)
                st = emit(w, top->amount);
            if (st != CGW_OK || top->begin < top->end)
                continue;
        } else if (top->next < top->end) {
            share sh = w->shares[top->next++];
            uint32_t fn = top->fn;
            if (sh.amount == 0)
                continue;
            if (sh.entry != CGWPM_NONE && climb(w, fn, sh.entry, sh.amount) != CGW_OK)
                return w->err;
            st = sh.caller == NO_CALLER ? emit(w, sh.amount) : push(w, sh.caller, sh.amount, 0);
            continue;
        }
        w->nshares = top->begin;
        w->depth--;
    }
    return st;
}

static void release(walk *w)
{
    void *blocks[] = { w->root, w->cycle_root, w->start, w->frames, w->shares, w->ids,
                       w->tree_at, w->parents, w->queue };
    cgwp_free_all(&w->p->a, blocks, sizeof blocks / sizeof *blocks);
}

cgw_status cgw_profile_stacks(cgw_profile *p, size_t event, cgw_profile_stack_fn each, void *ctx)
{
    if (p == NULL || each == NULL)
        return p == NULL ? CGW_EUSAGE
                         : cgwpm_fail(p, CGW_EUSAGE, "cgw_profile_stacks", "the callback is NULL");
    if (cgwpm_graph(p, "cgw_profile_stacks") != CGW_OK)
        return p->err;
    if (event >= p->nev)
        return CGW_EINVAL; /* not sticky: the profile is fine */
    walk w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.ev = event;
    w.each = each;
    w.ctx = ctx;
    size_t n = p->nfns + 1;
    w.root = cgwp_alloc(&p->a, n * sizeof *w.root);
    w.start = cgwp_alloc(&p->a, n * sizeof *w.start);
    w.cycle_root = cgwp_alloc(&p->a, 2 * (p->ncycles + 1) * sizeof *w.cycle_root);
    w.tree_at = cgwp_alloc(&p->a, n * sizeof *w.tree_at);
    w.queue = cgwp_alloc(&p->a, n * sizeof *w.queue);
    if (w.root == NULL || w.start == NULL || w.cycle_root == NULL || w.tree_at == NULL ||
        w.queue == NULL) {
        failed(&w, CGW_ENOMEM);
    } else {
        memset(w.tree_at, 0xff, n * sizeof *w.tree_at);
        root_weights(&w);
        for (size_t fn = 0; fn < p->nfns && w.err == CGW_OK; fn++)
            if (self_cost(&w, (uint32_t)fn) > 0)
                stacks_of(&w, (uint32_t)fn);
    }
    release(&w);
    return w.err;
}
