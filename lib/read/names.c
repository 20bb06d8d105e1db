/* SPDX-License-Identifier: MIT */
/* names.c - the reader's pool of interned names, the
 * three per-part ID tables (objects, files, functions) and the set of
 * functions of a part.  All of it grows with distinct names only. */
#include <stdio.h>
#include <string.h>

#include "common/utf8.h"
#include "read.h"

#define CHUNK (64 * 1024)

void cgwr_names_init(cgw_reader *r)
{
    r->names.chunk_size = CHUNK;
    r->fn_arena.chunk_size = CHUNK;
    cgwp_hash_key_init(&r->hash_key);
}

/* The one copy of str[0..len); NULL (and a sticky ENOMEM) on failure. */
/* A control byte in a name (but CR, which cr-in-line says) reaches a
 * terminal through every tool that prints the name: a warning that
 * quotes the name with such bytes as \xNN (the tools' escaping). */
static void control_in_name(cgw_reader *r, const cgwr_str *name)
{
    size_t at = 0;
    while (at < name->len) {
        unsigned char c = (unsigned char)name->s[at];
        if ((c < 0x20 && c != '\r') || c == 0x7f)
            break;
        at++;
    }
    if (at == name->len)
        return;
    char quoted[4 * 60 + 1], *q = quoted;
    for (size_t i = 0; i < name->len && i < 60; i++) {
        unsigned char c = (unsigned char)name->s[i];
        if (c < 0x20 || c == 0x7f)
            q += snprintf(q, 5, "\\x%02x", c);
        else
            *q++ = (char)c;
    }
    *q = '\0';
    cgwr_diag(r, r->lineno, CGWR_CONTROL_IN_NAME,
              "name \"%s\" has a control byte (0x%02x at byte %zu) that a terminal "
              "would act on", quoted, (unsigned char)name->s[at], at + 1);
}

const cgwr_str *cgwr_intern(cgw_reader *r, const char *str, size_t len)
{
    if (len > UINT32_MAX) {
        cgwr_fail(r, CGW_ENOMEM, "a name of %zu bytes at line %llu", len,
                  (unsigned long long)r->lineno);
        return NULL;
    }
    if (cgwp_hash_reserve(&r->pool, &r->alloc, 1024) < 0)
        goto nomem;
    uint64_t high;
    uint64_t key = cgwp_hash_bytes(str, len, &r->hash_key, 0, &high);
    size_t slot = cgwp_hash_start(&r->pool, key);
    for (; r->pool.vals[slot] != 0; slot = cgwp_hash_next(&r->pool, slot)) {
        const cgwr_str *old = (const cgwr_str *)r->pool.vals[slot];
        if (r->pool.keys[slot] == key && old->len == len && memcmp(old->s, str, len) == 0)
            return old;
    }
    cgwr_str *name = cgwp_arena_alloc(&r->names, &r->alloc, sizeof *name + len + 1);
    if (name == NULL)
        goto nomem;
    name->len = (uint32_t)len;
    name->in_cwd = 0;
    name->fn_part = 0;
    name->fn_index = 0;
    name->first = 0;
    memcpy(name->s, str, len);
    name->s[len] = '\0';
    cgwp_hash_put(&r->pool, slot, key, (uintptr_t)name);
    if ((high & CGWP_BYTES(0x80)) != 0 && !cgwp_utf8_valid((const unsigned char *)str, len))
        cgwr_diag(r, r->lineno, CGWR_INVALID_UTF8,
                  "name \"%.60s\" is not valid UTF-8 (gprof2dot rejects it)", name->s);
    control_in_name(r, name);
    return name;
nomem:
    cgwr_fail(r, CGW_ENOMEM, "out of memory for names at line %llu",
              (unsigned long long)r->lineno);
    return NULL;
}

/* The slot of ID key (cgwp_hash_int of the ID) in ids: its own, or the
 * empty one where it would go. */
static size_t id_slot(const cgwp_hash *ids, uint64_t key)
{
    size_t slot = cgwp_hash_start(ids, key);
    while (ids->vals[slot] != 0 && ids->keys[slot] != key)
        slot = cgwp_hash_next(ids, slot);
    return slot;
}

