/* SPDX-License-Identifier: MIT */
/* unload.c - dlclose() through the profiler: the dump names addresses
 * as they are loaded when it runs, so the calls into an object that was
 * unloaded since would get another object's names (one loaded at the
 * same address later) or none.  Before the C library's dlclose() runs,
 * the calls of every edge into or out of the object are taken aside
 * (count and times so far, per thread) with the names of its functions
 * they involve, under a tag for this unload.  The edges go on counting:
 * the dump takes the tagged calls out of them and writes them with the
 * names kept, and what the edges counted since is named as loaded then.
 * If the object stays loaded (other handles hold it), the records of the
 * unload are dropped.  The hooks are not touched.
 *
 * Calls that the object's own destructors make while dlclose() unloads
 * it are counted after the records were taken: they are named by what
 * is at their address at the dump. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

PROF_API int dlclose(void *handle);

typedef struct retired_fn { /* a function of an unloaded object */
    struct retired_fn *next;
    void *addr;
    uint32_t tag;
    prof_names n;
} retired_fn;

typedef struct retired_edge { /* an edge's calls before an unload */
    struct retired_edge *next;
    prof_thread *thread;
    prof_edge *edge;
    uint64_t count, incl, self;
    uint32_t tag_from, tag_to; /* 0: that end was not in the object */
} retired_edge;

/* Under the dump lock; never freed but by a rollback. */
static retired_fn *fns;
static retired_edge *edges;
static uint32_t unloads;

#define MAXSEG 16
typedef struct range {
    uintptr_t bias, lo[MAXSEG], hi[MAXSEG];
    int n;
    char name[4096];
} range;

static int in_range(const range *r, const void *p)
{
    for (int i = 0; i < r->n; i++)
        if ((uintptr_t)p >= r->lo[i] && (uintptr_t)p < r->hi[i])
            return 1;
    return 0;
}

static int find_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
    range *r = arg;
    (void)size;
    if (info->dlpi_addr != r->bias || strcmp(info->dlpi_name, r->name) != 0)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && r->n < MAXSEG; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD) {
            r->lo[r->n] = info->dlpi_addr + p->p_vaddr;
            r->hi[r->n++] = info->dlpi_addr + p->p_vaddr + p->p_memsz;
        }
    }
    return 1;
}

/* The loaded segments of the object behind handle, now: 0, or -1. */
static int object_range(void *handle, range *r)
{
    struct link_map *lm = NULL;
    memset(r, 0, sizeof *r);
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL || lm->l_name == NULL ||
        strlen(lm->l_name) >= sizeof r->name)
        return -1;
    r->bias = lm->l_addr;
    strcpy(r->name, lm->l_name);
    dl_iterate_phdr(find_segments, r);
    return r->n > 0 ? 0 : -1;
}

/* What earlier unloads took of edge e already. */
static void taken(const prof_edge *e, uint64_t sum[3])
{
    sum[0] = sum[1] = sum[2] = 0;
    for (const retired_edge *r = edges; r != NULL; r = r->next) {
        if (r->edge == e) {
            sum[0] += r->count;
            sum[1] += r->incl;
            sum[2] += r->self;
        }
    }
}

/* The function at addr named under tag, once: 0, or -1 out of memory. */
static int keep_name(void *addr, uint32_t tag, prof_symtab *syms, prof_lines *lines)
{
    if (prof_retired_names(addr, tag) != NULL)
        return 0;
    retired_fn *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    f->addr = addr;
    f->tag = tag;
    f->next = fns;
    fns = f; /* in the list even when naming fails: the rollback frees it */
    return prof_name(syms, lines, addr, &f->n);
}

/* Take edge e of thread t aside under tag: 0, or -1 out of memory. */
static int take(prof_thread *t, prof_edge *e, const range *r, uint32_t tag, prof_symtab *syms,
                prof_lines *lines)
{
    uint64_t before[3];
    taken(e, before);
    uint64_t count = prof_load(&e->count) - before[0];
    if (count == 0)
        return 0;
    retired_edge *x = malloc(sizeof *x);
    if (x == NULL)
        return -1;
    int from = e->caller != NULL && in_range(r, e->caller), to = in_range(r, e->callee);
    *x = (retired_edge){ edges, t, e, count, prof_load(&e->incl) - before[1],
                         prof_load(&e->self) - before[2], from ? tag : 0, to ? tag : 0 };
    edges = x;
    if (from && keep_name(e->caller, tag, syms, lines) != 0)
        return -1;
    return to ? keep_name(e->callee, tag, syms, lines) : 0;
}

