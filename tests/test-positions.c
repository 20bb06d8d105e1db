/* SPDX-License-Identifier: MIT */
/* test-positions: subposition encoding in every mode: absolute after fn=,
 * relative (+N, -N, *) from the previous cost or source line, targets that
 * do not move the base, hex addresses, CGW_COMPACT's shorter form and
 * dropped trailing zeros, CGW_NO_POS_COMPRESSION; no position column
 * (CGW_POS_NONE). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })
#define P2(a, b) ((const uint64_t[]){ a, b })

static char *body(const char *text)
{
    const char *fn = strstr(text, "\nfn=");
    CHECK(fn != NULL);
    return strdup(fn + 1);
}

/* The calls and jumps of the tests go to f or g. */
static const cgw_target to_f = { NULL, NULL, "f" }, to_g = { NULL, NULL, "g" };

/* What a memory writer hands over. */
typedef struct memory {
    char *buf;
    size_t len;
} memory;

/* Finish, read back (and through callgrind_annotate when annotate is
 * set), and check that the body from the first fn= line is want. */
static void expect_body(cgw_writer *w, memory *out, int annotate, const char *want)
{
    CHECK_ST(cgw_finish(w), CGW_OK);
    cgw_free(w);
    cgwt_readback(out->buf, out->len, NULL); /* instr positions draw a portability warning */
    if (annotate)
        cgwt_annotate(out->buf, out->len, NULL);
    char *b = body(out->buf);
    free(out->buf);
    CHECK_STR(b, want);
    free(b);
}

/* A writer into memory with nev events (Ir, Dr), in function f. */
static cgw_writer *open_function(unsigned positions, unsigned flags, memory *out, int nev)
{
    cgw_options o = { .struct_size = sizeof o, .positions = positions, .flags = flags };
    cgw_writer *w = cgw_open_memory(&out->buf, &out->len, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    if (nev > 1)
        CHECK_ST(cgw_add_event(w, "Dr", NULL), CGW_OK);
    CHECK_ST(cgw_function(w, "f"), CGW_OK);
    return w;
}

static void lines(unsigned flags, const char *want)
{
    memory out;
    cgw_writer *w = open_function(CGW_POS_LINE, flags, &out, 2);
    cgw_cost(w, P1(1000), P1(5), 1);
    cgw_cost(w, P1(1000), (const uint64_t[]){ 0, 0 }, 2);
    cgw_cost(w, P1(1003), (const uint64_t[]){ 1, 0 }, 2);
    cgw_cost(w, P1(10), (const uint64_t[]){ 0, 7 }, 2);
    cgw_call(w, &to_g, 2, P1(5000), P1(12), P1(9), 1);
    cgw_cost(w, P1(11), P1(1), 1); /* relative to the call's source line */
    cgw_function(w, "g");
    cgw_cost(w, P1(5000), P1(9), 1);
    expect_body(w, &out, 1, want);
}

static void instr(unsigned flags, const char *want)
{
    memory out;
    cgw_writer *w = open_function(CGW_POS_INSTR, flags, &out, 1);
    cgw_cost(w, P1(0x7fABCDEF0000), P1(1), 1);
    cgw_cost(w, P1(0x7fABCDEF0004), P1(1), 1);
    cgw_jump(w, &to_f, 3, P1(0x7fABCDEF0000), P1(0x7fABCDEF0008));
    cgw_cond_jump(w, &to_f, 1, 2, P1(0x7fABCDEF0004), P1(0x7fABCDEF000c));
    cgw_cost(w, P1(0x1000), P1(1), 1);
    cgw_cost(w, P1(UINT64_MAX), P1(1), 1);
    expect_body(w, &out, 1, want);
}

/* Every decimal and hex length: v as an address, a line, a cost and a
 * relative step, in portable and compact mode (lines of 2^32 or more need
 * CGW_EXTENDED; steps of 2^31 or more are written absolute, since
 * KCachegrind reads steps as 32 bits).  callgrind_annotate (a process
 * each) reads a sample. */
static void every_length(unsigned flags, uint64_t v, int annotate)
{
    char want[256];
    memory out;
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_LINE,
                      .flags = flags | CGW_EXTENDED };
    cgw_writer *w = cgw_open_memory(&out.buf, &out.len, &o);
    unsigned long long u = (unsigned long long)v;
    cgw_add_event(w, "Ir", NULL);
    cgw_function(w, "f");
    cgw_cost(w, P2(0, 0), P1(0), 1);
    cgw_cost(w, P2(v, v), P1(v), 1);
    if (flags & CGW_COMPACT && v == 0) {
        snprintf(want, sizeof want, "fn=(1) f\n0x0 0\n* *\ntotals: 0\n");
    } else if (v >= (uint64_t)1 << 31) {
        snprintf(want, sizeof want, "fn=(1) f\n0x0 0%s\n0x%llx %llu %llu\n%stotals: %llu\n",
                 flags & CGW_COMPACT ? "" : " 0", u, u, u, flags & CGW_COMPACT ? "" : "\n", u);
    } else if (flags & CGW_COMPACT) {
        /* the shorter of the step and the absolute form, the step on a tie */
        char rel[32], hex[32], dec[32];
        snprintf(rel, sizeof rel, "+%llu", u);
        snprintf(hex, sizeof hex, "0x%llx", u);
        snprintf(dec, sizeof dec, "%llu", u);
        snprintf(want, sizeof want, "fn=(1) f\n0x0 0\n%s %s %llu\ntotals: %llu\n",
                 strlen(rel) <= strlen(hex) ? rel : hex, strlen(rel) <= strlen(dec) ? rel : dec,
                 u, u);
    } else if (v == 0) {
        snprintf(want, sizeof want, "fn=(1) f\n0x0 0 0\n* * 0\n\ntotals: 0\n");
    } else {
        snprintf(want, sizeof want, "fn=(1) f\n0x0 0 0\n+%llu +%llu %llu\n\ntotals: %llu\n",
                 u, u, u, u);
    }
    expect_body(w, &out, annotate, want);
}

