/* SPDX-License-Identifier: MIT */
/* fuzz-split: any bytes read twice, once from memory in place and once
 * through a read callback that hands them out in pieces of 1 to 61
 * bytes (sizes drawn from the input), which puts the end of a read
 * inside every kind of token: the two reads must give the same records,
 * on the same lines, and the same diagnostics.  (Memory is read in
 * place and whole lines go to the fast paths; a callback's bytes come
 * through the input buffer, where a line is cut and joined again.) */
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

/* A running hash of the diagnostics' lines, codes and messages. */
static void diag(void *ctx, const cgw_diagnostic *d)
{
    uint64_t *hash = ctx;
    *hash = (*hash ^ d->line) * 0x100000001b3u;
    for (const char *c = d->code; *c != '\0'; c++)
        *hash = (*hash ^ (unsigned char)*c) * 0x100000001b3u;
    for (const char *c = d->message; *c != '\0'; c++)
        *hash = (*hash ^ (unsigned char)*c) * 0x100000001b3u;
}

typedef struct pieces {
    const uint8_t *data;
    size_t size, at;
    uint64_t state; /* the sizes of the pieces */
} pieces;

static long next_piece(void *ctx, char *buf, size_t cap)
{
    pieces *in = ctx;
    in->state = in->state * 6364136223846793005u + 1442695040888963407u;
    size_t len = 1 + (size_t)(in->state >> 58); /* 1..64 */
    if (len > cap)
        len = cap;
    if (len > in->size - in->at)
        len = in->size - in->at;
    memcpy(buf, in->data + in->at, len);
    in->at += len;
    return (long)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return 0; /* gzip: fuzz-gzip's (a corrupt one ends a read in CGW_EIO) */
    uint64_t hash[2] = { 0, 0 };
    pieces in = { data, size, 0, size * 0x9e3779b97f4a7c15u };
    for (size_t i = 0; i < size && i < 32; i++)
        in.state = (in.state ^ data[i]) * 0x100000001b3u;
    cgw_read_options o[2] = { { sizeof o[0], CGW_READ_CHECK, diag, &hash[0], NULL, 0 },
                              { sizeof o[1], CGW_READ_CHECK, diag, &hash[1], NULL, 0 } };
    cgw_reader *r[2] = { cgw_reader_open_memory(data, size, &o[0]),
                         cgw_reader_open_callback(next_piece, &in, &o[1]) };
    if (r[0] == NULL || r[1] == NULL)
        fuzz_fail("opening a reader failed", NULL);
    const cgw_record *a;
    do {
        a = fuzz_next(r[0]);
        fuzz_same_record(a, fuzz_next(r[1]), "the input split into reads");
    } while (a != NULL);
    if (hash[0] != hash[1])
        fuzz_fail("the diagnostics differ when the input is split", NULL);
    cgw_reader_close(r[0]);
    cgw_reader_close(r[1]);
    return 0;
}
