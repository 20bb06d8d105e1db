/* SPDX-License-Identifier: MIT */
/* resolve.c - the names of the addresses a dump found (names.c: object,
 * symbol, file and line as loaded now); or, for an object that dlclose()
 * unloaded, the names taken at the unload (unload.c).  Addresses that
 * name one (object, file, name) are one function, as readers see them. */
#define _GNU_SOURCE /* qsort_r() */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

static int by_addr(const void *a, const void *b)
{
    const fnaddr *x = a, *y = b;
    if (x->addr != y->addr)
        return (uintptr_t)x->addr < (uintptr_t)y->addr ? -1 : 1;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

static int by_identity(const void *a, const void *b, void *ctx)
{
    const fnaddr *fns = ctx, *x = &fns[*(const uint32_t *)a], *y = &fns[*(const uint32_t *)b];
    int c = strcmp(x->n.object, y->n.object);
    if (c == 0)
        c = strcmp(x->n.file, y->n.file);
    if (c == 0)
        c = strcmp(x->n.name, y->n.name);
    return c;
}

const fnaddr *prof_fn_of(const dump *d, void *addr, uint32_t tag)
{
    fnaddr key = { .addr = addr, .tag = tag };
    return bsearch(&key, d->fns, d->nfns, sizeof key, by_addr);
}

static char *dup_or_null(const char *s)
{
    return s != NULL ? strdup(s) : NULL;
}

static int resolve(dump *d, fnaddr *f)
{
    const prof_names *kept = f->tag != 0 ? prof_retired_names(f->addr, f->tag) : NULL;
    if (kept == NULL)
        return prof_name(d->syms, d->lines, f->addr, &f->n);
    f->n = (prof_names){ dup_or_null(kept->object), dup_or_null(kept->file),
                         dup_or_null(kept->name), { kept->pos[0], kept->pos[1] } };
    return f->n.object != NULL && f->n.name != NULL && f->n.file != NULL ? 0 : -1;
}

/* Every (address, tag) the snapshots hold, once, sorted. */
static int collect(dump *d)
{
    size_t n = 0;
    for (size_t k = 0; k < d->nthreads; k++)
        n += 2 * d->nsnaps[k];
    d->fns = calloc(n ? n : 1, sizeof *d->fns);
    if (d->fns == NULL)
        return -1;
    for (size_t k = 0; k < d->nthreads; k++) {
        for (size_t i = 0; i < d->nsnaps[k]; i++) {
            const snap *s = &d->snaps[k][i];
            d->fns[d->nfns++] = (fnaddr){ .addr = s->callee, .tag = s->tag_to };
            if (s->caller != NULL)
                d->fns[d->nfns++] = (fnaddr){ .addr = s->caller, .tag = s->tag_from };
        }
    }
    qsort(d->fns, d->nfns, sizeof *d->fns, by_addr);
    size_t u = 0;
    for (size_t i = 0; i < d->nfns; i++)
        if (u == 0 || by_addr(&d->fns[u - 1], &d->fns[i]) != 0)
            d->fns[u++] = d->fns[i];
    d->nfns = u;
    return 0;
}

/* Every function the snapshots name, resolved once, with identities. */
int prof_resolve_all(dump *d)
{
    if (collect(d) != 0)
        return -1;
    size_t u = d->nfns;
    d->syms = prof_symtab_new();
    d->rep = calloc(u ? u : 1, sizeof *d->rep);
    if (d->syms == NULL || d->rep == NULL)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < u && rc == 0; i++)
        rc = resolve(d, &d->fns[i]);
    if (rc != 0)
        return -1;
    uint32_t *order = d->rep;
    for (size_t i = 0; i < u; i++)
        order[i] = (uint32_t)i;
    qsort_r(order, u, sizeof *order, by_identity, d->fns);
    for (size_t i = 0; i < u; i++) {
        if (i == 0 || by_identity(&order[i - 1], &order[i], d->fns) != 0)
            d->nids++;
        d->fns[order[i]].id = (uint32_t)(d->nids - 1);
    }
    /* rep[id]: the first fnaddr of each identity (order is no longer needed) */
    for (size_t i = u; i-- > 0;)
        order[d->fns[i].id] = (uint32_t)i;
    return 0;
}
