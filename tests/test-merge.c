/* SPDX-License-Identifier: MIT */
/* test-merge: cgw_merge_*() against sums worked out by hand, the
 * order-free output (associative and commutative, byte for byte), 1,000
 * inputs in constant memory, name rewrites, parts, overflow and misuse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Events in two orders, an inlined file, a call, a jump: what each
 * position, call and function sums to is in test_known(). */
static const char prof_a[] =
    "# callgrind format\n"
    "positions: line\n"
    "events: Ir Dr\n"
    "fl=a.c\n"
    "fn=main\n"
    "1 10 2\n"
    "2 5\n"
    "cfl=b.c\n"
    "cfn=f\n"
    "calls=2 10\n"
    "3 100 20\n"
    "fi=inc.h\n"
    "7 1 1\n"
    "fl=b.c\n"
    "fn=f\n"
    "10 100 20\n";
static const char prof_b[] =
    "# callgrind format\n"
    "positions: line\n"
    "events: Dr Ir\n"
    "fl=a.c\n"
    "fn=main\n"
    "1 1 7\n"
    "cfl=b.c\n"
    "cfn=f\n"
    "calls=1 10\n"
    "3 4 40\n"
    "fi=inc.h\n"
    "7 0 2\n"
    "fn=g\n"
    "5 0 3\n";

/* A cost record as "FUNCTION SOURCE:LINE C...\n" into buf; 0 for
 * another kind. */
static int cost_line(const cgw_record *rec, char *buf, size_t size)
{
    if (rec->kind != CGW_REC_COST)
        return 0;
    int n = snprintf(buf, size, "%s %s:%llu", rec->function, rec->source_file,
                     (unsigned long long)rec->pos[rec->part->npos - 1]);
    for (size_t i = 0; i < rec->part->nevents; i++)
        n += snprintf(buf + n, size - (size_t)n, " %llu", (unsigned long long)rec->costs[i]);
    buf[n++] = '\n';
    return n;
}

/* A jump record as "FUNCTION:LINE->TARGET:LINE FOLLOWED[/EXECUTED]\n". */
static int jump_line(const cgw_record *rec, char *buf, size_t size)
{
    if (rec->kind != CGW_REC_JUMP && rec->kind != CGW_REC_COND_JUMP)
        return 0;
    int n = snprintf(buf, size, "%s:%llu->%s:%llu %llu", rec->function,
                     (unsigned long long)rec->pos[0], rec->target.function,
                     (unsigned long long)rec->target_pos[0], (unsigned long long)rec->count);
    if (rec->kind == CGW_REC_COND_JUMP)
        n += snprintf(buf + n, size - (size_t)n, "/%llu", (unsigned long long)rec->executed);
    buf[n++] = '\n';
    return n;
}

/* The records of text that line() prints, one a line, in file order. */
static char *record_lines(const char *text, size_t len,
                          int (*line)(const cgw_record *, char *, size_t))
{
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    CHECK(r != NULL);
    const cgw_record *rec;
    cgwt_capture out;
    cgwt_capture_init(&out, 0, 0);
    char buf[512];
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        int n = line(rec, buf, sizeof buf);
        if (n > 0)
            cgwt_capture_write(&out, buf, (size_t)n);
    }
    cgw_reader_close(r);
    cgwt_capture_write(&out, "", 1);
    return out.data;
}

/* A call record as "FUNCTION:LINE->CALLEE:LINE COUNT C...\n". */
static int call_line(const cgw_record *rec, char *buf, size_t size)
{
    if (rec->kind != CGW_REC_CALL)
        return 0;
    int n = snprintf(buf, size, "%s:%llu->%s:%llu %llu", rec->function,
                     (unsigned long long)rec->pos[0], rec->target.function,
                     (unsigned long long)rec->target_pos[0], (unsigned long long)rec->count);
    for (size_t i = 0; i < rec->part->nevents; i++)
        n += snprintf(buf + n, size - (size_t)n, " %llu", (unsigned long long)rec->costs[i]);
    buf[n++] = '\n';
    return n;
}

