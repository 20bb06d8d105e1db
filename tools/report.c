/* SPDX-License-Identifier: MIT */
/* report.c - cgreport's model of a profile: functions with their self
 * and inclusive costs and call counts, call edges, and per event a tree
 * of stacks for the flame graph; then the page, with the model in it as
 * JSON (report-page.c holds the page). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>

#include "report.h"

#define MAX_EVENTS 64
#define NO_FN UINT32_MAX
#define MAX_NODES 400000 /* frames of one event's tree; deeper ones are not split */

typedef struct node {
    uint32_t fn, child, sibling; /* fn: NO_FN at the root; 0 child: none */
    uint64_t value;
} node;

/* An open-addressing table of indexes + 1 by a 64-bit hash. */
typedef struct table {
    uint64_t *hash;
    uint32_t *slot;
    size_t cap, count;
} table;

typedef struct rfn {
    char *key;      /* "OBJECT\037FILE\037NAME" */
    uint64_t calls; /* calls into it */
    uint64_t stamp; /* the stack that last counted it */
} rfn;

typedef struct redge {
    uint32_t caller, callee;
    uint64_t count;
} redge;

struct report {
    const char *tool, *path;
    uint64_t errors;
    char *cmd, *creator;
    unsigned parts, positions;
    size_t nev, stride; /* stride: nev, at least 1: costs a function or edge */
    char *events[MAX_EVENTS];
    uint64_t totals[MAX_EVENTS];

    size_t nfns, capfns, capself, capincl;
    rfn *fns;
    uint64_t *self, *incl;   /* [fn * nev + event] */
    table fn_ix;

    size_t nedges, capedges, capeincl;
    redge *edges;
    uint64_t *eincl; /* [edge * nev + event] */
    tool_map edge_map;

    node *nodes[MAX_EVENTS];
    size_t nnodes[MAX_EVENTS], capnodes[MAX_EVENTS];
    uint32_t *stack_fn; /* cgw_read_stacks()'s function numbers to ours */
    size_t capstack;
    uint64_t serial;
    int estimate, cut; /* the graph is no tree; a tree hit MAX_NODES */
};

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h ? h : 1;
}

/* The index of hash in t for which same(ctx, index) holds, or NO_FN;
 * *at is the slot where it would go. */
static uint32_t table_find(const table *t, uint64_t h, int (*same)(const void *, uint32_t),
                           const void *ctx, size_t *at)
{
    if (t->cap == 0) {
        *at = 0;
        return NO_FN;
    }
    size_t i = (size_t)h & (t->cap - 1);
    for (; t->slot[i] != 0; i = (i + 1) & (t->cap - 1))
        if (t->hash[i] == h && same(ctx, t->slot[i] - 1))
            return t->slot[i] - 1;
    *at = i;
    return NO_FN;
}

static void table_put(table *t, uint64_t h, uint32_t index, size_t at)
{
    if (2 * (t->count + 1) > t->cap) { /* grow, and place everything again */
        table old = *t;
        size_t cap = old.cap ? 2 * old.cap : 1024;
        t->hash = calloc(cap, sizeof *t->hash);
        t->slot = calloc(cap, sizeof *t->slot);
        if (t->hash == NULL || t->slot == NULL) {
            fputs("out of memory\n", stderr);
            exit(2);
        }
        t->cap = cap;
        for (size_t i = 0; i < old.cap; i++) {
            if (old.slot[i] == 0)
                continue;
            size_t j = (size_t)old.hash[i] & (cap - 1);
            while (t->slot[j] != 0)
                j = (j + 1) & (cap - 1);
            t->hash[j] = old.hash[i];
            t->slot[j] = old.slot[i];
        }
        free(old.hash);
        free(old.slot);
        at = (size_t)h & (cap - 1);
        while (t->slot[at] != 0)
            at = (at + 1) & (cap - 1);
    }
    t->hash[at] = h;
    t->slot[at] = index + 1;
    t->count++;
}

