/* SPDX-License-Identifier: MIT */
/* gz.c - zlib's memory calls on a cgw_allocator (see gz.h). */
#include <stdint.h>

#include "alloc.h"
#include "gz.h"

#ifdef HAVE_ZLIB
voidpf cgwp_zalloc(voidpf opaque, uInt items, uInt size)
{
    if (size != 0 && items > SIZE_MAX / size)
        return Z_NULL;
    return cgwp_alloc(opaque, (size_t)items * size);
}

void cgwp_zfree(voidpf opaque, voidpf block)
{
    cgwp_free(opaque, block);
}
#else
/* ISO C wants something in a translation unit. */
typedef int cgwp_gz_unused;
#endif
