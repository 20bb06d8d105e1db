/* SPDX-License-Identifier: MIT */
/* profile.c - the profile model's handle (cgw.h's "The profile model"):
 * its options and lifecycle, its sticky error, the inputs it is given
 * (load.c reads them) and the queries, which make the call graph
 * (graph.c) on the first one after an add. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"

cgw_profile *cgw_profile_new(const cgw_profile_options *given)
{
    cgw_profile_options o = CGW_PROFILE_OPTIONS_INIT;
    int bad_size = cgwp_options_take(&o, sizeof o, sizeof o, given) < 0;
    cgw_allocator alloc;
    cgw_profile *p = cgwp_new_handle(1, o.allocator, sizeof *p, &alloc); /* errno set */
    if (p == NULL)
        return NULL;
    p->a = alloc;
    p->arena.chunk_size = 64 * 1024;
    if (bad_size)
        cgwpm_fail(p, CGW_EINVAL, "cgw_profile_new",
                   "options.struct_size is %zu, not sizeof(cgw_profile_options) (%zu): start "
                   "them from CGW_PROFILE_OPTIONS_INIT", given->struct_size, sizeof o);
    else if (o.flags & ~(unsigned)(CGW_PROFILE_LINES | CGW_PROFILE_SAME_EVENTS |
                                CGW_PROFILE_READER_NAMES))
        cgwpm_fail(p, CGW_EINVAL, "cgw_profile_new", "unknown flags %#x", o.flags);
    p->flags = o.flags;
    p->part_only = o.part;
    return p;
}

void cgw_profile_free(cgw_profile *p)
{
    if (p == NULL)
        return;
    cgwpm_tree_free(p);
    cgwpm_graph_free(p);
    cgwpm_load_free(p);
    p->a.free(p->a.ctx, p);
}

cgw_status cgw_profile_error(const cgw_profile *p)
{
    return p == NULL ? CGW_EUSAGE : p->err;
}

const char *cgw_profile_errmsg(const cgw_profile *p)
{
    return p == NULL ? "cgw_profile_errmsg: the profile is NULL" : p->msg;
}

/* ----------------------------------------------------------------- inputs */

/* r read into the sums; what was made of the old ones is made again. */
static cgw_status load(cgw_profile *p, cgw_reader *r, const char *call)
{
    cgwpm_tree_free(p);
    cgwpm_graph_free(p);
    return cgwpm_load(p, r, call);
}

cgw_status cgw_profile_add(cgw_profile *p, cgw_reader *r)
{
    if (p == NULL)
        return CGW_EUSAGE;
    if (p->err != CGW_OK)
        return p->err;
    if (r == NULL)
        return cgwpm_fail(p, CGW_EUSAGE, "cgw_profile_add", "the reader is NULL");
    if ((p->flags & CGW_PROFILE_READER_NAMES) && p->readers > 0)
        return cgwpm_fail(p, CGW_EUSAGE, "cgw_profile_add", "a second reader, with "
                          "CGW_PROFILE_READER_NAMES (the names of one reader only)");
    p->readers++;
    return load(p, r, "cgw_profile_add");
}

/* The reader's options for an input the profile opens itself: the
 * caller's, and no record the model does not use (without lines, the
 * cost lines of a run summed by the reader). */
static cgw_read_options own_options(const cgw_profile *p, const cgw_read_options *ro)
{
    cgw_read_options o = CGW_READ_OPTIONS_INIT;
    if (ro != NULL)
        memcpy(&o, ro, ro->struct_size < sizeof o ? ro->struct_size : sizeof o);
    o.struct_size = sizeof o;
    o.skip |= CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP);
    if (!(p->flags & CGW_PROFILE_LINES))
        o.flags |= CGW_READ_SUM_COSTS;
    return o;
}

/* Read r (NULL: open() said why in errno) into p, then close it. */
static cgw_status add_opened(cgw_profile *p, cgw_reader *r, const char *call, const char *what)
{
    if (r == NULL)
        return cgwpm_fail(p, errno == ENOMEM ? CGW_ENOMEM : errno == EINVAL ? CGW_EINVAL : CGW_EIO,
                          call, "%s%s", what, strerror(errno));
    load(p, r, call);
    cgw_reader_close(r);
    return p->err;
}

static int bad_call(cgw_profile *p, const cgw_read_options *ro, int bad_args, const char *call)
{
    if (p == NULL)
        return 1;
    if (p->err == CGW_OK && bad_args)
        cgwpm_fail(p, CGW_EUSAGE, call, "a NULL argument");
    if (p->err == CGW_OK && (p->flags & CGW_PROFILE_READER_NAMES))
        cgwpm_fail(p, CGW_EUSAGE, call, "CGW_PROFILE_READER_NAMES: a reader of the caller's "
                   "only (cgw_profile_add())");
    if (p->err == CGW_OK && ro != NULL && ro->struct_size < sizeof(size_t))
        cgwpm_fail(p, CGW_EINVAL, call, "the read options' struct_size is %zu", ro->struct_size);
    return p->err != CGW_OK;
}

