/* SPDX-License-Identifier: MIT */
/* cgconvert - folded stacks (the flame-graph format) and pprof profiles
 * to the Callgrind format, and Callgrind to folded stacks: argument
 * parsing and files over cgw_stacks_*() and cgw_write_folded(), and
 * libcgw-pprof's cgw_stacks_add_pprof() and cgw_write_pprof() when
 * configure found protobuf-c. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h" /* HAVE_PROTOBUF_C: linked with libcgw-pprof */

#include <cgw.h>
#ifdef HAVE_PROTOBUF_C
#include <cgw-pprof.h>
#endif

#include "toolutil.h"

#ifdef HAVE_PROTOBUF_C
#define PPROF_FEATURE "pprof" /* --version: linked with libcgw-pprof */
#else
#define PPROF_FEATURE NULL
/* Without libcgw-pprof every pprof input and output is refused so. */
#define NO_PPROF "this cgconvert was built without protobuf-c (libcgw-pprof), so it reads " \
                 "and writes no pprof profile (configure --with-protobuf-c)"

static cgw_status cgw_stacks_add_pprof_limit(cgw_stacks *s, const char *name,
                                             const void *data, size_t len, uint64_t limit)
{
    char msg[256];
    (void)data, (void)len, (void)limit;
    snprintf(msg, sizeof msg, "%s: %s", name, NO_PPROF);
    return cgw_stacks_fail(s, CGW_EINVAL, msg);
}

static cgw_status cgw_write_pprof(cgw_reader *r, const char *event, cgw_write_fn fn, void *ctx,
                                  char *msg, size_t len)
{
    (void)r, (void)event, (void)fn, (void)ctx;
    snprintf(msg, len, "cgw_write_pprof: %s", NO_PPROF);
    return CGW_EINVAL;
}
#endif

static const char usage[] =
    "usage: cgconvert --from folded [--event NAME] FILE... [--event NAME FILE...]\n"
    "                 [--qualify-names] [--quiet] [-o OUT]\n"
    "       cgconvert --from pprof FILE... [--pprof-limit=SIZE] [--qualify-names]\n"
    "                 [--quiet] [-o OUT]\n"
    "       cgconvert --to folded|pprof [--event NAME] [--force] [--quiet] FILE\n"
    "                 [-o OUT]\n"
    "--from folded: read folded stacks ('a;b;c 42' lines; '-' reads stdin) and\n"
    "write a Callgrind profile to OUT (atomically) or stdout.  --event NAME\n"
    "names the event of the files after it (default Samples); files of one\n"
    "event add up, each event is a column.\n"
    "--from pprof: read pprof profiles (profile.pb.gz, as Go and gperftools\n"
    "write them): each sample type is an event, and the files add up.\n"
    "--pprof-limit=SIZE: the most memory decoding a profile may take (the\n"
    "inflated protobuf and what is built of it; K, M, G suffixes; default 256M).\n"
    "Each function keeps its own name, its fl= and ob= telling it from another\n"
    "of that name.  --qualify-names: name each function with a file or object\n"
    "'NAME [OBJECT] (FILE)', for readers that merge functions by name alone\n"
    "(gprof2dot); the names are then not the input's.\n"
    "--to folded: write the stacks of a Callgrind profile (of its first event,\n"
    "or NAME), rebuilt from its call edges: exact for a call tree, an estimate\n"
    "where a function has several callers (see cgconvert(1)).\n"
    "--to pprof: the same stacks as a pprof profile (gzip-compressed protobuf).\n"
    "--quiet: no progress line (shown on a terminal otherwise).\n"
    "Exit 0, 1 when the input is invalid, 2 on a usage or I/O error.\n";

enum { OPT_FROM = TOOL_O_NEXT, OPT_TO, OPT_EVENT, OPT_FORCE, OPT_QUALIFY, OPT_PPROF_LIMIT };

static int fail_usage(const char *what, const char *arg)
{
    fprintf(stderr, "cgconvert: %s%s\n%s", what, arg ? arg : "", usage);
    return 2;
}

static int exit_code(cgw_status st)
{
    return st == CGW_OK ? 0 : st == CGW_EINVAL || st == CGW_ERANGE ? 1 : 2;
}

/* --------------------------------------------------------- --from folded */

/* The bytes of path: a regular file mapped (not copied: folded files run
 * to gigabytes), anything else read into memory.  *map says which. */
