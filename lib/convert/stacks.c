/* SPDX-License-Identifier: MIT */
/* stacks.c - stacks of frames with counts gathered into a call graph:
 * self costs on the leaves, one call edge per caller/callee pair and
 * call line, with the inclusive cost of the stacks through it.  Every
 * caller/callee pair that occurs in a stack is kept, recursive ones too
 * (r -> r in main;r;r;r, b -> a in a;b;a;b;c), and a stack adds its
 * count to each distinct pair once, at the line of the pair's outermost
 * call, as pprof counts inclusive costs: an edge's cost is that of the
 * stacks that pass through it.
 * Memory grows with distinct names, functions and edges, never with the
 * number of stacks. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "stacks.h"
#include "utf8.h"

#define CHUNK_SIZE 65536

cgw_stacks *cgw_stacks_new(const cgw_allocator *alloc)
{
    if (alloc == NULL)
        alloc = cgwp_libc();
    cgw_stacks *s = cgwp_alloc(alloc, sizeof *s);
    if (s == NULL)
        return NULL;
    memset(s, 0, sizeof *s);
    s->a = *alloc;
    return s;
}

void cgw_stacks_free(cgw_stacks *s)
{
    if (s == NULL)
        return;
    const cgw_allocator *alloc = &s->a;
    for (size_t i = 0; i < s->nchunks; i++)
        cgwp_free(alloc, s->chunks[i]);
    void *blocks[] = { s->chunks, s->strs, s->fns,    s->cells,  s->pairs,
                       s->shown,  s->frames, s->stacks, s->store };
    cgwp_free_all(alloc, blocks, sizeof blocks / sizeof *blocks);
    cgwp_index_free(&s->str_ix, alloc);
    cgwp_index_free(&s->fn_ix, alloc);
    cgwp_index_free(&s->cell_ix, alloc);
    cgwp_index_free(&s->pair_ix, alloc);
    cgwp_index_free(&s->stack_ix, alloc);
    cgwp_free(alloc, s);
}

const char *cgw_stacks_errmsg(const cgw_stacks *s)
{
    return s == NULL ? "the stacks are NULL" : s->msg;
}

cgw_status cgwc_stacks_enter(cgw_stacks *s, const char *call, const void *data, size_t len)
{
    if (s == NULL)
        return CGW_EUSAGE;
    if (s->err != CGW_OK)
        return s->err;
    if (data == NULL && len > 0)
        return cgwc_stacks_fail(s, CGW_EUSAGE, "%s: the input is NULL", call);
    if (s->sorted)
        return cgwc_stacks_fail(s, CGW_EUSAGE, "%s: called after cgw_stacks_write()", call);
    return CGW_OK;
}

cgw_status cgwc_stacks_fail(cgw_stacks *s, cgw_status st, const char *fmt, ...)
{
    CGWP_STICKY(st, &s->err, s->msg, sizeof s->msg, NULL, fmt);
    return st;
}

static cgw_status no_memory(cgw_stacks *s)
{
    return cgwc_stacks_fail(s, CGW_ENOMEM, "out of memory (%zu functions, %zu costs)",
                            s->nfns, s->ncells);
}

/* ----------------------------------------------------------------- names */

/* Room for len bytes in the arena. */
static char *arena(cgw_stacks *s, size_t len)
{
    if (len > s->left) {
        size_t size = len > CHUNK_SIZE ? len : CHUNK_SIZE;
        char *chunk;
        if (cgwp_grow(&s->a, &s->chunks, &s->capchunks, s->nchunks + 1, sizeof *s->chunks) < 0 ||
            (chunk = cgwp_alloc(&s->a, size)) == NULL)
            return NULL;
        s->chunks[s->nchunks++] = chunk;
        s->at = chunk;
        s->left = size;
    }
    char *start = s->at;
    s->at += len;
    s->left -= len;
    return start;
}

static int str_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgwc_str *left = &((const cgw_stacks *)ctx)->strs[entry], *right = key;
    return left->len == right->len && memcmp(left->p, right->p, left->len) == 0;
}

/* Whether bytes[0..len) is interned (its id in *id); if not, where it
 * goes: *hash and *slot for add_name(). */
