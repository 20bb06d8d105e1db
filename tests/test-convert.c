/* SPDX-License-Identifier: MIT */
/* test-convert: folded stacks to a profile (cgw_stacks_*) and back
 * (cgw_write_folded), against answers worked out by hand: self costs,
 * call edges with their inclusive costs and counts, recursion counted
 * once a stack, frame annotations, events and merged inputs, bad lines
 * with their positions, and million-frame stacks.  Every profile is read
 * back (no error, no portability warning, a clean round trip) and given
 * to callgrind_annotate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ----------------------------------------------------- what a profile says */

/* name, with [object] and (file) when the profile has them */
static int fn_text(char *b, size_t n, const char *obj, const char *file, const char *fn)
{
    return snprintf(b, n, "%s%s%s%s%s%s%s", fn, obj && strcmp(obj, "???") ? "[" : "",
                    obj && strcmp(obj, "???") ? obj : "", obj && strcmp(obj, "???") ? "]" : "",
                    strcmp(file, "???") ? "(" : "", strcmp(file, "???") ? file : "",
                    strcmp(file, "???") ? ")" : "");
}

static int costs_text(char *b, size_t n, const uint64_t *c, size_t nev)
{
    int k = 0;
    for (size_t i = 0; i < nev && (size_t)k < n; i++)
        k += snprintf(b + k, n - (size_t)k, "%s%llu", i ? "," : "=", (unsigned long long)c[i]);
    return k;
}

/* The profile as sorted lines "fn:LINE=costs" (self), "caller:LINE>callee
 * xCOUNT=costs" (calls), "events=..." and "totals=...", joined by '|'. */
static char *describe(const char *text, size_t len)
{
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    const cgw_record *rec;
    cgwt_lines d = { 0 };
    char b[4096];
    CHECK(r != NULL);
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        size_t nev = rec->part->nevents;
        int k = 0;
        if (rec->kind == CGW_REC_PART) {
            k = snprintf(b, sizeof b, "events");
            for (size_t i = 0; i < nev; i++)
                k += snprintf(b + k, sizeof b - (size_t)k, "%s%s", i ? "," : "=",
                              rec->part->events[i].name);
        } else if (rec->kind == CGW_REC_COST || rec->kind == CGW_REC_CALL) {
            k = fn_text(b, sizeof b, rec->object, rec->file, rec->function);
            k += snprintf(b + k, sizeof b - (size_t)k, ":%llu", (unsigned long long)rec->pos[0]);
            if (rec->kind == CGW_REC_CALL) {
                k += snprintf(b + k, sizeof b - (size_t)k, ">");
                k += fn_text(b + k, sizeof b - (size_t)k, rec->target.object, rec->target.file,
                             rec->target.function);
                k += snprintf(b + k, sizeof b - (size_t)k, " x%llu",
                              (unsigned long long)rec->count);
            }
            k += costs_text(b + k, sizeof b - (size_t)k, rec->costs, nev);
        } else if (rec->kind == CGW_REC_PART_END) {
            k = snprintf(b, sizeof b, "totals");
            k += costs_text(b + k, sizeof b - (size_t)k, rec->costs, nev);
        } else {
            continue;
        }
        cgwt_lines_add(&d, b);
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    return cgwt_lines_join(&d, "|");
}

/* ------------------------------------------------------------ conversions */

/* The stacks written into memory through a writer of flags; the profile
 * must read back cleanly, with as many portability warnings as the
 * names it has that several functions share (name-clash: gprof2dot
 * merges them), and callgrind_annotate must find its totals. */
static char *write_stacks_flags(cgw_stacks *s, unsigned flags, uint64_t clashes, size_t *len)
{
    char *buf;
    cgw_options o = CGW_OPTIONS_INIT;
    o.flags = flags;
    cgw_writer *w = cgw_open_memory(&buf, len, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_stacks_write(s, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK_U64(cgwt_readback(buf, *len, NULL), clashes);
    return buf;
}

static void annotate(const char *buf, size_t len, const uint64_t *totals, size_t nev)
{
    char path[512];
    snprintf(path, sizeof path, "%s/annotate.out", cgwt_tmpdir());
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(buf, 1, len, f) == len && fclose(f) == 0);
    cgwt_annotate_totals(path, totals, nev);
}

static char *write_stacks(cgw_stacks *s, size_t *len)
{
    return write_stacks_flags(s, 0, 0, len);
}

/* s written through a line writer reads back as describe()'s want. */
static void written_as(cgw_stacks *s, const char *want)
{
    size_t len;
    char *buf = write_stacks(s, &len);
    char *got = describe(buf, len);
    CHECK_STR(got, want);
    free(got);
    free(buf);
}

/* Folded text for one event through a fresh cgw_stacks: the profile's
 * description must be want, its names shared by clashes names. */
static char *from_folded_clashes(const char *text, const char *want, uint64_t clashes,
                                 size_t *len)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK(s != NULL);
    CHECK_ST(cgw_stacks_add_folded(s, NULL, "t", text, strlen(text)), CGW_OK);
    CHECK_STR(cgw_stacks_errmsg(s), "");
    char *buf = write_stacks_flags(s, 0, clashes, len);
    cgw_stacks_free(s);
    char *got = describe(buf, *len);
    CHECK_STR(got, want);
    free(got);
    return buf;
}

static char *from_folded(const char *text, const char *want, size_t *len)
{
    return from_folded_clashes(text, want, 0, len);
}

