/* SPDX-License-Identifier: MIT */
/* folded-out.c - a Callgrind profile written as folded stacks.
 *
 * The profile keeps each function's self cost and the inclusive cost of
 * each caller/callee pair, not the stacks, so they are rebuilt from the
 * leaves up: a function's cost goes to its callers in proportion to the
 * inclusive costs of their calls to it, and to no caller (the stack
 * starts there) in proportion to what its inclusive cost (self plus its
 * calls) has beyond the calls to it; rounded down, the remainder one
 * unit at a time in that order; then on up in the same way.  Calls
 * between functions of one cycle (recursion: a function that calls
 * itself, directly or through others) are not followed, and a function
 * left without a caller starts its stack.  Where every function has one
 * caller (a tree) the stacks are exact; otherwise they are an estimate.
 * The total is always the profile's. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convert.h"
#include "message.h"
#include "scc.h"

#define NO_CALLER UINT32_MAX
/* A call graph with many paths (a chain of diamonds has 2^n) would give
 * more stacks than anyone can use before the end of time: a limit. */
#define MAX_FRAMES_OUT ((uint64_t)1 << 26)

typedef cgwc_names out_fn;

typedef struct out_edge {
    uint32_t caller, callee;
    uint64_t incl;
} out_edge;

/* A frame of the stack being rebuilt, leaf first, and its share of the
 * leaf's cost; its callers' shares are shares[begin, end). */
typedef struct out_frame {
    uint32_t fn;
    uint64_t amount;
    size_t begin, next, end;
    int expanded;
} out_frame;

typedef struct out_share {
    uint32_t caller;
    uint64_t amount;
} out_share;

typedef struct folded_out {
    const cgw_allocator *a;
    cgw_status err;
    char *msg;
    size_t msglen;
    out_fn *fns;
    uint64_t *self; /* the event's, one a function (and edges[].incl) */
    size_t nfns, capfns, capself;
    cgwu_index fn_ix;
    out_edge *edges;
    size_t nedges, capedges;
    cgwu_index edge_ix;
    /* the costs of every event kept: self_all[f * nev + e] of function
     * f, incl_all[i * nev + e] of edge i */
    uint64_t *self_all, *incl_all;
    size_t capself_all, capincl_all, nev;
    const char **events; /* their names (the reader's) */
    int all;             /* every event, not only one */
    uint32_t *in_at, *in_edges; /* callers of fn f: in_edges[in_at[f], in_at[f+1]) */
    uint64_t *root; /* what each function's inclusive cost has beyond its calls */
    uint32_t *comp; /* strongly connected components: calls inside one recurse */
    out_frame *frames;
    size_t depth, capframes;
    out_share *shares;
    size_t nshares, capshares;
    uint32_t *ids; /* the stack being handed out, leaf first */
    size_t capids;
    const char *call;
    unsigned ev; /* the event whose stacks are being handed out */
    cgwc_stack_fn each;
    void *ctx;
    uint64_t frames_out; /* frames handed out so far */
} folded_out;

static cgw_status failf(folded_out *o, cgw_status st, const char *fmt, ...)
{
    CGWP_STICKY(st, &o->err, o->msg, o->msglen, o->call, fmt);
    return st;
}

static cgw_status fail(folded_out *o, cgw_status st, const char *what, const char *detail)
{
    return failf(o, st, "%s%s", what, detail ? detail : "");
}

static cgw_status no_memory(folded_out *o)
{
    return fail(o, CGW_ENOMEM, "out of memory", NULL);
}

/* --------------------------------------------------------- the call graph */

static int fn_eq(const void *ctx, uint32_t entry, const void *key)
{
    const out_fn *left = &((const folded_out *)ctx)->fns[entry], *right = key;
    return left->object == right->object && left->file == right->file && left->name == right->name;
}

