/* SPDX-License-Identifier: MIT */
/* cgdiff - what changed between two profiles (cgw_diff_*()). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>

#include "report.h"
#include "toolutil.h"

static const char usage[] =
    "usage: cgdiff [--fail-above PCT] [--top N] [--mod-filename s/RE/REPL/]\n"
    "              [--mod-funcname s/RE/REPL/] [--force] [--quiet] [-o DIFF]\n"
    "              [--html PAGE] OLD NEW\n"
    "Compare two Callgrind or Cachegrind profiles ('-' reads stdin): for each\n"
    "event its totals, then the functions whose self or inclusive cost changed,\n"
    "the largest change first.  Exit 0, 1 when a change passes --fail-above (or\n"
    "an input has errors), 2 on a usage or I/O error.\n"
    "  --fail-above PCT  fail when a total or a function moved by more than PCT\n"
    "                    percent of the event's old total (default: never)\n"
    "  --top N           at most N functions an event (default 20, 0: all)\n"
    "  -o DIFF           also write the difference as a profile, with events\n"
    "                    E_plus (NEW above OLD) and E_minus (NEW below OLD)\n"
    "  --html PAGE       also write the difference as an HTML page (as cgreport's:\n"
    "                    each function's old and new costs, grown and shrunk\n"
    "                    coloured, a flame graph of NEW; for a CI run to keep)\n"
    "  --mod-filename E, --mod-funcname E   rewrite names first (s/RE/REPL/[gi])\n"
    "  --force           compare inputs with errors as the reader read them\n"
    "  --quiet           no progress line (shown on a terminal otherwise)\n";

enum { O_FAIL = TOOL_O_NEXT, O_TOP, O_HTML };

static const struct option longopts[] = {
    { "fail-above", required_argument, NULL, O_FAIL },
    { "top", required_argument, NULL, O_TOP },
    { "html", required_argument, NULL, O_HTML },
    TOOL_INPUT_OPTIONS
};

typedef struct opts {
    tool_inputs in;
    double fail_above;  /* < 0: never */
    uint64_t top;
    const char *html;   /* --html's page, or NULL */
} opts;

static int bad(const char *what, const char *v)
{
    return 1 + tool_usage_error("cgdiff", "bad value for %s: '%s'", what, v);
}

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, opts *o)
{
    int c, k;
    while ((c = tool_getopt("cgdiff", argc, argv, "ho:", longopts)) != -1) {
        if ((k = tool_inputs_option(&o->in, c, optarg)) >= 0) {
            if (k > 0)
                return k;
        } else if (c == O_FAIL) {
            if (tool_number(optarg, HUGE_VAL, &o->fail_above) < 0)
                return bad("--fail-above", optarg);
        } else if (c == O_HTML) {
            o->html = optarg;
        } else if (c == O_TOP) {
            if (tool_uint(optarg, UINT64_MAX, &o->top) < 0)
                return bad("--top", optarg);
        } else {
            return 3; /* said by tool_getopt() */
        }
    }
    if (argc - optind != 2)
        return 1 + tool_usage_error("cgdiff", "expected two profiles, OLD and NEW");
    if (o->html != NULL && tool_output_arg(o->html) == NULL && o->in.out != NULL &&
        tool_output_arg(o->in.out) == NULL)
        return 1 + tool_usage_error("cgdiff", "-o - and --html - both write to standard "
                                              "output: give one of them a file");
    return 0;
}

/* The side being added and its differ. */
typedef struct side {
    cgw_differ *d;
    int which;
} side;

static cgw_status add(void *ctx, cgw_reader *r, const char **msg)
{
    side *s = ctx;
    cgw_status st = cgw_diff_add(s->d, s->which, r);
    *msg = cgw_diff_errmsg(s->d);
    return st;
}

/* --html: cgreport's page of NEW with OLD's costs beside: 0, or the
 * exit status after saying why.  Names are as read (--mod-filename and
 * --mod-funcname are for the text and the profile). */
static int html(const char *old_path, const char *new_path, const opts *o)
{
    if (strcmp(old_path, "-") == 0 || strcmp(new_path, "-") == 0) {
        fputs("cgdiff: --html reads its inputs again: give files, not '-'\n", stderr);
        return 2;
    }
    report_options ro = { .tool = "cgdiff", .top = 2000, .threshold = 0.1, .out = o->html };
    report *old = report_read(old_path, &ro), *new = old ? report_read(new_path, &ro) : NULL;
    int rc = new == NULL ? 2 : report_errors(old) || report_errors(new) ? 1
                                                                        : report_write(new, &ro, old);
    report_free(old);
    report_free(new);
    return rc;
}

static void delta(char *buf, size_t len, const cgw_diff_row *r)
{
    if (r->new_cost >= r->old_cost)
        snprintf(buf, len, "+%" PRIu64, r->new_cost - r->old_cost);
    else
        snprintf(buf, len, "-%" PRIu64, r->old_cost - r->new_cost);
}

