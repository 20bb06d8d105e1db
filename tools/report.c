/* SPDX-License-Identifier: MIT */
/* report.c - cgreport's page of a profile: the profile model
 * (cgw_profile_*) gives the functions with their self and inclusive
 * costs and call counts, the call edges, and per event the call tree of
 * the flame graph; this file writes them into the page as JSON
 * (report-page.c holds the page). */
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

/* An event's call tree, a copy of cgw_profile_tree()'s, with each node's
 * children: kids[kid_at[node], kid_at[node + 1]). */
typedef struct flame {
    cgw_profile_node *nodes;
    uint32_t *kid_at, *kids;
    size_t n;
} flame;

struct report {
    const char *tool, *path;
    uint64_t errors;
    cgw_profile *p;
    size_t nev;
    const cgw_event *events;
    const uint64_t *totals;
    const cgw_profile_fn *fns;
    size_t nfns;
    const cgw_profile_edge *edges;
    size_t nedges;
    flame flames[MAX_EVENTS];
    int estimate, cut; /* the stacks are an estimate; a tree hit MAX_NODES */
};

static void no_memory(void)
{
    fputs("out of memory\n", stderr);
    exit(2);
}

/* The records of the file into the model, its diagnostics said as they
 * come: 0, 1 (the input is bad) or 2 (it cannot be read). */
static int read_profile(report *r)
{
    tool_diag_ctx d = { r->tool, r->path, &r->errors };
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_MAP,
                            .diag = tool_diag_errors, .diag_ctx = &d,
                            .skip = CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_JUMP) |
                                    CGW_SKIP(CGW_REC_COND_JUMP) };
    cgw_profile_options po = { .struct_size = sizeof po, .flags = CGW_PROFILE_SAME_EVENTS };
    r->p = cgw_profile_new(&po);
    if (r->p == NULL)
        no_memory();
    cgw_reader *rd = tool_progress_open(r->path, &ro);
    if (rd == NULL) {
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, strerror(errno));
        return 2;
    }
    cgw_status st = cgw_profile_add(r->p, rd);
    tool_progress_close(rd);
    tool_progress_file_done(0);
    if (st != CGW_OK) {
        const char *why = cgw_profile_errmsg(r->p), *colon = strstr(why, ": ");
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path,
                tool_words(colon != NULL ? colon + 2 : why));
        return st == CGW_EINVAL ? 1 : 2;
    }
    return 0;
}

/* An event's tree, copied, with its children indexed. */
static int read_flame(report *r, size_t e)
{
    const cgw_profile_node *nodes;
    size_t n;
    int cut;
    if (cgw_profile_tree(r->p, e, MAX_NODES, &nodes, &n, &cut) != CGW_OK) {
        fprintf(stderr, "%s: %s: %s\n", r->tool, r->path, tool_words(cgw_profile_errmsg(r->p)));
        return 2;
    }
    flame *f = &r->flames[e];
    f->n = n;
    f->nodes = malloc(n * sizeof *f->nodes);
    f->kid_at = calloc(n + 2, sizeof *f->kid_at);
    f->kids = malloc((n + 1) * sizeof *f->kids);
    if (f->nodes == NULL || f->kid_at == NULL || f->kids == NULL)
        no_memory();
    memcpy(f->nodes, nodes, n * sizeof *nodes);
    for (size_t i = 1; i < n; i++)
        f->kid_at[nodes[i].parent + 2]++;
    for (size_t i = 0; i < n; i++)
        f->kid_at[i + 2] += f->kid_at[i + 1];
    for (size_t i = 1; i < n; i++) /* children in node order: first reached first */
        f->kids[f->kid_at[nodes[i].parent + 1]++] = (uint32_t)i;
    r->cut |= cut;
    return 0;
}

