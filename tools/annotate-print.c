/* SPDX-License-Identifier: MIT */
/* annotate-print.c - cgannotate's report in callgrind_annotate's layout
 * (version 3.19): the options, the program totals, the functions
 * (with their callers and callees), the annotated source files.  Its
 * widths, number formats and thresholds are callgrind_annotate's, so
 * that scripts reading that report read this one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgannotate.h"

static const char fancy[] =
    "--------------------------------------------------------------------------------\n";

static void print_options(const ann *a)
{
    FILE *o = a->out;
    fputs(fancy, o);
    fprintf(o, "Profile data file '%s'", a->input);
    if (a->creator && a->creator[0])
        fprintf(o, " (creator: %s)", tool_esc(a->creator));
    fprintf(o, "\n%s%s", fancy, a->descs ? a->descs : "");
    fprintf(o, "Profiled target:  %s", a->cmd && a->cmd[0] ? tool_esc(a->cmd) : "(unknown)");
    if (a->has_pid) {
        fprintf(o, " (PID %" PRIu64, a->pid);
        if (a->has_part)
            fprintf(o, ", part %" PRIu64, a->part);
        if (a->has_thread)
            fprintf(o, ", thread %" PRIu64, a->thread);
        fputs(")", o);
    }
    fputs("\nEvents recorded: ", o);
    for (size_t i = 0; i < a->ne; i++)
        fprintf(o, " %s", tool_esc(a->events[i]));
    fputs("\nEvents shown:    ", o);
    for (size_t i = 0; i < a->nshow; i++)
        fprintf(o, " %s", tool_esc(a->events[a->show[i]]));
    fputs("\nEvent sort order:", o);
    for (size_t i = 0; i < a->nsort; i++)
        fprintf(o, " %s", tool_esc(a->events[a->sort[i]]));
    fputs("\nThresholds:      ", o);
    for (size_t i = 0; i < a->nsort; i++)
        fprintf(o, " %s", a->threshold_texts[i]);
    fprintf(o, "\nInclude dirs:     %s\n", a->nincludes > 1 ? a->includes[1] : "");
    for (size_t i = 2; i < a->nincludes; i++)
        fprintf(o, "                  %s\n", a->includes[i]);
    fprintf(o, "User annotated:   %s\n", a->nuser > 0 ? a->user_files[0] : "");
    for (size_t i = 1; i < a->nuser; i++)
        fprintf(o, "                  %s\n", a->user_files[i]);
    fprintf(o, "Auto-annotation:  %s\n\n", a->auto_annotate ? "on" : "off");
}

/* ------------------------------------------------- sorting by the events */

static const ann *sort_ann; /* qsort() has no context */

static int cmp_fn(const void *p, const void *q)
{
    const ann_fn *f = &sort_ann->fns[*(const uint32_t *)p], *g = &sort_ann->fns[*(const uint32_t *)q];
    int c = ann_cmp_cc(sort_ann, f->cc, g->cc);
    return c ? c : strcmp(f->full, g->full);
}

/* Calls by their costs; the names break ties (callgrind_annotate leaves
 * them in its hash's order). */
static int cmp_call_by(const void *p, const void *q, int callee)
{
    const ann_call *x = *(ann_call *const *)p, *y = *(ann_call *const *)q;
    int c = ann_cmp_cc(sort_ann, x->cc, y->cc);
    if (c)
        return c;
    return strcmp(sort_ann->fns[callee ? x->callee : x->caller].full,
                  sort_ann->fns[callee ? y->callee : y->caller].full);
}
static int cmp_caller(const void *p, const void *q)
{
    return cmp_call_by(p, q, 0);
}
static int cmp_callee(const void *p, const void *q)
{
    return cmp_call_by(p, q, 1);
}

/* --------------------------------------------------------- the functions */

/* The calls into (callee side 1: out of) each function, as lists. */
typedef struct call_lists {
    size_t *start; /* the calls of function f: list[start[f]..start[f + 1]) */
    ann_call **list;
} call_lists;

static void index_calls(ann *a, call_lists *l, int out)
{
    l->start = calloc(a->nfns + 1, sizeof *l->start);
    l->list = malloc((a->nedges + 1) * sizeof *l->list);
    if (l->start == NULL || l->list == NULL)
        exit(2);
    for (size_t k = 0; k < a->nedges; k++)
        l->start[(out ? a->edges[k].caller : a->edges[k].callee) + 1]++;
    for (size_t f = 0; f < a->nfns; f++)
        l->start[f + 1] += l->start[f];
    size_t *at = malloc((a->nfns + 1) * sizeof *at);
    if (at == NULL)
        exit(2);
    memcpy(at, l->start, (a->nfns + 1) * sizeof *at);
    for (size_t k = 0; k < a->nedges; k++)
        l->list[at[out ? a->edges[k].caller : a->edges[k].callee]++] = &a->edges[k];
    free(at);
}

