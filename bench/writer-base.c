/* SPDX-License-Identifier: MIT */
/* writer-base.c - bench-writer's baselines: writers that make libcgw's
 * default bytes without libcgw (one fprintf per field, one fprintf per
 * line, by hand into a buffer), and the limit (the bytes copied and
 * written).  Each keeps the names' compressed IDs itself, as an index
 * into the profile's tables: it does no lookup of a name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fmt.h" /* the hand-written writer formats as libcgw does */
#include "writer.h"

/* Forget every name's ID (each writer starts a fresh file); the
 * functions' names, which get IDs of their own: the caller frees them. */
static name *reset_ids(profile *p)
{
    for (size_t i = 0; i < p->nobjs; i++)
        p->objs[i].id = 0;
    for (size_t i = 0; i < p->nfiles; i++)
        p->files[i].id = 0;
    for (size_t i = 0; i < p->nfnames; i++)
        p->fnames[i].id = 0;
    name *fnid = xmalloc(p->nfuncs * sizeof *fnid);
    for (size_t i = 0; i < p->nfuncs; i++)
        fnid[i] = (name){ p->fnames[p->funcs[i].fn].str, 0, { 0 } };
    return fnid;
}

/* libcgw's header for p, as text (a static buffer). */
static const char *header(const profile *p)
{
    static char text[4096];
    int n = snprintf(text, sizeof text, "# callgrind format\nversion: 1\ncreator: libcgw-%s\n"
                     "part: 1\npositions: %s\nevents:", cgw_version(),
                     p->npos == 2 ? "instr line" : "line");
    for (size_t e = 0; e < p->nev; e++)
        n += snprintf(text + n, sizeof text - (size_t)n, " %s", p->evnames[e]);
    snprintf(text + n, sizeof text - (size_t)n, "\n");
    return text;
}

/* ------------------------------------------------------ fprintf */

/* What both fprintf writers write alike: the name lines, spec(id) with
 * the name the first time. */
static void put_name(FILE *f, unsigned *next_id, const char *spec, name *n, int kind)
{
    if (n->id != 0) {
        fprintf(f, "%s(%u)\n", spec, n->id);
    } else {
        n->id = ++next_id[kind];
        fprintf(f, "%s(%u) %s\n", spec, n->id, n->str);
    }
}

/* Function fi's block name lines (ob= when it changes, fl=, fn=), with
 * fnid the functions' own IDs; *written_ob and *cur_fl follow them. */
static void put_block(FILE *f, unsigned *next_id, profile *p, name *fnid, uint32_t fi,
                      uint32_t *written_ob, uint32_t *cur_fl)
{
    const func *fn = &p->funcs[fi];
    fputc('\n', f);
    if (fn->ob != *written_ob)
        put_name(f, next_id, "ob=", &p->objs[fn->ob], 0);
    *written_ob = fn->ob;
    put_name(f, next_id, "fl=", &p->files[fn->fl], 1);
    *cur_fl = fn->fl;
    put_name(f, next_id, "fn=", &fnid[fi], 2);
}

/* Callee fi's name lines: cfi= only for another file, as libcgw. */
static void put_callee(FILE *f, unsigned *next_id, profile *p, name *fnid, uint32_t fi,
                       uint32_t cur_fl)
{
    const func *fn = &p->funcs[fi];
    put_name(f, next_id, "cob=", &p->objs[fn->ob], 0);
    if (fn->fl != cur_fl)
        put_name(f, next_id, "cfi=", &p->files[fn->fl], 1);
    put_name(f, next_id, "cfn=", &fnid[fi], 2);
}

static void put_totals(FILE *f, const profile *p, const uint64_t *totals)
{
    fprintf(f, "\ntotals:");
    for (size_t e = 0; e < p->nev; e++)
        fprintf(f, " %llu", (unsigned long long)totals[e]);
    fputc('\n', f);
}

/* The two fprintf writers: name compression with IDs they keep
 * themselves, relative positions.  They differ only in how a position
 * line and a call's target are printed (fprint_ops); one replay loop
 * drives both (an indirect call a line is nothing beside fprintf). */
