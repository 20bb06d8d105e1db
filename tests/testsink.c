/* SPDX-License-Identifier: MIT */
/* testsink.c - where the tests' memory and bytes go (see testutil.h): the
 * failing allocator and its loop, the capture sink, lists of lines, and
 * profiles written through a callback of the test. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* ------------------------------------------------------------ allocator */

static void *t_malloc(void *ctx, size_t n)
{
    cgwt_alloc *t = ctx;
    if (++t->calls == t->fail_at)
        return NULL;
    void *p = malloc(n);
    if (p)
        t->live++;
    return p;
}

static void *t_realloc(void *ctx, void *old, size_t n)
{
    cgwt_alloc *t = ctx;
    if (++t->calls == t->fail_at)
        return NULL;
    void *p = realloc(old, n);
    if (p && old == NULL)
        t->live++;
    return p;
}

static void t_free(void *ctx, void *p)
{
    cgwt_alloc *t = ctx;
    if (p) {
        t->live--;
        free(p);
    }
}

void cgwt_alloc_init(cgwt_alloc *t, long fail_at)
{
    memset(t, 0, sizeof *t);
    t->fail_at = fail_at;
    t->a.malloc = t_malloc;
    t->a.realloc = t_realloc;
    t->a.free = t_free;
    t->a.ctx = t;
}

/* ----------------------------------------------------------------- sink */

void cgwt_each_alloc_fail(cgwt_attempt_fn attempt, void *ctx)
{
    for (long k = 1;; k++) {
        cgwt_alloc al;
        cgwt_alloc_init(&al, k);
        cgw_status st = attempt(&al.a, ctx);
        CHECK_U64((uint64_t)al.live, 0);
        if (st == CGW_OK)
            return;
        CHECK_ST(st, CGW_ENOMEM);
        CHECK(al.calls >= k); /* the failure was the allocator's */
    }
}

void cgwt_capture_init(cgwt_capture *c, long fail_at, int fail_errno)
{
    memset(c, 0, sizeof *c);
    c->fail_at = fail_at;
    c->fail_errno = fail_errno;
}

int cgwt_capture_write(void *ctx, const char *buf, size_t len)
{
    cgwt_capture *c = ctx;
    if (++c->calls == c->fail_at) {
        errno = c->fail_errno;
        return -1;
    }
    if (c->cap - c->len < len + 1) {
        while (c->cap - c->len < len + 1)
            c->cap = c->cap ? c->cap * 2 : 4096;
        c->data = realloc(c->data, c->cap);
        if (c->data == NULL)
            cgwt_fail(__FILE__, __LINE__, "out of memory capturing");
    }
    memcpy(c->data + c->len, buf, len);
    c->len += len;
    c->data[c->len] = '\0';
    return 0;
}

cgw_writer *cgwt_capture_open(cgwt_capture *c, const cgw_options *opts)
{
    cgwt_capture_init(c, 0, 0);
    return cgw_open_callback(cgwt_capture_write, c, opts);
}

void cgwt_capture_free(cgwt_capture *c)
{
    free(c->data);
    memset(c, 0, sizeof *c);
}

void cgwt_capture_add(cgwt_capture *c, const char *text, size_t len)
{
    long fail_at = c->fail_at;
    c->fail_at = 0; /* an addition by hand never fails */
    cgwt_capture_write(c, text, len);
    c->fail_at = fail_at;
}

void cgwt_capture_str(cgwt_capture *c, const char *s)
{
    cgwt_capture_add(c, s, strlen(s));
}

void cgwt_drain(int fd, cgwt_capture *c, long pause_ns)
{
    char buf[3000];
    for (;;) {
        struct timespec pause = { 0, pause_ns };
        nanosleep(&pause, NULL);
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return;
        cgwt_capture_write(c, buf, (size_t)got);
    }
}

void cgwt_refused(const char *file, int line, cgw_writer *w, const cgwt_capture *c,
                  size_t before, cgw_status want, const char *name, const char *why)
{
    static const uint64_t one[1] = { 1 };
    const char *msg = cgw_errmsg(w);
    size_t n = strlen(name);
    if (c->len != before)
        cgwt_fail(file, line, "%s wrote %zu bytes although refused", name, c->len - before);
    if (strncmp(msg, name, n) != 0 || strncmp(msg + n, ": ", 2) != 0)
        cgwt_fail(file, line, "message \"%s\" does not name %s", msg, name);
    if (why != NULL && strstr(msg, why) == NULL)
        cgwt_fail(file, line, "message \"%s\" does not say \"%s\"", msg, why);
    cgwt_check_status(file, line, "a cost line after the error", cgw_cost(w, one, one, 1),
                      want);
    cgwt_check_status(file, line, "cgw_finish() after the error", cgw_finish(w), want);
    if (c->len != before)
        cgwt_fail(file, line, "%s: bytes written after the error", name);
    cgw_free(w);
}

/* ---------------------------------------------------------------- lines */

void cgwt_lines_add(cgwt_lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->lines = realloc(l->lines, l->cap * sizeof *l->lines);
        CHECK(l->lines != NULL);
    }
    l->lines[l->n] = strdup(s);
    CHECK(l->lines[l->n] != NULL);
    l->n++;
}

static int cmp_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void cgwt_lines_sort(cgwt_lines *l)
{
    qsort(l->lines, l->n, sizeof *l->lines, cmp_lines);
}

char *cgwt_lines_join(cgwt_lines *l, const char *sep)
{
    cgwt_capture out;
    cgwt_capture_init(&out, 0, 0);
    cgwt_lines_sort(l);
    for (size_t i = 0; i < l->n; i++) {
        cgwt_capture_str(&out, l->lines[i]);
        cgwt_capture_str(&out, i + 1 < l->n ? sep : "");
        free(l->lines[i]);
    }
    free(l->lines);
    memset(l, 0, sizeof *l);
    return out.data != NULL ? out.data : strdup("");
}

/* ------------------------------------------------------------ writing */

char *cgwt_write_checked(cgwt_write_fn write, void *obj, const cgw_options *opts, size_t *len)
{
    char *out;
    cgw_writer *w = cgw_open_memory(&out, len, opts);
    CHECK(w != NULL);
    cgw_status st = write(obj, w);
    if (st == CGW_OK)
        st = cgw_finish(w);
    if (st != CGW_OK)
        cgwt_fail(__FILE__, __LINE__, "writing: %s", cgw_errmsg(w));
    cgw_free(w);
    cgwt_readback(out, *len, NULL);
    cgwt_annotate_parts(out, *len);
    return out;
}

cgw_status cgwt_write_captured(cgwt_write_fn write, void *obj)
{
    cgwt_capture cap;
    cgw_writer *w = cgwt_capture_open(&cap, NULL);
    cgw_status st = w == NULL ? CGW_ENOMEM : write(obj, w);
    if (w != NULL)
        CHECK_ST(cgw_close(w), st);
    CHECK(st != CGW_OK || cap.len > 0);
    cgwt_capture_free(&cap);
    return st;
}
