/* SPDX-License-Identifier: MIT */
/* test-diff: cgw_diff_*() against changes worked out by hand: the rows
 * (totals, self and inclusive, sorted), the profile of the difference
 * read back, events only one side has, rewrites, overflow and misuse. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char old_prof[] =
    "events: Ir Dr\n"
    "fl=a.c\n"
    "fn=main\n"
    "1 10 2\n"
    "cfl=b.c\n"
    "cfn=f\n"
    "calls=2 10\n"
    "3 100 20\n"
    "cfn=main\n"
    "calls=1 1\n"
    "4 1000 1000\n"
    "fl=b.c\n"
    "fn=f\n"
    "10 100 20\n"
    "fn=gone\n"
    "1 5\n";
static const char new_prof[] =
    "events: Ir Dr\n"
    "fl=a.c\n"
    "fn=main\n"
    "1 12 2\n"
    "cfl=b.c\n"
    "cfn=f\n"
    "calls=3 10\n"
    "3 150 20\n"
    "cfn=main\n"
    "calls=1 1\n"
    "4 1000 1000\n"
    "fl=b.c\n"
    "fn=f\n"
    "10 150 20\n"
    "fn=fresh\n"
    "1 7\n";

static void add(cgw_differ *d, int side, const char *text, cgw_status want)
{
    cgw_reader *r = cgw_reader_open_memory(text, strlen(text), NULL);
    CHECK(r != NULL);
    CHECK_ST(cgw_diff_add(d, side, r), want);
    cgw_reader_close(r);
}

/* The rows as text, "EVENT FUNCTION self|incl OLD NEW PERCENT". */
static char *rows_text(cgw_differ *d)
{
    const cgw_diff_row *rows;
    size_t n;
    CHECK_ST(cgw_diff_rows(d, &rows, &n), CGW_OK);
    cgwt_capture out;
    cgwt_capture_init(&out, 0, 0);
    char buf[512];
    for (size_t i = 0; i < n; i++) {
        const cgw_diff_row *r = &rows[i];
        int k = snprintf(buf, sizeof buf, "%s%zu %s:%s %s %llu %llu %.2f\n", r->event,
                         r->column, r->file ? r->file : "", r->function ? r->function : "*",
                         r->inclusive ? "incl" : "self", (unsigned long long)r->old_cost,
                         (unsigned long long)r->new_cost, r->change);
        cgwt_capture_write(&out, buf, (size_t)k);
    }
    cgwt_capture_write(&out, "", 1);
    return out.data;
}

static cgw_status write_diff(void *d, cgw_writer *w)
{
    return cgw_diff_write(d, w);
}

static char *diff_profile(cgw_differ *d, size_t *len)
{
    return cgwt_write_checked(write_diff, d, NULL, len);
}

/* Old totals Ir 115, Dr 22; main's self +2 Ir, f +50, fresh +7, gone
 * -5; main's inclusive 110 -> 162 (its call to itself left out). */
static void test_known(void)
{
    cgw_differ *d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, old_prof, CGW_OK);
    add(d, CGW_DIFF_NEW, new_prof, CGW_OK);
    char *t = rows_text(d);
    CHECK_STR(t, "Ir0 :* self 115 169 46.96\n"
                 "Dr1 :* self 22 22 0.00\n"
                 "Ir0 a.c:main incl 110 162 45.22\n"
                 "Ir0 b.c:f self 100 150 43.48\n"
                 "Ir0 b.c:f incl 100 150 43.48\n"
                 "Ir0 b.c:fresh self 0 7 6.09\n"
                 "Ir0 b.c:fresh incl 0 7 6.09\n"
                 "Ir0 b.c:gone self 5 0 -4.35\n"
                 "Ir0 b.c:gone incl 5 0 -4.35\n"
                 "Ir0 a.c:main self 10 12 1.74\n");
    free(t);
    size_t len;
    char *p = diff_profile(d, &len);
    CHECK(strstr(p, "\nevents: Ir_plus Ir_minus Dr_plus Dr_minus\n") != NULL);
    CHECK_FACTS(p, len, "1|call||a.c|main||b.c|f\t 1 50 0 0 0\n"
                        "1|self||a.c|main\t 2 0 0 0\n"
                        "1|self||b.c|f\t 50 0 0 0\n"
                        "1|self||b.c|fresh\t 7 0 0 0\n"
                        "1|self||b.c|gone\t 0 5 0 0\n"
                        "1|totals\t 59 5 0 0\n");
    const char *const keys[] = { "a.c:main", "b.c:f", "b.c:fresh", "b.c:gone" };
    const uint64_t self[][4] = { { 2, 0, 0, 0 }, { 50, 0, 0, 0 }, { 7, 0, 0, 0 }, { 0, 5, 0, 0 } };
    cgwt_annotate_expect(p, len, 4, (const uint64_t[]){ 59, 5, 0, 0 }, 4, keys, &self[0][0]);
    free(p);
    /* once only; nothing added after the rows */
    cgwt_capture cap;
    cgw_writer *w = cgwt_capture_open(&cap, NULL);
    CHECK_ST(cgw_diff_write(d, w), CGW_EUSAGE);
    cgw_free(w);
    cgwt_capture_free(&cap);
    add(d, CGW_DIFF_NEW, new_prof, CGW_EUSAGE);
    cgw_diff_free(d);
}