/* The profile as folded stacks of event, lines sorted and joined by '|'. */
static char *to_folded(const char *buf, size_t len, const char *event, cgw_status want)
{
    cgw_reader *r = cgw_reader_open_memory(buf, len, NULL);
    cgwt_capture t;
    char msg[256];
    CHECK(r != NULL);
    cgwt_capture_init(&t, 0, 0);
    CHECK_ST(cgw_write_folded(r, event, cgwt_capture_write, &t, msg, sizeof msg), want);
    cgw_reader_close(r);
    if (want != CGW_OK) {
        cgwt_capture_free(&t);
        return strdup(msg);
    }
    cgwt_lines d = { 0 };
    for (char *line = t.data ? strtok(t.data, "\n") : NULL; line != NULL;
         line = strtok(NULL, "\n"))
        cgwt_lines_add(&d, line);
    cgwt_capture_free(&t);
    return cgwt_lines_join(&d, "|");
}

/* Folded text to a profile described as want, and back to want_back. */
static void there_and_back(const char *text, const char *want, const char *want_back)
{
    size_t len;
    char *buf = from_folded(text, want, &len);
    char *back = to_folded(buf, len, NULL, CGW_OK);
    CHECK_STR(back, want_back);
    free(back);
    free(buf);
}

/* ------------------------------------------------------------------ cases */

static void basic(void)
{
    static const char in[] = "main;a;b 5\nmain;a 3\r\n\nmain;c;b 2\n  \nmain;a;a;b 1\nmain;z 0\n";
    size_t len;
    char *buf = from_folded(in,
                            "a:0=3|a:0>a x1=1|a:0>b x2=6|b:0=8|c:0>b x1=2|events=Samples|"
                            "main:0>a x3=9|main:0>c x1=2|totals=11",
                            &len);
    annotate(buf, len, (const uint64_t[]){ 11 }, 1);
    char *back = to_folded(buf, len, NULL, CGW_OK);
    CHECK_STR(back, "main;a 3|main;a;b 6|main;c;b 2");
    free(back);
    back = to_folded(buf, len, "Ir", CGW_EINVAL);
    CHECK_STR(back, "cgw_write_folded: the profile has no event Ir (it has Samples)");
    free(back);
    free(buf);
}

/* Recursion kept: every caller/callee pair of a stack gets its count
 * once, at its outermost call's line: a;b;a;b;c has a -> b (once), b -> a
 * and b -> c; a;a;a has a -> a; in x;y;z;y, y comes back from z. */
static void recursion(void)
{
    there_and_back("a;b;a;b;c 2\na;a;a 3\nx (f:1);y (f:2);z (f:3);y (f:4) 1\n",
                   "a:0=3|a:0>a x1=3|a:0>b x1=2|b:0>a x1=2|b:0>c x1=2|c:0=2|"
                   "events=Samples|totals=6|x(f):1>y(f) x1=1|y(f):2>z(f) x1=1|y(f):4=1|"
                   "z(f):3>y(f) x1=1",
                   /* back: the self costs and the total kept, every
                    * cost under the root that reached it (the cycle a-b
                    * is entered at a, its only start; y-z at x's call
                    * into y); the chain inside a cycle is an estimate
                    * (cgconvert(1)) */
                   "a 3|a;b;c 2|x;y 1");
}

/* Frame annotations, and line positions from py-spy's frames. */
static void annotations(void)
{
    size_t len;
    char *buf = from_folded(
        "py (x.py:3);k_[k];libc`malloc;foo_[j];foo_[i] 4\nmain (x.py:10);py (x.py:5) 2\n"
        "x_[z];`tick; a (b) 1\n",
        "`tick:0>a (b) x1=1|a (b):0=1|events=Samples|foo:0=4|foo:0>foo x1=4|"
        "k[[kernel.kallsyms]]:0>malloc[libc] x1=4|main(x.py):10>py(x.py) x1=2|"
        "malloc[libc]:0>foo x1=4|py(x.py):3>k[[kernel.kallsyms]] x1=4|py(x.py):5=2|"
        "totals=7|x_[z]:0>`tick x1=1",
        &len);
    free(buf);
}

/* The interpreted (_[0]) and C1-compiled (_[1]) suffixes of
 * async-profiler are not part of the name. */
static void tier_suffixes(void)
{
    size_t len;
    char *buf = from_folded("main;a_[0];b_[1] 3\nmain;b_[1] 1\n",
                            "a:0>b x1=3|b:0=4|events=Samples|main:0>a x1=3|main:0>b x1=1|"
                            "totals=4",
                            &len);
    free(buf);
}

/* Mutual recursion (a -> b -> a) written back as stacks: the calls
 * between the functions of a cycle are not followed, so every self cost
 * and the total are kept and nothing runs for ever. */
static void mutual_recursion(void)
{
    there_and_back("main;a;b;a 2\nmain;a 1\n",
                   "a:0=3|a:0>b x1=2|b:0>a x1=2|events=Samples|main:0>a x2=3|totals=3",
                   "main;a 3");
}

/* A name shared by several functions is kept (issue 52): each is its
 * own function, told apart by its object and file, and a name that
 * looks qualified is a name like any other. */
static void shared_names(void)
{
    size_t len;
    char *buf = from_folded_clashes(
        "libc`malloc;malloc;x (a.py:1);x (b.py:2) 1\nmalloc [libc] 2\nmalloc [libc] #2 1\n",
        "events=Samples|malloc [libc] #2:0=1|malloc [libc]:0=2|malloc:0>x(a.py) x1=1|"
        "malloc[libc]:0>malloc x1=1|totals=4|x(a.py):1>x(b.py) x1=1|x(b.py):2=1",
        2, &len); /* malloc and x, two functions each */
    free(buf);
}

/* The function names of a profile, sorted and joined by '|' ("name
 * (file)": a function a file, as KCachegrind and this reader key them). */
