/* SPDX-License-Identifier: MIT */
/* convert.h - what the converters of lib/tools share (folded stacks in
 * and out) beyond util.h: the strongly connected components of a call
 * graph.  Not installed. */
#ifndef CGW_CONVERT_H
#define CGW_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* A function of a profile, as its reader names it. */
typedef struct cgwc_names {
    const char *obj, *file, *name;
} cgwc_names;

/* A stack rebuilt from a profile: fns[ids[0]] (the leaf) .. fns[ids[depth
 * - 1]] (the root), amount of the event's cost. */
typedef cgw_status (*cgwc_stack_fn)(void *ctx, const cgwc_names *fns, const uint32_t *ids,
                                    size_t depth, uint64_t amount);

/* Read r to its end, keeping the call graph of event (NULL: the first),
 * and hand each stack rebuilt from it (see folded-out.c) to each, which
 * may fail (its status is returned; it says why in msg itself).  *event
 * gets the event's name (the reader's: valid until it is closed).  OK,
 * EINVAL (no such event), ERANGE, ENOMEM, EIO (the reader failed, or
 * the stacks pass 2^26 frames), EUSAGE; msg[0..len) (may be NULL) gets
 * "CALL: " and the reason. */
cgw_status cgwc_profile_stacks(cgw_reader *r, const char *call, const char *event,
                               const char **event_name, cgwc_stack_fn each, void *ctx,
                               char *msg, size_t len);

/* The strongly connected components of the graph of count vertices whose
 * neighbours of v are to[at[v], at[v+1]): comp[v] numbers v's.  0, or -1
 * when out of memory. */
int cgwc_scc(const cgw_allocator *alloc, size_t count, const uint32_t *at, const uint32_t *to,
             uint32_t *comp);

#endif
