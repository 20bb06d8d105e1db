/* SPDX-License-Identifier: MIT */
/* load.c - a reader's records into the profile model: names interned,
 * events matched by name, self costs summed by function (and by line),
 * calls summed by edge.  Records of one function block come with the same
 * name pointers, so the last function is remembered; a callee is found
 * through a cache of the reader's name pointers, which is emptied when
 * the reader is done (another reader may reuse its addresses). */
#include <errno.h>
#include <string.h>

#include "profile.h"

/* ----------------------------------------------------------------- names */

static int name_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_profile *p = ctx;
    return strcmp(p->names[entry], key) == 0;
}

/* The id of name (NULL: 0, none), interned when new (a copy, or the
 * reader's own with CGW_PROFILE_READER_NAMES); CGWPM_NONE when out of
 * memory. */
static uint32_t name_id(cgw_profile *p, const char *name)
{
    if (name == NULL)
        return 0;
    size_t len = strlen(name), slot;
    uint64_t hash = cgwp_index_hash(&p->name_ix, name, len);
    uint32_t id;
    if (cgwp_index_find(&p->name_ix, hash, name_eq, p, name, &id, &slot))
        return id;
    if (p->nnames == 0 && cgwp_grow(&p->a, &p->names, &p->capnames, 1, sizeof *p->names) == 0)
        p->names[p->nnames++] = NULL; /* id 0: none */
    if (p->nnames == 0 || p->nnames >= CGWPM_NONE ||
        cgwp_grow(&p->a, &p->names, &p->capnames, p->nnames + 1, sizeof *p->names) < 0)
        return CGWPM_NONE;
    const char *copy = (p->flags & CGW_PROFILE_READER_NAMES)
                           ? name
                           : cgwp_arena_strdup(&p->arena, &p->a, name, len);
    if (copy == NULL || cgwp_index_put(&p->name_ix, &p->a, slot, hash, (uint32_t)p->nnames) < 0)
        return CGWPM_NONE;
    p->names[p->nnames] = copy;
    return (uint32_t)p->nnames++;
}

/* The id of name, or CGWPM_NONE when it was never interned (NULL: 0). */
static uint32_t known_name(cgw_profile *p, const char *name)
{
    if (name == NULL)
        return 0;
    uint64_t hash = cgwp_index_hash(&p->name_ix, name, strlen(name));
    uint32_t id;
    size_t slot;
    return cgwp_index_find(&p->name_ix, hash, name_eq, p, name, &id, &slot) ? id : CGWPM_NONE;
}

/* ------------------------------------------------------- costs and rows */

/* rows rows of p->nev costs at *array made new_nev wide (the new columns
 * zero); 0, or -1 when out of memory. */
static int widen(cgw_profile *p, uint64_t **array, size_t *cap, size_t rows, size_t new_nev)
{
    size_t cells = rows * new_nev;
    if (cgwp_grow(&p->a, array, cap, cells ? cells : 1, sizeof **array) < 0)
        return -1;
    for (size_t row = rows; row-- > 0;) {
        memmove(*array + row * new_nev, *array + row * p->nev, p->nev * sizeof **array);
        memset(*array + row * new_nev + p->nev, 0, (new_nev - p->nev) * sizeof **array);
    }
    return 0;
}

/* A row of p->nev zeroed costs at index row of *array; -1 when out of
 * memory. */
static int new_row(cgw_profile *p, uint64_t **array, size_t *cap, size_t row)
{
    size_t need = (row + 1) * (p->nev ? p->nev : 1);
    if (cgwp_grow(&p->a, array, cap, need, sizeof **array) < 0)
        return -1;
    memset(*array + row * p->nev, 0, p->nev * sizeof **array);
    return 0;
}

/* The record's costs into sums (a row of p->nev), by the part's columns. */
static cgw_status add_costs(cgw_profile *p, uint64_t *sums, const uint64_t *costs,
                            const char *call)
{
    for (size_t i = 0; i < p->ncol; i++) {
        uint64_t *sum = &sums[p->col[i]];
        if (costs[i] > UINT64_MAX - *sum)
            return cgwpm_fail(p, CGW_ERANGE, call, "the costs of event %s pass 2^64-1",
                              p->events[p->col[i]].name);
        *sum += costs[i];
    }
    return CGW_OK;
}

static cgw_status no_memory(cgw_profile *p, const char *call)
{
    return cgwpm_fail(p, CGW_ENOMEM, call, "out of memory");
}

/* ---------------------------------------------------------------- events */

/* A header's text kept: a copy, or the reader's own with
 * CGW_PROFILE_READER_NAMES. */