static void print_row(FILE *f, const cgw_diff_row *r)
{
    char d[32];
    delta(d, sizeof d, r);
    if (r->function == NULL) {
        fprintf(f, "%s: %" PRIu64 " -> %" PRIu64 "  %s (%+.2f%%)\n", tool_esc(r->event), r->old_cost,
               r->new_cost, d, r->change);
        return;
    }
    fprintf(f, "  %-9s %14s %+9.2f%%  %s:%s", r->inclusive ? "inclusive" : "self", d, r->change,
           tool_esc(r->file), tool_esc(r->function));
    if (r->object != NULL)
        fprintf(f, " [%s]", tool_esc(r->object));
    putc('\n', f);
}

/* Print every event's rows to standard output, or to standard error
 * when the difference profile or the page goes there (-o -, --html -); the
 * number that moved past the limit. */
static uint64_t print_rows(const cgw_diff_row *rows, size_t n, const opts *o)
{
    int out_taken = (o->in.out != NULL && tool_output_arg(o->in.out) == NULL) ||
                    (o->html != NULL && tool_output_arg(o->html) == NULL);
    FILE *f = out_taken ? stderr : stdout;
    uint64_t past = 0;
    for (size_t i = 0; i < n; i++) {
        double c = rows[i].change < 0 ? -rows[i].change : rows[i].change;
        past += o->fail_above >= 0 && c > o->fail_above;
    }
    for (size_t i = 0; i < n && rows[i].function == NULL; i++) {
        print_row(f, &rows[i]);
        uint64_t shown = 0;
        for (size_t j = 0; j < n; j++) {
            if (rows[j].function == NULL || rows[j].column != rows[i].column)
                continue;
            if (o->top != 0 && shown++ == o->top) {
                fputs("  ...\n", f);
                break;
            }
            print_row(f, &rows[j]);
        }
    }
    return past;
}

static int write_diff(cgw_differ *d, const char *out)
{
    cgw_options wo = { .struct_size = sizeof wo, .flags = CGW_ZERO_COUNTS };
    tool_set_positions(&wo, cgw_diff_positions(d)); /* instructions only, say */
    cgw_writer *w = tool_open_output("cgdiff", out, &wo);
    if (w == NULL)
        return 2;
    return tool_close_output("cgdiff", out, w, cgw_diff_write(d, w));
}

static int compare(cgw_differ *d, const opts *o)
{
    const cgw_diff_row *rows;
    size_t n;
    if (cgw_diff_rows(d, &rows, &n) != CGW_OK) {
        fprintf(stderr, "cgdiff: %s\n", tool_words(cgw_diff_errmsg(d)));
        return cgw_diff_error(d) == CGW_ENOMEM ? 2 : 1;
    }
    uint64_t past = print_rows(rows, n, o);
    int rc = o->in.out != NULL ? write_diff(d, o->in.out) : 0;
    if (rc == 0 && past > 0) {
        fprintf(stderr, "cgdiff: %" PRIu64 " change%s of more than %g%%\n", past, tool_plural(past),
                o->fail_above);
        rc = 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    opts o = { { .tool = "cgdiff", .usage = usage, .mo = CGW_MERGE_OPTIONS_INIT }, -1, 20, NULL };
    int rc = parse(argc, argv, &o);
    if (rc != 0)
        return rc - 1;
    tool_catch_sigbus("cgdiff");
    cgw_differ *d = cgw_diff_new(&o.in.mo);
    if (d == NULL || cgw_diff_error(d) != CGW_OK) {
        fprintf(stderr, "cgdiff: %s\n", d ? tool_words(cgw_diff_errmsg(d)) : strerror(errno));
        cgw_diff_free(d);
        return 2;
    }
    side s = { d, CGW_DIFF_OLD };
    tool_progress_begin("cgdiff", argv + optind, 2, o.in.quiet);
    rc = tool_add_input(&o.in, argv[optind], add, &s);
    if (rc < 2 && cgw_diff_error(d) == CGW_OK) {
        s.which = CGW_DIFF_NEW;
        int k = tool_add_input(&o.in, argv[optind + 1], add, &s);
        rc = k > rc ? k : rc;
    }
    tool_progress_end();
    if (rc == 1 && o.in.force && cgw_diff_error(d) == CGW_OK)
        rc = 0;
    else if (rc == 1 && cgw_diff_error(d) == CGW_OK)
        fputs("cgdiff: errors in the input; nothing compared (--force compares anyway)\n",
              stderr);
    const char *apart = tool_no_common_events(&o.in);
    if (rc == 0 && apart != NULL && !o.in.force) {
        fprintf(stderr, "cgdiff: the profiles have no event in common (%s): nothing to "
                "compare (--force compares anyway: every cost gone, every cost new)\n", apart);
        rc = 1;
    }
    if (rc == 0)
        rc = compare(d, &o);
    if ((rc == 0 || rc == 1) && o.html != NULL) { /* the gate's 1 still gets its page */
        int k = html(argv[optind], argv[optind + 1], &o);
        rc = k > rc ? k : rc;
    }
    tool_inputs_free(&o.in);
    cgw_diff_free(d);
    return rc;
}
