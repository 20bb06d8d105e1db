/* SPDX-License-Identifier: MIT */
/* test-profile: the profile model (cgw_profile_*) on call graphs whose
 * right numbers are worked out by hand in each case: mutual recursion
 * (issue 50's parser), a gprof-style cycle of three, a cycle entered from
 * two roots, a cycle inside another function's callee, direct recursion,
 * a root cycle (Python's exec), several parts, lines, the call tree, the
 * stacks' names kept past the profile, shares under a minimum merged
 * (a chain of 40 diamonds, 2^40 paths), misuse and every allocation
 * failing in turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* -------------------------------------------------------------- helpers */

static cgw_profile *load(const char *text, unsigned flags)
{
    cgw_profile_options o = CGW_PROFILE_OPTIONS_INIT;
    o.flags = flags;
    cgw_profile *p = cgw_profile_new(&o);
    CHECK(p != NULL);
    CHECK_ST(cgw_profile_add_memory(p, text, strlen(text), NULL), CGW_OK);
    CHECK_STR(cgw_profile_errmsg(p), "");
    return p;
}

static const cgw_profile_fn *fn_named(cgw_profile *p, const char *name)
{
    long at = cgw_profile_find(p, NULL, "f.c", name);
    if (at < 0)
        cgwt_fail(__FILE__, __LINE__, "no function %s", name);
    size_t n;
    return &cgw_profile_functions(p, &n)[at];
}

/* Function name's self, inclusive, calls, cycle and whether bound. */
static void expect_fn(cgw_profile *p, const char *name, uint64_t self, uint64_t incl,
                      uint64_t calls, uint32_t cycle)
{
    const cgw_profile_fn *f = fn_named(p, name);
    char what[64];
    snprintf(what, sizeof what, "%s", name);
    if (f->self[0] != self || f->inclusive[0] != incl || f->calls != calls ||
        f->cycle != cycle || !(f->flags & CGW_PROFILE_BOUND) != !cycle)
        cgwt_fail(__FILE__, __LINE__,
                  "%s: self %llu incl %llu calls %llu cycle %u flags %u; want %llu %llu %llu %u",
                  what, (unsigned long long)f->self[0], (unsigned long long)f->inclusive[0],
                  (unsigned long long)f->calls, f->cycle, f->flags, (unsigned long long)self,
                  (unsigned long long)incl, (unsigned long long)calls, cycle);
}

/* The stacks of event 0 as "root;..;leaf N" lines, sorted, '|'-joined. */
typedef struct stacks_text {
    cgw_profile *p;
    cgwt_lines lines;
    uint64_t sum;
} stacks_text;

static cgw_status one_stack(void *ctx, const uint32_t *fns, size_t depth, uint64_t amount)
{
    stacks_text *t = ctx;
    size_t n;
    const cgw_profile_fn *f = cgw_profile_functions(t->p, &n);
    char line[512];
    size_t len = 0;
    for (size_t i = depth; i-- > 0;) {
        CHECK(fns[i] < n);
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", f[fns[i]].name,
                                i ? ";" : "");
    }
    snprintf(line + len, sizeof line - len, " %llu", (unsigned long long)amount);
    cgwt_lines_add(&t->lines, line);
    t->sum += amount;
    return CGW_OK;
}

/* The stacks of event 0 with min_amount min, as one_stack() joins them;
 * their amounts sum to the total. */
static char *stacks_min(cgw_profile *p, uint64_t min)
{
    stacks_text t = { p, { 0 }, 0 };
    CHECK_ST(cgw_profile_stacks_min(p, 0, min, one_stack, &t), CGW_OK);
    CHECK_U64(t.sum, cgw_profile_totals(p)[0]);
    return cgwt_lines_join(&t.lines, "|");
}

