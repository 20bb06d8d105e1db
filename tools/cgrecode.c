/* SPDX-License-Identifier: MIT */
/* cgrecode - write any Callgrind or Cachegrind file again through the
 * libcgw writer (cgw_recode()): portable by default, or compact. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cgw.h>

#include "toolutil.h"

static const char usage[] =
    "usage: cgrecode [--compact] [--positions line|instr|instr,line] [--jumps]\n"
    "                [--for=READER[,READER...]] [--force] [--quiet] [-o FILE] FILE\n"
    "Read a Callgrind or Cachegrind profile ('-' reads stdin) and write it again\n"
    "through libcgw to FILE (atomically) or to stdout; a FILE ending in .gz is\n"
    "gzip-compressed (the input may be gzip too).  By default the output is\n"
    "the portable subset with line positions (when the input has lines);\n"
    "--compact writes the smallest file and keeps the input's positions.\n"
    "Exit 0, 1 when the input has errors (or cannot be written as asked), 2 on\n"
    "a usage or I/O error.\n"
    "  --positions P  the output's positions (a subset of the input's)\n"
    "  --jumps        keep jump= and jcnd= lines (dropped by default)\n"
    "  --force        write even when the input has errors (as the reader read it)\n"
    "  --quiet        no progress line (shown on a terminal otherwise)\n"
    "  --for=LIST     repair what these readers (kcachegrind, callgrind_annotate,\n"
    "                 gprof2dot, speedscope) misread, and say on stderr what was\n"
    "                 changed: calls=0 as calls=1 for callgrind_annotate, parts\n"
    "                 summed into one for it and speedscope, line positions only\n"
    "                 for speedscope\n"
    "No count or cost is changed otherwise (calls=0 stays).  IDs used but never\n"
    "defined are written as \"???\" (KCachegrind's unnamed item), with a note.\n";

typedef struct input {
    const char *name; /* for messages: the path, or "-" */
    uint64_t errors;
    uint64_t zero_calls; /* calls=0 lines read */
    uint64_t parts;      /* several-parts: parts after the first */
    uint64_t cfi_same;   /* cfi-same-file: absolute names callgrind_annotate cuts */
} input;

/* Errors stop the recode (but with --force); an undefined ID is
 * repaired: the reader names it "???", which is what KCachegrind shows
 * (an unnamed function or file), and the output defines it. */
static void on_diag(void *ctx, const cgw_diagnostic *d)
{
    input *in = ctx;
    in->zero_calls += strcmp(d->code, "calls-zero") == 0;
    in->parts += strcmp(d->code, "several-parts") == 0;
    in->cfi_same += strcmp(d->code, "cfi-same-file") == 0;
    if (d->severity != CGW_ERROR)
        return;
    if (strcmp(d->code, "undefined-id") == 0) {
        tool_progress_end(); /* its line off the terminal first */
        fprintf(stderr, "%s:%" PRIu64 ": repaired: %s; written as \"???\", as KCachegrind "
                "shows it [%s]\n", tool_esc(in->name), d->line, tool_esc(d->message), d->code);
        return;
    }
    in->errors++;
    tool_input_error("cgrecode", in->name, d);
}

/* The positions of the input's first part (peeked at: the input is read
 * once, so that a pipe or <(cmd) works); 0 when it has none. */
static unsigned input_positions(cgw_reader *r)
{
    const cgw_record *rec = NULL;
    if (cgw_reader_peek(r, &rec) != CGW_OK || rec == NULL)
        return 0;
    return rec->part->positions;
}

enum { O_COMPACT = TOOL_O_NEXT, O_JUMPS, O_POS, O_FOR };

static const struct option longopts[] = {
    { "compact", no_argument, NULL, O_COMPACT },
    { "for", required_argument, NULL, O_FOR },
    { "jumps", no_argument, NULL, O_JUMPS },
    { "positions", required_argument, NULL, O_POS },
    TOOL_INPUT_OPTIONS
};