static char *cost_lines(const char *text, size_t len)
{
    return record_lines(text, len, cost_line);
}

static char *jump_lines(const char *text, size_t len)
{
    return record_lines(text, len, jump_line);
}

static char *call_lines(const char *text, size_t len)
{
    return record_lines(text, len, call_line);
}

static cgw_status write_merge(void *m, cgw_writer *w)
{
    return cgw_merge_write(m, w);
}

/* Merge the profiles texts[0..n) into memory. */
static char *merge(const char *const *texts, size_t n, const cgw_merge_options *mo,
                   unsigned positions, size_t *len)
{
    cgw_merger *m = cgw_merge_new(mo);
    CHECK(m != NULL);
    for (size_t i = 0; i < n; i++) {
        cgw_reader *r = cgw_reader_open_memory(texts[i], strlen(texts[i]), NULL);
        CHECK(r != NULL);
        cgw_status st = cgw_merge_add(m, r);
        if (st != CGW_OK)
            cgwt_fail(__FILE__, __LINE__, "cgw_merge_add: %s", cgw_merge_errmsg(m));
        cgw_reader_close(r);
    }
    cgw_options wo = { .struct_size = sizeof wo,
                       .positions = positions ? positions : cgw_merge_positions(m) };
    char *out = cgwt_write_checked(write_merge, m, &wo, len);
    cgw_merge_free(m);
    return out;
}

static void test_known(void)
{
    const char *in[2] = { prof_a, prof_b };
    size_t len;
    char *out = merge(in, 2, NULL, 0, &len);
    /* the inputs' event orders differ: Callgrind's order, Ir first */
    CHECK(strstr(out, "\nevents: Ir Dr\n") != NULL);
    CHECK_FACTS(out, len, "1|call||a.c|main||b.c|f\t 3 140 24\n"
                          "1|self||a.c|g\t 3 0\n"
                          "1|self||a.c|main\t 25 4\n"
                          "1|self||b.c|f\t 100 20\n"
                          "1|totals\t 128 24\n");
    char *lines = cost_lines(out, len);
    CHECK_STR(lines, "g a.c:5 3 0\n"
                     "main a.c:1 17 3\n"
                     "main a.c:2 5 0\n"
                     "main inc.h:7 3 1\n"
                     "f b.c:10 100 20\n");
    const char *const keys[] = { "a.c:g", "a.c:main", "inc.h:main", "b.c:f" };
    const uint64_t self[][2] = { { 3, 0 }, { 22, 3 }, { 3, 1 }, { 100, 20 } };
    cgwt_annotate_expect(out, len, 2, (const uint64_t[]){ 128, 24 }, 4, keys, &self[0][0]);
    /* the same inputs the other way round: the same bytes */
    const char *rev[2] = { prof_b, prof_a };
    size_t len2;
    char *out2 = merge(rev, 2, NULL, 0, &len2);
    CHECK(len == len2 && memcmp(out, out2, len) == 0);
    free(out2);
    free(lines);
    free(out);
}

static char *generated(uint64_t seed, unsigned functions, unsigned parts, size_t *len)
{
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = seed;
    g.functions = functions;
    g.files = 4;
    g.parts = parts;
    g.flags = CGW_GEN_JUMPS | CGW_GEN_INLINE;
    char *out;
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_INSTR | CGW_POS_LINE };
    cgw_writer *w = cgw_open_memory(&out, len, &wo);
    CHECK(w != NULL);
    CHECK_ST(cgw_generate(w, &g), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    return out;
}

