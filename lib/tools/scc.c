/* scc.c - the strongly connected components of a graph (Tarjan's
 * algorithm, with a stack of frames instead of recursion: a chain of
 * calls can be a million deep).  folded-out.c calls edges inside one
 * component recursion. */
#include <string.h>

#include "convert.h"

#define UNSEEN UINT32_MAX

typedef struct scc_frame {
    uint32_t v, next; /* the vertex, and its next neighbour to visit */
} scc_frame;

typedef struct scc {
    const uint32_t *at, *to;
    uint32_t *index, *low, *stack, *comp;
    scc_frame *frames;
    size_t nstack, depth;
    uint32_t counter, ncomp;
} scc;

static void visit(scc *g, uint32_t v)
{
    g->index[v] = g->low[v] = g->counter++;
    g->stack[g->nstack++] = v;
    g->frames[g->depth].v = v;
    g->frames[g->depth++].next = g->at[v];
}

/* The top frame has no neighbour left: close it, and its component when
 * it is the component's root. */
static void leave(scc *g)
{
    uint32_t v = g->frames[--g->depth].v;
    if (g->low[v] == g->index[v]) {
        uint32_t w;
        do {
            w = g->stack[--g->nstack];
            g->comp[w] = g->ncomp;
            g->low[w] = UNSEEN - 1; /* off the stack: never lowers another's */
        } while (w != v);
        g->ncomp++;
    }
    if (g->depth > 0) {
        uint32_t u = g->frames[g->depth - 1].v;
        if (g->low[v] < g->low[u])
            g->low[u] = g->low[v];
    }
}

int cgwc_scc(const cgw_allocator *a, size_t n, const uint32_t *at, const uint32_t *to,
             uint32_t *comp)
{
    scc g = { at, to, NULL, NULL, NULL, comp, NULL, 0, 0, 0, 0 };
    g.index = a->malloc(a->ctx, (n + 1) * sizeof *g.index);
    g.low = a->malloc(a->ctx, (n + 1) * sizeof *g.low);
    g.stack = a->malloc(a->ctx, (n + 1) * sizeof *g.stack);
    g.frames = a->malloc(a->ctx, (n + 1) * sizeof *g.frames);
    int ok = g.index && g.low && g.stack && g.frames;
    if (ok)
        memset(g.index, 0xff, n * sizeof *g.index);
    for (uint32_t s = 0; ok && s < n; s++) {
        if (g.index[s] != UNSEEN)
            continue;
        visit(&g, s);
        while (g.depth > 0) {
            scc_frame *f = &g.frames[g.depth - 1];
            if (f->next == at[f->v + 1]) {
                leave(&g);
                continue;
            }
            uint32_t w = to[f->next++];
            if (g.index[w] == UNSEEN)
                visit(&g, w);
            else if (g.index[w] < g.low[f->v] && g.low[w] != UNSEEN - 1)
                g.low[f->v] = g.index[w];
        }
    }
    void *blocks[] = { g.index, g.low, g.stack, g.frames };
    for (size_t i = 0; i < 4; i++)
        if (blocks[i] != NULL)
            a->free(a->ctx, blocks[i]);
    return ok ? 0 : -1;
}
