/* SPDX-License-Identifier: MIT */
/* test-reader: what the reader makes of small inputs.  One malformed
 * input per error class, each asserting the code and the line; portability
 * warnings; and the resolved records of a file that uses every rule
 * (relative positions, hex, one-shot cob=/cfi=, cfl=, fi=/fe=, jumps,
 * several parts). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define ERR(text, code, line) CGWT_EXPECT(text, code, line, CGW_ERROR)
#define WARN(text, code, line) CGWT_EXPECT(text, code, line, CGW_WARNING)

static void errors(void)
{
    ERR("events: Ir\nfn=a\n1 2\0 3\n", "nul-byte", 3);
    ERR("events: Ir\nfn=a\nfoo bar\n", "unknown-line", 3);
    ERR("events: Ir\nfn=a\nxyz=1\n", "unknown-line", 3);
    ERR("events: Ir\nfn=a\n1 2x\n", "bad-number", 3);
    ERR("events: Ir\nfn=a\n1x 2\n", "bad-number", 3);
    ERR("events: Ir\nfn=a\ncalls=x 1\n", "bad-number", 3);
    ERR("version: 1\ncreator: x\n", "missing-events", 1);
    ERR("", "not-a-profile", 0);
    ERR("\177ELF\2\1\1\0\0\0\n", "not-a-profile", 1);
    ERR("\n\n\x12\0\x05", "not-a-profile", 3);
    ERR("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "not-a-profile", 1); /* no unknown line first */
    ERR("fn=a\n1 2\nevents: Ir\n", "cost-before-events", 2);
    ERR("events: Ir\n1 2\n", "cost-before-function", 2);
    ERR("summary: 5\nevents: Ir\n", "summary-before-events", 1);
    ERR("events: Ir\npositions: line\n", "positions-after-events", 2);
    ERR("events: Ir\nfn=a\n1 2 3\n", "too-many-costs", 3);
    ERR("events: Ir\nfn=a\ncfn=b\ncalls=1 1\nfn=b\n", "call-without-cost", 4);
    /* name lines are taken whole on the fast path, their bytes read
     * eight at a time while eight are left, one at a time nearer the
     * end: a NUL sends the line to the general parser either way */
    ERR("events: Ir\nfn=(1) abcdefghij\0klmnop\nfn=(2) b\n1 1\n", "nul-byte", 2);
    ERR("events: Ir\nfn=a\n1 1\nfl=(1) x\0y\n", "nul-byte", 4);
    ERR("events: Ir\nfn=a\n1 1\nfl=(3)\nfn=b\n1 1\n", "undefined-id", 4);
    ERR("events: Ir\nfn=a\n1 1\nfn=(1) b\n1 1\nfn=(1) c\n1 1\n", "id-redefined", 6);
    ERR("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n", "call-without-cost", 4);
    ERR("events: Ir\nfn=(1)\n", "undefined-id", 2);
    ERR("events: Ir\nfl=(1) a.c\nfn=x\ncfi=(2)\ncfn=y\ncalls=1 1\n1 1\n", "undefined-id", 4);
    ERR("events: Ir\nfn=(1) a\nfn=(1) b\n", "id-redefined", 3);
    ERR("events: Ir\nfn=a\n5 1\n-6 1\n", "negative-position", 4);
    ERR("events: Ir\nfn=a\n5 1\ntotals: 2\n", "totals-mismatch", 4);
    ERR("events: Ir\nfn=a\n5 18446744073709551616\n", "overflow", 3);
    ERR("events: Ir\nfn=a\n5 18446744073709551615\n6 1\n", "overflow", 4);
    ERR("events: Ir\nfn=a\n18446744073709551615 1\n+1 1\n", "overflow", 4);
    ERR("positions: foo\nevents: Ir\n", "syntax", 1);
    ERR("events: Ir\nfn=a\ncalls=1 1\n1 1\n", "no-callee", 3);
    ERR("events: Ir\nevents: Dr\n", "events-redefined", 2);
}