typedef struct fn_key {
    const report *r;
    const char *text;
    size_t len;
} fn_key;

static int same_fn(const void *ctx, uint32_t fn)
{
    const fn_key *k = ctx;
    const char *key = k->r->fns[fn].key;
    return strlen(key) == k->len && memcmp(key, k->text, k->len) == 0;
}

/* The function of key in r, or NO_FN. */
static uint32_t find_key(const report *r, const char *key)
{
    fn_key k = { r, key, strlen(key) };
    size_t at;
    return table_find(&r->fn_ix, hash_bytes(key, k.len), same_fn, &k, &at);
}

/* The function (object, file, name), added when new. */
static uint32_t function(report *r, const char *object, const char *file, const char *name)
{
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s\037%s\037%s", object ? object : "", file ? file : "",
                     name ? name : "???");
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    fn_key k = { r, buf, len };
    uint64_t h = hash_bytes(buf, len);
    size_t at;
    uint32_t fn = table_find(&r->fn_ix, h, same_fn, &k, &at);
    if (fn != NO_FN)
        return fn;
    fn = (uint32_t)r->nfns++;
    r->fns = tool_grow(r->fns, &r->capfns, r->nfns, sizeof *r->fns);
    r->self = tool_grow(r->self, &r->capself, r->nfns * r->stride, sizeof *r->self);
    r->incl = tool_grow(r->incl, &r->capincl, r->nfns * r->stride, sizeof *r->incl);
    r->fns[fn].key = strndup(buf, len);
    if (r->fns[fn].key == NULL) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    table_put(&r->fn_ix, h, fn, at);
    return fn;
}

static uint32_t edge(report *r, uint32_t caller, uint32_t callee)
{
    int fresh;
    uint32_t *slot = tool_map_get(&r->edge_map, caller, callee, 0, &fresh);
    if (!fresh)
        return *slot;
    uint32_t e = *slot = (uint32_t)r->nedges++;
    r->edges = tool_grow(r->edges, &r->capedges, r->nedges, sizeof *r->edges);
    r->eincl = tool_grow(r->eincl, &r->capeincl, r->nedges * r->stride, sizeof *r->eincl);
    r->edges[e] = (redge){ caller, callee, 0 };
    return e;
}

static void add_costs(uint64_t *to, const uint64_t *costs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        to[i] += costs[i];
}

/* The part's header: the first part's events, the others' the same. */
static int part(report *r, const cgw_part *p)
{
    r->parts++;
    if (r->parts == 1) {
        r->nev = p->nevents < MAX_EVENTS ? p->nevents : MAX_EVENTS;
        r->stride = r->nev ? r->nev : 1;
        for (size_t i = 0; i < r->nev; i++)
            r->events[i] = strdup(p->events[i].name);
        r->cmd = p->cmd ? strdup(p->cmd) : NULL;
        r->creator = p->creator ? strdup(p->creator) : NULL;
        r->positions = p->positions;
        return 0;
    }
    int same = p->nevents == r->nev;
    for (size_t i = 0; same && i < r->nev; i++)
        same = strcmp(p->events[i].name, r->events[i]) == 0;
    if (!same)
        fprintf(stderr, "%s: %s: part %u has other events than part 1: give each part "
                "its own report (cgmerge sums parts by event name)\n", r->tool, r->path, p->index);
    return same ? 0 : -1;
}