/* Each facts line of a multiplied by k (the key kept). */
static char *times(const char *a, unsigned k)
{
    cgwt_capture out;
    cgwt_capture_init(&out, 0, 0);
    char buf[8192];
    for (const char *p = a; *p != '\0';) {
        const char *nl = strchr(p, '\n'), *tab = strchr(p, '\t');
        int n = snprintf(buf, sizeof buf, "%.*s", (int)(tab + 1 - p), p);
        for (char *q = (char *)tab + 1; q < nl;)
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %llu", strtoull(q, &q, 10) * k);
        buf[n++] = '\n';
        cgwt_capture_write(&out, buf, (size_t)n);
        p = nl + 1;
    }
    cgwt_capture_write(&out, "", 1);
    return out.data;
}

/* merge(merge(a,b),c), merge(a,merge(b,c)) and merge(c,a,b): the same
 * bytes, whose facts are those of a, b and c summed. */
static void test_associative(void)
{
    size_t la, lb, lc, l1, l2, l3, lab, lbc;
    char *a = generated(1, 30, 1, &la), *b = generated(2, 30, 3, &lb);
    char *c = generated(3, 40, 1, &lc);
    const char *ab_in[2] = { a, b }, *bc_in[2] = { b, c };
    char *ab = merge(ab_in, 2, NULL, 0, &lab), *bc = merge(bc_in, 2, NULL, 0, &lbc);
    const char *in1[2] = { ab, c }, *in2[2] = { a, bc }, *in3[3] = { c, a, b };
    char *m1 = merge(in1, 2, NULL, 0, &l1), *m2 = merge(in2, 2, NULL, 0, &l2);
    char *m3 = merge(in3, 3, NULL, 0, &l3);
    CHECK(l1 == l2 && memcmp(m1, m2, l1) == 0);
    CHECK(l1 == l3 && memcmp(m1, m3, l1) == 0);
    /* a merged profile merged alone again: the same bytes */
    size_t l4;
    const char *in4[1] = { m1 };
    char *m4 = merge(in4, 1, NULL, 0, &l4);
    CHECK(l1 == l4 && memcmp(m1, m4, l1) == 0);
    free(m4);
    /* instruction positions kept: every input has them */
    CHECK(strstr(m1, "\npositions: instr line\n") != NULL);
    cgwt_capture all;
    cgwt_capture_init(&all, 0, 0);
    char *f[3] = { cgwt_facts(a, la, 1), cgwt_facts(b, lb, 1), cgwt_facts(c, lc, 1) };
    for (int i = 0; i < 3; i++)
        cgwt_capture_write(&all, f[i], strlen(f[i]));
    cgwt_capture_write(&all, "", 1);
    /* every function's self cost and every call edge: the three summed */
    char *want = cgwt_facts_sum(all.data), *got = cgwt_facts(m1, l1, 1);
    CHECK_STR(got, want);
    /* totals: the three inputs' (summed over parts) */
    uint64_t t[3][2] = { { 0 } };
    for (int i = 0; i < 3; i++)
        sscanf(strstr(f[i], "0|totals"), "0|totals\t %llu %llu", (unsigned long long *)&t[i][0],
               (unsigned long long *)&t[i][1]);
    unsigned long long g0, g1;
    CHECK(sscanf(strstr(got, "0|totals"), "0|totals\t %llu %llu", &g0, &g1) == 2);
    CHECK_U64(g0, t[0][0] + t[1][0] + t[2][0]);
    CHECK_U64(g1, t[0][1] + t[1][1] + t[2][1]);
    char path[600];
    snprintf(path, sizeof path, "%s/merged", cgwt_tmpdir());
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL && fwrite(m1, 1, l1, fp) == l1 && fclose(fp) == 0);
    uint64_t tt[2] = { g0, g1 };
    cgwt_annotate_totals(path, tt, 2);
    free(all.data);
    for (int i = 0; i < 3; i++)
        free(f[i]);
    free(want), free(got), free(a), free(b), free(c), free(ab), free(bc);
    free(m1), free(m2), free(m3);
}

