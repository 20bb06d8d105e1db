/* SPDX-License-Identifier: MIT */
/* cgannotate - callgrind_annotate's report, read with the libcgw reader:
 * the same options and the same layout, every part summed.  This file
 * reads (options, records into sums); annotate-print.c prints. */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>

#include "cgannotate.h"
#include "toolutil.h"

static const char usage[] =
    "usage: cgannotate [options] [FILE [SOURCE...]]\n"
    "callgrind_annotate's report of a Callgrind profile (default: the first\n"
    "callgrind.out* here), in its layout, with every part summed; SOURCE files\n"
    "are annotated too.  Exit 0, 1 when the input has errors or lacks an event\n"
    "named, 2 on a usage or I/O error.\n"
    "  --show=A,B            only show figures for events A,B [all]\n"
    "  --sort=A[:PCT],B      sort by events A,B [event column order]\n"
    "  --threshold=PCT       show functions up to PCT% of the first sort event [99]\n"
    "  --show-percs=yes|no   a percentage beside each non-zero count [yes]\n"
    "  --auto=yes|no         annotate the source files of the functions shown [yes]\n"
    "  --context=N           lines of context around annotated lines [8]\n"
    "  --inclusive=yes|no    functions' costs with their calls' [no]\n"
    "  --units=exact|human   time events' costs as counts or in ns, us, ms, s [exact]\n"
    "  --tree=none|caller|calling|both\n"
    "                        each function's callers, callees or both [none]\n"
    "  -I, --include=DIR     look for source files in DIR too\n"
    "  --quiet               no progress line (shown on a terminal otherwise)\n";

enum { O_SHOW = TOOL_O_NEXT, O_SORT, O_THRESHOLD, O_PERCS, O_AUTO, O_CONTEXT, O_INCL,
       O_TREE, O_UNITS };

static const struct option longopts[] = {
    { "show", required_argument, NULL, O_SHOW },
    { "sort", required_argument, NULL, O_SORT },
    { "threshold", required_argument, NULL, O_THRESHOLD },
    { "show-percs", required_argument, NULL, O_PERCS },
    { "auto", required_argument, NULL, O_AUTO },
    { "context", required_argument, NULL, O_CONTEXT },
    { "inclusive", required_argument, NULL, O_INCL },
    { "tree", required_argument, NULL, O_TREE },
    { "units", required_argument, NULL, O_UNITS },
    { "include", required_argument, NULL, 'I' },
    { "quiet", no_argument, NULL, TOOL_O_QUIET },
    TOOL_HELP_OPTIONS
};

/* Add costs to cc.  The columns a line wrote are taken to end at its last
 * non-zero cost, as Callgrind drops trailing zeros (it writes "0" for a
 * line of none). */
static void cc_add(ann *a, ann_cc cc, const uint64_t *costs)
{
    uint64_t *v = a->pool + cc, last = 0;
    for (size_t i = 0; i < a->ne; i++) {
        v[i] += costs[i];
        if (costs[i] != 0)
            last = i + 1;
    }
    if (last == 0 && a->ne > 0)
        last = 1;
    if (v[a->ne] < last)
        v[a->ne] = last;
}

/* ------------------------------------------------------------- options */

static int yes_no(const char *arg, int *v)
{
    if (strcmp(arg, "yes") == 0)
        *v = 1;
    else if (strcmp(arg, "no") == 0)
        *v = 0;
    else
        return -1;
    return 0;
}

/* "N", "N.M", each with an optional '%', from 0 to 100: the text without
 * the '%' (callgrind_annotate prints it as given). */
static int percent(const char *arg, char **text, double *v)
{
    size_t n = strspn(arg, "0123456789.");
    if (n == 0 || (arg[n] != '\0' && strcmp(arg + n, "%") != 0))
        return -1;
    char *end;
    *v = strtod(arg, &end);
    if (end != arg + n || *v < 0 || *v > 100)
        return -1;
    if ((*text = strndup(arg, n)) == NULL)
        exit(2);
    return 0;
}

static int bad(const char *opt, const char *arg)
{
    return 1 + tool_usage_error("cgannotate", "bad %s '%s'", opt, arg);
}

