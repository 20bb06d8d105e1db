/* read-names.c - the reader's memory, its pool of interned names, the
 * three per-part ID tables (objects, files, functions) and the set of
 * functions of a part.  All of it grows with distinct names only. */
#include <string.h>

#include "read.h"

#define CHUNK (64 * 1024)

/* n bytes, 8-aligned, from the chunks of *list, which live until
 * free_chunks() (names: the reader's life; functions: the part's). */
static void *arena(cgw_reader *r, cgwr_chunk **list, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    cgwr_chunk *c = *list;
    if (c == NULL || c->cap - c->used < n) {
        size_t cap = n > CHUNK ? n : CHUNK;
        c = cgwp_alloc(&r->alloc, sizeof *c + cap);
        if (c == NULL)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = *list;
        *list = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

static void free_chunks(cgw_reader *r, cgwr_chunk **list)
{
    while (*list != NULL) {
        cgwr_chunk *next = (*list)->next;
        cgwp_free(&r->alloc, *list);
        *list = next;
    }
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return x;
}

/* The hash of s[0..n), eight bytes a multiply (a byte a multiply, and
 * the UTF-8 check, took 5% of the instructions on a Callgrind file
 * without --dump-instr, whose names are long); *ascii says whether
 * every byte is below 0x80. */
static uint64_t hash_name(const char *s, size_t n, int *ascii)
{
    uint64_t h = n * 0x9e3779b97f4a7c15u, any = 0, w;
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        memcpy(&w, s + i, sizeof w);
        any |= w;
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    if (i < n) {
        for (w = 0; i < n; i++)
            w = w << 8 | (unsigned char)s[i];
        any |= w;
        h = (h ^ w) * 0xff51afd7ed558ccdu;
    }
    *ascii = (any & CGWR_BYTES(0x80)) == 0;
    return mix(h);
}

/* Well-formed UTF-8 lead and continuation bytes (overlong 3- and 4-byte
 * forms are not looked for: this is a portability warning). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            k = 1;
        else if (c >= 0xe0 && c <= 0xef)
            k = 2;
        else if (c >= 0xf0 && c <= 0xf4)
            k = 3;
        else
            return 0;
        if (n - i <= k)
            return 0;
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xc0) != 0x80)
                return 0;
        i += k + 1;
    }
    return 1;
}

static int grow_pool(cgw_reader *r)
{
    size_t cap = r->pool_mask ? (r->pool_mask + 1) * 2 : 1024;
    const cgwr_str **slots = cgwp_alloc(&r->alloc, cap * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = 0; r->pool_mask && i <= r->pool_mask; i++) {
        const cgwr_str *e = r->pool[i];
        if (e == NULL)
            continue;
        size_t j = e->hash & (cap - 1);
        while (slots[j] != NULL)
            j = (j + 1) & (cap - 1);
        slots[j] = e;
    }
    cgwp_free(&r->alloc, r->pool);
    r->pool = slots;
    r->pool_mask = cap - 1;
    return 0;
}

/* The one copy of s[0..len); NULL (and a sticky ENOMEM) on failure. */
const cgwr_str *cgwr_intern(cgw_reader *r, const char *s, size_t len)
{
    if (len > UINT32_MAX) {
        cgwr_fail(r, CGW_ENOMEM, "a name of %zu bytes at line %llu", len,
                  (unsigned long long)r->lineno);
        return NULL;
    }
    if ((r->pool_count + 1) * 2 > r->pool_mask && grow_pool(r) < 0)
        goto nomem;
    int ascii;
    uint64_t h = hash_name(s, len, &ascii);
    size_t i = h & r->pool_mask;
    for (const cgwr_str *e; (e = r->pool[i]) != NULL; i = (i + 1) & r->pool_mask)
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return e;
    cgwr_str *e = arena(r, &r->chunks, sizeof *e + len + 1);
    if (e == NULL)
        goto nomem;
    e->hash = h;
    e->len = (uint32_t)len;
    e->fn_part = 0;
    e->fn_index = 0;
    e->hint = 0;
    memcpy(e->s, s, len);
    e->s[len] = '\0';
    r->pool[i] = e;
    r->pool_count++;
    if (!ascii && !utf8_valid((const unsigned char *)s, len))
        cgwr_diag(r, r->lineno, CGWR_INVALID_UTF8,
                  "name \"%.60s\" is not valid UTF-8 (gprof2dot rejects it)", e->s);
    return e;
nomem:
    cgwr_fail(r, CGW_ENOMEM, "out of memory for names at line %llu",
              (unsigned long long)r->lineno);
    return NULL;
}

static const cgwr_str **id_slot(cgwr_idmap *m, uint64_t id)
{
    size_t i = mix(id) & m->mask;
    while (m->vals[i] != NULL && m->keys[i] != id)
        i = (i + 1) & m->mask;
    return &m->vals[i];
}

/* The name compressed ID id of kind stands for in the part; NULL when it
 * is not defined. */
const cgwr_str *cgwr_id_name(cgw_reader *r, int kind, uint64_t id)
{
    cgwr_idmap *m = &r->ids[kind];
    return m->mask ? *id_slot(m, id) : NULL;
}

static int id_grow(cgw_reader *r, cgwr_idmap *m)
{
    size_t cap = m->mask ? (m->mask + 1) * 2 : 256;
    cgwr_idmap n = { cgwp_alloc(&r->alloc, cap * sizeof *n.keys),
                     cgwp_alloc(&r->alloc, cap * sizeof *n.vals), 0, cap - 1 };
    if (n.keys == NULL || n.vals == NULL) {
        cgwp_free(&r->alloc, n.keys);
        cgwp_free(&r->alloc, n.vals);
        return -1;
    }
    memset(n.vals, 0, cap * sizeof *n.vals);
    for (size_t i = 0; m->mask && i <= m->mask; i++) {
        if (m->vals[i] == NULL)
            continue;
        const cgwr_str **slot = id_slot(&n, m->keys[i]);
        n.keys[slot - n.vals] = m->keys[i];
        *slot = m->vals[i];
    }
    n.count = m->count;
    cgwp_free(&r->alloc, m->keys);
    cgwp_free(&r->alloc, m->vals);
    *m = n;
    return 0;
}

static const char *const spec_kind[CGWR_NKINDS] = { "object", "file", "function" };

/* Define compressed ID id of kind as s[0..len), a name without blanks
 * around it: the name, after the diagnostics of a redefinition; NULL
 * only after a sticky error.  The table is probed once, and again only
 * when it grew. */
const cgwr_str *cgwr_id_define(cgw_reader *r, int kind, uint64_t id, const char *s, size_t len)
{
    cgwr_idmap *m = &r->ids[kind];
    if (m->mask == 0 && id_grow(r, m) < 0)
        goto nomem;
    const cgwr_str *name = cgwr_intern(r, s, len);
    if (name == NULL)
        return NULL;
    const cgwr_str **slot = id_slot(m, id);
    if (*slot != NULL) {
        if (*slot == name)
            cgwr_diag(r, r->lineno, CGWR_ID_SAME_REDEFINED,
                      "%s ID (%llu) is defined again with the same name (speedscope "
                      "rejects this)", spec_kind[kind], (unsigned long long)id);
        else
            cgwr_diag(r, r->lineno, CGWR_ID_REDEFINED,
                      "%s ID (%llu) was \"%.60s\" and is redefined as \"%.60s\"",
                      spec_kind[kind], (unsigned long long)id, (*slot)->s, name->s);
        *slot = name;
        return name;
    }
    if ((m->count + 1) * 2 > m->mask) {
        if (id_grow(r, m) < 0)
            goto nomem;
        slot = id_slot(m, id);
    }
    m->keys[slot - m->vals] = id;
    *slot = name;
    m->count++;
    return name;
nomem:
    cgwr_fail(r, CGW_ENOMEM, "out of memory for IDs at line %llu",
              (unsigned long long)r->lineno);
    return NULL;
}

/* Define or look up a compressed ID; p..end is what follows "(". */
static const cgwr_str *compressed(cgw_reader *r, int kind, const char *p, const char *end)
{
    uint64_t id = 0;
    const char *d = p;
    while (p < end && *p >= '0' && *p <= '9') {
        if (id > (UINT64_MAX - 9) / 10) {
            cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER, "%s ID \"%.*s\" is too large",
                      spec_kind[kind], cgwr_clip(d, end, 24), d);
            return r->unknown;
        }
        id = id * 10 + (uint64_t)(*p++ - '0');
    }
    p++; /* ')' */
    if (*d == '0' && p - d > 2)
        cgwr_diag(r, r->lineno, CGWR_ID_LEADING_ZERO,
                  "%s ID (%.*s) has a leading zero", spec_kind[kind], (int)(p - d - 1), d);
    if (p < end && cgwr_blank(*p))
        p++;
    if (p == end) {
        const cgwr_str *name = cgwr_id_name(r, kind, id);
        if (name == NULL) {
            cgwr_diag(r, r->lineno, CGWR_UNDEFINED_ID,
                      "%s ID (%llu) is used before any \"(%llu) name\" defines it in this part",
                      spec_kind[kind], (unsigned long long)id, (unsigned long long)id);
            return r->unknown;
        }
        return name;
    }
    const char *e = end, *s = cgwr_trim(p, &e);
    if (s != p || e != end)
        cgwr_diag(r, r->lineno, CGWR_NAME_BLANK,
                  "blanks around the name of %s ID (%llu); speedscope and gprof2dot strip "
                  "them, KCachegrind keeps them", spec_kind[kind], (unsigned long long)id);
    return cgwr_id_define(r, kind, id, s, (size_t)(e - s));
}

/* The name of a spec line's value s[0..len): "(id) name", "(id)" or a
 * plain name.  Undefined IDs give "???".  NULL only after a sticky error. */
const cgwr_str *cgwr_name(cgw_reader *r, int kind, const char *s, size_t len)
{
    const char *end = s + len;
    if (len >= 3 && s[0] == '(' && s[1] >= '0' && s[1] <= '9') {
        const char *p = s + 1;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p < end && *p == ')')
            return compressed(r, kind, s + 1, end);
    }
    const char *e = end, *b = cgwr_trim(s, &e);
    if (b != s || e != end)
        cgwr_diag(r, r->lineno, CGWR_NAME_BLANK,
                  "blanks around the %s name; speedscope and gprof2dot strip them",
                  spec_kind[kind]);
    if (b == e)
        cgwr_diag(r, r->lineno, CGWR_EMPTY_NAME, "empty %s name (\"???\" means unknown)",
                  spec_kind[kind]);
    else if (*b == '(')
        cgwr_diag(r, r->lineno, CGWR_PAREN_NAME,
                  "uncompressed %s name \"%.*s\" starts with '(' (Qt Creator loses it; "
                  "compress it as \"(id) name\")", spec_kind[kind],
                  (int)(e - b > 60 ? 60 : e - b), b);
    return cgwr_intern(r, b, (size_t)(e - b));
}