/* The reader hands out equal names as equal pointers: they are the key. */
static cgw_status function(folded_out *o, const char *obj, const char *file,
                           const char *name, uint32_t *id)
{
    out_fn key = { obj, file, name, NULL, 0 };
    uint64_t hash = cgwu_index_hash(&o->fn_ix, &key, sizeof key);
    size_t slot;
    if (cgwu_index_find(&o->fn_ix, hash, fn_eq, o, &key, id, &slot))
        return CGW_OK;
    if (cgwu_grow(o->a, &o->fns, &o->capfns, o->nfns + 1, sizeof *o->fns) < 0 ||
        cgwu_grow(o->a, &o->self, &o->capself, o->nfns + 1, sizeof *o->self) < 0 ||
        cgwu_grow(o->a, &o->self_all, &o->capself_all, (o->nfns + 1) * o->nev,
                  sizeof *o->self_all) < 0 ||
        cgwu_index_put(&o->fn_ix, o->a, slot, hash, (uint32_t)o->nfns) < 0)
        return no_memory(o);
    o->fns[o->nfns] = key;
    memset(o->self_all + o->nfns * o->nev, 0, o->nev * sizeof *o->self_all);
    *id = (uint32_t)o->nfns++;
    return CGW_OK;
}

static int edge_eq(const void *ctx, uint32_t entry, const void *key)
{
    const out_edge *left = &((const folded_out *)ctx)->edges[entry], *right = key;
    return left->caller == right->caller && left->callee == right->callee;
}

static cgw_status add(folded_out *o, uint64_t *sum, uint64_t value)
{
    if (value > UINT64_MAX - *sum)
        return fail(o, CGW_ERANGE, "a cost passes 2^64-1", NULL);
    *sum += value;
    return CGW_OK;
}

/* costs[col] into sums[0] (col >= 0), or costs[0..nev) into sums. */
static cgw_status add_costs(folded_out *o, uint64_t *sums, const uint64_t *costs, long col)
{
    if (col >= 0)
        return add(o, sums, costs[col]);
    for (size_t e = 0; e < o->nev && o->err == CGW_OK; e++)
        add(o, &sums[e], costs[e]);
    return o->err;
}

/* The edge caller -> callee, its costs costs[col] (col < 0: one an event). */
static cgw_status edge(folded_out *o, uint32_t caller, uint32_t callee, const uint64_t *costs,
                       long col)
{
    out_edge key = { caller, callee, 0 };
    uint64_t hash = cgwu_index_hash(&o->edge_ix, &key, 2 * sizeof key.caller);
    uint32_t entry;
    size_t slot;
    if (caller == callee) /* recursion adds no stack */
        return CGW_OK;
    if (!cgwu_index_find(&o->edge_ix, hash, edge_eq, o, &key, &entry, &slot)) {
        if (cgwu_grow(o->a, &o->edges, &o->capedges, o->nedges + 1, sizeof *o->edges) < 0 ||
            cgwu_grow(o->a, &o->incl_all, &o->capincl_all, (o->nedges + 1) * o->nev,
                      sizeof *o->incl_all) < 0 ||
            cgwu_index_put(&o->edge_ix, o->a, slot, hash, (uint32_t)o->nedges) < 0)
            return no_memory(o);
        entry = (uint32_t)o->nedges++;
        o->edges[entry] = key;
        memset(o->incl_all + entry * o->nev, 0, o->nev * sizeof *o->incl_all);
    }
    return add_costs(o, o->incl_all + entry * o->nev, costs, col);
}

/* The column of event (NULL: the first) in part; -1 when none. */
static long column(const cgw_part *part, const char *event)
{
    if (event == NULL)
        return part->nevents > 0 ? 0 : -1;
    for (size_t i = 0; i < part->nevents; i++)
        if (strcmp(part->events[i].name, event) == 0)
            return (long)i;
    return -1;
}

/* A part's events: the column of the one event kept (its name the
 * first part's), or, for all, the same events as the first part's
 * (their names kept); -1 after an error. */