/* Pass 1: self costs, calls and edges from the records. */
static int read_records(report *r)
{
    tool_diag_ctx d = { r->tool, r->path, &r->errors };
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_MAP,
                            .diag = tool_diag_errors, .diag_ctx = &d,
                            .skip = CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_JUMP) |
                                    CGW_SKIP(CGW_REC_COND_JUMP) };
    cgw_reader *rd = tool_progress_open(r->path, &ro);
    if (rd == NULL) {
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, strerror(errno));
        return 2;
    }
    const cgw_record *rec;
    cgw_status st;
    uint32_t cur = NO_FN;
    int bad = 0;
    while (!bad && (st = cgw_reader_next(rd, &rec)) == CGW_OK && rec != NULL) {
        size_t n = r->nev;
        switch (rec->kind) {
        case CGW_REC_PART: bad = part(r, rec->part) < 0; cur = NO_FN; break;
        case CGW_REC_FUNCTION: cur = function(r, rec->object, rec->file, rec->function); break;
        case CGW_REC_COST:
            if (cur != NO_FN) {
                add_costs(&r->self[cur * r->stride], rec->costs, n);
                add_costs(r->totals, rec->costs, n);
            }
            break;
        case CGW_REC_CALL:
            if (cur != NO_FN) {
                uint32_t callee = function(r, rec->target.object, rec->target.file,
                                           rec->target.function);
                uint32_t e = edge(r, cur, callee);
                r->edges[e].count += rec->count;
                r->fns[callee].calls += rec->count;
                add_costs(&r->eincl[(size_t)e * r->stride], rec->costs, n);
            }
            break;
        default: break;
        }
    }
    if (!bad && st != CGW_OK)
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, tool_words(cgw_reader_errmsg(rd)));
    tool_progress_close(rd);
    tool_progress_file_done(0);
    return bad ? 1 : st != CGW_OK ? 2 : 0;
}

static cgw_status on_stack(void *ctx, const cgw_frame *fns, const uint32_t *ids, size_t depth,
                           unsigned event, uint64_t amount)
{
    report *r = ctx;
    if (event >= r->nev || depth == 0)
        return CGW_OK;
    r->serial++;
    /* root first: ids are leaf first */
    node **tree = &r->nodes[event];
    if (r->nnodes[event] == 0) {
        *tree = tool_grow(*tree, &r->capnodes[event], 1, sizeof **tree);
        (*tree)[0] = (node){ NO_FN, 0, 0, 0 };
        r->nnodes[event] = 1;
    }
    (*tree)[0].value += amount;
    uint32_t at = 0;
    for (size_t k = depth; k-- > 0;) {
        uint32_t id = ids[k];
        if (id >= r->capstack || r->stack_fn[id] == 0) {
            r->stack_fn = tool_grow(r->stack_fn, &r->capstack, (size_t)id + 1, sizeof *r->stack_fn);
            r->stack_fn[id] = function(r, fns[id].object, fns[id].file, fns[id].name) + 1;
        }
        uint32_t fn = r->stack_fn[id] - 1;
        if (r->fns[fn].stamp != r->serial) { /* once a stack */
            r->fns[fn].stamp = r->serial;
            r->incl[(size_t)fn * r->stride + event] += amount;
        }
        uint32_t child = (*tree)[at].child, last = 0;
        while (child != 0 && (*tree)[child].fn != fn) {
            last = child;
            child = (*tree)[child].sibling;
        }
        if (child == 0) {
            if (r->nnodes[event] >= MAX_NODES) {
                r->cut = 1;
                break;
            }
            *tree = tool_grow(*tree, &r->capnodes[event], r->nnodes[event] + 1, sizeof **tree);
            child = (uint32_t)r->nnodes[event]++;
            (*tree)[child] = (node){ fn, 0, 0, 0 };
            if (last != 0)
                (*tree)[last].sibling = child;
            else
                (*tree)[at].child = child;
        }
        (*tree)[child].value += amount;
        at = child;
    }
    return CGW_OK;
}

