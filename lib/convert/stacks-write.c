/* SPDX-License-Identifier: MIT */
/* stacks-write.c - a cgw_stacks written through a writer: one block a
 * function, in the order the functions first came, with its self costs
 * by line, then its calls by callee and line.  A function is written
 * under its own name, object and file: its fl= and ob= tell it from
 * another of its name (malloc in two objects, __init__ in two files).
 * It is never renamed because of the other functions of the stacks, so
 * its name is the same in every part and every run (issue 52).  Only
 * when the writer was opened with CGW_QUALIFY_NAMES is each function with
 * an object or file named "NAME [OBJECT] (FILE)", for readers such as
 * gprof2dot that merge functions by name alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

static const char CALL[] = "cgw_stacks_write";

/* Self costs first, then calls by callee; each by line and event. */
static int cmp_cells(const void *pa, const void *pb)
{
    const cgwc_cell *left = pa, *right = pb;
    if (left->fn != right->fn)
        return left->fn < right->fn ? -1 : 1;
    if (left->callee != right->callee) {
        if (left->callee == CGWC_NONE || right->callee == CGWC_NONE)
            return left->callee == CGWC_NONE ? -1 : 1;
        return left->callee < right->callee ? -1 : 1;
    }
    if (left->fi != right->fi) { /* the function's own code first */
        if (left->fi == CGWC_NONE || right->fi == CGWC_NONE)
            return left->fi == CGWC_NONE ? -1 : 1;
        return left->fi < right->fi ? -1 : 1;
    }
    if (left->line != right->line)
        return left->line < right->line ? -1 : 1;
    if (left->addr != right->addr)
        return left->addr < right->addr ? -1 : 1;
    return left->ev < right->ev ? -1 : left->ev > right->ev;
}

static const char *name_of(const cgw_stacks *s, uint32_t id, const char *none)
{
    return id == CGWC_NONE ? none : s->strs[id].p;
}

/* The name each function is shown with, in s->shown: its own, or with
 * qualify "NAME [OBJECT] (FILE)" (the parts it has).  Each name depends
 * on its function alone. */
static cgw_status show_names(cgw_stacks *s, int qualify)
{
    size_t longest = 0;
    cgwp_free(&s->a, s->shown); /* an earlier write's */
    s->shown = cgwp_alloc(&s->a, (s->nfns + 1) * sizeof *s->shown);
    if (s->shown == NULL)
        return cgwc_stacks_fail(s, CGW_ENOMEM, "out of memory for %zu names", s->nfns);
    for (size_t func = 0; func < s->nfns; func++)
        s->shown[func] = s->fns[func].name;
    if (!qualify)
        return CGW_OK;
    for (size_t i = 0; i < s->nstrs; i++)
        longest = s->strs[i].len > longest ? s->strs[i].len : longest;
    size_t cap = longest < SIZE_MAX / 4 - 64 ? 3 * longest + 64 : 0;
    char *buf = cap ? cgwp_alloc(&s->a, cap) : NULL;
    if (buf == NULL)
        return cgwc_stacks_fail(s, CGW_ENOMEM, "out of memory for %zu names", s->nfns);
    cgw_status st = CGW_OK;
    for (size_t func = 0; func < s->nfns && st == CGW_OK; func++) {
        const cgwc_fn *fn = &s->fns[func];
        const char *obj = name_of(s, fn->obj, NULL), *file = name_of(s, fn->file, NULL);
        if (obj == NULL && file == NULL)
            continue;
        int len = snprintf(buf, cap, "%s%s%s%s%s%s%s", s->strs[fn->name].p,
                           obj ? " [" : "", obj ? obj : "", obj ? "]" : "",
                           file ? " (" : "", file ? file : "", file ? ")" : "");
        st = cgwc_stacks_name(s, buf, (size_t)len, &s->shown[func]);
    }
    cgwp_free(&s->a, buf);
    return st;
}

