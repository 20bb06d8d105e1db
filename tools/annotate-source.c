/* SPDX-License-Identifier: MIT */
/* annotate-source.c - cgannotate's annotated source files, laid out as
 * callgrind_annotate 3.19 lays them out: the lines with costs and those
 * within --context of them, the calls made at each, lines past the end
 * of the file, costs of no line, and the events annotated in all. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgannotate.h"

static const char fancy[] =
    "--------------------------------------------------------------------------------\n";
static const char at_line[] =
    "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n";
static const char at_warning[] =
    "@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n";


static const ann *sort_ann;

static int cmp_line(const void *p, const void *q)
{
    const ann_line *x = *(ann_line *const *)p, *y = *(ann_line *const *)q;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Calls by line, then in the order they were read. */
static int cmp_lcall(const void *p, const void *q)
{
    const ann_call *x = *(ann_call *const *)p, *y = *(ann_call *const *)q;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The calls of one caller at one line by the costs of all its calls to
 * each callee (callgrind_annotate's order), names breaking ties. */
static int cmp_by_edge(const void *p, const void *q)
{
    const ann *a = sort_ann;
    const ann_call *x = *(ann_call *const *)p, *y = *(ann_call *const *)q;
    int fresh;
    uint32_t ex = *tool_map_get((tool_map *)&a->edge_map, ((uint64_t)x->caller << 32) | x->callee,
                               0, 0, &fresh);
    uint32_t ey = *tool_map_get((tool_map *)&a->edge_map, ((uint64_t)y->caller << 32) | y->callee,
                               0, 0, &fresh);
    int c = ann_cmp_cc(a, a->edges[ex].cc, a->edges[ey].cc);
    return c ? c : strcmp(a->fns[x->callee].full, a->fns[y->callee].full);
}

static void warn_newer(const ann *a, const char *src)
{
    fprintf(a->out, "%s%s%s@ Source file '%s' is more recent than input file '%s'.\n"
            "@ Annotations may not be correct.\n%s\n",
            at_line, at_warning, at_line, src, a->input, at_line);
}

static void warn_past_end(const ann *a, int newer, const char *src)
{
    size_t n = strlen(src);
    fprintf(a->out, "%s%s%s@@\n@@ Information recorded about lines past the end of '%s'.\n"
            "@@\n@@ Probable cause and solution:\n", at_line, at_warning, at_line, src);
    if (newer)
        fprintf(a->out, "@@ cause:    '%s' has changed since information was gathered.\n"
                "@@           If so, a warning will have already been issued about this.\n"
                "@@ solution: Recompile program and rerun under \"valgrind --cachesim=yes\" to \n"
                "@@           gather new information.\n", src);
    else if (n >= 2 && strcmp(src + n - 2, ".h") == 0)
        fputs("@@ cause:    bug in the Valgrind's debug info reader that screws up with .h\n"
              "@@           files sometimes\n@@ solution: none, sorry\n", a->out);
    else
        fputs("@@ cause:    not sure, sorry\n", a->out);
    fprintf(a->out, "@@\n%s", at_line);
}

/* The next line of s (its text in s->line): 0 at the end or after a
 * read error (said, and the exit status made 2). */
static int next_line(ann *a, tool_source *s, ssize_t *len)
{
    int got = tool_source_line(s);
    if (got < 0)
        a->io_error = 1;
    *len = got > 0 ? (ssize_t)s->len : -1;
    return got > 0;
}

/* The calls made at line dot by the first function that made one there. */
static void put_line_calls(const ann *a, ann_call **calls, size_t n, size_t *at, long dot,
                           const size_t *w)
{
    while (*at < n && calls[*at]->line < (uint64_t)dot)
        (*at)++;
    size_t from = *at, to = from;
    while (to < n && calls[to]->line == (uint64_t)dot)
        to++;
    if (from == to)
        return;
    uint32_t first = calls[from]->caller;
    ann_call **mine = malloc((to - from) * sizeof *mine);
    size_t m = 0;
    if (mine == NULL)
        exit(2);
    for (size_t k = from; k < to; k++)
        if (calls[k]->caller == first)
            mine[m++] = calls[k];
    sort_ann = a;
    qsort(mine, m, sizeof *mine, cmp_by_edge);
    for (size_t k = 0; k < m; k++) {
        char count[32];
        ann_commify(mine[k]->count, count);
        ann_put_cc(a, &mine[k]->cc, w);
        fprintf(a->out, " => %s (%sx)\n", tool_esc(a->fns[mine[k]->callee].full), count);
    }
    free(mine);
}

/* One source file, open on in, with its costs lines[0..n) (by line) and
 * the calls made in it; printed totals added to printed. */
static void annotate_file(ann *a, tool_source *s, const char *name, int newer, ann_line **lines,
                          size_t n, ann_call **calls, size_t ncalls, ann_cc printed)
{
    size_t w[64];
    ann_cc *ccs = malloc((n + 1) * sizeof *ccs);
    if (ccs == NULL)
        exit(2);
    for (size_t i = 0; i < n; i++)
        ccs[i] = lines[i]->cc;
    ann_widths(a, ccs, n, w);
    free(ccs);
    ann_put_events(a, w);
    fputs("\n\n", a->out);
    ann_line *zero = n > 0 && lines[0]->line == 0 ? lines[0] : NULL;
    size_t li = zero ? 1 : 0, at = 0;
    long c = a->context;
    /* the ranges: every line with a cost, and the context around it */
    size_t npairs = 0;
    long *pairs = malloc(2 * (n + 1) * sizeof *pairs);
    if (pairs == NULL)
        exit(2);
    for (size_t i = li; i < n; i++) {
        pairs[npairs++] = (long)lines[i]->line - c;
        while (i + 1 < n && (long)lines[i]->line + 2 * c >= (long)lines[i + 1]->line)
            i++;
        pairs[npairs++] = (long)lines[i]->line + c;
    }
    if (npairs > 0 && pairs[0] < 1)
        pairs[0] = 1;
    ssize_t len;
    for (size_t p = 0; p < npairs; p += 2) {
        long low = pairs[p], high = pairs[p + 1];
        while ((long)s->dot < low - 1 && next_line(a, s, &len))
            ;
        if (low != 1)
            fprintf(a->out, "-- line %ld ----------------------------------------\n", low);
        int ok = 0;
        while ((long)s->dot < high) {
            if (!(ok = next_line(a, s, &len)))
                break;
            if (li < n && lines[li]->line == s->dot) {
                ann_put_cc(a, &lines[li]->cc, w);
                uint64_t *t = ann_v(a, printed), *v = ann_v(a, lines[li]->cc);
                for (size_t i = 0; i < v[a->ne]; i++)
                    t[i] += v[i];
                if (t[a->ne] < v[a->ne])
                    t[a->ne] = v[a->ne];
                li++;
            } else {
                ann_put_cc(a, NULL, w);
            }
            fputc(' ', a->out);
            fwrite(s->line, 1, (size_t)len, a->out);
            put_line_calls(a, calls, ncalls, &at, (long)s->dot, w);
        }
        /* Perl's truth of the last line read */
        if (ok && !(len == 0 || (len == 1 && s->line[0] == '0')))
            fprintf(a->out, "-- line %ld ----------------------------------------\n", high);
        else
            break;
    }
    free(pairs);
    if (li < n) {
        for (size_t i = li; i < n; i++) {
            ann_put_cc(a, &lines[i]->cc, w);
            fprintf(a->out, " <bogus line %" PRIu64 ">\n", lines[i]->line);
        }
        fputs("\n", a->out);
        warn_past_end(a, newer, tool_esc(name));
    }
    fputs("\n", a->out);
    if (zero) {
        ann_put_cc(a, &zero->cc, w);
        fprintf(a->out, " <counts for unidentified lines in %s>\n\n", tool_esc(name));
    }
}

static int cmp_str(const void *p, const void *q)
{
    return strcmp(*(char *const *)p, *(char *const *)q);
}

/* The file named name among those read (the current file at some
 * point), or -1. */
static long find_file(const ann *a, const char *name)
{
    for (size_t f = 0; f < a->nfiles; f++)
        if (a->files[f].current && strcmp(a->files[f].name, name) == 0)
            return (long)f;
    return -1;
}

/* Open name in the first include folder that has it as a regular file
 * (tool_source_open()). */
static int open_source(const ann *a, const char *name, tool_source *s, char **opened,
                       char **shown)
{
    for (size_t k = 0; k < a->nincludes; k++) {
        size_t n = strlen(a->includes[k]) + strlen(name) + 4;
        char *p = malloc(n), *q = malloc(n);
        if (p == NULL || q == NULL)
            exit(2);
        snprintf(p, n, "%s%s", a->includes[k], name);
        snprintf(q, n, k == 0 ? "%s%s" : "%s + %s", a->includes[k], name);
        if (tool_source_open(s, "cgannotate", p) == 0) {
            s->path = *opened = p;
            *shown = k == 0 ? strcpy(q, name) : q;
            return 0;
        }
        free(p);
        free(q);
    }
    return -1;
}

static int is_user(const ann *a, const char *name)
{
    for (size_t i = 0; i < a->nuser; i++)
        if (strcmp(a->user_files[i], name) == 0)
            return 1;
    return 0;
}

/* The source files: those given, and those of the functions shown
 * (shown_files[f]) with --auto=yes, in the order of their names. */
void ann_print_source(ann *a, const char *shown_files)
{
    size_t nnames = 0, nunfound = 0;
    const char **names = malloc((a->nfiles + a->nuser + 1) * sizeof *names);
    const char **unfound = malloc((a->nfiles + a->nuser + 1) * sizeof *unfound);
    if (names == NULL || unfound == NULL)
        exit(2);
    for (size_t i = 0; i < a->nuser; i++)
        names[nnames++] = a->user_files[i];
    for (size_t f = 0; a->auto_annotate && f < a->nfiles; f++)
        if (shown_files[f] && !is_user(a, a->files[f].name))
            names[nnames++] = a->files[f].name;
    qsort(names, nnames, sizeof *names, cmp_str);
    ann_cc printed = ann_cc_new(a);
    int did = 0;
    struct stat in_st;
    int have_in_st = stat(a->input, &in_st) == 0;
    for (size_t k = 0; k < nnames; k++) {
        if (k > 0 && strcmp(names[k], names[k - 1]) == 0)
            continue;
        char *opened, *shown;
        tool_source s;
        if (open_source(a, names[k], &s, &opened, &shown) < 0) {
            unfound[nunfound++] = names[k];
            continue;
        }
        fprintf(a->out, "%s-- %s-annotated source: %s\n%s", fancy,
                is_user(a, names[k]) ? "User" : "Auto", tool_esc(shown), fancy);
        long f = find_file(a, names[k]);
        if (f < 0) {
            fprintf(a->out, "  No information has been collected for %s\n\n",
                    tool_esc(names[k]));
        } else {
            did = 1;
            struct stat st;
            int newer = have_in_st && stat(opened, &st) == 0 && st.st_mtime > in_st.st_mtime;
            if (newer)
                warn_newer(a, tool_esc(names[k]));
            size_t n = 0, nc = 0;
            ann_line **lines = malloc((a->nlines + 1) * sizeof *lines);
            ann_call **calls = malloc((a->nlcalls + 1) * sizeof *calls);
            if (lines == NULL || calls == NULL)
                exit(2);
            for (size_t i = 0; i < a->nlines; i++)
                if (a->lines[i].file == (uint32_t)f)
                    lines[n++] = &a->lines[i];
            for (size_t i = 0; i < a->nlcalls; i++)
                if (a->lcalls[i].file == (uint32_t)f)
                    calls[nc++] = &a->lcalls[i];
            qsort(lines, n, sizeof *lines, cmp_line);
            qsort(calls, nc, sizeof *calls, cmp_lcall);
            annotate_file(a, &s, names[k], newer, lines, n, calls, nc, printed);
            free(lines);
            free(calls);
        }
        tool_source_close(&s);
        free(opened);
        free(shown);
    }
    if (nunfound > 0) {
        fprintf(a->out, "%sThe following files chosen for auto-annotation could not be found:\n%s",
                fancy, fancy);
        for (size_t i = 0; i < nunfound; i++)
            fprintf(a->out, "  %s\n", tool_esc(unfound[i]));
        fputs("\n", a->out);
    }
    if (did) {
        uint64_t *sum = ann_v(a, a->summary), *t = ann_v(a, printed);
        for (size_t i = 0; i < sum[a->ne]; i++) {
            int def = i < t[a->ne];
            if (sum[i] == 0 || (def && t[i] > sum[i]))
                sum[i] = def ? t[i] : 0;
        }
        size_t w[64];
        ann_widths(a, &printed, 1, w);
        fputs(fancy, a->out);
        ann_put_events(a, w);
        fprintf(a->out, "\n%s", fancy);
        ann_put_cc(a, &printed, w);
        fputs(" events annotated\n\n", a->out);
    }
    free(names);
    free(unfound);
}
