/* SPDX-License-Identifier: MIT */
/* pprof-gz.c - gzip-compressed pprof profiles (Go writes them so),
 * inflated with zlib when libcgw-pprof has it; and the stacks' errors
 * that libcgw-pprof makes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pprof.h"

cgw_status cgwpb_fail(cgw_stacks *s, cgw_status st, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cgw_stacks_fail(s, st, msg);
}

const char *cgwpb_size_text(char buf[32], size_t n)
{
    if (n % ((size_t)1 << 20) == 0)
        snprintf(buf, 32, "%zu MiB", n >> 20);
    else
        snprintf(buf, 32, "%zu bytes", n);
    return buf;
}

#ifdef HAVE_ZLIB
#include <zlib.h>

/* The next size of the buffer: twice cap, the first four times the
 * input's size, never more than a byte past max (so that a stream of
 * exactly max bytes can end). */
static size_t next_cap(size_t cap, size_t len, size_t max)
{
    if (cap == 0)
        cap = len < 4096 ? 8192 : len < max / 8 ? 2 * len : max / 2;
    return cap > max / 2 ? max + 1 : 2 * cap;
}

cgw_status cgwpb_gunzip(cgw_stacks *s, const cgw_allocator *a, const char *name,
                        const uint8_t *in, size_t len, size_t max, uint8_t **out,
                        size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return cgwpb_fail(s, CGW_ENOMEM, "%s: out of memory for zlib", name);
    uint8_t *buf = NULL;
    size_t cap = 0, used = 0;
    int rc = Z_OK;
    z.next_in = (Bytef *)(uintptr_t)in;
    while (rc == Z_OK && used <= max) {
        if (used == cap) {
            size_t want = next_cap(cap, len, max);
            uint8_t *grown = cgwp_realloc(a, buf, want);
            if (grown == NULL)
                break;
            buf = grown;
            cap = want;
        }
        size_t feed = len - (size_t)(z.next_in - in);
        z.avail_in = feed > UINT32_MAX ? UINT32_MAX : (uInt)feed;
        z.next_out = buf + used;
        z.avail_out = cap - used > UINT32_MAX ? UINT32_MAX : (uInt)(cap - used);
        uInt before = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        used += before - z.avail_out;
        if (rc == Z_BUF_ERROR && z.avail_in > 0 && used == cap)
            rc = Z_OK; /* room was all it needed */
    }
    inflateEnd(&z);
    if (rc == Z_STREAM_END && used <= max) {
        /* what the buffer has over the protobuf goes back: the decode's
         * budget is what is left of max */
        uint8_t *fit = used > 0 && used < cap ? cgwp_realloc(a, buf, used) : NULL;
        *out = fit != NULL ? fit : buf;
        *outlen = used;
        return CGW_OK;
    }
    cgwp_free(a, buf);
    char size[32];
    if (used > max)
        return cgwpb_fail(s, CGW_ERANGE, "%s: inflates to more than %s, the limit of memory "
                          "for a pprof profile (" CGWPB_RAISE ")", name,
                          cgwpb_size_text(size, max));
    if (rc == Z_OK || rc == Z_MEM_ERROR)
        return cgwpb_fail(s, CGW_ENOMEM, "%s: out of memory inflating it", name);
    return cgwpb_fail(s, CGW_EINVAL, "%s: a truncated or damaged gzip stream (zlib: %s)",
                            name, z.msg != NULL ? z.msg : "unexpected end");
}

cgw_status cgwpb_gzip(const cgw_allocator *a, const uint8_t *in, size_t len, uint8_t **out,
                      size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    *out = NULL;
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return CGW_ENOMEM;
    size_t cap = deflateBound(&z, (uLong)len) + 64;
    uint8_t *buf = cgwp_alloc(a, cap);
    if (buf == NULL) {
        deflateEnd(&z);
        return CGW_ENOMEM;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *outlen = cap - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        cgwp_free(a, buf);
        return CGW_ENOMEM;
    }
    *out = buf;
    return CGW_OK;
}

#else

cgw_status cgwpb_gzip(const cgw_allocator *a, const uint8_t *in, size_t len, uint8_t **out,
                      size_t *outlen)
{
    (void)a;
    (void)in;
    (void)len;
    *out = NULL;
    *outlen = 0;
    return CGW_OK;
}

cgw_status cgwpb_gunzip(cgw_stacks *s, const cgw_allocator *a, const char *name,
                        const uint8_t *in, size_t len, size_t max, uint8_t **out,
                        size_t *outlen)
{
    (void)a;
    (void)max;
    (void)in;
    (void)len;
    (void)out;
    (void)outlen;
    return cgwpb_fail(s, CGW_EINVAL, "%s: gzip-compressed, and this libcgw-pprof was built "
                            "without zlib (configure --with-zlib)", name);
}

#endif
