/* SPDX-License-Identifier: MIT */
/* resolve.c - the names of the addresses a dump found (names.c: object,
 * symbol, file and line as loaded now); or, for an object that dlclose()
 * unloaded, the names taken at the unload (unload.c).  Addresses that
 * name one (object, file, name) are one function, as readers see them. */
#define _GNU_SOURCE /* qsort_r() */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

static int by_addr(const void *left, const void *right)
{
    const fnaddr *one = left, *other = right;
    if (one->addr != other->addr)
        return (uintptr_t)one->addr < (uintptr_t)other->addr ? -1 : 1;
    return one->tag < other->tag ? -1 : one->tag > other->tag;
}

static int by_identity(const void *left, const void *right, void *ctx)
{
    const fnaddr *fns = ctx, *one = &fns[*(const uint32_t *)left], *other = &fns[*(const uint32_t *)right];
    int cmp = strcmp(one->n.object, other->n.object);
    if (cmp == 0)
        cmp = strcmp(one->n.file, other->n.file);
    if (cmp == 0)
        cmp = strcmp(one->n.name, other->n.name);
    return cmp;
}

const fnaddr *prof_fn_of(const dump *d, void *addr, uint32_t tag)
{
    fnaddr key = { .addr = addr, .tag = tag };
    return bsearch(&key, d->fns, d->nfns, sizeof key, by_addr);
}

static char *dup_or_null(const char *str)
{
    return str != NULL ? strdup(str) : NULL;
}

static int resolve(dump *d, fnaddr *fn)
{
    const prof_names *kept = fn->tag != 0 ? prof_retired_names(fn->addr, fn->tag) : NULL;
    if (kept == NULL)
        return prof_name(d->syms, d->lines, fn->addr, &fn->n);
    fn->n = (prof_names){ dup_or_null(kept->object), dup_or_null(kept->file),
                         dup_or_null(kept->name), { kept->pos[0], kept->pos[1] } };
    return fn->n.object != NULL && fn->n.name != NULL && fn->n.file != NULL ? 0 : -1;
}

/* Every (address, tag) the snapshots hold, once, sorted. */
static int collect(dump *d)
{
    size_t count = 0;
    for (size_t k = 0; k < d->nthreads; k++)
        count += 2 * d->nsnaps[k];
    d->fns = calloc(count ? count : 1, sizeof *d->fns);
    if (d->fns == NULL)
        return -1;
    for (size_t k = 0; k < d->nthreads; k++) {
        for (size_t i = 0; i < d->nsnaps[k]; i++) {
            const snap *call = &d->snaps[k][i];
            d->fns[d->nfns++] = (fnaddr){ .addr = call->callee, .tag = call->tag_to };
            if (call->caller != NULL)
                d->fns[d->nfns++] = (fnaddr){ .addr = call->caller, .tag = call->tag_from };
        }
    }
    qsort(d->fns, d->nfns, sizeof *d->fns, by_addr);
    size_t unique = 0;
    for (size_t i = 0; i < d->nfns; i++)
        if (unique == 0 || by_addr(&d->fns[unique - 1], &d->fns[i]) != 0)
            d->fns[unique++] = d->fns[i];
    d->nfns = unique;
    return 0;
}

/* Every function the snapshots name, resolved once, with identities. */
int prof_resolve_all(dump *d)
{
    if (collect(d) != 0)
        return -1;
    size_t nfns = d->nfns;
    d->syms = prof_symtab_new();
    d->rep = calloc(nfns ? nfns : 1, sizeof *d->rep);
    if (d->syms == NULL || d->rep == NULL)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < nfns && rc == 0; i++)
        rc = resolve(d, &d->fns[i]);
    if (rc != 0)
        return -1;
    uint32_t *order = d->rep;
    for (size_t i = 0; i < nfns; i++)
        order[i] = (uint32_t)i;
    qsort_r(order, nfns, sizeof *order, by_identity, d->fns);
    for (size_t i = 0; i < nfns; i++) {
        if (i == 0 || by_identity(&order[i - 1], &order[i], d->fns) != 0)
            d->nids++;
        d->fns[order[i]].id = (uint32_t)(d->nids - 1);
    }
    /* rep[id]: the first fnaddr of each identity (order is no longer needed) */
    for (size_t i = nfns; i-- > 0;)
        order[d->fns[i].id] = (uint32_t)i;
    return 0;
}
