/* SPDX-License-Identifier: MIT */
/* cgverify - check Callgrind profiles: re-parse, check, round-trip, totals.
 * A thin tool over the libcgw reader: argument parsing and printing. */
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

#include "jobs.h"
#include "toolutil.h"

static const char usage[] =
    "usage: cgverify [--for=READER[,READER...]] [--strict] [--all|-v] [--quiet|-q]\n"
    "                [--json] [--roundtrip] [-j N|--jobs=N] FILE...\n"
    "Check Callgrind profiles ('-' reads stdin).  Exit 0 when every file is valid\n"
    "(and opens right in the readers named), 1 when one is not, 2 on a usage or\n"
    "I/O error.\n"
    "  --for=LIST   will the files open right in these readers: kcachegrind,\n"
    "               callgrind_annotate, gprof2dot, speedscope (a finding for one\n"
    "               of them fails the file; a line a reader at the end)\n"
    "  --strict     --for= all four readers\n"
    "  -v, --all    print every diagnostic (by default: the first error of each\n"
    "               kind, a line a reader that misreads a warning, one line\n"
    "               counting the warnings every reader takes, then the summary)\n"
    "  -q, --quiet  print errors only, no warnings and no summary (with --for=\n"
    "               or --strict: nothing)\n"
    "  --json       print one JSON document describing every file\n"
    "  --roundtrip  also write each file through libcgw and compare the re-read\n"
    "  -j, --jobs=N check up to N files at once, in worker processes (default: the\n"
    "               online CPUs); the output is the same as with -j 1\n";

static int strict, quiet, json, roundtrip, all;
static unsigned jobs; /* -j; 0: the default */

/* The kinds (codes) of error printed by default, the first of each;
 * --all prints every one. */
#define SHOWN_ERROR_CODES 3

/* The readers --for names (--strict: all), as cgw_diag_readers() bits. */
#define NREADERS (sizeof tool_readers / sizeof tool_readers[0])
static unsigned for_readers;

/* s as a JSON string, always valid UTF-8: a byte that starts no
 * character, or the start of one that stops early, becomes one U+FFFD
 * (written \ufffd, as Unicode's "maximal subpart" practice says); but
 * with cut_ok (messages but invalid-utf8's) a character that stops early
 * is left out: a message quotes at most so many bytes of a line, which
 * may end inside a character, so excerpts are cut by characters. */
static void add_json_text(tool_text *t, const char *s, int cut_ok)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)u), cut;
    tool_add(t, "\"", 1);
    while (n > 0) {
        size_t k = cgw_utf8_char((const char *)u, n, &cut);
        if (k == 0) {
            if (!cut_ok || cut == 0)
                tool_add(t, "\\ufffd", 6);
            k = cut ? cut : 1;
        } else if (u[0] == '"' || u[0] == '\\') {
            char e[2] = { '\\', (char)u[0] };
            tool_add(t, e, 2);
        } else if (u[0] < 0x20) {
            tool_addf(t, "\\u%04x", u[0]);
        } else {
            tool_add(t, (const char *)u, k);
        }
        u += k;
        n -= k;
    }
    tool_add(t, "\"", 1);
}

static void add_json_string(tool_text *t, const char *s)
{
    add_json_text(t, s, 0);
}

static void add_json_u64s(tool_text *t, const uint64_t *v, size_t n)
{
    if (v == NULL) {
        tool_add(t, "null", 4);
        return;
    }
    tool_add(t, "[", 1);
    for (size_t i = 0; i < n; i++)
        tool_addf(t, "%s%" PRIu64, i ? "," : "", v[i]);
    tool_add(t, "]", 1);
}

/* A code of the diagnostics kept for the default output, and how
 * often; an error's first message too. */
typedef struct code_count {
    char code[48];
    unsigned readers;  /* cgw_diag_readers(code) */
    uint64_t line;     /* its first line (0: the file as a whole) */
    uint64_t n;
    char *first;       /* an error's first message (NULL: a warning) */
} code_count;

