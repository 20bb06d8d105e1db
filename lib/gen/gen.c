/* SPDX-License-Identifier: MIT */
/* gen.c - synthetic profiles shaped like real ones (cggen, tests, benches).
 *
 * A plan is drawn first from the seed: functions with their file, object,
 * hotness, size and self cost, and a call graph that runs mostly from
 * low to high indexes (function 0 is main) with some back edges (cycles)
 * and self calls (recursion).  Inclusive costs are then given out from
 * the leaves up so that no function is called with more inclusive cost
 * than its self cost plus its own calls: the file passes the reader's
 * inclusive-excess check.  Writing streams from the plan; memory grows
 * with the number of functions and calls, never with the output size. */
#include <stdio.h>
#include <string.h>

#include "cgw.h"
#include "gen.h"
#include "util.h"

/* ------------------------------------------------------------ randomness */

static uint64_t splitmix(uint64_t *rng)
{
    uint64_t mixed = (*rng += 0x9e3779b97f4a7c15u);
    mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9u;
    mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebu;
    return mixed ^ (mixed >> 31);
}

static uint64_t below(uint64_t *rng, uint64_t bound)
{
    return bound ? splitmix(rng) % bound : 0;
}

/* Mostly small values, now and then a large one: in [0, bound). */
static uint64_t skewed(uint64_t *rng, uint64_t bound)
{
    uint64_t first = below(rng, bound), second = below(rng, bound);
    return (first * second) / (bound ? bound : 1);
}

/* ------------------------------------------------------------------ plan */

typedef struct gen_edge {
    uint32_t callee;
    uint32_t sites;     /* call lines this edge is spread over */
    uint64_t count;
    uint64_t *inclusive; /* per event */
} gen_edge;

typedef struct gen_fn {
    uint32_t file, object;
    uint32_t first_edge, nedges;
    uint64_t base;      /* cost lines at scale 1 */
    uint64_t lines;     /* cost lines planned at the scale */
    uint64_t first_line, addr;
    uint64_t hot;
    uint64_t *self;     /* per event */
    uint64_t *out;      /* inclusive cost of its calls, per event */
    uint32_t nback, nfwd; /* incoming back (cycle, recursion) and forward edges */
} gen_fn;

typedef struct gen {
    cgw_writer *w;
    cgw_options wo;                /* the writer's, with its allocator */
    unsigned kinds[CGW_NPOS_MAX];  /* of its positions, in array order */
    size_t npos;
    const cgw_gen_options *o;
    unsigned nev;
    double scale;
    gen_fn *fns;
    gen_edge *edges;
    size_t nedges;
    uint64_t *costs; /* every per-event array, in one block */
    uint64_t *totals;
    uint64_t size;                 /* target bytes, 0: none */
    uint64_t weight_left;          /* base lines of the blocks not written */
    uint64_t body_lines;           /* cost lines written */
    char *text;      /* every name, NUL-terminated */
    size_t *name_at; /* functions, then files, then objects */
    cgw_name_id *handles; /* the same names registered in this part */
} gen;

static uint64_t *costs_at(gen *g, size_t slot)
{
    return g->costs + slot * g->nev;
}

/* Functions: where they live, how hot, how long, what they cost. */
static void plan_functions(gen *g, uint64_t *rng)
{
    const cgw_gen_options *opts = g->o;
    uint64_t addr = 0x400000, line_base = 10;
    for (uint32_t func = 0; func < opts->functions; func++) {
        gen_fn *fn = &g->fns[func];
        fn->file = (uint32_t)below(rng, opts->files);
        fn->object = fn->file % opts->objects;
        fn->hot = 1 + 10000 / (1 + skewed(rng, 1000));
        fn->base = 2 + below(rng, 24) + (below(rng, 10) == 0 ? below(rng, 150) : 0);
        double scaled = (double)fn->base * g->scale + 0.5;
        fn->lines = scaled < 1 ? 1 : (uint64_t)scaled;
        fn->first_line = line_base + below(rng, 3000);
        fn->addr = addr;
        addr += fn->lines * 16 + 64; /* room for a block that grows while written */
        fn->self = costs_at(g, 2 * (size_t)func);
        fn->out = costs_at(g, 2 * (size_t)func + 1);
        uint64_t ir = fn->lines * fn->hot * (1 + below(rng, 40));
        for (unsigned ev = 0; ev < g->nev; ev++) {
            unsigned share = ev < CGWG_KNOWN_EVENTS ? cgwg_event_share[ev] : (unsigned)below(rng, 500);
            fn->self[ev] = ev == 0 ? ir : ir * share / 1000 * (1 + below(rng, 3)) / 2;
        }
    }
}

