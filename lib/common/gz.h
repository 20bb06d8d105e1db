/* SPDX-License-Identifier: MIT */
/* gz.h - what the reader's and the writer's gzip code share: the magic
 * bytes that tell a gzip stream (never the file name), and zlib's memory
 * calls on a cgw_allocator.  Never installed. */
#ifndef CGW_COMMON_GZ_H
#define CGW_COMMON_GZ_H

#include <stddef.h>

#include "config.h"

/* The first two bytes of every gzip member (RFC 1952). */
static inline int cgwp_is_gzip(const void *data, size_t len)
{
    const unsigned char *bytes = data;
    return len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

#ifdef HAVE_ZLIB
#define ZLIB_CONST /* next_in points to const bytes */
#include <zlib.h>

/* zalloc and zfree of a z_stream whose opaque is a cgw_allocator, so
 * that zlib's memory comes from the writer's or reader's allocator. */
voidpf cgwp_zalloc(voidpf opaque, uInt items, uInt size);
void cgwp_zfree(voidpf opaque, voidpf block);
#endif

#endif /* CGW_COMMON_GZ_H */
