/* SPDX-License-Identifier: MIT */
/* merge.c - the merger's life and its input side: every record of a
 * reader added to the sums (cgw_merge_*, and the differ's inputs).  Names
 * are rewritten once per distinct name of a reader, through a cache of
 * the reader's name pointers (equal names have equal pointers). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

cgw_merger *cgw_merge_new(const cgw_merge_options *given)
{
    cgw_merge_options o = CGW_MERGE_OPTIONS_INIT;
    int bad_size = cgwp_options_take(&o, sizeof o, sizeof o, given) < 0;
    const cgw_allocator *alloc = o.allocator != NULL ? o.allocator : cgwp_libc();
    if (alloc->malloc == NULL || alloc->realloc == NULL || alloc->free == NULL) {
        errno = EINVAL;
        return NULL;
    }
    cgw_merger *m = alloc->malloc(alloc->ctx, sizeof *m);
    if (m == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    memset(m, 0, sizeof *m);
    m->a = *alloc;
    m->mask = CGW_POS_INSTR | CGW_POS_BB | CGW_POS_LINE;
    cgw_pos_kinds(m->mask, m->slot_kind); /* a slot for each kind, in array order */
    cgwm_table_init(m, &m->fns, 3, 0, 0);
    cgwm_table_init(m, &m->tab[T_COST], K_COST_END, 0, 0);
    cgwm_table_init(m, &m->tab[T_CALL], K_CALL_END, 1, 0);
    cgwm_table_init(m, &m->tab[T_JUMP], K_JUMP_END, 2, 0);
    if (bad_size) {
        cgwm_fail(m, CGW_EINVAL, "cgw_merge_new",
                  "options.struct_size is %zu, not sizeof(cgw_merge_options) (%zu): start "
                  "them from CGW_MERGE_OPTIONS_INIT", given->struct_size, sizeof o);
        return m;
    }
    m->flags = o.flags;
    if (o.flags & ~(unsigned)CGW_MERGE_KEEP_PARTS)
        cgwm_fail(m, CGW_EINVAL, "cgw_merge_new", "unknown flags %#x", o.flags);
    if (o.mod_filename != NULL)
        cgwm_subst_compile(m, 0, o.mod_filename);
    if (o.mod_funcname != NULL)
        cgwm_subst_compile(m, 1, o.mod_funcname);
    return m;
}

void cgw_merge_free(cgw_merger *m)
{
    if (m == NULL)
        return;
    cgwm_subst_free(m, 0);
    cgwm_subst_free(m, 1);
    cgwm_names_free(m);
    cgwm_table_free(m, &m->fns);
    for (int table = 0; table < T_N; table++)
        cgwm_table_free(m, &m->tab[table]);
    cgwm_free(m, m->ev_name);
    cgwm_free(m, m->ev_long);
    cgwm_free(m, m->der);
    cgwp_free(&m->a, m);
}

cgw_status cgw_merge_error(const cgw_merger *m)
{
    return m == NULL ? CGW_EUSAGE : m->err;
}

const char *cgw_merge_errmsg(const cgw_merger *m)
{
    return m == NULL ? "cgw_merge: the merger is NULL" : m->msg;
}

/* ------------------------------------------------- one reader's names */

enum { N_OBJECT, N_FILE, N_FUNCTION };

typedef struct pslot {
    const char *p;
    uint32_t kind, id;
} pslot;

/* A function's names as the reader gave them, and its merged id. */
enum { FN_CACHE = 256 };
typedef struct fslot {
    const char *object, *file, *fn;
    uint32_t id;
} fslot;

/* A record waiting in the batch: its table, key and values. */
enum { BATCH = 16 };
typedef struct pending {
    int table;
    uint32_t tag;
    const char *function;       /* the record's, for messages */
    uint64_t line, count, executed;
    uint64_t key[K_JUMP_END];
} pending;

/* The reader being added: its name cache, its part's mappings, and the
 * batch of records whose keys are made. */
typedef struct adding {
    cgw_merger *m;
    const char *call;
    pslot *cache;
    size_t ncache, nslots;
    uint64_t part;              /* the K_PART word */
    size_t nev;
    uint32_t *map;              /* part event -> merged event */
    unsigned slot[CGW_NPOS_MAX];/* position j -> fixed slot */
    size_t npos;
    unsigned positions;
    const char *fo, *ff, *fn;   /* the last function's names... */
    uint64_t fid;               /* ...and its id */
    const char *src;            /* the last source file's name... */
    uint32_t src_id;            /* ...and its id */
    pending batch[BATCH];
    size_t npend;
    uint64_t *costs;            /* BATCH rows of nev costs */
    uint32_t last[T_N];         /* each table's entry + 1 used last, 0 none */
    fslot fns[FN_CACHE];        /* by the function name's pointer */
} adding;