/* The callee (or the block's function) as the writer names it: "???"
 * for a missing file, and for a missing object when others have one
 * (the writer's NULL object would mean the caller's). */
static cgw_target target_of(const cgw_stacks *s, uint32_t fn, int objects)
{
    const cgwc_fn *func = &s->fns[fn];
    cgw_target target = { objects ? name_of(s, func->obj, "???") : NULL,
                          name_of(s, func->file, "???"), name_of(s, s->shown[fn], NULL) };
    return target;
}

/* Where a frame's line and address go in the writer's position arrays
 * (-1: nowhere).  The stacks fill line positions from the frames' lines
 * and instruction positions from their addresses, which only
 * cgw_stacks_add_at() gives: a writer whose positions they cannot fill
 * (instruction positions with stacks added without addresses, basic-block
 * positions) is refused, so that no line is ever written as an address.
 * opt: the writer's options. */
typedef struct slots {
    int line, addr;
} slots;

static cgw_status position_slots(const cgw_stacks *s, cgw_writer *w, const cgw_options *opt,
                                 slots *at)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t n = opt->positions == CGW_POS_NONE ? 0 : cgw_pos_kinds(opt->positions, kinds);
    char names[32] = "";
    int bb = 0;
    at->line = at->addr = -1;
    for (size_t k = 0; k < n; k++) {
        if (kinds[k] == CGW_POS_LINE)
            at->line = (int)k;
        else if (kinds[k] == CGW_POS_INSTR)
            at->addr = (int)k;
        else
            bb = 1;
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
                 cgw_pos_name(kinds[k]));
    }
    if (bb)
        return cgw_set_error(w, CGW_EINVAL, CALL, "the writer's positions are \"%s\", and "
                             "the stacks have no basic-block addresses: open the writer with "
                             "CGW_POS_LINE, CGW_POS_INSTR or both", names);
    if (at->addr >= 0 && s->lines_only)
        return cgw_set_error(w, CGW_EINVAL, CALL, "the writer's positions are \"%s\", and "
                             "stacks were added without instruction addresses: add "
                             "them all with "
                             "cgw_stacks_add_at(), or open the writer with CGW_POS_LINE",
                             names);
    return CGW_OK;
}

/* Cells [i, end) share a function, callee and line (and address, when
 * at.addr >= 0; else the costs of the line's addresses are summed): one
 * cost line or call with a cost a column.  Returns the end of the
 * group. */
static size_t write_group(const cgw_stacks *s, cgw_writer *w, size_t i, int objects,
                          const size_t *col, size_t ncol, slots at)
{
    const cgwc_cell *cell = &s->cells[i];
    uint64_t costs[CGWC_MAX_EVENTS] = { 0 }, count = 0;
    size_t j = i;
    for (; j < s->ncells && s->cells[j].fn == cell->fn && s->cells[j].callee == cell->callee &&
           s->cells[j].fi == cell->fi && s->cells[j].line == cell->line &&
           (at.addr < 0 || s->cells[j].addr == cell->addr);
         j++) {
        costs[col[s->cells[j].ev]] += s->cells[j].value; /* never past the event's total */
        count += s->cells[j].count;
    }
    /* code inlined from another file (fi=), or the function's own (fe=) */
    cgw_inline_file(w, name_of(s, cell->fi != CGWC_NONE ? cell->fi : s->fns[cell->fn].file,
                               "???"));
    uint64_t pos[CGW_NPOS_MAX] = { 0 };
    if (at.line >= 0)
        pos[at.line] = cell->line;
    if (at.addr >= 0)
        pos[at.addr] = cell->addr;
    if (cell->callee == CGWC_NONE) {
        cgw_cost(w, pos, costs, ncol);
    } else {
        cgw_target target = target_of(s, cell->callee, objects);
        /* stacks added uncounted (pprof's) have no call count: 1 */
        cgw_call(w, &target, count > 0 ? count : 1, NULL, pos, costs, ncol);
    }
    return j;
}

