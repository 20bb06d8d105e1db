/* SPDX-License-Identifier: MIT */
/* source.c - one read of the caller's source (a descriptor or a read
 * callback), for the line code of input.c and for gzip.c's inflater,
 * which both sit on it.  EINTR is retried here, and a callback that
 * fails or claims more bytes than it was given room for becomes the
 * reader's sticky CGW_EIO.  While the reader reads ahead of its lines
 * (r->defer_read_error), a failed read is kept for when the lines reach
 * it (-2), so that errors come in the order of the input. */
#include <errno.h>
#include <string.h>

#include "read.h"

long cgwr_read_some(cgw_reader *r, cgw_read_fn fn, void *ctx, char *buf, size_t room)
{
    for (;;) {
        long got = fn(ctx, buf, room);
        if (got < 0 && errno == EINTR)
            continue;
        if (got > 0 && (unsigned long)got > room) {
            cgwr_fail(r, CGW_EIO, "the read callback returned %ld bytes for a buffer of %zu",
                      got, room);
            return -1;
        }
        if (got < 0 && r->defer_read_error) {
            if (r->deferred_errno == 0) /* the first: gzip.c's read under fill()'s */
                r->deferred_errno = errno != 0 ? errno : EIO;
            return -2;
        }
        if (got < 0) {
            cgwr_read_error(r, errno);
            return -1;
        }
        return got;
    }
}

void cgwr_read_error(cgw_reader *r, int err)
{
    if (r->lineno == 0)
        cgwr_fail(r, CGW_EIO, "cannot read: %s", strerror(err));
    else
        cgwr_fail(r, CGW_EIO, "cannot read after line %llu: %s", (unsigned long long)r->lineno,
                  strerror(err));
}