/* 0 to go on, else 1 + the exit status. */
static int parse(int argc, char **argv, ann *a)
{
    int c, quiet = 0;
    char *t;
    while ((c = tool_getopt("cgannotate", argc, argv, "hI:", longopts)) != -1) {
        switch (c) {
        case 'h': case TOOL_O_HELP: return 1 + tool_info_option("cgannotate", usage, "-h");
        case TOOL_O_VERSION: return 1 + tool_info_option("cgannotate", usage, "--version");
        case TOOL_O_QUIET: quiet = 1; break;
        case O_SHOW: a->show_arg = optarg; break;
        case O_SORT: a->sort_arg = optarg; break;
        case O_THRESHOLD:
            if (percent(optarg, &t, &a->threshold) < 0)
                return bad("--threshold", optarg);
            a->threshold_text = t;
            break;
        case O_PERCS:
            if (yes_no(optarg, &a->show_percs) < 0)
                return bad("--show-percs", optarg);
            break;
        case O_AUTO:
            if (yes_no(optarg, &a->auto_annotate) < 0)
                return bad("--auto", optarg);
            break;
        case O_UNITS:
            if (strcmp(optarg, "exact") != 0 && strcmp(optarg, "human") != 0)
                return bad("--units", optarg);
            a->human = strcmp(optarg, "human") == 0;
            break;
        case O_INCL:
            if (yes_no(optarg, &a->inclusive) < 0)
                return bad("--inclusive", optarg);
            break;
        case O_CONTEXT: {
            uint64_t n;
            if (tool_uint(optarg, 1u << 30, &n) < 0)
                return bad("--context", optarg);
            a->context = (long)n;
            break;
        }
        case O_TREE:
            if (strcmp(optarg, "none") != 0 && strcmp(optarg, "caller") != 0 &&
                strcmp(optarg, "calling") != 0 && strcmp(optarg, "both") != 0)
                return bad("--tree", optarg);
            a->tree_caller = strcmp(optarg, "caller") == 0 || strcmp(optarg, "both") == 0;
            a->tree_calling = strcmp(optarg, "calling") == 0 || strcmp(optarg, "both") == 0;
            break;
        case 'I': {
            size_t n = strlen(optarg);
            char *d = malloc(n + 2);
            if (d == NULL)
                exit(2);
            memcpy(d, optarg, n + 1);
            if (n > 0 && d[n - 1] == '/')
                d[--n] = '\0';
            d[n] = '/';
            d[n + 1] = '\0';
            a->includes = tool_grow(a->includes, &(size_t){ a->nincludes }, a->nincludes + 1,
                                   sizeof *a->includes);
            a->includes[a->nincludes++] = d;
            break;
        }
        default: return 3; /* said by tool_getopt() */
        }
    }
    tool_progress_begin("cgannotate", argv + optind, optind < argc ? 1 : 0, quiet);
    for (int i = optind; i < argc; i++) {
        if (a->input == NULL) {
            a->input = argv[i];
            continue;
        }
        int found = 0;
        for (size_t k = 0; k < a->nincludes && !found; k++) {
            size_t n = strlen(a->includes[k]) + strlen(argv[i]) + 1;
            char *p = malloc(n);
            if (p == NULL)
                exit(2);
            snprintf(p, n, "%s%s", a->includes[k], argv[i]);
            tool_source src;
            if ((found = tool_source_open(&src, NULL, p) == 0))
                tool_source_close(&src);
            free(p);
        }
        if (!found)
            return 1 + tool_usage_error("cgannotate", "%s: not found in the include folders",
                                        argv[i]);
        a->user_files = tool_grow(a->user_files, &(size_t){ a->nuser }, a->nuser + 1,
                                 sizeof *a->user_files);
        a->user_files[a->nuser++] = argv[i];
    }
    return 0;
}

/* The first callgrind.out* (else cachegrind.out*) here, as
 * callgrind_annotate takes when given no file; NULL when there is none. */