typedef struct fstate {
    FILE *f;
    profile *p;
    unsigned next_id[3];
    uint64_t base[2];
    int base_valid;
} fstate;

typedef struct fprint_ops {
    void (*line)(fstate *s, const uint64_t *pos, const uint64_t *costs);
    void (*target)(fstate *s, const op *call);
} fprint_ops;

static void replay_fprintf(fstate *s, const fprint_ops *ops)
{
    profile *p = s->p;
    uint64_t totals[MAX_EV] = { 0 };
    name *fnid = reset_ids(p);
    fputs(header(p), s->f);
    uint32_t written_ob = UINT32_MAX, cur_fl = UINT32_MAX;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        switch (x->kind) {
        case OP_FN:
            put_block(s->f, s->next_id, p, fnid, x->fn, &written_ob, &cur_fl);
            s->base_valid = 0;
            break;
        case OP_COST:
            ops->line(s, x->pos, x->costs);
            for (size_t e = 0; e < p->nev; e++)
                totals[e] += x->costs[e];
            break;
        case OP_CALL:
            put_callee(s->f, s->next_id, p, fnid, x->fn, cur_fl);
            ops->target(s, x);
            ops->line(s, x->pos, x->costs);
            break;
        }
    }
    put_totals(s->f, p, totals);
    free(fnid);
}

/* ------------------------------------------------------ fprintf a field */

/* What a careful hand-written writer does: fprintf per field. */
static void f_pos(fstate *s, const uint64_t *pos, int is_target)
{
    const profile *p = s->p;
    for (size_t i = 0; i < p->npos; i++) {
        int hex = i == 0 && (p->positions & CGW_POS_INSTR);
        if (i > 0)
            fputc(' ', s->f);
        if (is_target || !s->base_valid)
            fprintf(s->f, hex ? "0x%llx" : "%llu", (unsigned long long)pos[i]);
        else if (pos[i] == s->base[i])
            fputc('*', s->f);
        else if (pos[i] > s->base[i])
            fprintf(s->f, "+%llu", (unsigned long long)(pos[i] - s->base[i]));
        else
            fprintf(s->f, "-%llu", (unsigned long long)(s->base[i] - pos[i]));
    }
    if (!is_target) {
        memcpy(s->base, pos, p->npos * sizeof *pos);
        s->base_valid = 1;
    }
}

static void f_line(fstate *s, const uint64_t *pos, const uint64_t *costs)
{
    f_pos(s, pos, 0);
    for (size_t e = 0; e < s->p->nev; e++)
        fprintf(s->f, " %llu", (unsigned long long)costs[e]);
    fputc('\n', s->f);
}

static void f_target(fstate *s, const op *call)
{
    fprintf(s->f, "calls=%llu ", (unsigned long long)call->count);
    f_pos(s, call->target, 1);
    fputc('\n', s->f);
}

void with_fprintf(profile *p, FILE *f)
{
    static const fprint_ops ops = { f_line, f_target };
    fstate s = { f, p, { 0, 0, 0 }, { 0, 0 }, 0 };
    replay_fprintf(&s, &ops);
}

/* ------------------------------------------------------ fprintf a line */

#define LINE_EV 13 /* the most costs one fprintf here takes */

/* The form of a relative subposition for "%s%.*llu": "*" (no digit: a
 * precision of 0 prints 0 as nothing), "+N" or "-N". */
typedef struct step {
    const char *sign;
    int digits;
    unsigned long long value;
} step;

static step step_of(uint64_t value, uint64_t base)
{
    if (value == base)
        return (step){ "*", 0, 0 };
    if (value > base)
        return (step){ "+", 1, value - base };
    return (step){ "-", 1, base - value };
}

/* What one fprintf a line keeps beside fstate (its first member): the
 * formats of a position line, absolute and relative, each with the costs
 * and the line end. */
typedef struct lstate {
    fstate s;
    char abs[64 + 6 * LINE_EV], rel[64 + 6 * LINE_EV], target[32];
} lstate;