/* The writer's cost column of each event of the stacks, in col[], and
 * the columns a cost line needs in *ncol: in its header the writer gets
 * the events it does not have yet; after it (a later part) it must have
 * them all. */
static cgw_status columns(cgw_stacks *s, cgw_writer *w, size_t *col, size_t *ncol)
{
    cgw_status st = cgw_error(w);
    if (st != CGW_OK)
        return st;
    if (s->err != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    cgw_state state = cgw_get_state(w);
    if (state != CGW_STATE_HEADER && state != CGW_STATE_PART_HEADER && state != CGW_STATE_BODY)
        return cgw_set_error(w, CGW_EUSAGE, CALL, "the writer is finished");
    unsigned ev;
    if (s->nev == 0 && cgwc_stacks_event(s, "Samples", &ev) != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    *ncol = 0;
    for (size_t i = 0; i < s->nev && st == CGW_OK; i++) {
        long c = cgw_event_column(w, s->events[i]);
        if (c < 0 && state == CGW_STATE_HEADER && (st = cgw_add_event(w, s->events[i], NULL)) == CGW_OK)
            c = cgw_event_column(w, s->events[i]);
        if (st == CGW_OK && c < 0)
            return cgw_set_error(w, CGW_EINVAL, CALL, "the writer has no event %s: a later part "
                                 "has the events of the first (add them all before its body)",
                                 s->events[i]);
        if (st == CGW_OK && c >= CGWC_MAX_EVENTS)
            return cgw_set_error(w, CGW_EINVAL, CALL, "event %s is the writer's column %ld: "
                                 "the stacks write the first %d", s->events[i], c + 1,
                                 CGWC_MAX_EVENTS);
        col[i] = (size_t)c;
        *ncol = col[i] + 1 > *ncol ? col[i] + 1 : *ncol;
    }
    return st;
}

cgw_status cgw_stacks_write(cgw_stacks *s, cgw_writer *w)
{
    if (w == NULL)
        return CGW_EUSAGE;
    if (s == NULL)
        return cgw_set_error(w, CGW_EUSAGE, CALL, "the stacks are NULL");
    size_t col[CGWC_MAX_EVENTS], ncol = 0;
    slots at;
    cgw_options o = CGW_OPTIONS_INIT;
    cgw_status st = cgw_error(w);
    if (st == CGW_OK && (st = cgw_get_options(w, &o)) != CGW_OK)
        return cgw_set_error(w, st, CALL, "the writer's options: %s", cgw_strerror(st));
    if (st == CGW_OK)
        st = position_slots(s, w, &o, &at);
    if (st == CGW_OK)
        st = columns(s, w, col, &ncol);
    if (st == CGW_OK && s->err == CGW_OK && cgwc_stacks_flush(s) != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    if (st != CGW_OK)
        return st;
    if (show_names(s, (o.flags & CGW_QUALIFY_NAMES) != 0) != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    if (s->ncells > 1)
        qsort(s->cells, s->ncells, sizeof *s->cells, cmp_cells);
    cgwp_index_free(&s->cell_ix, &s->a); /* the cells moved */
    s->sorted = 1;
    int objects = 0;
    for (size_t i = 0; i < s->nfns && !objects; i++)
        objects = s->fns[i].obj != CGWC_NONE;
    for (size_t i = 0; i < s->ncells && cgw_error(w) == CGW_OK;) {
        cgw_target target = target_of(s, s->cells[i].fn, objects);
        if (target.object != NULL)
            cgw_object(w, target.object);
        cgw_file(w, target.file);
        cgw_function(w, target.function);
        uint32_t fn = s->cells[i].fn;
        while (i < s->ncells && s->cells[i].fn == fn && cgw_error(w) == CGW_OK)
            i = write_group(s, w, i, objects, col, ncol, at);
    }
    return cgw_error(w);
}