static char *names_of(const char *buf, size_t len, int with_file)
{
    cgw_reader *r = cgw_reader_open_memory(buf, len, NULL);
    const cgw_record *rec;
    cgwt_lines d = { 0 };
    char b[512];
    CHECK(r != NULL);
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_FUNCTION) {
            snprintf(b, sizeof b, "%s%s%s%s", rec->function, with_file ? " @" : "",
                     with_file ? rec->object : "", with_file ? rec->file : "");
            cgwt_lines_add(&d, b);
        }
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    return cgwt_lines_join(&d, "|");
}

/* Two runs, the second with one sample more of a <module> of another
 * file: every function keeps its name, so the two profiles name their
 * functions alike and the differ finds none added or removed (issue 52:
 * one sample renamed the script's <module>, and cgdiff said -100% and
 * +100%).  With CGW_QUALIFY_NAMES every function with a file or object
 * is "NAME [OBJECT] (FILE)", in both runs. */
static void stable_names(unsigned flags, const char *want1, const char *want2)
{
    const cgw_frame mod[] = { { "py", "s.py", "main", NULL, 1 },
                              { "py", "s.py", "<module>", NULL, 2 },
                              { NULL, "s.py", "g", NULL, 5 } };
    const cgw_frame json[] = { { "py", "s.py", "main", NULL, 1 },
                               { NULL, "json.py", "<module>", NULL, 7 } };
    const cgw_frame bare[] = { { NULL, NULL, "main", NULL, 0 } };
    char *buf[2];
    size_t len[2];
    for (int run = 0; run < 2; run++) {
        cgw_stacks *s = cgw_stacks_new(NULL);
        CHECK_ST(cgw_stacks_add(s, NULL, mod, 2, 50, 0), CGW_OK);
        CHECK_ST(cgw_stacks_add(s, NULL, mod, 3, 49, 0), CGW_OK);
        CHECK_ST(cgw_stacks_add(s, NULL, bare, 1, 3, 0), CGW_OK);
        if (run == 1)
            CHECK_ST(cgw_stacks_add(s, NULL, json, 2, 1, 0), CGW_OK);
        /* main twice, and <module> twice in run 2: unless qualified */
        buf[run] = write_stacks_flags(s, flags, flags ? 0 : 1u + (unsigned)run, &len[run]);
        cgw_stacks_free(s);
        char *got = names_of(buf[run], len[run], 0);
        CHECK_STR(got, run ? want2 : want1);
        free(got);
    }
    char *got = names_of(buf[1], len[1], 1); /* read back: a <module> a file */
    CHECK(strstr(got, " @???json.py|") != NULL && strstr(got, " @pys.py|") != NULL);
    free(got);
    cgw_differ *d = cgw_diff_new(NULL);
    for (int run = 0; run < 2; run++) {
        cgw_reader *r = cgw_reader_open_memory(buf[run], len[run], NULL);
        CHECK_ST(cgw_diff_add(d, run ? CGW_DIFF_NEW : CGW_DIFF_OLD, r), CGW_OK);
        cgw_reader_close(r);
    }
    const cgw_diff_row *rows;
    size_t n, added = 0;
    CHECK_ST(cgw_diff_rows(d, &rows, &n), CGW_OK);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].function == NULL)
            continue;
        CHECK(rows[i].new_cost != 0); /* none removed */
        if (rows[i].old_cost == 0) {  /* only json.py's <module> added */
            CHECK_STR(rows[i].file, "json.py");
            added++;
        }
    }
    CHECK_U64(added, 2); /* its self and inclusive cost */
    cgw_diff_free(d);
    free(buf[0]);
    free(buf[1]);
}

/* Inputs merged, events as columns; --to folded picks one. */
static void events(void)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    size_t len;
    CHECK_ST(cgw_stacks_add_folded(s, "cycles", "x", "a;b 3\n", 6), CGW_OK);
    CHECK_ST(cgw_stacks_add_folded(s, "cycles", "y", "a;b 2\na 1", 9), CGW_OK);
    CHECK_ST(cgw_stacks_add_folded(s, "instr", "z", "a;b 10\n", 7), CGW_OK);
    char *buf = write_stacks(s, &len);
    CHECK_ST(cgw_stacks_add_folded(s, "instr", "z", "a 1\n", 4), CGW_EUSAGE);
    cgw_stacks_free(s);
    char *got = describe(buf, len);
    CHECK_STR(got, "a:0=1,0|a:0>b x3=5,10|b:0=5,10|events=cycles,instr|totals=6,10");
    free(got);
    annotate(buf, len, (const uint64_t[]){ 6, 10 }, 2);
    got = to_folded(buf, len, "instr", CGW_OK);
    CHECK_STR(got, "a;b 10");
    free(got);
    got = to_folded(buf, len, NULL, CGW_OK);
    CHECK_STR(got, "a 1|a;b 5");
    free(got);
    free(buf);
}

/* cgw_stacks_add(): structured frames give what the same folded lines
 * give; a named event with nothing added is a column in its order; an
 * uncounted stack adds no call count; cgw_stacks_fail() is sticky; and
 * cgw_read_stacks() hands back the stacks with their functions. */
static cgw_status count_stacks(void *ctx, const cgw_frame *fns, const uint32_t *ids,
                               size_t depth, unsigned ev, uint64_t amount)
{
    uint64_t *sum = ctx;
    CHECK(depth >= 1 && fns[ids[depth - 1]].name != NULL);
    sum[ev] += amount * depth;
    return CGW_OK;
}