static int find_name(cgw_stacks *s, const char *bytes, size_t len, uint32_t *id,
                     uint64_t *hash, size_t *slot)
{
    cgwc_str key = { bytes, len };
    *hash = cgwp_index_hash(&s->str_ix, bytes, len);
    return cgwp_index_find(&s->str_ix, *hash, str_eq, s, &key, id, slot);
}

/* Intern bytes[0..len), which find_name() did not find, in *id. */
static cgw_status add_name(cgw_stacks *s, const char *bytes, size_t len, uint64_t hash,
                           size_t slot, uint32_t *id)
{
    char *copy;
    if (cgwp_grow(&s->a, &s->strs, &s->capstrs, s->nstrs + 1, sizeof *s->strs) < 0 ||
        (copy = arena(s, len + 1)) == NULL ||
        cgwp_index_put(&s->str_ix, &s->a, slot, hash, (uint32_t)s->nstrs) < 0)
        return no_memory(s);
    memcpy(copy, bytes, len);
    copy[len] = '\0';
    s->strs[s->nstrs].p = copy;
    s->strs[s->nstrs].len = len;
    *id = (uint32_t)s->nstrs++;
    return CGW_OK;
}

cgw_status cgwc_stacks_name(cgw_stacks *s, const char *bytes, size_t len, uint32_t *id)
{
    uint64_t hash;
    size_t slot;
    if (bytes == NULL) {
        *id = CGWC_NONE;
        return CGW_OK;
    }
    if (find_name(s, bytes, len, id, &hash, &slot))
        return CGW_OK;
    return add_name(s, bytes, len, hash, slot, id);
}

static int fn_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgwc_fn *left = &((const cgw_stacks *)ctx)->fns[entry], *right = key;
    return left->obj == right->obj && left->file == right->file && left->name == right->name;
}

cgw_status cgwc_stacks_function(cgw_stacks *s, uint32_t obj, uint32_t file, uint32_t name,
                                uint32_t *id)
{
    cgwc_fn key = { obj, file, name };
    uint64_t hash = cgwp_index_hash(&s->fn_ix, &key, sizeof key);
    size_t slot;
    if (cgwp_index_find(&s->fn_ix, hash, fn_eq, s, &key, id, &slot))
        return CGW_OK;
    if (cgwp_grow(&s->a, &s->fns, &s->capfns, s->nfns + 1, sizeof *s->fns) < 0 ||
        cgwp_index_put(&s->fn_ix, &s->a, slot, hash, (uint32_t)s->nfns) < 0)
        return no_memory(s);
    s->fns[s->nfns] = key;
    *id = (uint32_t)s->nfns++;
    return CGW_OK;
}

/* An event name as the events: line takes it: [A-Za-z_][A-Za-z0-9_]*. */
static int letter(char byte)
{
    return byte == '_' || (unsigned)((byte | 32) - 'a') < 26u;
}

static int event_name_ok(const char *name)
{
    if (!letter(name[0]))
        return 0;
    for (size_t i = 1; name[i] != '\0'; i++)
        if (!letter(name[i]) && (unsigned)(name[i] - '0') >= 10u)
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

static int cell_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgwc_cell *left = &((const cgw_stacks *)ctx)->cells[entry], *right = key;
    return left->fn == right->fn && left->callee == right->callee && left->ev == right->ev &&
           left->fi == right->fi && left->line == right->line && left->addr == right->addr;
}

/* Add value (and counted stacks) to the cell of (fn, callee, ev, fi,
 * line, addr). */
static cgw_status add_cell(cgw_stacks *s, const cgwc_cell *key, uint64_t value, uint64_t counted)
{
    unsigned char bytes[4 * sizeof key->fn + 2 * sizeof key->line];
    memcpy(bytes, &key->fn, 4 * sizeof key->fn);
    memcpy(bytes + 4 * sizeof key->fn, &key->line, sizeof key->line);
    memcpy(bytes + 4 * sizeof key->fn + sizeof key->line, &key->addr, sizeof key->addr);
    uint64_t hash = cgwp_index_hash(&s->cell_ix, bytes, sizeof bytes);
    uint32_t entry;
    size_t slot;
    if (!cgwp_index_find(&s->cell_ix, hash, cell_eq, s, key, &entry, &slot)) {
        if (cgwp_grow(&s->a, &s->cells, &s->capcells, s->ncells + 1, sizeof *s->cells) < 0 ||
            cgwp_index_put(&s->cell_ix, &s->a, slot, hash, (uint32_t)s->ncells) < 0)
            return no_memory(s);
        entry = (uint32_t)s->ncells++;
        s->cells[entry] = *key;
        s->cells[entry].value = s->cells[entry].count = 0;
    }
    s->cells[entry].value += value; /* never past the event's total, checked */
    s->cells[entry].count += counted;
    return CGW_OK;
}

