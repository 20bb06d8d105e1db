/* SPDX-License-Identifier: MIT */
/* test-pathological: inputs built to be slow or to break limits, read in
 * bounded time with the right diagnostics and no crash: a name a million
 * bytes long, a million IDs, names and IDs built to collide in a hash
 * table, a million-line relative chain, a chain that
 * goes below zero, and 2^64-1 everywhere.  alarm() turns a hang into a
 * failure; the limit is generous, as this is no speed test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

typedef struct counts {
    uint64_t records, costs, errors, by_code;
    const char *code;
    size_t longest;
    uint64_t excess; /* inclusive-excess warnings */
} counts;

static void diag(void *ctx, const cgw_diagnostic *d)
{
    counts *c = ctx;
    c->errors += d->severity == CGW_ERROR;
    c->excess += strcmp(d->code, "inclusive-excess") == 0;
    if (c->code != NULL && strcmp(d->code, c->code) == 0)
        c->by_code++;
}

/* Read text with CGW_READ_CHECK; diagnostics of code are counted. */
static counts read_all(const char *text, size_t len, const char *code)
{
    counts c = { 0, 0, 0, 0, code, 0, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = diag,
                           .diag_ctx = &c };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (CHECK_ST(cgw_reader_next(r, &rec), CGW_OK), rec != NULL) {
        c.records++;
        c.costs += rec->kind == CGW_REC_COST;
        if (rec->function != NULL && strlen(rec->function) > c.longest)
            c.longest = strlen(rec->function);
    }
    cgw_reader_close(r);
    return c;
}

static cgwt_capture head(void)
{
    cgwt_capture t;
    cgwt_capture_init(&t, 0, 0);
    cgwt_capture_str(&t, "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n");
    return t;
}

static void long_name(void)
{
    cgwt_capture t = head();
    cgwt_capture_str(&t, "fn=");
    size_t at = t.len;
    for (int i = 0; i < 10000; i++)
        cgwt_capture_str(&t, "0123456789012345678901234567890123456789012345678901234567890123"
                             "456789012345678901234567890123456789");
    char *name = strdup(t.data + at);
    CHECK(name != NULL);
    cgwt_capture_str(&t, "\n1 1\n");
    counts c = read_all(t.data, t.len, NULL);
    CHECK_U64(c.errors, 0);
    CHECK_U64(c.longest, 1000000);
    cgwt_capture_free(&t);
    /* the writer takes it too, and its output reads back */
    char *out = NULL;
    size_t len = 0;
    cgw_writer *w = cgw_open_memory(&out, &len, NULL);
    CHECK(w != NULL);
    cgw_add_event(w, "Ir", NULL);
    cgw_function(w, name);
    cgw_cost(w, (uint64_t[]){ 1 }, (uint64_t[]){ 1 }, 1);
    CHECK_ST(cgw_close(w), CGW_OK);
    c = read_all(out, len, NULL);
    CHECK_U64(c.errors, 0);
    CHECK_U64(c.longest, 1000000);
    free(out);
    free(name);
    printf("a name a million bytes long: read, written, read back\n");
}

static void many_ids(void)
{
    cgwt_capture t = head();
    char line[96];
    const int n = (int)cgwt_scaled(1000000);
    for (int i = 1; i <= n; i++) {
        snprintf(line, sizeof line, "fn=(%d) f%d\n%d 1\n", i, i, i);
        cgwt_capture_str(&t, line);
    }
    counts c = read_all(t.data, t.len, NULL);
    CHECK_U64(c.errors, 0);
    CHECK_U64(c.costs, (uint64_t)n);
    cgwt_capture_free(&t);
    printf("%d IDs: read, no error\n", n);
}

/* Names that all collide in the reader's former hash (a 2.5 MB file of
 * them took 18 s), defined with IDs whose former keys share their low
 * 20 bits: the former reader spends minutes here (FLOOD^2/2 probes), the
 * keyed one a fraction of a second, so the alarm cannot be reached by a
 * slow machine, only by a hash a file can flood. */
#define FLOOD 300000

static void hash_flood(void)
{
    cgwt_capture t = head();
    char name[17], line[96];
    uint64_t counter = 0;
    for (int i = 1; i <= FLOOD; i++) {
        cgwt_flood_next(&counter, name);
        uint64_t id = cgwt_old_id_unmix((uint64_t)i << 20);
        snprintf(line, sizeof line, "fn=(%llu) %s\n%d 1\n", (unsigned long long)id, name, i);
        cgwt_capture_str(&t, line);
    }
    alarm(60);
    counts c = read_all(t.data, t.len, NULL);
    alarm(300);
    CHECK_U64(c.errors, 0);
    CHECK_U64(c.costs, FLOOD);
    CHECK_U64(c.longest, 16);
    cgwt_capture_free(&t);
    printf("%d names and IDs built to collide in the former hash: read in time\n", FLOOD);
}