/* Inclusive rows by the profile model's rule on a cycle: issue 50's
 * parser (main -> expr <-> term; expr 45 of 47, at most its cycle's),
 * then term spends 10 more (main -> expr 55, expr -> term 40): expr
 * 45 -> 55 and term 30 -> 40, where self plus calls would say 50 -> 60
 * and 30 -> 40; main 47 -> 57. */
static void test_cycle(void)
{
    static const char before[] =
        "events: Samples\nfl=p.c\nfn=main\n10 2\ncfn=expr\ncalls=1 20\n11 45\n"
        "fn=expr\n20 20\ncfn=term\ncalls=2 30\n21 30\n"
        "fn=term\n30 25\ncfn=expr\ncalls=1 20\n31 5\n";
    static const char after[] =
        "events: Samples\nfl=p.c\nfn=main\n10 2\ncfn=expr\ncalls=1 20\n11 55\n"
        "fn=expr\n20 20\ncfn=term\ncalls=2 30\n21 40\n"
        "fn=term\n30 35\ncfn=expr\ncalls=1 20\n31 5\n";
    cgw_differ *d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, before, CGW_OK);
    add(d, CGW_DIFF_NEW, after, CGW_OK);
    char *t = rows_text(d);
    CHECK_STR(t, "Samples0 :* self 47 57 21.28\n"
                 "Samples0 p.c:expr incl 45 55 21.28\n"
                 "Samples0 p.c:main incl 47 57 21.28\n"
                 "Samples0 p.c:term self 25 35 21.28\n"
                 "Samples0 p.c:term incl 30 40 21.28\n");
    free(t);
    cgw_diff_free(d);
}

/* An event only the new side has: its old total is 0, every move of it
 * is infinite in percent; the sides' event orders differ. */
static void test_events(void)
{
    cgw_differ *d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, "events: Ir\nfn=a\n1 10\n", CGW_OK);
    add(d, CGW_DIFF_NEW, "events: Dr Ir\nfn=a\n1 3 10\nfn=b\n2 0 4\n", CGW_OK);
    char *t = rows_text(d);
    CHECK_STR(t, "Ir0 :* self 10 14 40.00\n"
                 "Dr1 :* self 0 3 inf\n"
                 "Ir0 ???:b self 0 4 40.00\n"
                 "Ir0 ???:b incl 0 4 40.00\n"
                 "Dr1 ???:a self 0 3 inf\n"
                 "Dr1 ???:a incl 0 3 inf\n");
    free(t);
    size_t len;
    char *p = diff_profile(d, &len);
    CHECK_FACTS(p, len, "1|self||???|a\t 0 0 3 0\n1|self||???|b\t 4 0 0 0\n1|totals\t 4 0 3 0\n");
    free(p);
    cgw_diff_free(d);
    /* the same profile on both sides: totals only, an empty difference */
    d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, old_prof, CGW_OK);
    add(d, CGW_DIFF_NEW, old_prof, CGW_OK);
    t = rows_text(d);
    CHECK_STR(t, "Ir0 :* self 115 115 0.00\nDr1 :* self 22 22 0.00\n");
    free(t);
    p = diff_profile(d, &len);
    CHECK_FACTS(p, len, "1|totals\t 0 0 0 0\n");
    free(p);
    cgw_diff_free(d);
}

/* The count of a call in the difference: the change in its number of
 * calls (2 -> 7: 5, its cost the same: no cost), or 1 when only its
 * inclusive cost changed (a -> b: 2 calls on both sides, 10 -> 15). */