/* What one file gave. */
typedef struct report {
    const char *path;
    uint64_t errors, warnings;
    uint64_t parts, cost_lines, calls, functions;
    tool_text parts_json, diags_json, totals;
    tool_text findings[NREADERS]; /* the codes of each reader's findings */
    char read_error[256]; /* why the file could not be read; "" when it was */
    uint64_t other_errors; /* by default: errors of codes past SHOWN_ERROR_CODES */
    code_count *codes;     /* by default: the diagnostics, a code an entry */
    size_t ncodes, error_codes;
} report;

/* How many more diagnostics d, a code's last line at the end of the
 * input ("N more like this not shown", line 0), stands for; 0 for any
 * other.  The reader shows a code 20 times a file, then that line. */
static uint64_t more_not_shown(const cgw_diagnostic *d)
{
    uint64_t n;
    int end = 0;
    if (d->line != 0 || sscanf(d->message, "%" SCNu64 " more like this not shown%n", &n, &end) != 1 ||
        d->message[end] != '\0')
        return 0;
    return n;
}

/* Count d under its code for the default output (an error's first
 * message kept, for the first SHOWN_ERROR_CODES codes); 0, or -1 when
 * memory ran out. */
static int count_code(report *rep, const cgw_diagnostic *d, int error)
{
    uint64_t more = more_not_shown(d), n = more ? more : 1;
    for (size_t i = 0; i < rep->ncodes; i++) {
        if (strcmp(rep->codes[i].code, d->code) == 0 && (rep->codes[i].first != NULL) == error) {
            rep->codes[i].n += n;
            return 0;
        }
    }
    if (error && rep->error_codes == SHOWN_ERROR_CODES) {
        rep->other_errors += n;
        return 0;
    }
    code_count *c = realloc(rep->codes, (rep->ncodes + 1) * sizeof *c);
    char *first = error ? strdup(d->message) : NULL;
    if (c != NULL)
        rep->codes = c;
    if (c == NULL || (error && first == NULL)) {
        free(first);
        return -1;
    }
    c += rep->ncodes++;
    snprintf(c->code, sizeof c->code, "%s", d->code);
    c->readers = cgw_diag_readers(d->code);
    c->line = d->line;
    c->n = n;
    c->first = first;
    rep->error_codes += error;
    return 0;
}

static void on_diag(void *ctx, const cgw_diagnostic *d)
{
    report *rep = ctx;
    int finding = tool_note_finding(rep->findings, for_readers, d->code);
    int error = d->severity == CGW_ERROR || finding;
    if (json) {
        tool_text *t = &rep->diags_json;
        tool_addf(t, "%s{\"line\":%" PRIu64 ",\"severity\":\"%s\",\"fails\":%s,\"code\":",
                  t->len ? "," : "", d->line, d->severity == CGW_ERROR ? "error" : "warning",
                  error ? "true" : "false");
        add_json_string(t, d->code);
        tool_add(t, ",\"message\":", 11);
        /* an invalid-utf8 message quotes a name whole: its bytes are the news */
        add_json_text(t, d->message, strcmp(d->code, "invalid-utf8") != 0);
        tool_add(t, "}", 1);
        return;
    }
    if (quiet && (!error || for_readers))
        return;
    if (!all && !quiet && count_code(rep, d, error) == 0)
        return; /* (out of memory: printed rather than lost) */
    tool_progress_end(); /* its line off the terminal first */
    if (d->line)
        printf("%s:%" PRIu64 ": %s: %s [%s]\n", rep->path, d->line, error ? "error" : "warning",
               tool_esc(d->message), d->code);
    else
        printf("%s: %s: %s [%s]\n", rep->path, error ? "error" : "warning",
               tool_esc(d->message), d->code);
}

