/* names.c - the name-compression tables: objects (ob, cob), files (fl, fi,
 * fe, cfi, jfi), functions (fn, cfn, jfn), plus the event names of the
 * header.  An entry gets its ID when it is first written, so IDs are dense
 * from 1 in order of first use; a function is keyed by (object, file,
 * name) because readers bind a function ID to the file and object current
 * when it is defined.  Tables live for one part. */
#include <string.h>

#include "write.h"

#define CHUNK_MIN 4096

static uint64_t hash_name(const char *s, size_t n, uint32_t a, uint32_t b)
{
    uint64_t h = 1469598103934665603ull ^ ((uint64_t)a << 32 | b);
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static const char *store(cgw_writer *w, cgwp_chunk **list, const char *s, size_t n)
{
    cgwp_chunk *c = *list;
    if (c == NULL || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > CHUNK_MIN ? n + 1 : CHUNK_MIN;
        c = cgwp_alloc(&w->alloc, sizeof *c + cap);
        if (c == NULL)
            return NULL;
        c->next = *list;
        c->used = 0;
        c->cap = cap;
        *list = c;
    }
    char *d = c->data + c->used;
    memcpy(d, s, n);
    d[n] = '\0';
    c->used += n + 1;
    return d;
}

static int grow_index(cgw_writer *w, cgwp_table *t)
{
    uint32_t size = t->slots ? (t->mask + 1) * 2 : 64;
    uint32_t *slots = cgwp_alloc(&w->alloc, size * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, size * sizeof *slots);
    for (uint32_t i = 0; i < t->count; i++) {
        uint32_t j = (uint32_t)t->names[i].hash & (size - 1);
        while (slots[j] != 0)
            j = (j + 1) & (size - 1);
        slots[j] = i + 1;
    }
    cgwp_free(&w->alloc, t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

static int grow_names(cgw_writer *w, cgwp_table *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 32;
    cgwp_name *names = cgwp_realloc(&w->alloc, t->names, cap * sizeof *names);
    if (names == NULL)
        return -1;
    t->names = names;
    t->cap = cap;
    return 0;
}

static uint32_t find(const cgwp_table *t, const char *s, size_t n, uint32_t a,
                     uint32_t b, uint64_t h, uint32_t *slot)
{
    if (t->slots == NULL)
        return 0;
    uint32_t j = (uint32_t)h & t->mask;
    for (; t->slots[j] != 0; j = (j + 1) & t->mask) {
        const cgwp_name *e = &t->names[t->slots[j] - 1];
        if (e->hash == h && e->len == n && e->scope_ob == a && e->scope_fl == b &&
            memcmp(e->str, s, n) == 0)
            return t->slots[j];
    }
    *slot = j;
    return 0;
}

static uint32_t recent_slot(const char *s)
{
    uintptr_t a = (uintptr_t)s;
    return (uint32_t)((a >> 3) ^ (a >> 11)) & (CGWP_RECENT - 1);
}

/* The entry (index + 1) of s in table kind, adding it when new.  With
 * what, a new name is checked first (cgwp_check_name); a name already in
 * the table passed that check when it came in. */
cgw_status cgwp_intern(cgw_writer *w, int kind, const char *what, const char *s,
                       uint32_t scope_ob, uint32_t scope_fl, uint32_t *entry)
{
    cgwp_table *t = &w->tables[kind];
    uint32_t *recent = s ? &t->recent[recent_slot(s)] : NULL;
    if (recent != NULL && *recent != 0) {
        const cgwp_name *e = &t->names[*recent - 1];
        if (e->given == s && e->scope_ob == scope_ob && e->scope_fl == scope_fl &&
            strcmp(e->str, s) == 0) {
            *entry = *recent;
            return CGW_OK;
        }
    }
    if (what != NULL) {
        cgw_status st = cgwp_check_name(w, what, s);
        if (st != CGW_OK)
            return st;
    }
    size_t n = strlen(s);
    if (n > UINT32_MAX)
        return cgwp_fail(w, CGW_EINVAL, "a name of %zu bytes is too long", n);
    uint64_t h = hash_name(s, n, scope_ob, scope_fl);
    uint32_t slot = 0;
    uint32_t found = find(t, s, n, scope_ob, scope_fl, h, &slot);
    if (found != 0) {
        t->names[found - 1].given = s;
        *recent = *entry = found;
        return CGW_OK;
    }
    if ((t->count + 1) * 2 > (t->slots ? t->mask + 1 : 0)) {
        if (grow_index(w, t) != 0)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory growing a name table");
        find(t, s, n, scope_ob, scope_fl, h, &slot);
    }
    if (t->count == t->cap && grow_names(w, t) != 0)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory growing a name table");
    const char *copy = store(w, kind == CGWP_EV ? &w->ev_chunks : &w->chunks, s, n);
    if (copy == NULL)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory storing a name of %zu bytes", n);
    cgwp_name *e = &t->names[t->count];
    e->str = copy;
    e->len = (uint32_t)n;
    e->id = 0;
    e->scope_ob = scope_ob;
    e->scope_fl = scope_fl;
    e->hash = h;
    e->given = s;
    t->slots[slot] = ++t->count;
    *recent = *entry = t->count;
    return CGW_OK;
}

const cgwp_name *cgwp_lookup(const cgw_writer *w, int kind, const char *s)
{
    const cgwp_table *t = &w->tables[kind];
    size_t n = strlen(s);
    uint32_t slot;
    uint32_t e = find(t, s, n, 0, 0, hash_name(s, n, 0, 0), &slot);
    return e ? &t->names[e - 1] : NULL;
}

/* spec=(id) name the first time, spec=(id) after; spec=name without
 * compression.  cgwp_write_name() writes the usual spec=(id) inline. */
cgw_status cgwp_write_name_any(cgw_writer *w, const char *spec, int kind, uint32_t entry)
{
    cgwp_table *t = &w->tables[kind];
    cgwp_name *e = &t->names[entry - 1];
    char *p = cgwp_reserve(w, 32);
    if (p == NULL)
        return w->err;
    char *q = p;
    while (*spec)
        *q++ = *spec++;
    int define = 1;
    if (!(w->flags & CGW_NO_NAME_COMPRESSION)) {
        define = e->id == 0;
        if (define)
            e->id = ++t->next_id;
        *q++ = '(';
        q = cgwp_fmt_dec(q, e->id);
        *q++ = ')';
        if (define)
            *q++ = ' ';
    }
    if (!define) {
        *q++ = '\n';
        return cgwp_commit(w, p, q);
    }
    cgw_status st = cgwp_commit(w, p, q);
    if (st == CGW_OK)
        st = cgwp_put(w, e->str, e->len);
    if (st == CGW_OK)
        st = cgwp_puts(w, "\n", 1);
    return st;
}

static void free_chunks(cgw_writer *w, cgwp_chunk **list)
{
    while (*list != NULL) {
        cgwp_chunk *next = (*list)->next;
        cgwp_free(&w->alloc, *list);
        *list = next;
    }
}

/* Forget every body name (a new part), keeping the event names. */
void cgwp_tables_reset(cgw_writer *w)
{
    free_chunks(w, &w->chunks);
    for (int k = 0; k < CGWP_NTABLES; k++) {
        if (k == CGWP_EV)
            continue;
        cgwp_table *t = &w->tables[k];
        t->count = 0;
        t->next_id = 0;
        memset(t->recent, 0, sizeof t->recent);
        if (t->slots)
            memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    }
}

void cgwp_tables_free(cgw_writer *w)
{
    for (int k = 0; k < CGWP_NTABLES; k++) {
        cgwp_free(&w->alloc, w->tables[k].names);
        cgwp_free(&w->alloc, w->tables[k].slots);
        memset(&w->tables[k], 0, sizeof w->tables[k]);
    }
    free_chunks(w, &w->chunks);
    free_chunks(w, &w->ev_chunks);
}