static void test_call_counts(void)
{
    cgw_differ *d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, "events: Ir\nfl=a.c\nfn=a\ncfn=b\ncalls=2 1\n1 10\n"
                         "cfn=c\ncalls=2 1\n2 4\nfn=b\n1 10\nfn=c\n1 4\n", CGW_OK);
    add(d, CGW_DIFF_NEW, "events: Ir\nfl=a.c\nfn=a\ncfn=b\ncalls=2 1\n1 15\n"
                         "cfn=c\ncalls=7 1\n2 4\nfn=b\n1 15\nfn=c\n1 4\n", CGW_OK);
    size_t len;
    char *p = diff_profile(d, &len);
    CHECK_FACTS(p, len, "1|call||a.c|a||a.c|b\t 1 5 0\n"
                        "1|call||a.c|a||a.c|c\t 5 0 0\n"
                        "1|self||a.c|b\t 5 0\n"
                        "1|totals\t 5 0\n");
    free(p);
    cgw_diff_free(d);
}

static void test_errors(void)
{
    cgw_differ *d = cgw_diff_new(NULL);
    const cgw_diff_row *rows;
    size_t n;
    CHECK_ST(cgw_diff_rows(d, &rows, &n), CGW_EUSAGE);
    CHECK(strstr(cgw_diff_errmsg(d), "no profile was added") != NULL);
    cgw_diff_free(d);
    d = cgw_diff_new(NULL);
    add(d, 2, old_prof, CGW_EINVAL);
    CHECK(strstr(cgw_diff_errmsg(d), "cgw_diff_add: side 2") != NULL);
    cgw_diff_free(d);
    CHECK_ST(cgw_diff_add(NULL, 0, NULL), CGW_EUSAGE);
    CHECK_ST(cgw_diff_error(NULL), CGW_EUSAGE);
    CHECK_ST(cgw_diff_write(NULL, NULL), CGW_EUSAGE);
    cgw_merge_options mo = { .struct_size = sizeof mo, .flags = CGW_MERGE_KEEP_PARTS };
    d = cgw_diff_new(&mo);
    CHECK_ST(cgw_diff_error(d), CGW_EINVAL);
    cgw_diff_free(d);
    /* one side's totals past 2^64-1 */
    d = cgw_diff_new(NULL);
    add(d, CGW_DIFF_OLD, "events: Ir\nfn=a\n1 18446744073709551615\n2 1\n", CGW_OK);
    add(d, CGW_DIFF_NEW, "events: Ir\nfn=a\n1 1\n", CGW_OK);
    CHECK_ST(cgw_diff_rows(d, &rows, &n), CGW_ERANGE);
    CHECK(strstr(cgw_diff_errmsg(d), "passes 2^64-1") != NULL);
    cgw_diff_free(d);
    /* rewrites apply to both sides: nothing changed */
    mo.flags = 0;
    mo.mod_filename = "s|^/[^/]*/||";
    d = cgw_diff_new(&mo);
    add(d, CGW_DIFF_OLD, "events: Ir\nfl=/old/x.c\nfn=a\n1 5\n", CGW_OK);
    add(d, CGW_DIFF_NEW, "events: Ir\nfl=/new/x.c\nfn=a\n1 5\n", CGW_OK);
    char *t = rows_text(d);
    CHECK_STR(t, "Ir0 :* self 5 5 0.00\n");
    free(t);
    cgw_diff_free(d);
}

/* A whole diff of the sides ctx (two profiles) on allocator alloc: its
 * status. */
static cgw_status diff_with(const cgw_allocator *alloc, void *ctx)
{
    const char *const *sides = ctx;
    cgw_merge_options mo = { .struct_size = sizeof mo, .allocator = alloc };
    cgw_differ *d = cgw_diff_new(&mo);
    cgw_status st = d == NULL ? CGW_ENOMEM : CGW_OK;
    for (int s = 0; s < 2 && st == CGW_OK; s++) {
        cgw_reader *r = cgw_reader_open_memory(sides[s], strlen(sides[s]), NULL);
        st = cgw_diff_add(d, s, r);
        cgw_reader_close(r);
    }
    if (st == CGW_OK)
        st = cgwt_write_captured(write_diff, d);
    cgw_diff_free(d);
    return st;
}

int main(void)
{
    test_known();
    test_cycle();
    test_events();
    test_call_counts();
    test_errors();
    /* every allocation failed in turn: ENOMEM, nothing leaked */
    cgwt_each_alloc_fail(diff_with, (const char *[]){ old_prof, new_prof });
    printf("diff: known changes, their profile, one-sided events, errors\n");
    return 0;
}