/* The call graph: mostly forward, some cycles and recursion. */
static void plan_edges(gen *g, uint64_t *rng)
{
    const cgw_gen_options *opts = g->o;
    uint32_t nf = opts->functions;
    g->nedges = 0;
    for (uint32_t func = 0; func < nf; func++) {
        gen_fn *fn = &g->fns[func];
        fn->first_edge = (uint32_t)g->nedges;
        uint64_t ncalls = opts->calls_per_fn == 0 || below(rng, 10) < 3
                              ? 0
                              : below(rng, 2 * opts->calls_per_fn + 1);
        if (func == 0 && nf > 1 && ncalls == 0)
            ncalls = 1; /* main calls something */
        for (uint64_t i = 0; i < ncalls; i++) {
            gen_edge *edge = &g->edges[g->nedges++];
            uint64_t roll = below(rng, 100);
            if (roll < 4 || nf == 1)
                edge->callee = func; /* recursion */
            else if (roll < 10 || func + 1 == nf)
                edge->callee = (uint32_t)below(rng, func + 1); /* a cycle back */
            else
                edge->callee = func + 1 + (uint32_t)skewed(rng, nf - func - 1);
            edge->count = 1 + skewed(rng, 1000) * (1 + below(rng, 20));
            edge->inclusive = costs_at(g, 2 * (size_t)nf + (size_t)(edge - g->edges));
        }
        fn->nedges = (uint32_t)ncalls;
    }
}

/* Inclusive costs.  A call along a back edge (callee index <= caller)
 * gets a slice of the callee's self cost; its forward callers share
 * what is left of its self cost plus all its calls.  Processing callers
 * from the highest index down makes every forward callee final first. */
static void plan_inclusive(gen *g)
{
    uint32_t nf = g->o->functions;
    unsigned ne = g->nev;
    for (uint32_t func = 0; func < nf; func++)
        g->fns[func].nback = g->fns[func].nfwd = 0;
    for (uint32_t func = 0; func < nf; func++)
        for (uint32_t j = 0; j < g->fns[func].nedges; j++) {
            const gen_edge *edge = &g->edges[g->fns[func].first_edge + j];
            if (edge->callee <= func)
                g->fns[edge->callee].nback++;
            else
                g->fns[edge->callee].nfwd++;
        }
    for (uint32_t func = 0; func < nf; func++)
        for (uint32_t j = 0; j < g->fns[func].nedges; j++) {
            gen_edge *edge = &g->edges[g->fns[func].first_edge + j];
            if (edge->callee > func)
                continue;
            uint64_t nback = g->fns[edge->callee].nback;
            for (unsigned ev = 0; ev < ne; ev++)
                edge->inclusive[ev] = g->fns[edge->callee].self[ev] / (2 * nback);
        }
    for (uint32_t func = nf; func-- > 0;) {
        gen_fn *fn = &g->fns[func];
        memset(fn->out, 0, ne * sizeof *fn->out);
        for (uint32_t j = 0; j < fn->nedges; j++) {
            gen_edge *edge = &g->edges[fn->first_edge + j];
            if (edge->callee > func) {
                const gen_fn *callee = &g->fns[edge->callee];
                uint64_t nback = callee->nback, nfwd = callee->nfwd;
                for (unsigned ev = 0; ev < ne; ev++) {
                    uint64_t left =
                        callee->self[ev] - (nback ? callee->self[ev] / (2 * nback) * nback : 0);
                    edge->inclusive[ev] = (left + callee->out[ev]) / nfwd;
                }
            }
            for (unsigned ev = 0; ev < ne; ev++)
                fn->out[ev] += edge->inclusive[ev];
        }
    }
}

