/* SPDX-License-Identifier: MIT */
/* writer-profile.c - bench-writer's input: a cggen profile read back
 * into the list of writer calls every writer replays; and the floor, the
 * self-cost lines alone formatted with no API around them. */
#include <stdlib.h>
#include <string.h>

#include "common/fmt.h" /* the floor formats numbers as libcgw does */
#include "writer.h"

/* Index of pointer key in tab (equal names have equal pointers). */
static uint32_t index_of(name **tab, size_t *n, const char *s)
{
    for (size_t i = *n; i-- > 0;)
        if ((*tab)[i].str == s)
            return (uint32_t)i;
    *tab = realloc(*tab, (*n + 1) * sizeof **tab);
    if (*tab == NULL)
        die("out of memory");
    (*tab)[*n].str = s;
    (*tab)[*n].id = 0;
    (*tab)[*n].h.bits = 0;
    return (uint32_t)(*n)++;
}

static uint32_t func_of(profile *p, const char *ob, const char *fl, const char *fn)
{
    func f = { index_of(&p->objs, &p->nobjs, ob), index_of(&p->files, &p->nfiles, fl),
               index_of(&p->fnames, &p->nfnames, fn) };
    for (size_t i = p->nfuncs; i-- > 0;)
        if (p->funcs[i].ob == f.ob && p->funcs[i].fl == f.fl && p->funcs[i].fn == f.fn)
            return (uint32_t)i;
    p->funcs = realloc(p->funcs, (p->nfuncs + 1) * sizeof *p->funcs);
    if (p->funcs == NULL)
        die("out of memory");
    p->funcs[p->nfuncs] = f;
    return (uint32_t)p->nfuncs++;
}

/* A cggen profile of about mb MB, read back into operations. */
void load(profile *p, unsigned mb)
{
    size_t glen;
    cgw_options o = { .struct_size = sizeof o, .positions = p->positions };
    cgw_writer *w = cgw_open_memory(&p->gen, &glen, &o);
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = 1;
    g.events = (unsigned)p->nev;
    g.size = (uint64_t)mb << 20;
    if (w == NULL || cgw_generate(w, &g) != CGW_OK || cgw_close(w) != CGW_OK)
        die("cgw_generate failed");

    p->reader = cgw_reader_open_memory(p->gen, glen, NULL);
    if (p->reader == NULL)
        die("cannot read the generated profile");
    size_t cap = glen / 8 + 16, used = 0;
    p->ops = xmalloc(cap * sizeof *p->ops);
    p->pool = xmalloc(cap * p->nev * sizeof *p->pool);
    const cgw_record *r;
    while (cgw_reader_next(p->reader, &r) == CGW_OK && r != NULL) {
        if (r->kind == CGW_REC_PART) {
            if (r->part->npos != p->npos || r->part->nevents != p->nev)
                die("unexpected part header");
            for (size_t e = 0; e < p->nev; e++)
                p->evnames[e] = r->part->events[e].name;
            continue;
        }
        if (r->kind == CGW_REC_PART_END)
            continue;
        if (p->nops == cap)
            die("more operations than the estimate");
        op *x = &p->ops[p->nops++];
        memset(x, 0, sizeof *x);
        switch (r->kind) {
        case CGW_REC_FUNCTION:
            x->kind = OP_FN;
            x->fn = func_of(p, r->object, r->file, r->function);
            continue;
        case CGW_REC_COST:
        case CGW_REC_CALL:
            break;
        default:
            die("unexpected record kind");
        }
        x->kind = r->kind == CGW_REC_COST ? OP_COST : OP_CALL;
        memcpy(x->pos, r->pos, p->npos * sizeof *x->pos);
        uint64_t *c = p->pool + used;
        memcpy(c, r->costs, p->nev * sizeof *c);
        used += p->nev;
        x->costs = c;
        p->ncost++;
        if (x->kind == OP_CALL) {
            x->fn = func_of(p, r->target.object, r->target.file, r->target.function);
            x->count = r->count;
            memcpy(x->target, r->target_pos, p->npos * sizeof *x->target);
        }
    }
    uint64_t errors;
    cgw_reader_counts(p->reader, &errors, NULL);
    if (errors != 0 || p->ncost == 0)
        die("the generated profile does not read back");
}

void unload(profile *p)
{
    cgw_reader_close(p->reader);
    free(p->gen);
    free(p->ops);
    free(p->pool);
    free(p->objs);
    free(p->files);
    free(p->fnames);
    free(p->funcs);
}

/* ------------------------------------------------------ the floor */

/* The self-cost lines alone (the bulk of every profile), formatted into
 * memory with libcgw's own number formatting (lib/common/fmt.c is built into
 * this program) and their totals added, but with no API call, no check,
 * no name, call or function line and no write: with this formatting, no
 * writer of these lines can take less time on this machine.  Returns the
 * length of what it wrote at out. */
size_t with_floor(const profile *p, char *out, uint64_t *totals)
{
    uint64_t base[2] = { 0, 0 };
    int base_valid = 0;
    char *q = out;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        if (x->kind == OP_FN) {
            base_valid = 0;
            continue;
        }
        if (x->kind == OP_COST) {
            for (size_t k = 0; k < p->npos; k++) {
                if (k > 0)
                    *q++ = ' ';
                if (base_valid)
                    q = cgwp_pos_step(q, x->pos[k], base[k]);
                else if (k == 0 && (p->positions & CGW_POS_INSTR))
                    q = cgwp_fmt_hex(q, x->pos[k]);
                else
                    q = cgwp_fmt_dec(q, x->pos[k]);
            }
            for (size_t e = 0; e < p->nev; e++) {
                *q++ = ' ';
                q = cgwp_fmt_dec(q, x->costs[e]);
                totals[e] += x->costs[e];
            }
            *q++ = '\n';
        }
        /* a call's source line moves the base too */
        memcpy(base, x->pos, sizeof base);
        base_valid = 1;
    }
    return (size_t)(q - out);
}

/* What the floor reads, with nothing formatted: every self-cost line's
 * positions (summed, returned) and costs (added to totals).  Its time is
 * the part of every column here that is reading the replay list. */
uint64_t with_input(const profile *p, uint64_t *totals)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        if (x->kind != OP_COST)
            continue;
        for (size_t k = 0; k < p->npos; k++)
            sum += x->pos[k];
        for (size_t e = 0; e < p->nev; e++)
            totals[e] += x->costs[e];
    }
    return sum;
}

/* The self-cost lines of the file ref (position lines not after a
 * calls= line) and its totals: line, which the floor must reproduce;
 * the lines' length. */
size_t cost_lines_of(const char *ref, size_t len, char *out, uint64_t *totals, size_t nev)
{
    char *q = out;
    int after_call = 0;
    for (const char *l = ref, *end = ref + len; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = nl ? (size_t)(nl - l) + 1 : (size_t)(end - l);
        if (*l != '\0' && strchr("0123456789+-*", *l) != NULL && !after_call) {
            memcpy(q, l, n);
            q += n;
        }
        if (strncmp(l, "totals:", 7) == 0) {
            char *v = (char *)l + 7;
            for (size_t e = 0; e < nev; e++)
                totals[e] = strtoull(v, &v, 10);
        }
        after_call = strncmp(l, "calls=", 6) == 0;
        l += n;
    }
    return (size_t)(q - out);
}