/* 1,000 inputs, ten profiles a hundred times over: the facts are ten
 * merged, times 100, and the merger holds as many blocks after the last
 * input as after the tenth (memory follows distinct positions only). */
static void test_thousand(void)
{
    char *texts[10];
    size_t lens[10];
    for (int i = 0; i < 10; i++)
        texts[i] = generated(100 + (uint64_t)i, 12, 1, &lens[i]);
    cgwt_alloc al;
    cgwt_alloc_init(&al, 0);
    cgw_merge_options mo = { .struct_size = sizeof mo, .allocator = &al.a };
    cgw_merger *m = cgw_merge_new(&mo);
    CHECK(m != NULL);
    long live10 = 0;
    for (int i = 0; i < 1000; i++) {
        cgw_reader *r = cgw_reader_open_memory(texts[i % 10], lens[i % 10], NULL);
        CHECK(r != NULL);
        CHECK_ST(cgw_merge_add(m, r), CGW_OK);
        cgw_reader_close(r);
        if (i == 9)
            live10 = al.live;
    }
    CHECK_U64((uint64_t)al.live, (uint64_t)live10);
    char *out;
    size_t len;
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE };
    cgw_writer *w = cgw_open_memory(&out, &len, &wo);
    CHECK_ST(cgw_merge_write(m, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgw_merge_free(m);
    CHECK_U64((uint64_t)al.live, 0);
    cgwt_readback(out, len, NULL);
    cgwt_annotate_parts(out, len);
    const char *ten[10];
    for (int i = 0; i < 10; i++)
        ten[i] = texts[i];
    size_t l10;
    char *m10 = merge(ten, 10, NULL, CGW_POS_LINE, &l10);
    char *f10 = cgwt_facts(m10, l10, 1), *want = times(f10, 100);
    char *got = cgwt_facts(out, len, 1);
    CHECK_STR(got, want);
    printf("1,000 inputs of %zu bytes or so: %zu bytes merged, %ld blocks held\n", lens[0],
           len, live10);
    free(got), free(want), free(f10), free(m10), free(out);
    for (int i = 0; i < 10; i++)
        free(texts[i]);
}

/* Paths from two machines and a versioned symbol line up after the
 * rewrites. */
static void test_rewrite(void)
{
    static const char a[] = "events: Ir\nfl=/home/alice/src/x.c\nfn=run_v1\n1 5\n";
    static const char b[] = "events: Ir\nfl=/home/bob/src/x.c\nfn=RUN_v2\n1 7\n";
    const char *in[2] = { a, b };
    cgw_merge_options mo = { .struct_size = sizeof mo, .mod_filename = "s|^/home/[^/]*/|/|",
                             .mod_funcname = "s/_V[0-9]+$//i" };
    size_t len;
    char *out = merge(in, 2, &mo, 0, &len);
    CHECK_FACTS(out, len, "1|self||/src/x.c|RUN\t 7\n1|self||/src/x.c|run\t 5\n1|totals\t 12\n");
    free(out);
    /* g: every match; & and groups in the replacement */
    mo.mod_filename = "s/([a-z])\\//<\\1>&/g";
    mo.mod_funcname = "s,u,[&],";
    out = merge(in, 2, &mo, 0, &len);
    CHECK_FACTS(out, len, "1|self||/hom<e>e/alic<e>e/sr<c>c/x.c|r[u]n_v1\t 5\n"
                          "1|self||/hom<e>e/bo<b>b/sr<c>c/x.c|RUN_v2\t 7\n1|totals\t 12\n");
    free(out);
    const char *bad[] = { "x/a/b/", "s/a/b", "s/(/x/", "s/a/b/q", "s" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        mo.mod_filename = bad[i];
        cgw_merger *m = cgw_merge_new(&mo);
        CHECK(m != NULL);
        CHECK_ST(cgw_merge_error(m), CGW_EINVAL);
        CHECK(strstr(cgw_merge_errmsg(m), "cgw_merge_new: mod_filename") != NULL);
        CHECK_ST(cgw_merge_add(m, NULL), CGW_EINVAL);
        cgw_merge_free(m);
    }
}

static void test_keep_parts(void)
{
    const char *in[2] = { prof_a, prof_b };
    cgw_merge_options mo = { .struct_size = sizeof mo, .flags = CGW_MERGE_KEEP_PARTS };
    size_t len;
    char *out = merge(in, 2, &mo, 0, &len);
    CHECK_FACTS(out, len, "1|call||a.c|main||b.c|f\t 2 100 20\n"
                          "1|self||a.c|main\t 16 3\n"
                          "1|self||b.c|f\t 100 20\n"
                          "1|totals\t 116 23\n"
                          "2|call||a.c|main||b.c|f\t 1 40 4\n"
                          "2|self||a.c|g\t 3 0\n"
                          "2|self||a.c|main\t 9 1\n"
                          "2|totals\t 12 1\n");
    free(out);
}

static void add_text(cgw_merger *m, const char *text, cgw_status want)
{
    cgw_reader *r = cgw_reader_open_memory(text, strlen(text), NULL);
    CHECK(r != NULL);
    CHECK_ST(cgw_merge_add(m, r), want);
    cgw_reader_close(r);
}

/* What the sums keep apart at one source position: calls to one callee
 * at two target lines, and a jump and a conditional jump to one place;
 * each summed over the two inputs (the same file twice). */
static void test_apart(void)
{
    static const char a[] = "events: Ir\nfl=a.c\nfn=a\n1 1\ncfn=b\ncalls=1 10\n1 5\n"
                            "cfn=b\ncalls=2 20\n1 7\njump=3 10\n2\njcnd=1/4 10\n2\n"
                            "fn=b\n10 3\n20 9\n";
    const char *in[2] = { a, a };
    size_t len;
    char *out = merge(in, 2, NULL, 0, &len);
    char *calls = call_lines(out, len), *jumps = jump_lines(out, len);
    CHECK_STR(calls, "a:1->b:10 2 10\na:1->b:20 4 14\n");
    CHECK_STR(jumps, "a:2->a:10 6\na:2->a:10 2/8\n");
    free(calls), free(jumps), free(out);
}

/* With CGW_MERGE_KEEP_PARTS, each part's totals must fit, not their
 * sum: 2^64-1 in one part and 1 in the next write (the dry walk starts
 * each part's totals from 0). */
static void test_parts_fit(void)
{
    const char *in[2] = { "events: Ir\nfl=a.c\nfn=a\n1 18446744073709551615\n",
                          "events: Ir\nfl=a.c\nfn=a\n1 1\n" };
    cgw_merge_options mo = { .struct_size = sizeof mo, .flags = CGW_MERGE_KEEP_PARTS };
    size_t len;
    char *out = merge(in, 2, &mo, 0, &len);
    CHECK_FACTS(out, len, "1|self||a.c|a\t 18446744073709551615\n"
                          "1|totals\t 18446744073709551615\n"
                          "2|self||a.c|a\t 1\n"
                          "2|totals\t 1\n");
    free(out);
}

/* Inputs that give one event other long names: the least by strcmp is
 * kept, whatever their order; a long name beats none. */
static void test_long_names(void)
{
    static const char a[] = "event: Ir : Instructions\nevents: Ir\nfn=a\n1 1\n";
    static const char b[] = "event: Ir : Instruction fetch\nevents: Ir\nfn=a\n1 2\n";
    static const char c[] = "events: Ir\nfn=a\n1 4\n";
    const char *orders[][3] = { { a, b, c }, { b, a, c }, { c, a, b }, { c, b, a } };
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        size_t len;
        char *out = merge(orders[i], 3, NULL, 0, &len);
        /* "Instruction fetch" < "Instructions": ' ' (32) before 's' */
        CHECK(strstr(out, "\nevent: Ir : Instruction fetch\n") != NULL);
        CHECK(strstr(out, "Instructions") == NULL);
        free(out);
    }
    const char *ac[2] = { c, a };
    size_t len;
    char *out = merge(ac, 2, NULL, 0, &len);
    CHECK(strstr(out, "\nevent: Ir : Instructions\n") != NULL);
    free(out);
}

