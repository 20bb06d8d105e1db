/* SPDX-License-Identifier: MIT */
/* merge.h - the state shared by the merger and the differ: interned
 * names, aggregation tables keyed by words, and the sorted walk over
 * them (lib/merge, on <cgw.h> and lib/common; never installed). */
#ifndef CGW_MERGE_H
#define CGW_MERGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cgw.h"
#include "util.h"

/* Key words of the body tables.  Positions go in fixed slots (instr,
 * bb, line) with the mask of those that the input had. */
enum { K_PART, K_FN, K_SRC, K_MASK, K_POS, K_COST_END = K_POS + 3,
       K_CALLEE = K_COST_END, K_TPOS, K_CALL_END = K_TPOS + 3,
       K_COND = K_CALL_END, K_JUMP_END };
enum { T_COST, T_CALL, T_JUMP, T_N };

/* A table of entries, each a row of kw key words then nv value words
 * (head fixed ones, such as a call count, then one per event), so that a
 * key and its sums share cache lines.  Entries are numbered densely from
 * 0 in the order they came.  Its index is one array of slots, each the
 * entry's 32-bit hash tag and its number + 1: a probe reads one slot, and
 * a row only when the tags agree.  The tag is a vector multiply-shift
 * hash under multipliers drawn for the table (two keys' sums agree with
 * a chance of 2^-33 at most, whatever keys an input chooses), mixed so
 * that keys in steps (lines 1, 2, 3...) do not fill neighbouring slots. */
typedef struct mtable {
    size_t kw, head, nv, stride; /* stride: kw + nv words a row */
    size_t n, cap;
    uint64_t *rows;    /* cap rows */
    uint32_t *after;   /* cap: the entry + 1 that came after each last time, 0 none */
    uint64_t *slots;   /* 2^bits: 0 empty, else tag << 32 | (entry + 1) */
    unsigned bits;
    uint64_t mul[2 * K_JUMP_END + 1]; /* two a key word, then the offset */
} mtable;

/* Interned names: id 0 is "no name" (NULL), then 1, 2, ... */
typedef struct mnames {
    char **s;
    size_t n, cap;
    cgwp_index ix;     /* entry numbers are ids */
} mnames;

/* Several values of one header field seen: the field says so. */
#define MERGE_SEVERAL "(several)"

struct cgw_merger {
    cgw_status err;
    char msg[256];
    unsigned flags;
    cgw_allocator a;
    void *subst[2];          /* compiled --mod-filename, --mod-funcname */
    mnames names;
    mtable fns;              /* (object, file, function) name ids */
    mtable tab[T_N];
    size_t nev;              /* cost events, in order of first sight */
    uint32_t *ev_name;       /* name id of each */
    uint32_t *ev_long;       /* long name id (0: none), the least by strcmp */
    int ev_uniform;          /* every part had the same list */
    size_t nder;             /* derived events, in order of first sight */
    int der_uniform;         /* every part had the same list */
    uint32_t (*der)[3];      /* name, formula, long name ids */
    uint32_t cmd;            /* name id, or the id of MERGE_SEVERAL */
    int seen_cmd;
    unsigned mask;           /* positions every part had */
    unsigned slot_kind[CGW_NPOS_MAX]; /* the kind of each fixed slot of a key */
    uint64_t inputs;         /* readers added */
    uint64_t parts;          /* parts read */
    int written;             /* cgw_merge_write() was called */
};

/* Every record of r added to the sums, the body under the K_PART word
 * part; call names the public function for messages.  m's status. */
cgw_status cgwm_add(cgw_merger *m, cgw_reader *r, uint64_t part, const char *call);

