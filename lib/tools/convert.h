/* SPDX-License-Identifier: MIT */
/* convert.h - what the converters of lib/tools share (folded stacks in
 * and out) beyond util.h: the strongly connected components of a call
 * graph.  Not installed. */
#ifndef CGW_CONVERT_H
#define CGW_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* The strongly connected components of the graph of count vertices whose
 * neighbours of v are to[at[v], at[v+1]): comp[v] numbers v's.  0, or -1
 * when out of memory. */
int cgwc_scc(const cgw_allocator *alloc, size_t count, const uint32_t *at, const uint32_t *to,
             uint32_t *comp);

#endif
