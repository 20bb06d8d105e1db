/* stacks.c - stacks of frames with counts gathered into a call graph:
 * self costs on the leaves, one call edge per caller/callee pair and
 * call line, with the inclusive cost of the stacks through it.  A stack
 * has its recursion folded first: when a function comes back, the frames
 * since it was last there are dropped (a;b;a;b;c counts as a;b;c), so
 * each function of a stack gets its count once, and each function's
 * calls carry no more than it has (what readers check).
 * Memory grows with distinct names, functions and edges, never with the
 * number of stacks. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stacks.h"

#define CHUNK_SIZE 65536

cgw_stacks *cgw_stacks_new(const cgw_allocator *a)
{
    if (a == NULL)
        a = cgwc_libc();
    cgw_stacks *s = a->malloc(a->ctx, sizeof *s);
    if (s == NULL)
        return NULL;
    memset(s, 0, sizeof *s);
    s->a = *a;
    return s;
}

static void release(const cgw_allocator *a, void *p)
{
    if (p != NULL)
        a->free(a->ctx, p);
}

void cgw_stacks_free(cgw_stacks *s)
{
    if (s == NULL)
        return;
    const cgw_allocator *a = &s->a;
    for (size_t i = 0; i < s->nchunks; i++)
        release(a, s->chunks[i]);
    void *blocks[] = { s->chunks, s->strs, s->fns, s->cells, s->seen, s->shown, s->taken,
                       s->frames };
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        release(a, blocks[i]);
    cgwc_index_free(&s->str_ix, a);
    cgwc_index_free(&s->fn_ix, a);
    cgwc_index_free(&s->cell_ix, a);
    a->free(a->ctx, s);
}

const char *cgw_stacks_errmsg(const cgw_stacks *s)
{
    return s == NULL ? "the stacks are NULL" : s->msg;
}

cgw_status cgwc_stacks_fail(cgw_stacks *s, cgw_status st, const char *fmt, ...)
{
    if (s->err != CGW_OK)
        return s->err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->err = st;
    return st;
}

static cgw_status no_memory(cgw_stacks *s)
{
    return cgwc_stacks_fail(s, CGW_ENOMEM, "out of memory (%zu functions, %zu costs)",
                            s->nfns, s->ncells);
}

/* ----------------------------------------------------------------- names */

/* Room for n bytes in the arena. */
static char *arena(cgw_stacks *s, size_t n)
{
    if (n > s->left) {
        size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
        char *c;
        if (cgwc_grow(&s->a, &s->chunks, &s->capchunks, s->nchunks + 1, sizeof *s->chunks) < 0 ||
            (c = s->a.malloc(s->a.ctx, size)) == NULL)
            return NULL;
        s->chunks[s->nchunks++] = c;
        s->at = c;
        s->left = size;
    }
    char *p = s->at;
    s->at += n;
    s->left -= n;
    return p;
}