static void structured(void)
{
    const cgw_frame ab[] = { { NULL, "m.c", " a ", NULL, 7 }, { NULL, "m.c", "b", NULL, 0 } };
    const cgw_frame a[] = { { NULL, "m.c", "a", NULL, 0 } };
    size_t len;
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, "instr", NULL, 0, 0, 0), CGW_OK); /* a column, first */
    CHECK_ST(cgw_stacks_add(s, NULL, NULL, 0, 0, 0), CGW_OK);    /* no "Samples" */
    CHECK_ST(cgw_stacks_add(s, "cycles", ab, 2, 3, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", ab, 2, 2, CGW_STACK_UNCOUNTED), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", a, 1, 1, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", NULL, 1, 1, 0), CGW_EUSAGE);
    cgw_stacks_free(s);
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, "instr", NULL, 0, 0, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", ab, 2, 3, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", ab, 2, 2, CGW_STACK_UNCOUNTED), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, "cycles", a, 1, 1, 0), CGW_OK);
    char *buf = write_stacks(s, &len);
    CHECK_ST(cgw_stacks_add(s, "cycles", a, 1, 1, 0), CGW_EUSAGE);
    cgw_stacks_free(s);
    char *got = describe(buf, len);
    /* one counted stack through a -> b: x1; " a " is a */
    CHECK_STR(got, "a(m.c):0=0,1|a(m.c):7>b(m.c) x1=0,5|b(m.c):0=0,5|events=instr,cycles|"
                   "totals=0,6");
    free(got);
    cgw_reader *r = cgw_reader_open_memory(buf, len, NULL);
    uint64_t sum[2] = { 0, 0 };
    char msg[256];
    CHECK_ST(cgw_read_stacks(r, NULL, NULL, count_stacks, sum, msg, sizeof msg), CGW_OK);
    CHECK_U64(sum[0], 0);
    CHECK_U64(sum[1], 5 * 2 + 1);
    cgw_reader_close(r);
    r = cgw_reader_open_memory(buf, len, NULL);
    CHECK_ST(cgw_read_stacks(r, "Ir", NULL, count_stacks, sum, msg, sizeof msg), CGW_EINVAL);
    CHECK_STR(msg, "cgw_read_stacks: the profile has no event Ir (it has instr cycles)");
    cgw_reader_close(r);
    free(buf);

    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_fail(s, CGW_OK, "no"), CGW_EUSAGE);
    CHECK_STR(cgw_stacks_errmsg(s), "");
    CHECK_ST(cgw_stacks_fail(s, CGW_EINVAL, "in: bad"), CGW_EINVAL);
    CHECK_ST(cgw_stacks_fail(s, CGW_ENOMEM, "later"), CGW_EINVAL);
    CHECK_STR(cgw_stacks_errmsg(s), "in: bad");
    CHECK_ST(cgw_stacks_add(s, "cycles", a, 1, 1, 0), CGW_EINVAL);
    cgw_stacks_free(s);
    CHECK_ST(cgw_stacks_fail(NULL, CGW_EINVAL, "x"), CGW_EUSAGE);
    CHECK_ST(cgw_stacks_add(NULL, NULL, NULL, 0, 0, 0), CGW_EUSAGE);
}

/* Stacks of frames without addresses fill lines only (issue 52).  A
 * writer whose positions hold instruction or basic-block addresses is
 * refused and gets nothing: it used to get each line as the address and
 * each count as the line ("0x7 5 5" for line 7, count 5), and cgverify
 * called that valid.  A
 * line writer's lines and counts read back in their places, and a writer
 * without positions (CGW_POS_NONE) still takes the stacks. */
static void positions(void)
{
    const cgw_frame ab[] = { { NULL, "m.c", "a", NULL, 7 }, { NULL, "m.c", "b", NULL, 9 } };
    static const struct {
        unsigned positions;
        const char *names;
    } refused[] = { { CGW_POS_INSTR | CGW_POS_LINE, "\"instr line\"" },
                    { CGW_POS_INSTR, "\"instr\"" },
                    { CGW_POS_BB | CGW_POS_LINE, "\"bb line\"" } };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        cgw_stacks *s = cgw_stacks_new(NULL);
        CHECK_ST(cgw_stacks_add(s, NULL, ab, 2, 5, 0), CGW_OK);
        cgw_options o = CGW_OPTIONS_INIT;
        o.positions = refused[i].positions;
        o.flags = CGW_EXTENDED; /* bb needs it */
        cgwt_capture c;
        cgwt_capture_init(&c, 0, 0);
        cgw_writer *w = cgwt_capture_open(&c, &o);
        CHECK_ST(cgw_stacks_write(s, w), CGW_EINVAL);
        CHECK(strstr(cgw_errmsg(w), refused[i].names) != NULL);
        CHECK(strstr(cgw_errmsg(w), "cgw_stacks_write: ") == cgw_errmsg(w));
        CHECK_ST(cgw_close(w), CGW_EINVAL);
        CHECK_U64(c.len, 0); /* nothing written */
        cgwt_capture_free(&c);
        cgw_stacks_free(s);
    }
    size_t len;
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, NULL, ab, 2, 5, 0), CGW_OK);
    char *buf = write_stacks(s, &len);
    cgw_stacks_free(s);
    char *got = describe(buf, len);
    CHECK_STR(got, "a(m.c):7>b(m.c) x1=5|b(m.c):9=5|events=Samples|totals=5");
    free(got);
    free(buf);

    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, NULL, ab, 2, 5, 0), CGW_OK);
    cgw_options o = CGW_OPTIONS_INIT;
    o.positions = CGW_POS_NONE;
    o.flags = CGW_EXTENDED;
    cgw_writer *w = cgw_open_memory(&buf, &len, &o);
    CHECK_ST(cgw_stacks_write(s, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgw_stacks_free(s);
    cgwt_readback(buf, len, NULL);
    CHECK(strstr(buf, "positions:\n") != NULL && strstr(buf, "\n5\n") != NULL);
    free(buf);
}

/* Instruction addresses through cgw_stacks_add_at() (issue 52): into
 * an "instr line" writer each cost and call at its address and line, as
 * added; into "instr" the addresses alone; into a line writer a line's
 * addresses summed; a writer with instruction positions is refused when
 * some stacks came without addresses (nothing written); a stack added
 * with stacks N counts as N adds of it. */
typedef struct instr_sums {
    uint64_t self_b, call_1010, call_1014, calls, lines;
} instr_sums;

static void instr_read(const char *buf, size_t len, int with_line, instr_sums *got)
{
    cgw_reader *r = cgw_reader_open_memory(buf, len, NULL);
    const cgw_record *rec;
    memset(got, 0, sizeof *got);
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_COST && strcmp(rec->function, "b") == 0) {
            CHECK_U64(rec->pos[0], 0x2000);
            if (with_line)
                CHECK_U64(rec->pos[1], 9);
            got->self_b += rec->costs[0];
        } else if (rec->kind == CGW_REC_CALL) {
            CHECK_STR(rec->function, "a");
            if (with_line)
                got->lines += rec->pos[1] == 7;
            got->calls += rec->count;
            if (rec->pos[0] == 0x1010)
                got->call_1010 += rec->costs[0];
            else if (rec->pos[0] == 0x1014)
                got->call_1014 += rec->costs[0];
            else
                cgwt_fail(__FILE__, __LINE__, "a call at %#llx", (unsigned long long)rec->pos[0]);
        }
    }
    uint64_t errors, warnings; /* a warning: positions-not-line, speedscope's */
    cgw_reader_counts(r, &errors, &warnings);
    CHECK(errors == 0 && warnings <= 1);
    cgw_reader_close(r);
}

