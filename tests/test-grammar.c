/* SPDX-License-Identifier: MIT */
/* test-grammar: the corners of the format's grammar (section 3.2 of the
 * spec) and what the main readers crash on or misread, as the reader
 * must judge them: valid input read as the spec says, with a warning
 * where a reader breaks; errors where KCachegrind or callgrind_annotate
 * crash, die or misread; and the files KCachegrind reads otherwise read
 * as KCachegrind reads them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define ERR(text, code, line) CGWT_EXPECT(text, code, line, CGW_ERROR)
#define WARN(text, code, line) CGWT_EXPECT(text, code, line, CGW_WARNING)

/* What a read gives: the counts, the first part's Ir total, and what the
 * records say of functions and calls. */
typedef struct got {
    uint64_t errors, warnings;
    uint64_t total;         /* of event 0, all parts */
    uint64_t self;          /* event 0 of the cost records */
    uint64_t calls, call_cost, call_count;
    char file[64];          /* of the last function record */
    char callee_file[64];   /* of the last call */
    uint64_t last_pos[3];
    size_t npos;
    uint64_t version;       /* of the last part */
} got;

static got read_text(const char *text, size_t len)
{
    got g;
    memset(&g, 0, sizeof g);
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        switch (rec->kind) {
        case CGW_REC_FUNCTION:
            snprintf(g.file, sizeof g.file, "%s", rec->file);
            break;
        case CGW_REC_COST:
            g.self += rec->costs[0];
            g.npos = rec->part->npos;
            memcpy(g.last_pos, rec->pos, g.npos * sizeof *g.last_pos);
            break;
        case CGW_REC_CALL:
            g.calls++;
            g.call_cost += rec->costs[0];
            g.call_count += rec->count;
            snprintf(g.callee_file, sizeof g.callee_file, "%s", rec->target.file);
            break;
        case CGW_REC_PART_END:
            g.total += rec->costs[0];
            g.version = rec->part->version;
            break;
        default:
            break;
        }
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_counts(r, &g.errors, &g.warnings);
    cgw_reader_close(r);
    return g;
}

#define READ(text) read_text(text, sizeof text - 1)