report *report_read(const char *path, const report_options *o)
{
    report *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->tool = o->tool;
    r->path = path;
    int rc = read_profile(r);
    if (rc == 0 && r->errors == 0) {
        size_t nev = cgw_profile_events(r->p, &r->events);
        r->nev = nev < MAX_EVENTS ? nev : MAX_EVENTS;
        r->totals = cgw_profile_totals(r->p);
        r->fns = cgw_profile_functions(r->p, &r->nfns);
        r->edges = cgw_profile_edges(r->p, &r->nedges);
        r->estimate = cgw_profile_stacks_exact(r->p) == 0;
        if (r->fns == NULL || r->edges == NULL) {
            fprintf(stderr, "%s: %s: %s\n", r->tool, r->path,
                    tool_words(cgw_profile_errmsg(r->p)));
            rc = 2;
        }
        for (size_t e = 0; rc == 0 && e < r->nev; e++)
            rc = read_flame(r, e);
    }
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

/* s as a JSON string of valid UTF-8 (the page says it is): in a string
 * that is not all UTF-8 by cgw_utf8_char(), each byte that starts no
 * character, or of one that stops early, is the text \xNN and a
 * backslash is \\, tool_esc()'s rule for control bytes, so that bad\xff
 * and bad\xfe stay two names and neither reads as a name spelled so;
 * <, > and & are \u escapes, so that no </script> ends the page's
 * script. */
static void json_string(tool_text *t, const char *s)
{
    size_t n = strlen(s), k, cut;
    int invalid = 0;
    for (size_t i = 0; i < n && !invalid; i += k)
        invalid = (k = cgw_utf8_char(s + i, n - i, NULL)) == 0;
    tool_add(t, "\"", 1);
    for (size_t i = 0; i < n; i += k) {
        unsigned char c = (unsigned char)s[i];
        k = cgw_utf8_char(s + i, n - i, &cut);
        if (k == 0) {
            k = cut ? cut : 1;
            for (size_t j = 0; j < k; j++)
                tool_addf(t, "\\\\x%02x", (unsigned char)s[i + j]);
        } else if (c == '\\') {
            tool_add(t, "\\\\\\\\", invalid ? 4 : 2);
        } else if (c == '"') {
            tool_add(t, "\\\"", 2);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            tool_addf(t, "\\u%04x", c); /* no </script> in the page */
        } else {
            tool_add(t, s + i, k);
        }
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
            double x = (double)r->fns[fn].inclusive[e] / (double)r->totals[e];
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

/* A walk of a flame's nodes of at least min, depth first, without
 * recursion (a chain of calls can be a million deep): each node on the
 * path with the next of its children to visit. */
typedef struct walk_step {
    uint32_t node, next;
    int shown_one; /* a child of it is in the page already */
} walk_step;

typedef struct flame_walk {
    const flame *f;
    uint64_t min;
    walk_step *path;
    size_t depth, cap;
} flame_walk;

static void walk_push(flame_walk *w, uint32_t node)
{
    w->path = tool_grow(w->path, &w->cap, w->depth + 1, sizeof *w->path);
    w->path[w->depth].node = node;
    w->path[w->depth].shown_one = 0;
    w->path[w->depth++].next = w->f->kid_at[node];
}

/* The next child of the deepest node on the path that is at least min
 * (counting in *left_out those that are not), pushed: 1; 0 when that
 * node has no more (it is popped, after enter() saw it). */
static int walk_next(flame_walk *w, uint64_t *left_out)
{
    walk_step *top = &w->path[w->depth - 1];
    while (top->next < w->f->kid_at[top->node + 1]) {
        uint32_t kid = w->f->kids[top->next++];
        if (w->f->nodes[kid].inclusive >= w->min) {
            walk_push(w, kid);
            return 1;
        }
        if (left_out != NULL)
            (*left_out)++;
    }
    w->depth--;
    return 0;
}

/* Mark in shown[] the functions of the frames of f of at least min;
 * count the frames left out. */
static void mark_tree(const flame *f, uint64_t min, uint32_t *shown, uint64_t *left_out)
{
    flame_walk w = { f, min, NULL, 0, 0 };
    walk_push(&w, 0);
    while (w.depth > 0)
        if (walk_next(&w, left_out))
            shown[f->nodes[w.path[w.depth - 1].node].fn] = 1;
    free(w.path);
}

/* The tree as nested [fn, value, [children]], frames under min left out. */
static void json_tree(tool_text *t, const flame *f, uint64_t min, const uint32_t *shown)
{
    flame_walk w = { f, min, NULL, 0, 0 };
    walk_push(&w, 0);
    tool_addf(t, "[-1,%" PRIu64 ",[", f->nodes[0].inclusive);
    while (w.depth > 0) {
        size_t parent = w.depth - 1;
        if (!walk_next(&w, NULL)) {
            tool_add(t, "]]", 2);
            continue;
        }
        const cgw_profile_node *node = &f->nodes[w.path[w.depth - 1].node];
        tool_addf(t, "%s[%ld,%" PRIu64 ",[", w.path[parent].shown_one ? "," : "",
                  (long)shown[node->fn] - 1, node->inclusive);
        w.path[parent].shown_one = 1;
    }
    free(w.path);
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
    return (fn_costs){ r->fns[fn].self, r->fns[fn].inclusive, r->fns[fn].calls };
}

/* The function of old named as fn of r, or NO_FN. */
static uint32_t same_fn(const report *old, const cgw_profile_fn *fn)
{
    long at = cgw_profile_find(old->p, fn->object, fn->file, fn->name);
    return at < 0 ? NO_FN : (uint32_t)at;
}

/* One function's entry: name, file, object, self, inclusive, calls,
 * and with before (a difference), the old self and inclusive costs. */
static void json_fn(tool_text *t, const cgw_profile_fn *fn, fn_costs now,
                    const fn_costs *before, size_t nev, int first)
{
    tool_add(t, first ? "[" : ",[", first ? 1 : 2);
    json_string(t, fn->name);
    tool_add(t, ",", 1);
    json_string(t, strcmp(fn->file, "???") == 0 ? "" : fn->file);
    tool_add(t, ",", 1);
    json_string(t, fn->object ? fn->object : "");
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
        mark_tree(&r->flames[e], min[e], shown, &left_out);
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
    const char *cmd = cgw_profile_cmd(r->p), *creator = cgw_profile_creator(r->p);
    tool_add(t, ",\"cmd\":", 7);
    json_string(t, cmd ? cmd : "");
    tool_add(t, ",\"creator\":", 11);
    json_string(t, creator ? creator : "");
    tool_addf(t, ",\"parts\":%u,\"functions\":%zu,\"shown\":%u,\"edgesAll\":%zu,"
              "\"estimate\":%s,\"cut\":%s,\"threshold\":%g,\"leftOut\":%" PRIu64 ",\"events\":[",
              (unsigned)cgw_profile_parts(r->p), r->nfns, nshown, r->nedges, r->estimate ? "true" : "false",
              r->cut ? "true" : "false", o->threshold, left_out);
    for (size_t e = 0; e < r->nev; e++) {
        if (e)
            tool_add(t, ",", 1);
        json_string(t, r->events[e].name);
    }
    /* seconds a count, 0 for an event that is not a time: the page
     * shows such costs in human units (cgw_event_seconds()) */
    tool_add(t, "],\"seconds\":[", 13);
    for (size_t e = 0; e < r->nev; e++)
        tool_addf(t, "%s%.17g", e ? "," : "",
                  cgw_event_seconds(r->events[e].name, r->events[e].long_name));
    tool_add(t, "],\"totals\":", 11);
    json_costs(t, r->totals, r->nev);
    tool_add(t, ",\"fns\":[", 8);
    size_t k = 0;
    for (size_t i = 0; i < r->nfns; i++) {
        uint32_t fn = order[i];
        if (shown[fn] == 0)
            continue;
        fn_costs before = costs_of(old, old ? same_fn(old, &r->fns[fn]) : NO_FN);
        json_fn(t, &r->fns[fn], costs_of(r, fn), old ? &before : NULL, r->nev, k++ == 0);
    }
    /* functions of old alone: gone; the new costs 0 (at most --top) */
    for (size_t i = 0, gone = 0; old != NULL && i < old->nfns; i++) {
        if (same_fn(r, &old->fns[i]) != NO_FN || (o->top && gone >= o->top))
            continue;
        gone++;
        fn_costs before = costs_of(old, (uint32_t)i);
        json_fn(t, &old->fns[i], costs_of(NULL, NO_FN), &before, r->nev, k++ == 0);
    }
    /* the cycle of each function of the list (0: none): its inclusive
     * cost is then an upper bound, marked on the page */
    tool_add(t, "],\"cyc\":[", 9);
    k = 0;
    for (size_t i = 0; i < r->nfns; i++)
        if (shown[order[i]] != 0)
            tool_addf(t, "%s%u", k++ ? "," : "", r->fns[order[i]].cycle);
    for (size_t i = 0, gone = 0; old != NULL && i < old->nfns; i++) {
        if (same_fn(r, &old->fns[i]) != NO_FN || (o->top && gone >= o->top))
            continue;
        gone++;
        tool_addf(t, "%s0", k++ ? "," : "");
    }
    tool_add(t, "],\"edges\":[", 11);
    k = 0;
    for (size_t e = 0; e < r->nedges; e++) {
        const cgw_profile_edge *ed = &r->edges[e];
        if (shown[ed->caller] == 0 || shown[ed->callee] == 0)
            continue;
        tool_addf(t, "%s[%u,%u,%" PRIu64 ",", k++ ? "," : "", shown[ed->caller] - 1,
                  shown[ed->callee] - 1, ed->count);
        json_costs(t, ed->inclusive, r->nev);
        tool_add(t, "]", 1);
    }
    tool_add(t, "],\"flames\":[", 12);
    for (size_t e = 0; e < r->nev; e++) {
        if (e)
            tool_add(t, ",", 1);
        json_tree(t, &r->flames[e], min[e], shown);
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
            same = strcmp(old->events[e].name, r->events[e].name) == 0;
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
    for (size_t e = 0; e < MAX_EVENTS; e++) {
        free(r->flames[e].nodes);
        free(r->flames[e].kid_at);
        free(r->flames[e].kids);
    }
    cgw_profile_free(r->p);
    free(r);
}