/* Pass 2: the stacks, for the flame graphs and the inclusive costs. */
static int read_stacks(report *r)
{
    cgw_reader *rd = cgw_reader_open_path(r->path, NULL);
    if (rd == NULL) {
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, strerror(errno));
        return 2;
    }
    char msg[512] = "";
    cgw_status st = cgw_read_stacks(rd, NULL, NULL, on_stack, r, msg, sizeof msg);
    cgw_reader_close(rd);
    if (st != CGW_OK) {
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, tool_words(msg));
        return st == CGW_EIO || st == CGW_ENOMEM ? 2 : 1;
    }
    /* a function with several callers: the stacks are an estimate */
    uint32_t *first = calloc(r->nfns + 1, sizeof *first);
    if (first == NULL)
        return 2;
    for (size_t e = 0; e < r->nedges && !r->estimate; e++) {
        const redge *ed = &r->edges[e];
        if (first[ed->callee] == 0)
            first[ed->callee] = ed->caller + 1;
        else if (first[ed->callee] != ed->caller + 1)
            r->estimate = 1;
        r->estimate |= ed->caller == ed->callee;
    }
    free(first);
    return 0;
}

report *report_read(const char *path, const report_options *o)
{
    report *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->tool = o->tool;
    r->path = path;
    int rc = read_records(r);
    if (rc == 0 && r->errors == 0)
        rc = read_stacks(r);
    if (rc == 2 || (rc == 1 && r->errors == 0)) {
        report_free(r);
        return NULL;
    }
    return r;
}

int report_errors(const report *r)
{
    if (r->errors > 0)
        fprintf(stderr, "%s: %s: %" PRIu64 " error%s in the input; no page written\n",
                r->tool, r->path, r->errors, tool_plural(r->errors));
    return r->errors > 0;
}

/* ----------------------------------------------------------- the page */

static void json_string(tool_text *t, const char *s)
{
    tool_add(t, "\"", 1);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            tool_addf(t, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            tool_addf(t, "\\u%04x", c); /* no </script> in the page */
        else
            tool_add(t, s, 1);
    }
    tool_add(t, "\"", 1);
}

static void json_costs(tool_text *t, const uint64_t *c, size_t n)
{
    tool_add(t, "[", 1);
    for (size_t i = 0; i < n; i++)
        tool_addf(t, "%s%" PRIu64, i ? "," : "", c[i]);
    tool_add(t, "]", 1);
}

/* The share of its event's total of function fn's highest inclusive cost. */
static double weight(const report *r, uint32_t fn)
{
    double w = 0;
    for (size_t e = 0; e < r->nev; e++)
        if (r->totals[e] > 0) {
            double x = (double)r->incl[(size_t)fn * r->stride + e] / (double)r->totals[e];
            w = x > w ? x : w;
        }
    return w;
}

static const report *sort_report;

static int by_weight(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    double wx = weight(sort_report, x), wy = weight(sort_report, y);
    return wx < wy ? 1 : wx > wy ? -1 : x < y ? -1 : x > y;
}

/* Mark in shown[] the frames of tree of at least min, and their
 * functions; count the frames left out. */
static void mark_tree(const report *r, const node *tree, uint32_t at, uint64_t min,
                      uint32_t *shown, uint64_t *left_out)
{
    for (uint32_t c = tree[at].child; c != 0; c = tree[c].sibling) {
        if (tree[c].value < min) {
            (*left_out)++;
            continue;
        }
        if (shown[tree[c].fn] == 0)
            shown[tree[c].fn] = 1;
        mark_tree(r, tree, c, min, shown, left_out);
    }
}

/* The tree as nested [fn, value, [children]], frames under min left out. */
static void json_tree(tool_text *t, const node *tree, uint32_t at, uint64_t min,
                      const uint32_t *shown)
{
    tool_addf(t, "[%ld,%" PRIu64 ",[", at == 0 ? -1L : (long)shown[tree[at].fn] - 1,
              tree[at].value);
    int first = 1;
    for (uint32_t c = tree[at].child; c != 0; c = tree[c].sibling) {
        if (tree[c].value < min)
            continue;
        if (!first)
            tool_add(t, ",", 1);
        first = 0;
        json_tree(t, tree, c, min, shown);
    }
    tool_add(t, "]]", 2);
}

