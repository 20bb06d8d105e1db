/* SPDX-License-Identifier: MIT */
/* graph.c - the call graph of what was read: callers and callees of each
 * function, its cycles and inclusive costs that never count a cycle's
 * inner calls twice (lib/common's callgraph.h, the one rule, which the
 * differ uses too; gprof and KCachegrind's cycle detection take a cycle
 * whole the same way), each cycle's members and the calls into it, and
 * the lines sorted.  Made on the first query after an add, in one go. */
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "profile.h"

static void *array(cgw_profile *p, size_t count, size_t elem)
{
    return cgwp_alloc(&p->a, (count + 1) * elem);
}

/* The edges of each function as offsets: edges[at[fn], at[fn + 1]) have
 * fn as their end (callee: 1, caller: 0). */
static void index_edges(const cgw_profile *p, uint32_t *at, uint32_t *edges, int callee)
{
    memset(at, 0, (p->nfns + 1) * sizeof *at);
    for (size_t e = 0; e < p->nedges; e++)
        at[(callee ? p->ekeys[e].callee : p->ekeys[e].caller) + 1]++;
    for (size_t fn = 0; fn < p->nfns; fn++)
        at[fn + 1] += at[fn];
    for (size_t e = 0; e < p->nedges; e++)
        edges[at[callee ? p->ekeys[e].callee : p->ekeys[e].caller]++] = (uint32_t)e;
    for (size_t fn = p->nfns; fn > 0; fn--) /* each start was moved to the next's */
        at[fn] = at[fn - 1];
    at[0] = 0;
}

/* The graph as callgraph.h takes it. */
static cgwp_callgraph as_callgraph(const cgw_profile *p)
{
    cgwp_callgraph g = { p->nfns, p->nedges, p->nev, (const uint32_t *)p->ekeys,
                         p->self, p->eincl, p->totals };
    return g;
}

/* The cycles: cycle_of[fn] (0: none) in the functions. */
static int find_cycles(cgw_profile *p, uint32_t *cycle)
{
    cgwp_callgraph g = as_callgraph(p);
    long n = cgwp_cycles(&p->a, &g, cycle);
    if (n < 0)
        return -1;
    p->ncycles = (size_t)n;
    for (size_t fn = 0; fn < p->nfns; fn++)
        p->fns[fn].cycle = cycle[fn];
    return 0;
}

/* Each cycle's members (ascending) and the edges into it from outside. */
static int cycle_members(cgw_profile *p)
{
    size_t nc = p->ncycles, nmembers = 0, nentries = 0;
    p->cycles = array(p, nc, sizeof *p->cycles);
    p->entry_at = array(p, nc + 1, sizeof *p->entry_at);
    if (p->cycles == NULL || p->entry_at == NULL)
        return -1;
    memset(p->cycles, 0, (nc + 1) * sizeof *p->cycles);
    memset(p->entry_at, 0, (nc + 2) * sizeof *p->entry_at);
    for (size_t fn = 0; fn < p->nfns; fn++) {
        uint32_t c = p->fns[fn].cycle;
        if (c == 0)
            continue;
        p->cycles[c - 1].nmembers++;
        nmembers++;
        for (uint32_t i = p->in_at[fn]; i < p->in_at[fn + 1]; i++)
            if (p->fns[p->ekeys[p->in_edges[i]].caller].cycle != c) {
                p->entry_at[c]++;
                nentries++;
            }
    }
    p->members = array(p, nmembers, sizeof *p->members);
    p->entry_edges = array(p, nentries, sizeof *p->entry_edges);
    if (p->members == NULL || p->entry_edges == NULL)
        return -1;
    for (size_t c = 0, at = 0; c < nc; c++) {
        p->cycles[c].members = p->members + at; /* filled below, counted again */
        at += p->cycles[c].nmembers;
        p->cycles[c].nmembers = 0;
        p->entry_at[c + 1] += p->entry_at[c];
    }
    uint32_t *fill = array(p, nc, sizeof *fill);
    if (fill == NULL)
        return -1;
    memcpy(fill, p->entry_at, nc * sizeof *fill);
    for (size_t fn = 0; fn < p->nfns; fn++) {
        uint32_t c = p->fns[fn].cycle;
        if (c == 0)
            continue;
        cgw_profile_cycle *cy = &p->cycles[c - 1];
        p->member_ix[fn] = (uint32_t)cy->nmembers;
        ((uint32_t *)cy->members)[cy->nmembers++] = (uint32_t)fn;
        for (uint32_t i = p->in_at[fn]; i < p->in_at[fn + 1]; i++)
            if (p->fns[p->ekeys[p->in_edges[i]].caller].cycle != c)
                p->entry_edges[fill[c - 1]++] = p->in_edges[i];
    }
    cgwp_free(&p->a, fill);
    return 0;
}