static void l_formats(lstate *l)
{
    const char *abs = l->s.p->npos == 2 ? "0x%llx %llu" : "%llu";
    const char *rel = l->s.p->npos == 2 ? "%s%.*llu %s%.*llu" : "%s%.*llu";
    size_t a = strlen(abs), r = strlen(rel);
    memcpy(l->abs, abs, a);
    memcpy(l->rel, rel, r);
    for (size_t e = 0; e < l->s.p->nev; e++) {
        memcpy(l->abs + a, " %llu", 5);
        memcpy(l->rel + r, " %llu", 5);
        a += 5;
        r += 5;
    }
    memcpy(l->abs + a, "\n", 2);
    memcpy(l->rel + r, "\n", 2);
    snprintf(l->target, sizeof l->target, "calls=%%llu %s\n", abs);
}

/* A position line with its costs, in one fprintf; it becomes the base. */
static void l_line(fstate *s, const uint64_t *pos, const uint64_t *costs)
{
    const lstate *l = (const lstate *)s;
    unsigned long long c[LINE_EV] = { 0 };
    for (size_t e = 0; e < s->p->nev; e++)
        c[e] = costs[e];
#define COSTS c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12]
    if (!s->base_valid && s->p->npos == 2) {
        fprintf(s->f, l->abs, (unsigned long long)pos[0], (unsigned long long)pos[1], COSTS);
    } else if (!s->base_valid) {
        fprintf(s->f, l->abs, (unsigned long long)pos[0], COSTS);
    } else if (s->p->npos == 2) {
        step a = step_of(pos[0], s->base[0]), b = step_of(pos[1], s->base[1]);
        fprintf(s->f, l->rel, a.sign, a.digits, a.value, b.sign, b.digits, b.value, COSTS);
    } else {
        step a = step_of(pos[0], s->base[0]);
        fprintf(s->f, l->rel, a.sign, a.digits, a.value, COSTS);
    }
#undef COSTS
    memcpy(s->base, pos, s->p->npos * sizeof *pos);
    s->base_valid = 1;
}

static void l_target(fstate *s, const op *call)
{
    const lstate *l = (const lstate *)s;
    if (s->p->npos == 2)
        fprintf(s->f, l->target, (unsigned long long)call->count,
                (unsigned long long)call->target[0], (unsigned long long)call->target[1]);
    else
        fprintf(s->f, l->target, (unsigned long long)call->count,
                (unsigned long long)call->target[0]);
}

void with_fprintf_line(profile *p, FILE *f)
{
    static const fprint_ops ops = { l_line, l_target };
    lstate l = { .s = { .f = f, .p = p } };
    if (p->nev > LINE_EV)
        die("too many events for one fprintf a line");
    l_formats(&l);
    replay_fprintf(&l.s, &ops);
}

/* ------------------------------------------------------ by hand */

/* What a careful profiler author writes by hand: integer IDs it assigns
 * itself, relative subpositions, one buffer, write(2) when it is full;
 * no check of anything. */
typedef struct hand {
    int fd;
    const profile *p;
    char *buf;
    size_t len;
    unsigned next_id[3];
    uint64_t base[2];
    int base_valid;
} hand;

static void h_flush(hand *h)
{
    for (size_t off = 0; off < h->len;) {
        ssize_t n = write(h->fd, h->buf + off, h->len - off);
        if (n <= 0)
            die("write failed");
        off += (size_t)n;
    }
    h->len = 0;
}

/* Room for need bytes at the returned pointer; h_done() takes them. */
static char *h_room(hand *h, size_t need)
{
    if (BUFSZ - h->len < need)
        h_flush(h);
    return h->buf + h->len;
}

static void h_done(hand *h, const char *end)
{
    h->len = (size_t)(end - h->buf);
}

static void h_name(hand *h, const char *spec, size_t spec_len, name *n, int kind)
{
    size_t len = n->id ? 0 : strlen(n->str);
    char *out = h_room(h, spec_len + len + 16);
    memcpy(out, spec, spec_len);
    out[spec_len] = '(';
    if (n->id != 0) {
        out = cgwp_fmt_dec(out + spec_len + 1, n->id);
        *out++ = ')';
    } else {
        n->id = ++h->next_id[kind];
        out = cgwp_fmt_dec(out + spec_len + 1, n->id);
        *out++ = ')';
        *out++ = ' ';
        memcpy(out, n->str, len);
        out += len;
    }
    *out++ = '\n';
    h_done(h, out);
}
#define H_NAME(h, spec, n, kind) h_name(h, spec, sizeof spec - 1, n, kind)

