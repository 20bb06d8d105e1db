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
    "usage: cgmerge [--keep-parts] [--mod-filename s/RE/REPL/] [--mod-funcname s/RE/REPL/]\n"
    "               [--positions P] [--compact] [--force] [-o OUT] FILE...\n"
    "Sum Callgrind or Cachegrind profiles ('-' reads stdin) into one profile,\n"
    "written to OUT (atomically) or to stdout: functions, self costs, calls and\n"
    "jumps added up over every input and every part.  Exit 0, 1 when an input\n"
    "has errors or the sums cannot be written, 2 on a usage or I/O error.\n"
    "  --keep-parts          one part per input instead of one in all\n"
    "  --mod-filename E      rewrite file names with E (s/RE/REPL/[gi]) first\n"
    "  --mod-funcname E      rewrite function names the same way\n"
    "  --positions P         the output's positions (default: all the inputs share)\n"
    "  --compact             the smallest output\n"
    "  --force               merge inputs with errors as the reader read them\n";

enum { O_KEEP = 256, O_MODFILE, O_MODFN, O_POS, O_COMPACT, O_FORCE, O_HELP, O_VERSION };

static const struct option longopts[] = {
    { "keep-parts", no_argument, NULL, O_KEEP },
    { "mod-filename", required_argument, NULL, O_MODFILE },
    { "mod-funcname", required_argument, NULL, O_MODFN },
    { "positions", required_argument, NULL, O_POS },
    { "compact", no_argument, NULL, O_COMPACT },
    { "force", no_argument, NULL, O_FORCE },
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, O_HELP },
    { "version", no_argument, NULL, O_VERSION },
    { NULL, 0, NULL, 0 }
};

typedef struct opts {
    cgw_merge_options mo;
    cgw_options wo;
    const char *out;
    int force;
} opts;

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, opts *o)
{
    int c;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case O_KEEP: o->mo.flags |= CGW_MERGE_KEEP_PARTS; break;
        case O_MODFILE: o->mo.mod_filename = optarg; break;
        case O_MODFN: o->mo.mod_funcname = optarg; break;
        case O_COMPACT: o->wo.flags |= CGW_COMPACT; break;
        case O_FORCE: o->force = 1; break;
        case 'o': o->out = optarg; break;
        case O_POS:
            if (tool_positions(optarg, &o->wo.positions) == 0)
                break;
            fprintf(stderr, "cgmerge: bad positions '%s'\n", optarg);
            return 3;
        case 'h': case O_HELP: return 1 + tool_info_option("cgmerge", usage, "--help");
        case O_VERSION: return 1 + tool_info_option("cgmerge", usage, "--version");
        default: return 3;
        }
    }
    if (optind == argc) {
        fputs("cgmerge: no input\n", stderr);
        return 3;
    }
    return 0;
}

/* Add one input; 0, 1 (errors in it) or 2 (it could not be read). */
static int add(cgw_merger *m, const char *path)
{
    uint64_t errors = 0;
    tool_diag_ctx d = { "cgmerge", path, &errors };
    tool_text mem = { 0 };
    cgw_reader *r = tool_open_input(&d, &mem);
    cgw_status st = r != NULL ? cgw_merge_add(m, r) : CGW_EIO;
    cgw_reader_close(r);
    free(mem.p);
    if (r != NULL && st != CGW_OK)
        fprintf(stderr, "cgmerge: %s: %s\n", path, cgw_merge_errmsg(m));
    return st == CGW_EIO || st == CGW_ENOMEM ? 2 : st != CGW_OK || errors > 0;
}

static int write_out(cgw_merger *m, opts *o)
{
    if (o->wo.positions == 0)
        o->wo.positions = cgw_merge_positions(m);
    cgw_writer *w = o->out ? cgw_open_path(o->out, &o->wo) : cgw_open_fd(STDOUT_FILENO, &o->wo);
    if (w == NULL) {
        fprintf(stderr, "cgmerge: %s: %s\n", o->out ? o->out : "stdout", strerror(errno));
        return 2;
    }
    cgw_status st = cgw_merge_write(m, w);
    if (st == CGW_OK)
        st = cgw_finish(w);
    if (st != CGW_OK)
        fprintf(stderr, "cgmerge: %s\n", cgw_errmsg(w));
    cgw_free(w);
    return st == CGW_OK ? 0 : st == CGW_EIO || st == CGW_ENOMEM ? 2 : 1;
}

int main(int argc, char **argv)
{
    opts o = { 0 };
    int rc = parse(argc, argv, &o);
    if (rc != 0) {
        if (rc == 3)
            fputs(usage, stderr);
        return rc - 1;
    }
    tool_catch_sigbus("cgmerge");
    cgw_merger *m = cgw_merge_new(&o.mo);
    if (m == NULL || cgw_merge_error(m) != CGW_OK) {
        fprintf(stderr, "cgmerge: %s\n", m ? cgw_merge_errmsg(m) : strerror(errno));
        cgw_merge_free(m);
        return 2;
    }
    int bad = 0;
    for (int i = optind; i < argc && rc < 2 && cgw_merge_error(m) == CGW_OK; i++) {
        int k = add(m, argv[i]);
        bad |= k == 1;
        rc = k > rc ? k : rc;
    }
    if (rc == 1 && cgw_merge_error(m) == CGW_OK && o.force)
        rc = 0;
    if (rc == 0)
        rc = write_out(m, &o);
    else if (bad && cgw_merge_error(m) == CGW_OK)
        fputs("cgmerge: errors in the input; nothing written (--force writes anyway)\n", stderr);
    cgw_merge_free(m);
    return rc;
}
