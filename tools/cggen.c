/* SPDX-License-Identifier: MIT */
/* cggen - write a synthetic Callgrind profile (cgw_generate()). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>

#include "toolutil.h"

static const char usage[] =
    "usage: cggen [--seed N] [--size BYTES[K|M|G]] [--functions N] [--files N]\n"
    "             [--objects N] [--events N] [--positions line|instr|instr,line]\n"
    "             [--calls-per-fn N] [--inline] [--jumps] [--parts N] [--compact]\n"
    "             [-o FILE]\n"
    "Write a realistic synthetic profile to FILE (atomically) or to stdout;\n"
    "a FILE ending in .gz is gzip-compressed.\n"
    "The same arguments give the same bytes.  Exit 0, or 2 on a usage or\n"
    "I/O error.\n";

enum { O_SEED = TOOL_O_NEXT, O_SIZE, O_POS, O_INLINE, O_JUMPS, O_COMPACT, O_FUNCTIONS,
       O_FILES, O_OBJECTS, O_EVENTS, O_CALLS, O_PARTS };

static const struct option longopts[] = {
    { "seed", required_argument, NULL, O_SEED },
    { "size", required_argument, NULL, O_SIZE },
    { "positions", required_argument, NULL, O_POS },
    { "inline", no_argument, NULL, O_INLINE },
    { "jumps", no_argument, NULL, O_JUMPS },
    { "compact", no_argument, NULL, O_COMPACT },
    { "functions", required_argument, NULL, O_FUNCTIONS },
    { "files", required_argument, NULL, O_FILES },
    { "objects", required_argument, NULL, O_OBJECTS },
    { "events", required_argument, NULL, O_EVENTS },
    { "calls-per-fn", required_argument, NULL, O_CALLS },
    { "parts", required_argument, NULL, O_PARTS },
    { "output", required_argument, NULL, 'o' },
    TOOL_HELP_OPTIONS
};

/* The unsigned field of g that option c sets; NULL for another c. */
static unsigned *count_field(cgw_gen_options *g, int c)
{
    switch (c) {
    case O_FUNCTIONS: return &g->functions;
    case O_FILES: return &g->files;
    case O_OBJECTS: return &g->objects;
    case O_EVENTS: return &g->events;
    case O_CALLS: return &g->calls_per_fn;
    case O_PARTS: return &g->parts;
    default: return NULL;
    }
}

/* Option c with value v into g, wo or *out: 0, or -1 when v is bad. */
static int take(int c, const char *v, cgw_gen_options *g, cgw_options *wo, const char **out)
{
    unsigned *field = count_field(g, c);
    uint64_t x;
    switch (c) {
    case O_SEED: return tool_uint(v, UINT64_MAX, &g->seed);
    case O_SIZE: return tool_size(v, &g->size);
    case O_POS: return tool_positions(v, wo);
    case O_INLINE: g->flags |= CGW_GEN_INLINE; return 0;
    case O_JUMPS: g->flags |= CGW_GEN_JUMPS; return 0;
    case O_COMPACT: wo->flags |= CGW_COMPACT; return 0;
    case 'o': *out = tool_output_arg(v); return 0;
    default:
        if (field == NULL || tool_uint(v, UINT32_MAX, &x) < 0)
            return -1;
        *field = (unsigned)x;
        return 0;
    }
}

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, cgw_gen_options *g, cgw_options *wo, const char **out)
{
    int c;
    while ((c = tool_getopt("cggen", argc, argv, "ho:", longopts)) != -1) {
        if (c == 'h' || c == TOOL_O_HELP || c == TOOL_O_VERSION)
            return 1 + tool_info_option("cggen", usage, c == TOOL_O_VERSION ? "--version" : "-h");
        if (c == '?')
            return 3; /* said by tool_getopt() */
        if (take(c, optarg, g, wo, out) < 0)
            return 1 + tool_usage_error("cggen", "bad value for --%s: '%s'",
                                        tool_option_name(longopts, c), optarg);
    }
    if (optind < argc)
        return 1 + tool_usage_error("cggen", "unexpected argument '%s'", argv[optind]);
    return 0;
}

int main(int argc, char **argv)
{
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE };
    const char *out = NULL;
    int rc = parse(argc, argv, &g, &wo, &out);
    if (rc != 0)
        return rc - 1;
    cgw_writer *w = tool_open_output("cggen", out, &wo);
    if (w == NULL)
        return 2;
    /* cggen has no input: a refusal is of its options, a usage error */
    return tool_close_output("cggen", out, w, cgw_generate(w, &g)) ? 2 : 0;
}