/* The stacks, and the same with min_amount 0. */
static void expect_stacks(cgw_profile *p, const char *want)
{
    stacks_text t = { p, { 0 }, 0 };
    CHECK_ST(cgw_profile_stacks(p, 0, one_stack, &t), CGW_OK);
    char *got = cgwt_lines_join(&t.lines, "|");
    CHECK_STR(got, want);
    CHECK_U64(t.sum, cgw_profile_totals(p)[0]); /* every cost, once */
    free(got);
    got = stacks_min(p, 0);
    CHECK_STR(got, want);
    free(got);
}

/* The call tree of event 0 as "fn/incl/self" in node order, '|'-joined;
 * each node's parent comes before it, and the root holds the total. */
static void expect_tree(cgw_profile *p, size_t max, const char *want, int want_cut)
{
    const cgw_profile_node *nodes;
    size_t n, nfns;
    int cut;
    CHECK_ST(cgw_profile_tree(p, 0, max, &nodes, &n, &cut), CGW_OK);
    const cgw_profile_fn *f = cgw_profile_functions(p, &nfns);
    CHECK(n >= 1 && nodes[0].fn == CGW_PROFILE_ROOT && nodes[0].parent == CGW_PROFILE_ROOT);
    CHECK_U64(nodes[0].inclusive, cgw_profile_totals(p)[0]);
    char buf[1024];
    size_t len = 0;
    for (size_t i = 1; i < n; i++) {
        CHECK(nodes[i].parent < i && nodes[i].fn < nfns);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s<%s/%llu/%llu", i > 1 ? "|" : "",
                                f[nodes[i].fn].name,
                                nodes[i].parent ? f[nodes[nodes[i].parent].fn].name : "",
                                (unsigned long long)nodes[i].inclusive,
                                (unsigned long long)nodes[i].self);
    }
    CHECK_STR(buf, want);
    CHECK_U64((uint64_t)cut, (uint64_t)want_cut);
}

/* -------------------------------------------------------------- shapes */

/* Issue 50's parser: main -> expr <-> term.  Total 47 (2 + 20 + 25).
 * main: 2 + its call 45 = 47, exact.  The cycle {expr, term}: self 45,
 * nothing out, called for 45: 45.  expr: 20 + 30 = 50 by its own calls,
 * at most the cycle's 45; term: 25 + 5 = 30.  Every sample is under main
 * and expr: the stacks main 2, main;expr 20, main;expr;term 25. */
static const char parser[] =
    "# callgrind format\nversion: 1\ncmd: ./parser\npositions: line\nevents: Samples\n"
    "fl=f.c\nfn=main\n10 2\ncfn=expr\ncalls=1 20\n11 45\n"
    "fn=expr\n20 20\ncfn=term\ncalls=2 30\n21 30\n"
    "fn=term\n30 25\ncfn=expr\ncalls=1 20\n31 5\n";

static void mutual_recursion(void)
{
    cgw_profile *p = load(parser, 0);
    expect_fn(p, "main", 2, 47, 0, 0);
    expect_fn(p, "expr", 20, 45, 2, 1);
    expect_fn(p, "term", 25, 30, 2, 1);
    size_t n;
    const cgw_profile_cycle *c = cgw_profile_cycles(p, &n);
    CHECK(c != NULL && n == 1 && c[0].nmembers == 2);
    CHECK_U64(c[0].self[0], 45);
    CHECK_U64(c[0].inclusive[0], 45);
    CHECK_U64(cgw_profile_functions(p, &n)[c[0].members[0]].self[0], 20); /* expr, ascending */
    const cgw_profile_edge *e = cgw_profile_edges(p, &n);
    CHECK(e != NULL && n == 3);
    const uint32_t *in = cgw_profile_callers(p, (size_t)cgw_profile_find(p, NULL, "f.c", "expr"), &n);
    CHECK(in != NULL && n == 2);
    CHECK_U64(e[in[0]].inclusive[0] + e[in[1]].inclusive[0], 50);
    const uint32_t *out = cgw_profile_callees(p, (size_t)cgw_profile_find(p, NULL, "f.c", "main"), &n);
    CHECK(out != NULL && n == 1);
    CHECK_U64(e[out[0]].count, 1);
    CHECK_STR(cgw_profile_cmd(p), "./parser");
    CHECK_U64(cgw_profile_parts(p), 1);
    CHECK(cgw_profile_stacks_exact(p) == 0);
    expect_stacks(p, "main 2|main;expr 20|main;expr;term 25");
    expect_tree(p, 0, "main</47/2|expr<main/45/20|term<expr/25/25", 0);
    /* a tree of two nodes and the root: term's cost stays in expr */
    expect_tree(p, 3, "main</47/2|expr<main/45/45", 1);
    cgw_profile_free(p);
}

