/* buf.c - the output buffer between the writer and its sink.  Small writes
 * are copied in; a write at least as large as the buffer goes straight to
 * the sink after a flush.  After an error nothing reaches the sink. */
#include <errno.h>
#include <string.h>

#include "write.h"

static cgw_status sink_write(cgw_writer *w, const char *p, size_t n)
{
    if (n == 0)
        return CGW_OK;
    errno = 0;
    if (w->sink_write(w->sink_ctx, p, n) == 0) {
        w->sent += n;
        return CGW_OK;
    }
    int e = errno;
    if (e == ENOMEM)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory in the sink");
    return cgwp_fail(w, CGW_EIO, "write to the sink failed: %s",
                     e ? strerror(e) : "no errno given");
}

cgw_status cgwp_flush(cgw_writer *w)
{
    if (w->err != CGW_OK)
        return w->err;
    cgw_status st = sink_write(w, w->buf, w->len);
    w->len = 0;
    return st;
}

cgw_status cgwp_put(cgw_writer *w, const char *p, size_t n)
{
    if (w->err != CGW_OK)
        return w->err;
    if (n == 0)
        return CGW_OK;
    if (w->cap - w->len >= n) {
        memcpy(w->buf + w->len, p, n);
        w->len += n;
        return CGW_OK;
    }
    cgw_status st = cgwp_flush(w);
    if (st != CGW_OK)
        return st;
    if (n >= w->cap)
        return sink_write(w, p, n);
    memcpy(w->buf, p, n);
    w->len = n;
    return CGW_OK;
}

char *cgwp_reserve_slow(cgw_writer *w, size_t n)
{
    if (cgwp_flush(w) != CGW_OK)
        return NULL;
    if (w->cap >= n)
        return w->buf;
    /* A buffer smaller than one line (tests sweep sizes from 1 byte): the
     * line is formatted aside and cgwp_commit() passes it through. */
    return w->line;
}
