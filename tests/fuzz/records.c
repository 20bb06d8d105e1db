/* SPDX-License-Identifier: MIT */
/* records.c - what the fuzz targets that read an input twice share: the
 * next record of a read that must not fail, and the check that two reads
 * gave the same record on the same line. */
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
