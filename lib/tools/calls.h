/* SPDX-License-Identifier: MIT */
/* calls.h - what every file of lib/tools that writes calls= lines must
 * agree on.  Built on <cgw.h> alone; never installed. */
#ifndef CGW_TOOLS_CALLS_H
#define CGW_TOOLS_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* Whether a call of *count with costs[0..n) is written, and with which
 * count: a writer without CGW_COMPACT refuses a count of 0 (which
 * callgrind_annotate reads as self cost), so there a call of count 0 is
 * dropped when it has no cost and written with a count of 1 when it has
 * (Callgrind writes such calls after zeroing its counters mid-call):
 * its edge and cost are kept. */
static inline int cgwu_call_count(uint64_t *count, const uint64_t *costs, size_t n,
                                  unsigned writer_flags)
{
    if (*count != 0 || (writer_flags & CGW_COMPACT))
        return 1;
    for (size_t i = 0; i < n; i++) {
        if (costs[i] != 0) {
            *count = 1;
            return 1;
        }
    }
    return 0;
}

#endif /* CGW_TOOLS_CALLS_H */
