/* SPDX-License-Identifier: MIT */
/* test-strict: the writer and the verifier agree.  What the writer's
 * portable default takes, written as a new user would (a thread: line,
 * long event names, a function split over two blocks, a call to a
 * function that has no block), gets no finding for any reader
 * (cgw_diag_readers(), what cgverify --strict fails on); nor does
 * cgw_recode()'s default output of it, nor cgw_merge_write()'s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })

/* Count the findings of text; print them.  Not flame-total: the call to
 * a function with no block shows in speedscope's flame graph beyond the
 * total, a fact of the call graph written, not of how it is written. */
static void finding(void *ctx, const cgw_diagnostic *d)
{
    if (strcmp(d->code, "flame-total") == 0)
        return;
    if (d->severity == CGW_ERROR || cgw_diag_readers(d->code) != 0) {
        printf("finding: line %llu: %s [%s]\n", (unsigned long long)d->line, d->message,
               d->code);
        (*(int *)ctx)++;
    }
}

static int findings(const char *text, size_t len)
{
    int n = 0;
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = finding,
                           .diag_ctx = &n };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        ;
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    return n;
}

static char *write_profile(size_t *len)
{
    char *buf;
    cgw_writer *w = cgw_open_memory(&buf, len, NULL);
    CHECK(w != NULL);
    CHECK_ST(cgw_set_thread(w, 2), CGW_OK);
    CHECK_ST(cgw_add_event(w, "Ir", "Instruction Fetch"), CGW_OK);
    CHECK_ST(cgw_add_event(w, "Dr", "Data Read Access"), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(1), (const uint64_t[]){ 10, 2 }, 2), CGW_OK);
    const cgw_target to_nowhere = { NULL, "b.c", "extern_fn" }; /* no block of its own */
    CHECK_ST(cgw_call(w, &to_nowhere, 2, P1(7), P1(2), (const uint64_t[]){ 5, 1 }, 2), CGW_OK);
    CHECK_ST(cgw_function(w, "work"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(20), (const uint64_t[]){ 3, 0 }, 2), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK); /* main again: a second block */
    CHECK_ST(cgw_cost(w, P1(3), (const uint64_t[]){ 4, 1 }, 2), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    return buf;
}

int main(void)
{
    size_t len;
    char *text = write_profile(&len);
    CHECK(strstr(text, "thread: 2\n") != NULL);
    CHECK(strstr(text, "event: Ir : Instruction Fetch\n") != NULL);
    CHECK(findings(text, len) == 0);

    /* cgw_recode() of it, as cgrecode writes by default */
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    char *recoded;
    size_t rlen;
    cgw_writer *w = cgw_open_memory(&recoded, &rlen, NULL);
    CHECK_ST(cgw_recode(r, w, 0), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgw_reader_close(r);
    CHECK(findings(recoded, rlen) == 0);

    /* cgw_merge_write() of it with itself, as cgmerge writes by default */
    cgw_merger *m = cgw_merge_new(NULL);
    CHECK(m != NULL);
    for (int i = 0; i < 2; i++) {
        r = cgw_reader_open_memory(text, len, NULL);
        CHECK_ST(cgw_merge_add(m, r), CGW_OK);
        cgw_reader_close(r);
    }
    char *merged;
    size_t mlen;
    cgw_options o = { .struct_size = sizeof o, .flags = CGW_ZERO_COUNTS };
    w = cgw_open_memory(&merged, &mlen, &o);
    CHECK_ST(cgw_merge_write(m, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgw_merge_free(m);
    CHECK(findings(merged, mlen) == 0);
    cgwt_annotate(text, len, NULL);
    free(text);
    free(recoded);
    free(merged);
    printf("a thread, long event names, a split function and a call to a function "
           "without a block: no finding, written, recoded or merged\n");
    return 0;
}
