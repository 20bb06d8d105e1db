/* SPDX-License-Identifier: MIT */
/* cgannotate.h - what cgannotate's reading (cgannotate.c) and printing
 * (annotate-print.c) share: the sums callgrind_annotate keeps, kept in
 * flat arrays indexed by number and found through tool_map (toolutil.h).
 * Not installed. */
#ifndef CGW_CGANNOTATE_H
#define CGW_CGANNOTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "toolutil.h"

/* A cost vector (CC) is ne + 1 words of the pool: the sums, then how
 * many of the first columns are defined (a column no line wrote is "."
 * as callgrind_annotate prints it).  A CC is its offset in the pool. */
typedef size_t ann_cc;

typedef struct ann_file {
    const char *name; /* as printed: the current folder stripped */
    const char *orig; /* as the profile names it */
    int current;      /* costs were named by it (a fl=, fi= or fe=) */
    int found;        /* 0 unknown, 1 a source file of it opens, -1 none */
} ann_file;

typedef struct ann_fn {
    uint32_t file;
    const char *name;
    const char *obj; /* the ob= of its last fn= line */
    int has_obj;     /* it had a fn= line (callee names may have none) */
    int has_incl;    /* it was called: incl holds the calls' costs */
    int listed;      /* costs were named by it: in the table */
    ann_cc cc, incl;
    char *full; /* "file:function" */
} ann_fn;

/* A call edge, summed over the profile, and one at a source line (line
 * is then the line, file the caller's file as callgrind_annotate names
 * it). */
typedef struct ann_call {
    uint32_t caller, callee, file;
    uint64_t line, count;
    ann_cc cc;
} ann_call;

typedef struct ann_line {
    uint32_t file;
    uint64_t line;
    ann_cc cc;
} ann_line;

/* Everything: options, header, sums. */
typedef struct ann {
    /* options */
    int inclusive, tree_caller, tree_calling, show_percs, auto_annotate;
    int human; /* --units=human: time events' costs in ns, us, ms, s */
    long context;
    const char *threshold_text; /* as given, for the Thresholds: line */
    double threshold;
    char *sort_arg, *show_arg;
    const char **includes; /* "" then each DIR/ */
    size_t nincludes;
    char **user_files;
    size_t nuser;
    const char *input;
    /* the first part's header */
    const char *creator, *cmd;
    uint64_t pid, thread, part;
    int has_pid, has_thread, has_part;
    char *descs; /* "TYPE: VALUE\n" each */
    const char **events;
    size_t ne;
    size_t show[64], nshow, sort[64], nsort;
    double thresholds[64];
    double seconds[64]; /* a count of each event, 0 when not a time */
    const char *threshold_texts[64];
    /* the sums */
    uint64_t *pool;
    size_t pool_len, pool_cap;
    ann_cc summary;
    int calculated; /* a part had neither summary: nor totals: */
    ann_file *files;
    size_t nfiles, files_cap;
    ann_fn *fns;
    size_t nfns, fns_cap;
    ann_call *edges, *lcalls;
    size_t nedges, edges_cap, nlcalls, lcalls_cap;
    ann_line *lines;
    size_t nlines, lines_cap;
    tool_map file_map, fn_map, edge_map, lcall_map, line_map;
    FILE *out;
    int io_error; /* a source file could not be read: exit 2 */
} ann;

/* annotate-columns.c: a new CC of ne zeros, none defined. */
ann_cc ann_cc_new(ann *a);
static inline uint64_t *ann_v(const ann *a, ann_cc cc)
{
    return a->pool + cc;
}
static inline uint64_t ann_ndef(const ann *a, ann_cc cc)
{
    return a->pool[cc + a->ne];
}

/* annotate-print.c: the whole report on a->out. */
void ann_print(ann *a);
/* annotate-columns.c: counts with commas (the length), a CC's columns
 * (NULL: none defined), the events' names over them, the widths of the
 * columns of ccs[0..n), callgrind_annotate's order of two CCs. */
size_t ann_commify(uint64_t n, char *out);
size_t ann_count(const ann *a, size_t event, uint64_t n, char *out);
void ann_put_cc(const ann *a, const ann_cc *cc, const size_t *w);
void ann_put_events(const ann *a, const size_t *w);
void ann_widths(const ann *a, const ann_cc *ccs, size_t n, size_t *w);
int ann_cmp_cc(const ann *a, ann_cc x, ann_cc y);

/* annotate-source.c: the annotated source files. */
void ann_print_source(ann *a, const char *shown_files);

#endif
