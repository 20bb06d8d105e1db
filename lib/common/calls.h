/* SPDX-License-Identifier: MIT */
/* calls.h - what every module that writes calls= lines (lib/gen's
 * recoder, lib/merge's writer) must agree on.  Never installed. */
#ifndef CGW_COMMON_CALLS_H
#define CGW_COMMON_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

/* Whether a call of *count with costs[0..n) is written, and with which
 * count.  A writer with CGW_COMPACT or CGW_ZERO_COUNTS (the tools' own
 * default: a count is never changed unless asked) takes a count of 0 as
 * it is (Callgrind writes one for a call still running at a dump).  A
 * writer without them refuses it, as callgrind_annotate reads it as self
 * cost: the repair for that reader drops such a call when it has no cost
 * and writes it with a count of 1 when it has. */
static inline int cgwp_call_count(uint64_t *count, const uint64_t *costs, size_t n,
                                  unsigned writer_flags)
{
    if (*count != 0 || (writer_flags & (CGW_COMPACT | CGW_ZERO_COUNTS)))
        return 1;
    for (size_t i = 0; i < n; i++) {
        if (costs[i] != 0) {
            *count = 1;
            return 1;
        }
    }
    return 0;
}

#endif /* CGW_COMMON_CALLS_H */