static void part_end(report *rep, const cgw_record *rec)
{
    const cgw_part *p = rec->part;
    rep->parts++;
    rep->cost_lines += rec->cost_lines;
    rep->calls += rec->calls;
    rep->functions += rec->functions;
    tool_text *t = &rep->parts_json;
    tool_addf(t, "%s{\"part\":%u,\"events\":[", t->len ? "," : "", p->index);
    for (size_t i = 0; i < p->nevents; i++) {
        if (i)
            tool_add(t, ",", 1);
        add_json_string(t, p->events[i].name);
    }
    tool_add(t, "],\"totals\":", 11);
    add_json_u64s(t, rec->costs, p->nevents);
    tool_add(t, ",\"summary\":", 11);
    add_json_u64s(t, rec->summary, p->nevents);
    tool_add(t, ",\"totals_line\":", 15);
    add_json_u64s(t, rec->totals_line, p->nevents);
    tool_addf(t, ",\"cost_lines\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"functions\":%" PRIu64 "}",
         rec->cost_lines, rec->calls, rec->functions);
    t = &rep->totals;
    if (rep->parts > 1)
        tool_addf(t, "; part %u:", p->index);
    for (size_t i = 0; i < p->nevents; i++)
        tool_addf(t, " %s=%" PRIu64, p->events[i].name, rec->costs[i]);
}

/* Say on stderr why rep's file could not be read (and keep it for
 * --json); returns 2. */
static int read_failed(report *rep, const char *what, const char *why)
{
    snprintf(rep->read_error, sizeof rep->read_error, "%s%s", what, why);
    fprintf(stderr, "cgverify: %s: %s\n", rep->path, tool_words(rep->read_error));
    return 2;
}

/* For --roundtrip, which reads the input again: a descriptor of a regular
 * file with rep's input, the file itself or, for stdin, a pipe or a FIFO,
 * a temporary copy (so that the input is read once); -1 after
 * read_failed(). */
static int seekable_input(report *rep, int is_stdin)
{
    int fd = is_stdin ? dup(STDIN_FILENO) : open(rep->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        read_failed(rep, "", strerror(errno));
        return -1;
    }
    int copy = tool_seekable(fd);
    if (copy < 0)
        read_failed(rep, "copying to a temporary file: ", strerror(errno));
    return copy;
}

/* Read rep's file: 0, or 2 after read_failed(). */
static int check(report *rep)
{
    int is_stdin = strcmp(rep->path, "-") == 0;
    /* only the part ends are read; the round trip below reads every
     * record with options of its own */
    unsigned skip = CGW_SKIP(CGW_REC_PART) | CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_COST) |
                    CGW_SKIP(CGW_REC_CALL) | CGW_SKIP(CGW_REC_JUMP) |
                    CGW_SKIP(CGW_REC_COND_JUMP) | CGW_SKIP(CGW_REC_FUNCTION);
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK | CGW_READ_MAP,
                           .diag = on_diag, .diag_ctx = rep, .skip = skip };
    int fd = roundtrip ? seekable_input(rep, is_stdin) : -1;
    if (roundtrip && fd < 0)
        return 2;
    cgw_reader *r = fd >= 0 ? cgw_reader_open_fd(fd, &o) : tool_progress_open(rep->path, &o);
    if (r == NULL) {
        if (fd >= 0)
            close(fd);
        return read_failed(rep, "", strerror(errno));
    }
    const cgw_record *rec;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            part_end(rep, rec);
    tool_progress_file_done(0);
    tool_progress_end();
    if (st == CGW_OK)
        cgw_reader_counts(r, &rep->errors, &rep->warnings);
    else
        read_failed(rep, "", cgw_reader_errmsg(r));
    tool_progress_close(r); /* a roundtrip's fd stays open: progress.c did not open it */
    uint64_t diffs = 0;
    if (st == CGW_OK && roundtrip) {
        st = cgw_roundtrip_fd(fd, &o, &diffs);
        if (st != CGW_OK)
            read_failed(rep, "round trip: ", cgw_strerror(st));
        rep->errors += diffs;
    }
    if (fd >= 0)
        close(fd);
    return st == CGW_OK ? 0 : 2;
}

/* The verdict of each reader asked for, one line each ("PATH: READER:
 * opens right"); or as JSON members of "readers". */
