/* SPDX-License-Identifier: MIT */
/* fuzz-reader: any bytes through the reader with cgverify's checks
 * (CGW_READ_CHECK).  Never a crash or a hang; the read ends with OK;
 * every diagnostic has a code, a message and a line inside the input;
 * every record has what the header promises; and each part's computed
 * totals are the (saturated) sum of its self-cost lines.
 *
 * The reader takes common lines on fast paths and falls back to the
 * general parser for anything else; a CR before every line's '\n' sends
 * every line to the general parser.  Both reads must give the same
 * records, on the same lines, and the same diagnostics but for the
 * "carriage-return" ones.  The fast read skips some kinds of record (chosen from
 * the input; none for a third of the inputs): it must give the other
 * records, the same part totals and counts, and the same diagnostics. */
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

/* What a read's diagnostics must respect, and a running hash of their
 * lines and codes but "carriage-return": the two reads below must agree
 * on it. */
typedef struct seen {
    uint64_t lines;
    uint64_t hash;
} seen;

static void diag(void *ctx, const cgw_diagnostic *d)
{
    seen *s = ctx;
    if (d->code == NULL || d->code[0] == '\0' || d->message == NULL || d->message[0] == '\0')
        fuzz_fail("diagnostic without a code or a message", d->code);
    if (d->severity != CGW_WARNING && d->severity != CGW_ERROR)
        fuzz_fail("diagnostic with a bad severity", d->code);
    if (d->line > s->lines + 1)
        fuzz_fail("diagnostic past the last line", d->code);
    if (strcmp(d->code, "carriage-return") == 0)
        return;
    s->hash = (s->hash ^ d->line) * 0x100000001b3u;
    for (const char *c = d->code; *c != '\0'; c++)
        s->hash = (s->hash ^ (unsigned char)*c) * 0x100000001b3u;
}

static void check_record(const cgw_record *rec, uint64_t *sum, size_t nsum)
{
    const cgw_part *p = rec->part;
    if (p == NULL || rec->kind < CGW_REC_PART || rec->kind > CGW_REC_PART_END)
        fuzz_fail("record without a part or of no known kind", NULL);
    switch (rec->kind) {
    case CGW_REC_PART:
        memset(sum, 0, nsum * sizeof *sum);
        break;
    case CGW_REC_COST:
        if (rec->function == NULL || rec->file == NULL || rec->pos == NULL || rec->costs == NULL)
            fuzz_fail("cost record without its function, file, position or costs", NULL);
        for (size_t i = 0; i < p->nevents && i < nsum; i++)
            sum[i] = rec->costs[i] > UINT64_MAX - sum[i] ? UINT64_MAX : sum[i] + rec->costs[i];
        break;
    case CGW_REC_CALL:
        if (rec->target.function == NULL || rec->pos == NULL || rec->target_pos == NULL ||
            rec->costs == NULL)
            fuzz_fail("call record without callee, positions or costs", NULL);
        break;
    case CGW_REC_PART_END:
        for (size_t i = 0; i < p->nevents && i < nsum; i++)
            if (rec->costs[i] != sum[i])
                fuzz_fail("part totals differ from the sum of its cost lines", NULL);
        break;
    default:
        if (rec->function == NULL)
            fuzz_fail("body record without its function", NULL);
        break;
    }
}

/* data with a CR before every '\n' that has none: the fast paths take
 * no line that ends in CR, and the general parser reads "\r\n" as a
 * line end (with a carriage-return warning). */
static char *crlf(const uint8_t *data, size_t size, size_t *len)
{
    char *out = malloc(2 * size + 1), *q = out;
    if (out == NULL)
        fuzz_fail("out of memory", NULL);
    for (size_t i = 0; i < size; i++) {
        if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))
            *q++ = '\r';
        *q++ = (char)data[i];
    }
    *len = (size_t)(q - out);
    return out;
}

/* The kinds the fast read skips: any but CGW_REC_PART_END, whose totals
 * and counts are compared. */
static unsigned skip_mask(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < size && i < 64; i++)
        h = (h ^ data[i]) * 0x100000001b3u;
    if (h % 3 == 0)
        return 0;
    return (unsigned)(h >> 8) & (CGW_SKIP(CGW_REC_PART_END) - CGW_SKIP(CGW_REC_PART));
}

/* Read data, skipping some kinds, and data with CR line ends
 * alongside, checking every record of the full read: the fast
 * paths and the general parser agree, and skipping changes nothing
 * else. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return 0; /* gzip: fuzz-gzip's (a blank before each line breaks it) */
    size_t len;
    char *slow = crlf(data, size, &len);
    seen s[2] = { { 1, 0 }, { 1, 0 } };
    for (size_t i = 0; i < size; i++)
        s[0].lines += data[i] == '\n';
    s[1].lines = s[0].lines;
    unsigned skip = skip_mask(data, size);
    cgw_read_options o[2] = { { sizeof o[0], CGW_READ_CHECK, diag, &s[0], NULL, skip },
                              { sizeof o[1], CGW_READ_CHECK, diag, &s[1], NULL, 0 } };
    cgw_reader *r[2] = { cgw_reader_open_memory(data, size, &o[0]),
                         cgw_reader_open_memory(slow, len, &o[1]) };
    if (r[0] == NULL || r[1] == NULL)
        fuzz_fail("cgw_reader_open_memory failed", NULL);
    uint64_t sum[64];
    const cgw_record *a, *b;
    do {
        b = fuzz_next(r[1]);
        if (b != NULL) {
            check_record(b, sum, sizeof sum / sizeof *sum);
            if (skip & CGW_SKIP(b->kind))
                continue;
        }
        a = fuzz_next(r[0]);
        fuzz_same_record(a, b, "the fast paths against the general parser");
        if (a != NULL && a->kind == CGW_REC_PART_END &&
            (a->cost_lines != b->cost_lines || a->calls != b->calls ||
             a->functions != b->functions))
            fuzz_fail("the two reads count a part's cost lines, calls or functions apart", NULL);
    } while (b != NULL);
    if (s[0].hash != s[1].hash)
        fuzz_fail("the general parser gives other diagnostics", NULL);
    cgw_reader_close(r[0]);
    cgw_reader_close(r[1]);
    free(slow);
    return 0;
}