static const char *arena_copy(cgw_profile *p, const char *text)
{
    if (text == NULL || (p->flags & CGW_PROFILE_READER_NAMES))
        return text;
    return cgwp_arena_strdup(&p->arena, &p->a, text, strlen(text));
}

/* A new event: every row of costs one column wider. */
static cgw_status add_event(cgw_profile *p, const cgw_event *ev, const char *call)
{
    size_t nev = p->nev + 1;
    cgw_event copy = { arena_copy(p, ev->name), arena_copy(p, ev->long_name), NULL };
    if (copy.name == NULL || (ev->long_name != NULL && copy.long_name == NULL) ||
        cgwp_grow(&p->a, &p->events, &p->capev, nev, sizeof *p->events) < 0)
        return no_memory(p, call);
    uint64_t *totals = cgwp_realloc(&p->a, p->totals, nev * sizeof *totals);
    if (totals == NULL)
        return no_memory(p, call);
    p->totals = totals;
    p->totals[p->nev] = 0;
    if (widen(p, &p->self, &p->capself, p->nfns, nev) < 0 ||
        widen(p, &p->eincl, &p->capeincl, p->nedges, nev) < 0 ||
        widen(p, &p->lself, &p->caplself, p->nlines, nev) < 0)
        return no_memory(p, call);
    p->events[p->nev] = copy;
    p->nev = nev;
    return CGW_OK;
}

static int same_events(const cgw_profile *p, const cgw_part *part)
{
    if (part->nevents != p->nev)
        return 0;
    for (size_t i = 0; i < p->nev; i++)
        if (strcmp(part->events[i].name, p->events[i].name) != 0)
            return 0;
    return 1;
}

/* A part's header: its columns matched to the profile's events by name. */
static cgw_status part(cgw_profile *p, const cgw_part *part, const char *call)
{
    p->skipping = p->part_only != 0 && part->index != p->part_only;
    p->last.name = NULL;
    if (p->skipping)
        return CGW_OK;
    if ((p->flags & CGW_PROFILE_SAME_EVENTS) && p->parts > 0 && !same_events(p, part))
        return cgwpm_fail(p, CGW_EINVAL, call, "part %u has other events than the first "
                          "part: give each part its own view (or let the events be matched "
                          "by name)", part->index);
    p->parts++;
    if ((p->cmd == NULL && part->cmd != NULL && (p->cmd = arena_copy(p, part->cmd)) == NULL) ||
        (p->creator == NULL && part->creator != NULL &&
         (p->creator = arena_copy(p, part->creator)) == NULL) ||
        cgwp_grow(&p->a, &p->col, &p->capcol, part->nevents + 1, sizeof *p->col) < 0)
        return no_memory(p, call);
    p->ncol = part->nevents;
    for (size_t i = 0; i < part->nevents; i++) {
        size_t e = 0;
        while (e < p->nev && strcmp(p->events[e].name, part->events[i].name) != 0)
            e++;
        if (e == p->nev && add_event(p, &part->events[i], call) != CGW_OK)
            return p->err;
        p->col[i] = e;
    }
    p->npos = cgw_pos_kinds(part->positions, p->pos_kinds);
    return CGW_OK;
}

/* ------------------------------------------------------------- functions */

static int fn_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_profile *p = ctx;
    return memcmp(&p->fkeys[entry], key, sizeof p->fkeys[entry]) == 0;
}

/* The function of key, added when new; CGWPM_NONE after an error. */
static uint32_t function_of_key(cgw_profile *p, const cgwpm_fnkey *key, const char *call)
{
    uint64_t hash = cgwp_index_hash(&p->fn_ix, key, sizeof *key);
    uint32_t fn;
    size_t slot;
    if (cgwp_index_find(&p->fn_ix, hash, fn_eq, p, key, &fn, &slot))
        return fn;
    if (p->nfns >= CGWPM_NONE - 1 ||
        cgwp_grow(&p->a, &p->fkeys, &p->capfns, p->nfns + 1, sizeof *p->fkeys) < 0 ||
        new_row(p, &p->self, &p->capself, p->nfns) < 0 ||
        cgwp_index_put(&p->fn_ix, &p->a, slot, hash, (uint32_t)p->nfns) < 0) {
        no_memory(p, call);
        return CGWPM_NONE;
    }
    p->fkeys[p->nfns] = *key;
    return (uint32_t)p->nfns++;
}

uint32_t cgwpm_lookup(cgw_profile *p, const char *object, const char *file, const char *name)
{
    cgwpm_fnkey key = { known_name(p, object), known_name(p, file), known_name(p, name) };
    uint32_t fn;
    size_t slot;
    if (key.object == CGWPM_NONE || key.file == CGWPM_NONE || key.name == CGWPM_NONE)
        return CGWPM_NONE;
    uint64_t hash = cgwp_index_hash(&p->fn_ix, &key, sizeof key);
    return cgwp_index_find(&p->fn_ix, hash, fn_eq, p, &key, &fn, &slot) ? fn : CGWPM_NONE;
}

