/* SPDX-License-Identifier: MIT */
/* records.c - what the fuzz targets share: for those that read an input
 * twice, the next record of a read that must not fail and the check that
 * two reads gave the same record on the same line; for the converters'
 * targets, stacks written into memory. */
#include <stddef.h>

#include <cgw.h>
#include "fuzz.h"

const cgw_record *fuzz_next(cgw_reader *r)
{
    const cgw_record *rec;
    if (cgw_reader_next(r, &rec) != CGW_OK)
        fuzz_fail("the read ended in an error", cgw_reader_errmsg(r));
    return rec;
}

void fuzz_same_record(const cgw_record *a, const cgw_record *b, const char *how)
{
    char msg[256];
    if ((a == NULL) != (b == NULL))
        fuzz_fail(how, "the two reads give another number of records");
    if (a != NULL && a->line != b->line)
        fuzz_fail(how, "a record comes on another line");
    if (a != NULL && cgw_record_compare(a, b, msg, sizeof msg) != 0)
        fuzz_fail(how, msg);
}

char *fuzz_write_stacks(cgw_stacks *s, size_t *len)
{
    char *buf;
    cgw_writer *w = cgw_open_memory(&buf, len, NULL);
    if (cgw_stacks_write(s, w) != CGW_OK || cgw_finish(w) != CGW_OK)
        fuzz_fail("the writer refused the stacks", cgw_errmsg(w));
    cgw_free(w);
    cgw_stacks_free(s);
    return buf;
}
