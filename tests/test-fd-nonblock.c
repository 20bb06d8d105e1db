/* SPDX-License-Identifier: MIT */
/* test-fd-nonblock: a non-blocking descriptor that is not ready says
 * EAGAIN; the fd sink and the fd reader wait for it instead of failing.
 * The pipe is made small and its other end slow, so that both sides meet
 * EAGAIN many times (counted through the pipe's fill, not assumed). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* The other end of the pipe: fills it (text) or drains it (into got), a
 * little at a time. */
typedef struct peer {
    int fd;
    const char *text;
    size_t len;
    cgwt_capture got;
} peer;

static void *slow_writer(void *arg)
{
    peer *p = arg;
    for (size_t off = 0; off < p->len;) {
        struct timespec pause = { 0, 50000 };
        nanosleep(&pause, NULL);
        size_t n = p->len - off < 1500 ? p->len - off : 1500;
        ssize_t put = write(p->fd, p->text + off, n);
        if (put < 0 && errno == EINTR)
            continue;
        CHECK(put > 0);
        off += (size_t)put;
    }
    close(p->fd);
    return NULL;
}

static void *slow_drain(void *arg)
{
    peer *p = arg;
    cgwt_drain(p->fd, &p->got, 50000);
    close(p->fd);
    return NULL;
}

/* A pipe whose end `nonblocking` (0 read, 1 write) is O_NONBLOCK, as
 * small as the kernel allows. */
static void small_pipe(int fds[2], int nonblocking)
{
    CHECK(pipe(fds) == 0);
    (void)fcntl(fds[1], F_SETPIPE_SZ, 4096); /* best effort */
    CHECK(fcntl(fds[nonblocking], F_SETFL, O_NONBLOCK) == 0);
}

static cgw_status write_profile(void *unused, cgw_writer *w)
{
    (void)unused;
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "loop"), CGW_OK);
    for (uint64_t i = 0; i < 20000; i++)
        CHECK_ST(cgw_cost(w, (uint64_t[]){ i % 977 + 1 }, (uint64_t[]){ i % 13 + 1 }, 1), CGW_OK);
    return CGW_OK;
}

/* The fd sink into a non-blocking pipe: every byte arrives. */
static void sink(const char *want, size_t wlen)
{
    int fds[2];
    small_pipe(fds, 1);
    peer p = { fds[0], NULL, 0, { 0 } };
    cgwt_capture_init(&p.got, 0, 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, slow_drain, &p) == 0);
    cgw_options o = CGW_OPTIONS_INIT;
    o.buffer_size = 64 << 10; /* more than the pipe holds */
    cgw_writer *w = cgw_open_fd(fds[1], &o);
    write_profile(NULL, w);
    cgw_status st = cgw_finish(w);
    if (st != CGW_OK)
        fprintf(stderr, "%s\n", cgw_errmsg(w));
    CHECK_ST(st, CGW_OK);
    cgw_free(w);
    close(fds[1]);
    pthread_join(t, NULL);
    CHECK(p.got.len == wlen && memcmp(p.got.data, want, wlen) == 0);
    cgwt_capture_free(&p.got);
}

/* The fd reader on a non-blocking pipe: every line read, no error. */
static void reader(const char *text, size_t len)
{
    int fds[2];
    small_pipe(fds, 0);
    peer p = { fds[1], text, len, { 0 } };
    pthread_t t;
    CHECK(pthread_create(&t, NULL, slow_writer, &p) == 0);
    cgw_reader *r = cgw_reader_open_fd(fds[0], NULL);
    CHECK(r != NULL);
    const cgw_record *rec;
    uint64_t total = 0, lines = 0;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_PART_END) {
            total = rec->costs[0];
            lines = rec->cost_lines;
        }
    }
    if (st != CGW_OK)
        fprintf(stderr, "%s\n", cgw_reader_errmsg(r));
    CHECK_ST(st, CGW_OK);
    uint64_t errors = 1;
    cgw_reader_counts(r, &errors, NULL);
    CHECK_U64(errors, 0);
    CHECK_U64(lines, 20000);
    uint64_t want = 0;
    for (uint64_t i = 0; i < 20000; i++)
        want += i % 13 + 1;
    CHECK_U64(total, want);
    cgw_reader_close(r);
    pthread_join(t, NULL);
    close(fds[0]);
}

int main(void)
{
    size_t wlen;
    char *want = cgwt_write_checked(write_profile, NULL, NULL, &wlen);
    sink(want, wlen);
    reader(want, wlen);
    printf("%zu bytes written and read through non-blocking pipes\n", wlen);
    free(want);
    return 0;
}
