/* SPDX-License-Identifier: MIT */
/* test-layer: the calls for code that writes through a writer on its
 * caller's behalf (state, options, bytes, error, set_error) and the
 * calls that name the order of subpositions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void states(void)
{
    char *buf;
    size_t len;
    CHECK(cgw_get_state(NULL) == 0);
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK(w != NULL);
    CHECK(cgw_get_state(w) == CGW_STATE_HEADER);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK(cgw_get_state(w) == CGW_STATE_HEADER);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK(cgw_get_state(w) == CGW_STATE_BODY);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    CHECK(cgw_get_state(w) == CGW_STATE_PART_HEADER);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK(cgw_get_state(w) == CGW_STATE_BODY);
    CHECK_ST(cgw_finish(w), CGW_OK);
    CHECK(cgw_get_state(w) == CGW_STATE_FINISHED);
    cgw_free(w);
    free(buf);
}

static void options(void)
{
    cgw_options got = CGW_OPTIONS_INIT;
    char *buf;
    size_t len;
    CHECK_ST(cgw_get_options(NULL, &got), CGW_EUSAGE);
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_get_options(w, NULL), CGW_EUSAGE);
    CHECK_ST(cgw_get_options(w, &got), CGW_OK);
    CHECK_U64(got.positions, CGW_POS_LINE);
    CHECK_U64(got.flags, 0);
    CHECK_U64(got.buffer_size, 64 * 1024);
    CHECK(got.allocator != NULL && got.allocator->malloc != NULL);
    cgw_free(w);

    cgwt_alloc counted;
    cgwt_alloc_init(&counted, 0);
    cgw_options opts = { .struct_size = sizeof opts, .positions = CGW_POS_INSTR | CGW_POS_LINE,
                         .flags = CGW_COMPACT, .buffer_size = 4096, .allocator = &counted.a };
    w = cgw_open_memory(&buf, &len, &opts);
    CHECK_ST(cgw_get_options(w, &got), CGW_OK);
    CHECK_U64(got.positions, CGW_POS_INSTR | CGW_POS_LINE);
    CHECK_U64(got.flags, CGW_COMPACT);
    CHECK_U64(got.buffer_size, 4096);
    /* the writer's copy of the allocator: the same calls and context */
    CHECK(got.allocator->malloc == counted.a.malloc && got.allocator->ctx == counted.a.ctx);
    long before = counted.live;
    void *block = got.allocator->malloc(got.allocator->ctx, 16);
    CHECK(counted.live == before + 1);
    got.allocator->free(got.allocator->ctx, block);
    cgw_free(w);
    CHECK(counted.live == 0);
}

/* The bytes counted as they are written, and the final count equal to
 * what the sink got, across a flush of the small buffer. */
static void bytes(void)
{
    cgwt_capture sink;
    cgwt_capture_init(&sink, 0, 0);
    cgw_options opts = { .struct_size = sizeof opts, .buffer_size = 64 };
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &sink, &opts);
    CHECK_U64(cgw_bytes_written(NULL), 0);
    CHECK_U64(cgw_bytes_written(w), 0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    uint64_t after_header = cgw_bytes_written(w);
    CHECK(after_header > 64); /* more than one buffer: some reached the sink */
    CHECK(sink.len > 0 && sink.len <= after_header);
    for (uint64_t line = 1; line <= 100; line++)
        CHECK_ST(cgw_cost(w, &line, (uint64_t[]){ line }, 1), CGW_OK);
    CHECK(cgw_bytes_written(w) > after_header + 100 * 4);
    uint64_t before_finish = cgw_bytes_written(w);
    CHECK_ST(cgw_finish(w), CGW_OK);
    CHECK(sink.len > before_finish); /* totals: */
    CHECK_U64(cgw_bytes_written(w), sink.len);
    cgw_free(w);

    cgw_reader *r = cgw_reader_open_memory(sink.data, sink.len, NULL);
    const cgw_record *rec;
    uint64_t costs = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_COST)
            costs += rec->costs[0];
    uint64_t errors, warnings;
    cgw_reader_counts(r, &errors, &warnings);
    CHECK_U64(errors + warnings, 0);
    CHECK_U64(costs, 100 * 101 / 2);
    cgw_reader_close(r);
    cgwt_capture_free(&sink);
}