static long part_events(folded_out *o, const cgw_part *part, const char *event)
{
    long col = o->all ? (part->nevents > 0 ? 0 : -1) : column(part, event);
    if (col < 0 && (event == NULL || part->nevents == 0))
        return fail(o, CGW_EINVAL, "the profile has no event at all", NULL), -1;
    if (col < 0) {
        char have[256];
        int n = snprintf(have, sizeof have, "%s (it has", event);
        for (size_t i = 0; i < part->nevents && n > 0 && (size_t)n < sizeof have; i++)
            n += snprintf(have + n, sizeof have - (size_t)n, " %s", part->events[i].name);
        if (n > 0 && (size_t)n < sizeof have - 1)
            snprintf(have + n, sizeof have - (size_t)n, ")");
        return fail(o, CGW_EINVAL, "the profile has no event ", have), -1;
    }
    if (o->events == NULL) {
        o->nev = o->all ? part->nevents : 1;
        o->events = cgwp_alloc(o->a, o->nev * sizeof *o->events);
        if (o->events == NULL)
            return no_memory(o), -1;
        for (size_t e = 0; e < o->nev; e++)
            o->events[e] = part->events[o->all ? e : (size_t)col].name;
    } else if (o->all) {
        int same = part->nevents == o->nev;
        for (size_t e = 0; same && e < o->nev; e++)
            same = strcmp(part->events[e].name, o->events[e]) == 0;
        if (!same)
            return fail(o, CGW_EINVAL, "the parts have different events; ask for one", NULL), -1;
    }
    return o->all ? -1 : col;
}

static cgw_status read_graph(folded_out *o, cgw_reader *r, const char *event)
{
    const cgw_record *rec;
    cgw_status st = CGW_OK;
    long col = -1;
    uint32_t caller, callee;
    while (o->err == CGW_OK && (st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_PART && (col = part_events(o, rec->part, event)) < 0 &&
            o->err != CGW_OK)
            return o->err;
        if (rec->kind != CGW_REC_COST && rec->kind != CGW_REC_CALL)
            continue;
        if (function(o, rec->object, rec->file, rec->function, &caller) != CGW_OK)
            break;
        if (rec->kind == CGW_REC_COST) {
            add_costs(o, o->self_all + caller * o->nev, rec->costs, col);
        } else if (function(o, rec->target.object, rec->target.file, rec->target.function,
                            &callee) == CGW_OK) {
            edge(o, caller, callee, rec->costs, col);
        }
    }
    if (o->err == CGW_OK && st != CGW_OK)
        return fail(o, st, "reading: ", cgw_reader_errmsg(r));
    return o->err;
}

static uint64_t sat_add(uint64_t left, uint64_t right)
{
    return left > UINT64_MAX - right ? UINT64_MAX : left + right;
}

/* Each function's root weight: self plus calls made, less calls taken. */
static void root_weights(folded_out *o)
{
    uint64_t *in = o->root + o->nfns; /* the second half, scratch */
    for (size_t func = 0; func < o->nfns; func++) {
        o->root[func] = o->self[func];
        in[func] = 0;
    }
    for (size_t at = 0; at < o->nedges; at++) {
        const out_edge *call = &o->edges[at];
        if (o->comp[call->caller] == o->comp[call->callee])
            continue;
        o->root[call->caller] = sat_add(o->root[call->caller], call->incl);
        in[call->callee] = sat_add(in[call->callee], call->incl);
    }
    for (size_t func = 0; func < o->nfns; func++)
        o->root[func] = o->root[func] > in[func] ? o->root[func] - in[func] : 0;
}

/* Which calls are recursion: those inside a strongly connected component
 * (found on the callers' graph, whose components are the same). */