typedef struct opts {
    tool_inputs in; /* its force and out */
    cgw_options wo;
    unsigned flags;
    const char *file;
    unsigned for_readers; /* --for's, as cgw_diag_readers() bits */
} opts;

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, opts *o)
{
    int c, k;
    while ((c = tool_getopt("cgrecode", argc, argv, "ho:", longopts)) != -1) {
        if (c == O_COMPACT) {
            o->wo.flags |= CGW_COMPACT;
        } else if (c == O_FOR) {
            const char *bad;
            if (tool_parse_readers(optarg, &o->for_readers, &bad) < 0)
                return 1 + tool_usage_error("cgrecode", "--for: unknown reader '%.*s' "
                                            "(kcachegrind, callgrind_annotate, gprof2dot, "
                                            "speedscope)", (int)strcspn(bad, ","), bad);
        } else if (c == O_JUMPS) {
            o->flags |= CGW_RECODE_JUMPS;
        } else if (c == O_POS) {
            if (tool_positions(optarg, &o->wo) < 0)
                return 1 + tool_usage_error("cgrecode", "bad positions '%s'", optarg);
        } else if (c == TOOL_O_MODFILE || c == TOOL_O_MODFN) {
            return 1 + tool_usage_error("cgrecode", "unknown option '--%s'",
                                        tool_option_name(longopts, c));
        } else if ((k = tool_inputs_option(&o->in, c, optarg)) > 0) {
            return k;
        } else if (k < 0) {
            return 3; /* said by tool_getopt() */
        }
    }
    if (optind == argc)
        return 1 + tool_usage_error("cgrecode", "no input");
    if (argc - optind > 1)
        return 1 + tool_usage_error("cgrecode", "one input only, not also '%s'",
                                    argv[optind + 1]);
    if (o->for_readers && (o->wo.flags & CGW_COMPACT))
        return 1 + tool_usage_error("cgrecode", "--for repairs for a reader in the "
                                    "portable output, and --compact leaves it: choose one");
    if ((o->for_readers & (CGW_READER_GPROF2DOT | CGW_READER_SPEEDSCOPE)) &&
        (o->flags & CGW_RECODE_JUMPS))
        return 1 + tool_usage_error("cgrecode", "--jumps with --for=gprof2dot or "
                                    "speedscope, which misread jumps: choose one");
    o->file = argv[optind];
    return 0;
}

/* The input's parts summed into one through w (cgw_merge_write(): the
 * readers of one part); the merger's error made the writer's. */
static cgw_status merge_parts(cgw_reader *r, cgw_writer *w)
{
    cgw_merger *m = cgw_merge_new(NULL);
    cgw_status st = m != NULL ? cgw_merge_add(m, r) : CGW_ENOMEM;
    if (st == CGW_OK)
        st = cgw_merge_write(m, w);
    else if (cgw_error(w) == CGW_OK)
        st = cgw_set_error(w, st, "cgw_merge_add", "%s",
                           m ? cgw_merge_errmsg(m) : "out of memory");
    cgw_merge_free(m);
    return st;
}

/* Findings left in the written file for the readers asked for. */
typedef struct leftover {
    unsigned readers;
    tool_text codes[4];
} leftover;

static void on_left(void *ctx, const cgw_diagnostic *d)
{
    leftover *l = ctx;
    tool_note_finding(l->codes, l->readers, d->code);
}

/* Read the written file back: say what no repair could change. */
static void say_left(const opts *o, const char *out)
{
    leftover l = { .readers = o->for_readers };
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_CHECK, .diag = on_left,
                            .diag_ctx = &l };
    cgw_reader *r = cgw_reader_open_path(out, &ro);
    const cgw_record *rec;
    while (r != NULL && cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        ;
    cgw_reader_close(r);
    for (size_t i = 0; i < 4; i++) {
        if (l.codes[i].p != NULL)
            fprintf(stderr, "cgrecode: %s: cannot be repaired for %s: %s\n", o->file,
                    tool_readers[i].name, l.codes[i].p);
        free(l.codes[i].p);
    }
}

/* What --for changed, on stderr. */
static void say_repairs(const opts *o, const input *in)
{
    unsigned annotate = CGW_READER_CALLGRIND_ANNOTATE, speedscope = CGW_READER_SPEEDSCOPE;
    int said = 0;
    if ((o->for_readers & annotate) && in->zero_calls > 0)
        said = fprintf(stderr, "cgrecode: %s: for callgrind_annotate, %" PRIu64 " calls=0 line%s "
                       "written as calls=1 (or left out where the call had no cost)\n",
                       in->name, in->zero_calls, tool_plural(in->zero_calls));
    if ((o->for_readers & (annotate | speedscope)) && in->parts > 0)
        said = fprintf(stderr, "cgrecode: %s: for %s, its %" PRIu64 " parts summed into one "
                       "(the reader shows one part only)\n", in->name,
                       (o->for_readers & annotate) ? "callgrind_annotate" : "speedscope",
                       in->parts + 1);
    if ((o->for_readers & annotate) && in->cfi_same > 0)
        said = fprintf(stderr, "cgrecode: %s: cannot be repaired for callgrind_annotate: "
                       "absolute file names, which it cuts short in fl= but not in cfi= "
                       "when it runs in their folder (cfi-same-file)\n", in->name);
    if (o->for_readers && !said)
        fprintf(stderr, "cgrecode: %s: written in the portable subset; nothing else to "
                "change for the readers named\n", in->name);
}

/* Where the profile starts on stdout when it can be taken back there: a
 * regular file that stderr does not share (its messages would go too);
 * -1 for a pipe, a terminal or such a file. */