static void warnings(void)
{
    WARN("events: Ir\r\nfn=a\n", "carriage-return", 1);
    WARN("events: Ir\nfn=a\n1\t2\n", "tab", 3);
    WARN("events: Ir\nfn=a\n1 2 \n", "blank", 3);
    /* Callgrind ends calls=, jump=, jcnd= and their source lines in a
     * blank, which every reader takes there (speedscope too: it rejects
     * the blank on a cost line only) */
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1 \n1 1\nfn=b\n1 1\n", "trailing-blank", 4);
    /* a cfn= with no calls= after it makes no call, and a block of it
     * alone no function (cgrecode and cgmerge, which write what they
     * read, would drop one) */
    WARN("events: Ir\nfn=a\ncfn=b\nfn=c\n1 1\n", "cfn-without-call", 4);
    WARN("events: Ir\nfn=a\ncfn=b\nfn=c\n1 1\n", "definition-only", 2);
    WARN("events: Ir\nfn=a\n1 1\ncfn=b\n", "cfn-without-call", 4);
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n1 1 \nfn=b\n1 1\n", "trailing-blank", 5);
    CGWT_WARNINGS("events: Ir\nfn=a\n1 1\njump=1 2 \n* \n", { "trailing-blank", 4 },
                  { "trailing-blank", 5 }, { "nonportable-line", 4 });
    CGWT_WARNINGS("positions: instr line\nevents: Ir\nfn=a\n0x1 1 1\njcnd=1/2 +2 0 \n* 0 \n",
                  { "trailing-blank", 6 }, { "nonportable-line", 5 });
    WARN("events: Ir\ndesc: I1 cache: \nfn=a\n1 1\n", "trailing-blank", 2);
    WARN("events: Ir\nfn=a\n1 2", "no-final-newline", 3);
    WARN("events: Ir\n", "no-format-line", 1);
    WARN("creator: x\nversion: 1\nevents: Ir\n", "header-order", 2);
    WARN("events:Ir\n", "key-without-space", 1);
    WARN("thread: 1\nevents: Ir\n", "nonportable-header", 1);
    WARN("positions: instr\nevents: Ir\n", "instr-positions", 1);
    WARN("positions: instr line\nevents: Ir\n", "positions-not-line", 1);
    WARN("events: Ir\nfn=a\n1 1\npart: 2\nfn=b\n1 1\n", "several-parts", 4);
    WARN("events: Ir Dr\nfn=a\n1 1\n", "few-costs", 3);
    WARN("events: Ir\nfn=a\n1 0x10\n", "hex-cost", 3);
    WARN("positions: instr\nevents: Ir\nfn=a\n0x1A 1\n", "uppercase-hex", 4);
    WARN("events: Ir\nfn=(1) a\nfn=(1) a\n", "id-defined-twice", 3);
    WARN("events: Ir\nfn=(01) a\n", "id-leading-zero", 2);
    WARN("events: Ir\nfn=(below main)\n", "paren-name", 2);
    WARN("events: Ir\nfn= a\n", "name-blank", 2);
    WARN("events: Ir\nfn=a\n+1 1\n", "relative-first", 3);
    WARN("events: Ir\nfn=a\ncfn=a\ncalls=0 1\n1 1\n", "calls-zero", 4);
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n\n1 1\nfn=b\n1 1\n", "line-in-call", 5);
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n1 1\ncalls=1 1\n1 1\nfn=b\n1 1\n",
         "call-without-cfn", 6);
    WARN("events: Ir\nfn=a\ncfn=b\ncfi=x.c\ncalls=1 1\n1 1\n", "callee-spec-after-cfn", 4);
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n1 1\n", "callee-without-block", 4);
    WARN("events: Ir\nfn=a\n1 1\nfn=b\n1 1\nfn=a\n2 1\n", "split-function", 6);
    /* the fast path's blank lines and fn=(ID) references */
    WARN("events: Ir\n\nfn=(1) a\n1 1\n\n\nfn=(2) b\n1 1\n\nfn=(1)\n2 1\n", "split-function", 10);
    ERR("events: Ir\nfn=(1) a\n1 1\n\n\nfn=(2)\n1 1\n", "undefined-id", 6);
    WARN("events: Ir\nfn=(1) a\n1 1\n\nfn=(01)\n", "id-leading-zero", 5);
    WARN("events: Ir\nfn=a\n1 1\nfi=b.h\n2 1\nfn=b\n1 1\n", "unclosed-inline", 6);
    WARN("events: Ir\nfn=a\njump=1 2\n1\n", "nonportable-line", 3);
    WARN("events: Ir\nsummary: 3\nfn=a\n1 1\n", "summary-mismatch", 1);
    WARN("events: Ir\nsummary: 1\nfn=a\n1 3\n", "summary-low", 1);
    WARN("events: Ir\nfn=a\n1 9007199254740992\n", "big-value", 3);
    WARN("events: Ir\nfl=a.c\nfn=f\n1 1\nfl=b.c\nfn=f\n1 1\n", "name-clash", 6);
    WARN("events: Ir\nfn=a\ncfn=b\ncalls=1 1\n1 100\nfn=b\n1 1\n", "inclusive-excess", 6);
    /* a call above the part's total, its callee on a cycle (g -> g),
     * which inclusive-excess lets be; calls on one cycle may carry more
     * (Callgrind's odd'2 -> even'2) */
    WARN("events: Samples\nfn=main\n1 2\ncfn=g\ncalls=1 1\n1 100\nfn=g\n1 50\ncfn=g\n"
         "calls=1 1\n1 50\n", "call-above-total", 5);
    WARN("events: Ir Samples\nfn=main\n1 2 2\ncfn=g\ncalls=1 1\n1 1 100\nfn=g\n1 1 50\n"
         "cfn=h\ncalls=1 1\n1 1 50\nfn=h\n1 1 1\ncfn=g\ncalls=1 1\n1 1 90\n",
         "call-above-total", 5);
    /* a compressed name cut off at the end of a line or of the file */
    ERR("events: Ir\nfn=(1) a\n1 3\ncfn=(2", "unclosed-id", 4);
    ERR("events: Ir\nfn=(1) a\n1 3\ncfn=(2\ncalls=1 1\n1 4\nfn=(12\n1 4\n", "unclosed-id", 7);
    WARN("events: Ir\nfi=x.c\nfn=a\n1 1\n", "inline-before-function", 2);
    WARN("events: Ir\nfn=\xff\xfe\n", "invalid-utf8", 2);
    /* names are hashed and checked for ASCII eight bytes at a time */
    WARN("events: Ir\nfn=(1) abc\xff""efghij\n", "invalid-utf8", 2);
    WARN("events: Ir\nfn=(1) abcdefghij\xc3\n", "invalid-utf8", 2);
    /* what the fast path leaves to the general parser in a name line */
    WARN("events: Ir\nob=(1) abcdefghijk\rlm\nfn=a\n1 1\n", "cr-in-line", 2);
    WARN("events: Ir\nfn=a\n1 1\ncfn=(2) b\rc\n", "cr-in-line", 4);
    WARN("events: Ir\nfn=(1) a\r\nfn=(2) b\n1 1\n", "carriage-return", 2);
    WARN("events: Ir\nfn=(1) a \nfn=(2) b\n1 1\n", "trailing-blank", 2);
    WARN("events: Ir\nfn=(1)  a\nfn=(2) b\n1 1\n", "id-name-blank", 2);
    WARN("events: Ir\nfn=(1) a\t\nfn=(2) b\n1 1\n", "name-blank", 2);
    WARN("events: Ir\narch: x\n", "unknown-header", 2);
    WARN("events: Ir\nfn=a\n1 1\ndesc: x: y\n", "header-in-body", 4);
    WARN("events: Ir\nfl=\nfn=a\n", "empty-name", 2);
    WARN("events: Ir\nfn=a\njump=1 2\n1 5\n", "jump-costs", 4);
    WARN("events: Ir Ir\n", "duplicate-event", 1);
    WARN("events: Ir\nevent: T = 2 Dr\nfn=a\n1 1\n", "bad-formula", 1);
    WARN("events: Ir X\nevent: X = Ir\nfn=a\n1 1 2\n", "bad-formula", 1);
}