static int load(const char *path, tool_text *t, int *map)
{
    struct stat st;
    int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
    *map = 0;
    if (fd < 0)
        return -1;
    if (fd != STDIN_FILENO && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            t->p = p;
            t->len = (size_t)st.st_size;
            *map = 1;
            close(fd);
            return 0;
        }
    }
    int rc = tool_slurp(fd, t);
    if (fd != STDIN_FILENO)
        close(fd);
    return rc;
}

/* pprof_limit: 0 for folded stacks or the default pprof limit. */
static int add_file(cgw_stacks *s, int pprof, uint64_t pprof_limit, const char *event,
                    const char *path)
{
    tool_text t = { 0 };
    int map;
    tool_reading(path);
    if (load(path, &t, &map) < 0) {
        fprintf(stderr, "cgconvert: %s: %s\n", path, strerror(errno));
        free(t.p);
        return 2;
    }
    size_t blank = 0;
    while (blank < t.len && strchr(" \t\r\n", t.p[blank]) != NULL)
        blank++;
    cgw_status st = CGW_OK;
    if (blank < t.len)
        st = pprof ? cgw_stacks_add_pprof_limit(s, path, t.p, t.len, pprof_limit)
                   : cgw_stacks_add_folded(s, event, path, t.p, t.len);
    if (map)
        munmap(t.p, t.len);
    else
        free(t.p);
    tool_progress_file_done(t.len);
    if (blank == t.len) {
        fprintf(stderr, "cgconvert: %s: empty%s, no stacks in it\n", path,
                t.len ? " (blank lines only)" : "");
        return 1;
    }
    if (st != CGW_OK) {
        fprintf(stderr, "cgconvert: %s\n", tool_words(cgw_stacks_errmsg(s)));
        return exit_code(st);
    }
    return 0;
}

static int write_profile(cgw_stacks *s, const char *out, int qualify)
{
    cgw_options wo = { .struct_size = sizeof wo, .flags = qualify ? CGW_QUALIFY_NAMES : 0 };
    cgw_writer *w = tool_open_output("cgconvert", out, &wo);
    if (w == NULL)
        return 2;
    cgw_set_creator(w, "cgconvert (libcgw)");
    return tool_close_output("cgconvert", out, w, cgw_stacks_write(s, w));
}

/* ----------------------------------------------------------- --to folded */

/* The converters' bytes into the raw writer ctx. */
static int put(void *ctx, const char *buf, size_t len)
{
    return cgw_write_bytes(ctx, buf, len) == CGW_OK ? 0 : -1;
}

/* --to folded or pprof: the stacks of the profile at path into out. */
static int to_stacks(int pprof, const char *event, int force, const char *path, const char *out)
{
    uint64_t errors = 0;
    tool_diag_ctx in = { "cgconvert", path, &errors };
    cgw_read_options ro = { .struct_size = sizeof ro, .diag = tool_diag_errors, .diag_ctx = &in };
    cgw_reader *r = tool_progress_open(path, &ro);
    char msg[512];
    if (r == NULL) {
        fprintf(stderr, "cgconvert: %s: %s\n", path, strerror(errno));
        return 2;
    }
    cgw_options wo = { .struct_size = sizeof wo, .flags = CGW_RAW };
    cgw_writer *w = tool_open_output("cgconvert", out, &wo);
    if (w == NULL) {
        tool_progress_close(r);
        return 2;
    }
    cgw_status st = pprof ? cgw_write_pprof(r, event, put, w, msg, sizeof msg)
                          : cgw_write_folded(r, event, put, w, msg, sizeof msg);
    tool_progress_end();
    int rc = exit_code(st);
    if (errors > 0 && !force && cgw_error(w) == CGW_OK) {
        fprintf(stderr, "cgconvert: %s: %" PRIu64 " error%s in the input; nothing written\n",
                path, errors, tool_plural(errors));
        rc = st != CGW_OK ? rc : 1;
    } else if (st != CGW_OK && cgw_error(w) == CGW_OK) {
        fprintf(stderr, "cgconvert: %s: %s\n", path, tool_words(msg));
    }
    if (rc != 0 && cgw_error(w) == CGW_OK) {
        cgw_free(w); /* nothing written: the old file stays */
    } else {
        int wrc = tool_close_output("cgconvert", out, w, cgw_error(w));
        rc = rc != 0 ? rc : wrc;
    }
    tool_progress_close(r);
    return rc;
}