static cgw_stacks *instr_stacks(int and_lines_only)
{
    const cgw_frame fa = { NULL, "m.c", "a", NULL, 0 }, fb = { NULL, "m.c", "b", NULL, 0 };
    uint64_t h[2], lines[2] = { 7, 9 };
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_intern(s, &fa, &h[0]), CGW_OK);
    CHECK_ST(cgw_stacks_intern(s, &fb, &h[1]), CGW_OK);
    const uint64_t at1[2] = { 0x1010, 0x2000 }, at2[2] = { 0x1014, 0x2000 };
    for (int i = 0; i < 5; i++) /* the same stack again: its sums grow */
        CHECK_ST(cgw_stacks_add_at(s, NULL, h, at1, lines, 2, 1, 1, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add_at(s, NULL, h, at2, lines, 2, 3, 1, 0), CGW_OK);
    if (and_lines_only)
        CHECK_ST(cgw_stacks_add_h(s, NULL, h, lines, 2, 1, 0), CGW_OK);
    return s;
}

static void addresses(void)
{
    static const unsigned kinds[] = { CGW_POS_INSTR | CGW_POS_LINE, CGW_POS_INSTR };
    for (size_t k = 0; k < 2; k++) {
        cgw_stacks *s = instr_stacks(0);
        cgw_options o = CGW_OPTIONS_INIT;
        o.positions = kinds[k];
        char *buf;
        size_t len;
        cgw_writer *w = cgw_open_memory(&buf, &len, &o);
        CHECK_ST(cgw_stacks_write(s, w), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        cgw_stacks_free(s);
        cgwt_readback(buf, len, NULL);
        instr_sums got;
        instr_read(buf, len, k == 0, &got);
        CHECK_U64(got.self_b, 8);
        CHECK_U64(got.call_1010, 5); /* 5 stacks of 1 through the call at 0x1010 */
        CHECK_U64(got.call_1014, 3);
        CHECK_U64(got.calls, 6);
        CHECK_U64(got.lines, k == 0 ? 2 : 0);
        free(buf);
    }
    /* a line writer: the line's two addresses summed, one call */
    cgw_stacks *s = instr_stacks(0);
    written_as(s, "a(m.c):7>b(m.c) x6=8|b(m.c):9=8|events=Samples|totals=8");
    cgw_stacks_free(s);
    /* stacks without addresses cannot fill an instr writer */
    s = instr_stacks(1);
    cgw_options o = CGW_OPTIONS_INIT;
    o.positions = CGW_POS_INSTR | CGW_POS_LINE;
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    cgw_writer *w = cgwt_capture_open(&c, &o);
    CHECK_ST(cgw_stacks_write(s, w), CGW_EINVAL);
    CHECK(strstr(cgw_errmsg(w), "without instruction addresses") != NULL);
    CHECK_ST(cgw_close(w), CGW_EINVAL);
    CHECK_U64(c.len, 0);
    cgwt_capture_free(&c);
    /* a line writer takes them all */
    written_as(s, "a(m.c):7>b(m.c) x7=9|b(m.c):9=9|events=Samples|totals=9");
    cgw_stacks_free(s);
    /* a stack counted first: stacks 4 of count 9 is four adds of it */
    const cgw_frame fa = { NULL, "m.c", "a", NULL, 0 }, fb = { NULL, "m.c", "b", NULL, 0 };
    uint64_t h[2], ls[2] = { 7, 9 };
    cgw_stacks *one = cgw_stacks_new(NULL), *four = cgw_stacks_new(NULL);
    for (int k = 0; k < 2; k++) {
        cgw_stacks *t = k ? four : one;
        CHECK_ST(cgw_stacks_intern(t, &fa, &h[0]), CGW_OK);
        CHECK_ST(cgw_stacks_intern(t, &fb, &h[1]), CGW_OK);
    }
    CHECK_ST(cgw_stacks_add_at(one, NULL, h, NULL, ls, 2, 9, 4, 0), CGW_OK);
    for (int i = 0; i < 4; i++)
        CHECK_ST(cgw_stacks_add_h(four, NULL, h, ls, 2, i == 0 ? 6 : 1, 0), CGW_OK);
    size_t len1, len4;
    char *b1 = write_stacks(one, &len1), *b4 = write_stacks(four, &len4);
    CHECK(len1 == len4 && memcmp(b1, b4, len1) == 0);
    char *got = describe(b1, len1);
    CHECK_STR(got, "a(m.c):7>b(m.c) x4=9|b(m.c):9=9|events=Samples|totals=9");
    free(got);
    free(b1);
    free(b4);
    cgw_stacks_free(one);
    cgw_stacks_free(four);
    /* stacks that pass 2^64-1 in all are refused, so no count wraps */
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_intern(s, &fa, &h[0]), CGW_OK);
    CHECK_ST(cgw_stacks_add_at(s, NULL, h, NULL, NULL, 1, 1, UINT64_MAX, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add_at(s, NULL, h, NULL, NULL, 1, 1, 1, 0), CGW_ERANGE);
    CHECK(strstr(cgw_stacks_errmsg(s), "the stacks added pass 2^64-1") != NULL);
    cgw_stacks_free(s);
    /* a handle one past the last registered function is refused */
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_intern(s, &fa, &h[0]), CGW_OK);
    uint64_t past = h[0] + 1;
    CHECK_ST(cgw_stacks_add_h(s, NULL, &past, NULL, 1, 1, 0), CGW_EINVAL);
    CHECK(strstr(cgw_stacks_errmsg(s), "is none of cgw_stacks_intern()'s") != NULL);
    cgw_stacks_free(s);
}