cgw_status cgw_profile_add_path(cgw_profile *p, const char *path, const cgw_read_options *ro)
{
    if (bad_call(p, ro, path == NULL, "cgw_profile_add_path"))
        return p == NULL ? CGW_EUSAGE : p->err;
    cgw_read_options o = own_options(p, ro);
    char what[4200];
    snprintf(what, sizeof what, "%s: ", path);
    return add_opened(p, cgw_reader_open_path(path, &o), "cgw_profile_add_path", what);
}

cgw_status cgw_profile_add_fd(cgw_profile *p, int fd, const cgw_read_options *ro)
{
    if (bad_call(p, ro, fd < 0, "cgw_profile_add_fd"))
        return p == NULL ? CGW_EUSAGE : p->err;
    cgw_read_options o = own_options(p, ro);
    return add_opened(p, cgw_reader_open_fd(fd, &o), "cgw_profile_add_fd", "");
}

cgw_status cgw_profile_add_memory(cgw_profile *p, const void *buf, size_t len,
                                  const cgw_read_options *ro)
{
    if (bad_call(p, ro, buf == NULL && len > 0, "cgw_profile_add_memory"))
        return p == NULL ? CGW_EUSAGE : p->err;
    cgw_read_options o = own_options(p, ro);
    return add_opened(p, cgw_reader_open_memory(buf ? buf : "", len, &o),
                      "cgw_profile_add_memory", "");
}

/* ---------------------------------------------------------------- queries */

size_t cgw_profile_events(const cgw_profile *p, const cgw_event **events)
{
    if (events != NULL)
        *events = p != NULL && p->err == CGW_OK ? p->events : NULL;
    return p != NULL && p->err == CGW_OK ? p->nev : 0;
}

const uint64_t *cgw_profile_totals(const cgw_profile *p)
{
    return p != NULL && p->err == CGW_OK && p->nev > 0 ? p->totals : NULL;
}

uint64_t cgw_profile_parts(const cgw_profile *p)
{
    return p != NULL ? p->parts : 0;
}

const char *cgw_profile_cmd(const cgw_profile *p)
{
    return p != NULL ? p->cmd : NULL;
}

const char *cgw_profile_creator(const cgw_profile *p)
{
    return p != NULL ? p->creator : NULL;
}

/* The graph made for a query: 0, or -1 (*n 0) after an error. */
static int graph(cgw_profile *p, size_t *n, const char *call)
{
    if (n != NULL)
        *n = 0;
    return p == NULL || cgwpm_graph(p, call) != CGW_OK ? -1 : 0;
}

const cgw_profile_fn *cgw_profile_functions(cgw_profile *p, size_t *n)
{
    if (graph(p, n, "cgw_profile_functions") < 0)
        return NULL;
    if (n != NULL)
        *n = p->nfns;
    return p->fns;
}

const cgw_profile_edge *cgw_profile_edges(cgw_profile *p, size_t *n)
{
    if (graph(p, n, "cgw_profile_edges") < 0)
        return NULL;
    if (n != NULL)
        *n = p->nedges;
    return p->edges;
}

/* Function fn's edges of one end (at/edges), [0..*n). */
static const uint32_t *ends(cgw_profile *p, size_t fn, size_t *n, int in, const char *call)
{
    if (graph(p, n, call) < 0 || fn >= p->nfns)
        return NULL;
    const uint32_t *at = in ? p->in_at : p->out_at, *edges = in ? p->in_edges : p->out_edges;
    if (n != NULL)
        *n = at[fn + 1] - at[fn];
    return edges + at[fn];
}

const uint32_t *cgw_profile_callers(cgw_profile *p, size_t fn, size_t *n)
{
    return ends(p, fn, n, 1, "cgw_profile_callers");
}

const uint32_t *cgw_profile_callees(cgw_profile *p, size_t fn, size_t *n)
{
    return ends(p, fn, n, 0, "cgw_profile_callees");
}

const cgw_profile_cycle *cgw_profile_cycles(cgw_profile *p, size_t *n)
{
    if (graph(p, n, "cgw_profile_cycles") < 0 || p->ncycles == 0)
        return NULL;
    if (n != NULL)
        *n = p->ncycles;
    return p->cycles;
}

const cgw_profile_line *cgw_profile_lines(cgw_profile *p, size_t fn, size_t *n)
{
    if (graph(p, n, "cgw_profile_lines") < 0 || fn >= p->nfns ||
        (p->flags & CGW_PROFILE_LINES) == 0)
        return NULL;
    if (n != NULL)
        *n = p->line_at[fn + 1] - p->line_at[fn];
    return p->lines + p->line_at[fn];
}

long cgw_profile_find(cgw_profile *p, const char *object, const char *file, const char *name)
{
    if (name == NULL || graph(p, NULL, "cgw_profile_find") < 0)
        return -1;
    uint32_t fn = cgwpm_lookup(p, object, file ? file : "???", name);
    return fn == CGWPM_NONE ? -1 : (long)fn;
}

int cgw_profile_stacks_exact(cgw_profile *p)
{
    return graph(p, NULL, "cgw_profile_stacks_exact") < 0 ? -1 : p->exact;
}