static cgw_status recursion(folded_out *o)
{
    uint32_t *callers = cgwp_alloc(o->a, (o->nedges + 1) * sizeof *callers);
    if (callers == NULL)
        return no_memory(o);
    for (size_t i = 0; i < o->nedges; i++)
        callers[i] = o->edges[o->in_edges[i]].caller;
    int rc = cgwp_scc(o->a, o->nfns, o->in_at, callers, o->comp);
    cgwp_free(o->a, callers);
    return rc < 0 ? no_memory(o) : CGW_OK;
}

/* The callers of each function, from the edges. */
static cgw_status index_callers(folded_out *o)
{
    size_t count = o->nfns;
    o->in_at = cgwp_alloc(o->a, (count + 1) * sizeof *o->in_at);
    o->in_edges = cgwp_alloc(o->a, (o->nedges + 1) * sizeof *o->in_edges);
    o->root = cgwp_alloc(o->a, (2 * count + 1) * sizeof *o->root);
    o->comp = cgwp_alloc(o->a, (count + 1) * sizeof *o->comp);
    if (o->in_at == NULL || o->in_edges == NULL || o->root == NULL ||
        o->comp == NULL)
        return no_memory(o);
    memset(o->in_at, 0, (count + 1) * sizeof *o->in_at);
    for (size_t at = 0; at < o->nedges; at++)
        o->in_at[o->edges[at].callee + 1]++;
    for (size_t func = 0; func < count; func++)
        o->in_at[func + 1] += o->in_at[func];
    for (size_t at = 0; at < o->nedges; at++) {
        uint32_t callee = o->edges[at].callee;
        o->in_edges[o->in_at[callee]++] = (uint32_t)at;
    }
    for (size_t func = count; func > 0; func--) /* the loop above moved each start to the next's */
        o->in_at[func] = o->in_at[func - 1];
    o->in_at[0] = 0;
    return recursion(o);
}

/* ------------------------------------------------------------ the stacks */

/* The stack frames[depth-1] (root) .. frames[0] (leaf), with the amount
 * that reached its root, handed out. */
static cgw_status emit(folded_out *o, uint64_t amount)
{
    o->frames_out += o->depth;
    if (o->frames_out > MAX_FRAMES_OUT)
        return fail(o, CGW_ERANGE, "more than 2^26 frames of stacks: the call graph has too "
                                   "many paths to write them all", NULL);
    if (cgwu_grow(o->a, &o->ids, &o->capids, o->depth, sizeof *o->ids) < 0)
        return no_memory(o);
    for (size_t i = 0; i < o->depth; i++)
        o->ids[i] = o->frames[i].fn;
    cgw_status st = o->each(o->ctx, o->fns, o->ids, o->depth, o->ev, amount);
    if (st != CGW_OK && o->err == CGW_OK)
        o->err = st; /* the callback said why */
    return st;
}

static cgw_status add_share(folded_out *o, uint32_t caller, uint64_t weight)
{
    if (cgwu_grow(o->a, &o->shares, &o->capshares, o->nshares + 1, sizeof *o->shares) < 0)
        return no_memory(o);
    o->shares[o->nshares].caller = caller;
    o->shares[o->nshares++].amount = weight; /* the share, once split */
    return CGW_OK;
}

/* The callers of frame top's function that are not in the stack yet, and
 * no caller (NO_CALLER: the stack starts here), each with its share of
 * top's amount; none when the function has neither. */