/* gprof's shape: main -> a -> b -> c -> a.  Total 55 (a 10, b 20, c 25;
 * of a's 10, 5 in its second call from c).  main 55; the cycle 55; a
 * 10 + 50 = 60, at most 55; b 20 + 30 = 50; c 25 + 5 = 30. */
static void cycle_of_three(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=main\n1 0\ncfn=a\ncalls=1 1\n2 55\n"
        "fn=a\n1 10\ncfn=b\ncalls=2 1\n2 50\n"
        "fn=b\n1 20\ncfn=c\ncalls=2 1\n2 30\n"
        "fn=c\n1 25\ncfn=a\ncalls=1 1\n2 5\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "main", 0, 55, 0, 0);
    expect_fn(p, "a", 10, 55, 2, 1);
    expect_fn(p, "b", 20, 50, 2, 1);
    expect_fn(p, "c", 25, 30, 2, 1);
    expect_stacks(p, "main;a 10|main;a;b 20|main;a;b;c 25");
    cgw_profile_free(p);
}

/* One cycle {x, y} entered from two roots: r1 -> x (10), r2 -> y (20);
 * x self 12, y self 18, x -> y 4, y -> x 6; r1 self 1, r2 self 2.  Total
 * 33.  r1 11, r2 22 (exact); the cycle 30; x 12 + 4 = 16, y 18 + 6 = 24.
 * x's 12 goes a third to r1's call (entered at x) and two thirds to r2's
 * (entered at y, then y -> x): r1;x 4, r2;y;x 8; y's 18: r1;x;y 6,
 * r2;y 12.  No stack starts inside the cycle. */
static void cycle_two_roots(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=r1\n1 1\ncfn=x\ncalls=1 1\n2 10\n"
        "fn=r2\n1 2\ncfn=y\ncalls=1 1\n2 20\n"
        "fn=x\n1 12\ncfn=y\ncalls=1 1\n2 4\n"
        "fn=y\n1 18\ncfn=x\ncalls=1 1\n2 6\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "r1", 1, 11, 0, 0);
    expect_fn(p, "r2", 2, 22, 0, 0);
    expect_fn(p, "x", 12, 16, 2, 1);
    expect_fn(p, "y", 18, 24, 2, 1);
    expect_stacks(p, "r1 1|r1;x 4|r1;x;y 6|r2 2|r2;y 12|r2;y;x 8");
    cgw_profile_free(p);
}

/* A cycle called from outside for less than it spends: r -> x (10), x
 * self 12, y self 18, x -> y 4, y -> x 6; total 31.  The cycle (30) is
 * called for 10: 20 of it started on its own, at y, which starts 24 - 4
 * = 20 beyond its calls (x: 16 - 16 = 0).  x's 12: r;x 4, y;x 8; y's
 * 18: r;x;y 6, y 12. */
static void cycle_called_and_started(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=r\n1 1\ncfn=x\ncalls=1 1\n2 10\n"
        "fn=x\n1 12\ncfn=y\ncalls=1 1\n2 4\n"
        "fn=y\n1 18\ncfn=x\ncalls=1 1\n2 6\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "r", 1, 11, 0, 0);
    expect_fn(p, "x", 12, 16, 2, 1);
    expect_fn(p, "y", 18, 24, 1, 1);
    expect_stacks(p, "r 1|r;x 4|r;x;y 6|y 12|y;x 8");
    cgw_profile_free(p);
}

