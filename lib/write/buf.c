/* SPDX-License-Identifier: MIT */
/* buf.c - the output buffer between the writer and its sink.  Small writes
 * are copied in; a write at least as large as the buffer goes straight to
 * the sink after a flush.  After an error nothing reaches the sink. */
#include <errno.h>
#include <string.h>

#include "write.h"

static cgw_status sink_write(cgw_writer *w, const char *bytes, size_t size)
{
    if (size == 0)
        return CGW_OK;
    errno = 0;
    if (w->sink_write(w->sink_ctx, bytes, size) == 0) {
        w->sent += size;
        return CGW_OK;
    }
    int errnum = errno;
    if (errnum == ENOMEM)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory in the sink");
    return cgwp_fail(w, CGW_EIO, "write to the sink failed: %s",
                     errnum ? strerror(errnum) : "no errno given");
}

cgw_status cgwp_flush(cgw_writer *w)
{
    if (w->err != CGW_OK)
        return w->err;
    cgw_status st = sink_write(w, w->buf, w->len);
    w->len = 0;
    return st;
}

cgw_status cgwp_put(cgw_writer *w, const char *bytes, size_t size)
{
    if (w->err != CGW_OK)
        return w->err;
    if (size == 0)
        return CGW_OK;
    if (w->cap - w->len >= size) {
        memcpy(w->buf + w->len, bytes, size);
        w->len += size;
        return CGW_OK;
    }
    cgw_status st = cgwp_flush(w);
    if (st != CGW_OK)
        return st;
    if (size >= w->cap)
        return sink_write(w, bytes, size);
    memcpy(w->buf, bytes, size);
    w->len = size;
    return CGW_OK;
}

char *cgwp_reserve_slow(cgw_writer *w, size_t size)
{
    if (cgwp_flush(w) != CGW_OK)
        return NULL;
    if (w->cap >= size)
        return w->buf;
    /* A buffer smaller than one line (tests sweep sizes from 1 byte): the
     * line is formatted aside and cgwp_commit() passes it through. */
    return w->line;
}
