/* prof.h - internals of libcgwprof, the -finstrument-functions profiler:
 * the per-thread data the hooks fill, the clock, and what the dump needs.
 *
 * Each thread owns a shadow stack and a table of call edges keyed by
 * (caller, call site, callee).  Only the owner writes them; a dump from
 * another thread reads the counters with relaxed atomic loads, and finds
 * the edges through chunks published with release stores, so the hot
 * path takes no lock and no atomic read-modify-write. */
#ifndef CGWPROF_PROF_H
#define CGWPROF_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define PROF_API __attribute__((visibility("default")))
#define PROF_HOT __attribute__((no_instrument_function))

/* A function as one thread sees it: how many of its calls are in
 * progress.  Owner only. */
typedef struct prof_fn {
    void *addr;
    uint32_t active;
} prof_fn;

/* One call edge.  The keys never change after the edge is published;
 * count, incl and self (nanoseconds) only grow, written by the owner.
 * incl grows only by calls that are the callee's outermost one in
 * progress: a recursive call's time is already inside the outer call's,
 * so summing the calls into a function never counts a nanosecond twice. */
typedef struct prof_edge {
    void *caller, *site, *callee; /* caller NULL: the thread's entry   */
    uint64_t count, incl, self;
    struct prof_edge *next;       /* hash chain, owner only            */
    prof_fn *fn;                  /* the callee's                      */
    uint32_t id;                  /* creation order in its thread      */
} prof_edge;

#define PROF_CHUNK 255
typedef struct prof_chunk {
    struct prof_chunk *prev;
    uint32_t base, used; /* used is published with a release store */
    prof_edge edges[PROF_CHUNK];
} prof_chunk;

/* A call in progress.  child is the inclusive time of its finished
 * callees; last caches the edge of its latest callee (loops hit it). */
typedef struct prof_frame {
    prof_edge *edge;
    uint64_t t0, child;
    prof_edge *last;
} prof_frame;

typedef struct prof_thread {
    struct prof_thread *next; /* the process's list, newest first */
    uint32_t number;          /* 1, 2, ... in order of first call  */
    int busy;                 /* inside the profiler: ignore calls */
    prof_frame *stack;        /* stack[0] is the entry sentinel     */
    size_t depth, cap;        /* frames in use (>= 1), allocated   */
    size_t skip;              /* unrecorded calls in progress: all
                               * deeper calls are skipped as well,
                               * so exits still pair with entries  */
    uint64_t dropped;         /* calls not recorded (no memory)    */
    prof_edge **buckets;
    size_t nbuckets, nedges;
    prof_fn **fns;            /* open addressing by address        */
    size_t nfns, fncap;
    prof_chunk *chunks;       /* newest first, release-published   */
} prof_thread;

/* clock.c: nanoseconds from a cheap monotonic clock: the TSC where the
 * CPU says it is invariant (scaled by a factor calibrated against
 * CLOCK_MONOTONIC at start), else CLOCK_MONOTONIC itself, which costs
 * about twice as much.  CGWPROF_CLOCK=monotonic forces the latter. */
typedef struct prof_clock {
    int tsc;
    uint64_t tsc0, mult; /* ns = (tsc - tsc0) * mult >> 32 */
} prof_clock;
extern prof_clock prof_clk;
void prof_clock_init(void);
const char *prof_clock_name(void);

static inline uint64_t prof_now(void)
{
#if defined(__x86_64__)
    if (prof_clk.tsc) {
        uint32_t lo, hi;
        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        uint64_t t = ((uint64_t)hi << 32 | lo) - prof_clk.tsc0;
        return (uint64_t)(((unsigned __int128)t * prof_clk.mult) >> 32);
    }
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* threads.c */
extern __thread prof_thread *prof_self __attribute__((tls_model("initial-exec")));
void prof_init(void);
prof_thread *prof_thread_start(void);   /* the caller's data, created  */
prof_thread *prof_threads(void);        /* the list (acquire)          */
int prof_grow_stack(prof_thread *t);
prof_edge *prof_edge_find(prof_thread *t, void *caller, void *site, void *callee);

static inline uint64_t prof_load(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Single writer: a plain load and store, atomic only so that a dump in
 * another thread reads whole values. */
static inline void prof_add(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/* Enter fn, called from site: 0, or -1 when there is no memory to record
 * the call.  Called busy (the slow path allocates). */
static inline int prof_push(prof_thread *t, void *fn, void *site, uint64_t now)
{
    prof_frame *top = &t->stack[t->depth - 1];
    prof_edge *e = top->last;
    if (__builtin_expect(t->depth == t->cap, 0)) {
        if (prof_grow_stack(t) != 0)
            return -1;
        top = &t->stack[t->depth - 1];
    }
    if (__builtin_expect(e == NULL || e->site != site || e->callee != fn, 0)) {
        e = prof_edge_find(t, top->edge ? top->edge->callee : NULL, site, fn);
        if (e == NULL)
            return -1;
        top->last = e;
    }
    prof_frame *f = top + 1;
    t->depth++;
    e->fn->active++;
    f->edge = e;
    f->t0 = now;
    f->child = 0;
    f->last = NULL;
    return 0;
}

/* Leave the top frame at now: its call is counted, its time added to the
 * edge and to its caller's children. */
static inline void prof_pop(prof_thread *t, uint64_t now)
{
    prof_frame *f = &t->stack[--t->depth];
    uint64_t spent = now > f->t0 ? now - f->t0 : 0;
    uint64_t own = spent > f->child ? spent - f->child : 0;
    prof_add(&f->edge->count, 1);
    if (--f->edge->fn->active == 0)
        prof_add(&f->edge->incl, spent);
    prof_add(&f->edge->self, own);
    f[-1].child += spent;
}

/* symbols.c: what a code address is. */
typedef struct prof_symbol {
    const char *object;   /* path of the ELF object                   */
    const char *name;     /* symbol, or "0x<address>" when none       */
    uint64_t addr;        /* address in the object's file (objdump's) */
    uint64_t start;       /* the function's entry, same space         */
} prof_symbol;
typedef struct prof_symtab prof_symtab;
prof_symtab *prof_symtab_new(void);
int prof_symtab_lookup(prof_symtab *s, const void *addr, prof_symbol *out);
void prof_symtab_free(prof_symtab *s);

/* lines.c: file and line from the debug info (libdw), when built in. */
typedef struct prof_lines prof_lines;
int prof_lines_available(void);
prof_lines *prof_lines_new(void);
/* The source file and line of addr; 0 and *file NULL when unknown.
 * The string lives until prof_lines_free(). */
uint64_t prof_lines_lookup(prof_lines *l, const void *addr, const char **file);
void prof_lines_free(prof_lines *l);

/* dump.c */
void prof_output_init(void);
int prof_dump(const char *path, char *err, size_t errlen);

#endif
