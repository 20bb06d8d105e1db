/* SPDX-License-Identifier: MIT */
/* cgmerge - sum Callgrind profiles into one (cgw_merge_*()). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>

#include "toolutil.h"

static const char usage[] =
    "usage: cgmerge [--keep-parts] [--mod-filename s/RE/REPL/]\n"
    "               [--mod-funcname s/RE/REPL/] [--positions P] [--compact]\n"
    "               [--force] [--quiet] [-o OUT] FILE...\n"
    "Sum Callgrind or Cachegrind profiles ('-' reads stdin) into one profile,\n"
    "written to OUT (atomically) or to stdout: functions, self costs, calls and\n"
    "jumps added up over every input and every part.  Exit 0, 1 when an input\n"
    "has errors or the sums cannot be written, 2 on a usage or I/O error.\n"
    "  --keep-parts          one part per input instead of one in all\n"
    "  --mod-filename E      rewrite file names with E (s/RE/REPL/[gi]) first\n"
    "  --mod-funcname E      rewrite function names the same way\n"
    "  --positions P         the output's positions (default: all the inputs share)\n"
    "  --compact             the smallest output\n"
    "  --force               merge inputs with errors as the reader read them\n"
    "  --quiet               no progress line (shown on a terminal otherwise)\n";

enum { O_KEEP = TOOL_O_NEXT, O_POS, O_COMPACT };

static const struct option longopts[] = {
    { "keep-parts", no_argument, NULL, O_KEEP },
    { "positions", required_argument, NULL, O_POS },
    { "compact", no_argument, NULL, O_COMPACT },
    TOOL_INPUT_OPTIONS
};

typedef struct opts {
    tool_inputs in;
    cgw_options wo;
} opts;

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, opts *o)
{
    int c, k;
    while ((c = tool_getopt("cgmerge", argc, argv, "ho:", longopts)) != -1) {
        if ((k = tool_inputs_option(&o->in, c, optarg)) >= 0) {
            if (k > 0)
                return k;
        } else if (c == O_KEEP) {
            o->in.mo.flags |= CGW_MERGE_KEEP_PARTS;
        } else if (c == O_COMPACT) {
            o->wo.flags |= CGW_COMPACT;
        } else if (c != O_POS) {
            return 3; /* said by tool_getopt() */
        } else if (tool_positions(optarg, &o->wo) < 0) {
            return 1 + tool_usage_error("cgmerge", "bad positions '%s'", optarg);
        }
    }
    if (optind == argc)
        return 1 + tool_usage_error("cgmerge", "no input");
    return 0;
}

static cgw_status add(void *ctx, cgw_reader *r, const char **msg)
{
    cgw_status st = cgw_merge_add(ctx, r);
    *msg = cgw_merge_errmsg(ctx);
    return st;
}

static int write_out(cgw_merger *m, opts *o)
{
    if (o->wo.positions == 0)
        tool_set_positions(&o->wo, cgw_merge_positions(m));
    o->wo.flags |= CGW_ZERO_COUNTS; /* a sum of calls=0 stays 0 */
    cgw_writer *w = tool_open_output("cgmerge", o->in.out, &o->wo);
    if (w == NULL)
        return 2;
    return tool_close_output("cgmerge", o->in.out, w, cgw_merge_write(m, w));
}

int main(int argc, char **argv)
{
    opts o = { { .tool = "cgmerge", .usage = usage, .mo = CGW_MERGE_OPTIONS_INIT }, CGW_OPTIONS_INIT };
    int rc = parse(argc, argv, &o);
    if (rc != 0)
        return rc - 1;
    tool_catch_sigbus("cgmerge");
    cgw_merger *m = cgw_merge_new(&o.in.mo);
    if (m == NULL || cgw_merge_error(m) != CGW_OK) {
        fprintf(stderr, "cgmerge: %s\n", m ? tool_words(cgw_merge_errmsg(m)) : strerror(errno));
        cgw_merge_free(m);
        return 2;
    }
    int bad = 0;
    tool_progress_begin("cgmerge", argv + optind, (size_t)(argc - optind), o.in.quiet);
    for (int i = optind; i < argc && rc < 2 && cgw_merge_error(m) == CGW_OK; i++) {
        int k = tool_add_input(&o.in, argv[i], add, m);
        bad |= k == 1;
        rc = k > rc ? k : rc;
    }
    tool_progress_end();
    if (rc == 1 && cgw_merge_error(m) == CGW_OK && o.in.force)
        rc = 0;
    const char *apart = tool_no_common_events(&o.in);
    if (rc == 0 && apart != NULL)
        fprintf(stderr, "cgmerge: note: no event is in every input (%s): each event of the "
                "output is summed over the inputs that have it\n", apart);
    if (rc == 0)
        rc = write_out(m, &o);
    else if (bad && cgw_merge_error(m) == CGW_OK)
        fputs("cgmerge: errors in the input; nothing written (--force writes anyway)\n", stderr);
    tool_inputs_free(&o.in);
    cgw_merge_free(m);
    return rc;
}