/* A cycle inside another function's callee, calling out: main -> f ->
 * g <-> h, h -> k.  main 1, f 2, g 3, h 4, k 5: total 15.  f -> g 12
 * (g, h, k); g -> h 10 (h 4 + k 5 + g's 1 of a second visit); h -> g 1;
 * h -> k 5.  main 15, f 14, k 5 (exact); the cycle 3 + 4 + 5 = 12; g
 * 3 + 10 = 13, at most 12; h 4 + 1 + 5 = 10. */
static void cycle_in_callee(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=main\n1 1\ncfn=f\ncalls=1 1\n2 14\n"
        "fn=f\n1 2\ncfn=g\ncalls=1 1\n2 12\n"
        "fn=g\n1 3\ncfn=h\ncalls=1 1\n2 10\n"
        "fn=h\n1 4\ncfn=g\ncalls=1 1\n2 1\ncfn=k\ncalls=1 1\n3 5\n"
        "fn=k\n1 5\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "main", 1, 15, 0, 0);
    expect_fn(p, "f", 2, 14, 1, 0);
    expect_fn(p, "g", 3, 12, 2, 1);
    expect_fn(p, "h", 4, 10, 1, 1);
    expect_fn(p, "k", 5, 5, 1, 0);
    expect_stacks(p, "main 1|main;f 2|main;f;g 3|main;f;g;h 4|main;f;g;h;k 5");
    cgw_profile_free(p);
}

/* Direct recursion: fact calls itself (calls=3, 8), which adds nothing:
 * fact 10 + 0 = 10, no cycle, one stack main;fact 10; the edge is kept. */
static void direct_recursion(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=main\n1 2\ncfn=fact\ncalls=1 1\n2 10\n"
        "fn=fact\n1 10\ncfn=fact\ncalls=3 1\n2 8\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "main", 2, 12, 0, 0);
    expect_fn(p, "fact", 10, 10, 1, 0);
    size_t n;
    CHECK(cgw_profile_cycles(p, &n) == NULL && n == 0);
    CHECK(cgw_profile_edges(p, &n) != NULL && n == 2);
    CHECK(cgw_profile_stacks_exact(p) == 0);
    expect_stacks(p, "main 2|main;fact 10");
    cgw_profile_free(p);
}

/* A cycle nothing calls, as cProfile writes Python's exec: exec (self
 * 1) runs script (5), which imports through load (3) and exec again (1),
 * which runs mod (7).  exec's calls are counted at every depth: exec ->
 * script 16, exec -> mod 7, script -> load 11, load -> exec 8; exec self
 * 2.  Total 17.  The cycle {exec, script, load} 10 + 7 out = 17; exec by
 * its own calls 2 + 16 + 7 = 25, at most 17: the program's entry shows
 * the total; script 16, load 11, mod 7 (exact).  exec starts the cycle
 * (23 of calls, called for 8; script and load for all they make), so
 * every stack starts there; its calls (23) pass its own 17 less self:
 * script, the heaviest, is its outer call, mod an inner one, made by
 * exec called again from load: mod's stack is the one that ran. */
static void root_cycle(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=exec\n1 2\ncfn=script\ncalls=1 1\n2 16\ncfn=mod\ncalls=1 1\n3 7\n"
        "fn=script\n1 5\ncfn=load\ncalls=1 1\n2 11\n"
        "fn=load\n1 3\ncfn=exec\ncalls=1 1\n2 8\n"
        "fn=mod\n1 7\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "exec", 2, 17, 1, 1);
    expect_fn(p, "script", 5, 16, 1, 1);
    expect_fn(p, "load", 3, 11, 1, 1);
    expect_fn(p, "mod", 7, 7, 1, 0);
    expect_stacks(p, "exec 2|exec;script 5|exec;script;load 3|exec;script;load;exec;mod 7");
    cgw_profile_free(p);
}