/* Many distinct stacks, each added twice by the API's calls, which keep
 * distinct stacks until written (or until their store of 2^20 frames is
 * full, then they go into the cells and the store starts again: 70,000
 * stacks of 20 frames pass it at scale 1, and the second pass meets
 * stacks held before that), write the bytes of the same stacks read as
 * folded lines, which go into the cells at once. */
static void many_distinct(void)
{
    size_t n = cgwt_scaled(70000), depth = 20, cap = n * 2 * (depth * 6 + 8) + 1, used = 0;
    char *text = malloc(cap);
    cgw_frame fr[20];
    char names[500][16]; /* room for any int: -Wformat-truncation under ASan */
    for (int i = 0; i < 500; i++)
        snprintf(names[i], sizeof names[i], "f%d", i);
    cgw_stacks *api = cgw_stacks_new(NULL), *folded = cgw_stacks_new(NULL);
    uint64_t x = 12345;
    CHECK(text != NULL);
    uint64_t x0 = x;
    for (size_t k = 0; k < n; k++) { /* the folded text: each stack twice */
        size_t start = used;
        for (size_t d = 0; d < depth; d++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            fr[d] = (cgw_frame){ NULL, NULL, names[(x >> 33) % 500], NULL, 0 };
            used += (size_t)snprintf(text + used, cap - used, "%s%s", d ? ";" : "", fr[d].name);
        }
        used += (size_t)snprintf(text + used, cap - used, " 1\n");
        size_t line = used - start;
        memcpy(text + used, text + start, line);
        used += line;
    }
    for (int pass = 0; pass < 2; pass++) { /* the API: all once, then all again, so
                                            * that stacks held before the store is
                                            * full come again after */
        x = x0;
        for (size_t k = 0; k < n; k++) {
            for (size_t d = 0; d < depth; d++) {
                x = x * 6364136223846793005u + 1442695040888963407u;
                fr[d] = (cgw_frame){ NULL, NULL, names[(x >> 33) % 500], NULL, 0 };
            }
            CHECK_ST(cgw_stacks_add(api, NULL, fr, depth, 1, 0), CGW_OK);
        }
    }
    CHECK_ST(cgw_stacks_add_folded(folded, NULL, "many", text, used), CGW_OK);
    size_t alen, flen;
    char *a = write_stacks(api, &alen), *f = write_stacks(folded, &flen);
    CHECK(alen == flen && memcmp(a, f, alen) == 0);
    cgwt_readback(a, alen, NULL);
    free(a);
    free(f);
    free(text);
    cgw_stacks_free(api);
    cgw_stacks_free(folded);
}

/* A name no writer takes (a control byte such as a line feed or a tab,
 * invalid UTF-8) is refused when it is added, with the call, the frame
 * and the name, as a folded line with one is: found only when written,
 * it would cost a profiler that writes at exit the whole profile.  The
 * error is sticky, and cgw_stacks_write() passes it on without writing;
 * the stacks added before it, written apart, read back whole. */
static void bad_names(void)
{
    const cgw_frame ok[] = { { NULL, "m.c", "main", NULL, 3 }, { NULL, "m.c", "leaf", NULL, 4 } };
    const cgw_frame lf[] = { { NULL, "m.c", "main", NULL, 3 }, { NULL, "m.c", "le\naf", NULL, 4 } };
    cgw_stacks *s = cgw_stacks_new(NULL), *good = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(good, NULL, ok, 2, 2, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, NULL, ok, 2, 2, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(s, NULL, lf, 2, 1, 0), CGW_EINVAL);
    CHECK_STR(cgw_stacks_errmsg(s), "cgw_stacks_add: frame 1: the name \"le\" has a control "
                                    "byte (byte 0x0a at offset 2), which the writer refuses");
    CHECK_ST(cgw_stacks_add(s, NULL, ok, 2, 2, 0), CGW_EINVAL); /* sticky */
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    cgw_writer *w = cgwt_capture_open(&c, NULL);
    CHECK_ST(cgw_stacks_write(s, w), CGW_EINVAL);
    CHECK(strstr(cgw_errmsg(w), "frame 1: the name \"le\"") != NULL);
    CHECK_ST(cgw_close(w), CGW_EINVAL);
    CHECK_U64(c.len, 0);
    cgwt_capture_free(&c);
    cgw_stacks_free(s);
    size_t len;
    char *buf = write_stacks(good, &len);
    cgw_stacks_free(good);
    char *got = describe(buf, len);
    CHECK_STR(got, "events=Samples|leaf(m.c):4=2|main(m.c):3>leaf(m.c) x1=2|totals=2");
    free(got);
    free(buf);

    /* each part of a frame, leaf first, and cgw_stacks_intern() */
    const cgw_frame tab = { "\tlib.so", NULL, "f", NULL, 0 };
    const cgw_frame utf8 = { NULL, "m\xc3(.c", "f", NULL, 0 };
    const cgw_frame del = { NULL, NULL, "f", "x\x7f.h", 0 };
    const cgw_frame two[] = { ok[0], tab };
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, NULL, two, 2, 1, CGW_STACK_LEAF_FIRST), CGW_EINVAL);
    CHECK_STR(cgw_stacks_errmsg(s), "cgw_stacks_add: frame 1: the object \"\" has a control "
                                    "byte (byte 0x09 at offset 0), which the writer refuses");
    cgw_stacks_free(s);
    uint64_t handle = 0;
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_intern(s, &utf8, &handle), CGW_EINVAL);
    CHECK_STR(cgw_stacks_errmsg(s), "cgw_stacks_intern: frame 0: the file \"m\" has invalid "
                                    "UTF-8 (byte 0xc3 at offset 1), which the writer refuses");
    CHECK_ST(cgw_stacks_add_h(s, NULL, &handle, NULL, 1, 1, 0), CGW_EINVAL);
    cgw_stacks_free(s);
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(s, NULL, &del, 1, 1, 0), CGW_EINVAL);
    CHECK(strstr(cgw_stacks_errmsg(s), "the inlined file \"x\" has a control byte") != NULL);
    cgw_stacks_free(s);
}