static int seen_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgwpm_seen *left = &((const cgw_profile *)ctx)->seen[entry], *right = key;
    return left->object == right->object && left->file == right->file &&
           left->name == right->name;
}

/* The function the reader names (object, file, name): through the cache
 * of its pointers, else interned; CGWPM_NONE after an error. */
static uint32_t function(cgw_profile *p, const char *object, const char *file, const char *name,
                         const char *call)
{
    cgwpm_seen key = { object, file, name, 0 };
    uint64_t hash = cgwp_index_hash(&p->seen_ix, &key, 3 * sizeof(const char *));
    uint32_t entry;
    size_t slot;
    if (cgwp_index_find(&p->seen_ix, hash, seen_eq, p, &key, &entry, &slot))
        return p->seen[entry].fn;
    cgwpm_fnkey fk = { name_id(p, object), name_id(p, file), name_id(p, name ? name : "???") };
    if (fk.object == CGWPM_NONE || fk.file == CGWPM_NONE || fk.name == CGWPM_NONE) {
        no_memory(p, call);
        return CGWPM_NONE;
    }
    key.fn = function_of_key(p, &fk, call);
    if (key.fn == CGWPM_NONE)
        return CGWPM_NONE;
    if (cgwp_grow(&p->a, &p->seen, &p->capseen, p->nseen + 1, sizeof *p->seen) < 0 ||
        cgwp_index_put(&p->seen_ix, &p->a, slot, hash, (uint32_t)p->nseen) < 0) {
        no_memory(p, call);
        return CGWPM_NONE;
    }
    p->seen[p->nseen++] = key;
    return key.fn;
}

/* The function whose block the record is in: most often the last one. */
static uint32_t current(cgw_profile *p, const cgw_record *rec, const char *call)
{
    if (p->last.name != NULL && rec->function == p->last.name && rec->file == p->last.file &&
        rec->object == p->last.object)
        return p->last.fn;
    uint32_t fn = function(p, rec->object, rec->file, rec->function, call);
    if (fn != CGWPM_NONE) {
        cgwpm_seen last = { rec->object, rec->file, rec->function, fn };
        p->last = last;
    }
    return fn;
}

/* ----------------------------------------------------- edges and lines */

static int edge_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_profile *p = ctx;
    return memcmp(&p->ekeys[entry], key, sizeof p->ekeys[entry]) == 0;
}

static cgw_status call_record(cgw_profile *p, uint32_t caller, const cgw_record *rec,
                              const char *call)
{
    cgwpm_edgekey key = { caller, function(p, rec->target.object, rec->target.file,
                                           rec->target.function, call) };
    if (key.callee == CGWPM_NONE)
        return p->err;
    uint64_t hash = cgwp_index_hash(&p->edge_ix, &key, sizeof key);
    uint32_t e;
    size_t slot;
    if (!cgwp_index_find(&p->edge_ix, hash, edge_eq, p, &key, &e, &slot)) {
        if (p->nedges >= CGWPM_NONE - 1 ||
            cgwp_grow(&p->a, &p->ekeys, &p->capedges, p->nedges + 1, sizeof *p->ekeys) < 0 ||
            cgwp_grow(&p->a, &p->ecount, &p->capecount, p->nedges + 1, sizeof *p->ecount) < 0 ||
            new_row(p, &p->eincl, &p->capeincl, p->nedges) < 0 ||
            cgwp_index_put(&p->edge_ix, &p->a, slot, hash, (uint32_t)p->nedges) < 0)
            return no_memory(p, call);
        e = (uint32_t)p->nedges++;
        p->ekeys[e] = key;
        p->ecount[e] = 0;
    }
    if (rec->count > UINT64_MAX - p->ecount[e])
        return cgwpm_fail(p, CGW_ERANGE, call, "the calls from %s to %s pass 2^64-1",
                          rec->function, rec->target.function);
    p->ecount[e] += rec->count;
    return add_costs(p, &p->eincl[(size_t)e * p->nev], rec->costs, call);
}

static int line_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_profile *p = ctx;
    return memcmp(&p->lkeys[entry], key, sizeof p->lkeys[entry]) == 0;
}