static int str_eq(const void *ctx, uint32_t e, const void *key)
{
    const cgwc_str *a = &((const cgw_stacks *)ctx)->strs[e], *b = key;
    return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

cgw_status cgwc_stacks_name(cgw_stacks *s, const char *p, size_t len, uint32_t *id)
{
    if (p == NULL) {
        *id = CGWC_NONE;
        return CGW_OK;
    }
    cgwc_str key = { p, len };
    uint64_t h = cgwc_hash(CGWC_HASH0, p, len);
    size_t slot;
    if (cgwc_index_find(&s->str_ix, h, str_eq, s, &key, id, &slot))
        return CGW_OK;
    char *copy;
    if (cgwc_grow(&s->a, &s->strs, &s->capstrs, s->nstrs + 1, sizeof *s->strs) < 0 ||
        (copy = arena(s, len + 1)) == NULL ||
        cgwc_index_put(&s->str_ix, &s->a, slot, h, (uint32_t)s->nstrs) < 0)
        return no_memory(s);
    memcpy(copy, p, len);
    copy[len] = '\0';
    s->strs[s->nstrs].p = copy;
    s->strs[s->nstrs].len = len;
    *id = (uint32_t)s->nstrs++;
    return CGW_OK;
}

static int fn_eq(const void *ctx, uint32_t e, const void *key)
{
    const cgwc_fn *a = &((const cgw_stacks *)ctx)->fns[e], *b = key;
    return a->obj == b->obj && a->file == b->file && a->name == b->name;
}

cgw_status cgwc_stacks_function(cgw_stacks *s, uint32_t obj, uint32_t file, uint32_t name,
                                uint32_t *id)
{
    cgwc_fn key = { obj, file, name };
    uint64_t h = cgwc_hash(CGWC_HASH0, &key, sizeof key);
    size_t slot;
    if (cgwc_index_find(&s->fn_ix, h, fn_eq, s, &key, id, &slot))
        return CGW_OK;
    if (cgwc_grow(&s->a, &s->fns, &s->capfns, s->nfns + 1, sizeof *s->fns) < 0 ||
        cgwc_grow(&s->a, &s->seen, &s->capseen, s->nfns + 1, sizeof *s->seen) < 0 ||
        cgwc_index_put(&s->fn_ix, &s->a, slot, h, (uint32_t)s->nfns) < 0)
        return no_memory(s);
    s->fns[s->nfns] = key;
    s->seen[s->nfns].stamp = 0;
    *id = (uint32_t)s->nfns++;
    return CGW_OK;
}

/* An event name as the events: line takes it: [A-Za-z_][A-Za-z0-9_]*. */
static int letter(char c)
{
    return c == '_' || (unsigned)((c | 32) - 'a') < 26u;
}

static int event_name_ok(const char *n)
{
    if (!letter(n[0]))
        return 0;
    for (size_t i = 1; n[i] != '\0'; i++)
        if (!letter(n[i]) && (unsigned)(n[i] - '0') >= 10u)
            return 0;
    return 1;
}

cgw_status cgwc_stacks_event(cgw_stacks *s, const char *name, unsigned *ev)
{
    for (size_t i = 0; i < s->nev; i++) {
        if (strcmp(s->events[i], name) == 0) {
            *ev = (unsigned)i;
            return CGW_OK;
        }
    }
    if (!event_name_ok(name))
        return cgwc_stacks_fail(s, CGW_EINVAL,
                                "bad event name '%s' (expected [A-Za-z_][A-Za-z0-9_]*)", name);
    if (s->nev == CGWC_MAX_EVENTS)
        return cgwc_stacks_fail(s, CGW_EINVAL, "event '%s': more than %d events", name,
                                CGWC_MAX_EVENTS);
    uint32_t id;
    cgw_status st = cgwc_stacks_name(s, name, strlen(name), &id);
    if (st != CGW_OK)
        return st;
    s->events[s->nev] = s->strs[id].p;
    *ev = (unsigned)s->nev++;
    return CGW_OK;
}

/* ----------------------------------------------------------------- costs */

static int cell_eq(const void *ctx, uint32_t e, const void *key)
{
    const cgwc_cell *a = &((const cgw_stacks *)ctx)->cells[e], *b = key;
    return a->fn == b->fn && a->callee == b->callee && a->ev == b->ev && a->line == b->line;
}

/* Add value (and one stack) to the cell of (fn, callee, line, ev). */
static cgw_status add_cell(cgw_stacks *s, const cgwc_cell *key, uint64_t value)
{
    uint64_t h = cgwc_hash(CGWC_HASH0, &key->fn, 3 * sizeof key->fn);
    h = cgwc_hash(h, &key->line, sizeof key->line);
    uint32_t e;
    size_t slot;
    if (!cgwc_index_find(&s->cell_ix, h, cell_eq, s, key, &e, &slot)) {
        if (cgwc_grow(&s->a, &s->cells, &s->capcells, s->ncells + 1, sizeof *s->cells) < 0 ||
            cgwc_index_put(&s->cell_ix, &s->a, slot, h, (uint32_t)s->ncells) < 0)
            return no_memory(s);
        e = (uint32_t)s->ncells++;
        s->cells[e] = *key;
        s->cells[e].value = s->cells[e].count = 0;
    }
    s->cells[e].value += value; /* never past the event's total, checked */
    s->cells[e].count++;
    return CGW_OK;
}

/* Fold the recursion of fr[0..n) in place; returns the frames left. */
static size_t fold(cgw_stacks *s, cgwc_frame *fr, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        cgwc_seen *w = &s->seen[fr[i].fn];
        if (w->stamp == s->serial && w->at < m && fr[w->at].fn == fr[i].fn) {
            m = w->at; /* back where it was: the frames since are recursion */
        } else {
            w->stamp = s->serial;
            w->at = m;
        }
        fr[m++] = fr[i]; /* the latest line: where the stack goes on from */
    }
    return m;
}

cgw_status cgwc_stacks_add(cgw_stacks *s, unsigned ev, cgwc_frame *fr, size_t n,
                           uint64_t count, const char *name, uint64_t line)
{
    if (s->err != CGW_OK)
        return s->err;
    if (s->sorted)
        return cgwc_stacks_fail(s, CGW_EUSAGE, "%s:%llu: stacks added after cgw_stacks_write()",
                                name, (unsigned long long)line);
    if (n == 0 || count == 0)
        return CGW_OK;
    if (count > UINT64_MAX - s->totals[ev])
        return cgwc_stacks_fail(s, CGW_ERANGE, "%s:%llu: the total of event %s passes 2^64-1",
                                name, (unsigned long long)line, s->events[ev]);
    s->totals[ev] += count;
    s->serial++;
    n = fold(s, fr, n);
    cgwc_cell key = { fr[n - 1].fn, CGWC_NONE, ev, fr[n - 1].line, 0, 0 };
    cgw_status st = add_cell(s, &key, count);
    for (size_t i = 1; st == CGW_OK && i < n; i++) {
        key.fn = fr[i - 1].fn;
        key.callee = fr[i].fn;
        key.line = fr[i - 1].line;
        st = add_cell(s, &key, count);
    }
    return st;
}