static cgw_status expand(folded_out *o, out_frame *top)
{
    long double sum = 0;
    top->begin = top->next = o->nshares;
    for (uint32_t i = o->in_at[top->fn]; i < o->in_at[top->fn + 1]; i++) {
        const out_edge *call = &o->edges[o->in_edges[i]];
        if (call->incl == 0 || o->comp[call->caller] == o->comp[top->fn])
            continue;
        if (add_share(o, call->caller, call->incl) != CGW_OK)
            return o->err;
        sum += call->incl;
    }
    if (o->nshares > top->begin && o->root[top->fn] > 0) {
        if (add_share(o, NO_CALLER, o->root[top->fn]) != CGW_OK)
            return o->err;
        sum += o->root[top->fn];
    }
    top->end = o->nshares;
    top->expanded = 1;
    uint64_t given = 0;
    for (size_t i = top->begin; i < top->end; i++) {
        long double exact = (long double)top->amount * o->shares[i].amount / sum;
        uint64_t share = exact >= (long double)top->amount ? top->amount : (uint64_t)exact;
        share = share > top->amount - given ? top->amount - given : share;
        o->shares[i].amount = share;
        given += share;
    }
    for (size_t i = top->begin; top->end > top->begin && given < top->amount;
         i = i + 1 < top->end ? i + 1 : top->begin) {
        o->shares[i].amount++;
        given++;
    }
    return CGW_OK;
}

static cgw_status push(folded_out *o, uint32_t fn, uint64_t amount)
{
    if (cgwu_grow(o->a, &o->frames, &o->capframes, o->depth + 1, sizeof *o->frames) < 0)
        return no_memory(o);
    out_frame frame = { fn, amount, 0, 0, 0, 0 };
    o->frames[o->depth++] = frame;
    return CGW_OK;
}

/* Every stack that ends in function leaf, without recursion: a depth-first
 * walk up its callers, with a stack of frames rather than of calls (a
 * chain of callers can be a million deep). */
static cgw_status stacks_of(folded_out *o, uint32_t leaf)
{
    cgw_status st = push(o, leaf, o->self[leaf]);
    while (st == CGW_OK && o->depth > 0) {
        out_frame *top = &o->frames[o->depth - 1];
        if (!top->expanded) {
            st = expand(o, top);
            if (st == CGW_OK && top->begin == top->end)
                st = emit(o, top->amount);
            if (st != CGW_OK || top->begin < top->end)
                continue;
        } else if (top->next < top->end) {
            out_share sh = o->shares[top->next++];
            if (sh.amount > 0)
                st = sh.caller == NO_CALLER ? emit(o, sh.amount) : push(o, sh.caller, sh.amount);
            continue;
        }
        o->nshares = top->begin;
        o->depth--;
    }
    return st;
}

static void release(folded_out *o)
{
    void *blocks[] = { o->fns, o->self, o->edges, o->in_at, o->in_edges, o->root, o->comp,
                       o->frames, o->shares, o->ids, o->self_all, o->incl_all, o->events };
    cgwp_free_all(o->a, blocks, sizeof blocks / sizeof *blocks);
    cgwu_index_free(&o->fn_ix, o->a);
    cgwu_index_free(&o->edge_ix, o->a);
}

/* The stacks of event e: its costs made the graph's, then from each
 * leaf up. */
static void event_stacks(folded_out *o, unsigned e)
{
    o->ev = e;
    for (size_t func = 0; func < o->nfns; func++)
        o->self[func] = o->self_all[func * o->nev + e];
    for (size_t i = 0; i < o->nedges; i++)
        o->edges[i].incl = o->incl_all[i * o->nev + e];
    root_weights(o);
    for (size_t func = 0; func < o->nfns && o->err == CGW_OK; func++)
        if (o->self[func] > 0)
            stacks_of(o, (uint32_t)func);
}