/* The name compressed ID id of kind stands for in the part; NULL when it
 * is not defined. */
const cgwr_str *cgwr_id_name(cgw_reader *r, int kind, uint64_t id)
{
    const cgwp_hash *ids = &r->ids[kind];
    if (ids->vals == NULL)
        return NULL;
    return (const cgwr_str *)ids->vals[id_slot(ids, cgwp_hash_int(&r->hash_key, id))];
}

static const char *const spec_kind[CGWR_NKINDS] = { "object", "file", "function" };

/* Define compressed ID id of kind as str[0..len), a name without blanks
 * around it: the name, after the diagnostics of a redefinition; NULL
 * only after a sticky error.  Room is made first, so the table is
 * probed once. */
const cgwr_str *cgwr_id_define(cgw_reader *r, int kind, uint64_t id, const char *str, size_t len)
{
    cgwp_hash *ids = &r->ids[kind];
    if (cgwp_hash_reserve(ids, &r->alloc, 256) < 0) {
        cgwr_fail(r, CGW_ENOMEM, "out of memory for IDs at line %llu",
                  (unsigned long long)r->lineno);
        return NULL;
    }
    const cgwr_str *name = cgwr_intern(r, str, len);
    if (name == NULL)
        return NULL;
    uint64_t key = cgwp_hash_int(&r->hash_key, id);
    size_t slot = id_slot(ids, key);
    if (ids->vals[slot] == 0) {
        cgwp_hash_put(ids, slot, key, (uintptr_t)name);
        return name;
    }
    const cgwr_str *was = (const cgwr_str *)ids->vals[slot];
    if (was == name)
        cgwr_diag(r, r->lineno, CGWR_ID_SAME_REDEFINED,
                  "%s ID (%llu) is defined again with the same name (speedscope "
                  "rejects this)", spec_kind[kind], (unsigned long long)id);
    else
        cgwr_diag(r, r->lineno, CGWR_ID_REDEFINED,
                  "%s ID (%llu) was \"%.60s\" and is redefined as \"%.60s\"",
                  spec_kind[kind], (unsigned long long)id, was->s, name->s);
    ids->vals[slot] = (uintptr_t)name;
    return name;
}

/* An empty name of kind: "???" means unknown; KCachegrind 22.12 reads an
 * empty function name as "(unknown)".  An empty file name is read as
 * "???", as KCachegrind shows it (ruby-prof writes "fl=" for built-in
 * methods), so that the tools can write it again.  An uncompressed empty
 * object name is no object (cgwr_name()). */
static void empty_name(cgw_reader *r, int kind)
{
    r->empty_line = r->lineno;
    if (kind == CGWR_FN)
        cgwr_diag(r, r->lineno, CGWR_EMPTY_FUNCTION,
                  "empty function name (KCachegrind shows \"(unknown)\"; "
                  "\"???\" means unknown)");
    else
        cgwr_diag(r, r->lineno, CGWR_EMPTY_NAME, "empty %s name (\"???\" means unknown)",
                  spec_kind[kind]);
}

/* Define or look up a compressed ID: digits..rparen is the ID, a Number
 * (decimal, or hex after 0x), and rparen..end the ')' and what follows. */