/* KCachegrind reads steps and lines as 32 bits: a step of 2^31 or more
 * either way is absolute, a line of 2^32 or more refused but with
 * CGW_EXTENDED. */
static void steps_and_lines(void)
{
    memory out;
    uint64_t big = (uint64_t)1 << 31;
    cgw_writer *w = open_function(CGW_POS_LINE, 0, &out, 1);
    cgw_cost(w, P1(big), P1(1), 1);
    cgw_cost(w, P1(1), P1(1), 1);        /* a step of -(2^31 - 1): relative */
    cgw_cost(w, P1(big + 1), P1(1), 1);  /* +2^31: absolute */
    cgw_cost(w, P1(1), P1(1), 1);        /* -2^31: absolute */
    cgw_cost(w, P1(big), P1(1), 1);      /* +(2^31 - 1): relative */
    expect_body(w, &out, 1,
                "fn=(1) f\n2147483648 1\n-2147483647 1\n2147483649 1\n1 1\n+2147483647 1\n"
                "\ntotals: 5\n");

    w = open_function(CGW_POS_LINE, 0, &out, 1);
    CHECK_ST(cgw_cost(w, P1(big * 2), P1(1), 1), CGW_ERANGE);
    CHECK(strstr(cgw_errmsg(w), "KCachegrind") != NULL);
    cgw_free(w);
    w = open_function(CGW_POS_LINE, 0, &out, 1);
    CHECK_ST(cgw_call(w, &to_g, 1, P1(big * 2), P1(1), P1(1), 1), CGW_ERANGE);
    cgw_free(w);
    w = open_function(CGW_POS_LINE, CGW_EXTENDED, &out, 1);
    CHECK_ST(cgw_cost(w, P1(big * 2), P1(1), 1), CGW_OK);
    expect_body(w, &out, 1, "fn=(1) f\n4294967296 1\n\ntotals: 1\n");
}

/* The expected compact form of value after base: the shorter of the
 * relative and the absolute form, relative on a tie; absolute for a step
 * of 2^31 or more. */
static char *shortest_form(char *out, uint64_t value, uint64_t base, int hex)
{
    char rel[32], abs[32];
    uint64_t step = value > base ? value - base : base - value;
    if (value == base)
        snprintf(rel, sizeof rel, "*");
    else
        snprintf(rel, sizeof rel, "%c%llu", value > base ? '+' : '-', (unsigned long long)step);
    snprintf(abs, sizeof abs, hex ? "0x%llx" : "%llu", (unsigned long long)value);
    int use_rel = step < ((uint64_t)1 << 31) && strlen(rel) <= strlen(abs);
    return out + sprintf(out, "%s", use_rel ? rel : abs);
}

/* CGW_COMPACT writes the shorter form of every subposition, hex and
 * decimal, after every base around the lengths' edges: the inline path
 * and cgwp_pos_steps() must agree on each. */
