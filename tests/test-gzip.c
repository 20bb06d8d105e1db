/* SPDX-License-Identifier: MIT */
/* test-gzip: gzip input on every kind of input.  A generated profile
 * (over three read blocks) is compressed by gzip(1), and read as a path,
 * a mapped path, a descriptor, a pipe, a callback of short reads and
 * memory: each gives the records of the plain text exactly, and one
 * gzip-input warning.  Several members (split inside a line, with an empty
 * member between) read as one text.  Truncated, corrupt and trailing
 * bytes end the read with CGW_EIO and a message naming the compressed
 * byte, never a crash.  Allocation failures at every point give ENOMEM
 * without a leak.  Built without zlib (CGW_HAVE_ZLIB=no), every kind gets
 * one clear error instead. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static int have_zlib;

/* The diagnostics of a read: gzip-input warnings and all of them. */
typedef struct diags {
    int gzip, all;
} diags;

static void on_diag(void *ctx, const cgw_diagnostic *d)
{
    diags *g = ctx;
    g->all++;
    if (strcmp(d->code, "gzip-input") == 0) {
        CHECK(d->severity == CGW_WARNING && d->line == 0);
        CHECK(strstr(d->message, "callgrind_annotate") != NULL);
        g->gzip++;
    }
}

static char *slurp_path(const char *dir, const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return cgwt_read_file(path, len);
}

static void put_file(const char *dir, const char *name, const char *p, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(p, 1, len, f) == len && fclose(f) == 0);
}

static void sh(const char *dir, const char *cmd)
{
    char line[1024];
    snprintf(line, sizeof line, "cd '%s' && %s", dir, cmd);
    if (system(line) != 0)
        cgwt_fail(__FILE__, __LINE__, "command failed: %s", line);
}

/* A callback source: short reads (1 byte first, so the magic bytes
 * arrive apart), then up to 4093 bytes a call. */
typedef struct source {
    const char *p;
    size_t len, off;
    long calls;
} source;

static long serve(void *ctx, char *buf, size_t len)
{
    source *s = ctx;
    return cgwt_serve(s->p, s->len, &s->off, buf, len, ++s->calls == 1 ? 1 : 4093);
}

/* A callback read ends at its first 0: the reader never calls it again
 * (short inputs end while the first read looks for the magic bytes). */
static long once(void *ctx, char *buf, size_t len)
{
    source *s = ctx;
    CHECK(s->calls >= 0);
    long n = serve(ctx, buf, len);
    if (n == 0)
        s->calls = -1000000;
    return n;
}

static void ends_once(const char *p, size_t len, cgw_status want)
{
    source src = { p, len, 0, 0 };
    cgw_reader *r = cgw_reader_open_callback(once, &src, NULL);
    const cgw_record *rec;
    cgw_status st;
    CHECK(r != NULL);
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        ;
    CHECK_ST(st, want);
    CHECK(src.calls < 0);
    cgw_reader_close(r);
}

/* Every record of r equals the next one of the plain text's reader; the
 * end comes together.  Returns r's final status, its message in msg.
 * A stream corrupted inside its deflate data may inflate to other text
 * before zlib notices (at the latest, by the CRC at the member's end):
 * then (compare_all 0) records are compared only while r gives none in
 * error. */
static int compare_all = 1;

static cgw_status same_records(cgw_reader *r, const char *plain, size_t plain_len,
                               char *msg, size_t cap)
{
    cgw_reader *want = cgw_reader_open_memory(plain, plain_len, NULL);
    CHECK(want != NULL);
    const cgw_record *a, *b;
    cgw_status st;
    uint64_t n = 0;
    char why[256];
    while ((st = cgw_reader_next(r, &a)) == CGW_OK && a != NULL) {
        if (!compare_all)
            continue;
        CHECK_ST(cgw_reader_next(want, &b), CGW_OK);
        CHECK(b != NULL);
        if (cgw_record_compare(a, b, why, sizeof why) != 0)
            cgwt_fail(__FILE__, __LINE__, "record %llu differs: %s", (unsigned long long)n, why);
        n++;
    }
    if (st == CGW_OK) {
        CHECK_ST(cgw_reader_next(want, &b), CGW_OK);
        CHECK(b == NULL);
        CHECK(n > 1000);
    }
    snprintf(msg, cap, "%s", cgw_reader_errmsg(r));
    cgw_reader_close(r);
    cgw_reader_close(want);
    return st;
}