static void reader_verdicts(const report *rep, tool_text *json_out)
{
    for (size_t i = 0; i < NREADERS; i++) {
        if (!(for_readers & tool_readers[i].bit))
            continue;
        const tool_text *f = &rep->findings[i];
        int right = f->len == 0 && rep->read_error[0] == '\0';
        if (json_out != NULL) {
            tool_addf(json_out, "%s\"%s\":{\"opens_right\":%s,\"findings\":[",
                      json_out->p[json_out->len - 1] == '{' ? "" : ",", tool_readers[i].name,
                      right ? "true" : "false");
            for (const char *p = f->p; p != NULL && *p != '\0';) {
                const char *comma = strchr(p, ',');
                size_t n = comma ? (size_t)(comma - p) : strlen(p);
                tool_addf(json_out, "%s\"%.*s\"", p == f->p ? "" : ",", (int)n, p);
                p = comma ? comma + 2 : p + n;
            }
            tool_add(json_out, "]}", 2);
        } else if (right) {
            printf("%s: %s: opens right%s\n", rep->path, tool_readers[i].name,
                   rep->errors > 0 ? " (but the file is not valid)" : "");
        } else if (rep->read_error[0] != '\0') {
            printf("%s: %s: the file could not be read\n", rep->path, tool_readers[i].name);
        } else {
            printf("%s: %s: shows other numbers than the file says: %s\n", rep->path,
                   tool_readers[i].name, f->p);
        }
    }
}

/* rep as one element of --json's "files". */
static void add_json_report(tool_text *out, const report *rep, int valid)
{
    tool_addf(out, "%s{\"path\":", out->p[out->len - 1] == '[' ? "" : ",");
    add_json_string(out, rep->path);
    tool_addf(out, ",\"valid\":%s,\"read_error\":", valid ? "true" : "false");
    if (rep->read_error[0])
        add_json_text(out, rep->read_error, 1);
    else
        tool_add(out, "null", 4);
    tool_addf(out, ",\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64 ",\"parts\":[", rep->errors,
              rep->warnings);
    if (rep->parts_json.p)
        tool_add(out, rep->parts_json.p, rep->parts_json.len);
    tool_add(out, "],\"diagnostics\":[", 17);
    if (rep->diags_json.p)
        tool_add(out, rep->diags_json.p, rep->diags_json.len);
    tool_add(out, "],\"readers\":{", 13);
    reader_verdicts(rep, out);
    tool_add(out, "}}", 2);
}

/* The first error of each code, and how many more there are, by
 * default: a line a code. */
static void error_lines(const report *rep)
{
    size_t said = 0;
    for (size_t k = 0; k < rep->ncodes; k++) {
        const code_count *c = &rep->codes[k];
        if (c->first == NULL)
            continue;
        if (c->line)
            printf("%s:%" PRIu64 ": error: %s [%s]", rep->path, c->line, tool_esc(c->first), c->code);
        else
            printf("%s: error: %s [%s]", rep->path, tool_esc(c->first), c->code);
        uint64_t others = ++said == rep->error_codes ? rep->other_errors : 0;
        if (c->n > 1 && others > 0)
            printf(" (%" PRIu64 " more like it, %" PRIu64 " of other kinds: --all lists them)",
                   c->n - 1, others);
        else if (c->n > 1)
            printf(" (%" PRIu64 " more like it: --all lists them)", c->n - 1);
        else if (others > 0)
            printf(" (%" PRIu64 " more of other kinds: --all lists them)", others);
        printf("\n");
    }
}

/* The default output's lines before the summary: the first error of
 * each code (error_lines()); a line a reader that would misread a
 * warning, with the codes, the first line of each and how many lines;
 * one line counting the warnings every reader takes, the most common
 * first. */
