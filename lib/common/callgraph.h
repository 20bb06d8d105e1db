/* SPDX-License-Identifier: MIT */
/* callgraph.h - THE rule for a function's inclusive cost in a call graph
 * with cycles (cgw.h's "The profile model" says it in words): the cycles
 * (strongly connected components of two or more functions, scc.h) and
 * the inclusive costs of functions and cycles, for the profile model and
 * the differ alike.  Never installed. */
#ifndef CGW_COMMON_CALLGRAPH_H
#define CGW_COMMON_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* A call graph: nfns functions with self costs self[fn * nev + e]; nedges
 * edges ends[2 * i] (the caller) -> ends[2 * i + 1] (the callee), an edge
 * perhaps more than once (its costs add up), with inclusive costs
 * cost[i * nev + e]; the totals. */
typedef struct cgwp_callgraph {
    size_t nfns, nedges, nev;
    const uint32_t *ends;
    const uint64_t *self, *cost, *totals;
} cgwp_callgraph;

/* cycle[fn]: 0, or the number (from 1, by their smallest member) of the
 * cycle fn is in.  The number of cycles, or -1 when out of memory. */
long cgwp_cycles(const cgw_allocator *alloc, const cgwp_callgraph *g, uint32_t *cycle);

/* The inclusive costs incl[fn * nev + e] of g, whose cycles cycle[] and
 * ncycles cgwp_cycles() gave, and each cycle's self and inclusive costs
 * (cycle_self, cycle_incl: [(c - 1) * nev + e]; may be NULL when
 * ncycles is 0).  0, or -1 when out of memory. */
int cgwp_inclusive(const cgw_allocator *alloc, const cgwp_callgraph *g, const uint32_t *cycle,
                   size_t ncycles, uint64_t *incl, uint64_t *cycle_self, uint64_t *cycle_incl);

#endif /* CGW_COMMON_CALLGRAPH_H */
