/* SPDX-License-Identifier: MIT */
/* gzip.c - gzip input.  Every kind of input is told gzip or text by its
 * first two bytes (1f 8b), never by a file name, once: a callback or
 * descriptor on its first read (cgwr_sniff_read()), memory at open, a
 * mapped file before it is used (input.c reads it in blocks then).  A
 * gzip input is inflated into the reader's block buffer, so the line code
 * sees text as from any descriptor.  Members follow one another
 * (concatenated .gz files, appended dumps); a corrupt or truncated stream
 * is a sticky CGW_EIO naming the compressed byte where it broke. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "common/gz.h"
#include "read.h"

/* Compressed bytes read at a time, as many as the first read of a
 * callback input may have taken already. */
#define GZ_IN (1u << 17)

#ifdef HAVE_ZLIB

/* What every gzip input gets: a warning, as the portability tier. */
static void announce(cgw_reader *r)
{
    cgwr_diag(r, 0, CGWR_GZIP_INPUT,
              "the input is gzip-compressed: QCachegrind, callgrind_annotate, gprof2dot "
              "and webgrind's call graph cannot read it (gzip -d gives them the text)");
}

struct cgwr_gz {
    cgw_reader *r;
    z_stream zs;
    const unsigned char *mem; /* compressed memory, or NULL: r->src_fn */
    size_t mem_len;
    unsigned char *in;        /* src_fn's bytes */
    uint64_t fed;             /* compressed bytes given to inflate() */
    uint64_t out;             /* bytes inflated */
    unsigned members;         /* ended so far */
    int src_eof, member_end, announced;
};

static unsigned long long at(const struct cgwr_gz *gz)
{
    return (unsigned long long)(gz->fed - gz->zs.avail_in);
}

/* More compressed bytes into zs: 0 (src_eof at the end), -1 on error. */
static int feed(struct cgwr_gz *gz)
{
    z_stream *zs = &gz->zs;
    if (gz->mem != NULL) {
        size_t left = gz->mem_len - (size_t)gz->fed;
        uInt len = left > (1u << 30) ? 1u << 30 : (uInt)left;
        zs->next_in = gz->mem + gz->fed;
        zs->avail_in = len;
        gz->fed += len;
        gz->src_eof = len == 0;
        return 0;
    }
    cgw_reader *r = gz->r;
    long len = cgwr_read_some(r, r->src_fn, r->src_ctx, (char *)gz->in, GZ_IN);
    if (len < 0)
        return -1;
    zs->next_in = gz->in;
    zs->avail_in = (uInt)len;
    gz->fed += (uint64_t)len;
    gz->src_eof = len == 0;
    return 0;
}

/* The member that ended is followed by another one: start on it. */
static int next_member(struct cgwr_gz *gz)
{
    unsigned char byte = gz->zs.next_in[0];
    if (byte != 0x1f) {
        cgwr_fail(gz->r, CGW_EIO,
                  "gzip input: the byte at offset %llu, after the end of gzip member %u, "
                  "is 0x%02x, not the start of another member (0x1f 0x8b)",
                  at(gz), gz->members, byte);
        return -1;
    }
    gz->member_end = 0;
    return 0;
}

/* Why inflate() stopped with rc, as the reader's sticky error. */
static int broken(struct cgwr_gz *gz, int rc)
{
    cgw_reader *r = gz->r;
    if (rc == Z_MEM_ERROR)
        cgwr_fail(r, CGW_ENOMEM, "out of memory inflating the gzip input");
    else if (rc == Z_BUF_ERROR && gz->src_eof)
        cgwr_fail(r, CGW_EIO,
                  "gzip input: the compressed stream ends after %llu bytes, inside gzip "
                  "member %u, after %llu bytes of text (a truncated file?)",
                  at(gz), gz->members + 1, (unsigned long long)gz->out);
    else
        cgwr_fail(r, CGW_EIO,
                  "gzip input: corrupt compressed data before offset %llu, in gzip member "
                  "%u, after %llu bytes of text (zlib: %s)",
                  at(gz), gz->members + 1, (unsigned long long)gz->out,
                  gz->zs.msg ? gz->zs.msg : "no message");
    return -1;
}

/* One inflate() step, input fed as needed: 1 to go on, 0 at the end of
 * the input, -1 after an error (sticky in the reader). */
static int step(struct cgwr_gz *gz)
{
    z_stream *zs = &gz->zs;
    if (zs->avail_in == 0 && !gz->src_eof && feed(gz) < 0)
        return -1;
    if (gz->member_end) {
        if (zs->avail_in == 0)
            return 0;
        if (next_member(gz) < 0)
            return -1;
        int rc = inflateReset(zs);
        if (rc != Z_OK)
            return broken(gz, rc);
    }
    uInt before = zs->avail_out;
    int rc = inflate(zs, Z_NO_FLUSH);
    gz->out += before - zs->avail_out;
    if (rc == Z_STREAM_END) {
        gz->member_end = 1;
        gz->members++;
        return 1;
    }
    if (rc == Z_OK || (rc == Z_BUF_ERROR && !gz->src_eof && zs->avail_in == 0))
        return 1;
    return broken(gz, rc);
}

