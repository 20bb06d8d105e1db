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

static int in_range(const range *rng, const void *addr)
{
    for (int i = 0; i < rng->n; i++)
        if ((uintptr_t)addr >= rng->lo[i] && (uintptr_t)addr < rng->hi[i])
            return 1;
    return 0;
}

static int find_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
    range *rng = arg;
    (void)size;
    if (info->dlpi_addr != rng->bias || strcmp(info->dlpi_name, rng->name) != 0)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && rng->n < MAXSEG; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD) {
            rng->lo[rng->n] = info->dlpi_addr + p->p_vaddr;
            rng->hi[rng->n++] = info->dlpi_addr + p->p_vaddr + p->p_memsz;
        }
    }
    return 1;
}

/* The loaded segments of the object behind handle, now: 0, or -1. */
static int object_range(void *handle, range *rng)
{
    struct link_map *lm = NULL;
    memset(rng, 0, sizeof *rng);
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL || lm->l_name == NULL ||
        strlen(lm->l_name) >= sizeof rng->name)
        return -1;
    rng->bias = lm->l_addr;
    strcpy(rng->name, lm->l_name);
    dl_iterate_phdr(find_segments, rng);
    return rng->n > 0 ? 0 : -1;
}

/* What earlier unloads took of edge already. */
static void taken(const prof_edge *edge, uint64_t sum[3])
{
    sum[0] = sum[1] = sum[2] = 0;
    for (const retired_edge *rec = edges; rec != NULL; rec = rec->next) {
        if (rec->edge == edge) {
            sum[0] += rec->count;
            sum[1] += rec->incl;
            sum[2] += rec->self;
        }
    }
}

/* The function at addr named under tag, once: 0, or -1 out of memory. */
static int keep_name(void *addr, uint32_t tag, prof_symtab *syms, prof_lines *lines)
{
    if (prof_retired_names(addr, tag) != NULL)
        return 0;
    retired_fn *fn = calloc(1, sizeof *fn);
    if (fn == NULL)
        return -1;
    fn->addr = addr;
    fn->tag = tag;
    fn->next = fns;
    fns = fn; /* in the list even when naming fails: the rollback frees it */
    return prof_name(syms, lines, addr, &fn->n);
}

/* Take edge of thread t aside under tag: 0, or -1 out of memory. */
static int take(prof_thread *t, prof_edge *edge, const range *rng, uint32_t tag, prof_symtab *syms,
                prof_lines *lines)
{
    uint64_t before[3];
    taken(edge, before);
    uint64_t count = prof_load(&edge->count) - before[0];
    if (count == 0)
        return 0;
    retired_edge *rec = malloc(sizeof *rec);
    if (rec == NULL)
        return -1;
    int from = edge->caller != NULL && in_range(rng, edge->caller), to = in_range(rng, edge->callee);
    *rec = (retired_edge){ edges, t, edge, count, prof_load(&edge->incl) - before[1],
                         prof_load(&edge->self) - before[2], from ? tag : 0, to ? tag : 0 };
    edges = rec;
    if (from && keep_name(edge->caller, tag, syms, lines) != 0)
        return -1;
    return to ? keep_name(edge->callee, tag, syms, lines) : 0;
}

static int retire(const range *rng, uint32_t tag, prof_symtab *syms, prof_lines *lines)
{
    for (prof_thread *t = prof_threads(); t != NULL; t = t->next) {
        for (prof_chunk *chunk = __atomic_load_n(&t->chunks, __ATOMIC_ACQUIRE); chunk; chunk = chunk->prev) {
            uint32_t used = __atomic_load_n(&chunk->used, __ATOMIC_ACQUIRE);
            for (uint32_t i = 0; i < used; i++) {
                prof_edge *edge = &chunk->edges[i];
                if ((in_range(rng, edge->callee) || (edge->caller != NULL && in_range(rng, edge->caller))) &&
                    take(t, edge, rng, tag, syms, lines) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* Drop every record of tag. */
static void rollback(uint32_t tag)
{
    for (retired_edge **link = &edges; *link != NULL;) {
        retired_edge *rec = *link;
        if (rec->tag_from == tag || rec->tag_to == tag) {
            *link = rec->next;
            free(rec);
        } else {
            link = &rec->next;
        }
    }
    for (retired_fn **link = &fns; *link != NULL;) {
        retired_fn *fn = *link;
        if (fn->tag == tag) {
            *link = fn->next;
            prof_names_free(&fn->n);
            free(fn);
        } else {
            link = &fn->next;
        }
    }
}

static int still_loaded(range *rng)
{
    rng->n = 0;
    dl_iterate_phdr(find_segments, rng);
    return rng->n > 0;
}

/* The records of an unload of the object in rng, under a new tag: the
 * tag, or 0 when nothing was recorded. */
static uint32_t record(const range *rng)
{
    prof_thread *me = prof_self;
    int was_busy = me != NULL ? me->busy : 0;
    if (me != NULL)
        me->busy = 1; /* calls made meanwhile are not the program's */
    uint32_t tag = ++unloads;
    prof_symtab *syms = prof_symtab_new();
    prof_lines *lines = prof_lines_new();
    if (syms == NULL || retire(rng, tag, syms, lines) != 0) {
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
    range rng;
    uint32_t tag = 0;
    /* not from a dump (the debug-info reader unloading a backend): it
     * holds the lock, and names only what is loaded */
    if (prof_threads() != NULL && !prof_dumping() && object_range(handle, &rng) == 0) {
        prof_lock();
        tag = record(&rng);
        prof_unlock();
    }
    int rc = real(handle);
    if (tag != 0 && still_loaded(&rng)) {
        prof_lock();
        rollback(tag);
        prof_unlock();
    }
    return rc;
}

const prof_names *prof_retired_names(void *addr, uint32_t tag)
{
    for (const retired_fn *fn = fns; fn != NULL; fn = fn->next)
        if (fn->addr == addr && fn->tag == tag)
            return &fn->n;
    return NULL;
}

size_t prof_retired_count(const prof_thread *t)
{
    size_t count = 0;
    for (const retired_edge *rec = edges; rec != NULL; rec = rec->next)
        count += rec->thread == t;
    return count;
}

static uint64_t less(uint64_t from, uint64_t minus)
{
    return from > minus ? from - minus : 0;
}

void prof_retired_apply(const prof_thread *t, snap *copy, size_t *ncopied)
{
    for (const retired_edge *rec = edges; rec != NULL; rec = rec->next) {
        if (rec->thread != t)
            continue;
        snap *live = &copy[rec->edge->id];
        live->count = less(live->count, rec->count);
        live->incl = less(live->incl, rec->incl);
        live->self = less(live->self, rec->self);
        copy[(*ncopied)++] = (snap){ rec->edge->caller, rec->edge->site, rec->edge->callee, rec->count, rec->incl,
                            rec->self, 0, 0, rec->tag_from, rec->tag_to };
    }
}

/* The records of thread t, which fold.c is adding to the folded part
 * into, go to its edges (which exist: every edge of t with calls has its
 * twin there). */
void prof_retired_fold(prof_thread *t, prof_thread *into)
{
    for (retired_edge *rec = edges; rec != NULL; rec = rec->next) {
        if (rec->thread != t)
            continue;
        prof_edge *twin = prof_edge_find(into, rec->edge->caller, rec->edge->site, rec->edge->callee);
        rec->edge = twin;
        rec->thread = twin != NULL ? into : NULL; /* NULL: no part's any more */
    }
}