static const char *default_input(void)
{
    static const char *const pats[] = { "callgrind.out*", "cachegrind.out*" };
    for (size_t i = 0; i < 2; i++) {
        glob_t g;
        if (glob(pats[i], 0, NULL, &g) == 0 && g.gl_pathc > 0) {
            char *p = strdup(g.gl_pathv[0]);
            globfree(&g);
            return p;
        }
        globfree(&g);
    }
    return NULL;
}

/* Events by name ("A,B:PCT"): their columns into idx, the thresholds
 * into th (when th is not NULL); -1 after saying which is not in the
 * input. */
static int event_list(ann *a, const char *what, const char *list, size_t *idx, size_t *n,
                      double *th, const char **th_text, int *th_given)
{
    char *copy = strdup(list), *save = NULL;
    if (copy == NULL)
        exit(2);
    *n = 0;
    for (char *e = strtok_r(copy, ",", &save); e != NULL && *n < 64;
         e = strtok_r(NULL, ",", &save)) {
        char *colon = th ? strchr(e, ':') : NULL;
        if (colon != NULL) {
            char *t;
            *colon = '\0';
            if (percent(colon + 1, &t, &th[*n]) < 0) {
                fprintf(stderr, "cgannotate: bad threshold '%s' in --sort\n", colon + 1);
                free(copy);
                return -1;
            }
            th_text[*n] = t;
            *th_given = 1;
        } else if (th) {
            th[*n] = 0;
            th_text[*n] = "0";
        }
        size_t i = 0;
        while (i < a->ne && strcmp(a->events[i], e) != 0)
            i++;
        if (i == a->ne) {
            fprintf(stderr, "cgannotate: %s event '%s' is not in the input\n", what, e);
            free(copy);
            return -1;
        }
        idx[(*n)++] = i;
    }
    free(copy);
    return 0;
}

/* The first part's header: what is printed, the events. */
static int take_header(ann *a, const cgw_part *p)
{
    a->creator = p->creator;
    a->cmd = p->cmd;
    a->pid = p->pid;
    a->has_pid = p->has_pid;
    a->thread = p->thread;
    a->has_thread = p->has_thread;
    a->part = p->number;
    a->has_part = p->has_pid; /* Callgrind writes part: with pid: */
    tool_text d = { 0 };
    for (size_t i = 0; i < p->ndescs; i++) {
        if (strcmp(p->descs[i].type, "Option") == 0)
            continue;
        /* "TYPE: VALUE", as Callgrind writes it (with an empty VALUE too) */
        tool_addf(&d, "%s: %s\n", tool_esc(p->descs[i].type), tool_esc(p->descs[i].value));
    }
    a->descs = d.p;
    a->ne = p->nevents > 64 ? 64 : p->nevents;
    a->events = malloc((a->ne + 1) * sizeof *a->events);
    if (a->events == NULL)
        exit(2);
    for (size_t i = 0; i < a->ne; i++) {
        a->events[i] = p->events[i].name;
        a->seconds[i] = a->human ? cgw_event_seconds(p->events[i].name, p->events[i].long_name) : 0;
    }
    a->summary = ann_cc_new(a);
    int th_given = 0;
    if (a->show_arg) {
        if (event_list(a, "--show", a->show_arg, a->show, &a->nshow, NULL, NULL, NULL) < 0)
            return -1;
    } else {
        for (a->nshow = 0; a->nshow < a->ne; a->nshow++)
            a->show[a->nshow] = a->nshow;
    }
    if (a->sort_arg) {
        if (event_list(a, "--sort", a->sort_arg, a->sort, &a->nsort, a->thresholds,
                       a->threshold_texts, &th_given) < 0)
            return -1;
    } else {
        for (a->nsort = 0; a->nsort < a->ne; a->nsort++)
            a->sort[a->nsort] = a->nsort;
    }
    if (!th_given) {
        for (size_t i = 0; i < a->nsort; i++) {
            a->thresholds[i] = 0;
            a->threshold_texts[i] = "0";
        }
        if (a->nsort > 0) {
            a->thresholds[0] = a->threshold;
            a->threshold_texts[0] = a->threshold_text;
        }
    } else {
        a->threshold = 0; /* the thresholds of --sort rule */
    }
    return 0;
}

/* ------------------------------------------------------------- reading */