static size_t ptr_hash(const char *ptr, unsigned kind, size_t nslots)
{
    uint64_t hash = ((uint64_t)(uintptr_t)ptr ^ kind) * 0x9e3779b97f4a7c15u;
    return (size_t)(hash >> 32) & (nslots - 1);
}

static int cache_grow(adding *ad)
{
    size_t ns = ad->nslots ? ad->nslots * 2 : 256;
    pslot *slots = cgwm_alloc(ad->m, ns * sizeof *slots);
    if (slots == NULL)
        return -1;
    memset(slots, 0, ns * sizeof *slots);
    for (size_t i = 0; i < ad->nslots; i++) {
        if (ad->cache[i].p == NULL)
            continue;
        size_t j = ptr_hash(ad->cache[i].p, ad->cache[i].kind, ns);
        while (slots[j].p != NULL)
            j = (j + 1) & (ns - 1);
        slots[j] = ad->cache[i];
    }
    cgwm_free(ad->m, ad->cache);
    ad->cache = slots;
    ad->nslots = ns;
    return 0;
}

/* The merged id of a name of the reader (rewritten by kind); 0 for
 * NULL; UINT32_MAX when out of memory. */
static uint32_t name_id(adding *ad, const char *name, unsigned kind)
{
    if (name == NULL)
        return 0;
    if (ad->nslots) {
        for (size_t j = ptr_hash(name, kind, ad->nslots); ad->cache[j].p != NULL;
             j = (j + 1) & (ad->nslots - 1))
            if (ad->cache[j].p == name && ad->cache[j].kind == kind)
                return ad->cache[j].id;
    }
    if ((ad->ncache + 1) * 2 > ad->nslots && cache_grow(ad) < 0)
        return UINT32_MAX;
    cgw_merger *m = ad->m;
    char *str = (char *)name;
    size_t len = strlen(name);
    int which = kind == N_FILE ? 0 : kind == N_FUNCTION ? 1 : -1;
    if (which >= 0 && m->subst[which] != NULL && cgwm_subst_apply(m, which, name, &str, &len) < 0)
        return UINT32_MAX;
    uint32_t id = cgwm_intern(m, str, len);
    if (str != name)
        cgwm_free(m, str);
    if (id == 0)
        return UINT32_MAX;
    size_t j = ptr_hash(name, kind, ad->nslots);
    while (ad->cache[j].p != NULL)
        j = (j + 1) & (ad->nslots - 1);
    ad->cache[j] = (pslot){ name, kind, id };
    ad->ncache++;
    return id;
}

/* The merged function (object, file, name); -1 when out of memory.  A
 * reader's names keep their pointers until it is closed, equal names
 * equal pointers: a cache by them spares the names' and the table's
 * lookups of each call. */
static long fn_id(adding *ad, const char *object, const char *file, const char *fn)
{
    fslot *cached = &ad->fns[ptr_hash(fn, N_FUNCTION, FN_CACHE)];
    if (cached->fn == fn && cached->file == file && cached->object == object && fn != NULL)
        return (long)cached->id;
    uint64_t key[3];
    key[0] = name_id(ad, object, N_OBJECT);
    key[1] = name_id(ad, file, N_FILE);
    key[2] = name_id(ad, fn, N_FUNCTION);
    if (key[0] == UINT32_MAX || key[1] == UINT32_MAX || key[2] == UINT32_MAX)
        return -1;
    long id = cgwm_table_get(ad->m, &ad->m->fns, key);
    if (id >= 0)
        *cached = (fslot){ object, file, fn, (uint32_t)id };
    return id;
}

/* ------------------------------------------------------- a part's header */

/* The merged event named id, added when new; -1 out of memory. */
static long event_index(cgw_merger *m, uint32_t id)
{
    for (size_t ev = 0; ev < m->nev; ev++)
        if (m->ev_name[ev] == id)
            return (long)ev;
    uint32_t *names = cgwm_grow(m, m->ev_name, (m->nev + 1) * sizeof *names);
    if (names == NULL)
        return -1;
    m->ev_name = names;
    uint32_t *longs = cgwm_grow(m, m->ev_long, (m->nev + 1) * sizeof *longs);
    if (longs == NULL)
        return -1;
    m->ev_long = longs;
    for (int table = T_COST; table <= T_CALL; table++)
        if (cgwm_table_events(m, &m->tab[table], m->nev + 1) < 0)
            return -1;
    names[m->nev] = id;
    longs[m->nev] = 0;
    return (long)m->nev++;
}

