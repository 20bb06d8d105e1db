/* SPDX-License-Identifier: MIT */
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

#include <link.h> /* ElfW() */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define PROF_API __attribute__((visibility("default")))
#define PROF_HOT __attribute__((no_instrument_function))

/* One call edge.  The keys never change after the edge is published;
 * count, incl and self (clock ticks: the dump turns them into ns) only
 * grow, written by the owner.
 * A function's calls of itself add nothing to incl: their time is
 * already inside the outer call's, and viewers that sum a function's
 * calls (callgrind_annotate --inclusive) would count it twice. */
typedef struct prof_edge {
    void *caller, *site, *callee; /* caller NULL: the thread's entry   */
    uint64_t count, incl, self;
    struct prof_edge *next;       /* hash chain, owner only            */
    struct prof_edge *kids[2];    /* the callee's latest calls: loops
                                   * and fib()-like pairs hit them     */
    uint32_t id;                  /* creation order in its thread      */
    uint16_t cfa_off;             /* the callee's CFA less the hooks'
                                   * prof_sp() when last found (0: not
                                   * yet; hooks.c)                     */
    uint16_t cfa_none;            /* the CFA was looked for in vain    */
} prof_edge;

#define PROF_CHUNK 255
typedef struct prof_chunk {
    struct prof_chunk *prev;
    uint32_t base, used; /* used is published with a release store */
    prof_edge edges[PROF_CHUNK];
} prof_chunk;

/* A call in progress: started at clock tick t0; child is the inclusive
 * time (ticks) of its finished callees; sp is its place on the machine
 * stack, above the hooks' frame and at most the function's CFA
 * (hooks.c): a callee's is lower, so a frame at or below a new call's
 * was abandoned by longjmp(). */
typedef struct prof_frame {
    prof_edge *edge;
    uint64_t t0, child;
    uintptr_t sp;
} prof_frame;

typedef struct prof_thread {
    struct prof_thread *next; /* the process's list, newest first */
    uint32_t number;          /* 1, 2, ... in order of first call  */
    int busy;                 /* inside the profiler: ignore calls */
    prof_frame *stack;        /* stack[0]: the entry, edge root    */
    size_t depth, cap;        /* frames in use (>= 1), allocated   */
    size_t skip;              /* unrecorded calls in progress: all
                               * deeper calls are skipped as well,
                               * so exits still pair with entries  */
    uint64_t dropped;         /* calls not recorded (no memory)    */
    prof_edge root;           /* callee NULL: whoever started us   */
    prof_edge **buckets;
    size_t nbuckets, nedges;
    prof_chunk *chunks;       /* newest first, release-published   */
    uint64_t folded;          /* CGWPROF_THREADS=fold: the number of
                               * finished threads added (fold.c)   */
    uintptr_t stack_lo, stack_hi; /* the thread's machine stack: a
                               * frame elsewhere (sigaltstack, a
                               * coroutine) is never taken for one
                               * that longjmp() abandoned          */
} prof_thread;

/* clock.c: a cheap monotonic clock: the TSC where the CPU says it is
 * invariant, its ticks scaled to ns by a factor calibrated against
 * CLOCK_MONOTONIC from start to each dump; else CLOCK_MONOTONIC itself
 * (ticks are ns), which costs about twice as much.  CGWPROF_CLOCK=monotonic
 * forces it. */
typedef struct prof_clock {
    int tsc;
    uint64_t mult;                  /* ns = ticks * mult >> 32 */
    uint64_t start_ns, start_ticks; /* both clocks at start */
} prof_clock;
extern prof_clock prof_clk;
void prof_clock_init(void);
void prof_clock_calibrate(void);
const char *prof_clock_name(void);

