/* SPDX-License-Identifier: MIT */
/* stacks.c - the stacks of one event rebuilt from the call graph, from
 * each function that has a self cost up to the roots (cgw.h's
 * cgw_profile_stacks() says how the cost is split).  The walk is over the
 * graph of components, where a cycle is one node: a frame of a cycle's
 * member is split among the calls into the cycle from outside (and the
 * cycle's own share as a root, at the member that starts it), and each
 * share first climbs, inside the cycle, the shortest chain of the
 * cycle's calls from the member that was called to this one (a
 * breadth-first tree from that entry, made once an entry), through the
 * entry called again where the entry's own calls pass its cost (its
 * inner calls).  A stack of frames, not of calls: a chain of callers can
 * be a million deep.  With a minimum amount (cgw_profile_stacks_min()),
 * a share under it is given to its frame's heaviest share, so that a
 * leaf's stacks are about 2 * its cost over that minimum at most,
 * however many paths the graph has. */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define NO_CALLER UINT32_MAX
#define MAX_FRAMES_OUT ((uint64_t)1 << 26)

/* A frame of the stack being rebuilt, leaf first, and its share of the
 * leaf's cost; its callers' shares are shares[begin, end). */
typedef struct frame {
    uint32_t fn, via; /* via: the call to the frame below (CGWPM_NONE: none) */
    uint64_t amount;
    size_t begin, next, end;
    int expanded;
} frame;

/* A share of a frame's amount: the caller (NO_CALLER: the stack starts)
 * and, for a cycle's member, the member the call entered. */
typedef struct share {
    uint32_t caller, entry, edge; /* edge: the call from caller */
    long double weight;
    uint64_t amount;
} share;

typedef struct walk {
    cgw_profile *p;
    size_t ev;
    cgw_profile_stack_fn each;
    void *ctx;
    const char *call;    /* the public call, for errors */
    uint64_t min;        /* shares under it go to the heaviest */
    int merged;          /* a share was */
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
    uint8_t *inner_edge; /* a call made by an inner call of its caller, an entry */
} walk;

