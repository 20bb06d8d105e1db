/* SPDX-License-Identifier: MIT */
/* fold.c - CGWPROF_THREADS=fold: a thread that ends adds its calls to
 * one part for all finished threads and is freed, so a program that
 * starts thousands of short threads keeps memory and parts to the
 * number of distinct call edges, not of threads.  Counts and times are
 * added as they were measured (ticks): totals stay exact.
 *
 * The folded part is a thread record like the others, in the list the
 * dump walks, written only under the dump lock, so a dump never sees a
 * fold half done and reads it as it reads a finished thread. */
#include <string.h>

#include "prof.h"

static int folding;
static prof_thread *folded; /* created by the first fold */

void prof_fold_init(void)
{
    const char *value = prof_getenv("CGWPROF_THREADS");
    folding = value != NULL && strcmp(value, "fold") == 0;
}

/* A forked child's folded part is its parent's: it starts afresh. */
void prof_fold_after_fork(void)
{
    folded = NULL;
}

/* Every edge of t that was called has its twin in into: 0, or -1 when out
 * of memory (into may have new edges, all of them still uncalled). */
static int make_room(prof_thread *into, prof_thread *t)
{
    for (prof_chunk *chunk = t->chunks; chunk != NULL; chunk = chunk->prev) {
        for (uint32_t i = 0; i < chunk->used; i++) {
            const prof_edge *edge = &chunk->edges[i];
            if (edge->count != 0 && prof_edge_find(into, edge->caller, edge->site, edge->callee) == NULL)
                return -1;
        }
    }
    return 0;
}

static void add_edges(prof_thread *into, prof_thread *t)
{
    for (prof_chunk *chunk = t->chunks; chunk != NULL; chunk = chunk->prev) {
        for (uint32_t i = 0; i < chunk->used; i++) {
            const prof_edge *edge = &chunk->edges[i];
            if (edge->count == 0)
                continue;
            prof_edge *twin = prof_edge_find(into, edge->caller, edge->site, edge->callee);
            prof_add(&twin->count, edge->count);
            prof_add(&twin->incl, edge->incl);
            prof_add(&twin->self, edge->self);
        }
    }
    prof_add(&into->dropped, t->dropped);
    prof_add(&into->folded, 1);
}

/* Fold the finished thread t, which has no call in progress, and free
 * it: 0; or -1, t untouched, when not folding or out of memory (t then
 * stays a part of its own). */
int prof_fold(prof_thread *t)
{
    if (!folding)
        return -1;
    int rc = -1;
    prof_lock();
    if (folded == NULL && (folded = prof_thread_new()) != NULL)
        prof_publish(folded);
    if (folded != NULL && make_room(folded, t) == 0) {
        add_edges(folded, t);
        prof_retired_fold(t, folded);
        prof_thread_forget(t);
        rc = 0;
    }
    prof_unlock();
    return rc;
}
