/* SPDX-License-Identifier: MIT */
/* pprof-out.c - a Callgrind profile written as a pprof profile
 * (cgw_write_pprof()): the stacks cgw_read_stacks() rebuilds from its
 * call graph, event by event, become samples (of that event's sample type,
 * the others 0), each function a Function and a Location (without a
 * line: the graph has none), each object a Mapping; packed by
 * protobuf-c, gzip-compressed when libcgw-pprof has zlib, as pprof's own
 * files are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof.h"
#include "pprof.pb-c.h"

typedef struct out_sample {
    uint64_t *locs; /* leaf first */
    size_t n;
    unsigned ev;
    int64_t value;
} out_sample;

typedef struct pprof_out {
    const cgw_allocator *a;
    char *msg;
    size_t msglen;
    const char **strs; /* the string table: "", "count", the events, names */
    size_t nev;        /* the events: strings 2 .. 2 + nev */
    size_t nstrs, capstrs;
    cgwp_index str_ix; /* a name's pointer (the reader's, unique) to its string */
    uint64_t *loc_of;  /* a function's location ID (its own), 0: none yet */
    size_t caploc;
    Cgwpprof__Function *fns;
    Cgwpprof__Location *locs;
    Cgwpprof__Line *lines;
    Cgwpprof__Line **line_ptrs;
    size_t nlocs, capfns, caplocs, caplines, capptrs;
    const char **map_files; /* each mapping's object, by ID - 1 */
    size_t nmaps, capmaps;
    out_sample *samples;
    size_t nsamples, capsamples;
} pprof_out;

static cgw_status out_fail(pprof_out *o, cgw_status st, const char *what)
{
    if (o->msg != NULL && o->msglen > 0)
        snprintf(o->msg, o->msglen, "cgw_write_pprof: %s", what);
    return st;
}

static int ptr_eq(const void *ctx, uint32_t entry, const void *key)
{
    return ((const pprof_out *)ctx)->strs[entry] == key;
}

/* The index of str (NULL: "") in the string table, added when new. */
static long string_of(pprof_out *o, const char *str)
{
    if (str == NULL || str[0] == '\0')
        return 0;
    uint64_t hash = cgwp_index_hash(&o->str_ix, &str, sizeof str);
    uint32_t entry;
    size_t slot;
    if (cgwp_index_find(&o->str_ix, hash, ptr_eq, o, str, &entry, &slot))
        return (long)entry;
    if (cgwp_grow(o->a, &o->strs, &o->capstrs, o->nstrs + 1, sizeof *o->strs) < 0 ||
        cgwp_index_put(&o->str_ix, o->a, slot, hash, (uint32_t)o->nstrs) < 0)
        return -1;
    o->strs[o->nstrs] = str;
    return (long)o->nstrs++;
}

/* The mapping ID of object obj (0: none), added when new. */
static long mapping_of(pprof_out *o, const char *obj)
{
    if (obj == NULL)
        return 0;
    for (size_t i = 0; i < o->nmaps; i++) /* few objects: a scan */
        if (o->map_files[i] == obj)
            return (long)i + 1;
    if (string_of(o, obj) < 0 ||
        cgwp_grow(o->a, &o->map_files, &o->capmaps, o->nmaps + 1, sizeof *o->map_files) < 0)
        return -1;
    o->map_files[o->nmaps++] = obj;
    return (long)o->nmaps;
}

/* The location ID of function f (fns[f]), its Function and Location
 * made when new; 0 when out of memory. */
static uint64_t location_of(pprof_out *o, const cgw_frame *fns, uint32_t f)
{
    size_t old = o->caploc;
    if (cgwp_grow(o->a, &o->loc_of, &o->caploc, (size_t)f + 1, sizeof *o->loc_of) < 0)
        return 0;
    memset(o->loc_of + old, 0, (o->caploc - old) * sizeof *o->loc_of);
    if (o->loc_of[f] != 0)
        return o->loc_of[f];
    size_t n = o->nlocs;
    long name = string_of(o, fns[f].name), file = string_of(o, fns[f].file);
    long map = mapping_of(o, fns[f].object);
    if (name < 0 || file < 0 || map < 0 ||
        cgwp_grow(o->a, &o->fns, &o->capfns, n + 1, sizeof *o->fns) < 0 ||
        cgwp_grow(o->a, &o->locs, &o->caplocs, n + 1, sizeof *o->locs) < 0 ||
        cgwp_grow(o->a, &o->lines, &o->caplines, n + 1, sizeof *o->lines) < 0)
        return 0;
    cgwpprof__function__init(&o->fns[n]);
    o->fns[n].id = n + 1;
    o->fns[n].name = o->fns[n].system_name = name;
    o->fns[n].filename = file;
    cgwpprof__line__init(&o->lines[n]);
    o->lines[n].function_id = n + 1;
    cgwpprof__location__init(&o->locs[n]);
    o->locs[n].id = n + 1;
    o->locs[n].mapping_id = (uint64_t)map;
    o->nlocs++;
    return o->loc_of[f] = n + 1;
}