static cgw_status line_costs(cgw_profile *p, uint32_t fn, const cgw_record *rec,
                             const char *call)
{
    cgwpm_linekey key;
    memset(&key, 0, sizeof key); /* the padding too: the key is hashed as bytes */
    key.fn = fn;
    key.file = name_id(p, rec->source_file);
    if (key.file == CGWPM_NONE)
        return no_memory(p, call);
    for (size_t i = 0; i < p->npos && rec->pos != NULL; i++) {
        if (p->pos_kinds[i] == CGW_POS_LINE)
            key.line = rec->pos[i];
        else if (p->pos_kinds[i] == CGW_POS_INSTR)
            key.address = rec->pos[i];
    }
    uint64_t hash = cgwp_index_hash(&p->line_ix, &key, sizeof key);
    uint32_t at;
    size_t slot;
    if (!cgwp_index_find(&p->line_ix, hash, line_eq, p, &key, &at, &slot)) {
        if (p->nlines >= CGWPM_NONE - 1 ||
            cgwp_grow(&p->a, &p->lkeys, &p->caplines, p->nlines + 1, sizeof *p->lkeys) < 0 ||
            new_row(p, &p->lself, &p->caplself, p->nlines) < 0 ||
            cgwp_index_put(&p->line_ix, &p->a, slot, hash, (uint32_t)p->nlines) < 0)
            return no_memory(p, call);
        at = (uint32_t)p->nlines++;
        p->lkeys[at] = key;
    }
    return add_costs(p, &p->lself[(size_t)at * p->nev], rec->costs, call);
}

/* ---------------------------------------------------------------- records */

static cgw_status record(cgw_profile *p, const cgw_record *rec, const char *call)
{
    if (rec->kind == CGW_REC_PART)
        return part(p, rec->part, call);
    if (p->skipping || rec->kind == CGW_REC_PART_END || rec->kind == CGW_REC_INLINE ||
        rec->kind == CGW_REC_JUMP || rec->kind == CGW_REC_COND_JUMP)
        return CGW_OK;
    uint32_t fn = current(p, rec, call);
    if (fn == CGWPM_NONE)
        return p->err;
    if (rec->kind == CGW_REC_CALL)
        return call_record(p, fn, rec, call);
    if (rec->kind != CGW_REC_COST)
        return CGW_OK; /* a function's block: the function is there now */
    if (add_costs(p, &p->self[(size_t)fn * p->nev], rec->costs, call) != CGW_OK)
        return p->err;
    return (p->flags & CGW_PROFILE_LINES) ? line_costs(p, fn, rec, call) : CGW_OK;
}

/* The reader's pointers are no key once it is done. */
static void forget_reader(cgw_profile *p)
{
    p->nseen = 0;
    cgwp_index_free(&p->seen_ix, &p->a);
    memset(&p->seen_ix, 0, sizeof p->seen_ix);
    memset(&p->last, 0, sizeof p->last);
    p->skipping = 0;
}

/* The totals: the sums of the self costs, made once a load rather than
 * once a cost line. */
static cgw_status totals(cgw_profile *p, const char *call)
{
    if (p->nev == 0)
        return CGW_OK;
    memset(p->totals, 0, p->nev * sizeof *p->totals);
    for (size_t fn = 0; fn < p->nfns; fn++)
        for (size_t e = 0; e < p->nev; e++) {
            uint64_t c = p->self[fn * p->nev + e];
            if (c > UINT64_MAX - p->totals[e])
                return cgwpm_fail(p, CGW_ERANGE, call, "the total of event %s passes 2^64-1",
                                  p->events[e].name);
            p->totals[e] += c;
        }
    return CGW_OK;
}

cgw_status cgwpm_load(cgw_profile *p, cgw_reader *r, const char *call)
{
    const cgw_record *rec;
    cgw_status st;
    forget_reader(p);
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        if (record(p, rec, call) != CGW_OK)
            break;
    forget_reader(p);
    if (p->err == CGW_OK && st != CGW_OK)
        cgwpm_fail(p, st, call, "reading: %s", cgw_reader_errmsg(r));
    return p->err == CGW_OK ? totals(p, call) : p->err;
}

void cgwpm_load_free(cgw_profile *p)
{
    void *blocks[] = { p->names, p->events, p->totals, p->fkeys, p->self, p->ekeys, p->ecount,
                       p->eincl, p->lkeys, p->lself, p->col, p->seen };
    cgwp_free_all(&p->a, blocks, sizeof blocks / sizeof *blocks);
    cgwp_index_free(&p->name_ix, &p->a);
    cgwp_index_free(&p->fn_ix, &p->a);
    cgwp_index_free(&p->edge_ix, &p->a);
    cgwp_index_free(&p->line_ix, &p->a);
    cgwp_index_free(&p->seen_ix, &p->a);
    cgwp_arena_free(&p->arena, &p->a);
}