enum { K_PATH, K_MAP, K_FD, K_PIPE, K_CALLBACK, K_MEMORY, NKINDS };
static const char *const kind_names[NKINDS] = { "path", "mapped path", "fd", "pipe",
                                                "callback", "memory" };

/* The writer of a pipe: a thread of the test (a forked child would end
 * with the parent's heap still reachable, which memcheck makes its exit
 * status), writing all of gz unless the reader closed its end first
 * (EPIPE: SIGPIPE is ignored). */
typedef struct feeder {
    pthread_t thread;
    int fd;
    const char *gz;
    size_t len;
} feeder;

static void *feed(void *arg)
{
    feeder *f = arg;
    for (size_t off = 0; off < f->len;) {
        ssize_t n = write(f->fd, f->gz + off, f->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    close(f->fd);
    return NULL;
}

/* Open a reader of kind on the bytes gz[0..len) (also at dir/in.gz). */
static cgw_reader *open_kind(int kind, const char *dir, const char *gz, size_t len,
                             cgw_read_options *o, source *src, int *fd, feeder *pipe_feeder)
{
    char path[512];
    snprintf(path, sizeof path, "%s/in.gz", dir);
    put_file(dir, "in.gz", gz, len);
    *fd = -1;
    pipe_feeder->fd = -1;
    o->flags = kind == K_MAP ? CGW_READ_MAP : 0;
    if (kind == K_PATH || kind == K_MAP)
        return cgw_reader_open_path(path, o);
    if (kind == K_FD) {
        CHECK((*fd = open(path, O_RDONLY)) >= 0);
        return cgw_reader_open_fd(*fd, o);
    }
    if (kind == K_PIPE) {
        int p[2];
        CHECK(pipe(p) == 0);
        *pipe_feeder = (feeder){ .fd = p[1], .gz = gz, .len = len };
        CHECK(pthread_create(&pipe_feeder->thread, NULL, feed, pipe_feeder) == 0);
        *fd = p[0];
        return cgw_reader_open_fd(*fd, o);
    }
    if (kind == K_CALLBACK) {
        *src = (source){ gz, len, 0, 0 };
        return cgw_reader_open_callback(serve, src, o);
    }
    return cgw_reader_open_memory(gz, len, o);
}

static void close_kind(int fd, feeder *pipe_feeder)
{
    if (fd >= 0)
        close(fd); /* a feeder still writing gets EPIPE and ends */
    if (pipe_feeder->fd >= 0)
        CHECK(pthread_join(pipe_feeder->thread, NULL) == 0);
}

/* Read gz as every kind: records equal to plain's, want_st at the end
 * with want_msg in the message (NULL: anything). */
static void read_every_kind(const char *dir, const char *gz, size_t len, const char *plain,
                            size_t plain_len, cgw_status want_st, const char *want_msg)
{
    for (int k = 0; k < NKINDS; k++) {
        diags g = { 0, 0 };
        cgw_read_options o = { .struct_size = sizeof o, .diag = on_diag, .diag_ctx = &g };
        source src;
        int fd;
        feeder pipe_feeder;
        cgw_reader *r = open_kind(k, dir, gz, len, &o, &src, &fd, &pipe_feeder);
        if (r == NULL)
            cgwt_fail(__FILE__, __LINE__, "%s: open failed: %s", kind_names[k], strerror(errno));
        char msg[512];
        cgw_status st = same_records(r, plain, plain_len, msg, sizeof msg);
        close_kind(fd, &pipe_feeder);
        if (st != want_st || (want_msg != NULL && strstr(msg, want_msg) == NULL))
            cgwt_fail(__FILE__, __LINE__, "%s: status %d, message \"%s\"; wanted %d and \"%s\"",
                      kind_names[k], (int)st, msg, (int)want_st, want_msg ? want_msg : "");
        CHECK(g.gzip == (have_zlib ? 1 : 0));
        if (!have_zlib)
            CHECK(g.all == 0); /* one error, nothing else */
    }
}

enum { S_MEMORY, S_PATH, S_FD, S_CALLBACK, NSINKS };

static void generate(cgw_writer *w)
{
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = 28;
    g.size = 400 << 10; /* over three 128 KiB read blocks */
    CHECK(w != NULL);
    CHECK_ST(cgw_generate(w, &g), CGW_OK);
    CHECK_ST(cgw_finish(w), CGW_OK);
}

/* The generated profile written with flags through sink; *written gets
 * cgw_bytes_written(). */
static char *profile(unsigned flags, int sink, size_t *len, uint64_t *written)
{
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_LINE, .flags = flags };
    const char *dir = cgwt_tmpdir();
    char *text = NULL;
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    int fd = -1;
    cgw_writer *w = sink == S_MEMORY ? cgw_open_memory(&text, len, &o)
                  : sink == S_CALLBACK ? cgw_open_callback(cgwt_capture_write, &c, &o)
                  : NULL;
    if (sink == S_PATH) {
        char path[512];
        snprintf(path, sizeof path, "%s/out.gz", dir);
        w = cgw_open_path(path, &o);
    } else if (sink == S_FD) {
        char path[512];
        snprintf(path, sizeof path, "%s/out.gz", dir);
        CHECK((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) >= 0);
        w = cgw_open_fd(fd, &o);
    }
    generate(w);
    *written = cgw_bytes_written(w);
    cgw_free(w);
    if (fd >= 0)
        CHECK(close(fd) == 0);
    if (sink == S_PATH || sink == S_FD)
        text = slurp_path(dir, "out.gz", len);
    if (sink == S_CALLBACK) {
        text = c.data;
        *len = c.len;
    }
    return text;
}

/* Truncated and corrupt streams, bytes after the last member: CGW_EIO
 * with the compressed byte named. */
static void broken_streams(const char *dir, const char *gz, size_t len, const char *plain,
                           size_t plain_len)
{
    size_t cuts[] = { 2, 10, len / 2, len - 1 };
    char want[128];
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        snprintf(want, sizeof want, "ends after %zu bytes, inside gzip member 1", cuts[i]);
        read_every_kind(dir, gz, cuts[i], plain, plain_len, CGW_EIO, want);
    }
    char *bad = malloc(len + 8);
    CHECK(bad != NULL);
    memcpy(bad, gz, len);
    bad[2] = 9; /* compression method: only 8 (deflate) exists */
    read_every_kind(dir, bad, len, plain, plain_len, CGW_EIO,
                    "corrupt compressed data before offset 4, in gzip member 1");
    memcpy(bad, gz, len);
    bad[len - 2] ^= 0x55; /* the length in the trailer */
    read_every_kind(dir, bad, len, plain, plain_len, CGW_EIO, "(zlib: incorrect length check)");
    memcpy(bad, gz, len);
    for (size_t i = len / 3; i < len / 3 + 64; i++)
        bad[i] = (char)(i * 131);
    compare_all = 0;
    read_every_kind(dir, bad, len, plain, plain_len, CGW_EIO, "corrupt compressed data before offset");
    compare_all = 1;
    memcpy(bad, gz, len);
    memcpy(bad + len, "xyz", 3);
    snprintf(want, sizeof want, "the byte at offset %zu, after the end of gzip member 1, is 0x78", len);
    read_every_kind(dir, bad, len + 3, plain, plain_len, CGW_EIO, want);
    free(bad);
}