/* The events: strings of their own, 2 .. 2 + n (the reader's names). */
static cgw_status sample_types(void *ctx, const char *const *names, size_t n)
{
    pprof_out *o = ctx;
    if (cgwp_grow(o->a, &o->strs, &o->capstrs, 2 + n, sizeof *o->strs) < 0)
        return out_fail(o, CGW_ENOMEM, "out of memory");
    if (n > 0) /* no events: names may be NULL */
        memcpy(o->strs + 2, names, n * sizeof *names);
    o->nstrs = 2 + n;
    o->nev = n;
    return CGW_OK;
}

/* A stack rebuilt by folded-out.c: one sample. */
static cgw_status sample(void *ctx, const cgw_frame *fns, const uint32_t *ids, size_t depth,
                         unsigned ev, uint64_t amount)
{
    pprof_out *o = ctx;
    if (amount > INT64_MAX)
        return out_fail(o, CGW_ERANGE, "a stack's cost passes 2^63-1, pprof's largest value");
    if (cgwp_grow(o->a, &o->samples, &o->capsamples, o->nsamples + 1, sizeof *o->samples) < 0)
        return out_fail(o, CGW_ENOMEM, "out of memory for the samples");
    out_sample *s = &o->samples[o->nsamples];
    s->locs = cgwp_alloc(o->a, (depth + 1) * sizeof *s->locs);
    if (s->locs == NULL)
        return out_fail(o, CGW_ENOMEM, "out of memory for the samples");
    o->nsamples++;
    s->n = depth;
    s->ev = ev;
    s->value = (int64_t)amount;
    for (size_t i = 0; i < depth; i++)
        if ((s->locs[i] = location_of(o, fns, ids[i])) == 0)
            return out_fail(o, CGW_ENOMEM, "out of memory for the functions");
    return CGW_OK;
}

/* The Profile message over o's arrays (pointer arrays made here), packed
 * into *out (the caller frees it). */
static cgw_status pack(pprof_out *o, uint8_t **out, size_t *len)
{
    Cgwpprof__Profile p = CGWPPROF__PROFILE__INIT;
    size_t nev = o->nev;
    Cgwpprof__ValueType *types = cgwp_alloc(o->a, (nev + 1) * sizeof *types);
    Cgwpprof__Mapping *maps = cgwp_alloc(o->a, (o->nmaps + 1) * sizeof *maps);
    size_t nptrs = nev + o->nsamples + 3 * o->nlocs + o->nmaps + 1;
    void **ptrs = cgwp_alloc(o->a, nptrs * sizeof *ptrs);
    Cgwpprof__Sample *samples = cgwp_alloc(o->a, (o->nsamples + 1) * sizeof *samples);
    int64_t *values = cgwp_alloc(o->a, (o->nsamples * nev + 1) * sizeof *values);
    cgw_status st = CGW_ENOMEM;
    if (types != NULL && maps != NULL && ptrs != NULL && samples != NULL && values != NULL) {
        void **at = ptrs;
        p.n_sample_type = nev, p.sample_type = (Cgwpprof__ValueType **)at;
        for (size_t e = 0; e < nev; e++, at++) {
            cgwpprof__value_type__init(&types[e]);
            types[e].type = (int64_t)(2 + e), types[e].unit = 1;
            *at = &types[e];
        }
        memset(values, 0, o->nsamples * nev * sizeof *values);
        p.n_sample = o->nsamples, p.sample = (Cgwpprof__Sample **)at;
        for (size_t i = 0; i < o->nsamples; i++, at++) {
            cgwpprof__sample__init(&samples[i]);
            samples[i].n_location_id = o->samples[i].n, samples[i].location_id = o->samples[i].locs;
            samples[i].n_value = nev, samples[i].value = values + i * nev;
            values[i * nev + o->samples[i].ev] = o->samples[i].value;
            *at = &samples[i];
        }
        p.n_mapping = o->nmaps, p.mapping = (Cgwpprof__Mapping **)at;
        for (size_t i = 0; i < o->nmaps; i++, at++) {
            cgwpprof__mapping__init(&maps[i]);
            maps[i].id = i + 1, maps[i].filename = string_of(o, o->map_files[i]);
            *at = &maps[i];
        }
        p.n_location = p.n_function = o->nlocs;
        p.location = (Cgwpprof__Location **)at, at += o->nlocs;
        p.function = (Cgwpprof__Function **)at, at += o->nlocs;
        for (size_t i = 0; i < o->nlocs; i++) {
            p.location[i] = &o->locs[i], p.function[i] = &o->fns[i];
            at[i] = &o->lines[i];
            o->locs[i].n_line = 1, o->locs[i].line = (Cgwpprof__Line **)&at[i];
        }
        p.n_string_table = o->nstrs, p.string_table = (char **)(uintptr_t)o->strs;
        *len = cgwpprof__profile__get_packed_size(&p);
        if ((*out = cgwp_alloc(o->a, *len + 1)) != NULL) {
            cgwpprof__profile__pack(&p, *out);
            st = CGW_OK;
        }
    }
    void *const blocks[] = { types, maps, ptrs, samples, values };
    cgwp_free_all(o->a, blocks, sizeof blocks / sizeof *blocks);
    return st == CGW_OK ? st : out_fail(o, st, "out of memory packing the profile");
}