/* The reader's read_fn of a gzip input: text into buf until it is full
 * or the input ends. */
static long gz_read(void *ctx, char *buf, size_t len)
{
    struct cgwr_gz *gz = ctx;
    if (!gz->announced) {
        gz->announced = 1;
        announce(gz->r);
    }
    z_stream *zs = &gz->zs;
    zs->next_out = (Bytef *)buf;
    zs->avail_out = len > UINT_MAX ? UINT_MAX : (uInt)len;
    uInt room = zs->avail_out;
    int st = 1;
    while (zs->avail_out > 0 && (st = step(gz)) > 0)
        ;
    if (st < 0) {
        errno = EIO; /* not EINTR: the error is already sticky */
        return -1;
    }
    return (long)(room - zs->avail_out);
}

static struct cgwr_gz *gz_new(cgw_reader *r)
{
    struct cgwr_gz *gz = cgwp_alloc(&r->alloc, sizeof *gz);
    if (gz == NULL)
        return NULL;
    memset(gz, 0, sizeof *gz);
    gz->r = r;
    gz->zs.zalloc = cgwp_zalloc;
    gz->zs.zfree = cgwp_zfree;
    gz->zs.opaque = &r->alloc;
    if (inflateInit2(&gz->zs, 16 + MAX_WBITS) != Z_OK) {
        cgwp_free(&r->alloc, gz);
        return NULL;
    }
    r->gz = gz;
    r->read_fn = gz_read;
    r->read_ctx = gz;
    return gz;
}

/* A gzip callback input whose first len bytes are in bytes. */
static int gz_start(cgw_reader *r, const char *bytes, size_t len)
{
    struct cgwr_gz *gz = gz_new(r);
    if (gz != NULL)
        gz->in = cgwp_alloc(&r->alloc, len > GZ_IN ? len : GZ_IN);
    if (gz == NULL || gz->in == NULL) {
        cgwr_fail(r, CGW_ENOMEM, "out of memory for the gzip inflater");
        return -1;
    }
    memcpy(gz->in, bytes, len);
    gz->zs.next_in = gz->in;
    gz->zs.avail_in = (uInt)len;
    gz->fed = len;
    return 0;
}

int cgwr_gz_memory(cgw_reader *r, const char *bytes, size_t len)
{
    struct cgwr_gz *gz = gz_new(r);
    if (gz == NULL)
        return -1;
    gz->mem = (const unsigned char *)bytes;
    gz->mem_len = len;
    return 0;
}

void cgwr_gz_free(cgw_reader *r)
{
    if (r->gz == NULL)
        return;
    inflateEnd(&r->gz->zs);
    cgwp_free(&r->alloc, r->gz->in);
    cgwp_free(&r->alloc, r->gz);
    r->gz = NULL;
}

#else /* no zlib: one clear error */

static void no_zlib(cgw_reader *r)
{
    cgwr_fail(r, CGW_EIO,
              "the input is gzip-compressed (it starts with the bytes 1f 8b), and this "
              "libcgw was built without zlib (configure --without-zlib); decompress it "
              "first with gzip -d");
}

static int gz_start(cgw_reader *r, const char *bytes, size_t len)
{
    (void)bytes;
    (void)len;
    no_zlib(r);
    return -1;
}

int cgwr_gz_memory(cgw_reader *r, const char *bytes, size_t len)
{
    (void)bytes;
    (void)len;
    no_zlib(r);
    return 0;
}

void cgwr_gz_free(cgw_reader *r)
{
    (void)r;
}

#endif /* HAVE_ZLIB */

/* What a source that has said it ended gives from then on, without
 * being called again. */
static long at_end(void *ctx, char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

long cgwr_sniff_read(void *ctx, char *buf, size_t len)
{
    cgw_reader *r = ctx;
    size_t got = 0;
    long nread = 1;
    while (got < 2 && got < len && nread > 0) {
        nread = cgwr_read_some(r, r->src_fn, r->src_ctx, buf + got, len - got);
        if (nread < 0) {
            errno = EIO; /* not EINTR: the error is already sticky */
            return -1;
        }
        got += (size_t)nread;
    }
    if (!cgwp_is_gzip(buf, got)) {
        r->read_fn = nread == 0 ? at_end : r->src_fn;
        r->read_ctx = r->src_ctx;
        return (long)got;
    }
    if (gz_start(r, buf, got) < 0) {
        errno = EIO;
        return -1;
    }
    return r->read_fn(r->read_ctx, buf, len);
}