/* Call lines per edge: more when the profile is scaled up, never more
 * than the calls, so every calls= count stays at least 1. */
static void plan_sites(gen *g)
{
    uint64_t want = g->scale < 1 ? 1 : (uint64_t)(g->scale + 0.5);
    for (size_t i = 0; i < g->nedges; i++) {
        gen_edge *edge = &g->edges[i];
        uint64_t sites = want < edge->count ? want : edge->count;
        edge->sites = sites > 1000000 ? 1000000 : (uint32_t)sites;
    }
}

static void *gen_alloc(const gen *g, size_t size)
{
    return g->wo.allocator->malloc(g->wo.allocator->ctx, size ? size : 1);
}

static void gen_free(const gen *g, void *block)
{
    if (block != NULL)
        g->wo.allocator->free(g->wo.allocator->ctx, block);
}

/* The nth name: functions, then files, then objects. */
static void plan_name(const gen *g, size_t nth, char *buf, size_t size)
{
    const cgw_gen_options *opts = g->o;
    if (nth < opts->functions)
        cgwg_function_name(buf, size, (uint32_t)nth);
    else if (nth < (size_t)opts->functions + opts->files)
        cgwg_file_name(buf, size, (uint32_t)(nth - opts->functions));
    else
        cgwg_object_name(buf, size, (uint32_t)(nth - opts->functions - opts->files));
}

/* Every name in one block: measured, then written. */
static int plan_names(gen *g)
{
    const cgw_gen_options *opts = g->o;
    size_t count = (size_t)opts->functions + opts->files + opts->objects, bytes = 0;
    char buf[200];
    g->name_at = gen_alloc(g, count * sizeof *g->name_at);
    if (g->name_at == NULL)
        return -1;
    for (size_t i = 0; i < count; i++) {
        plan_name(g, i, buf, sizeof buf);
        g->name_at[i] = bytes;
        bytes += strlen(buf) + 1;
    }
    g->text = gen_alloc(g, bytes);
    g->handles = gen_alloc(g, count * sizeof *g->handles);
    if (g->text == NULL || g->handles == NULL)
        return -1;
    for (size_t i = 0; i < count; i++)
        plan_name(g, i, g->text + g->name_at[i], sizeof buf);
    return 0;
}

static const char *fn_name(const gen *g, uint32_t func)
{
    return g->text + g->name_at[func];
}

static const char *fl_name(const gen *g, uint32_t file)
{
    return g->text + g->name_at[g->o->functions + file];
}

static const char *ob_name(const gen *g, uint32_t object)
{
    return g->text + g->name_at[g->o->functions + g->o->files + object];
}

/* Every name registered in the writer's current part, each function
 * with its object and file, in the order of name_at. */
static void register_names(gen *g)
{
    const cgw_gen_options *opts = g->o;
    size_t files = opts->functions, objects = files + opts->files;
    for (uint32_t i = 0; i < opts->files; i++)
        g->handles[files + i] = cgw_intern(g->w, CGW_NAME_FILE, fl_name(g, i));
    for (uint32_t i = 0; i < opts->objects; i++)
        g->handles[objects + i] = cgw_intern(g->w, CGW_NAME_OBJECT, ob_name(g, i));
    for (uint32_t i = 0; i < opts->functions; i++)
        g->handles[i] = cgw_intern_function(g->w, g->handles[objects + g->fns[i].object],
                                            g->handles[files + g->fns[i].file], fn_name(g, i));
}

static cgw_name_id fl_handle(const gen *g, uint32_t file)
{
    return g->handles[g->o->functions + file];
}