/* Sums one past 2^64-1: in a cost, a call count, the totals. */
static void test_overflow(void)
{
    static const char *const pairs[][2] = {
        { "events: Ir\nfn=a\n1 18446744073709551615\n", "events: Ir\nfn=a\n1 1\n" },
        { "events: Ir\nfn=a\ncfn=b\ncalls=18446744073709551615 1\n1 1\n",
          "events: Ir\nfn=a\ncfn=b\ncalls=1 1\n1 1\n" },
    };
    for (int i = 0; i < 2; i++) {
        cgw_merger *m = cgw_merge_new(NULL);
        add_text(m, pairs[i][0], CGW_OK);
        add_text(m, pairs[i][1], CGW_ERANGE);
        CHECK(strstr(cgw_merge_errmsg(m), "cgw_merge_add: line ") != NULL);
        CHECK(strstr(cgw_merge_errmsg(m), "passes 2^64-1") != NULL);
        cgw_merge_free(m);
    }
    /* two positions that fit, a total that does not: found before writing */
    cgw_merger *m = cgw_merge_new(NULL);
    add_text(m, "events: Ir\nfn=a\n1 18446744073709551615\n", CGW_OK);
    add_text(m, "events: Ir\nfn=a\n2 1\n", CGW_OK);
    cgwt_capture cap;
    cgw_writer *w = cgwt_capture_open(&cap, NULL);
    CHECK_ST(cgw_merge_write(m, w), CGW_ERANGE);
    CHECK(strstr(cgw_errmsg(w), "the total of Ir passes 2^64-1") != NULL);
    CHECK_ST(cgw_close(w), CGW_ERANGE);
    CHECK_U64(cap.len, 0);
    cgw_merge_free(m);
    /* two call sites one line apart by address only: their counts meet
     * when the writer keeps the lines alone */
    m = cgw_merge_new(NULL);
    add_text(m, "positions: instr line\nevents: Ir\nfn=a\ncfn=b\n"
                "calls=18446744073709551615 0x9 1\n0x1 1 1\ncfn=b\ncalls=1 0x9 1\n0x2 1 1\n",
             CGW_OK);
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE };
    w = cgw_open_callback(cgwt_capture_write, &cap, &wo);
    CHECK_ST(cgw_merge_write(m, w), CGW_ERANGE);
    CHECK(strstr(cgw_errmsg(w), "cgw_merge_write: a sum in a passes 2^64-1") != NULL);
    CHECK_ST(cgw_close(w), CGW_ERANGE);
    CHECK_U64(cap.len, 0);
    cgwt_capture_free(&cap);
    cgw_merge_free(m);
}