static int retire(const range *r, uint32_t tag, prof_symtab *syms, prof_lines *lines)
{
    for (prof_thread *t = prof_threads(); t != NULL; t = t->next) {
        for (prof_chunk *c = __atomic_load_n(&t->chunks, __ATOMIC_ACQUIRE); c; c = c->prev) {
            uint32_t used = __atomic_load_n(&c->used, __ATOMIC_ACQUIRE);
            for (uint32_t i = 0; i < used; i++) {
                prof_edge *e = &c->edges[i];
                if ((in_range(r, e->callee) || (e->caller != NULL && in_range(r, e->caller))) &&
                    take(t, e, r, tag, syms, lines) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* Drop every record of tag. */
static void rollback(uint32_t tag)
{
    for (retired_edge **p = &edges; *p != NULL;) {
        retired_edge *x = *p;
        if (x->tag_from == tag || x->tag_to == tag) {
            *p = x->next;
            free(x);
        } else {
            p = &x->next;
        }
    }
    for (retired_fn **p = &fns; *p != NULL;) {
        retired_fn *f = *p;
        if (f->tag == tag) {
            *p = f->next;
            prof_names_free(&f->n);
            free(f);
        } else {
            p = &f->next;
        }
    }
}

static int still_loaded(range *r)
{
    r->n = 0;
    dl_iterate_phdr(find_segments, r);
    return r->n > 0;
}

/* The records of an unload of the object in r, under a new tag: the
 * tag, or 0 when nothing was recorded. */
static uint32_t record(const range *r)
{
    prof_thread *me = prof_self;
    int was_busy = me != NULL ? me->busy : 0;
    if (me != NULL)
        me->busy = 1; /* calls made meanwhile are not the program's */
    uint32_t tag = ++unloads;
    prof_symtab *syms = prof_symtab_new();
    prof_lines *lines = prof_lines_new();
    if (syms == NULL || retire(r, tag, syms, lines) != 0) {
        rollback(tag);
        tag = 0;
    }
    prof_symtab_free(syms);
    prof_lines_free(lines);
    if (me != NULL)
        me->busy = was_busy;
    return tag;
}

int dlclose(void *handle)
{
    static int (*real)(void *);
    if (real == NULL)
        *(void **)&real = dlsym(RTLD_NEXT, "dlclose");
    if (real == NULL)
        return -1;
    range r;
    uint32_t tag = 0;
    /* not from a dump (the debug-info reader unloading a backend): it
     * holds the lock, and names only what is loaded */
    if (prof_threads() != NULL && !prof_dumping() && object_range(handle, &r) == 0) {
        prof_lock();
        tag = record(&r);
        prof_unlock();
    }
    int rc = real(handle);
    if (tag != 0 && still_loaded(&r)) {
        prof_lock();
        rollback(tag);
        prof_unlock();
    }
    return rc;
}

const prof_names *prof_retired_names(void *addr, uint32_t tag)
{
    for (const retired_fn *f = fns; f != NULL; f = f->next)
        if (f->addr == addr && f->tag == tag)
            return &f->n;
    return NULL;
}

size_t prof_retired_count(const prof_thread *t)
{
    size_t n = 0;
    for (const retired_edge *r = edges; r != NULL; r = r->next)
        n += r->thread == t;
    return n;
}

static uint64_t less(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

void prof_retired_apply(const prof_thread *t, snap *s, size_t *n)
{
    for (const retired_edge *r = edges; r != NULL; r = r->next) {
        if (r->thread != t)
            continue;
        snap *live = &s[r->edge->id];
        live->count = less(live->count, r->count);
        live->incl = less(live->incl, r->incl);
        live->self = less(live->self, r->self);
        s[(*n)++] = (snap){ r->edge->caller, r->edge->site, r->edge->callee, r->count, r->incl,
                            r->self, 0, 0, r->tag_from, r->tag_to };
    }
}

/* The records of thread t, which fold.c is adding to f, go to f's
 * edges (which exist: every edge of t with calls has its twin in f). */
void prof_retired_fold(prof_thread *t, prof_thread *f)
{
    for (retired_edge *r = edges; r != NULL; r = r->next) {
        if (r->thread != t)
            continue;
        prof_edge *g = prof_edge_find(f, r->edge->caller, r->edge->site, r->edge->callee);
        r->edge = g;
        r->thread = g != NULL ? f : NULL; /* NULL: no part's any more */
    }
}
