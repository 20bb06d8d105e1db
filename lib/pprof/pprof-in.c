/* SPDX-License-Identifier: MIT */
/* pprof-in.c - pprof profiles (the protobuf of github.com/google/pprof,
 * gzip-compressed or not) added to stacks: cgw_stacks_add_pprof().  The
 * protobuf is decoded by protobuf-c (pprof.pb-c.c, generated from
 * pprof.proto); each sample type is an event, each sample a stack,
 * added through the public cgw_stacks_add(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof.h"
#include "pprof.pb-c.h"

typedef Cgwpprof__Profile profile;

/* An ID of the profile and the index of what it names, sorted by ID. */
typedef struct id_entry {
    uint64_t id;
    size_t index;
} id_entry;

typedef struct pprof_in {
    cgw_stacks *s;
    const char *name;
    const profile *p;
    id_entry *fns, *locs, *maps;
    cgw_frame *frame_of; /* a location's frame, by location index */
    char (*addrs)[24];   /* a location's address, its name when it has no line */
    cgw_frame *frames;   /* the stack being added */
    size_t capframes;
    const cgw_allocator *a;
    cgw_status err;
    char ev[CGWPB_MAX_EVENTS][128];
} pprof_in;

/* The stacks' error st with its message; returns it. */
#define FAIL(in, ...) ((in)->err = cgwpb_fail((in)->s, __VA_ARGS__))