/* Several callers: the documented estimate, with the total kept.  x has
 * callers a (3) and b (1): c's 3 split 2.25 / 0.75, rounded down to 2 / 0,
 * the remainder to a; d's 1 split 0.75 / 0.25, the remainder to a. */
static void estimate(void)
{
    there_and_back("a;x;c 3\nb;x;d 1\n",
                   "a:0>x x1=3|b:0>x x1=1|c:0=3|d:0=1|events=Samples|totals=4|"
                   "x:0>c x1=3|x:0>d x1=1",
                   "a;x;c 3|a;x;d 1");
    /* f is a root (9) and called by m (3): its 12 of self go 9 / 3 */
    there_and_back("f 9\nm;f 3\n", "events=Samples|f:0=12|m:0>f x1=3|totals=12", "f 9|m;f 3");
}

/* Bad input: the status, and a message with the input's name, the line
 * and the column, and what was expected; the error is sticky. */
static void bad_input(void)
{
    static const struct {
        const char *event, *text;
        cgw_status st;
        const char *msg;
    } cases[] = {
        { NULL, "a;b\n", CGW_EINVAL,
          "in:1:4: no count at the end of the line (expected 'FRAME;FRAME... COUNT')" },
        { NULL, "a;b 1\na;;b 4\n", CGW_EINVAL,
          "in:2:3: empty frame (expected a name between ';')" },
        { NULL, "a;b; 4\n", CGW_EINVAL, "in:1:5: empty frame (expected a name between ';')" },
        { NULL, "x 1\ny 2\na;b 1x\n", CGW_EINVAL,
          "in:3:5: the line does not end with a count (a decimal number below 2^64)" },
        { NULL, "a 18446744073709551616\n", CGW_EINVAL,
          "in:1:3: the line does not end with a count (a decimal number below 2^64)" },
        { NULL, "42\n", CGW_EINVAL, "in:1:1: a count without a stack (expected 'FRAME;FRAME... COUNT')" },
        { NULL, "a;b\001c 3\n", CGW_EINVAL, "in:1:4: a control byte or invalid UTF-8 in a frame" },
        { NULL, "a;\xc3(b 3\n", CGW_EINVAL, "in:1:3: a control byte or invalid UTF-8 in a frame" },
        { NULL, "a 18446744073709551615\nb 1\n", CGW_ERANGE,
          "in:2: the total of event Samples passes 2^64-1" },
        /* the writer's portable subset takes lines below 2^32 */
        { NULL, "a 1\nf (a.py:4294967296) 2\n", CGW_EINVAL,
          "in:2:9: a line number of 2^32 or more (expected 'NAME (FILE:LINE)' with a LINE "
          "below 2^32)" },
        { NULL, "m;f (a.py:99999999999999999999) 2\n", CGW_EINVAL,
          "in:1:11: a line number of 2^32 or more (expected 'NAME (FILE:LINE)' with a LINE "
          "below 2^32)" },
        { "9lives", "a 1\n", CGW_EINVAL,
          "bad event name '9lives' (expected [A-Za-z_][A-Za-z0-9_]*)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cgw_stacks *s = cgw_stacks_new(NULL);
        const char *t = cases[i].text;
        CHECK_ST(cgw_stacks_add_folded(s, cases[i].event, "in", t, strlen(t)), cases[i].st);
        CHECK_STR(cgw_stacks_errmsg(s), cases[i].msg);
        CHECK_ST(cgw_stacks_add_folded(s, NULL, "more", "a 1\n", 4), cases[i].st);
        CHECK_STR(cgw_stacks_errmsg(s), cases[i].msg);
        char *buf;
        size_t len;
        cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
        CHECK_ST(cgw_stacks_write(s, w), cases[i].st);
        CHECK(strstr(cgw_errmsg(w), cases[i].msg) != NULL);
        CHECK_ST(cgw_close(w), cases[i].st);
        CHECK(buf == NULL);
        cgw_stacks_free(s);
    }
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_folded(s, NULL, "in", "f (a.py:4294967295) 1\n", 22), CGW_OK);
    char *buf;
    size_t len;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_stacks_write(s, w), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(strstr(buf, "\n4294967295 1\n") != NULL);
    free(buf);
    cgw_stacks_free(s);
    s = cgw_stacks_new(NULL);
    char name[16];
    for (int i = 0; i < 64; i++) {
        snprintf(name, sizeof name, "E%d", i);
        CHECK_ST(cgw_stacks_add_folded(s, name, "in", "a 1\n", 4), CGW_OK);
    }
    CHECK_ST(cgw_stacks_add_folded(s, "E64", "in", "a 1\n", 4), CGW_EINVAL);
    CHECK_STR(cgw_stacks_errmsg(s), "event 'E64': more than 64 events");
    cgw_stacks_free(s);
    CHECK_ST(cgw_stacks_add_folded(NULL, NULL, "in", "a 1\n", 4), CGW_EUSAGE);
    CHECK_ST(cgw_stacks_write(NULL, NULL), CGW_EUSAGE);
    CHECK_ST(cgw_write_folded(NULL, NULL, cgwt_capture_write, NULL, NULL, 0), CGW_EUSAGE);
    cgw_stacks_free(NULL);
}