static void compact_shortest(void)
{
    static const uint64_t vs[] = { 0, 1, 9, 10, 15, 16, 99, 100, 255, 256, 257, 999, 1000, 1001,
                                   4095, 4096, 10000, 65535, 1000000, 2147483647u,
                                   2147483648u, 4294967295u };
    const size_t n = sizeof vs / sizeof vs[0];
    char *want = malloc(n * n * 4 * 64 + 64), *out = want;
    memory mem;
    CHECK(want != NULL);
    cgw_writer *w = open_function(CGW_POS_INSTR | CGW_POS_LINE, CGW_COMPACT, &mem, 1);
    out += sprintf(out, "fn=(1) f\n");
    uint64_t base[2] = { 0, 0 };
    int first = 1;
    /* one subposition moves while the other stays, so that its form is
     * decided alone (a line that falls back is written whole by
     * cgwp_pos_steps()) */
    for (int moving = 0; moving < 2; moving++) {
        for (size_t i = 0; i < n * n * 2; i++) {
            uint64_t pos[2] = { 7, 7 };
            pos[moving] = i % 2 ? vs[i / 2 % n] : vs[i / 2 / n];
            CHECK_ST(cgw_cost(w, pos, P1(1), 1), CGW_OK);
            if (first)
                out += sprintf(out, "0x%llx %llu", (unsigned long long)pos[0],
                               (unsigned long long)pos[1]);
            else {
                out = shortest_form(out, pos[0], base[0], 1);
                *out++ = ' ';
                out = shortest_form(out, pos[1], base[1], 0);
            }
            out += sprintf(out, " 1\n");
            memcpy(base, pos, sizeof base);
            first = 0;
        }
    }
    sprintf(out, "totals: %zu\n", n * n * 4);
    expect_body(w, &mem, 0, want);
    free(want);
}

/* No position column (CGW_POS_NONE, with CGW_EXTENDED only): costs
 * only, a NULL position, calls= without a target, no jump; the reader
 * gives the same positions back.  (callgrind_annotate reads the first
 * cost as the line, so it is not asked.) */
static void no_positions(unsigned flags, const char *want)
{
    memory out;
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_NONE, .flags = flags };
    errno = 0;
    CHECK(cgw_open_memory(&out.buf, &out.len, &o) == NULL && errno == EINVAL);
    o.positions = CGW_POS_NONE | CGW_POS_LINE;
    o.flags |= CGW_EXTENDED;
    CHECK(cgw_open_memory(&out.buf, &out.len, &o) == NULL && errno == EINVAL);
    cgw_writer *w = open_function(CGW_POS_NONE, flags | CGW_EXTENDED, &out, 2);
    cgw_options got = CGW_OPTIONS_INIT;
    CHECK_ST(cgw_get_options(w, &got), CGW_OK);
    CHECK_U64(got.positions, CGW_POS_NONE);
    CHECK_ST(cgw_cost(w, NULL, P2(5, 1), 2), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(99), P2(0, 0), 2), CGW_OK); /* the array is not read */
    CHECK_ST(cgw_call(w, &to_g, 2, NULL, NULL, P2(9, 3), 2), CGW_OK);
    CHECK_ST(cgw_function(w, "g"), CGW_OK);
    CHECK_ST(cgw_cost(w, NULL, P1(9), 1), CGW_OK);
    CHECK_ST(cgw_finish(w), CGW_OK);
    cgw_free(w);
    CHECK(strstr(out.buf, "\npositions:\n") != NULL);
    cgwt_readback(out.buf, out.len, NULL); /* no position column draws a warning */
    char *b = body(out.buf);
    CHECK_STR(b, want);
    free(b);
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_CHECK };
    cgw_reader *r = cgw_reader_open_memory(out.buf, out.len, &ro);
    const cgw_record *rec;
    uint64_t self = 0, calls = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        CHECK_U64(rec->part->positions, CGW_POS_NONE);
        CHECK_U64(rec->part->npos, 0);
        self += rec->kind == CGW_REC_COST ? rec->costs[0] : 0;
        calls += rec->kind == CGW_REC_CALL ? rec->costs[0] : 0;
    }
    CHECK_U64(self, 14);
    CHECK_U64(calls, 9);
    cgw_reader_close(r);
    free(out.buf);
    /* a jump's source line would be empty */
    w = open_function(CGW_POS_NONE, flags | CGW_EXTENDED, &out, 1);
    CHECK_ST(cgw_jump(w, &to_f, 1, NULL, NULL), CGW_EINVAL);
    CHECK(strstr(cgw_errmsg(w), "cgw_jump") != NULL);
    cgw_free(w);
}