/* The records of one file that uses every resolution rule. */
static const char rules[] =
    "# callgrind format\n"
    "version: 1\n"
    "creator: test\n"
    "positions: instr line\n"
    "event: Ir : Instructions\n"
    "event: T = 2 Ir\n"
    "events: Ir Dr\n"
    "ob=(1) prog\n"
    "fl=(1) a.c\n"
    "fn=(1) main\n"
    "0x10 5 1 2\n"          /* 11: cost at 0x10:5 */
    "+2 +1 3\n"             /* 12: 0x12:6, Dr missing */
    "cob=(2) libc.so\n"
    "cfl=(2) b.c\n"
    "cfn=(2) puts\n"
    "calls=2 0x100 20\n"    /* 16: target absolute */
    "+4 -1 10 1\n"          /* 17: source 0x16:5 moves the base */
    "cfn=(1)\n"
    "calls=1 -6 *\n"        /* 19: target relative to 0x16:5, base stays */
    "* * 7\n"               /* 20: source 0x16:5; cob/cfi were one-shot */
    "fi=(3) inl.h\n"
    "+1 +100 4\n"           /* 22: 0x17:105 from inl.h */
    "jcnd=1/3 +2 *\n"       /* 23 */
    "* *\n"
    "fe=(1)\n"
    "0x20 7 1\n"            /* 26 */
    "totals: 9 2\n"
    "\n"
    "part: 2\n"             /* 29: a new part, tables cleared */
    "positions: instr line\n" /* a part repeats its header (KCachegrind resets it) */
    "events: Ir Dr\n"
    "fl=(1) other.c\n"
    "fn=(1) again\n"
    "0x1 1 1 1\n";

static void records(void)
{
    cgw_reader *r = cgw_reader_open_memory(rules, sizeof rules - 1, NULL);
    CHECK(r != NULL);
    const cgw_record *rec;
    const cgw_record *got[32];
    cgw_record copy[32];
    uint64_t pos[32][3], tpos[32][3], costs[32][2];
    size_t n = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        CHECK(n < 32);
        copy[n] = *rec;
        if (rec->pos)
            memcpy(pos[n], rec->pos, 2 * sizeof *pos[n]), copy[n].pos = pos[n];
        if (rec->target_pos)
            memcpy(tpos[n], rec->target_pos, 2 * sizeof *tpos[n]), copy[n].target_pos = tpos[n];
        if (rec->costs)
            memcpy(costs[n], rec->costs, 2 * sizeof *costs[n]), copy[n].costs = costs[n];
        if (rec->kind == CGW_REC_PART) {
            const cgw_part *p = rec->part;
            if (p->index == 1) {
                CHECK_U64(p->positions, CGW_POS_INSTR | CGW_POS_LINE);
                CHECK_U64(p->nevents, 2);
                CHECK_STR(p->events[0].long_name, "Instructions");
                CHECK(p->events[1].long_name == NULL);
                CHECK_U64(p->nderived, 1);
                CHECK_STR(p->derived[0].name, "T");
                CHECK_STR(p->derived[0].formula, "2 Ir");
                CHECK_STR(p->creator, "test");
            } else {
                CHECK_U64(p->index, 2);
                CHECK_U64(p->number, 2);
                CHECK_STR(p->creator, "test"); /* inherited */
            }
        }
        got[n] = &copy[n];
        n++;
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    uint64_t errors, warnings;
    cgw_reader_counts(r, &errors, &warnings);
    CHECK_U64(errors, 0);
    static const cgw_record_kind kinds[] = {
        CGW_REC_PART, CGW_REC_FUNCTION, CGW_REC_COST, CGW_REC_COST, CGW_REC_CALL,
        CGW_REC_CALL, CGW_REC_INLINE, CGW_REC_COST, CGW_REC_COND_JUMP, CGW_REC_INLINE,
        CGW_REC_COST, CGW_REC_PART_END, CGW_REC_PART, CGW_REC_FUNCTION, CGW_REC_COST,
        CGW_REC_PART_END
    };
    CHECK_U64(n, sizeof kinds / sizeof *kinds);
    for (size_t i = 0; i < n; i++)
        CHECK_U64(got[i]->kind, kinds[i]);
    CHECK_U64(got[2]->line, 11);
    CHECK_U64(got[2]->pos[0], 0x10);
    CHECK_U64(got[2]->pos[1], 5);
    CHECK_STR(got[2]->object, "prog");
    CHECK_U64(got[3]->pos[0], 0x12);
    CHECK_U64(got[3]->pos[1], 6);
    CHECK_U64(got[3]->costs[1], 0);
    /* the first call: cob= and cfl= resolved, absolute target */
    const cgw_record *c = got[4];
    CHECK_STR(c->target.object, "libc.so");
    CHECK_STR(c->target.file, "b.c");
    CHECK_STR(c->target.function, "puts");
    CHECK_U64(c->count, 2);
    CHECK_U64(c->target_pos[0], 0x100);
    CHECK_U64(c->target_pos[1], 20);
    CHECK_U64(c->pos[0], 0x16);
    CHECK_U64(c->pos[1], 5);
    CHECK_U64(c->costs[0], 10);
    CHECK_U64(c->line, 16);
    /* the second: the target counts from the source line, not from it */
    c = got[5];
    CHECK_STR(c->target.object, "prog");
    CHECK_STR(c->target.file, "a.c");
    CHECK_STR(c->target.function, "main");
    CHECK_U64(c->target_pos[0], 0x10);
    CHECK_U64(c->target_pos[1], 5);
    CHECK_U64(c->pos[0], 0x16);
    CHECK_U64(c->pos[1], 5);
    /* inlined costs */
    CHECK_STR(got[7]->source_file, "inl.h");
    CHECK_STR(got[7]->file, "a.c");
    CHECK_U64(got[7]->pos[0], 0x17);
    CHECK_U64(got[7]->pos[1], 105);
    c = got[8];
    CHECK_U64(c->count, 1);
    CHECK_U64(c->executed, 3);
    CHECK_U64(c->target_pos[0], 0x19);
    CHECK_STR(c->target.function, "main");
    CHECK_STR(c->target.file, "inl.h");
    CHECK_STR(got[10]->source_file, "a.c");
    /* totals: self costs only */
    CHECK_U64(got[11]->costs[0], 1 + 3 + 4 + 1);
    CHECK_U64(got[11]->costs[1], 2);
    CHECK(got[11]->totals_line != NULL);
    CHECK_U64(got[11]->cost_lines, 4);
    CHECK_U64(got[11]->calls, 2);
    CHECK_U64(got[11]->functions, 1);
    /* part 2: ID 1 means other names now */
    CHECK_STR(got[13]->function, "again");
    CHECK_STR(got[13]->file, "other.c");
    CHECK(got[13]->object == NULL);
    CHECK(got[15]->totals_line == NULL);
    cgw_reader_close(r);
}

