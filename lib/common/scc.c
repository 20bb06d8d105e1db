/* SPDX-License-Identifier: MIT */
/* scc.c - the strongly connected components of a graph (Tarjan's
 * algorithm, with a stack of frames instead of recursion: a chain of
 * calls can be a million deep).  The folded-stack writer calls edges
 * inside one component recursion; the reader's checks exempt a cycle's
 * functions from the inclusive-cost check. */
#include <string.h>

#include "alloc.h"
#include "scc.h"

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

static void visit(scc *graph, uint32_t vertex)
{
    graph->index[vertex] = graph->low[vertex] = graph->counter++;
    graph->stack[graph->nstack++] = vertex;
    graph->frames[graph->depth].v = vertex;
    graph->frames[graph->depth++].next = graph->at[vertex];
}

/* The top frame has no neighbour left: close it, and its component when
 * it is the component's root. */
static void leave(scc *graph)
{
    uint32_t vertex = graph->frames[--graph->depth].v;
    if (graph->low[vertex] == graph->index[vertex]) {
        uint32_t member;
        do {
            member = graph->stack[--graph->nstack];
            graph->comp[member] = graph->ncomp;
            graph->low[member] = UNSEEN - 1; /* off the stack: never lowers another's */
        } while (member != vertex);
        graph->ncomp++;
    }
    if (graph->depth > 0) {
        uint32_t parent = graph->frames[graph->depth - 1].v;
        if (graph->low[vertex] < graph->low[parent])
            graph->low[parent] = graph->low[vertex];
    }
}

int cgwp_scc(const cgw_allocator *alloc, size_t count, const uint32_t *at, const uint32_t *to,
             uint32_t *comp)
{
    scc graph = { at, to, NULL, NULL, NULL, comp, NULL, 0, 0, 0, 0 };
    graph.index = cgwp_alloc(alloc, (count + 1) * sizeof *graph.index);
    graph.low = cgwp_alloc(alloc, (count + 1) * sizeof *graph.low);
    graph.stack = cgwp_alloc(alloc, (count + 1) * sizeof *graph.stack);
    graph.frames = cgwp_alloc(alloc, (count + 1) * sizeof *graph.frames);
    int ok = graph.index && graph.low && graph.stack && graph.frames;
    if (ok)
        memset(graph.index, 0xff, count * sizeof *graph.index);
    for (uint32_t root = 0; ok && root < count; root++) {
        if (graph.index[root] != UNSEEN)
            continue;
        visit(&graph, root);
        while (graph.depth > 0) {
            scc_frame *frame = &graph.frames[graph.depth - 1];
            if (frame->next == at[frame->v + 1]) {
                leave(&graph);
                continue;
            }
            uint32_t neighbour = to[frame->next++];
            if (graph.index[neighbour] == UNSEEN)
                visit(&graph, neighbour);
            else if (graph.index[neighbour] < graph.low[frame->v]
                     && graph.low[neighbour] != UNSEEN - 1)
                graph.low[frame->v] = graph.index[neighbour];
        }
    }
    void *blocks[] = { graph.index, graph.low, graph.stack, graph.frames };
    cgwp_free_all(alloc, blocks, sizeof blocks / sizeof *blocks);
    return ok ? 0 : -1;
}