static void warning_lines(report *rep)
{
    error_lines(rep);
    for (size_t i = 0; i < NREADERS; i++) {
        const char *sep = ": ";
        for (size_t k = 0; k < rep->ncodes; k++) {
            const code_count *c = &rep->codes[k];
            if (c->first != NULL || !(c->readers & tool_readers[i].bit))
                continue;
            if (sep[0] == ':')
                printf("%s: %s would show other numbers", rep->path, tool_readers[i].name);
            printf("%s%s", sep, c->code);
            if (c->line && c->n > 1)
                printf(" (line %" PRIu64 ", %" PRIu64 " lines)", c->line, c->n);
            else if (c->line)
                printf(" (line %" PRIu64 ")", c->line);
            else if (c->n > 1)
                printf(" (%" PRIu64 " times)", c->n);
            sep = ", ";
        }
        if (sep[0] == ',')
            printf("\n");
    }
    /* the harmless codes by count, the most first (insertion sort: a
     * file has few codes) */
    for (size_t k = 1; k < rep->ncodes; k++)
        for (size_t j = k; j > 0 && rep->codes[j].n > rep->codes[j - 1].n; j--) {
            code_count t = rep->codes[j];
            rep->codes[j] = rep->codes[j - 1];
            rep->codes[j - 1] = t;
        }
    const char *sep = ": ";
    for (size_t k = 0; k < rep->ncodes; k++) {
        const code_count *c = &rep->codes[k];
        if (c->readers != 0 || c->first != NULL)
            continue;
        if (sep[0] == ':')
            printf("%s", rep->path);
        printf("%s%" PRIu64 " %s", sep, c->n, c->code);
        sep = ", ";
    }
    if (sep[0] == ',')
        printf(": every reader takes them (--all lists them)\n");
}

/* Check one file; 0 valid, 1 invalid, 2 I/O error. */
static int verify(const char *path, tool_text *out)
{
    report rep = { .path = path };
    int rc = check(&rep);
    int found = 0;
    for (size_t i = 0; i < NREADERS; i++)
        found |= rep.findings[i].len > 0;
    int valid = rc == 0 && rep.errors == 0 && !found;
    if (!json && !quiet && !all)
        warning_lines(&rep);
    if (json) {
        add_json_report(out, &rep, valid);
    } else if (!quiet && rc == 0) {
        printf("%s: %s: %" PRIu64 " part%s, %" PRIu64 " cost line%s, %" PRIu64 " call%s, %" PRIu64
               " function%s, %" PRIu64 " error%s, %" PRIu64 " warning%s; totals%s\n",
               path, valid ? "valid" : "INVALID", rep.parts, tool_plural(rep.parts),
               rep.cost_lines, tool_plural(rep.cost_lines), rep.calls, tool_plural(rep.calls),
               rep.functions, tool_plural(rep.functions), rep.errors, tool_plural(rep.errors),
               rep.warnings, tool_plural(rep.warnings), rep.totals.p ? rep.totals.p : " none");
    }
    if (!json && !quiet)
        reader_verdicts(&rep, NULL);
    for (size_t i = 0; i < NREADERS; i++)
        free(rep.findings[i].p);
    free(rep.parts_json.p);
    free(rep.diags_json.p);
    free(rep.totals.p);
    for (size_t k = 0; k < rep.ncodes; k++)
        free(rep.codes[k].first);
    free(rep.codes);
    return rc != 0 ? rc : valid ? 0 : 1;
}

/* The paths of -j's jobs: argv's files. */
static char **job_paths;

static int is_stdin_job(void *ctx, size_t i)
{
    (void)ctx;
    return strcmp(job_paths[i], "-") == 0;
}

/* Check the job's file as the loop of main() does, printing; with
 * --json its element of "files" (after a comma but for the first). */
static int run_job(void *ctx, size_t i)
{
    (void)ctx;
    tool_text t = { 0 };
    tool_add(&t, i ? " " : "[", 1); /* add_json_report()'s comma, or not */
    tool_reading(job_paths[i]);
    int rc = verify(job_paths[i], &t);
    if (json)
        fputs(t.p + 1, stdout);
    free(t.p);
    return rc;
}

static void job_done(void *ctx, size_t i, int status, int in_worker)
{
    int *worst = ctx;
    struct stat st;
    if (in_worker) /* the parent's line counts the file, as check() does */
        tool_progress_file_done(stat(job_paths[i], &st) == 0 && S_ISREG(st.st_mode) ?
                                (uint64_t)st.st_size : 0);
    if (status < 0)
        status = 2;
    if (status > *worst)
        *worst = status;
}

/* Check argv's files in up to `jobs` workers, printing as the loop of
 * main() does; the worst status. */
static int verify_jobs(char **files, size_t n, const tool_text *json_head)
{
    int worst = 0;
    job_paths = files;
    if (json)
        fputs(json_head->p, stdout);
    tool_jobs j = { .tool = "cgverify", .names = (const char *const *)files, .n = n,
                    .workers = jobs, .run = run_job, .here = is_stdin_job, .done = job_done,
                    .ctx = &worst };
    tool_jobs_run(&j);
    tool_progress_end(); /* drawn after the last file */
    if (json)
        fputs("]}\n", stdout);
    return worst;
}