/* printf to buf[*len..cap), which must have room. */
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    CHECK(n > 0 && (size_t)n < cap - *len);
    *len += (size_t)n;
}

/* The records of text read from memory, through a path, and through a
 * path mapped (CGW_READ_MAP): the same, on the same lines, with every
 * record and with only the part ends (the runs of cost lines). */
static void same_through_path(const char *text, size_t len)
{
    char path[600];
    snprintf(path, sizeof path, "%s/input.out", cgwt_tmpdir());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    CHECK(fwrite(text, 1, len, f) == len);
    CHECK(fclose(f) == 0);
    unsigned skips[2] = { 0, CGW_SKIP(CGW_REC_COST) | CGW_SKIP(CGW_REC_CALL) |
                                 CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP) };
    for (int s = 0; s < 2; s++) {
        cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .skip = skips[s] };
        cgw_read_options om = o;
        om.flags |= CGW_READ_MAP;
        cgw_reader *rs[3] = { cgw_reader_open_memory(text, len, &o),
                              cgw_reader_open_path(path, &o), cgw_reader_open_path(path, &om) };
        CHECK(rs[0] != NULL && rs[1] != NULL && rs[2] != NULL);
        const cgw_record *a, *b;
        size_t n = 0;
        char msg[200];
        do {
            CHECK_ST(cgw_reader_next(rs[0], &a), CGW_OK);
            for (int k = 1; k < 3; k++) {
                CHECK_ST(cgw_reader_next(rs[k], &b), CGW_OK);
                if (cgw_record_compare(a, b, msg, sizeof msg) != 0)
                    cgwt_fail(__FILE__, __LINE__, "skip %d, reader %d, record %zu: %s", s, k, n,
                              msg);
                if (a != NULL)
                    CHECK_U64(a->line, b->line);
            }
            n++;
        } while (a != NULL);
        for (int k = 0; k < 3; k++) {
            CHECK_U64(cgw_reader_offset(rs[k]), len);
            cgw_reader_close(rs[k]);
        }
    }
}

/* The same bytes through memory, a descriptor and a path: the rules,
 * and a file of 2.2 MB whose lines cross the read blocks and the mapped
 * windows, with names longer than a block and one longer than a window
 * (the buffer grows for them). */
static void inputs(void)
{
    same_through_path(rules, sizeof rules - 1);
    size_t cap = 3000000, len = 0;
    char *big = malloc(cap);
    CHECK(big != NULL);
    append(big, cap, &len, "events: A B\n");
    for (int k = 0; k < 4; k++) {
        size_t name = k == 0 ? 1100000 : k < 3 ? 300000 : 1;
        append(big, cap, &len, "fn=(%d) ", k + 1);
        memset(big + len, 'a' + k, name);
        len += name;
        append(big, cap, &len, "\n");
        for (int i = 0; i < (k < 3 ? 100 : 60000); i++)
            append(big, cap, &len, "%d %d %d\n", i + 1, i % 7, i % 1000);
    }
    same_through_path(big, len);
    free(big);
    const cgw_record *a;
    CHECK(cgw_reader_open_path("/nonexistent/x", NULL) == NULL);
    cgw_read_options om = { .struct_size = sizeof om, .flags = CGW_READ_MAP };
    CHECK(cgw_reader_open_path("/nonexistent/x", &om) == NULL);
    CHECK(cgw_reader_open_fd(-1, NULL) == NULL);
    CHECK(cgw_reader_open_memory(NULL, 1, NULL) == NULL);
    CHECK_ST(cgw_reader_next(NULL, &a), CGW_EUSAGE);
    cgw_reader_close(NULL);
}

/* Skipped kinds are read and summed but not handed out; a skip bit of
 * no kind is refused. */
static void skipping(void)
{
    static const cgw_record_kind kinds[] = { CGW_REC_PART, CGW_REC_FUNCTION, CGW_REC_PART_END,
                                             CGW_REC_PART, CGW_REC_FUNCTION, CGW_REC_PART_END };
    cgw_read_options o = { .struct_size = sizeof o,
                           .skip = CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_COST) |
                               CGW_SKIP(CGW_REC_CALL) | CGW_SKIP(CGW_REC_COND_JUMP) };
    cgw_reader *r = cgw_reader_open_memory(rules, sizeof rules - 1, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    size_t n = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        CHECK(n < sizeof kinds / sizeof *kinds);
        CHECK_U64(rec->kind, kinds[n]);
        if (n == 2) { /* as records() finds them */
            CHECK_U64(rec->costs[0], 1 + 3 + 4 + 1);
            CHECK_U64(rec->costs[1], 2);
            CHECK_U64(rec->cost_lines, 4);
            CHECK_U64(rec->calls, 2);
            CHECK_U64(rec->functions, 1);
        }
        n++;
    }
    CHECK_U64(n, sizeof kinds / sizeof *kinds);
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    o.skip = CGW_SKIP(0);
    errno = 0;
    CHECK(cgw_reader_open_memory(rules, sizeof rules - 1, &o) == NULL && errno == EINVAL);
    o.skip = CGW_SKIP(CGW_REC_PART_END + 1);
    CHECK(cgw_reader_open_memory(rules, sizeof rules - 1, &o) == NULL && errno == EINVAL);
}

/* One read of text: its diagnostics as "line:code " in t->log (with the
 * message of a summary, which gives a count; no callback when t is
 * NULL), and the records of part ends (costs, counts) appended to ends. */
typedef struct trace {
    char log[4096];
    size_t len;
} trace;

static void on_trace(void *ctx, const cgw_diagnostic *d)
{
    trace *t = ctx;
    append(t->log, sizeof t->log, &t->len, "%llu:%s ", (unsigned long long)d->line, d->code);
    if (d->line == 0) /* a summary: "N more like this not shown" */
        append(t->log, sizeof t->log, &t->len, "(%s) ", d->message);
}