/* What reading keeps between records. */
typedef struct state {
    ann *a;
    size_t pwd_len;
    const char *pwd;
    const char *last_fl;   /* the fl= of the last fn= record */
    uint32_t file;         /* the file callgrind_annotate names costs by */
    uint32_t fn;           /* the function they go to; UINT32_MAX: none */
    const char *fn_name;
    uint64_t last_line;    /* the per-line CC of the last cost record */
    uint32_t last_line_file;
    size_t last_line_idx;
    int collect_lines;
    int line_pos; /* the line is position [npos - 1]; 0: there is none */
} state;

/* The file named s (the current folder stripped when strip). */
static uint32_t file_id(state *s, const char *name, int strip)
{
    ann *a = s->a;
    int fresh;
    uint32_t *v = tool_map_get(&a->file_map, (uint64_t)(uintptr_t)name, (uint64_t)strip, 0, &fresh);
    if (!fresh)
        return *v;
    const char *shown = name;
    if (strip && s->pwd_len > 0 && strncmp(name, s->pwd, s->pwd_len) == 0)
        shown = name + s->pwd_len;
    /* the same text by another way (stripped or not) is the same file */
    for (size_t i = 0; i < a->nfiles; i++) {
        if (strcmp(a->files[i].name, shown) == 0) {
            *v = (uint32_t)i;
            return *v;
        }
    }
    a->files = tool_grow(a->files, &a->files_cap, a->nfiles + 1, sizeof *a->files);
    a->files[a->nfiles] = (ann_file){ shown, name, 0, 0 };
    *v = (uint32_t)a->nfiles++;
    return *v;
}

static uint32_t fn_id(ann *a, uint32_t file, const char *name)
{
    int fresh;
    uint32_t *v = tool_map_get(&a->fn_map, file, (uint64_t)(uintptr_t)name, 0, &fresh);
    if (!fresh)
        return *v;
    a->fns = tool_grow(a->fns, &a->fns_cap, a->nfns + 1, sizeof *a->fns);
    ann_fn *f = &a->fns[a->nfns];
    memset(f, 0, sizeof *f);
    f->file = file;
    f->name = name;
    f->cc = ann_cc_new(a);
    *v = (uint32_t)a->nfns++;
    return *v;
}

/* The call from caller to callee (at line, when lcall) in its table. */
static ann_call *call_of(ann *a, int lcall, uint32_t caller, uint32_t callee, uint32_t file,
                         uint64_t line)
{
    int fresh;
    tool_map *m = lcall ? &a->lcall_map : &a->edge_map;
    uint32_t *v = tool_map_get(m, ((uint64_t)caller << 32) | callee, lcall ? line : 0, 0, &fresh);
    ann_call **arr = lcall ? &a->lcalls : &a->edges;
    size_t *n = lcall ? &a->nlcalls : &a->nedges, *cap = lcall ? &a->lcalls_cap : &a->edges_cap;
    if (fresh) {
        ann_cc cc = ann_cc_new(a);
        *arr = tool_grow(*arr, cap, *n + 1, sizeof **arr);
        (*arr)[*n] = (ann_call){ caller, callee, file, line, 0, cc };
        *v = (uint32_t)(*n)++;
    }
    return &(*arr)[*v];
}

static void on_function(state *s, const cgw_record *rec)
{
    ann *a = s->a;
    /* Callgrind writes fl= only when the file changes: until then the
     * file of a fi= before stays callgrind_annotate's current one */
    if (rec->file != s->last_fl) {
        s->last_fl = rec->file;
        s->file = file_id(s, rec->file, 1);
        a->files[s->file].current = 1;
    }
    s->fn_name = rec->function;
    s->fn = fn_id(a, s->file, rec->function);
    ann_fn *f = &a->fns[s->fn];
    f->obj = rec->object ? rec->object : "";
    f->has_obj = 1;
    f->listed = 1;
}

static void on_inline(state *s, const cgw_record *rec)
{
    s->file = file_id(s, rec->source_file, 1);
    s->a->files[s->file].current = 1;
    s->fn = fn_id(s->a, s->file, s->fn_name);
    s->a->fns[s->fn].listed = 1;
}