static int plan(gen *g)
{
    const cgw_gen_options *opts = g->o;
    size_t nf = opts->functions, maxe = nf * (2 * (size_t)opts->calls_per_fn + 1);
    g->fns = gen_alloc(g, nf * sizeof *g->fns);
    g->edges = gen_alloc(g, (maxe ? maxe : 1) * sizeof *g->edges);
    g->costs = gen_alloc(g, (2 * nf + maxe) * g->nev * sizeof *g->costs);
    g->totals = gen_alloc(g, g->nev * sizeof *g->totals);
    if (g->fns == NULL || g->edges == NULL || g->costs == NULL || g->totals == NULL)
        return -1;
    if (plan_names(g) < 0)
        return -1;
    uint64_t rng = opts->seed;
    plan_functions(g, &rng);
    plan_edges(g, &rng);
    plan_inclusive(g);
    plan_sites(g);
    memset(g->totals, 0, g->nev * sizeof *g->totals);
    for (size_t func = 0; func < nf; func++)
        for (unsigned ev = 0; ev < g->nev; ev++)
            g->totals[ev] += g->fns[func].self[ev];
    return 0;
}

static void plan_free(gen *g)
{
    gen_free(g, g->fns);
    gen_free(g, g->edges);
    gen_free(g, g->costs);
    gen_free(g, g->totals);
    gen_free(g, g->name_at);
    gen_free(g, g->text);
    gen_free(g, g->handles);
}

/* --------------------------------------------------------------- writing */

/* Where a function block is: its line and instruction address now. */
typedef struct gen_cursor {
    uint64_t line, addr, lo, hi;
} gen_cursor;

static void position(const gen *g, const gen_cursor *cursor, uint64_t *pos)
{
    for (size_t i = 0; i < g->npos; i++)
        pos[i] = g->kinds[i] == CGW_POS_INSTR ? cursor->addr
               : g->kinds[i] == CGW_POS_BB    ? cursor->addr & ~(uint64_t)31
                                              : cursor->line;
}

/* The next line: mostly a step down the function, now and then a loop
 * back or a jump ahead, as compiled code runs. */
static void step(gen_cursor *cursor, uint64_t *rng)
{
    uint64_t roll = below(rng, 16);
    if (roll == 0 && cursor->line > cursor->lo + 3)
        cursor->line -= 1 + below(rng, 3);
    else
        cursor->line += roll < 12 ? 1 : 1 + below(rng, 6);
    if (cursor->line > cursor->hi)
        cursor->line = cursor->lo + below(rng, 4);
    cursor->addr += 1 + below(rng, 7);
}

/* Call site of edge (of edge->sites): its share of the count and cost. */
static void call_site(gen *g, const gen_edge *edge, uint32_t site, const uint64_t *src)
{
    uint64_t inc[64], count = edge->count / edge->sites + (site < edge->count % edge->sites);
    for (unsigned ev = 0; ev < g->nev; ev++)
        inc[ev] = edge->inclusive[ev] / edge->sites +
                  (site == 0 ? edge->inclusive[ev] % edge->sites : 0);
    const gen_fn *callee = &g->fns[edge->callee];
    uint64_t tp[CGW_NPOS_MAX];
    gen_cursor at = { callee->first_line, callee->addr, 0, 0 };
    position(g, &at, tp);
    cgw_call_h(g->w, g->handles[edge->callee], count, tp, src, inc, g->nev);
}

static void jump(gen *g, uint32_t func, const gen_cursor *cursor, const uint64_t *src,
                 uint64_t *rng)
{
    gen_cursor to = *cursor;
    to.line = cursor->lo + below(rng, cursor->hi - cursor->lo + 1);
    to.addr = g->fns[func].addr + below(rng, g->fns[func].lines * 8);
    uint64_t tp[CGW_NPOS_MAX];
    position(g, &to, tp);
    cgw_target target = { NULL, NULL, fn_name(g, func) };
    uint64_t executed = 1 + skewed(rng, 5000), followed = below(rng, executed + 1);
    if (below(rng, 4) == 0)
        cgw_jump(g->w, &target, executed, tp, src);
    else
        cgw_cond_jump(g->w, &target, followed, executed, tp, src);
}

/* One function block: cost lines that add up to its self cost, its call
 * sites spread among them, and the optional inline run and jumps. */