static char *h_pos(hand *h, char *out, const uint64_t *pos, int is_target)
{
    size_t npos = h->p->npos;
    for (size_t i = 0; i < npos; i++) {
        if (i > 0)
            *out++ = ' ';
        if (!is_target && h->base_valid)
            out = cgwp_pos_step(out, pos[i], h->base[i]);
        else if (i + 1 < npos)
            out = cgwp_fmt_hex(out, pos[i]);
        else
            out = cgwp_fmt_dec(out, pos[i]);
    }
    if (!is_target) {
        for (size_t i = 0; i < npos; i++)
            h->base[i] = pos[i];
        h->base_valid = 1;
    }
    return out;
}

static char *h_costs(hand *h, char *out, const uint64_t *costs, uint64_t *totals)
{
    for (size_t e = 0; e < h->p->nev; e++) {
        *out++ = ' ';
        out = cgwp_fmt_dec(out, costs[e]);
        if (totals != NULL)
            totals[e] += costs[e];
    }
    *out++ = '\n';
    return out;
}

/* The line of x, a cost line or a call with its source line. */
static void h_line(hand *h, const op *x, uint64_t *totals)
{
    char *out = h_room(h, 128 + 21 * h->p->nev);
    if (x->kind == OP_CALL) {
        memcpy(out, "calls=", 6);
        out = cgwp_fmt_dec(out + 6, x->count);
        *out++ = ' ';
        out = h_pos(h, out, x->target, 1);
        *out++ = '\n';
        totals = NULL;
    }
    out = h_pos(h, out, x->pos, 0);
    h_done(h, h_costs(h, out, x->costs, totals));
}

void with_hand(profile *p, int fd)
{
    static char buf[BUFSZ];
    hand h = { .fd = fd, .p = p, .buf = buf };
    uint64_t totals[MAX_EV] = { 0 };
    name *fnid = reset_ids(p);
    const char *head = header(p);
    char *out = h_room(&h, strlen(head));
    memcpy(out, head, strlen(head));
    h_done(&h, out + strlen(head));
    uint32_t written_ob = UINT32_MAX, cur_fl = UINT32_MAX;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        const func *fn = &p->funcs[x->fn];
        if (x->kind == OP_FN) {
            out = h_room(&h, 1);
            *out = '\n';
            h_done(&h, out + 1);
            if (fn->ob != written_ob)
                H_NAME(&h, "ob=", &p->objs[fn->ob], 0);
            written_ob = fn->ob;
            H_NAME(&h, "fl=", &p->files[fn->fl], 1);
            cur_fl = fn->fl;
            H_NAME(&h, "fn=", &fnid[x->fn], 2);
            h.base_valid = 0;
            continue;
        }
        if (x->kind == OP_CALL) {
            H_NAME(&h, "cob=", &p->objs[fn->ob], 0);
            if (fn->fl != cur_fl)
                H_NAME(&h, "cfi=", &p->files[fn->fl], 1);
            H_NAME(&h, "cfn=", &fnid[x->fn], 2);
        }
        h_line(&h, x, totals);
    }
    out = h_room(&h, 32 + 21 * p->nev);
    memcpy(out, "\ntotals:", 8);
    out += 8;
    for (size_t e = 0; e < p->nev; e++) {
        *out++ = ' ';
        out = cgwp_fmt_dec(out, totals[e]);
    }
    *out++ = '\n';
    h_done(&h, out);
    h_flush(&h);
    free(fnid);
}

/* ------------------------------------------------------ the limit */

/* The identical bytes, copied into a buffer of the writer's size and
 * written out, as any writer must at least do. */
void with_memcpy(const char *ref, size_t len, int fd)
{
    static char buf[BUFSZ];
    for (size_t off = 0; off < len; off += BUFSZ) {
        size_t n = len - off < BUFSZ ? len - off : BUFSZ;
        memcpy(buf, ref + off, n);
        if (write(fd, buf, n) != (ssize_t)n)
            die("write failed");
    }
}