/* The same with the module inside the cycle (it imports too): exec
 * (self 1) runs script (5), whose import (load, 3) runs exec (1) again,
 * which runs mod (6), whose import runs load (2).  cProfile's sums:
 * exec self 2, exec -> script 17, exec -> mod 8, script -> load 12,
 * load -> exec 9, mod -> load 2; total 18, one cycle of the four.
 * exec's calls into the cycle (25) pass its own 18 less self: script,
 * the heaviest, is its outer call, mod an inner one, made by exec
 * called again from load, so mod's stack goes through the script. */
static void root_cycle_nested(void)
{
    static const char text[] =
        "events: ns\nfl=f.c\nfn=exec\n1 2\ncfn=script\ncalls=1 1\n2 17\ncfn=mod\ncalls=1 1\n3 8\n"
        "fn=script\n1 5\ncfn=load\ncalls=1 1\n2 12\n"
        "fn=load\n1 5\ncfn=exec\ncalls=1 1\n2 9\n"
        "fn=mod\n1 6\ncfn=load\ncalls=1 1\n2 2\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "exec", 2, 18, 1, 1);
    expect_fn(p, "script", 5, 17, 1, 1);
    expect_fn(p, "load", 5, 14, 2, 1);
    expect_fn(p, "mod", 6, 8, 1, 1);
    expect_stacks(p, "exec 2|exec;script 5|exec;script;load 5|exec;script;load;exec;mod 6");
    cgw_profile_free(p);
}

/* Parts summed by event name (a part with another event adds a column),
 * or one part kept; with CGW_PROFILE_SAME_EVENTS the second is refused. */
static void parts(void)
{
    static const char text[] =
        "events: A\nfl=f.c\nfn=main\n1 5\n"
        "part: 2\nevents: B A\nfl=f.c\nfn=main\n1 1 7\nfn=g\n1 3 0\n";
    cgw_profile *p = load(text, 0);
    const cgw_event *ev;
    CHECK(cgw_profile_events(p, &ev) == 2);
    CHECK_STR(ev[0].name, "A");
    CHECK_STR(ev[1].name, "B");
    CHECK_U64(cgw_profile_totals(p)[0], 12);
    CHECK_U64(cgw_profile_totals(p)[1], 4);
    CHECK_U64(fn_named(p, "main")->self[0], 12);
    CHECK_U64(fn_named(p, "main")->self[1], 1);
    CHECK_U64(cgw_profile_parts(p), 2);
    cgw_profile_free(p);

    cgw_profile_options o = CGW_PROFILE_OPTIONS_INIT;
    o.part = 2;
    p = cgw_profile_new(&o);
    CHECK_ST(cgw_profile_add_memory(p, text, strlen(text), NULL), CGW_OK);
    CHECK(cgw_profile_events(p, &ev) == 2);
    CHECK_STR(ev[0].name, "B");
    CHECK_U64(cgw_profile_totals(p)[1], 7);
    CHECK_U64(cgw_profile_parts(p), 1);
    cgw_profile_free(p);

    o.part = 0;
    o.flags = CGW_PROFILE_SAME_EVENTS;
    p = cgw_profile_new(&o);
    CHECK_ST(cgw_profile_add_memory(p, text, strlen(text), NULL), CGW_EINVAL);
    CHECK(strstr(cgw_profile_errmsg(p), "part 2 has other events") != NULL);
    size_t n;
    CHECK(cgw_profile_functions(p, &n) == NULL && n == 0);
    cgw_profile_free(p);
}