/* Inclusive costs by callgraph.h's rule, and the calls into each
 * function from others. */
static int inclusive(cgw_profile *p, const uint32_t *cycle)
{
    size_t nev = p->nev, nc = p->ncycles;
    p->cycle_self = array(p, nc * nev, sizeof *p->cycle_self);
    p->cycle_incl = array(p, nc * nev, sizeof *p->cycle_incl);
    cgwp_callgraph g = as_callgraph(p);
    if (p->cycle_self == NULL || p->cycle_incl == NULL ||
        cgwp_inclusive(&p->a, &g, cycle, nc, p->incl, p->cycle_self, p->cycle_incl) < 0)
        return -1;
    for (size_t e = 0; e < p->nedges; e++)
        if (p->ekeys[e].caller != p->ekeys[e].callee) {
            cgw_profile_fn *callee = &p->fns[p->ekeys[e].callee];
            callee->calls = cgwpm_sat_add(callee->calls, p->ecount[e]);
        }
    for (size_t fn = 0; fn < p->nfns; fn++)
        p->fns[fn].flags = cycle[fn] != 0 ? CGW_PROFILE_BOUND : 0;
    for (size_t c = 0; c < nc; c++) {
        p->cycles[c].self = &p->cycle_self[c * nev];
        p->cycles[c].inclusive = &p->cycle_incl[c * nev];
    }
    return 0;
}

/* Whether the stacks are exact: a tree (one caller each, no recursion). */
static int is_tree(const cgw_profile *p)
{
    if (p->ncycles > 0)
        return 0;
    for (size_t fn = 0; fn < p->nfns; fn++)
        for (uint32_t i = p->in_at[fn]; i < p->in_at[fn + 1]; i++)
            if (i > p->in_at[fn] || p->ekeys[p->in_edges[i]].caller == fn)
                return 0;
    return 1;
}

/* ------------------------------------------------------------------ lines */

static const cgw_profile *sorting;

static int by_place(const void *left, const void *right)
{
    const cgwpm_linekey *a = &sorting->lkeys[*(const uint32_t *)left];
    const cgwpm_linekey *b = &sorting->lkeys[*(const uint32_t *)right];
    if (a->fn != b->fn)
        return a->fn < b->fn ? -1 : 1;
    if (a->file != b->file) {
        int order = strcmp(sorting->names[a->file], sorting->names[b->file]);
        if (order != 0)
            return order;
    }
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->address < b->address ? -1 : a->address > b->address;
}

static int lines(cgw_profile *p)
{
    uint32_t *order = array(p, p->nlines, sizeof *order);
    p->lines = array(p, p->nlines, sizeof *p->lines);
    p->line_at = array(p, p->nfns + 1, sizeof *p->line_at);
    if (order == NULL || p->lines == NULL || p->line_at == NULL) {
        cgwp_free(&p->a, order);
        return -1;
    }
    for (size_t i = 0; i < p->nlines; i++)
        order[i] = (uint32_t)i;
    sorting = p; /* qsort has no context; the model is not shared between threads */
    qsort(order, p->nlines, sizeof *order, by_place);
    sorting = NULL;
    memset(p->line_at, 0, (p->nfns + 2) * sizeof *p->line_at);
    for (size_t i = 0; i < p->nlines; i++) {
        const cgwpm_linekey *k = &p->lkeys[order[i]];
        cgw_profile_line line = { p->names[k->file], k->line, k->address,
                                  &p->lself[(size_t)order[i] * p->nev] };
        p->lines[i] = line;
        p->line_at[k->fn + 1]++;
    }
    for (size_t fn = 0; fn < p->nfns; fn++)
        p->line_at[fn + 1] += p->line_at[fn];
    cgwp_free(&p->a, order);
    return 0;
}

