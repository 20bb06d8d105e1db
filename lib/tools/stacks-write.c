/* stacks-write.c - a cgw_stacks written through a writer: one block a
 * function, in the order the functions first came, with its self costs
 * by line, then its calls by callee and line. */
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

static const char CALL[] = "cgw_stacks_write";

/* Self costs first, then calls by callee; each by line and event. */
static int cmp_cells(const void *pa, const void *pb)
{
    const cgwc_cell *a = pa, *b = pb;
    if (a->fn != b->fn)
        return a->fn < b->fn ? -1 : 1;
    if (a->callee != b->callee) {
        if (a->callee == CGWC_NONE || b->callee == CGWC_NONE)
            return a->callee == CGWC_NONE ? -1 : 1;
        return a->callee < b->callee ? -1 : 1;
    }
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->ev < b->ev ? -1 : a->ev > b->ev;
}

static const char *name_of(const cgw_stacks *s, uint32_t id, const char *none)
{
    return id == CGWC_NONE ? none : s->strs[id].p;
}

/* The callee (or the block's function) as the writer names it: "???"
 * for a missing file, and for a missing object when others have one
 * (the writer's NULL object would mean the caller's). */
static cgw_target target_of(const cgw_stacks *s, uint32_t fn, int objects)
{
    const cgwc_fn *f = &s->fns[fn];
    cgw_target t = { objects ? name_of(s, f->obj, "???") : NULL, name_of(s, f->file, "???"),
                     name_of(s, f->name, NULL) };
    return t;
}

/* Cells [i, end) share a function, callee and line: one cost line or
 * call with a cost a column.  Returns the end of the group. */
static size_t write_group(const cgw_stacks *s, cgw_writer *w, size_t i, int objects)
{
    const cgwc_cell *c = &s->cells[i];
    uint64_t costs[CGWC_MAX_EVENTS] = { 0 }, count = 0;
    size_t j = i;
    for (; j < s->ncells && s->cells[j].fn == c->fn && s->cells[j].callee == c->callee &&
           s->cells[j].line == c->line;
         j++) {
        costs[s->cells[j].ev] = s->cells[j].value;
        count += s->cells[j].count;
    }
    if (c->callee == CGWC_NONE) {
        cgw_cost(w, &c->line, costs, s->nev);
    } else {
        cgw_target t = target_of(s, c->callee, objects);
        cgw_call(w, &t, count, NULL, &c->line, costs, s->nev);
    }
    return j;
}

static cgw_status header(cgw_stacks *s, cgw_writer *w)
{
    cgw_status st = cgw_error(w);
    if (st != CGW_OK)
        return st;
    if (s->err != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    if (cgw_get_state(w) != CGW_STATE_HEADER)
        return cgw_set_error(w, CGW_EUSAGE, CALL, "the writer's header has ended");
    unsigned ev;
    if (s->nev == 0 && cgwc_stacks_event(s, "Samples", &ev) != CGW_OK)
        return cgw_set_error(w, s->err, CALL, "%s", s->msg);
    for (size_t i = 0; i < s->nev && st == CGW_OK; i++)
        st = cgw_add_event(w, s->events[i], NULL);
    return st;
}

cgw_status cgw_stacks_write(cgw_stacks *s, cgw_writer *w)
{
    if (w == NULL)
        return CGW_EUSAGE;
    if (s == NULL)
        return cgw_set_error(w, CGW_EUSAGE, CALL, "the stacks are NULL");
    cgw_status st = header(s, w);
    if (st != CGW_OK)
        return st;
    if (s->ncells > 1)
        qsort(s->cells, s->ncells, sizeof *s->cells, cmp_cells);
    cgwc_index_free(&s->cell_ix, &s->a); /* the cells moved */
    s->sorted = 1;
    int objects = 0;
    for (size_t i = 0; i < s->nfns && !objects; i++)
        objects = s->fns[i].obj != CGWC_NONE;
    for (size_t i = 0; i < s->ncells && cgw_error(w) == CGW_OK;) {
        cgw_target f = target_of(s, s->cells[i].fn, objects);
        if (f.object != NULL)
            cgw_object(w, f.object);
        cgw_file(w, f.file);
        cgw_function(w, f.function);
        uint32_t fn = s->cells[i].fn;
        while (i < s->ncells && s->cells[i].fn == fn && cgw_error(w) == CGW_OK)
            i = write_group(s, w, i, objects);
    }
    return cgw_error(w);
}