static void function_block(gen *g, uint32_t func, uint64_t lines, uint64_t *rng)
{
    const gen_fn *fn = &g->fns[func];
    const unsigned flags = g->o->flags;
    uint64_t left[64], costs[64], pos[CGW_NPOS_MAX];
    memcpy(left, fn->self, g->nev * sizeof *left);
    uint64_t nsites = 0;
    for (uint32_t j = 0; j < fn->nedges; j++)
        nsites += g->edges[fn->first_edge + j].sites;
    uint64_t span = lines < 4000 ? lines + 4 : 4000;
    gen_cursor cur = { fn->first_line, fn->addr, fn->first_line, fn->first_line + span };
    uint32_t edge = 0, site = 0;
    uint64_t done = 0;
    int inlined = (flags & CGW_GEN_INLINE) && func % 4 == 1 && lines >= 4;
    cgw_function_h(g->w, g->handles[func]);
    for (uint64_t k = 0; k < lines; k++) {
        if (inlined && k == lines / 3) {
            cgw_inline_file_h(g->w, fl_handle(g, (fn->file + 1) % g->o->files));
            cur.line = 20 + below(rng, 200);
        } else if (inlined && k == 2 * lines / 3) {
            cgw_inline_file_h(g->w, fl_handle(g, fn->file));
            cur.line = fn->first_line + span / 2;
        }
        uint64_t remaining = lines - k, factor = (uint64_t)1 << below(rng, 4); /* 1..8 */
        for (unsigned ev = 0; ev < g->nev; ev++) {
            uint64_t share = remaining == 1 ? left[ev] : left[ev] / remaining * factor / 2;
            costs[ev] = share < left[ev] ? share : left[ev];
            left[ev] -= costs[ev];
        }
        position(g, &cur, pos);
        cgw_cost(g->w, pos, costs, g->nev);
        for (; done < nsites && done * lines / nsites <= k; done++) {
            const gen_edge *call = &g->edges[fn->first_edge + edge];
            call_site(g, call, site, pos);
            if (++site == call->sites) {
                site = 0;
                edge++;
            }
        }
        if ((flags & CGW_GEN_JUMPS) && k % 8 == 5)
            jump(g, func, &cur, pos, rng);
        step(&cur, rng);
    }
}

static void header(gen *g)
{
    char buf[64];
    cgw_set_creator(g->w, "cggen");
    snprintf(buf, sizeof buf, "cggen-program --seed %llu", (unsigned long long)g->o->seed);
    cgw_set_cmd(g->w, buf);
    cgw_set_pid(g->w, 1000 + g->o->seed % 30000);
    cgw_add_desc(g->w, "Trigger", "Program termination");
    for (unsigned ev = 0; ev < g->nev; ev++) {
        cgwg_event_name(ev, buf, sizeof buf);
        cgw_add_event(g->w, buf, NULL);
    }
}

static uint64_t out_bytes(const gen *g)
{
    return cgw_bytes_written(g->w);
}

/* Cost lines of a block.  Toward a target size the planned count is
 * corrected as the profile is written: the bytes still wanted, at the
 * bytes per line seen so far, shared by the base lines still to come. */
static uint64_t block_lines(gen *g, uint32_t func)
{
    const gen_fn *fn = &g->fns[func];
    uint64_t at = out_bytes(g);
    if (g->size == 0 || g->body_lines < 1000)
        return fn->lines;
    if (at >= g->size)
        return 1;
    double per_line = (double)at / (double)g->body_lines;
    double estimate = (double)(g->size - at) / per_line * (double)fn->base / (double)g->weight_left;
    return estimate < 1 ? 1 : (uint64_t)(estimate + 0.5);
}

static void write_profile(gen *g)
{
    header(g);
    g->weight_left = 0;
    for (uint32_t func = 0; func < g->o->functions; func++)
        g->weight_left += g->fns[func].base * g->o->parts;
    for (unsigned part = 1; part <= g->o->parts && cgw_error(g->w) == CGW_OK; part++) {
        if (part > 1)
            cgw_new_part(g->w);
        if (g->o->parts > 1)
            cgw_set_thread(g->w, part);
        cgw_set_summary(g->w, g->totals, g->nev);
        register_names(g);
        uint64_t rng = g->o->seed ^ 0x5bd1e995u;
        for (uint32_t func = 0; func < g->o->functions && cgw_error(g->w) == CGW_OK; func++) {
            uint64_t lines = block_lines(g, func);
            function_block(g, func, lines, &rng);
            g->body_lines += lines;
            g->weight_left -= g->fns[func].base;
        }
    }
}