/* Lines by source file (inlined ones apart), line and address. */
static void lines(void)
{
    static const char text[] =
        "positions: instr line\nevents: Ir\nfl=f.c\nfn=main\n0x10 3 1\n0x14 3 2\n+4 2 4\n"
        "fi=h.h\n0x30 9 8\nfe=f.c\n0x10 3 16\n";
    cgw_profile *p = load(text, CGW_PROFILE_LINES);
    size_t n;
    const cgw_profile_line *l = cgw_profile_lines(p, (size_t)cgw_profile_find(p, NULL, "f.c", "main"), &n);
    CHECK(l != NULL && n == 4);
    CHECK_STR(l[0].source_file, "f.c");
    CHECK_U64(l[0].line, 2);
    CHECK_U64(l[0].address, 0x18);
    CHECK_U64(l[0].self[0], 4);
    CHECK_U64(l[1].line, 3);
    CHECK_U64(l[1].address, 0x10);
    CHECK_U64(l[1].self[0], 17);
    CHECK_U64(l[2].address, 0x14);
    CHECK_STR(l[3].source_file, "h.h");
    CHECK_U64(l[3].self[0], 8);
    cgw_profile_free(p);
    p = load(text, 0);
    CHECK(cgw_profile_lines(p, 0, &n) == NULL && n == 0);
    CHECK_ST(cgw_profile_error(p), CGW_OK);
    cgw_profile_free(p);
}

/* No inclusive cost above the total, even when a call claims more than
 * the part has (a sampled converter's "148%"). */
static void capped(void)
{
    static const char text[] =
        "events: Samples\nfl=f.c\nfn=main\n1 2\ncfn=g\ncalls=1 1\n2 100\nfn=g\n1 50\n";
    cgw_profile *p = load(text, 0);
    expect_fn(p, "main", 2, 52, 0, 0);
    expect_fn(p, "g", 50, 52, 1, 0);
    cgw_profile_free(p);
}

/* main calls a (110) and b (20), which call leaf for 90 and 10: leaf's
 * 100 splits 90/10.  A minimum of 10 keeps b's share (not under it); 11
 * gives it to a's, the heavier, and b's own 10, its frame's only share,
 * still goes on. */
static void merged_shares(void)
{
    static const char text[] =
        "events: Ir\nfl=f.c\nfn=main\n1 2\ncfn=a\ncalls=1 1\n1 110\ncfn=b\ncalls=1 1\n1 20\n"
        "fn=a\n1 20\ncfn=leaf\ncalls=1 1\n1 90\nfn=b\n1 10\ncfn=leaf\ncalls=1 1\n1 10\n"
        "fn=leaf\n1 100\n";
    cgw_profile *p = load(text, 0);
    expect_stacks(p, "main 2|main;a 20|main;a;leaf 90|main;b 10|main;b;leaf 10");
    char *got = stacks_min(p, 10);
    CHECK_STR(got, "main 2|main;a 20|main;a;leaf 90|main;b 10|main;b;leaf 10");
    free(got);
    got = stacks_min(p, 11);
    CHECK_STR(got, "main 2|main;a 20|main;a;leaf 100|main;b 10");
    free(got);
    got = stacks_min(p, 1000); /* every share the heaviest or merged */
    CHECK_STR(got, "main 2|main;a 20|main;a;leaf 100|main;b 10");
    free(got);
    cgw_profile_free(p);
}

#define DIAMONDS 40
#define NODE_SELF 1000000 /* n0 .. n40's */
#define SIDE_SELF 1000    /* a0 .. a39's and b0 .. b39's */

/* A chain of DIAMONDS diamonds, n_i calling a_i and b_i, both calling
 * n_i+1 for half its inclusive cost: 2^40 paths from n0 to n40. */