static uint64_t line_of(const state *s, const cgw_record *rec)
{
    return s->line_pos ? rec->pos[s->line_pos - 1] : 0;
}

/* Whether the costs of file's lines are kept: only where a source file
 * of that name opens in an include folder (or it is one given), as no
 * other is annotated. */
static int keep_lines(ann *a, uint32_t file)
{
    ann_file *f = &a->files[file];
    if (f->found == 0) {
        f->found = -1;
        for (size_t i = 0; i < a->nuser && f->found < 0; i++)
            if (strcmp(a->user_files[i], f->name) == 0)
                f->found = 1;
        for (size_t k = 0; k < a->nincludes && f->found < 0 && a->auto_annotate; k++) {
            size_t n = strlen(a->includes[k]) + strlen(f->name) + 1;
            char *p = malloc(n);
            if (p == NULL)
                exit(2);
            snprintf(p, n, "%s%s", a->includes[k], f->name);
            /* the rule the annotation opens it by: a FIFO is not one */
            tool_source src;
            if (tool_source_open(&src, NULL, p) == 0) {
                tool_source_close(&src);
                f->found = 1;
            }
            free(p);
        }
    }
    return f->found > 0;
}

static void on_cost(state *s, const cgw_record *rec)
{
    ann *a = s->a;
    cc_add(a, a->fns[s->fn].cc, rec->costs);
    if (!s->collect_lines || !keep_lines(a, s->file))
        return;
    uint64_t line = line_of(s, rec);
    if (s->last_line_idx == SIZE_MAX || line != s->last_line || s->file != s->last_line_file) {
        int fresh;
        uint32_t *v = tool_map_get(&a->line_map, s->file, line, 0, &fresh);
        if (fresh) {
            ann_cc cc = ann_cc_new(a);
            a->lines = tool_grow(a->lines, &a->lines_cap, a->nlines + 1, sizeof *a->lines);
            a->lines[a->nlines] = (ann_line){ s->file, line, cc };
            *v = (uint32_t)a->nlines++;
        }
        s->last_line = line;
        s->last_line_file = s->file;
        s->last_line_idx = *v;
    }
    cc_add(a, a->lines[s->last_line_idx].cc, rec->costs);
}

/* A call of any count, calls=0 too (Callgrind writes one for a call
 * still running at a dump): its costs are the callee's, never the
 * caller's self cost. */
static void on_call(state *s, const cgw_record *rec)
{
    ann *a = s->a;
    const char *cfile = rec->target.file ? rec->target.file : "???";
    /* a callee in the caller's file is named as the caller's; a cfi=
     * name is not stripped of the current folder */
    uint32_t file = cfile == a->files[s->file].orig ? s->file : file_id(s, cfile, 0);
    uint32_t callee = fn_id(a, file, rec->target.function);
    ann_call *e = call_of(a, 0, s->fn, callee, s->file, 0);
    cc_add(a, e->cc, rec->costs);
    e->count += rec->count;
    if (s->collect_lines && keep_lines(a, s->file)) {
        e = call_of(a, 1, s->fn, callee, s->file, line_of(s, rec));
        cc_add(a, e->cc, rec->costs);
        e->count += rec->count;
    }
    ann_fn *f = &a->fns[callee];
    if (!f->has_incl) {
        f->incl = ann_cc_new(a);
        f = &a->fns[callee];
        f->has_incl = 1;
    }
    cc_add(a, f->incl, rec->costs);
    if (a->inclusive)
        cc_add(a, a->fns[s->fn].cc, rec->costs);
}

/* A part's totals as callgrind_annotate takes them: its summary: line,
 * else its totals: line, else (not zero) the sum of its cost lines;
 * added to the program's. */
static void on_part_end(state *s, const cgw_record *rec)
{
    ann *a = s->a;
    const uint64_t *t = rec->summary;
    int zero = 1;
    for (size_t i = 0; t && i < a->ne; i++)
        zero &= t[i] == 0;
    if (zero) {
        t = rec->totals_line;
        zero = 1;
        for (size_t i = 0; t && i < a->ne; i++)
            zero &= t[i] == 0;
    }
    if (zero) {
        t = rec->costs;
        a->calculated = 1;
    }
    uint64_t *v = ann_v(a, a->summary);
    for (size_t i = 0; i < a->ne; i++)
        v[i] += t[i];
    v[a->ne] = a->ne;
    s->last_fl = NULL;
}

