/* SPDX-License-Identifier: MIT */
/* test-options: the options structs can grow.  A struct as a later
 * libcgw's header would declare it (this one and more members, zero) is
 * read as this one; a member of it this library does not know, set, is
 * refused; a struct_size below this release's is refused, by every call
 * that takes options, with the documented status and a message that says
 * what to do. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char profile[] = "events: Ir\nfn=main\n1 5\n";

/* Each struct as a later header might declare it: two more members. */
typedef struct { cgw_options o; uint64_t later[2]; } w_later;
typedef struct { cgw_read_options o; uint64_t later[2]; } r_later;
typedef struct { cgw_gen_options o; uint64_t later[2]; } g_later;
typedef struct { cgw_merge_options o; uint64_t later[2]; } m_later;

/* The sizes tried: too small (0, one member short) and too large with
 * the later members set; each must be refused. */
static size_t bad_size(int i, size_t own, size_t later)
{
    return i == 0 ? 0 : i == 1 ? own - sizeof(void *) : later;
}

static void writer(void)
{
    w_later l = { .o = CGW_OPTIONS_INIT };
    char *buf;
    size_t len;
    l.o.struct_size = sizeof l;
    l.o.positions = CGW_POS_INSTR | CGW_POS_LINE;
    l.o.flags = CGW_COMPACT;
    cgw_writer *w = cgw_open_memory(&buf, &len, &l.o);
    CHECK(w != NULL);
    w_later got;
    memset(&got, 0xff, sizeof got);
    got.o.struct_size = sizeof got;
    CHECK_ST(cgw_get_options(w, &got.o), CGW_OK);
    CHECK_U64(got.o.struct_size, sizeof got);
    CHECK_U64(got.o.positions, CGW_POS_INSTR | CGW_POS_LINE);
    CHECK_U64(got.o.flags, CGW_COMPACT);
    CHECK_U64(got.later[0], 0); /* what it does not know is zeroed */
    CHECK_U64(got.later[1], 0);
    cgw_options small = CGW_OPTIONS_INIT;
    small.struct_size = 4;
    small.positions = 77;
    CHECK_ST(cgw_get_options(w, &small), CGW_EINVAL);
    CHECK_U64(small.positions, 77); /* untouched */
    cgw_free(w);

    for (int i = 0; i < 3; i++) {
        l.later[1] = 1;
        l.o.struct_size = bad_size(i, sizeof l.o, sizeof l);
        errno = 0;
        CHECK(cgw_open_memory(&buf, &len, &l.o) == NULL);
        CHECK_U64((uint64_t)errno, EINVAL);
        CHECK(cgw_open_fd(1, &l.o) == NULL && errno == EINVAL);
    }
}

static void reader(void)
{
    r_later l = { .o = CGW_READ_OPTIONS_INIT };
    l.o.struct_size = sizeof l;
    l.o.flags = CGW_READ_CHECK;
    cgw_reader *r = cgw_reader_open_memory(profile, sizeof profile - 1, &l.o);
    CHECK(r != NULL);
    const cgw_record *rec;
    uint64_t costs = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        costs += rec->kind == CGW_REC_COST;
    CHECK_U64(costs, 1);
    cgw_reader_close(r);
    uint64_t diffs = 9;
    CHECK_ST(cgw_roundtrip(NULL, profile, sizeof profile - 1, &l.o, &diffs), CGW_OK);
    CHECK_U64(diffs, 0);

    for (int i = 0; i < 3; i++) {
        l.later[0] = 1;
        l.o.struct_size = bad_size(i, sizeof l.o, sizeof l);
        errno = 0;
        CHECK(cgw_reader_open_memory(profile, sizeof profile - 1, &l.o) == NULL);
        CHECK_U64((uint64_t)errno, EINVAL);
        CHECK_ST(cgw_roundtrip(NULL, profile, sizeof profile - 1, &l.o, NULL), CGW_EINVAL);
    }
}

static void generator(void)
{
    g_later l = { .o = CGW_GEN_OPTIONS_INIT };
    char *buf;
    size_t len;
    l.o.struct_size = sizeof l;
    l.o.functions = 5;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_generate(w, &l.o), CGW_OK);
    CHECK_ST(cgw_finish(w), CGW_OK);
    CHECK(strstr(buf, "fn=") != NULL);
    cgw_free(w);
    free(buf);

    for (int i = 0; i < 3; i++) {
        l.later[1] = 3;
        l.o.struct_size = bad_size(i, sizeof l.o, sizeof l);
        w = cgw_open_memory(&buf, &len, NULL);
        CHECK_ST(cgw_generate(w, &l.o), CGW_EINVAL);
        CHECK(strstr(cgw_errmsg(w), "cgw_generate") != NULL);
        CHECK(strstr(cgw_errmsg(w), "CGW_GEN_OPTIONS_INIT") != NULL);
        cgw_free(w);
    }
}

static void merger(void)
{
    m_later l = { .o = CGW_MERGE_OPTIONS_INIT };
    l.o.struct_size = sizeof l;
    l.o.mod_funcname = "s/main/top/";
    cgw_merger *m = cgw_merge_new(&l.o);
    CHECK_ST(cgw_merge_error(m), CGW_OK);
    cgw_reader *r = cgw_reader_open_memory(profile, sizeof profile - 1, NULL);
    CHECK_ST(cgw_merge_add(m, r), CGW_OK);
    cgw_reader_close(r);
    char *buf;
    size_t len;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_merge_write(m, w), CGW_OK);
    CHECK_ST(cgw_finish(w), CGW_OK);
    CHECK(strstr(buf, "top") != NULL && strstr(buf, "main") == NULL); /* rewritten */
    cgw_free(w);
    free(buf);
    cgw_merge_free(m);

    for (int i = 0; i < 3; i++) {
        l.later[0] = 2;
        l.o.struct_size = bad_size(i, sizeof l.o, sizeof l);
        m = cgw_merge_new(&l.o);
        CHECK(m != NULL);
        CHECK_ST(cgw_merge_error(m), CGW_EINVAL);
        CHECK(strstr(cgw_merge_errmsg(m), "CGW_MERGE_OPTIONS_INIT") != NULL);
        cgw_merge_free(m);
        cgw_differ *d = cgw_diff_new(&l.o);
        CHECK(d != NULL);
        CHECK_ST(cgw_diff_error(d), CGW_EINVAL);
        CHECK(strstr(cgw_diff_errmsg(d), "struct_size") != NULL);
        cgw_diff_free(d);
    }
}

int main(void)
{
    writer();
    reader();
    generator();
    merger();
    printf("test-options: ok\n");
    return 0;
}