static char *diamonds(void)
{
    size_t cap = 160 * (DIAMONDS + 1) + 64, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    len += (size_t)snprintf(text, cap, "events: Ir\nfl=f.c\n");
    for (int i = 0; i <= DIAMONDS; i++) {
        uint64_t below = (uint64_t)(DIAMONDS - i) * (NODE_SELF + 2 * SIDE_SELF);
        len += (size_t)snprintf(text + len, cap - len, "fn=n%d\n1 %d\n", i, NODE_SELF);
        for (int side = 0; side < 2 && i < DIAMONDS; side++)
            len += (size_t)snprintf(text + len, cap - len, "cfn=%c%d\ncalls=1 1\n1 %llu\n",
                                    "ab"[side], i, (unsigned long long)(below / 2));
        for (int side = 0; side < 2 && i < DIAMONDS; side++)
            len += (size_t)snprintf(text + len, cap - len,
                                    "fn=%c%d\n1 %d\ncfn=n%d\ncalls=1 1\n1 %llu\n", "ab"[side], i,
                                    SIDE_SELF, i + 1,
                                    (unsigned long long)((below - 2 * SIDE_SELF) / 2));
    }
    CHECK(len < cap);
    return text;
}

/* Each root of the stacks is called by no one; each function's stacks
 * sum to its self cost. */
typedef struct roots_check {
    cgw_profile *p;
    uint64_t *self, sum, stacks;
} roots_check;

static cgw_status check_root(void *ctx, const uint32_t *fns, size_t depth, uint64_t amount)
{
    roots_check *c = ctx;
    size_t n;
    CHECK(depth > 0 && cgw_profile_callers(c->p, fns[depth - 1], &n) != NULL && n == 0);
    c->self[fns[0]] += amount;
    c->sum += amount;
    c->stacks++;
    return CGW_OK;
}

/* 2^40 paths: with the tree's minimum (total >> 16, 626) every self cost
 * and the total stay exact, and the tree is small: a function's stacks
 * are at most about 2 * its self cost over the minimum (41 of 1e6, 80
 * under it), of at most 81 frames.  The tree has 65,534 nodes; 2^18 is
 * asked. */
static void many_paths(void)
{
    char *text = diamonds();
    cgw_profile *p = load(text, 0);
    free(text);
    size_t nfns, n;
    const cgw_profile_fn *f = cgw_profile_functions(p, &nfns);
    CHECK(nfns == 3 * DIAMONDS + 1);
    uint64_t total = cgw_profile_totals(p)[0];
    CHECK_U64(total, (DIAMONDS + 1) * (uint64_t)NODE_SELF + 2 * DIAMONDS * SIDE_SELF);
    const cgw_profile_node *nodes;
    int cut;
    CHECK_ST(cgw_profile_tree(p, 0, 0, &nodes, &n, &cut), CGW_OK);
    CHECK_U64((uint64_t)cut, 1);
    CHECK(n < ((size_t)1 << 18));
    CHECK_U64(nodes[0].inclusive, total);
    uint64_t *self = calloc(nfns, sizeof *self);
    CHECK(self != NULL);
    for (size_t i = 1; i < n; i++)
        self[nodes[i].fn] += nodes[i].self;
    for (size_t fn = 0; fn < nfns; fn++)
        CHECK_U64(self[fn], f[fn].self[0]);
    CHECK_U64(nodes[0].self, 0);
    /* the same bound by hand: roots called by no one, self costs kept */
    roots_check c = { p, self, 0, 0 };
    memset(self, 0, nfns * sizeof *self);
    CHECK_ST(cgw_profile_stacks_min(p, 0, total >> 10, check_root, &c), CGW_OK);
    CHECK_U64(c.sum, total);
    for (size_t fn = 0; fn < nfns; fn++)
        CHECK_U64(self[fn], f[fn].self[0]);
    CHECK(c.stacks <= 2 * total / (total >> 10) + nfns); /* 2 * self / min + 1 a function */
    CHECK_ST(cgw_profile_stacks(p, 0, check_root, &c), CGW_ERANGE); /* unbounded: too many */
    free(self);
    cgw_profile_free(p);
}

/* Names stay the reader's with CGW_PROFILE_READER_NAMES, and two
 * readers are refused; several inputs are summed; misuse. */