void cgwr_ids_reset(cgw_reader *r)
{
    for (int k = 0; k < CGWR_NKINDS; k++) {
        cgwr_idmap *m = &r->ids[k];
        if (m->mask)
            memset(m->vals, 0, (m->mask + 1) * sizeof *m->vals);
        m->count = 0;
    }
    free_chunks(r, &r->fn_chunks);
    r->nfns = 0;
    if (r->fn_mask)
        memset(r->fn_slots, 0, (r->fn_mask + 1) * sizeof *r->fn_slots);
}

static size_t fn_hash(const cgwr_str *ob, const cgwr_str *fl, const cgwr_str *name)
{
    return (size_t)mix((uintptr_t)ob * 31 + (uintptr_t)fl * 7 + (uintptr_t)name);
}

static int fn_grow(cgw_reader *r)
{
    size_t cap = r->fn_mask ? (r->fn_mask + 1) * 2 : 1024;
    uint32_t *slots = cgwp_alloc(&r->alloc, cap * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = 0; i < r->nfns; i++) {
        const cgwr_fn *f = r->fns[i];
        size_t j = fn_hash(f->ob, f->fl, f->name) & (cap - 1);
        while (slots[j] != 0)
            j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)i + 1;
    }
    cgwp_free(&r->alloc, r->fn_slots);
    r->fn_slots = slots;
    r->fn_mask = cap - 1;
    return 0;
}

