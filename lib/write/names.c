/* SPDX-License-Identifier: MIT */
/* names.c - the name-compression tables: objects (ob, cob), files (fl, fi,
 * fe, cfi, jfi), functions (fn, cfn, jfn), plus the event names of the
 * header.  An entry gets its ID when it is first written, so IDs are dense
 * from 1 in order of first use; a function is keyed by (object, file,
 * name) because readers bind a function ID to the file and object current
 * when it is defined.  Tables live for one part. */
#include <string.h>

#include "write.h"

#define CHUNK 4096

void cgwp_tables_init(cgw_writer *w)
{
    w->names.chunk_size = CHUNK;
    w->event_names.chunk_size = CHUNK;
    cgwp_hash_key_init(&w->hash_key);
}

static int grow_names(cgw_writer *w, cgwp_table *table)
{
    uint32_t cap = table->cap ? table->cap * 2 : 32;
    cgwp_name *names = cgwp_realloc(&w->alloc, table->names, cap * sizeof *names);
    if (names == NULL)
        return -1;
    table->names = names;
    table->cap = cap;
    return 0;
}

/* The entry (index + 1) of name[0..len) in scope; 0 when there is none,
 * and *slot is then where it would go. */
static uint32_t find(const cgwp_table *table, const char *name, size_t len, uint32_t scope_ob,
                     uint32_t scope_fl, uint64_t key, size_t *slot)
{
    const cgwp_hash *index = &table->index;
    if (index->vals == NULL) /* cgwp_lookup() before any name */
        return 0;
    size_t at = cgwp_hash_start(index, key);
    for (; index->vals[at] != 0; at = cgwp_hash_next(index, at)) {
        const cgwp_name *entry = &table->names[index->vals[at] - 1];
        if (index->keys[at] == key && entry->len == len && entry->scope_ob == scope_ob &&
            entry->scope_fl == scope_fl && memcmp(entry->str, name, len) == 0)
            return (uint32_t)index->vals[at];
    }
    *slot = at;
    return 0;
}

/* A name's key: its bytes and the scope that, for a function, is part of
 * its identity. */
static uint64_t name_key(const cgw_writer *w, const char *name, size_t len, uint32_t scope_ob,
                         uint32_t scope_fl)
{
    return cgwp_hash_bytes(name, len, &w->hash_key, (uint64_t)scope_ob << 32 | scope_fl, NULL);
}

static uint32_t recent_slot(const char *name)
{
    uintptr_t addr = (uintptr_t)name;
    return (uint32_t)((addr >> 3) ^ (addr >> 11)) & (CGWP_RECENT - 1);
}

/* The entry (index + 1) of name in table kind, adding it when new.  With
 * what, a new name is checked before it is added (cgwp_check_name); a
 * name already in the table passed that check when it came in, so a name
 * given again at another pointer costs its hash, not the check too. */