/* The text split inside a line into two members with an empty one
 * between, as cat a.gz empty.gz b.gz gives. */
static void members(const char *dir, const char *plain, size_t plain_len)
{
    size_t half = plain_len / 2;
    while (plain[half - 1] == '\n' || plain[half] == '\n')
        half++; /* inside a line */
    CHECK(half < plain_len);
    put_file(dir, "a", plain, half);
    put_file(dir, "b", plain + half, plain_len - half);
    put_file(dir, "empty", "", 0);
    sh(dir, "gzip -c a > m.gz && gzip -c empty >> m.gz && gzip -1 -c b >> m.gz");
    size_t len;
    char *gz = slurp_path(dir, "m.gz", &len);
    read_every_kind(dir, gz, len, plain, plain_len, CGW_OK, NULL);
    free(gz);
}

/* Failing allocation number n, for every n, on memory and callback
 * input: ENOMEM (at open or from cgw_reader_next), never a leak. */
static void alloc_failures(const char *gz, size_t len)
{
    for (int kind = 0; kind < 2; kind++) {
        int done = 0;
        for (long n = 1; !done && n < 10000; n++) {
            cgwt_alloc t;
            cgwt_alloc_init(&t, n);
            cgw_read_options o = { .struct_size = sizeof o, .allocator = &t.a };
            source src = { gz, len, 0, 0 };
            cgw_reader *r = kind ? cgw_reader_open_callback(serve, &src, &o)
                                 : cgw_reader_open_memory(gz, len, &o);
            const cgw_record *rec;
            cgw_status st = CGW_ENOMEM;
            if (r != NULL)
                while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
                    ;
            CHECK(r != NULL || errno == ENOMEM);
            CHECK(st == CGW_OK || st == CGW_ENOMEM);
            cgw_reader_close(r);
            CHECK(t.live == 0);
            done = st == CGW_OK && t.calls < n;
        }
        CHECK(done);
    }
}