static int pair_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgwc_pair *left = &((const cgw_stacks *)ctx)->pairs[entry], *right = key;
    return left->caller == right->caller && left->callee == right->callee;
}

/* Whether the stack being expanded (s->serial) meets the pair caller ->
 * callee for the first time; -1 out of memory. */
static int first_in_stack(cgw_stacks *s, uint32_t caller, uint32_t callee)
{
    cgwc_pair key = { caller, callee, 0 };
    uint32_t ids[2] = { caller, callee }, entry;
    uint64_t hash = cgwp_index_hash(&s->pair_ix, ids, sizeof ids);
    size_t slot;
    if (!cgwp_index_find(&s->pair_ix, hash, pair_eq, s, &key, &entry, &slot)) {
        if (cgwp_grow(&s->a, &s->pairs, &s->cappairs, s->npairs + 1, sizeof *s->pairs) < 0 ||
            cgwp_index_put(&s->pair_ix, &s->a, slot, hash, (uint32_t)s->npairs) < 0)
            return -1;
        entry = (uint32_t)s->npairs++;
        s->pairs[entry] = key;
    }
    if (s->pairs[entry].stamp == s->serial)
        return 0;
    s->pairs[entry].stamp = s->serial;
    return 1;
}

/* Whether pair fr[i - 1] -> fr[i] of a short stack comes for the first
 * time there, by a look at the pairs further out: cheaper than a lookup
 * in the pairs' table up to SCAN_FRAMES frames (typical stacks). */
#define SCAN_FRAMES 64
static int first_in_short(const cgwc_frame *fr, size_t i)
{
    for (size_t k = 1; k < i; k++)
        if (fr[k - 1].fn == fr[i - 1].fn && fr[k].fn == fr[i].fn)
            return 0;
    return 1;
}

/* The cells of stack fr[0..nframes) of event ev seen value times in all,
 * counted of which count in the calls' counts: value to the leaf's self
 * cost and once to each distinct caller/callee pair, at the call line
 * (and address) of its outermost occurrence. */
static cgw_status expand(cgw_stacks *s, unsigned ev, const cgwc_frame *fr, size_t nframes,
                         uint64_t value, uint64_t counted)
{
    s->serial++;
    const cgwc_frame *leaf = &fr[nframes - 1];
    cgwc_cell key = { leaf->fn, CGWC_NONE, ev, leaf->fi, leaf->line, leaf->addr, 0, 0 };
    cgw_status st = add_cell(s, &key, value, counted);
    for (size_t i = 1; st == CGW_OK && i < nframes; i++) {
        int first = nframes <= SCAN_FRAMES ? first_in_short(fr, i)
                                           : first_in_stack(s, fr[i - 1].fn, fr[i].fn);
        if (first < 0)
            return no_memory(s);
        if (!first)
            continue; /* the stack passed this pair already, further out */
        key.fn = fr[i - 1].fn;
        key.callee = fr[i].fn;
        key.fi = fr[i - 1].fi;
        key.line = fr[i - 1].line;
        key.addr = fr[i - 1].addr;
        st = add_cell(s, &key, value, counted);
    }
    return st;
}

/* The checks of a stack of count for event ev, its count added to the
 * event's total; an error message names the input and line given. */
static cgw_status add_total(cgw_stacks *s, unsigned ev, uint64_t count, const char *name,
                            uint64_t line)
{
    if (s->err != CGW_OK)
        return s->err;
    if (s->sorted)
        return cgwc_stacks_fail(s, CGW_EUSAGE, "%s:%llu: stacks added after cgw_stacks_write()",
                                name, (unsigned long long)line);
    if (count > UINT64_MAX - s->totals[ev])
        return cgwc_stacks_fail(s, CGW_ERANGE, "%s:%llu: the total of event %s passes 2^64-1",
                                name, (unsigned long long)line, s->events[ev]);
    s->totals[ev] += count;
    return CGW_OK;
}

