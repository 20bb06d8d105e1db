/* cggen - write a synthetic Callgrind profile (cgw_generate()). */
#include <errno.h>
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

static int bad(const char *opt, const char *val)
{
    fprintf(stderr, "cggen: bad value for %s: '%s'\n%s", opt, val ? val : "", usage);
    return 2;
}

int main(int argc, char **argv)
{
    cgw_gen_options g;
    cgw_gen_defaults(&g);
    cgw_options wo = { CGW_POS_LINE, 0, 0, NULL };
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        unsigned *field = !strcmp(a, "--functions")      ? &g.functions
                        : !strcmp(a, "--files")          ? &g.files
                        : !strcmp(a, "--objects")        ? &g.objects
                        : !strcmp(a, "--events")         ? &g.events
                        : !strcmp(a, "--calls-per-fn")   ? &g.calls_per_fn
                        : !strcmp(a, "--parts")          ? &g.parts
                        : NULL;
        if (field != NULL) {
            if (v == NULL || tool_uint(v, UINT32_MAX, &x) < 0)
                return bad(a, v);
            *field = (unsigned)x;
            i++;
        } else if (!strcmp(a, "--seed")) {
            if (v == NULL || tool_uint(v, UINT64_MAX, &g.seed) < 0)
                return bad(a, v);
            i++;
        } else if (!strcmp(a, "--size")) {
            if (v == NULL || tool_size(v, &g.size) < 0)
                return bad(a, v);
            i++;
        } else if (!strcmp(a, "--positions")) {
            if (v == NULL || tool_positions(v, &wo) < 0)
                return bad(a, v);
            i++;
        } else if (!strcmp(a, "-o")) {
            if (v == NULL)
                return bad(a, v);
            out = v;
            i++;
        } else if (!strcmp(a, "--inline")) {
            g.flags |= CGW_GEN_INLINE;
        } else if (!strcmp(a, "--jumps")) {
            g.flags |= CGW_GEN_JUMPS;
        } else if (!strcmp(a, "--compact")) {
            wo.flags |= CGW_COMPACT;
        } else if (tool_info_option("cggen", usage, a) == 0) {
            return 0;
        } else {
            fprintf(stderr, "cggen: unknown argument %s\n%s", a, usage);
            return 2;
        }
    }
    cgw_writer *w = tool_open_output("cggen", out, &wo);
    if (w == NULL)
        return 2;
    /* cggen has no input: a refusal is of its options, a usage error */
    return tool_close_output("cggen", out, w, cgw_generate(w, &g)) ? 2 : 0;
}