/* Read the input into a's sums: 0, -1 (errors in the input, read
 * anyway), 1 or 2.  *rp is the reader, whose names the sums hold: to be
 * closed after printing. */
static int read_input(ann *a, cgw_reader **rp)
{
    uint64_t errors = 0;
    tool_diag_ctx d = { "cgannotate", a->input, &errors };
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_MAP,
                            .diag = tool_diag_errors, .diag_ctx = &d,
                            .skip = CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP) };
    tool_reading(a->input);
    cgw_reader *r = tool_progress_open(a->input, &ro);
    if (r == NULL) {
        tool_progress_end();
        fprintf(stderr, "cgannotate: %s: %s\n", a->input, strerror(errno));
        return 2;
    }
    state s = { .a = a, .fn = UINT32_MAX, .last_line_idx = SIZE_MAX,
                .collect_lines = a->auto_annotate || a->nuser > 0 };
    char *pwd = getcwd(NULL, 0);
    tool_text p = { 0 };
    if (pwd != NULL)
        tool_addf(&p, "%s/", pwd);
    free(pwd);
    s.pwd = p.p;
    s.pwd_len = p.len;
    const cgw_record *rec;
    cgw_status st;
    int rc = 0;
    while (rc == 0 && (st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        switch (rec->kind) {
        case CGW_REC_PART:
            if (rec->part->index == 1 && take_header(a, rec->part) < 0) {
                rc = 1;
            } else if (rec->part->nevents != a->ne) {
                fprintf(stderr, "cgannotate: %s: part %u has other events than part 1\n",
                        a->input, rec->part->index);
                rc = 1;
            }
            s.line_pos = (rec->part->positions & CGW_POS_LINE) ? (int)rec->part->npos : 0;
            break;
        case CGW_REC_FUNCTION: on_function(&s, rec); break;
        case CGW_REC_INLINE: on_inline(&s, rec); break;
        case CGW_REC_COST: on_cost(&s, rec); break;
        case CGW_REC_CALL: on_call(&s, rec); break;
        case CGW_REC_PART_END: on_part_end(&s, rec); break;
        default: break;
        }
    }
    tool_progress_end();
    if (rc == 0 && st != CGW_OK) {
        fprintf(stderr, "cgannotate: %s: %s\n", a->input, tool_words(cgw_reader_errmsg(r)));
        rc = 2;
    }
    *rp = r;
    if (rc == 0 && a->events == NULL) {
        fprintf(stderr, "cgannotate: %s: no profile in it\n", a->input);
        rc = 1;
    }
    free(p.p);
    /* names stay valid until the reader is closed: it is left open */
    if (rc == 0 && errors > 0)
        rc = -1;
    return rc;
}

int main(int argc, char **argv)
{
    static const char *first_include = "";
    /* static: what it holds lives until the exit, reachable */
    static ann a = { .show_percs = 1, .auto_annotate = 1, .context = 8, .threshold_text = "99",
                     .threshold = 99 };
    a.out = stdout;
    a.includes = tool_grow(NULL, &(size_t){ 0 }, 1, sizeof *a.includes);
    a.includes[a.nincludes++] = first_include;
    int rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc - 1;
    tool_catch_sigbus("cgannotate");
    if (a.input == NULL) {
        if ((a.input = default_input()) == NULL)
            return tool_usage_error("cgannotate", "no input, and no callgrind.out* here");
        printf("Reading data from '%s'...\n", a.input);
    }
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    cgw_reader *r = NULL;
    rc = read_input(&a, &r);
    if (rc <= 0)
        ann_print(&a);
    tool_progress_close(r);
    if (rc > 0)
        return rc;
    if (a.io_error)
        rc = 2;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cgannotate: writing: %s\n", strerror(errno));
        return 2;
    }
    return rc == 2 ? 2 : rc < 0 ? 1 : 0;
}