/* Decompressed by gzip(1): the bytes plain has. */
static void same_text(const char *dir, const char *gz, size_t len, const char *plain,
                      size_t plain_len)
{
    CHECK(len > 18 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);
    put_file(dir, "w.gz", gz, len);
    sh(dir, "gzip -dc w.gz > w.txt");
    size_t n;
    char *text = slurp_path(dir, "w.txt", &n);
    CHECK_U64(n, plain_len);
    CHECK(memcmp(text, plain, n) == 0);
    free(text);
}

/* CGW_GZIP through every sink: gzip -d gives the plain output byte for
 * byte; libcgw's reader reads the records back; cgw_bytes_written()
 * counts the text. */
static void write_every_sink(const char *dir, const char *plain, size_t plain_len)
{
    char *first = NULL;
    size_t first_len = 0;
    for (int sink = 0; sink < NSINKS; sink++) {
        size_t len;
        uint64_t written;
        char *gz = profile(CGW_GZIP, sink, &len, &written);
        CHECK_U64(written, plain_len);
        CHECK(len < plain_len / 2);
        if (first != NULL) /* the same bytes from every sink */
            CHECK(len == first_len && memcmp(gz, first, len) == 0);
        same_text(dir, gz, len, plain, plain_len);
        char msg[256];
        CHECK_ST(same_records(cgw_reader_open_memory(gz, len, NULL), plain, plain_len, msg,
                              sizeof msg), CGW_OK);
        if (first == NULL) {
            first = gz;
            first_len = len;
        } else {
            free(gz);
        }
    }
    free(first);
    /* the text once through the reader's checks and callgrind_annotate */
    cgwt_readback(plain, plain_len, NULL);
    cgwt_annotate_parts(plain, plain_len);
}

/* Levels 1 and 9 give the same text; 9 is smaller.  Bad levels are
 * refused. */
static void write_levels(const char *dir, const char *plain, size_t plain_len)
{
    size_t len1, len9;
    uint64_t written;
    char *gz1 = profile(CGW_GZIP | CGW_GZIP_LEVEL(1), S_MEMORY, &len1, &written);
    char *gz9 = profile(CGW_GZIP | CGW_GZIP_LEVEL(9), S_MEMORY, &len9, &written);
    same_text(dir, gz1, len1, plain, plain_len);
    same_text(dir, gz9, len9, plain, plain_len);
    CHECK(len9 < len1);
    free(gz1);
    free(gz9);
    char *buf;
    size_t len;
    cgw_options o = { .struct_size = sizeof o, .flags = CGW_GZIP | CGW_GZIP_LEVEL(10) };
    errno = 0;
    CHECK(cgw_open_memory(&buf, &len, &o) == NULL && errno == EINVAL);
    o.flags = CGW_GZIP_LEVEL(3);
    errno = 0;
    CHECK(cgw_open_memory(&buf, &len, &o) == NULL && errno == EINVAL);
}

/* A gzip path output that fails leaves the old file and no temporary
 * file; one that succeeds replaces it whole. */