static const cgwr_str *compressed(cgw_reader *r, int kind, const char *digits,
                                  const char *rparen, const char *end)
{
    uint64_t id;
    int flags = 0;
    cgwr_number(digits, rparen, &id, &flags);
    if (flags & CGWR_NUM_OVERFLOW) {
        cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER, "%s ID \"%.*s\" passes 2^64-1",
                  spec_kind[kind], cgwr_clip(digits, rparen, 24), digits);
        return r->unknown;
    }
    if (flags & CGWR_NUM_HEX)
        cgwr_diag(r, r->lineno, CGWR_HEX_ID,
                  "%s ID (%.*s) is hex, as the grammar allows; KCachegrind reads it as 0, "
                  "speedscope as part of the name",
                  spec_kind[kind], cgwr_clip(digits, rparen, 24), digits);
    else if (*digits == '0' && rparen - digits > 1)
        cgwr_diag(r, r->lineno, CGWR_ID_LEADING_ZERO, "%s ID (%.*s) has a leading zero",
                  spec_kind[kind], (int)(rparen - digits), digits);
    const char *cur = rparen + 1;
    if (cur < end && cgwr_blank(*cur))
        cur++;
    if (cur == end) {
        const cgwr_str *name = cgwr_id_name(r, kind, id);
        if (name == NULL) {
            cgwr_diag(r, r->lineno, CGWR_UNDEFINED_ID,
                      "%s ID (%llu) is used before any \"(%llu) name\" defines it in this part",
                      spec_kind[kind], (unsigned long long)id, (unsigned long long)id);
            return r->unknown;
        }
        return name;
    }
    const char *name_end = end, *name = cgwr_trim(cur, &name_end);
    if (name_end != end)
        cgwr_diag(r, r->lineno, CGWR_NAME_BLANK,
                  "blanks after the name of %s ID (%llu); every reader keeps them",
                  spec_kind[kind], (unsigned long long)id);
    else if (name != cur)
        cgwr_diag(r, r->lineno, CGWR_ID_NAME_BLANK,
                  "more than one blank between %s ID (%llu) and its name (every reader "
                  "strips them)", spec_kind[kind], (unsigned long long)id);
    if (name == name_end) {
        empty_name(r, kind);
        if (kind != CGWR_FN)
            return cgwr_id_define(r, kind, id, "???", 3);
    }
    return cgwr_id_define(r, kind, id, name, (size_t)(name_end - name));
}

/* The name of a spec line's value[0..len): "(id) name", "(id)" or a
 * plain name; "(" and a digit start an ID, as the grammar says.
 * Undefined IDs give "???".  NULL only after a sticky error. */
const cgwr_str *cgwr_name(cgw_reader *r, int kind, const char *value, size_t len)
{
    const char *end = value + len;
    if (len >= 3 && value[0] == '(' && value[1] >= '0' && value[1] <= '9') {
        uint64_t id;
        int flags = 0;
        const char *rparen = cgwr_number(value + 1, end, &id, &flags);
        if (rparen != NULL && rparen < end && *rparen == ')')
            return compressed(r, kind, value + 1, rparen, end);
    }
    /* "(2" at the end of a line or file: an ID cut off, not a name */
    size_t digits = 1;
    while (digits < len && value[digits] >= '0' && value[digits] <= '9')
        digits++;
    if (len >= 2 && value[0] == '(' && digits == len) {
        cgwr_diag(r, r->lineno, CGWR_UNCLOSED_ID,
                  "%s ID \"%.*s\" has no ')': cut off (KCachegrind reads \"???\")",
                  spec_kind[kind], (int)(len > 24 ? 24 : len), value);
        return r->unknown;
    }
    const char *name_end = end, *name = cgwr_trim(value, &name_end);
    if (name != value || name_end != end)
        cgwr_diag(r, r->lineno, CGWR_NAME_BLANK,
                  "white space around the %s name; speedscope and gprof2dot strip it "
                  "before the name, every reader keeps it after",
                  spec_kind[kind]);
    if (name == name_end && kind == CGWR_OB)
        return r->no_object; /* back to no object, as libcgw writes it: KCachegrind
                              * and callgrind_annotate show no object too */
    if (name == name_end) {
        empty_name(r, kind);
        if (kind != CGWR_FN)
            return r->unknown;
    } else if (*name == '(')
        cgwr_diag(r, r->lineno, CGWR_PAREN_NAME,
                  "uncompressed %s name \"%.*s\" starts with '(' (Qt Creator loses it; "
                  "compress it as \"(id) name\")", spec_kind[kind],
                  (int)(name_end - name > 60 ? 60 : name_end - name), name);
    return cgwr_intern(r, name, (size_t)(name_end - name));
}

void cgwr_ids_reset(cgw_reader *r)
{
    for (int k = 0; k < CGWR_NKINDS; k++)
        cgwp_hash_clear(&r->ids[k]);
    cgwp_arena_free(&r->fn_arena, &r->alloc);
    r->nfns = 0;
    cgwp_hash_clear(&r->fn_table);
}