/* A million frames: one distinct function each, and one function a
 * million times over; and such a line cut before its count. */
static void deep(void)
{
    const int DEPTH = (int)cgwt_scaled(1000000);
    size_t cap = (size_t)DEPTH * 8 + 32, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    for (int i = 0; i < DEPTH; i++)
        len += (size_t)snprintf(text + len, cap - len, "%sf%d", i ? ";" : "", i);
    len += (size_t)snprintf(text + len, cap - len, " 7\n");
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_folded(s, NULL, "deep", text, len), CGW_OK);
    size_t plen;
    char *buf = write_stacks(s, &plen);
    cgw_stacks_free(s);
    char *back = to_folded(buf, plen, NULL, CGW_OK);
    CHECK_U64(strlen(back), len - 1);
    CHECK(memcmp(back, text, len - 1) == 0);
    free(back);
    free(buf);
    /* the same line without its count */
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_folded(s, NULL, "deep", text, len - 3), CGW_EINVAL);
    CHECK(strstr(cgw_stacks_errmsg(s), "deep:1:") != NULL);
    CHECK(strstr(cgw_stacks_errmsg(s), "no count") != NULL);
    cgw_stacks_free(s);
    len = 0;
    for (int i = 0; i < DEPTH; i++)
        len += (size_t)snprintf(text + len, cap - len, "%sa", i ? ";" : "");
    len += (size_t)snprintf(text + len, cap - len, " 5\n");
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_folded(s, NULL, "deep", text, len), CGW_OK);
    buf = write_stacks(s, &plen);
    cgw_stacks_free(s);
    char *got = describe(buf, plen);
    CHECK_STR(got, "a:0=5|a:0>a x1=5|events=Samples|totals=5"); /* a -> a once */
    free(got);
    free(buf);
    free(text);
}

/* A chain of 40 diamonds has 2^40 paths: refused at 2^26 frames, not
 * written for ever. */
static void diamonds(void)
{
    char *buf;
    size_t len;
    char name[32];
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    cgw_add_event(w, "Ir", NULL);
    for (int i = 0; i < 40; i++) {
        const uint64_t one = 1, big = (uint64_t)1 << 50;
        snprintf(name, sizeof name, "top%d", i);
        cgw_function(w, name);
        for (int side = 0; side < 2; side++) {
            snprintf(name, sizeof name, "%s%d", side ? "right" : "left", i);
            cgw_call(w, &(cgw_target){ NULL, NULL, name }, 1, NULL, &one, &big, 1);
        }
        for (int side = 0; side < 2; side++) {
            snprintf(name, sizeof name, "%s%d", side ? "right" : "left", i);
            cgw_function(w, name);
            snprintf(name, sizeof name, "top%d", i + 1);
            cgw_call(w, &(cgw_target){ NULL, NULL, name }, 1, NULL, &one, &big, 1);
        }
    }
    cgw_function(w, "top40");
    cgw_cost(w, (const uint64_t[]){ 1 }, (const uint64_t[]){ (uint64_t)1 << 50 }, 1);
    CHECK_ST(cgw_close(w), CGW_OK);
    char *msg = to_folded(buf, len, NULL, CGW_ERANGE);
    CHECK_STR(msg, "cgw_write_folded: more than 2^26 frames of stacks: the call graph has too "
                   "many paths to write them all");
    free(msg);
    free(buf);
}

/* Folded stacks added on allocator alloc: the status. */
static cgw_status stacks_with(const cgw_allocator *alloc, void *ctx)
{
    const char *in = ctx;
    cgw_stacks *s = cgw_stacks_new(alloc);
    if (s == NULL)
        return CGW_ENOMEM;
    cgw_status st = cgw_stacks_add_folded(s, NULL, "in", in, strlen(in));
    cgw_stacks_free(s);
    return st;
}

/* The failing allocator: every allocation failure is ENOMEM, never a
 * crash or a leak; with enough memory the same answer. */
static void alloc_fail(void)
{
    cgwt_each_alloc_fail(stacks_with, "main;a;b 5\nmain;a 3\nmain;c;b 2\n");
}

int main(void)
{
    basic();
    recursion();
    tier_suffixes();
    mutual_recursion();
    annotations();
    shared_names();
    stable_names(0, "<module>|g|main|main", "<module>|<module>|g|main|main");
    stable_names(CGW_QUALIFY_NAMES, "<module> [py] (s.py)|g (s.py)|main|main [py] (s.py)",
                 "<module> (json.py)|<module> [py] (s.py)|g (s.py)|main|main [py] (s.py)");
    events();
    structured();
    positions();
    addresses();
    many_distinct();
    bad_names();
    estimate();
    bad_input();
    deep();
    diamonds();
    alloc_fail();
    puts("convert: folded stacks to profiles and back, known answers");
    return 0;
}