/* The index of function (ob, fl, name) in the part, added when new;
 * -1 after a sticky error.  The function found last for the name (in
 * this part or an earlier one: it is checked) is tried first, which
 * spares most calls a probe of the hash table. */
int cgwr_function(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                  const cgwr_str *name, uint64_t line)
{
    cgwr_str *hinted = (cgwr_str *)name;
    if (name->hint < r->nfns) {
        const cgwr_fn *f = r->fns[name->hint];
        if (f->ob == ob && f->fl == fl && f->name == name)
            return (int)name->hint;
    }
    if ((r->nfns + 1) * 2 > r->fn_mask && fn_grow(r) < 0)
        goto nomem;
    size_t j = fn_hash(ob, fl, name) & r->fn_mask;
    for (uint32_t k; (k = r->fn_slots[j]) != 0; j = (j + 1) & r->fn_mask) {
        const cgwr_fn *f = r->fns[k - 1];
        if (f->ob == ob && f->fl == fl && f->name == name) {
            hinted->hint = k - 1;
            return (int)k - 1;
        }
    }
    if (r->nfns == r->fns_cap) {
        size_t cap = r->fns_cap ? r->fns_cap * 2 : 256;
        cgwr_fn **fns = cgwp_realloc(&r->alloc, r->fns, cap * sizeof *fns);
        if (fns == NULL)
            goto nomem;
        r->fns = fns;
        r->fns_cap = cap;
    }
    if (r->nfns >= INT32_MAX)
        goto nomem;
    /* from chunks, never moved: a growing array of them was copied at
     * each doubling, into pages the kernel must fault in */
    size_t nagg = (r->flags & CGW_READ_CHECK) ? r->nevents : 0;
    size_t size = sizeof(cgwr_fn) + 3 * nagg * sizeof(uint64_t);
    cgwr_fn *f = arena(r, &r->fn_chunks, size);
    if (f == NULL)
        goto nomem;
    memset(f, 0, size);
    f->ob = ob;
    f->fl = fl;
    f->name = name;
    f->first_line = line;
    f->nagg = (uint32_t)nagg;
    r->fns[r->nfns] = f;
    r->fn_slots[j] = (uint32_t)r->nfns + 1;
    hinted->hint = (uint32_t)r->nfns;
    return (int)r->nfns++;
nomem:
    cgwr_fail(r, CGW_ENOMEM, "out of memory for functions at line %llu",
              (unsigned long long)line);
    return -1;
}

void cgwr_names_free(cgw_reader *r)
{
    free_chunks(r, &r->fn_chunks);
    for (int k = 0; k < CGWR_NKINDS; k++) {
        cgwp_free(&r->alloc, r->ids[k].keys);
        cgwp_free(&r->alloc, r->ids[k].vals);
    }
    cgwp_free(&r->alloc, r->fns);
    cgwp_free(&r->alloc, r->fn_slots);
    cgwp_free(&r->alloc, r->pool);
    free_chunks(r, &r->chunks);
}
