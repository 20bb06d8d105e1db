/* SPDX-License-Identifier: MIT */
/* fuzz-pprof: any bytes as a pprof profile (cgw_stacks_add_pprof).
 * Never a crash or a hang.  Refused input gets EINVAL, ERANGE or ENOMEM
 * and a message that names the input.  Accepted input gives a profile
 * that the writer takes whole and the reader reads with its checks
 * without an error, whose totals are those of the stacks written again
 * as folded stacks (cgw_write_folded() adds up to each event's total). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include <cgw-pprof.h>
#include "fuzz.h"

static void no_error(void *ctx, const cgw_diagnostic *d)
{
    char buf[512];
    (void)ctx;
    if (d->severity != CGW_ERROR)
        return;
    snprintf(buf, sizeof buf, "line %llu: %s [%s]", (unsigned long long)d->line, d->message,
             d->code);
    fuzz_fail("the converted profile has an error", buf);
}

static int add_line(void *ctx, const char *b, size_t n)
{
    const char *sp = n > 1 ? b + n - 1 : NULL;
    while (sp != NULL && sp > b && sp[-1] != ' ')
        sp--;
    if (sp == NULL || sp == b || b[n - 1] != '\n')
        fuzz_fail("a folded line without a count", NULL);
    *(uint64_t *)ctx += strtoull(sp, NULL, 10);
    return 0;
}

static void check_profile(const char *buf, size_t len)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = no_error };
    cgw_reader *r = cgw_reader_open_memory(buf, len, &o);
    const cgw_record *rec;
    uint64_t total = 0, errors, warnings;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            total = rec->costs[0];
    cgw_reader_counts(r, &errors, &warnings);
    if (errors != 0)
        fuzz_fail("the converted profile has errors", cgw_reader_errmsg(r));
    cgw_reader_close(r);
    r = cgw_reader_open_memory(buf, len, NULL);
    uint64_t folded = 0;
    char msg[256];
    if (cgw_write_folded(r, NULL, add_line, &folded, msg, sizeof msg) != CGW_OK)
        fuzz_fail("cgw_write_folded failed", msg);
    if (folded != total)
        fuzz_fail("the folded stacks do not add up to the totals", NULL);
    cgw_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    cgw_status st = cgw_stacks_add_pprof(s, "fuzz", data, size);
    if (st != CGW_OK) {
        const char *m = cgw_stacks_errmsg(s);
        if ((st != CGW_EINVAL && st != CGW_ERANGE && st != CGW_ENOMEM) ||
            strncmp(m, "fuzz: ", 6) != 0)
            fuzz_fail("an error without its status or input", m);
        cgw_stacks_free(s);
        return 0;
    }
    size_t len;
    char *buf = fuzz_write_stacks(s, &len);
    check_profile(buf, len);
    free(buf);
    return 0;
}