/* An allocator that keeps the peak of the bytes in use. */
typedef struct peak {
    size_t live, top;
} peak;

static void *peak_realloc(void *ctx, void *block, size_t n)
{
    peak *p = ctx;
    size_t *head = block != NULL ? (size_t *)block - 2 : NULL;
    if (head != NULL)
        p->live -= head[0];
    head = realloc(head, n + 2 * sizeof *head);
    CHECK(head != NULL);
    head[0] = n;
    p->live += n;
    p->top = p->live > p->top ? p->live : p->top;
    return head + 2;
}

static void *peak_malloc(void *ctx, size_t n)
{
    return peak_realloc(ctx, NULL, n);
}

static void peak_free(void *ctx, void *block)
{
    if (block != NULL) {
        ((peak *)ctx)->live -= ((size_t *)block - 2)[0];
        free((size_t *)block - 2);
    }
}

/* 5,000 events and 10,000 functions, in 190 KB: the inclusive costs were
 * summed per function for every event (1.2 GB here); now for the first
 * 64 only, said once, and an excess in the first event is still found. */
static void many_events(void)
{
    cgwt_capture t;
    cgwt_capture_init(&t, 0, 0);
    char line[64];
    cgwt_capture_str(&t, "# callgrind format\nversion: 1\npositions: line\nevents:");
    for (int i = 0; i < 5000; i++) {
        snprintf(line, sizeof line, " e%d", i);
        cgwt_capture_str(&t, line);
    }
    cgwt_capture_str(&t, "\nfn=(1) caller\n1 1\ncfn=(2) callee\ncalls=1 1\n1 100\nfn=(2)\n1 1\n");
    for (int i = 3; i < 10003; i++) {
        snprintf(line, sizeof line, "fn=(%d) f%d\n1 1\n", i, i);
        cgwt_capture_str(&t, line);
    }
    peak mem = { 0, 0 };
    cgw_allocator alloc = { peak_malloc, peak_realloc, peak_free, &mem };
    counts c = { 0, 0, 0, 0, "check-events-cut", 0, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = diag,
                           .diag_ctx = &c, .allocator = &alloc };
    cgw_reader *r = cgw_reader_open_memory(t.data, t.len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (CHECK_ST(cgw_reader_next(r, &rec), CGW_OK), rec != NULL)
        c.costs += rec->kind == CGW_REC_COST;
    cgw_reader_close(r);
    CHECK_U64(c.excess, 1);
    CHECK_U64(c.by_code, 1);
    CHECK_U64(c.costs, 10002);
    printf("5,000 events, 10,000 functions (%zu bytes): peak %zu bytes\n", t.len, mem.top);
    CHECK(mem.top < 64u << 20);
    CHECK(mem.live == 0);
    cgwt_capture_free(&t);
}

static void relative_chains(void)
{
    cgwt_capture t = head();
    cgwt_capture_str(&t, "fn=f\n1 1\n");
    const int n = (int)cgwt_scaled(1000000);
    for (int i = 0; i < n; i++)
        cgwt_capture_str(&t, "+1 1\n");
    counts c = read_all(t.data, t.len, NULL);
    CHECK_U64(c.errors, 0);
    CHECK_U64(c.costs, (uint64_t)n + 1);
    cgwt_capture_free(&t);

    t = head();
    cgwt_capture_str(&t, "fn=f\n5 1\n");
    for (int i = 0; i < 1000; i++)
        cgwt_capture_str(&t, "-1 1\n");
    c = read_all(t.data, t.len, "negative-position");
    CHECK(c.by_code >= 20); /* each below zero, reported (20 shown, the rest counted) */
    cgwt_capture_free(&t);
    printf("relative chains: %zu steps up, and below zero reported\n", cgwt_scaled(1000000));
}

static void all_ones(void)
{
    cgwt_capture t = head();
    cgwt_capture_str(&t, "summary: 18446744073709551615\nfn=(18446744073709551615) f\n");
    for (int i = 0; i < 1000; i++)
        cgwt_capture_str(&t, "18446744073709551615 18446744073709551615\n+1 1\n");
    cgwt_capture_str(&t, "totals: 18446744073709551615\n");
    counts c = read_all(t.data, t.len, "overflow");
    CHECK(c.by_code >= 1);   /* the sum of costs passes 2^64-1 */
    CHECK(c.errors >= 1);
    cgwt_capture_free(&t);
    printf("2^64-1 everywhere: overflow reported, no crash\n");
}

/* ------------------------------------------------------ overlong lines */

#define MAX_LINE ((size_t)4 << 20) /* the reader's documented limit */

/* A stream of the profile head, then n bytes of `fill` without a newline,
 * then "\nfn=g\n1 7\n"; read through a callback 64 KiB at a time. */
typedef struct stream {
    size_t off, n;
    char fill;
} stream;

static const char stream_head[] = "events: Ir\nfn=f\n1 5\n", stream_tail[] = "\nfn=g\n1 7\n";

static long stream_read(void *ctx, char *buf, size_t len)
{
    stream *s = ctx;
    size_t head_len = sizeof stream_head - 1, total = head_len + s->n + sizeof stream_tail - 1;
    size_t put = 0;
    for (; put < len && put < 65536 && s->off < total; put++, s->off++) {
        size_t at = s->off;
        buf[put] = at < head_len             ? stream_head[at]
                   : at < head_len + s->n    ? s->fill
                                             : stream_tail[at - head_len - s->n];
    }
    return (long)put;
}

/* n bytes of fill on line 4: over the limit, one line-too-long error on
 * line 4 and the lines after it read (totals 12); the reader's memory
 * stays under 16 MiB however long the line. */
static void overlong(size_t n, char fill, uint64_t want_errors)
{
    peak k = { 0, 0 };
    cgw_allocator a = { peak_malloc, peak_realloc, peak_free, &k };
    counts c = { 0, 0, 0, 0, "line-too-long", 0, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = diag,
                           .diag_ctx = &c, .allocator = &a };
    stream s = { 0, n, fill };
    cgw_reader *r = cgw_reader_open_callback(stream_read, &s, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    uint64_t total = 0;
    while (CHECK_ST(cgw_reader_next(r, &rec), CGW_OK), rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            total = rec->costs[0];
    cgw_reader_close(r);
    CHECK_U64(c.by_code, n > MAX_LINE);
    CHECK_U64(c.errors, want_errors);
    CHECK_U64(total, 12);
    CHECK(k.top < (size_t)16 << 20);
    CHECK(k.live == 0);
}

static void overlong_lines(void)
{
    /* a comment of exactly the limit is read; one byte more is not */
    overlong(MAX_LINE, '#', 0);
    overlong(MAX_LINE + 1, '#', 1);
    /* 64 MiB of NUL bytes (the NUL already voids the line) and of a name */
    overlong((size_t)64 << 20, '\0', 1);
    overlong((size_t)64 << 20, 'x', 1);
    /* the same line in memory (a mapped file): the same verdict */
    cgwt_capture t;
    cgwt_capture_init(&t, 0, 0);
    cgwt_capture_str(&t, "events: Ir\nfn=f\n1 5\nfn=");
    for (size_t i = 0; i <= MAX_LINE / 64; i++)
        cgwt_capture_str(&t, "0123456789012345678901234567890123456789012345678901234567890123");
    cgwt_capture_str(&t, "\nfn=g\n1 7\n");
    counts m = read_all(t.data, t.len, "line-too-long");
    CHECK_U64(m.by_code, 1);
    CHECK_U64(m.errors, 1);
    CHECK_U64(m.costs, 2);
    cgwt_capture_free(&t);
    printf("lines over %zu bytes (up to 64 MiB) skipped with line-too-long, memory flat\n",
           MAX_LINE);
}

/* cgw_roundtrip() of an 8 MB file keeps its memory flat (the rewritten
 * profile goes to a temporary file: it took more than the file's size in
 * memory before), finds no difference, and refuses a FIFO at once (it
 * reads its input three times; it waited on the FIFO before). */
static void roundtrip_memory(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rt.out", cgwt_tmpdir());
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = 7;
    g.size = 8u << 20;
    cgw_writer *w = cgw_open_path(path, NULL);
    CHECK(w != NULL);
    CHECK_ST(cgw_generate(w, &g), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    peak k = { 0, 0 };
    cgw_allocator a = { peak_malloc, peak_realloc, peak_free, &k };
    cgw_read_options o = { .struct_size = sizeof o, .allocator = &a };
    uint64_t diffs = 1;
    CHECK_ST(cgw_roundtrip(path, NULL, 0, &o, &diffs), CGW_OK);
    CHECK_U64(diffs, 0);
    CHECK(k.top < (size_t)2 << 20);
    CHECK(k.live == 0);
    unlink(path);
    snprintf(path, sizeof path, "%s/rt.fifo", cgwt_tmpdir());
    CHECK(mkfifo(path, 0600) == 0);
    CHECK_ST(cgw_roundtrip(path, NULL, 0, &o, &diffs), CGW_EINVAL);
    unlink(path);
    printf("round trip of 8 MB: peak %zu bytes; a FIFO refused\n", k.top);
}

int main(void)
{
    alarm(300); /* a hang is a failure */
    long_name();
    many_ids();
    hash_flood();
    many_events();
    relative_chains();
    all_ones();
    overlong_lines();
    roundtrip_memory();
    return 0;
}