static void put_calls(const ann *a, const call_lists *l, uint32_t f, int out, const size_t *w)
{
    ann_call **list = l->list + l->start[f];
    size_t n = l->start[f + 1] - l->start[f];
    qsort(list, n, sizeof *list, out ? cmp_callee : cmp_caller);
    for (size_t k = 0; k < n; k++) {
        const ann_fn *g = &a->fns[out ? list[k]->callee : list[k]->caller];
        char count[32];
        ann_commify(list[k]->count, count);
        ann_put_cc(a, &list[k]->cc, w);
        fprintf(a->out, out ? " >   %s (%sx)" : " < %s (%sx)", tool_esc(g->full), count);
        if (g->has_obj)
            fprintf(a->out, " [%s]", tool_esc(g->obj));
        fputs("\n", a->out);
    }
}

/* The file of a function's name: up to its first ':' that has something
 * after it (as callgrind_annotate's s/:.+$//). */
static size_t file_part(const char *full)
{
    const char *c = strchr(full, ':');
    while (c != NULL && c[1] == '\0')
        c = NULL;
    return c ? (size_t)(c - full) : strlen(full);
}

/* The functions sorted, up to the thresholds; the files of those shown
 * are marked in shown_files. */
static void print_functions(ann *a, char *shown_files)
{
    FILE *o = a->out;
    size_t w[64], sw[64];
    ann_cc *ccs = malloc((a->nfns + 1) * sizeof *ccs);
    uint32_t *order = malloc((a->nfns + 1) * sizeof *order);
    if (ccs == NULL || order == NULL)
        exit(2);
    size_t n = 0;
    for (size_t f = 0; f < a->nfns; f++) {
        /* callgrind_annotate's table: the functions costs were named by,
         * and with --inclusive=yes those called */
        if (!a->fns[f].listed && !(a->inclusive && a->fns[f].has_incl))
            continue;
        ccs[n] = a->fns[f].cc;
        order[n++] = (uint32_t)f;
    }
    ann_widths(a, &a->summary, 1, sw);
    ann_widths(a, ccs, n, w);
    fputs(fancy, o);
    ann_put_events(a, sw);
    fprintf(o, "\n%s", fancy);
    ann_put_cc(a, &a->summary, sw);
    fprintf(o, " PROGRAM TOTALS%s\n\n", a->calculated ? " (calculated)" : "");
    fputs(fancy, o);
    ann_put_events(a, w);
    fprintf(o, " file:function\n%s", fancy);
    sort_ann = a;
    qsort(order, n, sizeof *order, cmp_fn);
    call_lists in = { 0 }, out = { 0 };
    if (a->tree_caller)
        index_calls(a, &in, 0);
    if (a->tree_calling)
        index_calls(a, &out, 1);
    const uint64_t *sum = ann_v(a, a->summary);
    double cur[64] = { 0 };
    for (size_t k = 0; k < n; k++) {
        const ann_fn *f = &a->fns[order[k]];
        if (a->threshold < 100) {
            int all = 1;
            for (size_t i = 0; i < a->nsort; i++) {
                size_t e = a->sort[i];
                double prop = cur[i] * 100;
                if (e < sum[a->ne] && sum[e] > 0)
                    prop /= (double)sum[e];
                all &= prop >= a->thresholds[i];
            }
            if (all)
                break;
        }
        int tree = a->tree_caller || a->tree_calling;
        int unknown = strcmp(f->full, "???:???") == 0;
        if (tree)
            fputs("\n", o);
        if (a->tree_caller && !unknown)
            put_calls(a, &in, order[k], 0, w);
        ann_put_cc(a, &f->cc, w);
        fprintf(o, "%s %s", tree ? " * " : "", tool_esc(f->full));
        if (f->has_obj && f->obj[0] != '\0')
            fprintf(o, " [%s]", tool_esc(f->obj));
        fputs("\n", o);
        if (a->tree_calling && !unknown)
            put_calls(a, &out, order[k], 1, w);
        shown_files[f->file] = 1;
        const uint64_t *v = ann_v(a, f->cc);
        for (size_t i = 0; i < a->nsort; i++) {
            size_t e = a->sort[i];
            if (e >= v[a->ne])
                continue;
            if (a->inclusive)
                cur[i] = (double)(int64_t)(sum[e] - v[e]);
            else
                cur[i] += (double)v[e];
        }
    }
    fputs("\n", o);
    free(in.start);
    free(in.list);
    free(out.start);
    free(out.list);
    free(ccs);
    free(order);
}



void ann_print(ann *a)
{
    /* the names, and the inclusive costs in place of the self ones */
    for (size_t f = 0; f < a->nfns; f++) {
        ann_fn *fn = &a->fns[f];
        const char *file = a->files[fn->file].name;
        size_t n = strlen(file) + strlen(fn->name) + 2;
        if ((fn->full = malloc(n)) == NULL)
            exit(2);
        snprintf(fn->full, n, "%s:%s", file, fn->name);
        if (a->inclusive && fn->has_incl)
            fn->cc = fn->incl;
    }
    print_options(a);
    char *shown = calloc(a->nfiles + 1, 1);
    if (shown == NULL)
        exit(2);
    /* the file of a function is the text before the first ':' of its
     * name: the files named so (callgrind_annotate's threshold files) */
    print_functions(a, shown);
    for (size_t f = 0; f < a->nfiles; f++) {
        const char *name = a->files[f].name;
        if (shown[f] && (file_part(name) != strlen(name) || strcmp(name, "???") == 0))
            shown[f] = 0; /* one with a ':' in it is cut there: not found */
    }
    ann_print_source(a, shown);
    free(shown);
}