static cgw_status failed(walk *w, cgw_status st)
{
    if (w->err == CGW_OK)
        w->err = st == CGW_ENOMEM ? cgwpm_fail(w->p, st, w->call, "out of memory")
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

#define INNER (CGWPM_NONE - 1) /* a parent: the entry again, called by the tree's last slot */

/* A call and its cost, to sort an entry's calls by. */
typedef struct weighed {
    uint64_t cost;
    uint32_t edge;
} weighed;

/* The heaviest first; equals in the order of their edges. */
static int heaviest_first(const void *left, const void *right)
{
    const weighed *a = left, *b = right;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return a->edge < b->edge ? -1 : a->edge > b->edge;
}

/* Which of the entry's calls were made by an inner call of the entry
 * (the cycle came back to it, through back_caller, its heaviest caller
 * inside the cycle): what its calls have beyond its own inclusive cost
 * less its self cost was spent inside calls that came back to it.  The
 * heaviest calls are taken as the outer ones until that inclusive cost
 * is spent, the rest as inner
 * (cProfile's exec: it runs the script, and the exec that the imports
 * inside the script run runs the modules); the heaviest is always
 * outer.  w->inner_edge[] for its calls, and inner[k] for its callees in
 * the cycle, by member place; 0 when out of memory. */
static int inner_calls(walk *w, uint32_t entry, uint8_t *inner, uint32_t *back_caller)
{
    cgw_profile *p = w->p;
    uint32_t c = p->fns[entry].cycle;
    uint64_t heaviest = 0;
    *back_caller = CGWPM_NONE;
    for (uint32_t i = p->in_at[entry]; i < p->in_at[entry + 1]; i++) {
        uint32_t e = p->in_edges[i], caller = p->ekeys[e].caller;
        if (caller == entry || p->fns[caller].cycle != c)
            continue;
        if (*back_caller == CGWPM_NONE || edge_cost(w, e) > heaviest) {
            heaviest = edge_cost(w, e);
            *back_caller = caller;
        }
    }
    size_t n = p->out_at[entry + 1] - p->out_at[entry], k = 0;
    weighed *calls = cgwp_alloc(&p->a, (n + 1) * sizeof *calls);
    if (calls == NULL)
        return 0;
    for (uint32_t i = p->out_at[entry]; i < p->out_at[entry + 1]; i++) {
        uint32_t e = p->out_edges[i];
        if (p->ekeys[e].callee != entry) {
            weighed call = { edge_cost(w, e), e };
            calls[k++] = call;
        }
    }
    qsort(calls, k, sizeof *calls, heaviest_first);
    size_t at = (size_t)entry * p->nev + w->ev;
    uint64_t outer = p->incl[at] > p->self[at] ? p->incl[at] - p->self[at] : 0;
    for (size_t a = 0; a < k; a++) {
        uint32_t e = calls[a].edge, callee = p->ekeys[e].callee;
        int is_inner = a > 0 && outer == 0 && *back_caller != CGWPM_NONE;
        outer = outer > calls[a].cost ? outer - calls[a].cost : 0;
        w->inner_edge[e] = (uint8_t)is_inner;
        if (p->fns[callee].cycle == c)
            inner[p->member_ix[callee]] = (uint8_t)is_inner;
    }
    cgwp_free(&p->a, calls);
    return 1;
}

/* The breadth-first search of the tree below (from the queue's members). */
static void spread(walk *w, uint32_t *parent, uint32_t entry, const uint8_t *inner, size_t head,
                   size_t *tail)
{
    cgw_profile *p = w->p;
    uint32_t c = p->fns[entry].cycle;
    while (head < *tail) {
        uint32_t fn = w->queue[head++];
        for (uint32_t i = p->out_at[fn]; i < p->out_at[fn + 1]; i++) {
            uint32_t callee = p->ekeys[p->out_edges[i]].callee;
            if (p->fns[callee].cycle != c || parent[p->member_ix[callee]] != CGWPM_NONE ||
                (fn == entry && inner[p->member_ix[callee]]))
                continue;
            parent[p->member_ix[callee]] = p->member_ix[fn];
            w->queue[(*tail)++] = callee;
        }
    }
}

/* The parents of the entry's cycle's members in a tree of the cycle's
 * calls from the entry (member places; the entry its own parent), its
 * last slot the member that calls the entry again for INNER parents:
 * breadth first from the entry's outer calls, then from its inner ones,
 * whose parent is the entry again, called from inside the cycle (by
 * its heaviest such caller, when the outer calls reach it).  NULL when
 * out of memory. */
static const uint32_t *tree(walk *w, uint32_t entry)
{
    cgw_profile *p = w->p;
    if (w->tree_at[entry] != CGWPM_NONE)
        return w->parents + w->tree_at[entry];
    const cgw_profile_cycle *cy = &p->cycles[p->fns[entry].cycle - 1];
    size_t n = cy->nmembers, head = 0, tail = 0;
    uint8_t *inner = cgwp_alloc(&p->a, n + 1);
    uint32_t back_caller;
    if (inner == NULL ||
        cgwp_grow(&p->a, &w->parents, &w->capparents, w->nparents + n + 1, sizeof *w->parents) < 0) {
        cgwp_free(&p->a, inner);
        return NULL;
    }
    memset(inner, 0, n + 1);
    if (!inner_calls(w, entry, inner, &back_caller)) {
        cgwp_free(&p->a, inner);
        return NULL;
    }
    uint32_t *parent = w->parents + w->nparents;
    for (size_t i = 0; i < n; i++)
        parent[i] = CGWPM_NONE;
    w->queue[tail++] = entry;
    parent[p->member_ix[entry]] = p->member_ix[entry];
    spread(w, parent, entry, inner, head, &tail);
    /* the inner calls: under the entry called again, when its caller is
     * in the tree; else under the entry itself */
    int again = back_caller != CGWPM_NONE && parent[p->member_ix[back_caller]] != CGWPM_NONE;
    parent[n] = again ? p->member_ix[back_caller] : CGWPM_NONE;
    head = tail;
    for (uint32_t i = p->out_at[entry]; i < p->out_at[entry + 1]; i++) {
        uint32_t callee = p->ekeys[p->out_edges[i]].callee;
        if (p->fns[callee].cycle != p->fns[entry].cycle || parent[p->member_ix[callee]] != CGWPM_NONE)
            continue;
        parent[p->member_ix[callee]] = again ? INNER : p->member_ix[entry];
        w->queue[tail++] = callee;
    }
    memset(inner, 0, n + 1);
    spread(w, parent, entry, inner, head, &tail);
    cgwp_free(&p->a, inner);
    w->tree_at[entry] = (uint32_t)w->nparents;
    w->nparents += n + 1;
    return parent;
}

/* ------------------------------------------------------------ the walk */

static cgw_status emit(walk *w, uint64_t amount)
{
    w->frames_out += w->depth;
    if (w->frames_out > MAX_FRAMES_OUT)
        return failed(w, cgwpm_fail(w->p, CGW_ERANGE, w->call,
                                    "more than 2^26 frames of stacks: the call graph has too "
                                    "many paths to write them all"));
    if (cgwp_grow(&w->p->a, &w->ids, &w->capids, w->depth, sizeof *w->ids) < 0)
        return failed(w, CGW_ENOMEM);
    for (size_t i = 0; i < w->depth; i++)
        w->ids[i] = w->frames[i].fn;
    cgw_status st = w->each(w->ctx, w->ids, w->depth, amount);
    return st == CGW_OK ? CGW_OK : failed(w, st);
}

static cgw_status push(walk *w, uint32_t fn, uint32_t via, uint64_t amount, int expanded)
{
    if (cgwp_grow(&w->p->a, &w->frames, &w->capframes, w->depth + 1, sizeof *w->frames) < 0)
        return failed(w, CGW_ENOMEM);
    frame f = { fn, via, amount, w->nshares, w->nshares, w->nshares, expanded };
    w->frames[w->depth++] = f;
    return CGW_OK;
}

static cgw_status add_share(walk *w, uint32_t caller, uint32_t entry, uint32_t edge,
                            long double weight)
{
    if (cgwp_grow(&w->p->a, &w->shares, &w->capshares, w->nshares + 1, sizeof *w->shares) < 0)
        return failed(w, CGW_ENOMEM);
    share s = { caller, entry, edge, weight, 0 };
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
            add_share(w, caller, CGWPM_NONE, e, (long double)edge_cost(w, e)) != CGW_OK)
            return w->err;
    }
    if (w->nshares > first && w->root[fn] > 0)
        return add_share(w, NO_CALLER, CGWPM_NONE, CGWPM_NONE, (long double)w->root[fn]);
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
        if (edge_cost(w, e) > 0 && add_share(w, p->ekeys[e].caller, p->ekeys[e].callee, e,
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
    return add_share(w, NO_CALLER, start, CGWPM_NONE, as_root);
}

/* The amounts of the frame's shares under w->min added to its share of
 * largest weight (the first of equals), which alone goes on for them. */
static void merge_small(walk *w, const frame *top)
{
    size_t heaviest = top->begin;
    for (size_t i = top->begin + 1; i < top->end; i++)
        if (w->shares[i].weight > w->shares[heaviest].weight)
            heaviest = i;
    for (size_t i = top->begin; i < top->end; i++) {
        share *s = &w->shares[i];
        if (i == heaviest || s->amount == 0 || s->amount >= w->min)
            continue;
        w->shares[heaviest].amount += s->amount;
        s->amount = 0;
        w->merged = 1;
    }
}

/* The frame's amount split among its shares in proportion to their
 * weights, rounded down, the remainder a unit at a time in their order;
 * then the shares under w->min merged. */
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
    if (w->min > 0)
        merge_small(w, top);
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

/* A share of a cycle's member fn taken (its frame called the one below
 * by via): the chain from the member the call entered up to fn's
 * parent, as frames that expand no further; when fn is that entry and
 * via one of its inner calls, fn is the entry called again, and the
 * chain goes up from its caller inside the cycle to the entry. */
static cgw_status climb(walk *w, uint32_t fn, uint32_t via, uint32_t entry, uint64_t amount)
{
    const uint32_t *parent = tree(w, entry);
    if (parent == NULL)
        return failed(w, CGW_ENOMEM);
    const cgw_profile_cycle *cy = &w->p->cycles[w->p->fns[fn].cycle - 1];
    uint32_t at = w->p->member_ix[fn];
    if (fn == entry && via != CGWPM_NONE && w->inner_edge[via] &&
        parent[cy->nmembers] != CGWPM_NONE) {
        at = parent[cy->nmembers];
        if (push(w, cy->members[at], CGWPM_NONE, amount, 1) != CGW_OK)
            return w->err;
    }
    while (cy->members[at] != entry) {
        if (parent[at] == INNER) { /* the entry again, called from inside */
            if (push(w, entry, CGWPM_NONE, amount, 1) != CGW_OK)
                return w->err;
            at = parent[cy->nmembers];
        } else {
            at = parent[at];
        }
        if (push(w, cy->members[at], CGWPM_NONE, amount, 1) != CGW_OK)
            return w->err;
    }
    return CGW_OK;
}

/* Every stack that ends in function leaf: depth first up its callers. */
static cgw_status stacks_of(walk *w, uint32_t leaf)
{
    cgw_status st = push(w, leaf, CGWPM_NONE, self_cost(w, leaf), 0);
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
            uint32_t fn = top->fn, via = top->via;
            if (sh.amount == 0)
                continue;
            if (sh.entry != CGWPM_NONE && climb(w, fn, via, sh.entry, sh.amount) != CGW_OK)
                return w->err;
            st = sh.caller == NO_CALLER ? emit(w, sh.amount)
                                        : push(w, sh.caller, sh.edge, sh.amount, 0);
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
                       w->tree_at, w->parents, w->queue, w->inner_edge };
    cgwp_free_all(&w->p->a, blocks, sizeof blocks / sizeof *blocks);
}