/* A read source that gives its text, then fails with EIO. */
typedef struct failing {
    const char *text;
    size_t len, off;
} failing;

static long read_then_fail(void *ctx, char *buf, size_t len)
{
    failing *f = ctx;
    if (f->off == f->len) {
        errno = EIO;
        return -1;
    }
    size_t n = f->len - f->off < len ? f->len - f->off : len;
    memcpy(buf, f->text + f->off, n);
    f->off += n;
    return (long)n;
}

/* A sum past 2^64-1 on a line, then a read error a few records on: the
 * merger reports the sum, the first error, also when its table is large
 * enough that records wait in a batch before they are added. */
static void test_overflow_before_read_error(void)
{
    cgw_merger *m = cgw_merge_new(NULL);
    size_t lines = 40000, cap = 32 + lines * 16, used = 0;
    char *big = malloc(cap);
    CHECK(big != NULL);
    used += (size_t)snprintf(big, cap, "events: Ir\nfn=a\n");
    for (size_t i = 1; i <= lines; i++)
        used += (size_t)snprintf(big + used, cap - used, "%zu 1\n", i);
    add_text(m, big, CGW_OK);
    free(big);
    failing f = { "events: Ir\nfn=a\n1 18446744073709551615\n2 1\n3 1\n", 0, 0 };
    f.len = strlen(f.text);
    cgw_reader *r = cgw_reader_open_callback(read_then_fail, &f, NULL);
    CHECK(r != NULL);
    CHECK_ST(cgw_merge_add(m, r), CGW_ERANGE);
    CHECK(strstr(cgw_merge_errmsg(m), "line 3: the sum of Ir in a passes 2^64-1") != NULL);
    cgw_reader_close(r);
    cgw_merge_free(m);
}

