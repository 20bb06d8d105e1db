/* SPDX-License-Identifier: MIT */
/* tree.c - the stacks of one event merged into a call tree (a flame
 * graph's data), callers' shares under 1/65536 of the total merged into
 * their heaviest (cgw_profile_stacks_min()), so that the tree's size
 * does not follow the graph's paths: a node's child for a function is found through a keyed
 * hash index on (node, function), so that a node with a million callees
 * costs no more a stack than one with two. */
#include <string.h>

#include "profile.h"

#define DEFAULT_MAX_NODES ((size_t)1 << 24)
#define MIN_SHARE_SHIFT 16 /* callers' shares under total >> 16 merged */

typedef struct tree_build {
    cgw_profile *p;
    size_t max;
    int cut;
} tree_build;

typedef struct node_key {
    uint32_t parent, fn;
} node_key;

static int node_eq(const void *ctx, uint32_t entry, const void *key)
{
    const cgw_profile_node *node = &((const cgw_profile *)ctx)->nodes[entry];
    const node_key *k = key;
    return node->parent == k->parent && node->fn == k->fn;
}

/* The child of parent for fn, made when new; CGW_PROFILE_ROOT when the
 * tree is full (b->cut), CGW_PROFILE_ROOT - 1 when out of memory. */
static uint32_t child(tree_build *b, uint32_t parent, uint32_t fn)
{
    cgw_profile *p = b->p;
    node_key key = { parent, fn };
    uint64_t hash = cgwp_index_hash(&p->node_ix, &key, sizeof key);
    uint32_t at;
    size_t slot;
    if (cgwp_index_find(&p->node_ix, hash, node_eq, p, &key, &at, &slot))
        return at;
    if (p->nnodes >= b->max) {
        b->cut = 1;
        return CGW_PROFILE_ROOT;
    }
    if (cgwp_grow(&p->a, &p->nodes, &p->capnodes, p->nnodes + 1, sizeof *p->nodes) < 0 ||
        cgwp_index_put(&p->node_ix, &p->a, slot, hash, (uint32_t)p->nnodes) < 0)
        return CGW_PROFILE_ROOT - 1;
    cgw_profile_node node = { fn, parent, 0, 0 };
    p->nodes[p->nnodes] = node;
    return (uint32_t)p->nnodes++;
}

/* One stack (leaf first) down from the root. */
static cgw_status add_stack(void *ctx, const uint32_t *fns, size_t depth, uint64_t amount)
{
    tree_build *b = ctx;
    cgw_profile_node *nodes = b->p->nodes;
    uint32_t at = 0;
    nodes[0].inclusive += amount;
    for (size_t i = depth; i-- > 0;) {
        uint32_t next = child(b, at, fns[i]);
        if (next == CGW_PROFILE_ROOT - 1)
            return CGW_ENOMEM;
        if (next == CGW_PROFILE_ROOT)
            break; /* full: the rest of the stack stays in at */
        at = next;
        b->p->nodes[at].inclusive += amount;
    }
    b->p->nodes[at].self += amount;
    return CGW_OK;
}

void cgwpm_tree_free(cgw_profile *p)
{
    cgwp_free(&p->a, p->nodes);
    cgwp_index_free(&p->node_ix, &p->a);
    p->nodes = NULL;
    p->nnodes = p->capnodes = 0;
}

cgw_status cgw_profile_tree(cgw_profile *p, size_t event, size_t max_nodes,
                            const cgw_profile_node **nodes, size_t *n, int *cut)
{
    if (nodes != NULL)
        *nodes = NULL;
    if (n != NULL)
        *n = 0;
    if (cut != NULL)
        *cut = 0;
    if (p == NULL || nodes == NULL || n == NULL)
        return p == NULL ? CGW_EUSAGE
                         : cgwpm_fail(p, CGW_EUSAGE, "cgw_profile_tree", "a NULL argument");
    cgwpm_tree_free(p);
    if (cgwp_grow(&p->a, &p->nodes, &p->capnodes, 1, sizeof *p->nodes) < 0)
        return cgwpm_fail(p, CGW_ENOMEM, "cgw_profile_tree", "out of memory");
    cgw_profile_node root = { CGW_PROFILE_ROOT, CGW_PROFILE_ROOT, 0, 0 };
    p->nodes[0] = root;
    p->nnodes = 1;
    tree_build b = { p, max_nodes > 0 ? max_nodes : DEFAULT_MAX_NODES, 0 };
    uint64_t min = p->err == CGW_OK && event < p->nev ? p->totals[event] >> MIN_SHARE_SHIFT : 0;
    int merged;
    cgw_status st = cgwpm_stacks(p, event, min, add_stack, &b, "cgw_profile_tree", &merged);
    if (st == CGW_ENOMEM && p->err == CGW_OK)
        cgwpm_fail(p, CGW_ENOMEM, "cgw_profile_tree", "out of memory");
    if (st != CGW_OK) {
        cgwpm_tree_free(p);
        return st;
    }
    *nodes = p->nodes;
    *n = p->nnodes;
    if (cut != NULL)
        *cut = b.cut || merged;
    return CGW_OK;
}