static void write_atomic(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/atomic.gz", dir);
    put_file(dir, "atomic.gz", "old\n", 4);
    cgw_options o = { .struct_size = sizeof o, .flags = CGW_GZIP };
    cgw_writer *w = cgw_open_path(path, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK_ST(cgw_set_error(w, CGW_EINVAL, "test", "stop here"), CGW_EINVAL);
    CHECK_ST(cgw_close(w), CGW_EINVAL);
    size_t n;
    char *old = slurp_path(dir, "atomic.gz", &n);
    CHECK(n == 4 && memcmp(old, "old\n", 4) == 0);
    free(old);
    sh(dir, "! ls -a | grep -q 'atomic.gz.cgw-'");
    w = cgw_open_path(path, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_OK);
    CHECK_ST(cgw_cost(w, (uint64_t[]){ 3 }, (uint64_t[]){ 7 }, 1), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    sh(dir, "gzip -dc atomic.gz | grep -qx 'totals: 7' && ! ls -a | grep -q 'atomic.gz.cgw-'");
    cgw_reader *r = cgw_reader_open_path(path, NULL);
    const cgw_record *rec;
    int ends = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END && rec->costs[0] == 7 && rec->totals_line != NULL &&
            rec->totals_line[0] == 7)
            ends++;
    CHECK_STR(cgw_reader_errmsg(r), "");
    CHECK(ends == 1);
    cgw_reader_close(r);
}

/* The sink failing at each of its writes (the trailer's included), and
 * each allocation failing: EIO or ENOMEM, never a crash or a leak. */
static void write_failures(void)
{
    for (long k = 1;; k++) {
        cgwt_capture c;
        cgwt_capture_init(&c, k, ENOSPC);
        cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_LINE, .flags = CGW_GZIP,
                          .buffer_size = 4096 };
        cgw_writer *w = cgw_open_callback(cgwt_capture_write, &c, &o);
        CHECK(w != NULL);
        cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
        g.size = 1 << 20; /* several 64 KiB blocks of gzip */
        cgw_generate(w, &g);
        cgw_status st = cgw_finish(w);
        if (st != CGW_OK)
            CHECK(strstr(cgw_errmsg(w), "No space left on device") != NULL);
        cgw_free(w);
        long calls = c.calls;
        cgwt_capture_free(&c);
        if (calls < k) {
            CHECK_ST(st, CGW_OK);
            CHECK(k > 4);
            break;
        }
        CHECK_ST(st, CGW_EIO);
    }
    for (long n = 1;; n++) {
        cgwt_alloc t;
        cgwt_alloc_init(&t, n);
        char *buf = NULL;
        size_t len;
        cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_LINE, .flags = CGW_GZIP,
                          .allocator = &t.a };
        cgw_writer *w = cgw_open_memory(&buf, &len, &o);
        cgw_status st = CGW_ENOMEM;
        if (w != NULL) {
            cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
            cgw_generate(w, &g);
            st = cgw_close(w);
        }
        CHECK(w != NULL || errno == ENOMEM);
        if (st == CGW_OK)
            t.a.free(t.a.ctx, buf);
        CHECK(t.live == 0);
        if (st == CGW_OK && t.calls < n)
            break;
        CHECK_ST(st, CGW_ENOMEM);
    }
}

int main(void)
{
    const char *env = getenv("CGW_HAVE_ZLIB");
    if (env == NULL)
        cgwt_fail(__FILE__, __LINE__, "CGW_HAVE_ZLIB is not set (make check sets it)");
    have_zlib = strcmp(env, "yes") == 0;
    signal(SIGPIPE, SIG_IGN); /* a pipe's reader may stop before its feeder */
    const char *dir = cgwt_tmpdir();
    size_t plain_len, len;
    uint64_t written;
    char *plain = profile(0, S_MEMORY, &plain_len, &written);
    put_file(dir, "plain", plain, plain_len);
    sh(dir, "gzip -c plain > plain.gz");
    char *gz = slurp_path(dir, "plain.gz", &len);
    CHECK(len > 100 && len < plain_len / 2);
    if (!have_zlib) {
        read_every_kind(dir, gz, len, plain, plain_len, CGW_EIO, "built without zlib");
        cgw_options o = { .struct_size = sizeof o, .flags = CGW_GZIP };
        errno = 0;
        CHECK(cgw_open_memory(&gz, &len, &o) == NULL && errno == ENOTSUP);
        printf("test-gzip: no zlib: every kind of gzip input refused with one error, "
               "CGW_GZIP with ENOTSUP\n");
        free(gz);
        free(plain);
        return 0;
    }
    read_every_kind(dir, gz, len, plain, plain_len, CGW_OK, NULL);
    ends_once("", 0, CGW_OK);
    ends_once("x", 1, CGW_OK);
    ends_once(plain, plain_len, CGW_OK);
    ends_once(gz, len, CGW_OK);
    members(dir, plain, plain_len);
    broken_streams(dir, gz, len, plain, plain_len);
    alloc_failures(gz, len);
    write_every_sink(dir, plain, plain_len);
    write_levels(dir, plain, plain_len);
    write_atomic(dir);
    write_failures();
    /* plain text still reads without a gzip-input warning */
    diags g = { 0, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_MAP, .diag = on_diag,
                           .diag_ctx = &g };
    char msg[256], path[512];
    snprintf(path, sizeof path, "%s/plain", dir);
    CHECK_ST(same_records(cgw_reader_open_path(path, &o), plain, plain_len, msg, sizeof msg),
             CGW_OK);
    CHECK(g.gzip == 0);
    printf("test-gzip: %zu bytes of text as %zu of gzip read the same on %d kinds of input\n",
           plain_len, len, NKINDS);
    free(gz);
    free(plain);
    return 0;
}