static int count_bytes(void *ctx, const char *buf, size_t len)
{
    (void)buf;
    *(uint64_t *)ctx += len;
    return 0;
}

/* One profile from a plan at the given scale into w. */
static cgw_status generate(cgw_writer *w, const cgw_gen_options *opts, double scale,
                           uint64_t size)
{
    gen g = { .w = w, .o = opts, .nev = opts->events, .scale = scale, .size = size,
              .wo = CGW_OPTIONS_INIT };
    cgw_get_options(w, &g.wo);
    g.npos = cgw_pos_kinds(g.wo.positions, g.kinds);
    if (plan(&g) < 0)
        cgw_set_error(w, CGW_ENOMEM, "cgw_generate",
                      "out of memory for the plan of %u functions", opts->functions);
    else
        write_profile(&g);
    plan_free(&g);
    return cgw_error(w);
}

/* The bytes of the profile at a scale, counted but written nowhere. */
static cgw_status probe(cgw_writer *w, const cgw_gen_options *opts, double scale, uint64_t *bytes)
{
    cgw_options co = CGW_OPTIONS_INIT;
    cgw_get_options(w, &co);
    co.buffer_size = 0;
    co.flags &= ~(CGW_GZIP | CGW_GZIP_LEVEL(15)); /* size is of the text */
    *bytes = 0;
    cgw_writer *pw = cgw_open_callback(count_bytes, bytes, &co);
    if (pw == NULL)
        return cgw_set_error(w, CGW_ENOMEM, "cgw_generate", "out of memory for a probe writer");
    cgw_status st = generate(pw, opts, scale, 0);
    if (st == CGW_OK)
        st = cgw_finish(pw);
    if (st != CGW_OK)
        cgw_set_error(w, st, "cgw_generate", "sizing the profile: %s", cgw_errmsg(pw));
    cgw_free(pw);
    return st;
}

cgw_status cgw_generate(cgw_writer *w, const cgw_gen_options *given)
{
    cgw_status st = cgw_error(w);
    if (w == NULL || st != CGW_OK)
        return w == NULL ? CGW_EUSAGE : st;
    if (cgw_get_state(w) != CGW_STATE_HEADER)
        return cgw_set_error(w, CGW_EUSAGE, "cgw_generate",
                             "not allowed after the first part's header has ended");
    cgw_gen_options o = CGW_GEN_OPTIONS_INIT;
    if (cgwp_options_take(&o, sizeof o, sizeof o, given) < 0)
        return cgw_set_error(w, CGW_EINVAL, "cgw_generate",
                             "options.struct_size is %zu, not sizeof(cgw_gen_options) (%zu): "
                             "start them from CGW_GEN_OPTIONS_INIT", given->struct_size, sizeof o);
    const cgw_gen_options *opts = &o;
    if (opts->functions == 0 || opts->functions > (1u << 24) || opts->files == 0 ||
        opts->objects == 0 || opts->events == 0 || opts->events > 64 || opts->parts == 0 ||
        opts->calls_per_fn > 1000 || (opts->flags & ~(unsigned)(CGW_GEN_INLINE | CGW_GEN_JUMPS)))
        return cgw_set_error(w, CGW_EINVAL, "cgw_generate",
                         "options out of range: functions 1..2^24, files, objects and parts "
                         "at least 1, events 1..64, calls_per_fn up to 1000, flags "
                         "CGW_GEN_INLINE|CGW_GEN_JUMPS");
    double scale = 1;
    if (opts->size > 0) {
        /* bytes grow about linearly with the scale: two probes, written
         * nowhere, fit the line that gives the scale for the size */
        uint64_t at1, at64;
        if ((st = probe(w, opts, 1, &at1)) != CGW_OK || (st = probe(w, opts, 64, &at64)) != CGW_OK)
            return st;
        double per = at64 > at1 ? (double)(at64 - at1) / 63 : 1, fixed = (double)at1 - per;
        scale = ((double)opts->size - fixed) / per;
        if (scale < 0.01)
            scale = 0.01;
    }
    return generate(w, opts, scale, opts->size);
}
