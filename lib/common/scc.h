/* SPDX-License-Identifier: MIT */
/* scc.h - the strongly connected components of a graph.  Never
 * installed. */
#ifndef CGW_COMMON_SCC_H
#define CGW_COMMON_SCC_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* The strongly connected components of the graph of count vertices whose
 * neighbours of v are to[at[v], at[v+1]): comp[v] numbers v's.  0, or -1
 * when out of memory. */
int cgwp_scc(const cgw_allocator *alloc, size_t count, const uint32_t *at, const uint32_t *to,
             uint32_t *comp);

#endif /* CGW_COMMON_SCC_H */