/* Of two long names (ids, 0 none), the one kept whatever the order:
 * the least by strcmp. */
static uint32_t least(const cgw_merger *m, uint32_t left, uint32_t right)
{
    if (left == 0 || right == 0)
        return left ? left : right;
    return strcmp(m->names.s[left], m->names.s[right]) <= 0 ? left : right;
}

static uint32_t intern0(cgw_merger *m, const char *str, int *bad)
{
    uint32_t id = str != NULL ? cgwm_intern(m, str, strlen(str)) : 0;
    if (str != NULL && id == 0)
        *bad = 1;
    return id;
}

static int part_events(adding *ad, const cgw_part *part)
{
    cgw_merger *m = ad->m;
    uint32_t *map = cgwm_grow(m, ad->map, (part->nevents ? part->nevents : 1) * sizeof *map);
    if (map == NULL)
        return -1;
    ad->map = map;
    uint64_t *costs = cgwm_grow(m, ad->costs, BATCH * (part->nevents ? part->nevents : 1) *
                                                  sizeof *costs);
    if (costs == NULL)
        return -1;
    ad->costs = costs;
    ad->nev = part->nevents;
    int same = m->parts == 0 || part->nevents == m->nev, bad = 0;
    for (size_t i = 0; i < part->nevents && !bad; i++) {
        uint32_t id = intern0(m, part->events[i].name, &bad);
        uint32_t lid = intern0(m, part->events[i].long_name, &bad);
        long ev = bad ? -1 : event_index(m, id);
        if (ev < 0)
            return -1;
        map[i] = (uint32_t)ev;
        m->ev_long[ev] = least(m, m->ev_long[ev], lid);
        same = same && (m->parts == 0 || (size_t)ev == i);
    }
    if (!same)
        m->ev_uniform = 0;
    return 0;
}

/* Derived events: the union by name; one name, two formulas is an error. */
static int part_derived(adding *ad, const cgw_part *part)
{
    cgw_merger *m = ad->m;
    if (m->parts > 0 && part->nderived != m->nder)
        m->der_uniform = 0;
    for (size_t i = 0; i < part->nderived; i++) {
        int bad = 0;
        uint32_t ids[3] = { intern0(m, part->derived[i].name, &bad),
                            intern0(m, part->derived[i].formula, &bad),
                            intern0(m, part->derived[i].long_name, &bad) };
        size_t k = 0;
        while (k < m->nder && m->der[k][0] != ids[0])
            k++;
        if (bad)
            return -1;
        if (k < m->nder && m->der[k][1] != ids[1]) {
            cgwm_fail(m, CGW_EINVAL, ad->call,
                      "the derived event %s is %s in one input and %s in another",
                      m->names.s[ids[0]], m->names.s[m->der[k][1]], m->names.s[ids[1]]);
            return -1;
        }
        if (k != i)
            m->der_uniform = 0;
        if (k == m->nder) {
            uint32_t (*der)[3] = cgwm_grow(m, m->der, (m->nder + 1) * sizeof *der);
            if (der == NULL)
                return -1;
            m->der = der;
            memcpy(der[m->nder++], ids, sizeof ids);
        } else {
            m->der[k][2] = least(m, m->der[k][2], ids[2]);
        }
    }
    return 0;
}

/* cmd: the value all parts agree on, MERGE_SEVERAL when they do not. */
static int part_cmd(adding *ad, const cgw_part *part)
{
    cgw_merger *m = ad->m;
    if (part->cmd == NULL)
        return 0;
    uint32_t id = cgwm_intern(m, part->cmd, strlen(part->cmd));
    if (id == 0)
        return -1;
    if (m->seen_cmd && m->cmd != id) {
        id = cgwm_intern(m, MERGE_SEVERAL, strlen(MERGE_SEVERAL));
        if (id == 0)
            return -1;
    }
    m->cmd = id;
    m->seen_cmd = 1;
    return 0;
}