static void out_free(pprof_out *o)
{
    for (size_t i = 0; i < o->nsamples; i++)
        cgwp_free(o->a, o->samples[i].locs);
    void *const blocks[] = { o->strs, o->loc_of, o->fns, o->locs, o->lines, o->map_files,
                             o->samples };
    cgwp_free_all(o->a, blocks, sizeof blocks / sizeof *blocks);
    cgwp_index_free(&o->str_ix, o->a);
}

/* cgw_read_stacks()'s message as this call's: "cgw_write_pprof: why". */
static void renamed(char *msg, size_t len)
{
    static const char from[] = "cgw_read_stacks: ", to[] = "cgw_write_pprof: ";
    size_t n = msg != NULL && len > 0 ? strlen(msg) : 0;
    if (n < sizeof from - 1 || memcmp(msg, from, sizeof from - 1) != 0)
        return;
    char why[256];
    snprintf(why, sizeof why, "%s", msg + sizeof from - 1);
    snprintf(msg, len, "%s%s", to, why);
}

cgw_status cgw_write_pprof(cgw_reader *r, const char *event, cgw_write_fn fn, void *ctx,
                           char *msg, size_t len)
{
    pprof_out o = { .a = cgwp_libc(), .msg = msg, .msglen = len };
    static const char *const fixed[] = { "", "count" };
    if (fn == NULL)
        return out_fail(&o, CGW_EUSAGE, "the callback is NULL");
    if (cgwp_grow(o.a, &o.strs, &o.capstrs, 2, sizeof *o.strs) < 0)
        return out_fail(&o, CGW_ENOMEM, "out of memory");
    memcpy(o.strs, fixed, sizeof fixed);
    o.nstrs = 2;
    cgw_status st = cgw_read_stacks(r, event, sample_types, sample, &o, msg, len);
    if (st != CGW_OK)
        renamed(msg, len);
    uint8_t *packed = NULL, *gz = NULL;
    size_t plen = 0, glen = 0;
    if (st == CGW_OK)
        st = pack(&o, &packed, &plen);
    if (st == CGW_OK && (st = cgwpb_gzip(o.a, packed, plen, &gz, &glen)) != CGW_OK)
        out_fail(&o, st, "out of memory compressing the profile");
    if (st == CGW_OK && fn(ctx, gz != NULL ? (const char *)gz : (const char *)packed,
                           gz != NULL ? glen : plen) != 0) {
        char why[160];
        snprintf(why, sizeof why, "writing: %s", strerror(errno));
        st = out_fail(&o, CGW_EIO, why);
    }
    cgwp_free(o.a, packed);
    cgwp_free(o.a, gz);
    out_free(&o);
    return st;
}