cgw_status cgwc_stacks_add(cgw_stacks *s, unsigned ev, cgwc_frame *fr, size_t nframes,
                           uint64_t count, int counted, const char *name, uint64_t line)
{
    if (nframes == 0 || count == 0)
        return s->err != CGW_OK ? s->err : CGW_OK;
    cgw_status st = add_total(s, ev, count, name, line);
    return st == CGW_OK ? expand(s, ev, fr, nframes, count, (uint64_t)(counted != 0)) : st;
}

/* The distinct stacks held (store frames) before they go into the cells:
 * 2^20 frames (24 MiB), so that memory stays bounded by the cells and
 * this whatever the number of distinct stacks. */
#define STORE_FRAMES (1u << 20)

cgw_status cgwc_stacks_flush(cgw_stacks *s)
{
    cgw_status st = s->err;
    for (size_t i = 0; i < s->nstacks && st == CGW_OK; i++) {
        const cgwc_stack *k = &s->stacks[i];
        st = expand(s, k->ev, s->store + k->first, k->nframes, k->sum, k->counted);
    }
    s->nstacks = s->nstore = 0;
    cgwp_hash_clear(&s->stack_ix.table);
    return st;
}

/* The stack being compared, for stack_eq(). */
typedef struct stack_key {
    const cgwc_frame *fr;
    size_t nframes;
    uint32_t ev;
} stack_key;

static int stack_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_stacks *s = ctx;
    const cgwc_stack *left = &s->stacks[entry];
    const stack_key *right = key;
    return left->ev == right->ev && left->nframes == right->nframes &&
           memcmp(s->store + left->first, right->fr, right->nframes * sizeof *right->fr) == 0;
}

/* Stack fr[0..nframes) of event ev, seen count times, standing for
 * counted stacks in its calls' counts, as cgwc_stacks_add() adds it, but
 * kept as a distinct stack until the stacks are written: a stack seen
 * again adds to its sums. */
static cgw_status add_distinct(cgw_stacks *s, unsigned ev, const cgwc_frame *fr,
                               size_t nframes, uint64_t count, uint64_t counted,
                               const char *name, uint64_t line)
{
    cgw_status st = add_total(s, ev, count, name, line);
    if (st != CGW_OK)
        return st;
    stack_key key = { fr, nframes, ev };
    uint64_t hash = cgwp_index_hash(&s->stack_ix, fr, nframes * sizeof *fr) ^
                    ((uint64_t)ev * 0x9e3779b97f4a7c15u);
    uint32_t entry;
    size_t slot;
    if (cgwp_index_find(&s->stack_ix, hash, stack_eq, s, &key, &entry, &slot)) {
        s->stacks[entry].sum += count; /* never past the event's total */
        s->stacks[entry].counted += counted; /* at most one a unit of the total */
        return CGW_OK;
    }
    if (nframes > STORE_FRAMES - s->nstore || s->nstacks == UINT32_MAX - 1) {
        if ((st = cgwc_stacks_flush(s)) != CGW_OK)
            return st;
        if (nframes > STORE_FRAMES) /* a stack too deep to hold: at once */
            return expand(s, ev, fr, nframes, count, counted);
        cgwp_index_find(&s->stack_ix, hash, stack_eq, s, &key, &entry, &slot);
    }
    if (cgwp_grow(&s->a, &s->store, &s->capstore, s->nstore + nframes, sizeof *s->store) < 0 ||
        cgwp_grow(&s->a, &s->stacks, &s->capstacks, s->nstacks + 1, sizeof *s->stacks) < 0 ||
        cgwp_index_put(&s->stack_ix, &s->a, slot, hash, (uint32_t)s->nstacks) < 0)
        return no_memory(s);
    memcpy(s->store + s->nstore, fr, nframes * sizeof *fr);
    s->stacks[s->nstacks++] = (cgwc_stack){ s->nstore, nframes, ev, count, counted };
    s->nstore += nframes;
    return CGW_OK;
}

/* ------------------------------------------------ structured stacks */