/* cgw_merge_write(m, w) through a writer with positions pos (0: the
 * default) fails with want and a message holding msg. */
static void write_fails(cgw_merger *m, unsigned pos, cgw_status want, const char *msg)
{
    cgwt_capture cap;
    cgwt_capture_init(&cap, 0, 0);
    cgw_options wo = { .struct_size = sizeof wo, .positions = pos };
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &cap, &wo);
    if (want == CGW_EUSAGE && msg == NULL) { /* a writer not fresh */
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_function(w, "x"), CGW_OK);
    }
    CHECK_ST(cgw_merge_write(m, w), want);
    CHECK(msg == NULL || strstr(cgw_errmsg(w), msg) != NULL);
    cgw_free(w);
    cgwt_capture_free(&cap);
}

static void test_misuse(void)
{
    CHECK_ST(cgw_merge_add(NULL, NULL), CGW_EUSAGE);
    CHECK_ST(cgw_merge_error(NULL), CGW_EUSAGE);
    write_fails(NULL, 0, CGW_EUSAGE, "the merger is NULL");
    cgw_merger *m = cgw_merge_new(NULL);
    CHECK_ST(cgw_merge_write(m, NULL), CGW_EUSAGE);
    write_fails(m, 0, CGW_EUSAGE, "cgw_merge_write: no profile was added");
    cgw_merge_free(m);
    /* a writer that wants positions the inputs lack, one not fresh */
    m = cgw_merge_new(NULL);
    add_text(m, prof_a, CGW_OK);
    CHECK_U64(cgw_merge_positions(m), CGW_POS_LINE);
    write_fails(m, CGW_POS_INSTR | CGW_POS_LINE, CGW_EINVAL,
                "positions that not every input has");
    cgw_merge_free(m);
    m = cgw_merge_new(NULL);
    add_text(m, prof_a, CGW_OK);
    write_fails(m, 0, CGW_EUSAGE, NULL);
    CHECK_ST(cgw_merge_error(m), CGW_EUSAGE);
    add_text(m, prof_b, CGW_EUSAGE);
    cgw_merge_free(m);
    /* once only */
    m = cgw_merge_new(NULL);
    add_text(m, prof_a, CGW_OK);
    size_t len;
    char *out;
    cgw_writer *w = cgw_open_memory(&out, &len, NULL);
    CHECK_ST(cgw_merge_write(m, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    free(out);
    write_fails(m, 0, CGW_EUSAGE, "already written");
    cgw_merge_free(m);
    cgw_merge_options mo = { .struct_size = sizeof mo, .flags = 8 };
    m = cgw_merge_new(&mo);
    CHECK_ST(cgw_merge_error(m), CGW_EINVAL);
    CHECK(strstr(cgw_merge_errmsg(m), "unknown flags 0x8") != NULL);
    cgw_merge_free(m);
}

/* A whole merge of the profile ctx (with a name rewrite) on allocator
 * alloc: its status. */
static cgw_status merge_with(const cgw_allocator *alloc, void *ctx)
{
    const char *text = ctx;
    cgw_merge_options mo = { .struct_size = sizeof mo, .mod_filename = "s/a/b/",
                             .allocator = alloc };
    cgw_merger *m = cgw_merge_new(&mo);
    cgw_status st = m == NULL ? CGW_ENOMEM : cgw_merge_error(m);
    if (st == CGW_OK) {
        cgw_reader *r = cgw_reader_open_memory(text, strlen(text), NULL);
        st = cgw_merge_add(m, r);
        cgw_reader_close(r);
    }
    if (st == CGW_OK)
        st = cgwt_write_captured(write_merge, m);
    cgw_merge_free(m);
    return st;
}

/* Jumps summed by source, target and kind; derived events kept, and one
 * name with two formulas refused; a call never made without cost
 * dropped from a portable output, kept in a compact one. */
static void test_details(void)
{
    static const char a[] = "events: Ir Dr\nevent: T = Ir + Dr\nfn=a\n1 1\n"
                            "jump=3 10\n2\njcnd=1/4 12\n3\n";
    static const char b[] = "events: Ir Dr\nevent: T = Ir + Dr\nfn=a\n1 2\n"
                            "jcnd=2/3 12\n3\ncfn=b\ncalls=0 1\n4 0\n";
    const char *in[2] = { a, b };
    size_t len;
    char *out = merge(in, 2, NULL, 0, &len);
    char *j = jump_lines(out, len);
    CHECK_STR(j, "a:2->a:10 3\na:3->a:12 3/7\n");
    CHECK(strstr(out, "\nevent: T = Ir + Dr\n") != NULL);
    CHECK(strstr(out, "calls=") == NULL);
    free(j), free(out);
    cgw_merger *m = cgw_merge_new(NULL);
    add_text(m, b, CGW_OK);
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE, .flags = CGW_COMPACT };
    cgw_writer *w = cgw_open_memory(&out, &len, &wo);
    CHECK_ST(cgw_merge_write(m, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(strstr(out, "\ncalls=0 1\n") != NULL);
    cgwt_readback(out, len, NULL);
    cgwt_annotate_parts(out, len);
    free(out);
    add_text(m, a, CGW_EUSAGE); /* after the write */
    cgw_merge_free(m);
    /* different derived events: by name, whichever input came first */
    static const char c[] = "events: Ir Dr\nevent: U = Dr\nfn=a\n1 1\n";
    const char *ac[2] = { a, c }, *ca[2] = { c, a };
    size_t len2;
    char *out2;
    out = merge(ac, 2, NULL, 0, &len);
    out2 = merge(ca, 2, NULL, 0, &len2);
    CHECK(len == len2 && memcmp(out, out2, len) == 0);
    CHECK(strstr(out, "\nevent: T = Ir + Dr\nevent: U = Dr\n") != NULL);
    free(out), free(out2);
    m = cgw_merge_new(NULL);
    add_text(m, a, CGW_OK);
    add_text(m, "events: Ir Dr\nevent: T = Ir\nfn=a\n1 1\n", CGW_EINVAL);
    CHECK(strstr(cgw_merge_errmsg(m), "the derived event T is Ir + Dr in one input and Ir "
                                      "in another") != NULL);
    cgw_merge_free(m);
}

int main(void)
{
    test_known();
    test_associative();
    test_thousand();
    test_rewrite();
    test_keep_parts();
    test_details();
    test_apart();
    test_parts_fit();
    test_long_names();
    test_overflow();
    test_overflow_before_read_error();
    test_misuse();
    /* every allocation of a merge failed in turn: ENOMEM, nothing leaked */
    cgwt_each_alloc_fail(merge_with, (void *)prof_a);
    printf("merge: known sums, order-free output, 1,000 inputs, rewrites, parts, errors\n");
    return 0;
}