static int part_start(adding *ad, const cgw_part *part)
{
    cgw_merger *m = ad->m;
    if (m->parts == 0)
        m->ev_uniform = m->der_uniform = 1;
    if (part_events(ad, part) < 0 || part_derived(ad, part) < 0 || part_cmd(ad, part) < 0)
        return -1;
    unsigned kinds[CGW_NPOS_MAX];
    ad->npos = cgw_pos_kinds(part->positions, kinds);
    for (size_t j = 0; j < ad->npos; j++)
        for (unsigned slot = 0; slot < CGW_NPOS_MAX; slot++)
            if (m->slot_kind[slot] == kinds[j])
                ad->slot[j] = slot;
    ad->positions = part->positions;
    m->mask &= part->positions;
    m->parts++;
    return 0;
}

/* ------------------------------------------------------------- the body */

/* key[K_PART..K_COST_END) for a body record; -1 out of memory. */
static int body_key(adding *ad, const cgw_record *rec, uint64_t *key)
{
    if (rec->function != ad->fn || rec->file != ad->ff || rec->object != ad->fo) {
        long fid = fn_id(ad, rec->object, rec->file, rec->function);
        if (fid < 0)
            return -1;
        ad->fid = (uint64_t)fid;
        ad->fn = rec->function;
        ad->ff = rec->file;
        ad->fo = rec->object;
    }
    if (rec->source_file != ad->src) {
        uint32_t src = name_id(ad, rec->source_file, N_FILE);
        if (src == UINT32_MAX)
            return -1;
        ad->src = rec->source_file;
        ad->src_id = src;
    }
    static const uint64_t no_key[K_JUMP_END]; /* copied, not memset: no rep stos */
    memcpy(key, no_key, sizeof no_key);
    key[K_PART] = ad->part;
    key[K_FN] = ad->fid;
    key[K_SRC] = ad->src_id;
    key[K_MASK] = ad->positions;
    for (size_t j = 0; j < ad->npos; j++)
        key[K_POS + ad->slot[j]] = rec->pos[j];
    return 0;
}

static int target_key(adding *ad, const cgw_record *rec, uint64_t *key)
{
    long fid = fn_id(ad, rec->target.object, rec->target.file, rec->target.function);
    if (fid < 0)
        return -1;
    key[K_CALLEE] = (uint64_t)fid;
    for (size_t j = 0; rec->target_pos != NULL && j < ad->npos; j++)
        key[K_TPOS + ad->slot[j]] = rec->target_pos[j];
    return 0;
}

static int overflow(adding *ad, const pending *p, const char *what)
{
    cgwm_fail(ad->m, CGW_ERANGE, ad->call, "line %llu: the sum of %s in %s passes 2^64-1",
              (unsigned long long)p->line, what, p->function);
    return -1;
}

/* vals[map[i]] += costs[i], exactly. */
static int add_costs(adding *ad, const pending *p, const uint64_t *costs, uint64_t *vals)
{
    for (size_t i = 0; i < ad->nev; i++) {
        uint64_t *sum = vals + ad->map[i];
        if (costs[i] > UINT64_MAX - *sum)
            return overflow(ad, p, cgwm_name(ad->m, ad->m->ev_name[ad->map[i]]));
        *sum += costs[i];
    }
    return 0;
}

static int add_count(adding *ad, const pending *p, uint64_t *sum, uint64_t count)
{
    if (count > UINT64_MAX - *sum)
        return overflow(ad, p, "the count");
    *sum += count;
    return 0;
}

/* The entry that came after the one used last in the table, the last
 * time, when it has the key; else -1.  An input much like one read
 * before (another run of the same program) comes in the order that made
 * the entries: most records are found there, without a hash. */
static long predicted(const adding *ad, const pending *p)
{
    const mtable *tab = &ad->m->tab[p->table];
    uint32_t last = ad->last[p->table], next = last ? tab->after[last - 1] : 0;
    if (next == 0)
        return -1;
    const uint64_t *key = cgwm_key(tab, next - 1);
    for (size_t k = 0; k < tab->kw; k++)
        if (key[k] != p->key[k])
            return -1;
    return (long)next - 1;
}

/* The values of p (costs: its row of the batch's costs) added to entry. */
static int add_values(adding *ad, const pending *p, const uint64_t *costs, long entry)
{
    mtable *tab = &ad->m->tab[p->table];
    uint64_t *sums = cgwm_val(tab, (size_t)entry);
    uint32_t *last = &ad->last[p->table];
    if (*last)
        tab->after[*last - 1] = (uint32_t)entry + 1;
    *last = (uint32_t)entry + 1;
    switch (p->table) {
    case T_COST:
        return add_costs(ad, p, costs, sums);
    case T_CALL:
        return add_count(ad, p, sums, p->count) < 0 ? -1 : add_costs(ad, p, costs, sums + 1);
    default:
        return add_count(ad, p, sums, p->count) < 0 ? -1 : add_count(ad, p, sums + 1, p->executed);
    }
}