static off_t stdout_start(void)
{
    struct stat so, se;
    if (fstat(STDOUT_FILENO, &so) != 0 || !S_ISREG(so.st_mode))
        return -1;
    if (fstat(STDERR_FILENO, &se) == 0 && se.st_dev == so.st_dev && se.st_ino == so.st_ino)
        return -1;
    int fl = fcntl(STDOUT_FILENO, F_GETFL);
    if (fl < 0)
        return -1;
    return (fl & O_APPEND) ? so.st_size : lseek(STDOUT_FILENO, 0, SEEK_CUR);
}

/* The profile refused (w freed): nothing of it stays at out, or say
 * what did go to stdout. */
static void take_back(const char *out, off_t start)
{
    if (out != NULL)
        fputs("cgrecode: nothing written\n", stderr);
    else if (start >= 0 && ftruncate(STDOUT_FILENO, start) == 0 &&
             lseek(STDOUT_FILENO, start, SEEK_SET) == start)
        fputs("cgrecode: nothing written (stdout cut back to where it was)\n", stderr);
    else
        fputs("cgrecode: what went to stdout is an incomplete profile: discard it "
              "(-o FILE writes nothing in this case)\n", stderr);
}

int main(int argc, char **argv)
{
    opts o = { .in = { "cgrecode", usage, CGW_MERGE_OPTIONS_INIT, NULL, 0 },
               .wo = CGW_OPTIONS_INIT };
    int rc = parse(argc, argv, &o);
    if (rc != 0)
        return rc - 1;
    cgw_options wo = o.wo;
    const unsigned annotate = CGW_READER_CALLGRIND_ANNOTATE, speedscope = CGW_READER_SPEEDSCOPE;
    if (!(o.for_readers & annotate))
        wo.flags |= CGW_ZERO_COUNTS; /* a count is kept as it is */
    unsigned flags = o.flags;
    int force = o.in.force;
    const char *out = tool_output_arg(o.in.out), *file = o.file;
    input in = { file, 0, 0, 0, 0 };
    cgw_read_options ro = { .struct_size = sizeof ro, .diag = on_diag, .diag_ctx = &in };
    if ((o.for_readers & (CGW_READER_GPROF2DOT | speedscope)) && !(flags & CGW_RECODE_JUMPS))
        ro.skip = CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP); /* they misread them */
    tool_progress_begin("cgrecode", (char *const[]){ (char *)file }, 1, o.in.quiet);
    cgw_reader *r = tool_progress_open(file, &ro);
    if (r == NULL) {
        fprintf(stderr, "cgrecode: %s: %s\n", file, strerror(errno));
        return 2;
    }
    unsigned m = input_positions(r);
    if ((o.for_readers & speedscope) && !(m & CGW_POS_LINE) && m != 0)
        fprintf(stderr, "cgrecode: %s: cannot be repaired for speedscope: the input has no "
                "line positions (speedscope reads the first position column as an event)\n",
                file);
    if (wo.positions == 0) {
        /* portable: lines, unless the input has none; compact: as read */
        tool_set_positions(&wo, m == 0 ? CGW_POS_LINE
                                : (m & CGW_POS_LINE) && !(wo.flags & CGW_COMPACT) ? CGW_POS_LINE
                                                                                   : m);
    }
    if (wo.positions == CGW_POS_NONE) {
        fprintf(stderr, "cgrecode: %s: the input has no position column; so has the output, "
                "outside the portable subset (callgrind_annotate reads its first cost as the "
                "line)\n", file);
    }
    cgw_writer *w = tool_open_output("cgrecode", out, &wo);
    if (w == NULL) {
        tool_progress_close(r);
        return 2;
    }
    off_t start = out == NULL ? stdout_start() : -1;
    /* for a reader that shows one part only, the parts summed into one */
    int column = m != 0 && m != CGW_POS_NONE; /* the merger needs a position column */
    cgw_status st = (o.for_readers & (annotate | speedscope)) && column ? merge_parts(r, w)
                                                                         : cgw_recode(r, w, flags);
    tool_progress_end();
    rc = 0;
    if (st == CGW_OK && in.errors > 0 && !force) {
        fprintf(stderr, "cgrecode: %s: %" PRIu64 " error%s in the input\n", file, in.errors,
                tool_plural(in.errors));
        rc = 1;
    } else if (st == CGW_OK) {
        st = cgw_finish(w);
    }
    if (st == CGW_OK && rc == 0)
        say_repairs(&o, &in);
    if (st == CGW_OK && rc == 0 && o.for_readers && out != NULL)
        say_left(&o, out);
    if (st != CGW_OK) {
        fprintf(stderr, "cgrecode: %s: %s\n", file, tool_words(cgw_errmsg(w)));
        rc = st == CGW_EIO || st == CGW_ENOMEM ? 2 : 1;
    }
    cgw_free(w);
    if (rc != 0)
        take_back(out, start);
    tool_progress_close(r);
    return rc;
}
