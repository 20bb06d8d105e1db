/* SPDX-License-Identifier: MIT */
/* callgraph.c - cycles and inclusive costs of a call graph (callgraph.h).
 * A function in no cycle: its self cost and its calls to others, or the
 * calls to it when larger (one also entered from outside the profile's
 * view), which is exact and KCachegrind's; a cycle as a whole the same
 * way over its members, calls inside it left out (exact: calls out of a
 * cycle cannot nest); a member: self and its calls to others, at most its
 * cycle's (an upper bound: its calls may contain each other through the
 * cycle).  A function's calls to itself count nowhere.  Nothing above
 * the total.  Sums saturate: the total caps them anyway. */
#include <string.h>

#include "alloc.h"
#include "callgraph.h"
#include "scc.h"

static uint64_t sat_add(uint64_t left, uint64_t right)
{
    return left > UINT64_MAX - right ? UINT64_MAX : left + right;
}

static uint64_t at_most(uint64_t value, uint64_t bound)
{
    return value < bound ? value : bound;
}

long cgwp_cycles(const cgw_allocator *alloc, const cgwp_callgraph *g, uint32_t *cycle)
{
    size_t n = g->nfns;
    uint32_t *at = cgwp_alloc(alloc, (n + 2) * sizeof *at);
    uint32_t *to = cgwp_alloc(alloc, (g->nedges + 1) * sizeof *to);
    uint32_t *comp = cgwp_alloc(alloc, (n + 1) * sizeof *comp);
    uint32_t *size = cgwp_alloc(alloc, (n + 1) * sizeof *size);
    uint32_t *number = cgwp_alloc(alloc, (n + 1) * sizeof *number);
    long ncycles = -1;
    if (at != NULL && to != NULL && comp != NULL && size != NULL && number != NULL) {
        /* the callees of each function: to[at[fn], at[fn + 1]) */
        memset(at, 0, (n + 2) * sizeof *at);
        for (size_t i = 0; i < g->nedges; i++)
            at[g->ends[2 * i] + 2]++;
        for (size_t fn = 0; fn < n; fn++)
            at[fn + 2] += at[fn + 1];
        for (size_t i = 0; i < g->nedges; i++)
            to[at[g->ends[2 * i] + 1]++] = g->ends[2 * i + 1];
        if (cgwp_scc(alloc, n, at, to, comp) == 0) {
            memset(size, 0, n * sizeof *size);
            memset(number, 0, n * sizeof *number);
            for (size_t fn = 0; fn < n; fn++)
                size[comp[fn]]++;
            ncycles = 0;
            for (size_t fn = 0; fn < n; fn++) {
                uint32_t c = comp[fn];
                if (size[c] >= 2 && number[c] == 0)
                    number[c] = (uint32_t)++ncycles;
                cycle[fn] = size[c] >= 2 ? number[c] : 0;
            }
        }
    }
    void *blocks[] = { at, to, comp, size, number };
    cgwp_free_all(alloc, blocks, sizeof blocks / sizeof *blocks);
    return ncycles;
}

int cgwp_inclusive(const cgw_allocator *alloc, const cgwp_callgraph *g, const uint32_t *cycle,
                   size_t ncycles, uint64_t *incl, uint64_t *cycle_self, uint64_t *cycle_incl)
{
    size_t nev = g->nev, n = g->nfns;
    uint64_t *in = cgwp_alloc(alloc, (n * nev + 1) * sizeof *in);
    uint64_t *cycle_in = cgwp_alloc(alloc, (ncycles * nev + 1) * sizeof *cycle_in);
    if (in == NULL || cycle_in == NULL) {
        cgwp_free(alloc, in);
        cgwp_free(alloc, cycle_in);
        return -1;
    }
    memcpy(incl, g->self, n * nev * sizeof *incl);
    memset(in, 0, n * nev * sizeof *in);
    memset(cycle_in, 0, ncycles * nev * sizeof *cycle_in);
    if (ncycles > 0) {
        memset(cycle_self, 0, ncycles * nev * sizeof *cycle_self);
        memset(cycle_incl, 0, ncycles * nev * sizeof *cycle_incl); /* the calls out, first */
    }
    for (size_t i = 0; i < g->nedges; i++) {
        uint32_t from = g->ends[2 * i], to = g->ends[2 * i + 1];
        if (from == to)
            continue;
        uint32_t cf = cycle[from], ct = cycle[to];
        for (size_t e = 0; e < nev; e++) {
            uint64_t c = g->cost[i * nev + e];
            incl[from * nev + e] = sat_add(incl[from * nev + e], c);
            in[to * nev + e] = sat_add(in[to * nev + e], c);
            if (cf != 0 && cf != ct)
                cycle_incl[(cf - 1) * nev + e] = sat_add(cycle_incl[(cf - 1) * nev + e], c);
            if (ct != 0 && cf != ct)
                cycle_in[(ct - 1) * nev + e] = sat_add(cycle_in[(ct - 1) * nev + e], c);
        }
    }
    for (size_t fn = 0; fn < n; fn++)
        for (size_t e = 0; e < nev; e++) {
            uint64_t *mine = &incl[fn * nev + e];
            if (cycle[fn] == 0)
                *mine = at_most(*mine > in[fn * nev + e] ? *mine : in[fn * nev + e], g->totals[e]);
            else
                cycle_self[(cycle[fn] - 1) * nev + e] =
                    sat_add(cycle_self[(cycle[fn] - 1) * nev + e], g->self[fn * nev + e]);
        }
    for (size_t i = 0; i < ncycles * nev; i++) {
        uint64_t whole = sat_add(cycle_incl[i], cycle_self[i]);
        cycle_incl[i] = at_most(whole > cycle_in[i] ? whole : cycle_in[i], g->totals[i % nev]);
    }
    for (size_t fn = 0; fn < n; fn++)
        for (size_t e = 0; cycle[fn] != 0 && e < nev; e++)
            incl[fn * nev + e] = at_most(at_most(incl[fn * nev + e], g->totals[e]),
                                         cycle_incl[(cycle[fn] - 1) * nev + e]);
    cgwp_free(alloc, in);
    cgwp_free(alloc, cycle_in);
    return 0;
}
