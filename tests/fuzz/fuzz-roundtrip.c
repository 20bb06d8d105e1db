/* SPDX-License-Identifier: MIT */
/* fuzz-roundtrip: every input the reader accepts without an error goes
 * through cgw_roundtrip() (cgverify --roundtrip): written again by the
 * writer and read back, it must give the same records and totals.
 * Left out, because the writer refuses them by design (and the round
 * trip says so): what the reader warns about as a name the writer does
 * not write (the codes in unwritable_codes), and parts whose header
 * differs from the first part's in what a writer gives once for all parts
 * (creator, cmd, pid, positions, events). */
#include <stdio.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

static void first_error(void *ctx, const cgw_diagnostic *d)
{
    char *msg = ctx;
    if (d->severity == CGW_ERROR && msg[0] == '\0')
        snprintf(msg, 512, "line %llu: %s [%s]", (unsigned long long)d->line, d->message,
                 d->code);
}

static const char *const unwritable_codes[] = {
    "event-name", "duplicate-event", "empty-name", "name-blank", "cr-in-line",
};

static void unwritable(void *ctx, const cgw_diagnostic *d)
{
    int *skip = ctx;
    for (size_t i = 0; i < sizeof unwritable_codes / sizeof *unwritable_codes; i++)
        if (strcmp(d->code, unwritable_codes[i]) == 0)
            *skip = 1;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether part p has the file-wide header of part first: creator, cmd,
 * pid, positions and events (names, long names, formulas). */
static int same_header(const cgw_part *p, const cgw_part *first, const cgw_event *ev,
                       size_t nev, const cgw_event *der, size_t nder)
{
    if (p->nevents != nev || p->nderived != nder || p->positions != first->positions ||
        p->has_pid != first->has_pid || p->pid != first->pid ||
        !same_text(p->creator, first->creator) || !same_text(p->cmd, first->cmd))
        return 0;
    for (size_t i = 0; i < nev; i++)
        if (!same_text(p->events[i].name, ev[i].name) ||
            !same_text(p->events[i].long_name, ev[i].long_name))
            return 0;
    for (size_t i = 0; i < nder; i++)
        if (!same_text(p->derived[i].name, der[i].name) ||
            !same_text(p->derived[i].long_name, der[i].long_name) ||
            !same_text(p->derived[i].formula, der[i].formula))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int skip = 0;
    cgw_read_options ro = { .struct_size = sizeof ro, .diag = unwritable, .diag_ctx = &skip };
    cgw_reader *r = cgw_reader_open_memory(data, size, &ro);
    const cgw_record *rec;
    cgw_event ev[16], der[16];
    cgw_part first = { 0 };
    size_t nev = 0, nder = 0, parts = 0;
    cgw_status read_st = r != NULL ? CGW_OK : CGW_ENOMEM;
    while (r != NULL && (read_st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind != CGW_REC_PART)
            continue;
        const cgw_part *p = rec->part;
        if (parts++ == 0 && p->nevents <= 16 && p->nderived <= 16) {
            first = *p; /* its strings live until close */
            nev = p->nevents;
            nder = p->nderived;
            for (size_t i = 0; i < nev; i++) /* names live until close */
                ev[i] = p->events[i];
            for (size_t i = 0; i < nder; i++)
                der[i] = p->derived[i];
        } else if (parts == 1 || !same_header(p, &first, ev, nev, der, nder)) {
            skip = 1;
        }
    }
    uint64_t errors = 1;
    cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    if (errors != 0 || skip || read_st != CGW_OK) /* a corrupt gzip input */
        return 0;
    char msg[512] = "";
    cgw_read_options o = { .struct_size = sizeof o, .diag = first_error, .diag_ctx = msg };
    uint64_t diffs = 0;
    cgw_status st = cgw_roundtrip(NULL, data, size, &o, &diffs);
    if (st != CGW_OK)
        fuzz_fail("cgw_roundtrip failed on an accepted input", cgw_strerror(st));
    if (diffs != 0)
        fuzz_fail("the round trip changed an accepted input", msg);
    return 0;
}
