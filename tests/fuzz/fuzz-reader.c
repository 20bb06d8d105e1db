/* fuzz-reader: any bytes through the reader with cgverify's checks
 * (CGW_READ_CHECK).  Never a crash or a hang; the read ends with OK;
 * every diagnostic has a code, a message and a line inside the input;
 * every record has what the header promises; and each part's computed
 * totals are the (saturated) sum of its self-cost lines. */
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

typedef struct seen {
    uint64_t lines;
} seen;

static void diag(void *ctx, const cgw_diagnostic *d)
{
    const seen *s = ctx;
    if (d->code == NULL || d->code[0] == '\0' || d->message == NULL || d->message[0] == '\0')
        fuzz_fail("diagnostic without a code or a message", d->code);
    if (d->severity != CGW_WARNING && d->severity != CGW_ERROR)
        fuzz_fail("diagnostic with a bad severity", d->code);
    if (d->line > s->lines + 1)
        fuzz_fail("diagnostic past the last line", d->code);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    seen s = { 1 };
    for (size_t i = 0; i < size; i++)
        s.lines += data[i] == '\n';
    cgw_read_options o = { CGW_READ_CHECK, diag, &s, NULL };
    cgw_reader *r = cgw_reader_open_memory(data, size, &o);
    if (r == NULL)
        fuzz_fail("cgw_reader_open_memory failed", NULL);
    uint64_t sum[64];
    const cgw_record *rec;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        check_record(rec, sum, sizeof sum / sizeof *sum);
    if (st != CGW_OK)
        fuzz_fail("the read ended in an error", cgw_reader_errmsg(r));
    cgw_reader_close(r);
    return 0;
}