/* A layer's error sticks like the writer's own: reported by every later
 * call and by cgw_finish(), with its message, and nothing more is
 * written. */
static void set_error(void)
{
    cgwt_capture sink;
    cgwt_capture_init(&sink, 0, 0);
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &sink, NULL);
    CHECK_ST(cgw_set_error(NULL, CGW_EINVAL, "x", "y"), CGW_EUSAGE);
    CHECK_ST(cgw_set_error(w, CGW_OK, "x", "y"), CGW_EUSAGE);
    CHECK_ST(cgw_error(w), CGW_OK);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK_ST(cgw_set_error(w, CGW_EINVAL, "my_wrapper", "sample %d has no stack", 7),
             CGW_EINVAL);
    CHECK_ST(cgw_error(w), CGW_EINVAL);
    CHECK_STR(cgw_errmsg(w), "my_wrapper: sample 7 has no stack");
    /* the first error stays */
    CHECK_ST(cgw_set_error(w, CGW_ENOMEM, "other", "later"), CGW_EINVAL);
    CHECK_STR(cgw_errmsg(w), "my_wrapper: sample 7 has no stack");
    CHECK_ST(cgw_cost(w, (uint64_t[]){ 1 }, (uint64_t[]){ 1 }, 1), CGW_EINVAL);
    CHECK_ST(cgw_finish(w), CGW_EINVAL);
    CHECK_U64(sink.len, 0); /* the buffer never reached the sink */
    cgw_free(w);
    cgwt_capture_free(&sink);

    /* an error of the writer's own is not replaced */
    char *buf;
    size_t len;
    w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_function(w, "main"), CGW_EUSAGE); /* no event yet */
    CHECK_ST(cgw_set_error(w, CGW_EIO, "my_wrapper", "disk"), CGW_EUSAGE);
    CHECK(strncmp(cgw_errmsg(w), "cgw_function: ", 14) == 0);
    cgw_free(w);
}

static void positions(void)
{
    unsigned kinds[CGW_NPOS_MAX];
    CHECK_U64(cgw_pos_kinds(CGW_POS_LINE, kinds), 1);
    CHECK_U64(kinds[0], CGW_POS_LINE);
    CHECK_U64(cgw_pos_kinds(CGW_POS_LINE | CGW_POS_BB | CGW_POS_INSTR, kinds), 3);
    CHECK(kinds[0] == CGW_POS_INSTR && kinds[1] == CGW_POS_BB && kinds[2] == CGW_POS_LINE);
    CHECK_U64(cgw_pos_kinds(CGW_POS_LINE | CGW_POS_INSTR, kinds), 2);
    CHECK(kinds[0] == CGW_POS_INSTR && kinds[1] == CGW_POS_LINE);
    CHECK_U64(cgw_pos_kinds(8, kinds), 0);
    CHECK_STR(cgw_pos_name(CGW_POS_INSTR), "instr");
    CHECK_STR(cgw_pos_name(CGW_POS_BB), "bb");
    CHECK_STR(cgw_pos_name(CGW_POS_LINE), "line");
    CHECK(cgw_pos_name(3) == NULL);
    CHECK_U64(cgw_pos_kind("instr", 5), CGW_POS_INSTR);
    CHECK_U64(cgw_pos_kind("bb", 2), CGW_POS_BB);
    CHECK_U64(cgw_pos_kind("line", 4), CGW_POS_LINE);
    CHECK_U64(cgw_pos_kind("lines", 4), CGW_POS_LINE); /* len bytes only */
    CHECK_U64(cgw_pos_kind("lin", 3), 0);
    CHECK_U64(cgw_pos_kind("Line", 4), 0);
}

int main(void)
{
    states();
    options();
    bytes();
    set_error();
    positions();
    printf("state, options, bytes, errors and positions as documented\n");
    return 0;
}