/* ------------------------------------------------------------------ main */

static const struct option longopts[] = {
    { "from", required_argument, NULL, OPT_FROM },
    { "to", required_argument, NULL, OPT_TO },
    { "event", required_argument, NULL, OPT_EVENT },
    { "force", no_argument, NULL, OPT_FORCE },
    { "qualify-names", no_argument, NULL, OPT_QUALIFY },
    { "pprof-limit", required_argument, NULL, OPT_PPROF_LIMIT },
    TOOL_OUTPUT_OPTIONS
};

/* The options; files (in order, each with the --event before it) are
 * handed to from_file, or kept in *file for --to. */
typedef struct args {
    const char *from, *to, *event, *out, *file;
    int force, quiet, nfiles, qualify;
    uint64_t pprof_limit; /* 0: CGW_PPROF_LIMIT */
} args;

/* --from folded or pprof: every file into the stacks, then OUT. */
static int from_stacks(int argc, char **argv, args *a)
{
    int pprof = strcmp(a->from, "pprof") == 0;
    if (pprof && a->event != NULL)
        return fail_usage("--event is for folded stacks: a pprof profile names its events", NULL);
    cgw_stacks *s = cgw_stacks_new(NULL);
    if (s == NULL)
        return fail_usage("out of memory", NULL);
    tool_catch_sigbus("cgconvert");
    int c, rc = 0;
    const char *event = NULL;
    optind = 1;
    while (rc == 0 && (c = tool_getopt("cgconvert", argc, argv, "-o:h", longopts)) != -1) {
        if (c == OPT_EVENT)
            event = optarg;
        else if (c == 1)
            rc = add_file(s, pprof, a->pprof_limit, event, optarg);
    }
    tool_progress_end();
    if (rc == 0)
        rc = write_profile(s, a->out, a->qualify);
    cgw_stacks_free(s);
    return rc;
}

static int parse(int argc, char **argv, args *a)
{
    int c;
    while ((c = tool_getopt("cgconvert", argc, argv, "-o:h", longopts)) != -1) {
        switch (c) {
        case OPT_FROM: a->from = optarg; break;
        case OPT_TO: a->to = optarg; break;
        case OPT_EVENT: a->event = optarg; break;
        case OPT_FORCE: a->force = 1; break;
        case OPT_QUALIFY: a->qualify = 1; break;
        case OPT_PPROF_LIMIT:
            if (tool_size(optarg, &a->pprof_limit) < 0 || a->pprof_limit == 0)
                return fail_usage("--pprof-limit: not a size (N, NK, NM or NG): ", optarg);
            break;
        case TOOL_O_QUIET: a->quiet = 1; break;
        case 'o': a->out = tool_output_arg(optarg); break;
        case 'h': case TOOL_O_HELP: fputs(usage, stdout); return 0;
        case 'V': case TOOL_O_VERSION: return tool_version("cgconvert", PPROF_FEATURE);
        case 1: a->file = optarg; a->nfiles++; break;
        default: return 2; /* said by tool_getopt() */
        }
    }
    if ((a->from == NULL) == (a->to == NULL))
        return fail_usage("give one of --from and --to", NULL);
    if (a->pprof_limit != 0 && (a->from == NULL || strcmp(a->from, "pprof") != 0))
        return fail_usage("--pprof-limit is for --from pprof", NULL);
    if (a->qualify && a->to != NULL)
        return fail_usage("--qualify-names is for --from: it names the functions written", NULL);
    const char *fmt = a->from ? a->from : a->to;
    if (strcmp(fmt, "folded") != 0 && strcmp(fmt, "pprof") != 0)
        return fail_usage("unknown format ", fmt);
    if (a->nfiles == 0 || (a->to != NULL && a->nfiles > 1))
        return fail_usage(a->nfiles ? "--to takes one input file" : "no input file", NULL);
    return -1;
}

int main(int argc, char **argv)
{
    args a = { 0 };
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    tool_progress_begin("cgconvert", a.to ? (char *const[]){ (char *)a.file } : NULL,
                        (size_t)a.nfiles, a.quiet);
    if (a.to != NULL)
        return to_stacks(strcmp(a.to, "pprof") == 0, a.event, a.force, a.file, a.out);
    return from_stacks(argc, argv, &a);
}
