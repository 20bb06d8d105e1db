/* SPDX-License-Identifier: MIT */
/* threads.c - the per-thread data behind the hooks: the list of threads,
 * the shadow stack, the edge table, and what fork and thread exit do.
 *
 * Memory comes from malloc on the slow path only (a new thread, a new
 * edge, a deeper stack), with the thread marked busy so that calls made
 * meanwhile (an instrumented allocator, a signal handler) are ignored
 * instead of recursing.  What starts and ends a thread, and what fork
 * does, is start.c's, above this file, which calls nothing of theirs. */
#define _GNU_SOURCE /* pthread_getattr_np() */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

__thread prof_thread *prof_self __attribute__((tls_model("initial-exec")));

static prof_thread *threads;   /* newest first; push with release      */
static prof_thread *orphans;   /* a forked child's copies of its parent's
                                * threads: never dumped, kept reachable */
static uint32_t nthreads;

prof_thread *prof_threads(void)
{
    return __atomic_load_n(&threads, __ATOMIC_ACQUIRE);
}

void prof_publish(prof_thread *t)
{
    t->number = __atomic_add_fetch(&nthreads, 1, __ATOMIC_RELAXED);
    t->next = __atomic_load_n(&threads, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&threads, &t->next, t, 1, __ATOMIC_RELEASE,
                                         __ATOMIC_RELAXED))
        ;
}

static size_t hash(const void *caller, const void *site, const void *callee, size_t mask)
{
    uint64_t mix = (uint64_t)(uintptr_t)site * 0x9e3779b97f4a7c15u;
    mix ^= (uint64_t)(uintptr_t)callee * 0xc2b2ae3d27d4eb4fu;
    mix ^= (uint64_t)(uintptr_t)caller;
    return (size_t)(mix ^ mix >> 29) & mask;
}

static int grow_buckets(prof_thread *t)
{
    size_t size = t->nbuckets ? t->nbuckets * 2 : 256;
    prof_edge **buckets = calloc(size, sizeof *buckets);
    if (buckets == NULL)
        return -1;
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (prof_edge *edge = t->buckets[i], *next; edge != NULL; edge = next) {
            next = edge->next;
            size_t slot = hash(edge->caller, edge->site, edge->callee, size - 1);
            edge->next = buckets[slot];
            buckets[slot] = edge;
        }
    }
    free(t->buckets);
    t->buckets = buckets;
    t->nbuckets = size;
    return 0;
}

static prof_edge *new_edge(prof_thread *t, void *caller, void *site, void *callee)
{
    prof_chunk *chunk = t->chunks;
    if (chunk == NULL || chunk->used == PROF_CHUNK) {
        prof_chunk *fresh = malloc(sizeof *fresh);
        if (fresh == NULL)
            return NULL;
        fresh->prev = chunk;
        fresh->base = chunk ? chunk->base + PROF_CHUNK : 0;
        fresh->used = 0;
        __atomic_store_n(&t->chunks, fresh, __ATOMIC_RELEASE);
        chunk = fresh;
    }
    prof_edge *edge = &chunk->edges[chunk->used];
    memset(edge, 0, sizeof *edge);
    edge->caller = caller;
    edge->site = site;
    edge->callee = callee;
    edge->id = chunk->base + chunk->used;
    __atomic_store_n(&chunk->used, chunk->used + 1, __ATOMIC_RELEASE);
    return edge;
}

static prof_edge *edge_find(prof_thread *t, void *caller, void *site, void *callee)
{
    if (t->nedges >= t->nbuckets && grow_buckets(t) != 0 && t->nbuckets == 0)
        return NULL;
    size_t slot = hash(caller, site, callee, t->nbuckets - 1);
    for (prof_edge *edge = t->buckets[slot]; edge != NULL; edge = edge->next)
        if (edge->site == site && edge->callee == callee && edge->caller == caller)
            return edge;
    prof_edge *edge = new_edge(t, caller, site, callee);
    if (edge == NULL)
        return NULL;
    edge->next = t->buckets[slot];
    t->buckets[slot] = edge;
    t->nedges++;
    return edge;
}

/* Room for one more frame: 0, or -1 when out of memory. */
int prof_grow_stack(prof_thread *t)
{
    size_t cap = t->cap * 2;
    t->busy = 1;
    prof_frame *stack = realloc(t->stack, cap * sizeof *stack);
    t->busy = 0;
    if (stack == NULL)
        return -1;
    t->stack = stack;
    t->cap = cap;
    return 0;
}

/* The edge (caller, site, callee), created on first use; NULL when out
 * of memory.  Calls made meanwhile (an instrumented allocator) are not
 * recorded. */
prof_edge *prof_edge_find(prof_thread *t, void *caller, void *site, void *callee)
{
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    prof_edge *edge = edge_find(t, caller, site, callee);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = 0;
    return edge;
}

/* The calling thread's machine stack; all of memory when unknown. */
static void stack_bounds(prof_thread *t)
{
    pthread_attr_t attr;
    void *lo;
    size_t size;
    t->stack_lo = 0;
    t->stack_hi = UINTPTR_MAX;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        t->stack_lo = (uintptr_t)lo;
        t->stack_hi = (uintptr_t)lo + size;
    }
    pthread_attr_destroy(&attr);
}

/* A new thread record, not in the list; NULL when out of memory. */
prof_thread *prof_thread_new(void)
{
    prof_thread *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cap = 64;
    t->stack = calloc(t->cap, sizeof *t->stack);
    if (t->stack == NULL) {
        free(t);
        return NULL;
    }
    t->depth = 1;
    t->stack[0].edge = &t->root; /* whoever called the thread's entry */
    t->stack[0].sp = UINTPTR_MAX;
    stack_bounds(t);
    return t;
}

/* Take t out of the list and free it.  The caller holds the dump lock,
 * so no dump reads it, and the hooks never walk the list; a thread that
 * starts meanwhile only replaces the head, so when t is not the head it
 * stays where it is found. */
void prof_thread_forget(prof_thread *t)
{
    prof_thread *want = t;
    if (!__atomic_compare_exchange_n(&threads, &want, t->next, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        prof_thread *before = want;
        while (before != NULL && before->next != t)
            before = before->next;
        if (before == NULL)
            return; /* not in the list: never published, never freed */
        before->next = t->next;
    }
    for (prof_chunk *chunk = t->chunks, *prev; chunk != NULL; chunk = prev) {
        prev = chunk->prev;
        free(chunk);
    }
    free(t->buckets);
    free(t->stack);
    free(t);
}

/* In a forked child only the forking thread goes on: every thread of the
 * parent leaves the list, kept reachable but never dumped. */
void prof_threads_after_fork(void)
{
    prof_thread *list = threads;
    threads = NULL;
    nthreads = 0;
    while (list != NULL) {
        prof_thread *next = list->next;
        list->next = orphans;
        orphans = list;
        list = next;
    }
}