static inline uint64_t prof_ticks(void)
{
#if defined(__x86_64__)
    if (prof_clk.tsc) {
        uint32_t lo, hi;
        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        return (uint64_t)hi << 32 | lo;
    }
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether prof_ticks() is the TSC: the hooks' fast paths need it, and
 * leave CLOCK_MONOTONIC (a call of its own) to their slow paths. */
static inline int prof_fast_clock(void)
{
#if defined(__x86_64__)
    return prof_clk.tsc;
#else
    return 0;
#endif
}

/* Ticks from t0 to t1 (0 if the clock went back). */
static inline uint64_t prof_span(uint64_t t0, uint64_t t1)
{
    return t1 > t0 ? t1 - t0 : 0;
}

/* Nanoseconds in a number of ticks: the hot path sums ticks, and the
 * dump converts the sums. */
static inline uint64_t prof_ns(uint64_t ticks)
{
#if defined(__x86_64__)
    if (prof_clk.tsc)
        return (uint64_t)(((unsigned __int128)ticks * prof_clk.mult) >> 32);
#endif
    return ticks;
}

/* env.c: getenv(), except that in a setuid or setgid process (secure
 * execution) every variable reads as unset. */
const char *prof_getenv(const char *name);
/* Whether this is a secure-execution process (setuid, setgid, file
 * capabilities: AT_SECURE). */
int prof_secure(void);
/* Read at start: $CGWPROF_LAUNCHED, the pid of the process that the
 * cgwprof launcher ran (not a child the preload reached as well). */
void prof_launched_init(void);
/* Whether this process is the one cgwprof ran. */
int prof_launched(void);

/* start.c: the profiler's start (once), a thread's start and end, fork */
void prof_init(void);
prof_thread *prof_thread_start(void);   /* the caller's data, created  */

/* threads.c: the list of threads, their stacks and edge tables */
extern __thread prof_thread *prof_self __attribute__((tls_model("initial-exec")));
prof_thread *prof_threads(void);        /* the list (acquire)          */
int prof_grow_stack(prof_thread *t);
prof_edge *prof_edge_find(prof_thread *t, void *caller, void *site, void *callee);
prof_thread *prof_thread_new(void);      /* not in the list            */
void prof_publish(prof_thread *t);      /* into the list              */
void prof_thread_forget(prof_thread *t); /* out of it, freed; dump lock */
void prof_threads_after_fork(void);     /* the parent's, out of the list */

/* fold.c: CGWPROF_THREADS=fold, finished threads in one part. */
void prof_fold_init(void);
void prof_fold_after_fork(void);
int prof_fold(prof_thread *t);

/* unload.c: dlclose(), which keeps the names of what it unloads; a
 * folded thread's records go to the folded part's edges. */
void prof_retired_fold(prof_thread *t, prof_thread *into);

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

/* e becomes up's latest call. */
static inline void prof_remember(prof_edge *up, prof_edge *e)
{
    up->kids[1] = up->kids[0];
    up->kids[0] = e;
}

/* The callee's latest edge from the top frame, when it is (site, fn):
 * loops and fib()-like pairs of calls hit it; NULL otherwise. */
static inline prof_edge *prof_recent_edge(prof_thread *t, void *fn, void *site)
{
    prof_edge *up = t->stack[t->depth - 1].edge, *e = up->kids[0];
    if (__builtin_expect(e != NULL && e->site == site && e->callee == fn, 1))
        return e;
    e = up->kids[1];
    if (e == NULL || e->site != site || e->callee != fn)
        return NULL;
    prof_remember(up, e);
    return e;
}

/* Where the instrumented function's stack pointer was when it called
 * the hook (the hook's canonical frame address, which unlike
 * __builtin_frame_address(0) does not depend on the hook's own frame):
 * the hooks are called after the function's prologue and before its
 * epilogue, so the entry and the exit of one call see the same value
 * (lower at the exit if the function used alloca()). */
#define prof_sp() ((uintptr_t)__builtin_dwarf_cfa())

/* Push a frame for edge e (room checked by the caller), started at tick
 * now, placed at sp.  The edge is stored before the frame is claimed (depth) and again
 * after: a signal handler that profiles calls in between either sees a
 * frame with its edge or overwrites an unclaimed slot. */
static inline void prof_claim(prof_thread *t, prof_edge *e, uint64_t now, uintptr_t sp)
{
    prof_frame *f = &t->stack[t->depth];
    f->edge = e;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->depth++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    f->edge = e;
    f->t0 = now;
    f->child = 0;
    f->sp = sp;
}

/* Enter fn, called from site, at tick now, placed at sp: 0, or -1 when
 * there is no memory to record the call. */
static inline int prof_push(prof_thread *t, void *fn, void *site, uint64_t now, uintptr_t sp)
{
    if (__builtin_expect(t->depth == t->cap, 0) && prof_grow_stack(t) != 0)
        return -1;
    prof_edge *e = prof_recent_edge(t, fn, site);
    if (e == NULL) {
        prof_edge *up = t->stack[t->depth - 1].edge;
        if ((e = prof_edge_find(t, up->callee, site, fn)) == NULL)
            return -1;
        prof_remember(up, e);
    }
    prof_claim(t, e, now, sp);
    return 0;
}

/* Leave the top frame at tick now: its call is counted, its time added
 * to the edge and to its caller's children.  The frame is read before it
 * is released. */
static inline void prof_pop(prof_thread *t, uint64_t now)
{
    prof_frame *f = &t->stack[t->depth - 1];
    prof_edge *e = f->edge;
    uint64_t spent = prof_span(f->t0, now);
    uint64_t own = spent > f->child ? spent - f->child : 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->depth--;
    prof_add(&e->count, 1);
    if (e->caller != e->callee)
        prof_add(&e->incl, spent);
    prof_add(&e->self, own);
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
int prof_symtab_lookup(prof_symtab *tab, const void *addr, prof_symbol *out);
void prof_symtab_free(prof_symtab *tab);

/* elf.c: ELF images mapped whole, and separate debug files. */
int prof_elf_ok(const unsigned char *image, size_t len);
const ElfW(Shdr) *prof_elf_section(const unsigned char *image, size_t len, unsigned type,
                                   const char *name);
void *prof_elf_map(const char *path, size_t *len);
void *prof_elf_debug_file(const unsigned char *image, size_t len, const char *path, size_t *dlen);
uint32_t prof_crc32(const unsigned char *bytes, size_t len);
const char *prof_debug_root(void); /* $CGWPROF_DEBUGDIR or /usr/lib/debug */

/* demangle.c: the readable name of a C++ or Rust symbol (malloc'd). */
char *prof_demangle(const char *symbol);

/* lines.c: file and line from the debug info (libdw), when built in. */
typedef struct prof_lines prof_lines;
prof_lines *prof_lines_new(void);
/* The source file and line of addr; 0 and *file NULL when unknown.
 * The string lives until prof_lines_free(). */
uint64_t prof_lines_lookup(prof_lines *lines, const void *addr, const char **file);
void prof_lines_free(prof_lines *lines);

/* output.c: where profiles go */
void prof_output_init(void);
void prof_default_path(char *out, size_t len); /* async-signal-safe */
/* The default path into out, and the cgw_open_path() flags it is written
 * with: CGW_EXCL for a name nobody chose, CGW_NOFOLLOW for this process's
 * own earlier file there, 0 for $CGWPROF_OUT.  -1 with errno EPERM, and a
 * note on stderr once, in a secure-execution process.  Async-signal-safe. */
int prof_default_target(char *out, size_t len, unsigned *flags);
/* A dump to the default path succeeded: the file there is this process's. */
void prof_output_written(const char *path);
/* Put the finished temporary file at target as flags say (CGW_EXCL: only
 * to a free name); the temporary name is gone after.  Async-signal-safe. */
int prof_output_commit(const char *temp, const char *target, unsigned flags);

/* lock.c: the dump lock (no dump runs while it is held), and whether
 * the calling thread is writing a profile (between begin and end) */
void prof_lock(void);
void prof_unlock(void);
void prof_lock_after_fork(void);
void prof_dump_begin(void);
void prof_dump_end(void);
int prof_dumping(void);

/* dump.c: prof_dump() needs prof_init() first */
int prof_dump(const char *path, char *err, size_t errlen);
int prof_dump_fd(int fd, const char *path, long pid, uint64_t now);

/* signal.c: a profile when SIGINT, SIGTERM or SIGABRT kills the program. */
void prof_signals_init(void);

#endif