/* A function's costs in one profile; zero where it has none. */
typedef struct fn_costs {
    const uint64_t *self, *incl;
    uint64_t calls;
} fn_costs;

static fn_costs costs_of(const report *r, uint32_t fn)
{
    static const uint64_t zero[MAX_EVENTS];
    if (r == NULL || fn == NO_FN)
        return (fn_costs){ zero, zero, 0 };
    return (fn_costs){ &r->self[(size_t)fn * r->stride], &r->incl[(size_t)fn * r->stride],
                       r->fns[fn].calls };
}

/* One function's entry: name, file, object (from its key), self,
 * inclusive, calls, and with before (a difference), the old self and
 * inclusive costs. */
static void json_fn(tool_text *t, const char *key, fn_costs now, const fn_costs *before,
                    size_t nev, int first)
{
    const char *f = strchr(key, '\037'), *n = strchr(f + 1, '\037');
    char obj[4096], file[4096];
    snprintf(obj, sizeof obj, "%.*s", (int)(f - key), key);
    snprintf(file, sizeof file, "%.*s", (int)(n - f - 1), f + 1);
    tool_add(t, first ? "[" : ",[", first ? 1 : 2);
    json_string(t, n + 1);
    tool_add(t, ",", 1);
    json_string(t, file);
    tool_add(t, ",", 1);
    json_string(t, obj);
    tool_add(t, ",", 1);
    json_costs(t, now.self, nev);
    tool_add(t, ",", 1);
    json_costs(t, now.incl, nev);
    tool_addf(t, ",%" PRIu64, now.calls);
    if (before != NULL) {
        tool_add(t, ",", 1);
        json_costs(t, before->self, nev);
        tool_add(t, ",", 1);
        json_costs(t, before->incl, nev);
    }
    tool_add(t, "]", 1);
}

/* The model of r as JSON; with old, the difference from old to r (the
 * same events), functions of old alone too. */