/* Valid by the grammar: read as the spec says. */
static void valid(void)
{
    /* relative steps in hex: counted, positions right */
    got g = READ("positions: instr line\nevents: Ir\nfl=a.c\nfn=f\n"
                 "0x100 10 1\n+0x20 +2 2\n-0x10 -1 4\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.total, 7);
    CHECK_U64(g.self, 7);
    CHECK_U64(g.last_pos[0], 0x110);
    CHECK_U64(g.last_pos[1], 11);
    WARN("positions: instr line\nevents: Ir\nfn=f\n0x100 10 1\n+0x20 +2 2\n", "hex-step", 5);

    /* blanks and tabs after calls=, jump=, jcnd=: the call is a call */
    g = READ("events: Ir\nfn=f\n1 1\ncfn=g\ncalls= 3 5\n2 40\nfn=g\n5 40\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.calls, 1);
    CHECK_U64(g.call_count, 3);
    CHECK_U64(g.call_cost, 40);
    CHECK_U64(g.self, 41);
    g = READ("events: Ir\nfn=f\n1 1\ncfn=g\ncalls=\t3 5\n2 40\njump=  2 9\n3\n"
             "jcnd= 1/2 9\n4\nfn=g\n5 40\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.calls, 1);
    CHECK_U64(g.self, 41);

    /* an empty positions: line: no position column */
    g = READ("positions:\nevents: Ir Dr\nfn=f\n3 4\n5 6\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.npos, 0);
    CHECK_U64(g.total, 8);
    WARN("positions:\nevents: Ir\nfn=f\n3\n", "no-position-column", 1);

    /* version: 0 is the format before compression: compatible */
    g = READ("version: 0\nevents: Ir\nfn=f\n1 1\n");
    CHECK_U64(g.errors, 0);
    ERR("version: 2\nevents: Ir\n", "bad-version", 1);
    /* Xdebug 2: its own version, and profiles appended to one file */
    WARN("version: 0.9.6\nevents: Ir\nfn=f\n1 1\n", "version-text", 1);
    g = READ("version: 0.9.6\nevents: Ir\nfn=f\n1 1\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.version, 1); /* format 1, not the 0 it starts with */
    ERR("version: 0.9.6x\nevents: Ir\n", "bad-number", 1);
    /* a dot at either end is no program's version but a bad number */
    ERR("version: 1.\nevents: Ir\n", "bad-number", 1);
    ERR("version: .9\nevents: Ir\n", "bad-number", 1);
    WARN("events: Ir\nfn=f\n1 1\n==== NEW PROFILING FILE =====\nversion: 0.9.6\nevents: Ir\n"
         "fn=g\n1 2\n", "appended-profile", 4);
    ERR("events: Ir\nfn=f\n1 1\n=== NEW PROFILING FILE\n", "unknown-line", 4);

    /* a key of three letters is no name line: fnx=, obj= are unknown */
    ERR("events: Ir\nfnx=a\nfn=f\n1 1\n", "unknown-line", 2);
    ERR("events: Ir\nobj=a\nfn=f\n1 1\n", "unknown-line", 2);
    g = READ("events: Ir\nfl=a.c\nfn=f\n1 1\nfln=b.c\nfn=g\n1 1\n");
    CHECK_U64(g.errors, 1);
    CHECK_STR(g.file, "a.c");

    /* a relative step that lands exactly on 0, in the general parser
     * (the blank at the end takes the line there) */
    g = READ("events: Ir\nfn=f\n5 1\n-5 2 \n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.total, 3);
    CHECK_U64(g.last_pos[0], 0);
    ERR("events: Ir\nfn=f\n5 1\n-6 2 \n", "negative-position", 4);
    /* +2 then -2 back to 0 on each path: the fast one (lines Callgrind
     * writes), the general parser's inline reader (CR LF), and its
     * complete branch (a last line with no '\n', a step in hex) */
    static const char *const to_zero[] = {
        "events: Ir\nfn=f\n0 1\n+2 1\n-2 1\n",
        "events: Ir\r\nfn=f\r\n0 1\r\n+2 1\r\n-2 1\r\n",
        "events: Ir\nfn=f\n0 1\n+2 1\n-2 1",
        "events: Ir\nfn=f\n0 1\n+2 1\n-0x2 1\n",
    };
    for (size_t i = 0; i < sizeof to_zero / sizeof *to_zero; i++) {
        g = read_text(to_zero[i], strlen(to_zero[i]));
        CHECK_U64(g.errors, 0);
        CHECK_U64(g.total, 3);
        CHECK_U64(g.last_pos[0], 0);
    }

    /* "(" and a digit start a compressed ID, whose Number may be hex */
    g = READ("events: Ir\nfl=(0x1) a.c\nfn=(0x2) f\n1 1\nfl=(1)\nfn=(2)\n2 2\n");
    CHECK_U64(g.errors, 0);
    CHECK_STR(g.file, "a.c");
    WARN("events: Ir\nfn=(0x1) f\n1 1\n", "hex-id", 2);

    /* IDs up to 2^64-1 fit */
    g = READ("events: Ir\nfn=(18446744073709551610) f\n1 1\n"
             "fn=(18446744073709551615) g\n1 1\nfn=(18446744073709551610)\n1 1\n");
    CHECK_U64(g.errors, 0);
    CHECK_U64(g.total, 3);
    ERR("events: Ir\nfn=(18446744073709551616) f\n1 1\n", "bad-number", 2);
}

/* Errors: a main reader crashes on these, dies or misreads them. */
static void errors(void)
{
    /* KCachegrind forgets the events at a new part and crashes */
    ERR("events: Ir\nfn=f\n1 1\npart: 2\nfn=g\n1 1\n", "missing-events", 4);
    /* an empty function name, a caller or a callee (KCachegrind: "(unknown)") */
    ERR("events: Ir\nfn=\n1 1\n", "empty-function", 2);
    ERR("events: Ir\nfn=f\ncfn=\ncalls=1 1\n1 1\n", "empty-function", 3);
    /* every reader drops a cost line that starts with a blank; so does
     * libcgw, so that the totals agree */
    ERR("events: Ir\nfn=f\n1 10\n 2 20\n", "indented-cost", 4);
    ERR("events: Ir\nfn=f\n1 10\n\t2 20\n", "indented-cost", 4);
    got g = READ("events: Ir\nfn=f\n1 10\n 2 20\n3 30\n");
    CHECK_U64(g.total, 40);
    /* callgrind_annotate dies on positions out of Callgrind's order */
    ERR("positions: line instr\nevents: Ir\nfn=f\n1 0x10 1\n", "positions-order", 1);
    g = READ("positions: line instr\nevents: Ir\nfn=f\n7 0x10 1\n");
    CHECK_U64(g.last_pos[0], 0x10); /* read anyway, into array order */
    CHECK_U64(g.last_pos[1], 7);
    /* KCachegrind refuses more than 200 events */
    char many[4096] = "events:";
    for (int i = 0; i < 201; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), " E%d", i);
    strcat(many, "\nfn=f\n1 1\n");
    cgwt_expect(__FILE__, __LINE__, many, strlen(many), "many-events", 1, CGW_ERROR);
    /* 0X: KCachegrind and callgrind_annotate read 0 */
    ERR("positions: instr\nevents: Ir\nfn=f\n0X10 1\n", "hex-prefix", 4);
    ERR("events: Ir\nfn=f\n1 0X10\n", "hex-prefix", 3);
    /* positions: after the body began, reported on its own line */
    ERR("events: Ir\nfn=f\n1 1\npositions: line\n2 2\n", "positions-after-events", 4);
}

/* Files KCachegrind reads otherwise than one might: libcgw reads them
 * as it does, and says what each reader does. */
static void as_kcachegrind(void)
{
    /* fi= before fn=: the function's file is the fl= one */
    got g = READ("events: Ir\nfl=a.c\nfi=b.h\nfn=f\n1 1\n");
    CHECK_STR(g.file, "a.c");
    WARN("events: Ir\nfl=a.c\nfi=b.h\nfn=f\n1 1\n", "inline-before-function", 3);
    /* cfi= after cfn=: the callee was bound at cfn= */
    g = READ("events: Ir\nfl=a.c\nfn=f\n1 1\ncfn=g\ncfi=b.c\ncalls=1 1\n1 5\n"
             "fl=a.c\nfn=g\n1 5\n");
    CHECK_STR(g.callee_file, "a.c");
    WARN("events: Ir\nfn=f\n1 1\ncfn=g\ncfi=b.c\ncalls=1 1\n1 5\n", "callee-spec-after-cfn",
         5);
    /* ob= between fn= and its costs: KCachegrind drops the function */
    WARN("events: Ir\nob=x\nfn=f\nob=y\n1 1\n", "ob-in-function", 4);
    g = READ("events: Ir\nob=x\nfn=f\n1 1\nob=y\nfn=g\n1 1\n");
    CHECK_U64(g.warnings, 2); /* no-format-line and no-positions: ob= before fn= is fine */
}

/* The warnings shown ("line:code," each) and counted, and the totals of
 * event 0 and 1, of a read whose records of the kinds in skip are not
 * handed out. */
typedef struct shown {
    char log[600];
    uint64_t warnings, total[2];
} shown;

static void on_shown(void *ctx, const cgw_diagnostic *d)
{
    shown *sh = ctx;
    size_t used = strlen(sh->log);
    snprintf(sh->log + used, sizeof sh->log - used, "%llu:%s,", (unsigned long long)d->line,
             d->code);
}

static shown read_shown(const char *text, unsigned skip)
{
    shown sh;
    memset(&sh, 0, sizeof sh);
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = on_shown,
                           .diag_ctx = &sh, .skip = skip };
    cgw_reader *r = cgw_reader_open_memory(text, strlen(text), &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            memcpy(sh.total, rec->costs, sizeof sh.total);
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_counts(r, NULL, &sh.warnings);
    cgw_reader_close(r);
    return sh;
}

/* Position lines that are read once and warned about, however the reader
 * takes them (one by one with their records, or in runs when cost, call
 * and jump records are skipped): a relative position on a block's first
 * line, fewer costs than events (none on a jump's source line is fine,
 * fewer too), a cost of 2^53 or more, in the order the line gives them,
 * after its trailing blank's; and when the warnings are only counted
 * after 20 of a code are shown. */
static void noted_warnings(void)
{
    static char text[4096];
    int len = snprintf(text, sizeof text, "%s",
                       "# callgrind format\nevents: Ir Dr\nfn=a\n+1 5\n2 7 \n"
                       "3 9007199254740992 1\ncfn=b\ncalls=1 9\n4 3\njump=2 10\n5\n"
                       "jump=1 11\n6 1\n");
    for (int i = 0; i < 30; i++) /* lines 14 to 43: few-costs 31 to 43 only counted */
        len += snprintf(text + len, sizeof text - (size_t)len, "+1 %d\n", i);
    const char *log = "2:no-positions,4:relative-first,4:few-costs,5:blank,5:few-costs,"
                      "6:big-value,9:few-costs,10:nonportable-line,12:nonportable-line,"
                      "13:jump-costs,";
    unsigned skips[] = { 0, CGW_SKIP(CGW_REC_COST),
                         CGW_SKIP(CGW_REC_COST) | CGW_SKIP(CGW_REC_CALL) |
                             CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP) };
    for (size_t i = 0; i < sizeof skips / sizeof *skips; i++) {
        shown sh = read_shown(text, skips[i]);
        char want[900];
        snprintf(want, sizeof want, "%s", log);
        for (int line = 14; line <= 30; line++) /* 20 few-costs shown */
            snprintf(want + strlen(want), sizeof want - strlen(want), "%d:few-costs,", line);
        /* at the end: the call has no cost line of its own block, and how
         * many few-costs warnings were only counted */
        snprintf(want + strlen(want), sizeof want - strlen(want),
                 "8:callee-without-block,0:few-costs,");
        CHECK_STR(sh.log, want);
        /* no-positions, relative-first, few-costs 3 + 30, blank, big-value,
         * nonportable-line 2, jump-costs, callee-without-block */
        CHECK_U64(sh.warnings, 1 + 1 + 33 + 1 + 1 + 2 + 1 + 1);
        CHECK_U64(sh.total[0], 5 + 7 + ((uint64_t)1 << 53) + 435); /* 435 = 0 + ... + 29 */
        CHECK_U64(sh.total[1], 1);
    }
    /* the last line without its '\n', in a buffer that ends there (ASan
     * sees a read past it): read by the general parser */
    static const char last[] = "events: Ir Dr\nfn=a\n+0 5";
    char *exact = malloc(sizeof last - 1);
    CHECK(exact != NULL);
    memcpy(exact, last, sizeof last - 1);
    got g = read_text(exact, sizeof last - 1);
    free(exact);
    CHECK_U64(g.total, 5);
    CHECK_U64(g.warnings, 5); /* no-format-line, no-positions, no-final-newline, relative-first,
                               * few-costs */
}

/* What KCachegrind reads as 32 bits, and names readers strip: warned
 * of, naming the reader (issue 25). */
static void portability(void)
{
    WARN("events: Ir\nfn=f\n1 1\n+2147483648 1\n", "big-position", 4);
    WARN("events: Ir\nfn=f\n4294967296 1\n", "big-position", 3);
    WARN("positions: instr line\nevents: Ir\nfn=f\n0x1 1 1\n+1 -1 1\n0x2 4294967296 1\n",
         "big-position", 6);
    got g = READ("positions: instr line\nevents: Ir\nfn=f\n0x100000000 5 1\n");
    CHECK_U64(g.warnings, 2); /* positions-not-line, no-format-line: an address is fine */
    g = READ("events: Ir\nfn=f\n0x10000000A 1\n"); /* the general parser's */
    CHECK_U64(g.warnings, 3); /* no-positions, no-format-line, uppercase-hex: a line in hex
                               * is not warned of */
    WARN("events: Ir\nfl=a.c\nfn=\vmain\n1 1\n", "name-blank", 3);
    g = READ("events: Ir\nfl=a.c\nfn=main\f\n1 1\n");
    CHECK_U64(g.errors, 0);
    WARN("positions: instr\nevents: Ir\nfn=f\n0x1 1\njfn=g\njump=1 0x10\n0x2\nfn=g\n0x10 1\n",
         "jump-target", 5); /* gprof2dot throws on jfn= */
    WARN("positions: instr\nevents: Ir\nfn=f\n0x1 1\njfn=g\njump=1 0x10\n0x2\nfn=g\n0x10 1\n",
         "nonportable-line", 6);
    /* a redundant cfi= of an absolute path in the working folder:
     * callgrind_annotate, run there, loses the callers; Callgrind never
     * writes one, nor does libcgw now.  Outside it (/nonexistent) it reads
     * them right: not warned of */
    char here[4096], text[4300];
    CHECK(getcwd(here, sizeof here) != NULL);
    snprintf(text, sizeof text, "events: Ir\nfl=(1) %s/a.c\nfn=f\n1 1\ncfi=(1)\ncfn=g\n"
             "calls=1 1\n1 1\nfn=g\n1 1\n", here);
    /* (text is an array, not a literal: its length by strlen()) */
    cgwt_expect(__FILE__, __LINE__, text, strlen(text), "cfi-same-file", 5, CGW_WARNING);
    g = READ("events: Ir\nfl=(1) /nonexistent/a.c\nfn=f\n1 1\ncfi=(1)\ncfn=g\ncalls=1 1\n1 1\n"
             "fn=g\n1 1\n");
    CHECK_U64(g.warnings, 2); /* no-format-line and no-positions only */
    g = READ("events: Ir\nfl=(1) a.c\nfn=f\n1 1\ncfi=(1)\ncfn=g\ncalls=1 1\n1 1\nfn=g\n1 1\n");
    CHECK_U64(g.warnings, 2); /* a relative name: no-format-line and no-positions only */
}

int main(void)
{
    valid();
    errors();
    as_kcachegrind();
    portability();
    noted_warnings();
    printf("grammar corners read as the spec and the main readers say\n");
    return 0;
}
