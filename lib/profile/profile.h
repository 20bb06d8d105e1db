/* SPDX-License-Identifier: MIT */
/* profile.h - the profile model's state (cgw_profile, cgw.h's "The
 * profile model"): names, events, functions, call edges and lines as
 * they are read (load.c), and the call graph computed from them on the
 * first query (graph.c: callers and callees, cycles, inclusive costs),
 * which the stacks (stacks.c) are rebuilt from.  Built like every module
 * over <cgw.h>, on it and lib/common (util.h).  Not installed. */
#ifndef CGW_PROFILE_H
#define CGW_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "util.h"

#define CGWPM_NONE UINT32_MAX

/* A function's key: its names' ids (0: none). */
typedef struct cgwpm_fnkey {
    uint32_t object, file, name;
} cgwpm_fnkey;

typedef struct cgwpm_edgekey {
    uint32_t caller, callee;
} cgwpm_edgekey;

typedef struct cgwpm_linekey {
    uint32_t fn, file;
    uint64_t line, address;
} cgwpm_linekey;

/* One entry of the current reader's cache: the reader's name pointers
 * (equal names, equal pointers, until it is closed) to a function. */
typedef struct cgwpm_seen {
    const char *object, *file, *name;
    uint32_t fn;
} cgwpm_seen;

struct cgw_profile {
    cgw_allocator a;
    cgw_status err;
    char msg[512];
    unsigned flags;
    uint64_t part_only;
    uint64_t readers; /* given to cgw_profile_add() */

    /* names, interned (id 0 is "none"), in the arena */
    cgwp_arena arena;
    const char **names;
    size_t nnames, capnames;
    cgwp_index name_ix;

    /* events (their names in the arena), totals, the parts' text */
    cgw_event *events;
    size_t nev, capev;
    uint64_t *totals;
    uint64_t parts;
    const char *cmd, *creator;

    /* functions, self costs [fn * nev + event] */
    cgwpm_fnkey *fkeys;
    size_t nfns, capfns, capself;
    uint64_t *self;
    cgwp_index fn_ix;

    /* call edges, their counts and inclusive costs [edge * nev + event] */
    cgwpm_edgekey *ekeys;
    uint64_t *ecount, *eincl;
    size_t nedges, capedges, capecount, capeincl;
    cgwp_index edge_ix;

    /* lines (CGW_PROFILE_LINES), their self costs [line * nev + event] */
    cgwpm_linekey *lkeys;
    uint64_t *lself;
    size_t nlines, caplines, caplself;
    cgwp_index line_ix;

    /* while a reader is added: its part's columns, the last function
     * and the cache of its name pointers */
    size_t *col;
    size_t capcol, ncol;
    unsigned npos, pos_kinds[8];
    int skipping; /* a part that cgw_profile_options.part leaves out */
    cgwpm_seen last;
    cgwpm_seen *seen;
    size_t nseen, capseen;
    cgwp_index seen_ix;

    /* the call graph (graph.c), valid while graph_ok */
    int graph_ok, exact;
    cgw_profile_fn *fns;
    cgw_profile_edge *edges;
    uint64_t *incl;                  /* [fn * nev + event] */
    uint32_t *in_at, *in_edges;      /* edges into fn: in_edges[in_at[fn], in_at[fn+1]) */
    uint32_t *out_at, *out_edges;    /* edges out of fn, likewise */
    uint32_t *member_ix;             /* a cycle member's place in its cycle's members */
    cgw_profile_cycle *cycles;
    size_t ncycles;
    uint32_t *members;               /* every cycle's, one after the other */
    uint64_t *cycle_self, *cycle_incl; /* [cycle * nev + event] */
    uint32_t *entry_at, *entry_edges; /* edges into cycle c from outside it */
    cgw_profile_line *lines;
    uint32_t *line_at;               /* fn's lines: lines[line_at[fn], line_at[fn+1]) */

    /* the last call tree (tree.c) */
    cgw_profile_node *nodes;
    size_t nnodes, capnodes;
    cgwp_index node_ix;
};

/* error.c: the sticky error: st and "call: " fmt... as the message;
 * returns the profile's error. */
cgw_status cgwpm_fail(cgw_profile *p, cgw_status st, const char *call, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* load.c: read every record of r into p's sums (call names the public
 * call); the caller frees the graph and tree made of the old ones. */
cgw_status cgwpm_load(cgw_profile *p, cgw_reader *r, const char *call);
/* load.c: the function of those names (object NULL: none), or CGWPM_NONE
 * when there is none such. */
uint32_t cgwpm_lookup(cgw_profile *p, const char *object, const char *file, const char *name);
/* load.c: what the reads left behind (names, events, sums), freed. */
void cgwpm_load_free(cgw_profile *p);

/* graph.c: the call graph from what was read, once after each add: OK,
 * or ENOMEM (the profile's error). */
cgw_status cgwpm_graph(cgw_profile *p, const char *call);
/* graph.c: the call graph, freed (a later add makes it again). */
void cgwpm_graph_free(cgw_profile *p);

/* stacks.c: cgw_profile_stacks_min() for call, which errors name;
 * *merged set to 1 when a share under min_amount was merged, else 0. */
cgw_status cgwpm_stacks(cgw_profile *p, size_t event, uint64_t min_amount,
                        cgw_profile_stack_fn each, void *ctx, const char *call, int *merged);

/* tree.c: the last call tree, freed. */
void cgwpm_tree_free(cgw_profile *p);

/* Saturating arithmetic on costs. */
static inline uint64_t cgwpm_sat_add(uint64_t left, uint64_t right)
{
    return left > UINT64_MAX - right ? UINT64_MAX : left + right;
}

#endif /* CGW_PROFILE_H */