static void read_traced_flags(const char *text, unsigned flags, unsigned skip, trace *t,
                              char *ends, size_t cap)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK | flags,
                           .diag = t ? on_trace : NULL, .diag_ctx = t, .skip = skip };
    cgw_reader *r = cgw_reader_open_memory(text, strlen(text), &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    size_t len = 0;
    ends[0] = '\0';
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind != CGW_REC_PART_END)
            continue;
        append(ends, cap, &len, "[%llu lines %llu calls:", (unsigned long long)rec->cost_lines,
               (unsigned long long)rec->calls);
        for (size_t i = 0; i < rec->part->nevents; i++)
            append(ends, cap, &len, " %llu", (unsigned long long)rec->costs[i]);
        append(ends, cap, &len, "]");
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    uint64_t e, w;
    cgw_reader_counts(r, &e, &w);
    append(ends, cap, &len, " %llu errors %llu warnings", (unsigned long long)e,
           (unsigned long long)w);
    cgw_reader_close(r);
}

static void read_traced(const char *text, unsigned skip, trace *t, char *ends, size_t cap)
{
    read_traced_flags(text, 0, skip, t, ends, cap);
}

/* The self costs of text summed by function (in the order functions
 * first have costs) and of the calls by caller, into out; the number of
 * cost records in *nrec. */
static void self_sums(const char *text, unsigned flags, char *out, size_t cap, size_t *nrec)
{
    enum { MAXFN = 8, MAXEV = 4 };
    const char *names[MAXFN];
    uint64_t sums[MAXFN][MAXEV + 1] = { { 0 } };
    size_t nfn = 0, len = 0;
    cgw_read_options o = { .struct_size = sizeof o, .flags = flags };
    cgw_reader *r = cgw_reader_open_memory(text, strlen(text), &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    *nrec = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind != CGW_REC_COST && rec->kind != CGW_REC_CALL)
            continue;
        size_t f = 0;
        while (f < nfn && names[f] != rec->function)
            f++;
        CHECK(f < MAXFN && rec->part->nevents <= MAXEV);
        if (f == nfn)
            names[nfn++] = rec->function;
        *nrec += rec->kind == CGW_REC_COST;
        for (size_t i = 0; i < rec->part->nevents; i++)
            sums[f][rec->kind == CGW_REC_CALL ? MAXEV : i] += rec->costs[i];
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    out[0] = '\0';
    for (size_t f = 0; f < nfn; f++) {
        append(out, cap, &len, "%s:", names[f]);
        for (size_t i = 0; i <= MAXEV; i++)
            append(out, cap, &len, " %llu", (unsigned long long)sums[f][i]);
        append(out, cap, &len, ";");
    }
    cgw_reader_close(r);
}

/* CGW_READ_SUM_COSTS gives the same self costs by function as a read of
 * every cost line (and the same calls), in as many cost records or
 * fewer; the number it saved is added to *saved. */
static void same_sums(const char *text, size_t *saved)
{
    char each[1024], summed[1024];
    size_t nrec, nsummed;
    self_sums(text, 0, each, sizeof each, &nrec);
    self_sums(text, CGW_READ_SUM_COSTS, summed, sizeof summed, &nsummed);
    CHECK_STR(summed, each);
    CHECK(nsummed <= nrec);
    *saved += nrec - nsummed;
}

/* When cost records are skipped (as cgverify does), runs of cost lines
 * are read in one loop; each input ends such a run in another way, and
 * the read must give the totals, counts and diagnostics, on the same
 * lines, of a read that hands out every record. */
static void cost_runs(void)
{
    static const char *const inputs[] = {
        /* relative first line of a block, then a run */
        "events: A\nfn=f\n+1 5\n+2 6\n-1 7\n* 8\n",
        /* a total that wraps inside a run */
        "events: A B\nfn=f\n1 18446744073709551000 1\n2 5000 1\n3 1 1\n",
        /* fewer costs, more costs, a trailing blank, a tab, CR LF */
        "events: A B\nfn=f\n1 1 1\n2 3\n3 1 1 1\n4 1 1 \n5 1\t1\n6 1 1\r\n7 2 2\n",
        /* a negative step, an overflowing step, uppercase hex, 20 digits */
        "positions: instr line\nevents: A\nfn=f\n0x10 5 1\n-17 * 1\n+3 * 2\n"
        "+18446744073709551615 * 1\n0xAB 1 1\n1 99999999999999999999 1\n* * 1\n",
        /* costs of 2^53 and more, hex costs, a jump's source line */
        "positions: instr line\nevents: A\nfn=f\n1 1 9007199254740992\n2 2 0x10\n"
        "jump=3 +1 *\n* *\n+1 +1 1\n",
        /* a call's cost line, then a run; a last line with no newline */
        "events: A\nfn=f\n1 1\ncfn=g\ncalls=2 5\n2 3\n3 4\nfn=g\n5 6\n6 7",
        /* three subpositions; a cost line before fn= */
        "positions: instr bb line\nevents: A\n1 2 3 4\nfn=f\n1 2 3 4\n+1 +1 +1 5\n",
        /* an inline file left open by the next fn= */
        "events: A\nfn=f\n1 1\nfi=h\n2 2\n3 3\nfn=g\n4 4\n",
        /* a run across parts and an inline file */
        "events: A\nfn=f\n1 1\n2 2\nfi=h\n3 3\nfe=h\n4 4\ntotals: 10\n\npart: 2\nfn=g\n+1 1\n",
    };
    size_t saved = 0; /* short inputs: none; same_sums() checks them */
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        trace t[3] = { { "", 0 }, { "", 0 }, { "", 0 } };
        char ends[3][1024];
        read_traced(inputs[i], 0, &t[0], ends[0], sizeof ends[0]);
        read_traced(inputs[i], CGW_SKIP(CGW_REC_COST), &t[1], ends[1], sizeof ends[1]);
        read_traced_flags(inputs[i], CGW_READ_SUM_COSTS, 0, &t[2], ends[2], sizeof ends[2]);
        for (int k = 1; k < 3; k++) {
            CHECK_STR(ends[k], ends[0]);
            CHECK_STR(t[k].log, t[0].log);
        }
        CHECK(strstr(ends[0], " lines ") != NULL);
        same_sums(inputs[i], &saved);
    }
}

/* Runs of cost lines summed (CGW_READ_SUM_COSTS) past the first lines,
 * which are always read one by one: between calls, inline files,
 * function blocks and parts, and before a line whose cost would wrap a
 * total; the totals and diagnostics are those of a read line by line. */