/* The interned name of str without the blanks around it; CGWC_NONE for
 * NULL or blanks only.  A new name is checked as the writer would check
 * it, so that a name no writer takes is refused here, naming the call,
 * frame k and what (its part of the frame), not when the whole profile
 * is written; a name interned already passed the check. */
static cgw_status frame_name(cgw_stacks *s, const char *call, size_t k, const char *what,
                             const char *str, uint32_t *id)
{
    size_t len = str != NULL ? strlen(str) : 0;
    while (len > 0 && str[0] == ' ')
        str++, len--;
    while (len > 0 && str[len - 1] == ' ')
        len--;
    uint64_t hash;
    size_t slot;
    if (len == 0 || find_name(s, str, len, id, &hash, &slot))
        return len == 0 ? cgwc_stacks_name(s, NULL, 0, id) : CGW_OK;
    size_t bad = cgwp_text_bad(str, len);
    if (bad < len)
        return cgwc_stacks_fail(s, CGW_EINVAL, "%s: frame %zu: the %s \"%.*s\" has %s "
                                "(byte 0x%02x at offset %zu), which the writer refuses", call, k,
                                what, (int)(bad < 64 ? bad : 64), str,
                                cgwp_control((unsigned char)str[bad]) ? "a control byte"
                                                                      : "invalid UTF-8",
                                (unsigned char)str[bad], bad);
    return add_name(s, str, len, hash, slot, id);
}

/* The frame f (frame k of call) of cgw_stacks_add() as the graph's. */
static cgw_status frame_of(cgw_stacks *s, const char *call, size_t k, const cgw_frame *f,
                           cgwc_frame *out)
{
    uint32_t obj, file, name;
    cgw_status st = frame_name(s, call, k, "object", f->object, &obj);
    if (st == CGW_OK)
        st = frame_name(s, call, k, "file", f->file, &file);
    if (st == CGW_OK)
        st = frame_name(s, call, k, "name", f->name, &name);
    if (st == CGW_OK && name == CGWC_NONE)
        st = cgwc_stacks_name(s, "???", 3, &name);
    if (st == CGW_OK)
        st = frame_name(s, call, k, "inlined file", f->inlined, &out->fi);
    out->line = f->line;
    out->addr = 0;
    return st == CGW_OK ? cgwc_stacks_function(s, obj, file, name, &out->fn) : st;
}

/* What cgw_stacks_add() and cgw_stacks_add_h() share before their
 * frames: the checks, the event's column (*ev) and room for nframes
 * frames; *adds: whether the stack adds anything. */
static cgw_status add_start(cgw_stacks *s, const char *call, const char *event,
                            const void *frames, size_t nframes, uint64_t count, unsigned *ev,
                            int *adds)
{
    cgw_status st = cgwc_stacks_enter(s, call, frames, nframes);
    *adds = nframes > 0 && count > 0;
    if (st != CGW_OK || (!*adds && event == NULL))
        return st;
    /* a named event is a column even when nothing is added */
    if ((st = cgwc_stacks_event(s, event != NULL ? event : "Samples", ev)) != CGW_OK || !*adds)
        return st;
    if (cgwp_grow(&s->a, &s->frames, &s->capframes, nframes, sizeof *s->frames) < 0)
        return cgwc_stacks_fail(s, CGW_ENOMEM, "%s: out of memory for %zu frames", call, nframes);
    return CGW_OK;
}

/* A stack as one of the calls gives it: frames (cgw_stacks_add()), or
 * handles with their addresses and lines (either NULL: none). */
typedef struct given {
    const cgw_frame *frames;
    const uint64_t *handles, *addresses, *lines;
} given;

/* The graph's frame k of a stack of handles (and addresses and lines),
 * the handle checked to be one cgw_stacks_intern() gave. */
static cgw_status frame_of_handle(cgw_stacks *s, const char *call, const given *g, size_t k,
                                  cgwc_frame *out)
{
    uint32_t fn = (uint32_t)g->handles[k], fi = (uint32_t)(g->handles[k] >> 32);
    if (fn >= s->nfns || (fi != CGWC_NONE && fi >= s->nstrs))
        return cgwc_stacks_fail(s, CGW_EINVAL, "%s: frame %zu: handle %#llx is none of "
                                "cgw_stacks_intern()'s", call, k,
                                (unsigned long long)g->handles[k]);
    *out = (cgwc_frame){ fn, fi, g->lines != NULL ? g->lines[k] : 0,
                         g->addresses != NULL ? g->addresses[k] : 0 };
    return CGW_OK;
}