enum { O_STRICT = TOOL_O_NEXT, O_JSON, O_ROUNDTRIP, O_FOR };

static const struct option longopts[] = {
    { "for", required_argument, NULL, O_FOR },
    { "strict", no_argument, NULL, O_STRICT },
    { "quiet", no_argument, NULL, 'q' },
    { "all", no_argument, NULL, 'v' },
    { "json", no_argument, NULL, O_JSON },
    { "roundtrip", no_argument, NULL, O_ROUNDTRIP },
    { "jobs", required_argument, NULL, 'j' },
    TOOL_HELP_OPTIONS
};

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv)
{
    int c;
    const char *bad;
    uint64_t n;
    while ((c = tool_getopt("cgverify", argc, argv, "hqvj:", longopts)) != -1) {
        switch (c) {
        case O_STRICT: strict = 1; for_readers = CGW_READER_KCACHEGRIND |
                       CGW_READER_CALLGRIND_ANNOTATE | CGW_READER_GPROF2DOT |
                       CGW_READER_SPEEDSCOPE; break;
        case O_FOR:
            if (tool_parse_readers(optarg, &for_readers, &bad) < 0)
                return 1 + tool_usage_error("cgverify", "--for: unknown reader '%.*s' "
                                            "(kcachegrind, callgrind_annotate, gprof2dot, "
                                            "speedscope)", (int)strcspn(bad, ","), bad);
            break;
        case 'q': quiet = 1; break;
        case 'v': all = 1; break;
        case O_JSON: json = 1; break;
        case O_ROUNDTRIP: roundtrip = 1; break;
        case 'j':
            if (tool_uint(optarg, 1024, &n) < 0 || n == 0)
                return 1 + tool_usage_error("cgverify", "-j: '%s' is not a number of jobs from 1 "
                                            "to 1024", optarg);
            jobs = (unsigned)n;
            break;
        case 'h': case TOOL_O_HELP: return 1 + tool_info_option("cgverify", usage, "-h");
        case TOOL_O_VERSION: return 1 + tool_info_option("cgverify", usage, "--version");
        default: return 3; /* said by tool_getopt() */
        }
    }
    if (optind == argc)
        return 1 + tool_usage_error("cgverify", "no input");
    return 0;
}

int main(int argc, char **argv)
{
    int i = parse(argc, argv);
    if (i != 0)
        return i - 1;
    i = optind;
    tool_text out = { 0 };
    /* "format" goes up when a key changes meaning or goes away */
    tool_addf(&out, "{\"format\":3,\"strict\":%s,\"for\":[", strict ? "true" : "false");
    for (size_t r = 0; r < NREADERS; r++)
        if (for_readers & tool_readers[r].bit)
            tool_addf(&out, "%s\"%s\"", out.p[out.len - 1] == '[' ? "" : ",", tool_readers[r].name);
    tool_add(&out, "],\"files\":[", 11);
    int worst = 0;
    tool_catch_sigbus("cgverify");
    tool_progress_begin("cgverify", argv + i, (size_t)(argc - i), quiet || json);
    /* -j: as many workers as files that can go to one (stdin cannot) */
    size_t files = 0;
    for (int k = i; k < argc; k++)
        files += strcmp(argv[k], "-") != 0;
    if (jobs == 0 || jobs > files)
        jobs = jobs == 0 ? tool_jobs_default(files) : (unsigned)(files ? files : 1);
    if (jobs > 1)
        worst = verify_jobs(argv + i, (size_t)(argc - i), &out);
    for (; jobs <= 1 && i < argc; i++) {
        tool_reading(argv[i]);
        int rc = verify(argv[i], &out);
        if (rc > worst)
            worst = rc;
    }
    if (json && jobs <= 1) {
        tool_add(&out, "]}\n", 3);
        fputs(out.p, stdout);
    }
    free(out.p);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cgverify: writing the output: %s\n", strerror(errno));
        return 2;
    }
    return worst;
}