static void summed_runs(void)
{
    char text[4096];
    size_t len = 0, saved = 0;
    append(text, sizeof text, &len, "# callgrind format\nevents: A B\nfl=a.c\nfn=f\n");
    for (int i = 1; i <= 12; i++)
        append(text, sizeof text, &len, "%d %d %d\n", i, i, 2 * i);
    append(text, sizeof text, &len, "cfn=g\ncalls=1 5\n13 9 9\n+1 4\n+1 5 5\nfi=b.h\n7 1 1\n"
           "8 2 2\nfe=a.c\n-1 3 3\nfn=g\n5 6 6\n6 7 7\n7 18446744073709551000 1\n"
           "8 5000 1\n9 1 1\n\npart: 2\nfn=g\n1 1 1\n2 2 2\n");
    trace t[2] = { { "", 0 }, { "", 0 } };
    char ends[2][1024];
    read_traced(text, 0, &t[0], ends[0], sizeof ends[0]);
    read_traced_flags(text, CGW_READ_SUM_COSTS, 0, &t[1], ends[1], sizeof ends[1]);
    CHECK_STR(ends[1], ends[0]);
    CHECK_STR(t[1].log, t[0].log);
    same_sums(text, &saved);
    CHECK(saved >= 8); /* lines 9-12 of f and the runs after them */
}

/* Lines with fewer costs than events (Callgrind drops trailing zeros,
 * most lines of a --cache-sim=yes file): once their warning is only
 * counted they are read inline and in runs; every way of reading them
 * (every record, cost records skipped, no callback) counts each of
 * them, and gives the same totals, diagnostics and summary line. */
static void few_costs(void)
{
    char text[4096];
    size_t len = 0;
    append(text, sizeof text, &len, "events: A B C\nfn=f\n");
    for (int i = 1; i <= 60; i++)
        append(text, sizeof text, &len, i % 3 ? "%d 1\n" : "%d 1 1 1\n", i);
    append(text, sizeof text, &len, "cfn=g\ncalls=1 5\n61 2\n62 1 2\n");
    trace t[2] = { { "", 0 }, { "", 0 } };
    char ends[3][1024];
    read_traced(text, 0, &t[0], ends[0], sizeof ends[0]);
    read_traced(text, CGW_SKIP(CGW_REC_COST), &t[1], ends[1], sizeof ends[1]);
    read_traced(text, CGW_SKIP(CGW_REC_COST), NULL, ends[2], sizeof ends[2]);
    /* 42 short lines (the call's too), no-positions, no-format-line,
     * callee-without-block and flame-total (speedscope: f with its call,
     * 62 of 61) */
    CHECK_STR(ends[0], "[61 lines 1 calls: 61 22 20] 0 errors 46 warnings");
    CHECK_STR(ends[1], ends[0]);
    CHECK_STR(ends[2], ends[0]);
    CHECK_STR(t[1].log, t[0].log);
    CHECK(strstr(t[0].log, "(22 more like this not shown)") != NULL);
}

/* Calls and jumps, with their source lines, inside runs of cost lines
 * (when their records are skipped too and their warnings are only
 * counted, after 20 of each are shown), and every way such a line
 * leaves the run: read with every record, with cost records skipped
 * and with calls and jumps skipped as well, which must agree. */
static void group_runs(void)
{
    static const char *const cases[] = {
        /* calls and jumps as Callgrind writes them */
        "+1 1 2 3\ncfn=(2)\ncalls=2 +1 *\n* * 5 6\n+1 * 1 1\njcnd=1/2 -1 * \n* * \n"
        "+2 +1 1 1\njump=3 0x30 7 \n+1 *\n",
        /* the callee's object and file, and a trailing blank after the target */
        "cob=(2)\ncfi=(2)\ncfn=(2)\ncalls=1 0x20 3 \n+1 * 1 1\ncfl=(2)\ncfn=(2)\n"
        "calls=1 +1 *\n* * 1 1\n",
        /* a call in a run, with trailing blanks */
        "+1 * 1 1\ncfn=(2)\ncalls=1 +1 * \n* * 1 1 \n+1 * 1 1\n",
        /* calls=0; no fresh cfn=; cfi= after cfn=; an undefined ID */
        "cfn=(2)\ncalls=0 +1 *\n* * 1 1\ncalls=3 +1 *\n* * 1 1\n",
        "cfn=(2)\ncfi=(1)\ncalls=1 +1 *\n* * 1 1\ncfn=(9)\ncalls=1 +1 *\n* * 1 1\n",
        /* a jump's source line with costs; a call's with too few, or 2^53 */
        "jump=1 +1 *\n* * 1 1\ncfn=(2)\ncalls=1 +1 *\n* * 1\n",
        "cfn=(2)\ncalls=1 +1 *\n* * 9007199254740992 1\n",
        /* followed > executed; a negative target; a target with three positions */
        "jcnd=3/2 +1 *\n* *\njump=1 -99999 *\n* *\njump=1 +1 * 7\n* *\n",
        /* a relative source line first in a block; a blank line inside a call */
        "fn=(3) h\njump=1 +1 *\n+1 * \nfn=(1)\n1 1 1 1\ncfn=(2)\ncalls=1 +1 *\n\n* * 1 1\n",
        /* jfi= jfn= before a jump, then calls= whose cfn= the jump used up */
        "jfi=(1)\njfn=(2)\njump=1 +1 *\n* *\ncalls=1 +1 *\n* * 1 1\n",
        "cob=(1)\ncfn=(2)\njump=1 +1 *\n* *\ncalls=1 +1 *\n* * 1 1\n",
        /* inclusive costs that pass 2^64-1, and more than the callee's own */
        "cfn=(2)\ncalls=1 +1 *\n* * 9007199254740991 1\ncfn=(2)\ncalls=1 +1 *\n"
        "* * 18446744073709551615 1\n",
        /* a callee with no block of its own: the diagnostic gives the call's line */
        "cfn=(4) k\n+1 * 1 1\ncfn=(4)\ncalls=1 +1 *\n* * 1 1\n",
        /* a jump, and a call, with no source line at the end of the input */
        "+1 * 1 1\njump=1 +1 *\n",
        "+1 * 1 1\ncfn=(2)\ncalls=1 +1 *",
    };
    static const unsigned skips[] = {
        0, CGW_SKIP(CGW_REC_COST),
        CGW_SKIP(CGW_REC_COST) | CGW_SKIP(CGW_REC_CALL) | CGW_SKIP(CGW_REC_JUMP) |
            CGW_SKIP(CGW_REC_COND_JUMP),
    };
    size_t saved = 0; /* short inputs: none; same_sums() checks them */
    for (size_t i = 0; i < 2 * sizeof cases / sizeof *cases; i++) {
        char text[2048];
        size_t len = 0;
        append(text, sizeof text, &len,
               "positions: instr line\nevents: A B\nob=(1) o\nfl=(1) a.c\nfn=(1) f\n"
               "cfn=(2) g\ncob=(2) p\ncfi=(2) b.c\n0x10 1 1 1\n");
        /* each case twice: with no warning counted yet, and after 21 jumps
         * and 42 trailing blanks, of which 20 each are shown */
        for (int k = 0; i % 2 == 1 && k < 21; k++)
            append(text, sizeof text, &len, "jump=1 +1 * \n* * \n+1 * 1 1\n");
        append(text, sizeof text, &len, "%s", cases[i / 2]);
        if (text[len - 1] == '\n') /* a warning after the run, and a block for g */
            append(text, sizeof text, &len, "+1 * 1 1\n0xAB * 1 1\nfn=(2)\n1 1 1\n");
        trace t[4];
        char ends[4][1024];
        for (int k = 0; k < 4; k++) {
            t[k].len = 0;
            t[k].log[0] = '\0';
            /* the fourth: every record, runs of cost lines summed */
            read_traced_flags(text, k == 3 ? CGW_READ_SUM_COSTS : 0, skips[k % 3], &t[k],
                              ends[k], sizeof ends[k]);
            CHECK_STR(ends[k], ends[0]);
            CHECK_STR(t[k].log, t[0].log);
        }
        same_sums(text, &saved);
        /* with no callback, every warning is only counted from the start */
        read_traced(text, skips[2], NULL, ends[1], sizeof ends[1]);
        CHECK_STR(ends[1], ends[0]);
        CHECK(strstr(ends[0], " calls:") != NULL);
    }
    CHECK(saved > 0);
}

