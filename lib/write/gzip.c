/* SPDX-License-Identifier: MIT */
/* gzip.c - gzip output (CGW_GZIP): deflate between the writer's buffer
 * and its sink.  The sink the caller chose is wrapped: what the buffer
 * flushes is compressed into out, each full out goes to the sink, and a
 * committing close finishes the stream before the sink commits, so the
 * path sink renames only a whole .gz file into place, and a failed
 * writer never finishes one. */
#include <errno.h>
#include <string.h>

#include "common/gz.h"
#include "write.h"

#ifdef HAVE_ZLIB

/* Compressed bytes handed to the sink at a time. */
#define GZ_OUT (64u * 1024)

struct cgwp_gz {
    z_stream zs;
    cgw_write_fn inner;
    cgwp_close_fn inner_close;
    void *inner_ctx;
    unsigned char out[GZ_OUT];
};

/* deflate() what zs holds with flush (Z_NO_FLUSH or Z_FINISH) and pass
 * the output on: 0, or -1 with errno set. */
static int pump(struct cgwp_gz *gz, int flush)
{
    z_stream *zs = &gz->zs;
    int rc;
    do {
        zs->next_out = gz->out;
        zs->avail_out = GZ_OUT;
        rc = deflate(zs, flush);
        if (rc == Z_STREAM_ERROR) {
            errno = EIO;
            return -1;
        }
        size_t produced = GZ_OUT - zs->avail_out;
        if (produced > 0 && gz->inner(gz->inner_ctx, (const char *)gz->out, produced) != 0)
            return -1;
    } while (zs->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return 0;
}

static int gz_write(void *ctx, const char *buf, size_t len)
{
    struct cgwp_gz *gz = ctx;
    while (len > 0) {
        uInt chunk = len > (1u << 30) ? 1u << 30 : (uInt)len;
        gz->zs.next_in = (const Bytef *)buf;
        gz->zs.avail_in = chunk;
        if (pump(gz, Z_NO_FLUSH) != 0)
            return -1;
        buf += chunk;
        len -= chunk;
    }
    return 0;
}

static int gz_close(cgw_writer *w, void *ctx, int commit)
{
    struct cgwp_gz *gz = ctx;
    int rc = commit ? pump(gz, Z_FINISH) : 0;
    int saved_errno = errno;
    if (gz->inner_close != NULL && gz->inner_close(w, gz->inner_ctx, commit && rc == 0) != 0 &&
        rc == 0) {
        rc = -1;
        saved_errno = errno;
    }
    errno = saved_errno;
    return rc;
}

int cgwp_gz_new(cgw_writer *w)
{
    unsigned level = (w->flags >> CGWP_GZIP_LEVEL_SHIFT) & 15u;
    struct cgwp_gz *gz = cgwp_alloc(&w->alloc, sizeof *gz);
    if (gz == NULL) {
        errno = ENOMEM;
        return -1;
    }
    memset(gz, 0, sizeof *gz);
    gz->zs.zalloc = cgwp_zalloc;
    gz->zs.zfree = cgwp_zfree;
    gz->zs.opaque = &w->alloc;
    /* 16 + MAX_WBITS: a gzip header and trailer around the deflate data */
    if (deflateInit2(&gz->zs, level ? (int)level : 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        cgwp_free(&w->alloc, gz);
        errno = ENOMEM;
        return -1;
    }
    w->gz = gz;
    return 0;
}

void cgwp_gz_wrap(cgw_writer *w)
{
    struct cgwp_gz *gz = w->gz;
    gz->inner = w->sink_write;
    gz->inner_close = w->sink_close;
    gz->inner_ctx = w->sink_ctx;
    w->sink_write = gz_write;
    w->sink_close = gz_close;
    w->sink_ctx = gz;
}

void cgwp_gz_free(cgw_writer *w)
{
    if (w->gz == NULL)
        return;
    deflateEnd(&w->gz->zs);
    cgwp_free(&w->alloc, w->gz);
    w->gz = NULL;
}

#else /* no zlib: CGW_GZIP cannot be honoured */

int cgwp_gz_new(cgw_writer *w)
{
    (void)w;
    errno = ENOTSUP;
    return -1;
}

void cgwp_gz_wrap(cgw_writer *w)
{
    (void)w;
}

void cgwp_gz_free(cgw_writer *w)
{
    (void)w;
}

#endif /* HAVE_ZLIB */
