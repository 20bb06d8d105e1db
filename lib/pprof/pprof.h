/* SPDX-License-Identifier: MIT */
/* pprof.h - what the pprof converters of libcgw-pprof (pprof-in.c,
 * pprof-out.c, pprof-gz.c) share.  libcgw-pprof is built on the public
 * API (<cgw.h>: cgw_stacks_add() and cgw_read_stacks()) and lib/common,
 * with lib/common's util.h for its memory and hash index (those files are
 * compiled into it again, hidden), so that libcgw itself needs neither
 * protobuf-c nor anything of this.  Not installed. */
#ifndef CGW_LIB_PPROF_H
#define CGW_LIB_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "config.h" /* HAVE_ZLIB */
#include "cgw-pprof.h"
#include "util.h"

/* The most sample types a profile may have: the stacks' events. */
#define CGWPB_MAX_EVENTS 64

/* Make st the stacks' sticky error, its message printf'd; returns the
 * stacks' error. */
cgw_status cgwpb_fail(cgw_stacks *s, cgw_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* What raises the limit of memory a profile's decoding takes, for the
 * messages that refuse one over it. */
#define CGWPB_RAISE "cgw_stacks_add_pprof_limit() and cgconvert --pprof-limit=SIZE raise it"

/* n bytes in buf as "N MiB" when a whole number of MiB, else "N bytes". */
const char *cgwpb_size_text(char buf[32], size_t n);

/* The gzip data in[0..len) inflated into *out (from a, the caller frees
 * it) of *outlen bytes, its buffer never above max bytes and a byte: OK,
 * ERANGE (more than max), EINVAL (not gzip, damaged; without zlib:
 * unsupported), ENOMEM; errors are made s's. */
cgw_status cgwpb_gunzip(cgw_stacks *s, const cgw_allocator *a, const char *name,
                        const uint8_t *in, size_t len, size_t max, uint8_t **out,
                        size_t *outlen);

/* in[0..len) gzip-compressed into *out (from a; the caller frees it) of
 * *outlen bytes, as pprof's files are: OK, or ENOMEM.  Without zlib *out
 * is NULL: the profile is written uncompressed, which pprof reads too. */
cgw_status cgwpb_gzip(const cgw_allocator *a, const uint8_t *in, size_t len, uint8_t **out,
                      size_t *outlen);

#endif