/* Numbers of every length the fast path parses (and 20 digits, which
 * it leaves to the general parser), as positions (decimal, and hex up to
 * 16 digits) and as costs, read with every record and with cost records
 * skipped. */
static void number_lengths(void)
{
    uint64_t v = 0;
    for (int len = 1; len <= 20; len++) {
        v = v * 10 + (uint64_t)(len % 10 == 0 ? 1 : len % 10); /* 1, 12, ... 12345678911234567891 */
        if (len == 20)
            v = 10000000000000000001u; /* 20 digits below 2^64 */
        char text[200];
        snprintf(text, sizeof text,
                 "positions: instr line\nevents: A B\nfn=f\n0x%llx %llu %llu %llu\n",
                 (unsigned long long)v, (unsigned long long)v, (unsigned long long)v,
                 (unsigned long long)len);
        for (int skip = 0; skip < 2; skip++) {
            cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK,
                                   .skip = skip ? CGW_SKIP(CGW_REC_COST) : 0 };
            cgw_reader *r = cgw_reader_open_memory(text, strlen(text), &o);
            CHECK(r != NULL);
            const cgw_record *rec;
            int costs = 0, ends = 0;
            while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
                if (rec->kind == CGW_REC_COST) {
                    CHECK_U64(rec->pos[0], v);
                    CHECK_U64(rec->pos[1], v);
                    costs++;
                }
                if (rec->kind == CGW_REC_PART_END) {
                    CHECK_U64(rec->costs[0], v);
                    CHECK_U64(rec->costs[1], (uint64_t)len);
                    CHECK_U64(rec->cost_lines, 1);
                    ends++;
                }
            }
            uint64_t errors;
            cgw_reader_counts(r, &errors, NULL);
            CHECK_U64(errors, 0);
            CHECK(costs == !skip && ends == 1);
            cgw_reader_close(r);
        }
    }
}

/* The first record of kind in text, read from a buffer of exactly its
 * size (so that a read past the input is caught under ASan): its first
 * position (a cost) or target position (a call) in *v; the number of
 * errors.  *v is left alone when there is no such record. */
static uint64_t read_exact(const char *text, size_t len, cgw_record_kind kind, uint64_t *v)
{
    char *buf = malloc(len);
    CHECK(buf != NULL);
    memcpy(buf, text, len);
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK };
    cgw_reader *r = cgw_reader_open_memory(buf, len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    int found = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind == kind && !found) {
            *v = kind == CGW_REC_CALL ? rec->target_pos[0] : rec->pos[0];
            found = 1;
        }
    }
    uint64_t errors;
    cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    free(buf);
    return errors;
}

/* Hex positions of 1 to 17 digits (every digit appears), followed by a
 * blank, the line's end, an uppercase digit or a byte just outside the
 * ranges of the digits, with 0 to 4 comment lines after them so that the
 * input ends at every distance from the digits (the fast path reads
 * eight bytes at a time when that many are left): as a cost line's
 * position and as a call's target, which ends its line. */
static void hex_lengths(void)
{
    static const char after[] = { ' ', '\n', 'F', '/', ':', '`', 'g', 'G', '@', '\xe9' };
    for (int n = 1; n <= 17; n++) {
        char d[18];
        for (int i = 0; i < n; i++)
            d[i] = "0123456789abcdef"[(i * 7 + n) % 16];
        d[n] = '\0';
        uint64_t want = n <= 16 ? strtoull(d, NULL, 16) : 0;
        for (size_t a = 0; a < sizeof after; a++) {
            for (int pad = 0; pad <= 4; pad++) {
                char text[200];
                size_t len = 0;
                uint64_t v = 0, errors;
                append(text, sizeof text, &len, "positions: instr\nevents: A\nfn=f\n0x%s%c1\n",
                       d, after[a]);
                for (int i = 0; i < pad; i++)
                    append(text, sizeof text, &len, "#\n");
                errors = read_exact(text, len, CGW_REC_COST, &v);
                if (after[a] == ' ' || after[a] == '\n') { /* "0xD 1", or "0xD" and "1" */
                    CHECK_U64(errors, n > 16);
                    CHECK_U64(v, n <= 16 ? want : after[a] == '\n'); /* else the line "1" */
                } else if (after[a] == 'F') { /* "0xDF1": uppercase, no cost */
                    CHECK_U64(errors, n + 2 > 16);
                    CHECK_U64(v, n + 2 > 16 ? 0 : want << 8 | 0xf1);
                } else {
                    CHECK_U64(errors, 1);
                }
                if (after[a] != ' ' && after[a] != '\n')
                    continue;
                len = 0;
                v = 0;
                append(text, sizeof text, &len,
                       "positions: instr\nevents: A\nfn=f\n1 1\ncfn=g\ncalls=2 0x%s%s\n2 5\n", d,
                       after[a] == ' ' ? " " : "");
                for (int i = 0; i < pad; i++)
                    append(text, sizeof text, &len, "#\n");
                errors = read_exact(text, len, CGW_REC_CALL, &v);
                CHECK_U64(errors, n > 16);
                CHECK_U64(v, want);
            }
        }
    }
}