static int cmp_ids(const void *pa, const void *pb)
{
    const id_entry *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The index of ID id in table[0..n); -1 when there is none. */
static long find_id(const id_entry *table, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (table[mid].id == id)
            return (long)table[mid].index;
        if (table[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Whether str[0..len) is text a name can be: UTF-8 without a control
 * byte (the writer's portable subset refuses any other). */
static int text_ok(const char *str, size_t len)
{
    for (size_t i = 0, n; i < len; i += n) {
        if ((unsigned char)str[i] < 0x20 || str[i] == 0x7f ||
            (n = cgw_utf8_char(str + i, len - i, NULL)) == 0)
            return 0;
    }
    return 1;
}

/* The string at index i of the string table, its length in *len; NULL
 * (reported) when i is not an index of it, or the string is not text. */
static const char *string_at(pprof_in *in, int64_t i, const char *what, size_t *len)
{
    if (i < 0 || (uint64_t)i >= in->p->n_string_table) {
        FAIL(in, CGW_EINVAL, "%s: %s names string %lld, past the string table (%zu strings)",
             in->name, what, (long long)i, in->p->n_string_table);
        return NULL;
    }
    *len = strlen(in->p->string_table[i]);
    if (!text_ok(in->p->string_table[i], *len)) {
        FAIL(in, CGW_EINVAL, "%s: %s, string %lld, has a control byte or invalid UTF-8",
             in->name, what, (long long)i);
        return NULL;
    }
    return in->p->string_table[i];
}

/* A string of the table as a name in *name (cgw_stacks_add() drops the
 * blanks around it, which readers strip). */
static cgw_status name_at(pprof_in *in, int64_t i, const char *what, const char **name)
{
    size_t len;
    *name = string_at(in, i, what, &len);
    return *name == NULL ? in->err : CGW_OK;
}

/* Sorted (ID, index) pairs of n things whose IDs get_id gives; NULL (and
 * the stacks' error) when out of memory or an ID is 0 or twice there. */
static id_entry *id_table(pprof_in *in, size_t n, uint64_t (*get_id)(const profile *, size_t),
                          const char *what)
{
    id_entry *t = cgwp_alloc(in->a, (n + 1) * sizeof *t);
    if (t == NULL) {
        FAIL(in, CGW_ENOMEM, "%s: out of memory for %zu %ss", in->name, n, what);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        t[i] = (id_entry){ get_id(in->p, i), i };
    qsort(t, n, sizeof *t, cmp_ids);
    for (size_t i = 0; i < n; i++) {
        if (t[i].id == 0 || (i > 0 && t[i].id == t[i - 1].id)) {
            FAIL(in, CGW_EINVAL, "%s: %s ID %llu is %s", in->name, what,
                 (unsigned long long)t[i].id, t[i].id == 0 ? "0" : "used twice");
            cgwp_free(in->a, t);
            return NULL;
        }
    }
    return t;
}

static uint64_t fn_id(const profile *p, size_t i) { return p->function[i]->id; }
static uint64_t loc_id(const profile *p, size_t i) { return p->location[i]->id; }
static uint64_t map_id(const profile *p, size_t i) { return p->mapping[i]->id; }

/* Each sample type as an event: its type, and its unit unless that is a
 * count ("samples", "cpu_nanoseconds", "alloc_space_bytes"), any byte
 * an event name cannot have made '_'. */
static cgw_status events(pprof_in *in)
{
    const profile *p = in->p;
    if (p->n_sample_type == 0 || p->n_sample_type > CGWPB_MAX_EVENTS)
        return FAIL(in, CGW_EINVAL, "%s: %zu sample types (expected 1 to %d)", in->name,
                    p->n_sample_type, CGWPB_MAX_EVENTS);
    for (size_t i = 0; i < p->n_sample_type; i++) {
        size_t tlen, ulen;
        const char *type = string_at(in, p->sample_type[i]->type, "a sample type", &tlen);
        const char *unit = type ? string_at(in, p->sample_type[i]->unit, "a unit", &ulen) : NULL;
        if (unit == NULL)
            return in->err;
        char *buf = in->ev[i];
        size_t size = sizeof in->ev[i];
        int n = ulen == 0 || strcmp(unit, "count") == 0
                    ? snprintf(buf, size, "%s", tlen ? type : "value")
                    : snprintf(buf, size, "%s_%s", tlen ? type : "value", unit);
        for (int k = 0; k < n && k < (int)size - 1; k++) {
            unsigned c = (unsigned char)buf[k];
            if (!(c == '_' || (c | 32u) - 'a' < 26u || (k > 0 && c - '0' < 10u)))
                buf[k] = '_';
        }
        cgw_status st = cgw_stacks_add(in->s, buf, NULL, 0, 0, 0); /* its column, in order */
        if (st != CGW_OK)
            return in->err = st;
    }
    return CGW_OK;
}

/* The frame of location l: the function of its last line (the one the
 * others are inlined into), at the first line's line number and, when
 * that line's function is in another file, in that file (fi=).  A
 * location without lines is its address in its mapping's object. */
/* Whether a and b are the same name without the blanks around them. */
static int same_name(const char *a, const char *b)
{
    size_t alen = strlen(a), blen = strlen(b);
    while (alen > 0 && a[0] == ' ')
        a++, alen--;
    while (alen > 0 && a[alen - 1] == ' ')
        alen--;
    while (blen > 0 && b[0] == ' ')
        b++, blen--;
    while (blen > 0 && b[blen - 1] == ' ')
        blen--;
    return alen == blen && memcmp(a, b, alen) == 0;
}

static cgw_status location_frame(pprof_in *in, size_t l, cgw_frame *out)
{
    const Cgwpprof__Location *loc = in->p->location[l];
    const char *file = NULL;
    cgw_status st = CGW_OK;
    long m = loc->mapping_id != 0 ? find_id(in->maps, in->p->n_mapping, loc->mapping_id) : -2;
    *out = (cgw_frame){ NULL, NULL, NULL, NULL, 0 };
    if (m == -1)
        return FAIL(in, CGW_EINVAL, "%s: location %llu names mapping %llu, which the profile "
                    "does not have", in->name, (unsigned long long)loc->id,
                    (unsigned long long)loc->mapping_id);
    if (m >= 0)
        st = name_at(in, in->p->mapping[m]->filename, "a mapping", &out->object);
    for (size_t k = loc->n_line; st == CGW_OK && k-- > 0;) {
        long f = find_id(in->fns, in->p->n_function, loc->line[k]->function_id);
        if (f < 0)
            return FAIL(in, CGW_EINVAL, "%s: location %llu names function %llu, which the "
                        "profile does not have", in->name, (unsigned long long)loc->id,
                        (unsigned long long)loc->line[k]->function_id);
        const Cgwpprof__Function *fn = in->p->function[f];
        const char *this_file;
        st = name_at(in, fn->filename, "a function's file", &this_file);
        if (st == CGW_OK && k == loc->n_line - 1) {
            file = out->file = this_file;
            st = name_at(in, fn->name, "a function's name", &out->name);
        }
        if (st == CGW_OK && k == 0) { /* this_file is a name only when st is OK */
            out->inlined = !same_name(this_file, file) ? this_file : NULL;
            out->line = loc->line[0]->line > 0 ? (uint64_t)loc->line[0]->line : 0;
        }
    }
    return st;
}

/* Sample i: its stack (root first) once for each of its values. */
static cgw_status sample(pprof_in *in, size_t i)
{
    const Cgwpprof__Sample *smp = in->p->sample[i];
    if (smp->n_value != in->p->n_sample_type)
        return FAIL(in, CGW_EINVAL, "%s: sample %zu has %zu values for %zu sample types",
                    in->name, i + 1, smp->n_value, in->p->n_sample_type);
    size_t n = smp->n_location_id;
    if (cgwp_grow(in->a, &in->frames, &in->capframes, n + 1, sizeof *in->frames) < 0)
        return FAIL(in, CGW_ENOMEM, "%s: sample %zu: out of memory for %zu frames", in->name,
                    i + 1, n);
    for (size_t v = 0; v < smp->n_value; v++) {
        if (smp->value[v] < 0)
            return FAIL(in, CGW_EINVAL, "%s: sample %zu: value %zu is negative (%lld)",
                        in->name, i + 1, v + 1, (long long)smp->value[v]);
        if (smp->value[v] == 0)
            continue;
        for (size_t k = 0; k < n; k++) { /* pprof lists the leaf first */
            long l = find_id(in->locs, in->p->n_location, smp->location_id[n - 1 - k]);
            if (l < 0)
                return FAIL(in, CGW_EINVAL, "%s: sample %zu names location %llu, which the "
                            "profile does not have", in->name, i + 1,
                            (unsigned long long)smp->location_id[n - 1 - k]);
            in->frames[k] = in->frame_of[l];
        }
        /* uncounted: pprof has no call counts, so calls= is 1 */
        cgw_status st = cgw_stacks_add(in->s, in->ev[v], in->frames, n,
                                       (uint64_t)smp->value[v], CGW_STACK_UNCOUNTED);
        if (st != CGW_OK)
            return in->err = st;
    }
    return CGW_OK;
}

/* protobuf-c builds more than the bytes it decodes: a 2-byte empty
 * string costs a pointer, a block of its own and a 32-byte entry of the
 * fields it scans (about 36 bytes a byte), which a profile of 100 MiB
 * turns into gigabytes.  So what a decode allocates is counted, as
 * glibc's malloc takes it (8 bytes more, a multiple of 16, 32 at least),
 * blocks it frees counted still, and refused past PB_PER_BYTE bytes a byte of
 * protobuf and PB_FLOOR: room for a real profile (Go's runtime/pprof
 * profiles take 7.5 to 10.5 bytes a byte), not for one made of empty
 * strings.  And all of it, with the inflated protobuf, within the
 * caller's limit (CGW_PPROF_LIMIT by default): a profile that inflates
 * to hundreds of MiB takes no more than the limit however it is made. */
#define PB_PER_BYTE 16
#define PB_FLOOR ((size_t)16 << 20)

typedef struct pb_budget {
    const cgw_allocator *a;
    size_t used, limit;
    int over, failed;
} pb_budget;

static size_t pb_limit(size_t len)
{
    return len > (SIZE_MAX - PB_FLOOR) / PB_PER_BYTE ? SIZE_MAX : PB_PER_BYTE * len + PB_FLOOR;
}

/* protobuf-c's unpack returns NULL for damage and for an allocation
 * that failed alike: failed and over tell them apart. */
static void *pb_alloc(void *ctx, size_t size)
{
    pb_budget *b = ctx;
    size_t cost = size < 24 ? 32 : (size + 8 + 15) & ~(size_t)15;
    if (size > b->limit || cost > b->limit - b->used) {
        b->over = 1;
        return NULL;
    }
    void *block = cgwp_alloc(b->a, size);
    if (block == NULL)
        b->failed = 1;
    else
        b->used += cost;
    return block;
}

static void pb_free(void *ctx, void *block)
{
    pb_budget *b = ctx;
    cgwp_free(b->a, block);
}

/* The tables, the locations' frames, then every sample. */
static cgw_status add_profile(pprof_in *in)
{
    const profile *p = in->p;
    if (p->n_string_table == 0 || p->string_table[0][0] != '\0')
        return FAIL(in, CGW_EINVAL, "%s: the string table does not start with \"\" (not a "
                    "pprof profile?)", in->name);
    cgw_status st = events(in);
    if (st != CGW_OK)
        return st;
    if ((in->fns = id_table(in, p->n_function, fn_id, "function")) == NULL ||
        (in->locs = id_table(in, p->n_location, loc_id, "location")) == NULL ||
        (in->maps = id_table(in, p->n_mapping, map_id, "mapping")) == NULL)
        return in->err;
    in->frame_of = cgwp_alloc(in->a, (p->n_location + 1) * sizeof *in->frame_of);
    in->addrs = cgwp_alloc(in->a, (p->n_location + 1) * sizeof *in->addrs);
    if (in->frame_of == NULL || in->addrs == NULL)
        return FAIL(in, CGW_ENOMEM, "%s: out of memory for %zu locations", in->name,
                    p->n_location);
    for (size_t l = 0; l < p->n_location && st == CGW_OK; l++) {
        st = location_frame(in, l, &in->frame_of[l]);
        if (p->location[l]->n_line == 0) { /* its address in its object */
            snprintf(in->addrs[l], sizeof in->addrs[l], "0x%llx",
                     (unsigned long long)p->location[l]->address);
            in->frame_of[l].name = in->addrs[l];
        }
    }
    for (size_t i = 0; i < p->n_sample && st == CGW_OK; i++)
        st = sample(in, i);
    return st;
}

/* ------------------------------------------- where a protobuf breaks */

/* The messages of pprof.proto that hold messages: the field numbers of a
 * Profile's and a Location's (a Line); 0 ends a list. */
static const unsigned profile_msgs[] = { 1, 2, 3, 4, 5, 11, 0 }, location_msgs[] = { 4, 0 };

/* A varint at *at before end into *v; 0 when it runs past end or is
 * longer than ten bytes. */
static int wire_varint(const uint8_t *b, size_t end, size_t *at, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 70 && *at < end; shift += 7) {
        uint8_t byte = b[(*at)++];
        *v |= (uint64_t)(byte & 0x7f) << (shift < 64 ? shift : 0);
        if (!(byte & 0x80))
            return 1;
    }
    return 0;
}

/* Where the message b[at, end) (its fields that hold messages: msgs,
 * NULL for none) stops being protobuf: a message into why; 0 when its
 * fields are whole. */
static int wire_where(const uint8_t *b, size_t at, size_t end, const unsigned *msgs, char *why,
                      size_t cap)
{
    while (at < end) {
        size_t start = at;
        uint64_t key, v;
        if (!wire_varint(b, end, &at, &key))
            return snprintf(why, cap, "the field key at byte %zu runs past its end", start), 1;
        unsigned field = (unsigned)(key >> 3), type = (unsigned)(key & 7);
        if (type == 0 && !wire_varint(b, end, &at, &v))
            return snprintf(why, cap, "field %u at byte %zu: its number runs past its end",
                            field, start), 1;
        if (type == 2 && (!wire_varint(b, end, &at, &v) || v > end - at))
            return snprintf(why, cap, "field %u at byte %zu: %llu bytes, %zu left", field, start,
                            (unsigned long long)v, end - at), 1;
        if ((type == 1 || type == 5) && (type == 1 ? 8u : 4u) > end - at)
            return snprintf(why, cap, "field %u at byte %zu runs past its end", field, start), 1;
        if (type != 0 && type != 1 && type != 2 && type != 5)
            return snprintf(why, cap, "field %u at byte %zu: wire type %u is not protobuf's",
                            field, start, type), 1;
        for (size_t k = 0; type == 2 && msgs != NULL && msgs[k] != 0; k++)
            if (msgs[k] == field && wire_where(b, at, at + (size_t)v, msgs == profile_msgs &&
                                               field == 4 ? location_msgs : NULL, why, cap))
                return 1;
        at += type == 2 ? (size_t)v : type == 1 ? 8 : type == 5 ? 4 : 0;
    }
    return 0;
}

/* Add the pprof protobuf bytes[0..len) (not compressed) to s, its
 * decoding within room bytes of memory (what is left of the limit);
 * name names the input in messages. */
static cgw_status pprof_add(cgw_stacks *s, const cgw_allocator *a, const char *name,
                            const uint8_t *bytes, size_t len, size_t room, size_t limit)
{
    size_t per_byte = pb_limit(len);
    pb_budget budget = { a, 0, per_byte < room ? per_byte : room, 0, 0 };
    ProtobufCAllocator pa = { pb_alloc, pb_free, &budget };
    profile *p = cgwpprof__profile__unpack(&pa, len, bytes);
    char why[160] = "a value that is not of its field's type", size[32];
    if (p == NULL && budget.failed)
        return cgwpb_fail(s, CGW_ENOMEM, "%s: out of memory decoding its %zu bytes of protobuf "
                          "(%zu MiB taken)", name, len, budget.used >> 20);
    if (p == NULL && budget.over && per_byte >= room)
        return cgwpb_fail(s, CGW_ERANGE, "%s: too big: decoding its %zu bytes of protobuf "
                          "would take more than %s, the limit of memory for a pprof profile ("
                          CGWPB_RAISE ")", name, len, cgwpb_size_text(size, limit));
    if (p == NULL && budget.over)
        return cgwpb_fail(s, CGW_EINVAL, "%s: too big: decoding its %zu bytes of protobuf "
                          "would take more than %zu MiB of memory (the limit: %d bytes a byte "
                          "and %zu MiB)", name, len, budget.limit >> 20, PB_PER_BYTE,
                          PB_FLOOR >> 20);
    if (p == NULL) {
        wire_where(bytes, 0, len, profile_msgs, why, sizeof why);
        return cgwpb_fail(s, CGW_EINVAL, "%s: not a pprof profile, or a truncated or damaged "
                          "one (its protobuf does not decode: %s)", name, why);
    }
    pprof_in in = { .s = s, .name = name, .p = p, .a = a };
    cgw_status st = add_profile(&in);
    void *const blocks[] = { in.fns, in.locs, in.maps, in.frame_of, in.addrs, in.frames };
    cgwp_free_all(a, blocks, sizeof blocks / sizeof *blocks);
    cgwpprof__profile__free_unpacked(p, &pa);
    return st;
}

cgw_status cgw_stacks_add_pprof_limit(cgw_stacks *s, const char *name, const void *data,
                                      size_t len, uint64_t limit)
{
    /* s NULL, its sticky error, or stacks already written */
    cgw_status st = cgw_stacks_add(s, NULL, NULL, 0, 0, 0);
    if (st != CGW_OK)
        return st;
    if (data == NULL && len > 0)
        return cgw_stacks_fail(s, CGW_EUSAGE, "cgw_stacks_add_pprof_limit: the input is NULL");
    size_t max = limit == 0 ? CGW_PPROF_LIMIT : limit > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)limit;
    name = name != NULL ? name : "-";
    const cgw_allocator *a = cgwp_libc();
    uint8_t *plain = NULL;
    const uint8_t *bytes = data;
    size_t inflated = 0;
    if (len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        if ((st = cgwpb_gunzip(s, a, name, bytes, len, max, &plain, &len)) != CGW_OK)
            return st;
        bytes = plain;
        inflated = len;
    }
    st = pprof_add(s, a, name, bytes != NULL ? bytes : (const uint8_t *)"", len,
                   max - inflated, max);
    cgwp_free(a, plain);
    return st;
}

cgw_status cgw_stacks_add_pprof(cgw_stacks *s, const char *name, const void *data, size_t len)
{
    return cgw_stacks_add_pprof_limit(s, name, data, len, 0);
}
