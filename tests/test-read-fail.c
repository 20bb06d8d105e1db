/* SPDX-License-Identifier: MIT */
/* test-read-fail: the reader through a read callback that gives short
 * reads, EINTR, and then fails with EIO at read number N, for every N;
 * and the reader whose allocation number N fails, for every N.  Short
 * reads and EINTR change nothing (the records equal those read from
 * memory); a failure ends the read with CGW_EIO or CGW_ENOMEM and a
 * message, never a crash or a leak (the allocator counts live blocks). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct source {
    const char *data;
    size_t len, off;
    long calls, fail_at;
    int fail_errno;
} source;

/* 1 to 37 bytes a call, EINTR every fifth call, errno at call fail_at. */
static long serve(void *ctx, char *buf, size_t len)
{
    source *s = ctx;
    long call = ++s->calls;
    if (call == s->fail_at) {
        errno = s->fail_errno;
        return -1;
    }
    if (call % 5 == 0) {
        errno = EINTR;
        return -1;
    }
    return cgwt_serve(s->data, s->len, &s->off, buf, len, 1 + (size_t)(call * 7 % 37));
}

/* A callback that fills the buffer and says it gave one byte more. */
static long too_much(void *ctx, char *buf, size_t len)
{
    (void)ctx;
    memset(buf, '\n', len);
    return (long)len + 1;
}

/* Every record of r, one line each ("kind function costs"), until the end
 * or an error; the status in *st. */
static char *records(cgw_reader *r, cgw_status *st)
{
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    CHECK(out != NULL);
    const cgw_record *rec;
    while ((*st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (len + 512 > cap)
            CHECK((out = realloc(out, cap *= 2)) != NULL);
        len += (size_t)snprintf(out + len, cap - len, "%d %s %llu\n", (int)rec->kind,
                                rec->function ? rec->function : "-",
                                rec->costs ? (unsigned long long)rec->costs[0] : 0ull);
    }
    out[len] = '\0';
    return out;
}

int main(void)
{
    size_t len;
    char *text = cgwt_run_memory(cgwt_scenario_named("rich"), 0, NULL, &len);
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    cgw_status st;
    char *want = records(r, &st);
    CHECK_ST(st, CGW_OK);
    cgw_reader_close(r);

    /* short reads and EINTR only */
    source s = { text, len, 0, 0, 0, 0 };
    r = cgw_reader_open_callback(serve, &s, NULL);
    CHECK(r != NULL);
    char *got = records(r, &st);
    CHECK_ST(st, CGW_OK);
    CHECK_STR(got, want);
    cgw_reader_close(r);
    free(got);
    long calls = s.calls;

    /* a failure at every read, EIO and ENOSPC-like errors alike */
    for (long n = 1; n <= calls; n++) {
        if (n % 5 == 0)
            continue; /* that call gives EINTR */
        cgwt_alloc a;
        cgwt_alloc_init(&a, 0);
        cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK,
                               .allocator = &a.a };
        s = (source){ text, len, 0, 0, n, n % 2 ? EIO : ENOSPC };
        r = cgw_reader_open_callback(serve, &s, &o);
        CHECK(r != NULL);
        got = records(r, &st);
        CHECK_ST(st, CGW_EIO);
        CHECK(strstr(cgw_reader_errmsg(r), "cannot read") != NULL);
        CHECK_ST(cgw_reader_next(r, &(const cgw_record *){ NULL }), CGW_EIO); /* sticky */
        cgw_reader_close(r);
        CHECK_U64((uint64_t)a.live, 0);
        free(got);
    }
    CHECK(cgw_reader_open_callback(NULL, NULL, NULL) == NULL && errno == EINVAL);

    /* a callback that says it gave more bytes than the buffer holds */
    r = cgw_reader_open_callback(too_much, NULL, NULL);
    CHECK(r != NULL);
    got = records(r, &st);
    CHECK_ST(st, CGW_EIO);
    CHECK(strstr(cgw_reader_errmsg(r), "bytes for a buffer of") != NULL);
    cgw_reader_close(r);
    free(got);

    /* allocation number n fails, for every n until none is left to fail */
    long n = 1;
    for (;; n++) {
        cgwt_alloc a;
        cgwt_alloc_init(&a, n);
        cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK,
                               .allocator = &a.a };
        r = cgw_reader_open_memory(text, len, &o);
        if (r == NULL) {
            CHECK(errno == ENOMEM);
            CHECK_U64((uint64_t)a.live, 0);
            continue;
        }
        got = records(r, &st);
        int failed = a.calls >= n;
        CHECK_ST(st, failed ? CGW_ENOMEM : CGW_OK);
        if (failed)
            CHECK(strstr(cgw_reader_errmsg(r), "out of memory") != NULL);
        else
            CHECK_STR(got, want);
        cgw_reader_close(r);
        CHECK_U64((uint64_t)a.live, 0);
        free(got);
        if (!failed)
            break;
    }
    free(want);
    free(text);
    printf("%ld reads: short reads and EINTR change nothing; a failure at any of them "
           "ends in CGW_EIO with no leak; so does each of %ld allocations with CGW_ENOMEM\n",
           calls, n - 1);
    return 0;
}
