/* SPDX-License-Identifier: MIT */
/* cgreport - a Callgrind profile as one self-contained HTML page: what
 * was profiled, a sortable, searchable table of functions, an icicle
 * flame graph of each event that zooms on a click, and the callers and
 * callees of the function picked.  The page (tools/report-page.c) loads
 * nothing from elsewhere; the profile is in it as JSON.
 *
 * The input is read twice: its records give each function's self cost
 * and the call edges with their counts and inclusive costs (all parts
 * summed); cgw_read_stacks() gives the stacks, rebuilt from those edges
 * (exact for a call tree, an estimate where a function has several
 * callers, as cgconvert --to folded says), for the flame graph and each
 * function's inclusive cost.  The page stays bounded: the table holds
 * the --top functions of highest inclusive cost, the flame graph the
 * frames of at least --threshold percent of the event's total. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>

#include "report.h"
#include "toolutil.h"

static const char usage[] =
    "usage: cgreport [--top N] [--threshold PCT] [--quiet] [-o OUT.html] FILE\n"
    "Write a Callgrind or Cachegrind profile ('-' reads stdin) as one HTML page\n"
    "to OUT (atomically) or to stdout: what was profiled, a sortable, searchable\n"
    "table of functions, a flame graph of each event (click to zoom), and the\n"
    "callers and callees of the function picked.  The page loads nothing from\n"
    "elsewhere.  Exit 0, 1 when the input has errors, 2 on a usage or I/O error.\n"
    "  --top N          the N functions of highest inclusive cost in the table\n"
    "                   (default 2000; 0: all)\n"
    "  --threshold PCT  flame graph frames of at least PCT percent of the total\n"
    "                   (default 0.1); smaller ones are left out, and said so\n"
    "  --quiet          no progress line (shown on a terminal otherwise)\n";

enum { O_TOP = TOOL_O_NEXT, O_THRESHOLD };

static const struct option longopts[] = {
    { "top", required_argument, NULL, O_TOP },
    { "threshold", required_argument, NULL, O_THRESHOLD },
    TOOL_OUTPUT_OPTIONS
};

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, report_options *o, int *quiet)
{
    int c;
    uint64_t v;
    while ((c = tool_getopt("cgreport", argc, argv, "ho:", longopts)) != -1) {
        switch (c) {
        case O_TOP:
            if (tool_uint(optarg, UINT32_MAX, &v) < 0)
                return 1 + tool_usage_error("cgreport", "bad --top '%s'", optarg);
            o->top = (size_t)v;
            break;
        case O_THRESHOLD:
            if (tool_number(optarg, 100, &o->threshold) < 0)
                return 1 + tool_usage_error("cgreport", "bad --threshold '%s' (0 to 100)",
                                            optarg);
            break;
        case TOOL_O_QUIET: *quiet = 1; break;
        case 'o': o->out = tool_output_arg(optarg); break;
        case 'h': case TOOL_O_HELP: return 1 + tool_info_option("cgreport", usage, "-h");
        case TOOL_O_VERSION: return 1 + tool_info_option("cgreport", usage, "--version");
        default: return 3; /* said by tool_getopt() */
        }
    }
    if (optind + 1 != argc)
        return 1 + tool_usage_error("cgreport", optind == argc ? "no input" : "one input only");
    return 0;
}

int main(int argc, char **argv)
{
    report_options o = { .tool = "cgreport", .top = 2000, .threshold = 0.1 };
    int quiet = 0;
    int rc = parse(argc, argv, &o, &quiet);
    if (rc != 0)
        return rc - 1;
    tool_catch_sigbus("cgreport");
    const char *path = argv[optind];
    if (strcmp(path, "-") == 0) {
        fputs("cgreport: reads its input twice: give a file, not '-'\n", stderr);
        return 2;
    }
    tool_progress_begin("cgreport", argv + optind, 1, quiet);
    report *r = report_read(path, &o);
    tool_progress_end();
    if (r == NULL)
        return 2;
    rc = report_errors(r) ? 1 : report_write(r, &o, NULL);
    report_free(r);
    return rc;
}
