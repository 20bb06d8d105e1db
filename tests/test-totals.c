/* SPDX-License-Identifier: MIT */
/* test-totals: totals: is the exact per-event sum of the self-cost lines
 * of its part (inclusive call costs excluded); a sum past 2^64-1 is
 * CGW_ERANGE with nothing written, never a wrapped number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })

/* A writer to memory with flags whose totals of A and B are 2^64-1 - 34
 * and 40, reached in 34 cost lines.  The lines are from 1000 on, where
 * compact mode writes a step of 1 relative too, so that in both modes
 * the writer's one pass (steps, a cost for every event) takes the lines
 * after the first, and the lines the caller adds after them. */
static cgw_writer *near_max(char **buf, size_t *len, unsigned flags)
{
    cgw_options o = { .struct_size = sizeof o, .flags = flags };
    cgw_writer *w = cgw_open_memory(buf, len, &o);
    cgw_add_event(w, "A", NULL);
    cgw_add_event(w, "B", NULL);
    cgw_function(w, "f");
    CHECK_ST(cgw_cost(w, P1(1000), (const uint64_t[]){ UINT64_MAX - 100, 7 }, 2), CGW_OK);
    for (int i = 0; i < 33; i++)
        CHECK_ST(cgw_cost(w, P1(1001), (const uint64_t[]){ 2, 1 }, 2), CGW_OK);
    return w;
}

int main(void)
{
    char *buf;
    size_t len;
    cgwt_model m;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    cgwt_model_init(&m, 2);
    cgw_add_event(w, "A", NULL);
    cgw_add_event(w, "B", NULL);
    cgwt_file(w, &m, "t.c");
    cgwt_function(w, &m, "big");
    CHECK_ST(cgwt_cost(w, &m, P1(1), (const uint64_t[]){ UINT64_MAX - 10, 3 }, 2), CGW_OK);
    CHECK_ST(cgwt_cost(w, &m, P1(2), (const uint64_t[]){ 10, 4 }, 2), CGW_OK);
    CHECK_ST(cgw_call(w, &(cgw_target){ NULL, NULL, "big" }, 1, NULL, P1(2),
                      (const uint64_t[]){ UINT64_MAX, UINT64_MAX }, 2), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(strstr(buf, "\ntotals: 18446744073709551615 7\n") != NULL);
    cgwt_annotate(buf, len, &m);
    cgwt_model_free(&m);
    free(buf);

    /* One more unit overflows: refused, sticky, nothing written. */
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    cgw_options o = { .struct_size = sizeof o, .buffer_size = 1 };
    w = cgw_open_callback(cgwt_capture_write, &c, &o);
    cgw_add_event(w, "A", NULL);
    cgw_add_event(w, "B", NULL);
    cgw_function(w, "f");
    CHECK_ST(cgw_cost(w, P1(1), (const uint64_t[]){ 5, UINT64_MAX }, 2), CGW_OK);
    size_t before = c.len;
    CHECK_ST(cgw_cost(w, P1(2), (const uint64_t[]){ 0, 1 }, 2), CGW_ERANGE);
    CHECK(c.len == before);
    CHECK(strstr(cgw_errmsg(w), "cgw_cost: the total of event 2") == cgw_errmsg(w));
    CHECK_ST(cgw_cost(w, P1(2), P1(1), 1), CGW_ERANGE);
    CHECK_ST(cgw_close(w), CGW_ERANGE);
    CHECK(c.len == before);
    cgwt_capture_free(&c);

    /* Up to the last unit in many small steps, each cost line checked
     * against what every total can still take, in both modes. */
    for (unsigned flags = 0; flags <= CGW_COMPACT; flags += CGW_COMPACT) {
        /* ncosts 1: the general path; then the one pass */
        w = near_max(&buf, &len, flags);
        CHECK_ST(cgw_cost(w, P1(1003), (const uint64_t[]){ 34 }, 1), CGW_OK);
        CHECK_ST(cgw_cost(w, P1(1004), (const uint64_t[]){ 1, 0 }, 2), CGW_ERANGE);
        CHECK(strstr(cgw_errmsg(w), "cgw_cost: the total of event 1") == cgw_errmsg(w));
        CHECK_ST(cgw_close(w), CGW_ERANGE);
        free(buf);
        w = near_max(&buf, &len, flags);
        CHECK_ST(cgw_cost(w, P1(1003), (const uint64_t[]){ 34, UINT64_MAX - 40 }, 2), CGW_OK);
        CHECK_ST(cgw_cost(w, P1(1004), (const uint64_t[]){ 0, 0 }, 2), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        CHECK(strstr(buf, "\ntotals: 18446744073709551615 18446744073709551615\n") != NULL);
        cgwt_readback(buf, len, NULL);
        free(buf);
    }

    /* Totals per part restart from zero. */
    w = cgw_open_memory(&buf, &len, NULL);
    cgw_add_event(w, "A", NULL);
    cgw_function(w, "f");
    cgw_cost(w, P1(1), P1(UINT64_MAX), 1);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    cgw_function(w, "f");
    CHECK_ST(cgw_cost(w, P1(1), P1(UINT64_MAX), 1), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    const char *t1 = strstr(buf, "totals: 18446744073709551615\n");
    CHECK(t1 != NULL && strstr(t1 + 1, "totals: 18446744073709551615\n") != NULL);
    cgwt_annotate_parts(buf, len);
    free(buf);
    printf("totals exact up to 2^64-1, overflow refused\n");
    return 0;
}
