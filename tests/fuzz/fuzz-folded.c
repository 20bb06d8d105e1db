/* SPDX-License-Identifier: MIT */
/* fuzz-folded: any bytes as folded stacks (cgw_stacks_add_folded).
 * Never a crash or a hang.  Refused input gets EINVAL or ERANGE and a
 * message that names the input and a line inside it.  Accepted input
 * gives a profile that the writer takes whole, that the reader reads
 * with its checks without an error or a warning (cgverify --strict; but
 * for "big-value", which a count of 2^53 or more rightly gets,
 * "flame-total", a fact of the stacks' call graph, and "name-clash" and
 * "basename-clash", facts of the input's names, which are kept),
 * whose totals are the sum of the counts, and whose folded stacks
 * (cgw_write_folded) add up to the same total. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

static void no_diag(void *ctx, const cgw_diagnostic *d)
{
    char buf[512];
    (void)ctx;
    /* flame-total: a frame that is a root and a callee too, which
     * speedscope's flame graph cannot show, however it is written */
    /* name-clash, basename-clash: functions of one name in two objects
     * or files, written under that name (issue 52), as the input has it */
    if (strcmp(d->code, "big-value") == 0 || strcmp(d->code, "flame-total") == 0 ||
        strcmp(d->code, "name-clash") == 0 || strcmp(d->code, "basename-clash") == 0)
        return;
    snprintf(buf, sizeof buf, "line %llu: %s [%s]", (unsigned long long)d->line, d->message,
             d->code);
    fuzz_fail("the converted profile has a diagnostic", buf);
}

/* The sum of the counts that end the lines (they were all accepted):
 * the last word of each non-blank line; saturated. */
static uint64_t sum_counts(const uint8_t *p, size_t n, uint64_t *lines)
{
    uint64_t sum = 0, count = 0, mul = 1;
    int in_count = 1, any = 0;
    *lines = 1;
    for (size_t i = n; i-- > 0;) { /* backwards: the count is read first */
        char c = (char)p[i];
        if (c == '\n') {
            sum = count > UINT64_MAX - sum ? UINT64_MAX : sum + count;
            count = 0, mul = 1, in_count = 1, any = 0;
            ++*lines;
        } else if (in_count && c >= '0' && c <= '9') {
            count += (uint64_t)(c - '0') * mul;
            mul *= 10, any = 1;
        } else if (in_count && (c == ' ' || c == '\t' || c == '\r') && !any) {
            continue;
        } else {
            in_count = 0;
        }
    }
    return count > UINT64_MAX - sum ? UINT64_MAX : sum + count;
}

typedef struct sum_sink {
    uint64_t total;
} sum_sink;

/* Each line of cgw_write_folded() ends in " COUNT\n". */
static int add_line(void *ctx, const char *b, size_t n)
{
    sum_sink *s = ctx;
    const char *sp = n > 1 ? memchr(b, '\n', n) : NULL;
    while (sp != NULL && sp > b && sp[-1] != ' ')
        sp--;
    if (sp == NULL || sp == b || b[n - 1] != '\n')
        fuzz_fail("a folded line without a count", NULL);
    s->total += strtoull(sp, NULL, 10);
    return 0;
}

static void check_profile(const char *buf, size_t len, uint64_t want)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = no_diag };
    cgw_reader *r = cgw_reader_open_memory(buf, len, &o);
    const cgw_record *rec;
    uint64_t total = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            total = rec->costs[0];
    if (total != want)
        fuzz_fail("the totals are not the sum of the counts", NULL);
    cgw_reader_close(r);
    r = cgw_reader_open_memory(buf, len, NULL);
    sum_sink s = { 0 };
    char msg[256];
    if (cgw_write_folded(r, NULL, add_line, &s, msg, sizeof msg) != CGW_OK)
        fuzz_fail("cgw_write_folded failed", msg);
    if (s.total != want)
        fuzz_fail("the folded stacks do not add up to the totals", NULL);
    cgw_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    uint64_t lines, want = sum_counts(data, size, &lines);
    cgw_status st = cgw_stacks_add_folded(s, NULL, "fuzz", (const char *)data, size);
    if (st != CGW_OK) {
        const char *m = cgw_stacks_errmsg(s);
        unsigned long long line = 0;
        if ((st != CGW_EINVAL && st != CGW_ERANGE) || sscanf(m, "fuzz:%llu:", &line) != 1 ||
            line == 0 || line > lines)
            fuzz_fail("an error without its status or position", m);
        cgw_stacks_free(s);
        return 0;
    }
    size_t len;
    char *buf = fuzz_write_stacks(s, &len);
    check_profile(buf, len, want);
    free(buf);
    return 0;
}
