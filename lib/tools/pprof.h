/* SPDX-License-Identifier: MIT */
/* pprof.h - what the pprof converters (pprof-in.c, pprof-out.c, pprof-gz.c) share
 * beyond stacks.h.  Not installed. */
#ifndef CGW_PPROF_H
#define CGW_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "config.h" /* HAVE_PROTOBUF_C, HAVE_ZLIB */
#include "stacks.h"

#define CGWC_NO_PPROF                                                                     \
    "this libcgw was built without protobuf-c, so it reads and writes no pprof profile " \
    "(configure --with-protobuf-c)"

/* Add the pprof protobuf bytes[0..len) (not compressed) to s; name names
 * the input in messages. */
cgw_status cgwc_pprof_add(cgw_stacks *s, const char *name, const uint8_t *bytes, size_t len);

/* The gzip data in[0..len) inflated into *out (from s's allocator, the
 * caller frees it) of *outlen bytes: OK, EINVAL (not gzip, damaged, or
 * more than 1 GiB; without zlib: unsupported), ENOMEM; errors are s's. */
cgw_status cgwc_gunzip(cgw_stacks *s, const char *name, const uint8_t *in, size_t len,
                       uint8_t **out, size_t *outlen);

/* in[0..len) gzip-compressed into *out (from a; the caller frees it) of
 * *outlen bytes, as pprof's files are: OK, or ENOMEM.  Without zlib *out
 * is NULL: the profile is written uncompressed, which pprof reads too. */
cgw_status cgwc_gzip(const cgw_allocator *a, const uint8_t *in, size_t len, uint8_t **out,
                     size_t *outlen);

#endif