cgw_status cgwc_profile_stacks(cgw_reader *r, const char *call, const char *event, int all,
                               cgwc_events_fn events, cgwc_stack_fn each, void *ctx,
                               char *msg, size_t len)
{
    folded_out o;
    memset(&o, 0, sizeof o);
    o.a = cgwu_libc();
    o.msg = msg;
    o.msglen = len;
    o.call = call;
    o.all = all;
    o.each = each;
    o.ctx = ctx;
    if (msg != NULL && len > 0)
        msg[0] = '\0';
    if (r == NULL)
        return fail(&o, CGW_EUSAGE, "the reader is NULL", NULL);
    if (read_graph(&o, r, event) == CGW_OK && o.events == NULL)
        fail(&o, CGW_EINVAL, "the profile has no part", NULL);
    cgw_status told = o.err == CGW_OK && events != NULL ? events(ctx, o.events, o.nev) : CGW_OK;
    if (told != CGW_OK)
        o.err = told; /* the callback said why */
    if (o.err == CGW_OK && index_callers(&o) == CGW_OK)
        for (unsigned e = 0; e < o.nev && o.err == CGW_OK; e++)
            event_stacks(&o, e);
    release(&o);
    return o.err;
}

cgw_status cgw_read_stacks(cgw_reader *r, const char *event, cgw_events_fn events,
                           cgw_stack_fn each, void *ctx, char *msg, size_t len)
{
    if (each == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "cgw_read_stacks: the callback is NULL");
        return CGW_EUSAGE;
    }
    return cgwc_profile_stacks(r, "cgw_read_stacks", event, event == NULL, events, each, ctx,
                               msg, len);
}

/* ------------------------------------------------------ as folded text */

typedef struct folded_text {
    char *line;
    size_t len, cap;
    cgw_write_fn write;
    void *ctx;
    char *msg;
    size_t msglen;
} folded_text;

static int put(folded_text *t, const char *bytes, size_t len)
{
    if (cgwu_grow(cgwu_libc(), &t->line, &t->cap, t->len + len + 1, 1) < 0)
        return -1;
    memcpy(t->line + t->len, bytes, len);
    t->len += len;
    return 0;
}

/* A frame's name: ';' would split it, so it becomes ':'; a kernel
 * function gets back the _[k] that folded-in.c takes off. */
static int put_name(folded_text *t, const cgwc_names *func)
{
    size_t start = t->len, len = strlen(func->name);
    if (put(t, func->name, len) < 0)
        return -1;
    for (size_t i = start; i < t->len; i++)
        if (t->line[i] == ';')
            t->line[i] = ':';
    if (func->object != NULL && strcmp(func->object, "[kernel.kallsyms]") == 0)
        return put(t, "_[k]", 4);
    return 0;
}

/* One line "ROOT;...;LEAF AMOUNT\n". */
static cgw_status text_line(void *ctx, const cgwc_names *fns, const uint32_t *ids, size_t depth,
                            unsigned ev, uint64_t amount)
{
    folded_text *t = ctx;
    (void)ev; /* one event */
    char num[24];
    t->len = 0;
    for (size_t i = depth; i > 0; i--)
        if ((i < depth && put(t, ";", 1) < 0) || put_name(t, &fns[ids[i - 1]]) < 0)
            goto nomem;
    int n = snprintf(num, sizeof num, " %llu\n", (unsigned long long)amount);
    if (put(t, num, (size_t)n) < 0)
        goto nomem;
    if (t->write(t->ctx, t->line, t->len) == 0)
        return CGW_OK;
    if (t->msg != NULL && t->msglen > 0)
        snprintf(t->msg, t->msglen, "cgw_write_folded: writing: %s", strerror(errno));
    return CGW_EIO;
nomem:
    if (t->msg != NULL && t->msglen > 0)
        snprintf(t->msg, t->msglen, "cgw_write_folded: out of memory");
    return CGW_ENOMEM;
}

cgw_status cgw_write_folded(cgw_reader *r, const char *event, cgw_write_fn fn, void *ctx,
                            char *msg, size_t len)
{
    folded_text t = { NULL, 0, 0, fn, ctx, msg, len };
    if (fn == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "cgw_write_folded: the callback is NULL");
        return CGW_EUSAGE;
    }
    cgw_status st =
        cgwc_profile_stacks(r, "cgw_write_folded", event, 0, NULL, text_line, &t, msg, len);
    cgwp_free(cgwu_libc(), t.line);
    return st;
}