/* cgw_reader_peek(): the record the next cgw_reader_next() hands out,
 * the same however often it is peeked at; skipped kinds are passed over
 * as by cgw_reader_next(); NULL at the end. */
static void peeking(void)
{
    static const char text[] = "positions: instr line\nevents: Ir\nfn=f\n0x10 3 5\n";
    cgw_read_options o = { .struct_size = sizeof o, .skip = CGW_SKIP(CGW_REC_FUNCTION) };
    cgw_reader *r = cgw_reader_open_memory(text, sizeof text - 1, &o);
    CHECK(r != NULL);
    const cgw_record *peeked, *again, *rec;
    CHECK_ST(cgw_reader_peek(r, &peeked), CGW_OK);
    CHECK(peeked != NULL && peeked->kind == CGW_REC_PART);
    CHECK_U64(peeked->part->positions, CGW_POS_INSTR | CGW_POS_LINE);
    CHECK_ST(cgw_reader_peek(r, &again), CGW_OK);
    CHECK(again == peeked);
    CHECK_ST(cgw_reader_next(r, &rec), CGW_OK);
    CHECK(rec == peeked);
    CHECK_ST(cgw_reader_peek(r, &peeked), CGW_OK);
    CHECK(peeked != NULL && peeked->kind == CGW_REC_COST && peeked->costs[0] == 5);
    CHECK_ST(cgw_reader_next(r, &rec), CGW_OK);
    CHECK(rec == peeked);
    CHECK_ST(cgw_reader_next(r, &rec), CGW_OK);
    CHECK(rec != NULL && rec->kind == CGW_REC_PART_END);
    CHECK_ST(cgw_reader_peek(r, &peeked), CGW_OK);
    CHECK(peeked == NULL);
    CHECK_ST(cgw_reader_next(r, &rec), CGW_OK);
    CHECK(rec == NULL);
    CHECK_ST(cgw_reader_peek(NULL, &peeked), CGW_EUSAGE);
    cgw_reader_close(r);
}

/* call-above-total: a call that costs more than its part, said at its
 * calls= line unless its caller and callee are on one cycle, where
 * Callgrind's own files carry more (odd'2 -> even'2: the inner calls of
 * a recursion added into one); a direct recursion (g -> g) is one. */
static void calls_above_total(void)
{
    trace t = { .len = 0 };
    char ends[256];
    /* main -> g above Samples' 53 at line 5; h -> g (90) at line 15 too,
     * but g and h are on one cycle */
    read_traced("events: Ir Samples\nfn=main\n1 2 2\ncfn=g\ncalls=1 1\n1 1 100\n"
                "fn=g\n1 1 50\ncfn=h\ncalls=1 1\n1 1 50\nfn=h\n1 1 1\ncfn=g\ncalls=1 1\n"
                "1 1 90\ncfn=g\ncalls=1 1\n1 1 9\n", 0, &t, ends, sizeof ends);
    CHECK(strstr(t.log, " 5:call-above-total ") != NULL);
    CHECK(strstr(t.log, "15:call-above-total") == NULL);
    CHECK(strstr(t.log, "inclusive-excess") == NULL);
    /* on a cycle only, or at the total: nothing said */
    t.len = 0;
    t.log[0] = '\0';
    read_traced("events: Ir\nfn=main\n1 2\ncfn=g\ncalls=1 1\n1 5\nfn=g\n1 3\ncfn=g\n"
                "calls=1 1\n1 400\n", 0, &t, ends, sizeof ends);
    CHECK(strstr(t.log, "call-above-total") == NULL);
}

/* inclusive-excess: calls into a function that carry more than its
 * self cost plus its calls, unless it is on a cycle of calls.  Here a
 * and b call each other, no call above the total of 11 (main 1, a 5,
 * b 5): calls into a carry 10 + 5 = 15, more than its 5 + 5, yet nothing
 * is said.  With b -> a made b -> c (b 4, c 1: the same total), no
 * cycle is left, and c's 5 in against its 1 is an excess. */
static void cycle_excess(void)
{
    trace t = { .len = 0 };
    char ends[256];
    read_traced("# callgrind format\npositions: line\nevents: Ir\nfn=main\n1 1\ncfn=a\n"
                "calls=1 1\n2 10\nfn=a\n1 5\ncfn=b\ncalls=1 1\n2 5\nfn=b\n1 5\ncfn=a\n"
                "calls=1 1\n2 5\n", 0, &t, ends, sizeof ends);
    CHECK_STR(t.log, "");
    CHECK_STR(ends, "[3 lines 3 calls: 11] 0 errors 0 warnings");
    t.len = 0;
    t.log[0] = '\0';
    read_traced("# callgrind format\npositions: line\nevents: Ir\nfn=main\n1 1\ncfn=a\n"
                "calls=1 1\n2 10\nfn=a\n1 5\ncfn=b\ncalls=1 1\n2 5\nfn=b\n1 4\ncfn=c\n"
                "calls=1 1\n2 5\nfn=c\n1 1\n", 0, &t, ends, sizeof ends);
    CHECK_STR(t.log, "19:inclusive-excess ");
}

int main(void)
{
    errors();
    warnings();
    records();
    inputs();
    skipping();
    cost_runs();
    summed_runs();
    few_costs();
    group_runs();
    number_lengths();
    hex_lengths();
    peeking();
    calls_above_total();
    cycle_excess();
    printf("reader: error classes, warnings, records, inputs and skipped kinds agree\n");
    return 0;
}