/* The batch added to the sums in the order its records came, the slots
 * of all their keys on their way from memory first (in a table larger
 * than the cache each is a miss, and this way they overlap). */
static int flush(adding *ad)
{
    cgw_merger *m = ad->m;
    size_t count = ad->npend;
    ad->npend = 0;
    for (size_t k = 0; k < count; k++) {
        pending *p = &ad->batch[k];
        p->tag = cgwm_table_tag(&m->tab[p->table], p->key);
        cgwm_table_prefetch(&m->tab[p->table], p->tag);
    }
    for (size_t k = 0; k < count; k++) {
        const pending *p = &ad->batch[k];
        long entry = predicted(ad, p);
        if (entry < 0 && (entry = cgwm_table_get_tagged(m, &m->tab[p->table], p->key, p->tag)) < 0)
            return -1;
        if (add_values(ad, p, ad->costs + k * ad->nev, entry) < 0)
            return -1;
    }
    return 0;
}

/* The record's key and values into the batch.  Added at once when it is
 * the batch's only one and found where predicted, or when the table's
 * index is small enough to stay in the cache (2^SMALL_BITS slots of 8
 * bytes); else the batch waits until it is full. */
enum { SMALL_BITS = 16 };
static int add_record(adding *ad, const cgw_record *rec)
{
    pending *p = &ad->batch[ad->npend];
    p->table = rec->kind == CGW_REC_COST ? T_COST : rec->kind == CGW_REC_CALL ? T_CALL : T_JUMP;
    if (body_key(ad, rec, p->key) < 0 || (p->table != T_COST && target_key(ad, rec, p->key) < 0))
        return -1;
    p->key[K_COND] = rec->kind == CGW_REC_COND_JUMP;
    p->function = rec->function;
    p->line = rec->line;
    p->count = rec->count;
    p->executed = rec->executed;
    if (ad->npend == 0) {
        mtable *tab = &ad->m->tab[p->table];
        long entry = predicted(ad, p);
        if (entry < 0 && tab->bits < SMALL_BITS &&
            (entry = cgwm_table_get(ad->m, tab, p->key)) < 0)
            return -1;
        if (entry >= 0)
            return add_values(ad, p, rec->costs, entry);
    }
    if (p->table != T_JUMP && ad->nev > 0) /* no events: ad->costs may be NULL */
        memcpy(ad->costs + ad->npend * ad->nev, rec->costs, ad->nev * sizeof *ad->costs);
    return ++ad->npend == BATCH ? flush(ad) : 0;
}

static int add_one(adding *ad, const cgw_record *rec)
{
    switch (rec->kind) {
    case CGW_REC_PART:
        return flush(ad) < 0 ? -1 : part_start(ad, rec->part);
    case CGW_REC_COST:
    case CGW_REC_CALL:
    case CGW_REC_JUMP:
    case CGW_REC_COND_JUMP:
        return add_record(ad, rec);
    default:
        return 0;
    }
}

cgw_status cgwm_add(cgw_merger *m, cgw_reader *r, uint64_t part, const char *call)
{
    if (m == NULL)
        return CGW_EUSAGE;
    if (m->err != CGW_OK)
        return m->err;
    if (r == NULL)
        return cgwm_fail(m, CGW_EUSAGE, call, "the reader is NULL");
    if (m->written)
        return cgwm_fail(m, CGW_EUSAGE, call, "the merger was already written");
    adding ad = { .m = m, .call = call, .part = part };
    const cgw_record *rec;
    cgw_status st;
    int failed = 0;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        if ((failed = add_one(&ad, rec) < 0))
            break;
    /* the records before a read error are added first: a sum of theirs
     * may pass 2^64-1, an error that came first */
    if (!failed)
        flush(&ad);
    cgwm_free(m, ad.cache);
    cgwm_free(m, ad.map);
    cgwm_free(m, ad.costs);
    if (st != CGW_OK)
        cgwm_fail(m, st, call, "reading: %s", cgw_reader_errmsg(r));
    m->inputs++;
    return m->err;
}

cgw_status cgw_merge_add(cgw_merger *m, cgw_reader *r)
{
    uint64_t part = m != NULL && (m->flags & CGW_MERGE_KEEP_PARTS) ? m->inputs : 0;
    return cgwm_add(m, r, part, "cgw_merge_add");
}
