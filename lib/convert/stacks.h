/* SPDX-License-Identifier: MIT */
/* stacks.h - the state of a cgw_stacks: stacks of frames with their
 * counts, kept as a call graph (self costs and call edges) ready to be
 * written through a writer.  Shared by stacks.c (the graph) and
 * folded-in.c (the folded-stack parser).  Not installed. */
#ifndef CGW_STACKS_H
#define CGW_STACKS_H

#include "convert.h"

#define CGWC_NONE UINT32_MAX
#define CGWC_MAX_EVENTS 64

/* An interned name: bytes in the arena, NUL-terminated. */
typedef struct cgwc_str {
    const char *p;
    size_t len;
} cgwc_str;

/* A function: (object, file, name), CGWC_NONE where a frame gave none. */
typedef struct cgwc_fn {
    uint32_t obj, file, name;
} cgwc_fn;

/* One frame of a stack: its function, line (0: none) and instruction
 * address (0: none), and the file of the code inlined into the function
 * at that line (an interned name; CGWC_NONE: the function's own code). */
typedef struct cgwc_frame {
    uint32_t fn, fi;
    uint64_t line, addr;
} cgwc_frame;

/* A cost of one event: self (callee CGWC_NONE) at a line of fn (of its
 * inlined file fi, CGWC_NONE: its own), or the inclusive cost of fn's
 * calls to callee from such a line; count is the number of stacks
 * through the call. */
typedef struct cgwc_cell {
    uint32_t fn, callee, ev, fi;
    uint64_t line, addr, value, count;
} cgwc_cell;

/* A distinct stack of the API's calls, seen again and again by a sampler:
 * its frames store[first .. first + nframes), root first, and event; sum
 * the counts it was added with, counted how many of those adds count in
 * the calls' counts.  It goes into the cells when the stacks are written
 * (or the store is full): a stack seen a million times costs one hash of
 * its frames each time, and its cells are added once. */
typedef struct cgwc_stack {
    size_t first, nframes;
    uint32_t ev;
    uint64_t sum, counted;
} cgwc_stack;

/* A caller/callee pair, and the last stack that counted it (its serial
 * number): a stack adds its count to each distinct pair once. */
typedef struct cgwc_pair {
    uint32_t caller, callee;
    uint64_t stamp;
} cgwc_pair;

struct cgw_stacks {
    cgw_allocator a;
    cgw_status err;
    char msg[256];
    char **chunks; /* the name arena: chunks, and the free end of the last */
    size_t nchunks, capchunks, left;
    char *at;
    cgwc_str *strs;
    size_t nstrs, capstrs;
    cgwp_index str_ix;
    cgwc_fn *fns;
    size_t nfns, capfns;
    cgwp_index fn_ix;
    cgwc_cell *cells;
    size_t ncells, capcells;
    cgwp_index cell_ix;
    cgwc_pair *pairs; /* every caller/callee pair of the stacks */
    size_t npairs, cappairs;
    cgwp_index pair_ix;
    cgwc_stack *stacks; /* distinct stacks not yet in the cells */
    size_t nstacks, capstacks;
    cgwp_index stack_ix;
    cgwc_frame *store; /* their frames */
    size_t nstore, capstore;
    int addresses, lines_only; /* stacks were added with, without addresses */
    const char *events[CGWC_MAX_EVENTS];
    uint64_t totals[CGWC_MAX_EVENTS];
    size_t nev;
    uint64_t serial;   /* stacks expanded into the cells so far */
    uint64_t added;    /* stacks the API's calls added */
    uint64_t stacks_total; /* what they stand for in the calls' counts */
    int sorted;        /* written: the cells are sorted, their index gone */
    uint32_t *shown;   /* written: the name each function is shown with */
    cgwc_frame *frames; /* the stack being parsed */
    size_t capframes;
};

/* Record the first error (st, "MESSAGE") and return it; later errors
 * are ignored.  Returns the error recorded. */
cgw_status cgwc_stacks_fail(cgw_stacks *s, cgw_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The checks of a call (its name) that adds data[0..len) to s: OK, or s's
 * sticky error, or EUSAGE (made sticky) for NULL data or stacks already
 * written; s NULL: EUSAGE. */
cgw_status cgwc_stacks_enter(cgw_stacks *s, const char *call, const void *data, size_t len);
/* The column of event name (added when new) in *ev: OK, EINVAL, ENOMEM. */
cgw_status cgwc_stacks_event(cgw_stacks *s, const char *name, unsigned *ev);
/* The interned name bytes[0..len) in *id (CGWC_NONE when bytes is NULL). */
cgw_status cgwc_stacks_name(cgw_stacks *s, const char *bytes, size_t len, uint32_t *id);
/* The function (obj, file, name: interned names) in *id. */
cgw_status cgwc_stacks_function(cgw_stacks *s, uint32_t obj, uint32_t file, uint32_t name,
                                uint32_t *id);
/* A stack fr[0..nframes), root first, seen count times for event ev; an error
 * message names the input and line given.  count goes to the leaf's self
 * cost and once to each distinct caller/callee pair of the stack, at the
 * call line of its outermost occurrence.  counted: the stack counts once
 * in its calls' counts (0 for the other events of a stack already added
 * for one). */
cgw_status cgwc_stacks_add(cgw_stacks *s, unsigned ev, cgwc_frame *fr, size_t nframes,
                           uint64_t count, int counted, const char *name, uint64_t line);
/* The distinct stacks the API's calls added, into the cells: before the
 * cells are written.  OK, or ENOMEM (sticky). */
cgw_status cgwc_stacks_flush(cgw_stacks *s);

#endif
