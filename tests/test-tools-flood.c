/* SPDX-License-Identifier: MIT */
/* test-tools-flood: the merger, the differ and the folded converter
 * against function names built to collide in lib/tools' former hash
 * index (FNV-1a, unkeyed: tests/flood.c finds names whose probes all
 * start in the first 2048 slots, so that each insert walked the whole
 * run of those before it, FLOOD^2/2 probes).  Each tool takes the same
 * number of names of the same length twice, colliding and not; the
 * colliding run must take at most RATIO times the CPU time of the other
 * (the best of TRIES runs each), which the keyed hash (lib/common) keeps
 * to about 1 and the former one could not (10 to 15 times here).  Every
 * output is read back: one function a name, no error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

#define FLOOD 60000
#define RATIO 4.0
#define TRIES 3

/* FLOOD names, colliding or not, one after another (13 bytes each). */
static char *names(int collide)
{
    char *all = malloc((size_t)FLOOD * 13);
    uint64_t counter = 0;
    CHECK(all != NULL);
    for (size_t i = 0; i < FLOOD; i++)
        cgwt_tools_flood_next(&counter, all + i * 13, collide);
    return all;
}

/* A profile of one cost line (of cost) in each function of names. */
static char *profile(const char *all, int cost, size_t *len)
{
    cgwt_capture t;
    char line[64];
    cgwt_capture_init(&t, 0, 0);
    cgwt_capture_str(&t, "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n");
    for (size_t i = 0; i < FLOOD; i++) {
        snprintf(line, sizeof line, "fn=%s\n%zu %d\n", all + i * 13, i + 1, cost);
        cgwt_capture_str(&t, line);
    }
    *len = t.len;
    return t.data;
}

/* Folded stacks: each name once, under main. */
static char *folded(const char *all, size_t *len)
{
    cgwt_capture t;
    char line[64];
    cgwt_capture_init(&t, 0, 0);
    for (size_t i = 0; i < FLOOD; i++) {
        snprintf(line, sizeof line, "main;%s 1\n", all + i * 13);
        cgwt_capture_str(&t, line);
    }
    *len = t.len;
    return t.data;
}

/* The output has a function for each name (and main for the folded
 * one) and reads without an error. */
static void check_output(const char *out, size_t len, uint64_t functions)
{
    cgw_reader *r = cgw_reader_open_memory(out, len, NULL);
    const cgw_record *rec;
    uint64_t n = 0, errors, warnings;
    CHECK(r != NULL);
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            n += rec->functions;
    CHECK_ST(st, CGW_OK);
    cgw_reader_counts(r, &errors, &warnings);
    CHECK_U64(errors, 0);
    CHECK_U64(n, functions);
    cgw_reader_close(r);
}

enum { MERGE, DIFF, FOLDED };

static const char *const tool_name[] = { "merger", "differ", "folded converter" };

/* The inputs of one set of names: the profile of cost 1 (merged, and
 * the differ's old side), of cost 2 (the differ's new side), the folded
 * stacks. */
typedef struct inputs {
    char *text[3];
    size_t len[3];
} inputs;

static void make_inputs(inputs *in, const char *all)
{
    in->text[0] = profile(all, 1, &in->len[0]);
    in->text[1] = profile(all, 2, &in->len[1]);
    in->text[2] = folded(all, &in->len[2]);
}

/* One run of tool over in; its CPU time in seconds. */
static double run(int tool, const inputs *in)
{
    struct timespec t0, t1;
    char *out;
    size_t outlen;
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE };
    CHECK(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0) == 0);
    cgw_writer *w = cgw_open_memory(&out, &outlen, &wo);
    CHECK(w != NULL);
    if (tool == FOLDED) {
        cgw_stacks *s = cgw_stacks_new(NULL);
        CHECK(s != NULL);
        CHECK_ST(cgw_stacks_add_folded(s, NULL, "flood", in->text[2], in->len[2]), CGW_OK);
        CHECK_ST(cgw_stacks_write(s, w), CGW_OK);
        cgw_stacks_free(s);
    } else if (tool == MERGE) {
        cgw_merger *m = cgw_merge_new(NULL);
        CHECK(m != NULL);
        cgw_reader *r = cgw_reader_open_memory(in->text[0], in->len[0], NULL);
        CHECK(r != NULL);
        CHECK_ST(cgw_merge_add(m, r), CGW_OK);
        cgw_reader_close(r);
        CHECK_ST(cgw_merge_write(m, w), CGW_OK);
        cgw_merge_free(m);
    } else {
        cgw_differ *d = cgw_diff_new(NULL);
        CHECK(d != NULL);
        for (int side = CGW_DIFF_OLD; side <= CGW_DIFF_NEW; side++) {
            cgw_reader *r = cgw_reader_open_memory(in->text[side], in->len[side], NULL);
            CHECK(r != NULL);
            CHECK_ST(cgw_diff_add(d, side, r), CGW_OK);
            cgw_reader_close(r);
        }
        const cgw_diff_row *rows;
        size_t nrows;
        CHECK_ST(cgw_diff_rows(d, &rows, &nrows), CGW_OK);
        CHECK_ST(cgw_diff_write(d, w), CGW_OK);
        cgw_diff_free(d);
    }
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1) == 0);
    check_output(out, outlen, FLOOD + (tool == FOLDED));
    free(out);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* The best of TRIES runs; the colliding ones stop at the first within
 * bound of the plain ones' best. */
static double best(int tool, const inputs *in, double bound)
{
    double t = run(tool, in);
    for (int i = 1; i < TRIES && t > bound; i++) {
        double again = run(tool, in);
        t = again < t ? again : t;
    }
    return t;
}

static int check_tool(int tool, const inputs *plain, const inputs *flood)
{
    double base = best(tool, plain, 0);
    double hit = best(tool, flood, RATIO * base);
    printf("%s: %d names, %.3f s plain, %.3f s built to collide (%.1fx, at most %.0fx)\n",
           tool_name[tool], FLOOD, base, hit, hit / base, RATIO);
    return hit <= RATIO * base;
}

int main(void)
{
    char *plain_names = names(0), *flood_names = names(1);
    /* the names were chosen as the former index chose slots */
    uint32_t low = ((uint32_t)1 << CGWT_TOOLS_BITS) - 1;
    for (size_t i = 0; i < FLOOD; i++)
        CHECK((cgwt_old_tools_slot(flood_names + i * 13, 12) & low) < CGWT_TOOLS_WINDOW);
    inputs plain, flood;
    make_inputs(&plain, plain_names);
    make_inputs(&flood, flood_names);
    int ok = 1;
    for (int tool = MERGE; tool <= FOLDED; tool++)
        ok &= check_tool(tool, &plain, &flood);
    for (int k = 0; k < 3; k++) {
        free(plain.text[k]);
        free(flood.text[k]);
    }
    free(plain_names);
    free(flood_names);
    if (!ok)
        cgwt_fail(__FILE__, __LINE__, "names that collided in the former hash slow a tool down");
    return 0;
}