/* memory */
void *cgwm_alloc(cgw_merger *m, size_t len);
void *cgwm_grow(cgw_merger *m, void *ptr, size_t len);
void cgwm_free(cgw_merger *m, void *ptr);
/* Record the first error ("CALL: ..."); returns it. */
cgw_status cgwm_fail(cgw_merger *m, cgw_status st, const char *call, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* tables */
int cgwm_table_init(cgw_merger *m, mtable *tab, size_t kw, size_t head, size_t nev);
void cgwm_table_free(cgw_merger *m, mtable *tab);
/* The entry with key, made (values zero) when new; -1 out of memory. */
long cgwm_table_get(cgw_merger *m, mtable *tab, const uint64_t *key);
/* The same in two steps, for keys that come in batches: the key's tag
 * (its hash), whose slot cgwm_table_prefetch() starts to fetch, then the
 * entry of key and tag. */
uint32_t cgwm_table_tag(const mtable *tab, const uint64_t *key);
void cgwm_table_prefetch(const mtable *tab, uint32_t tag);
long cgwm_table_get_tagged(cgw_merger *m, mtable *tab, const uint64_t *key, uint32_t tag);
/* Room for nev events in every entry (values keep their meaning). */
int cgwm_table_events(cgw_merger *m, mtable *tab, size_t nev);
static inline uint64_t *cgwm_key(const mtable *tab, size_t i) { return tab->rows + i * tab->stride; }
static inline uint64_t *cgwm_val(const mtable *tab, size_t i)
{
    return tab->rows + i * tab->stride + tab->kw;
}

/* names: the id of str[0..len), interned when new; 0 when out of memory */
uint32_t cgwm_intern(cgw_merger *m, const char *str, size_t len);
void cgwm_names_free(cgw_merger *m);
/* A stable sort with a context for cmp; -1 out of memory. */
int cgwm_sort(cgw_merger *m, void *base, size_t count, size_t size,
              int (*cmp)(const void *, const void *, void *), void *ctx);
/* The same through tmp, room for count elements: it cannot fail. */
void cgwm_sort_in(void *base, size_t count, size_t size,
                  int (*cmp)(const void *, const void *, void *), void *ctx, void *tmp);
/* Each id's rank in strcmp order (id 0 first); NULL out of memory. */
uint32_t *cgwm_name_ranks(cgw_merger *m);

/* name rewriting: s/RE/REPL/[gi] */
int cgwm_subst_compile(cgw_merger *m, int which, const char *expr);
/* str rewritten into *out (a buffer from m's allocator, or str itself when
 * nothing matched); -1 out of memory. */
int cgwm_subst_apply(cgw_merger *m, int which, const char *str, char **out, size_t *len);
void cgwm_subst_free(cgw_merger *m, int which);

/* The sorted walk.  Items are (table, entry); the order sorts functions by
 * their names, then source file, positions (those of mask), kind,
 * target; the part first (a merge) or last (a diff, whose groups gather
 * the parts 0 and 1 as the sides old and new). */
typedef struct mitem {
    uint32_t table, entry;
} mitem;
typedef struct gitem gitem;
typedef struct mwalk {
    cgw_merger *m;
    const char *call;
    unsigned mask;
    uint32_t *nrank, *frank; /* name ranks, function ranks */
    mitem *items;
    size_t n;
    int part_last;
    uint64_t *sum;           /* [2][2 + events]: a merge uses sum[0] */
    size_t sorted;           /* the items before it are in the walk's order */
    gitem *g, *gtmp;         /* a group's sort keys, and the sort's room: as many
                              * as the largest group has items, made before the walk */
    unsigned char *joins;    /* item k is in the group of item k - 1 */
    size_t joined;           /* joins[] is known below it */
} mwalk;
/* A group of equal items: the table, its first item's key, the summed
 * values (as the table holds them) of each side.  Returns a status;
 * anything but CGW_OK stops the walk. */
typedef cgw_status (*mvisit)(void *ctx, const mwalk *wk, int table, const uint64_t *key,
                             const uint64_t *sum0, const uint64_t *sum1);
cgw_status cgwm_walk_init(cgw_merger *m, mwalk *wk, unsigned mask, int part_last,
                          const char *call);
cgw_status cgwm_walk(mwalk *wk, mvisit visit, void *ctx);
void cgwm_walk_free(mwalk *wk);

static inline const char *cgwm_name(const cgw_merger *m, uint64_t id)
{
    return id ? m->names.s[id] : NULL;
}
/* A function's (object, file, name) as a target. */
cgw_target cgwm_target(const cgw_merger *m, uint64_t fn);
/* The key's positions in the order of the writer's mask into pos. */
void cgwm_positions(const cgw_merger *m, unsigned mask, const uint64_t *slots, uint64_t *pos);
/* The checks before writing m through w (fresh, with positions that
 * every input has); fills *wo; OK or the error made sticky in w. */
cgw_status cgwm_write_check(cgw_merger *m, cgw_writer *w, cgw_options *wo, const char *call);
/* The state of a walk that writes. */
typedef struct mwrite {
    cgw_writer *w;
    cgw_options wo;
    const uint32_t *order;   /* column k -> merged event */
    uint64_t *cols;          /* one cost vector in column order */
    uint64_t *totals;        /* the dry walk: the part's totals so far */
    uint64_t part, fn, src;  /* the current ones; UINT64_MAX: none yet */
} mwrite;
/* New part, function and inline file as the key needs them. */
cgw_status cgwm_place(mwrite *mw, const cgw_merger *m, const uint64_t *key);
/* The merged events in output order: out[k] is the event of column k. */
int cgwm_event_order(cgw_merger *m, uint32_t *out);
/* The derived events in output order: out[k] is the k-th written. */
int cgwm_derived_order(cgw_merger *m, uint32_t *out);

#endif