/* ------------------------------------------------------------- the graph */

static int functions_and_edges(cgw_profile *p)
{
    size_t nfns = p->nfns, nev = p->nev;
    p->fns = array(p, nfns, sizeof *p->fns);
    p->edges = array(p, p->nedges, sizeof *p->edges);
    p->incl = array(p, nfns * nev, sizeof *p->incl);
    p->in_at = array(p, nfns + 1, sizeof *p->in_at);
    p->out_at = array(p, nfns + 1, sizeof *p->out_at);
    p->in_edges = array(p, p->nedges, sizeof *p->in_edges);
    p->out_edges = array(p, p->nedges, sizeof *p->out_edges);
    p->member_ix = array(p, nfns, sizeof *p->member_ix);
    if (p->fns == NULL || p->edges == NULL || p->incl == NULL || p->in_at == NULL ||
        p->out_at == NULL || p->in_edges == NULL || p->out_edges == NULL || p->member_ix == NULL)
        return -1;
    for (size_t fn = 0; fn < nfns; fn++) {
        const cgwpm_fnkey *k = &p->fkeys[fn];
        cgw_profile_fn f = { p->names[k->object], p->names[k->file], p->names[k->name],
                             &p->self[fn * nev], &p->incl[fn * nev], 0, 0, 0 };
        p->fns[fn] = f;
        p->member_ix[fn] = CGWPM_NONE;
    }
    for (size_t e = 0; e < p->nedges; e++) {
        cgw_profile_edge edge = { p->ekeys[e].caller, p->ekeys[e].callee, p->ecount[e],
                                  &p->eincl[e * nev] };
        p->edges[e] = edge;
    }
    index_edges(p, p->in_at, p->in_edges, 1);
    index_edges(p, p->out_at, p->out_edges, 0);
    return 0;
}

cgw_status cgwpm_graph(cgw_profile *p, const char *call)
{
    if (p->err != CGW_OK || p->graph_ok)
        return p->err;
    uint32_t *cycle = NULL;
    int ok = functions_and_edges(p) == 0 && (cycle = array(p, p->nfns, sizeof *cycle)) != NULL &&
             find_cycles(p, cycle) == 0 && cycle_members(p) == 0 && inclusive(p, cycle) == 0 &&
             ((p->flags & CGW_PROFILE_LINES) == 0 || lines(p) == 0);
    cgwp_free(&p->a, cycle);
    if (!ok) {
        cgwpm_graph_free(p);
        return cgwpm_fail(p, CGW_ENOMEM, call, "out of memory");
    }
    p->exact = is_tree(p);
    p->graph_ok = 1;
    return CGW_OK;
}

void cgwpm_graph_free(cgw_profile *p)
{
    void *blocks[] = { p->fns, p->edges, p->incl, p->in_at, p->in_edges, p->out_at,
                       p->out_edges, p->member_ix, p->cycles, p->members, p->cycle_self,
                       p->cycle_incl, p->entry_at, p->entry_edges, p->lines, p->line_at };
    cgwp_free_all(&p->a, blocks, sizeof blocks / sizeof *blocks);
    p->fns = NULL;
    p->edges = NULL;
    p->incl = NULL;
    p->in_at = p->in_edges = p->out_at = p->out_edges = p->member_ix = NULL;
    p->cycles = NULL;
    p->members = NULL;
    p->cycle_self = p->cycle_incl = NULL;
    p->entry_at = p->entry_edges = NULL;
    p->lines = NULL;
    p->line_at = NULL;
    p->ncycles = 0;
    p->graph_ok = 0;
}