/* One stack of call: its frames taken root first into s->frames and
 * added count times to event's column, as a distinct stack, standing
 * for stacks stacks in its calls' counts.  The status,
 * the stacks' error once one is set. */
static cgw_status add_stack(cgw_stacks *s, const char *call, const char *event, const given *g,
                            size_t nframes, uint64_t count, uint64_t stacks, unsigned flags)
{
    unsigned ev = 0;
    int adds;
    const void *data = g->frames != NULL ? (const void *)g->frames : g->handles;
    cgw_status st = add_start(s, call, event, data, nframes, count, &ev, &adds);
    if (st != CGW_OK || !adds)
        return st;
    int leaf_first = (flags & CGW_STACK_LEAF_FIRST) != 0;
    for (size_t i = 0; i < nframes && st == CGW_OK; i++) { /* root first: names in one order */
        size_t k = leaf_first ? nframes - 1 - i : i;
        st = g->frames != NULL ? frame_of(s, call, k, &g->frames[k], &s->frames[i])
                               : frame_of_handle(s, call, g, k, &s->frames[i]);
    }
    if (st != CGW_OK)
        return st;
    if (stacks > UINT64_MAX - s->stacks_total) /* so no call count can wrap */
        return cgwc_stacks_fail(s, CGW_ERANGE, "%s: the stacks added pass 2^64-1", call);
    s->stacks_total += stacks;
    *(g->addresses != NULL ? &s->addresses : &s->lines_only) = 1;
    s->added++;
    return add_distinct(s, ev, s->frames, nframes, count, stacks, call, s->added);
}

cgw_status cgw_stacks_add(cgw_stacks *s, const char *event, const cgw_frame *frames,
                          size_t nframes, uint64_t count, unsigned flags)
{
    given g = { frames, NULL, NULL, NULL };
    return add_stack(s, "cgw_stacks_add", event, &g, nframes, count,
                     !(flags & CGW_STACK_UNCOUNTED), flags);
}

cgw_status cgw_stacks_intern(cgw_stacks *s, const cgw_frame *frame, uint64_t *handle)
{
    cgw_status st = cgwc_stacks_enter(s, "cgw_stacks_intern", frame, 1);
    if (st == CGW_OK && (frame == NULL || handle == NULL))
        st = cgwc_stacks_fail(s, CGW_EUSAGE, "cgw_stacks_intern: %s is NULL",
                              frame == NULL ? "the frame" : "handle");
    cgwc_frame f;
    if (st == CGW_OK)
        st = frame_of(s, "cgw_stacks_intern", 0, frame, &f);
    if (st == CGW_OK) /* the function and the inlined file's name */
        *handle = (uint64_t)f.fi << 32 | f.fn;
    return st;
}

cgw_status cgw_stacks_add_h(cgw_stacks *s, const char *event, const uint64_t *handles,
                            const uint64_t *lines, size_t nframes, uint64_t count,
                            unsigned flags)
{
    given g = { NULL, handles, NULL, lines };
    return add_stack(s, "cgw_stacks_add_h", event, &g, nframes, count,
                     !(flags & CGW_STACK_UNCOUNTED), flags);
}

cgw_status cgw_stacks_add_at(cgw_stacks *s, const char *event, const uint64_t *handles,
                             const uint64_t *addresses, const uint64_t *lines, size_t nframes,
                             uint64_t count, uint64_t stacks, unsigned flags)
{
    given g = { NULL, handles, addresses, lines };
    return add_stack(s, "cgw_stacks_add_at", event, &g, nframes, count,
                     flags & CGW_STACK_UNCOUNTED ? 0 : stacks, flags);
}

cgw_status cgw_stacks_fail(cgw_stacks *s, cgw_status st, const char *msg)
{
    if (s == NULL)
        return CGW_EUSAGE;
    if (s->err != CGW_OK)
        return s->err;
    if (st == CGW_OK)
        return CGW_EUSAGE;
    return cgwc_stacks_fail(s, st, "%s", msg != NULL ? msg : "");
}
