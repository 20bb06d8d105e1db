/* SPDX-License-Identifier: MIT */
/* fuzz-gzip: any bytes, gzip or not, read from memory and through a read
 * callback of short reads (1 to 61 bytes a call, so the magic bytes and
 * the gzip header arrive in pieces).  Never a crash, a hang or a leak;
 * both reads give the same records and end the same way; a read that
 * fails does so with CGW_EIO and a gzip message (or CGW_ENOMEM, never
 * here).  The seeds include .gz files, whose mutations are corrupt,
 * truncated and trailing-garbage streams. */
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

/* The input of the callback read: one at a time (a fuzz target runs
 * inputs one after another). */
static const uint8_t *in;
static size_t in_len, in_off;
static unsigned in_calls;

static long serve(void *ctx, char *buf, size_t len)
{
    (void)ctx;
    size_t n = 1 + (size_t)(++in_calls * 13u % 61u);
    if (n > len)
        n = len;
    if (n > in_len - in_off)
        n = in_len - in_off;
    memcpy(buf, in + in_off, n);
    in_off += n;
    return (long)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in = data;
    in_len = size;
    in_off = 0;
    in_calls = 0;
    cgw_reader *r[2] = { cgw_reader_open_memory(data, size, NULL),
                         cgw_reader_open_callback(serve, NULL, NULL) };
    if (r[0] == NULL || r[1] == NULL)
        fuzz_fail("opening a reader failed", NULL);
    const cgw_record *a, *b;
    cgw_status sa, sb;
    char msg[256];
    do {
        sa = cgw_reader_next(r[0], &a);
        sb = cgw_reader_next(r[1], &b);
        if (sa != sb)
            fuzz_fail("memory and callback reads end differently", cgw_reader_errmsg(r[0]));
        if (sa != CGW_OK)
            break;
        if ((a == NULL) != (b == NULL))
            fuzz_fail("memory and callback reads give another number of records", NULL);
        if (a != NULL && cgw_record_compare(a, b, msg, sizeof msg) != 0)
            fuzz_fail("memory and callback reads give another record", msg);
    } while (a != NULL);
    int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    for (int i = 0; i < 2 && sa != CGW_OK; i++) {
        const char *m = cgw_reader_errmsg(r[i]);
        if (sa != CGW_EIO || !gzip || m == NULL || strstr(m, "gzip") == NULL)
            fuzz_fail("a read failed otherwise than with a gzip error", m);
    }
    if (sa != CGW_OK && strncmp(cgw_reader_errmsg(r[0]), cgw_reader_errmsg(r[1]), 36) != 0)
        fuzz_fail("memory and callback reads fail for another reason", cgw_reader_errmsg(r[1]));
    cgw_reader_close(r[0]);
    cgw_reader_close(r[1]);
    return 0;
}