static void inputs_and_misuse(void)
{
    cgw_profile_options o = CGW_PROFILE_OPTIONS_INIT;
    o.flags = CGW_PROFILE_READER_NAMES;
    cgw_profile *p = cgw_profile_new(&o);
    cgw_reader *r = cgw_reader_open_memory(parser, strlen(parser), NULL);
    CHECK_ST(cgw_profile_add(p, r), CGW_OK);
    size_t n;
    const cgw_profile_fn *f = cgw_profile_functions(p, &n);
    const char *name = f[0].name;
    CHECK_ST(cgw_profile_add_memory(p, parser, strlen(parser), NULL), CGW_EUSAGE);
    cgw_profile_free(p);
    CHECK_STR(name, "main"); /* the reader's, still open */
    cgw_reader_close(r);

    p = load(parser, 0);
    CHECK_ST(cgw_profile_add_memory(p, parser, strlen(parser), NULL), CGW_OK);
    expect_fn(p, "main", 4, 94, 0, 0);
    CHECK(cgw_profile_find(p, NULL, "f.c", "nosuch") == -1);
    CHECK(cgw_profile_find(p, "obj", "f.c", "main") == -1);
    CHECK_ST(cgw_profile_stacks(p, 1, one_stack, NULL), CGW_EINVAL);
    CHECK_ST(cgw_profile_error(p), CGW_OK);
    CHECK(cgw_profile_callers(p, 99, &n) == NULL && n == 0);
    CHECK_ST(cgw_profile_stacks(p, 0, NULL, NULL), CGW_EUSAGE);
    cgw_profile_free(p);

    CHECK_ST(cgw_profile_add(NULL, NULL), CGW_EUSAGE);
    CHECK_ST(cgw_profile_error(NULL), CGW_EUSAGE);
    CHECK(cgw_profile_functions(NULL, &n) == NULL && n == 0);
    cgw_profile_free(NULL);
    o.flags = 0x80;
    p = cgw_profile_new(&o);
    CHECK_ST(cgw_profile_error(p), CGW_EINVAL);
    cgw_profile_free(p);
    /* the reader's refusal is the model's, with its message */
    p = cgw_profile_new(NULL);
    CHECK_ST(cgw_profile_add_path(p, "/nonexistent/x.out", NULL), CGW_EIO);
    CHECK(strstr(cgw_profile_errmsg(p), "/nonexistent/x.out") != NULL);
    cgw_profile_free(p);
}

static cgw_status profile_with(const cgw_allocator *alloc, void *ctx)
{
    (void)ctx;
    cgw_profile_options o = CGW_PROFILE_OPTIONS_INIT;
    o.allocator = alloc;
    o.flags = CGW_PROFILE_LINES;
    cgw_profile *p = cgw_profile_new(&o);
    if (p == NULL)
        return CGW_ENOMEM;
    cgw_read_options ro = CGW_READ_OPTIONS_INIT;
    ro.allocator = alloc;
    cgw_status st = cgw_profile_add_memory(p, parser, strlen(parser), &ro);
    size_t n;
    if (st == CGW_OK && cgw_profile_functions(p, &n) == NULL)
        st = cgw_profile_error(p);
    const cgw_profile_node *nodes;
    if (st == CGW_OK)
        st = cgw_profile_tree(p, 0, 0, &nodes, &n, NULL);
    cgw_profile_free(p);
    return st;
}

int main(void)
{
    mutual_recursion();
    cycle_of_three();
    cycle_two_roots();
    cycle_called_and_started();
    cycle_in_callee();
    direct_recursion();
    root_cycle();
    root_cycle_nested();
    parts();
    lines();
    capped();
    merged_shares();
    many_paths();
    inputs_and_misuse();
    cgwt_each_alloc_fail(profile_with, NULL);
    printf("profile: cycles, recursion, parts, lines, trees and errors as worked out by hand\n");
    return 0;
}