/* The addresses of interned names, whose gaps an input sets with the
 * lengths of its names: combined with secret odd multipliers, so that
 * no input can make two triples add up alike. */
static uint64_t fn_key(const cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                       const cgwr_str *name)
{
    uint64_t sum = ((uintptr_t)ob * (r->hash_key.k0 | 1) + (uintptr_t)fl) * (r->hash_key.k1 | 1);
    return cgwp_hash_mix(sum + (uintptr_t)name);
}

/* A new function (ob, fl, name) of the part: its index, or -1. */
static int new_function(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                        const cgwr_str *name, uint64_t line)
{
    if (r->nfns == r->fns_cap) {
        size_t cap = r->fns_cap ? r->fns_cap * 2 : 256;
        cgwr_fn **fns = cgwp_realloc(&r->alloc, r->fns, cap * sizeof *fns);
        if (fns == NULL)
            return -1;
        r->fns = fns;
        r->fns_cap = cap;
    }
    if (r->nfns >= INT32_MAX)
        return -1;
    /* from chunks, never moved: a growing array of them was copied at
     * each doubling, into pages the kernel must fault in */
    size_t nagg = (r->flags & CGW_READ_CHECK) ? cgwr_checked_events(r) : 0;
    size_t size = sizeof(cgwr_fn) + 2 * nagg * sizeof(uint64_t);
    cgwr_fn *func = cgwp_arena_alloc(&r->fn_arena, &r->alloc, size);
    if (func == NULL)
        return -1;
    memset(func, 0, size);
    func->ob = ob;
    func->fl = fl;
    func->name = name;
    func->first_line = line;
    func->nagg = (uint32_t)nagg;
    r->fns[r->nfns] = func;
    return (int)r->nfns++;
}

/* The index of function (ob, fl, name) in the part, added when new;
 * -1 after a sticky error.  The first function of a name in the part is
 * found through the name; only the others (a name in several files or
 * objects: few) go into the hash table, which stays small. */
int cgwr_function(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                  const cgwr_str *name, uint64_t line)
{
    int index;
    if (name->first >= r->nfns || r->fns[name->first]->name != name) {
        /* the first of its name: once set, first stays valid in the part */
        if ((index = new_function(r, ob, fl, name, line)) < 0)
            goto nomem;
        ((cgwr_str *)name)->first = (uint32_t)index;
        return index;
    }
    const cgwr_fn *first = r->fns[name->first];
    if (first->ob == ob && first->fl == fl)
        return (int)name->first;
    if (cgwp_hash_reserve(&r->fn_table, &r->alloc, 256) < 0)
        goto nomem;
    uint64_t key = fn_key(r, ob, fl, name);
    size_t slot = cgwp_hash_start(&r->fn_table, key);
    for (uintptr_t entry; (entry = r->fn_table.vals[slot]) != 0;
         slot = cgwp_hash_next(&r->fn_table, slot)) {
        const cgwr_fn *func = r->fns[entry - 1];
        if (r->fn_table.keys[slot] == key && func->ob == ob && func->fl == fl &&
            func->name == name)
            return (int)(entry - 1);
    }
    if ((index = new_function(r, ob, fl, name, line)) < 0)
        goto nomem;
    cgwp_hash_put(&r->fn_table, slot, key, (uintptr_t)index + 1);
    return index;
nomem:
    cgwr_fail(r, CGW_ENOMEM, "out of memory for functions at line %llu",
              (unsigned long long)line);
    return -1;
}

void cgwr_names_free(cgw_reader *r)
{
    cgwp_arena_free(&r->fn_arena, &r->alloc);
    for (int k = 0; k < CGWR_NKINDS; k++)
        cgwp_hash_free(&r->ids[k], &r->alloc);
    cgwp_free(&r->alloc, r->fns);
    cgwp_hash_free(&r->fn_table, &r->alloc);
    cgwp_hash_free(&r->pool, &r->alloc);
    cgwp_arena_free(&r->names, &r->alloc);
}