static void json_model(tool_text *t, const report *r, const report_options *o,
                       const report *old)
{
    /* shown[fn]: 0, or 1 + its place in the page's list */
    uint32_t *shown = calloc(r->nfns + 1, sizeof *shown);
    uint32_t *order = malloc((r->nfns + 1) * sizeof *order);
    if (shown == NULL || order == NULL) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    for (uint32_t i = 0; i < r->nfns; i++)
        order[i] = i;
    sort_report = r;
    qsort(order, r->nfns, sizeof *order, by_weight);
    size_t top = o->top == 0 || o->top > r->nfns ? r->nfns : o->top;
    for (size_t i = 0; i < top; i++)
        shown[order[i]] = 1;
    uint64_t left_out = 0, min[MAX_EVENTS];
    for (size_t e = 0; e < r->nev; e++) {
        min[e] = (uint64_t)((double)r->totals[e] * o->threshold / 100.0);
        min[e] = min[e] ? min[e] : 1;
        if (r->nnodes[e] > 0)
            mark_tree(r, r->nodes[e], 0, min[e], shown, &left_out);
    }
    uint32_t nshown = 0;
    for (size_t i = 0; i < r->nfns; i++) /* in weight order */
        if (shown[order[i]] != 0)
            shown[order[i]] = ++nshown;

    tool_add(t, "{\"file\":", 8);
    json_string(t, r->path);
    if (old != NULL) {
        tool_add(t, ",\"old\":", 7);
        json_string(t, old->path);
        tool_add(t, ",\"oldTotals\":", 13);
        json_costs(t, old->totals, r->nev);
    }
    tool_add(t, ",\"cmd\":", 7);
    json_string(t, r->cmd ? r->cmd : "");
    tool_add(t, ",\"creator\":", 11);
    json_string(t, r->creator ? r->creator : "");
    tool_addf(t, ",\"parts\":%u,\"functions\":%zu,\"shown\":%u,\"edgesAll\":%zu,"
              "\"estimate\":%s,\"cut\":%s,\"threshold\":%g,\"leftOut\":%" PRIu64 ",\"events\":[",
              r->parts, r->nfns, nshown, r->nedges, r->estimate ? "true" : "false",
              r->cut ? "true" : "false", o->threshold, left_out);
    for (size_t e = 0; e < r->nev; e++) {
        if (e)
            tool_add(t, ",", 1);
        json_string(t, r->events[e]);
    }
    tool_add(t, "],\"totals\":", 11);
    json_costs(t, r->totals, r->nev);
    tool_add(t, ",\"fns\":[", 8);
    size_t k = 0;
    for (size_t i = 0; i < r->nfns; i++) {
        uint32_t fn = order[i];
        if (shown[fn] == 0)
            continue;
        fn_costs before = costs_of(old, old ? find_key(old, r->fns[fn].key) : NO_FN);
        json_fn(t, r->fns[fn].key, costs_of(r, fn), old ? &before : NULL, r->nev, k++ == 0);
    }
    /* functions of old alone: gone; the new costs 0 (at most --top) */
    for (size_t i = 0, gone = 0; old != NULL && i < old->nfns; i++) {
        if (find_key(r, old->fns[i].key) != NO_FN || (o->top && gone >= o->top))
            continue;
        gone++;
        fn_costs before = costs_of(old, (uint32_t)i);
        json_fn(t, old->fns[i].key, costs_of(NULL, NO_FN), &before, r->nev, k++ == 0);
    }
    tool_add(t, "],\"edges\":[", 11);
    k = 0;
    for (size_t e = 0; e < r->nedges; e++) {
        const redge *ed = &r->edges[e];
        if (shown[ed->caller] == 0 || shown[ed->callee] == 0)
            continue;
        tool_addf(t, "%s[%u,%u,%" PRIu64 ",", k++ ? "," : "", shown[ed->caller] - 1,
                  shown[ed->callee] - 1, ed->count);
        json_costs(t, &r->eincl[e * r->stride], r->nev);
        tool_add(t, "]", 1);
    }
    tool_add(t, "],\"flames\":[", 12);
    for (size_t e = 0; e < r->nev; e++) {
        if (e)
            tool_add(t, ",", 1);
        if (r->nnodes[e] == 0)
            tool_add(t, "[-1,0,[]]", 9);
        else
            json_tree(t, r->nodes[e], 0, min[e], shown);
    }
    tool_add(t, "]}", 2);
    free(shown);
    free(order);
}

int report_write(report *r, const report_options *o, const report *old)
{
    if (old != NULL) {
        int same = old->nev == r->nev;
        for (size_t e = 0; same && e < r->nev; e++)
            same = strcmp(old->events[e], r->events[e]) == 0;
        if (!same) {
            fprintf(stderr, "%s: %s and %s have other events: no page of their difference\n",
                    o->tool, old->path, r->path);
            return 1;
        }
    }
    tool_text t = { 0 };
    tool_add(&t, report_page_head, strlen(report_page_head));
    json_model(&t, r, o, old);
    tool_add(&t, report_page_tail, strlen(report_page_tail));
    cgw_options wo = { .struct_size = sizeof wo, .flags = CGW_RAW };
    cgw_writer *w = tool_open_output(o->tool, o->out, &wo);
    if (w == NULL) {
        free(t.p);
        return 2;
    }
    cgw_write_bytes(w, t.p, t.len);
    free(t.p);
    return tool_close_output(o->tool, o->out, w, cgw_error(w));
}

void report_free(report *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->nfns; i++)
        free(r->fns[i].key);
    for (size_t e = 0; e < r->nev; e++) {
        free(r->events[e]);
        free(r->nodes[e]);
    }
    free(r->cmd);
    free(r->creator);
    free(r->fns);
    free(r->self);
    free(r->incl);
    free(r->fn_ix.hash);
    free(r->fn_ix.slot);
    free(r->edges);
    free(r->eincl);
    free(r->edge_map.s);
    free(r->stack_fn);
    free(r);
}