/* A call made inside an inlined file (fi=) to a function of that same
 * file: the readers disagree on the current file there, so portable
 * mode writes cfi= for it, and the call reads back to that file. */
static void call_into_inline_file(void)
{
    memory out = { NULL, 0 };
    cgw_writer *w = cgw_open_memory(&out.buf, &out.len, NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    CHECK_ST(cgw_function(w, "f"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 1), CGW_OK);
    CHECK_ST(cgw_inline_file(w, "b.h"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(2), P1(1), 1), CGW_OK);
    const cgw_target to_b = { NULL, "b.h", "g" };
    CHECK_ST(cgw_call(w, &to_b, 1, NULL, P1(2), P1(1), 1), CGW_OK);
    CHECK_ST(cgw_file(w, "b.h"), CGW_OK);
    CHECK_ST(cgw_function(w, "g"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(2), P1(1), 1), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(strstr(out.buf, "fi=(2) b.h\n+1 1\ncfi=(2)\ncfn=(2) g\ncalls=1 0\n") != NULL);
    cgw_reader *r = cgw_reader_open_memory(out.buf, out.len, NULL);
    const cgw_record *rec;
    int calls = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_CALL) {
            CHECK_STR(rec->target.file, "b.h");
            CHECK_STR(rec->target.function, "g");
            calls++;
        }
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    CHECK(calls == 1);
    cgw_reader_close(r);
    cgwt_annotate(out.buf, out.len, NULL);
    free(out.buf);
}

int main(void)
{
    call_into_inline_file();
    for (uint64_t p = 1;; p *= 10) {
        const uint64_t vs[] = { p - 1, p, p + 1, p * 2 - 1 };
        for (size_t i = 0; i < 4; i++) {
            every_length(0, vs[i], i == 3);
            every_length(CGW_COMPACT, vs[i], 0);
        }
        if (p > UINT64_MAX / 10)
            break;
    }
    for (unsigned bit = 0; bit < 64; bit++) {
        uint64_t v = (uint64_t)1 << bit;
        every_length(0, v - 1, 0);
        every_length(CGW_COMPACT, v, 0);
        every_length(CGW_COMPACT, v | (v - 1), 0);
    }
    every_length(0, UINT64_MAX, 1);
    every_length(CGW_COMPACT, UINT64_MAX, 0);
    no_positions(0, "fn=(1) f\n5 1\n0 0\ncfn=(2) g\ncalls=2\n9 3\n\nfl=(1)\nfn=(2)\n9 0\n\n"
                    "totals: 14 1\n");
    no_positions(CGW_COMPACT, "fn=(1) f\n5 1\n0\ncfn=(2) g\ncalls=2\n9 3\nfn=(2)\n9\n"
                              "totals: 14 1\n");
    lines(0, "fn=(1) f\n1000 5 0\n* 0 0\n+3 1 0\n-993 0 7\ncfn=(2) g\n"
             "calls=2 5000\n+2 9 0\n-1 1 0\n\nfl=(1)\nfn=(2)\n5000 9 0\n\ntotals: 16 7\n");
    lines(CGW_COMPACT, "fn=(1) f\n1000 5\n*\n+3 1\n10 0 7\ncfn=(2) g\ncalls=2 5000\n+2 9\n"
                       "-1 1\nfn=(2)\n5000 9\ntotals: 16 7\n");
    lines(CGW_NO_POS_COMPRESSION, "fn=(1) f\n1000 5 0\n1000 0 0\n1003 1 0\n10 0 7\n"
                                  "cfn=(2) g\ncalls=2 5000\n12 9 0\n11 1 0\n\n"
                                  "fl=(1)\nfn=(2)\n5000 9 0\n\ntotals: 16 7\n");
    instr(0, "fn=(1) f\n0x7fabcdef0000 1\n+4 1\njump=3 0x7fabcdef0000\n+4\n"
             "jcnd=1/2 0x7fabcdef0004\n+4\n0x1000 1\n0xffffffffffffffff 1\n"
             "\ntotals: 4\n");
    instr(CGW_COMPACT, "fn=(1) f\n0x7fabcdef0000 1\n+4 1\njump=3 -4\n+4\njcnd=1/2 -4\n"
                       "+4\n0x1000 1\n0xffffffffffffffff 1\ntotals: 4\n");
    steps_and_lines();
    compact_shortest();
    printf("subpositions encoded as specified in every mode\n");
    return 0;
}