cgw_status cgwpm_stacks(cgw_profile *p, size_t event, uint64_t min_amount,
                        cgw_profile_stack_fn each, void *ctx, const char *call, int *merged)
{
    *merged = 0;
    if (p == NULL || each == NULL)
        return p == NULL ? CGW_EUSAGE : cgwpm_fail(p, CGW_EUSAGE, call, "the callback is NULL");
    if (cgwpm_graph(p, call) != CGW_OK)
        return p->err;
    if (event >= p->nev)
        return CGW_EINVAL; /* not sticky: the profile is fine */
    walk w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.ev = event;
    w.each = each;
    w.ctx = ctx;
    w.call = call;
    w.min = min_amount;
    size_t n = p->nfns + 1;
    w.root = cgwp_alloc(&p->a, n * sizeof *w.root);
    w.start = cgwp_alloc(&p->a, n * sizeof *w.start);
    w.cycle_root = cgwp_alloc(&p->a, 2 * (p->ncycles + 1) * sizeof *w.cycle_root);
    w.tree_at = cgwp_alloc(&p->a, n * sizeof *w.tree_at);
    w.queue = cgwp_alloc(&p->a, n * sizeof *w.queue);
    w.inner_edge = cgwp_alloc(&p->a, p->nedges + 1);
    if (w.root == NULL || w.start == NULL || w.cycle_root == NULL || w.tree_at == NULL ||
        w.queue == NULL || w.inner_edge == NULL) {
        failed(&w, CGW_ENOMEM);
    } else {
        memset(w.tree_at, 0xff, n * sizeof *w.tree_at);
        memset(w.inner_edge, 0, p->nedges + 1);
        root_weights(&w);
        for (size_t fn = 0; fn < p->nfns && w.err == CGW_OK; fn++)
            if (self_cost(&w, (uint32_t)fn) > 0)
                stacks_of(&w, (uint32_t)fn);
    }
    release(&w);
    *merged = w.merged;
    return w.err;
}

cgw_status cgw_profile_stacks_min(cgw_profile *p, size_t event, uint64_t min_amount,
                                  cgw_profile_stack_fn each, void *ctx)
{
    int merged;
    return cgwpm_stacks(p, event, min_amount, each, ctx, "cgw_profile_stacks_min", &merged);
}

cgw_status cgw_profile_stacks(cgw_profile *p, size_t event, cgw_profile_stack_fn each, void *ctx)
{
    int merged;
    return cgwpm_stacks(p, event, 0, each, ctx, "cgw_profile_stacks", &merged);
}