cgw_status cgwp_intern(cgw_writer *w, int kind, const char *what, const char *name,
                       uint32_t scope_ob, uint32_t scope_fl, uint32_t *entry)
{
    cgwp_table *table = &w->tables[kind];
    uint32_t *recent = name ? &table->recent[recent_slot(name)] : NULL;
    if (recent != NULL && *recent != 0) {
        const cgwp_name *hit = &table->names[*recent - 1];
        if (hit->given == name && hit->scope_ob == scope_ob && hit->scope_fl == scope_fl &&
            strcmp(hit->str, name) == 0) {
            *entry = *recent;
            return CGW_OK;
        }
    }
    if (name == NULL) /* refused, with its message */
        return what != NULL ? cgwp_check_name(w, what, name)
                            : cgwp_fail(w, CGW_EUSAGE, "a name is NULL");
    size_t len = strlen(name);
    if (len > UINT32_MAX)
        return cgwp_fail(w, CGW_EINVAL, "a name of %zu bytes is too long", len);
    uint64_t key = name_key(w, name, len, scope_ob, scope_fl);
    size_t slot = 0;
    uint32_t found = find(table, name, len, scope_ob, scope_fl, key, &slot);
    if (found != 0) {
        table->names[found - 1].given = name;
        *recent = *entry = found;
        return CGW_OK;
    }
    if (what != NULL) {
        cgw_status st = cgwp_check_name(w, what, name);
        if (st != CGW_OK)
            return st;
    }
    /* grown only for a new name, so that the calls of a body that names
     * no new function allocate nothing */
    int grew = cgwp_hash_reserve(&table->index, &w->alloc, 64);
    if (grew < 0)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory growing a name table");
    if (grew)
        find(table, name, len, scope_ob, scope_fl, key, &slot);
    if (table->count == table->cap && grow_names(w, table) != 0)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory growing a name table");
    cgwp_arena *arena = kind == CGWP_EV ? &w->event_names : &w->names;
    const char *copy = cgwp_arena_strdup(arena, &w->alloc, name, len);
    if (copy == NULL)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory storing a name of %zu bytes", len);
    cgwp_name *added = &table->names[table->count];
    added->str = copy;
    added->len = (uint32_t)len;
    added->id = 0;
    added->scope_ob = scope_ob;
    added->scope_fl = scope_fl;
    added->given = name;
    table->count++;
    cgwp_hash_put(&table->index, slot, key, table->count);
    *recent = *entry = table->count;
    return CGW_OK;
}

const cgwp_name *cgwp_lookup(const cgw_writer *w, int kind, const char *name)
{
    const cgwp_table *table = &w->tables[kind];
    size_t len = strlen(name);
    size_t slot;
    uint32_t found = find(table, name, len, 0, 0, name_key(w, name, len, 0, 0), &slot);
    return found ? &table->names[found - 1] : NULL;
}

/* spec=(id) name the first time, spec=(id) after; spec=name without
 * compression.  cgwp_write_name() writes the usual spec=(id) inline. */
cgw_status cgwp_write_name_any(cgw_writer *w, const char *spec, int kind, uint32_t entry)
{
    cgwp_table *table = &w->tables[kind];
    cgwp_name *name = &table->names[entry - 1];
    char *start = cgwp_reserve(w, 32);
    if (start == NULL)
        return w->err;
    char *cur = start;
    while (*spec)
        *cur++ = *spec++;
    int define = 1;
    if (!(w->flags & CGW_NO_NAME_COMPRESSION)) {
        define = name->id == 0;
        if (define)
            name->id = ++table->next_id;
        *cur++ = '(';
        cur = cgwp_fmt_dec(cur, name->id);
        *cur++ = ')';
        if (define)
            *cur++ = ' ';
    }
    if (!define) {
        *cur++ = '\n';
        return cgwp_commit(w, start, cur);
    }
    cgw_status st = cgwp_commit(w, start, cur);
    if (st == CGW_OK)
        st = cgwp_put(w, name->str, name->len);
    if (st == CGW_OK)
        st = cgwp_puts(w, "\n", 1);
    return st;
}

/* Forget every body name (a new part), keeping the event names. */
void cgwp_tables_reset(cgw_writer *w)
{
    cgwp_arena_free(&w->names, &w->alloc);
    for (int k = 0; k < CGWP_NTABLES; k++) {
        if (k == CGWP_EV)
            continue;
        cgwp_table *table = &w->tables[k];
        table->count = 0;
        table->next_id = 0;
        memset(table->recent, 0, sizeof table->recent);
        cgwp_hash_clear(&table->index);
    }
}

void cgwp_tables_free(cgw_writer *w)
{
    for (int k = 0; k < CGWP_NTABLES; k++) {
        cgwp_free(&w->alloc, w->tables[k].names);
        cgwp_hash_free(&w->tables[k].index, &w->alloc);
        memset(&w->tables[k], 0, sizeof w->tables[k]);
    }
    cgwp_arena_free(&w->names, &w->alloc);
    cgwp_arena_free(&w->event_names, &w->alloc);
}
