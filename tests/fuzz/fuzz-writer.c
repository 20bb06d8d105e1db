/* SPDX-License-Identifier: MIT */
/* fuzz-writer: bytes decoded into a sequence of writer calls (options,
 * events, names good and bad, costs, calls, jumps, inline files, parts).
 * When the writer finishes without error, its output must read back with
 * no error, with the same cost and call records in the same order, and
 * with the totals the calls add up to; when it fails, the error is
 * sticky and no output is handed over. */
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

#define MAXREC 256
#define MAXEV 4

static const char *const names[] = {
    "main", "f", "g h", "ns::x<int>::y", "(below main)", "\xc3\xbc" "n\xc3\xaf" "c\xc3\xb6" "de",
    "a=b", "0x12", "(12)", "-tricky", "", " lead", "x\ny", "tab\there", "trail ",
};
#define NNAMES (sizeof names / sizeof *names)

static const uint64_t values[] = {
    0, 1, 2, 3, 7, 99, 100, 101, 4096, 65535, 1u << 31, 0xffffffffu,
    1ull << 32, 1ull << 53, (1ull << 53) + 1, 1ull << 62, UINT64_MAX - 1, UINT64_MAX,
};
#define NVALUES (sizeof values / sizeof *values)

typedef struct expect {
    cgw_record_kind kind;
    const char *function, *callee;
    uint64_t pos[3], tpos[3], costs[MAXEV], count;
    unsigned part;
} expect;

typedef struct model {
    const uint8_t *p, *end;
    unsigned npos, nev, parts;
    const char *fn;
    expect rec[MAXREC];
    size_t nrec;
    uint64_t totals[8][MAXEV];
} model;

static unsigned byte(model *m)
{
    return m->p < m->end ? *m->p++ : 0;
}

static uint64_t value(model *m)
{
    return values[byte(m) % NVALUES];
}

static const char *name(model *m)
{
    return names[byte(m) % NNAMES];
}

static void fill(model *m, uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = value(m);
}

/* One call decoded from the input; its expected record when it returns OK. */
static void step(model *m, cgw_writer *w)
{
    if (m->nrec == MAXREC) {
        m->p = m->end; /* the model is full: no more calls */
        return;
    }
    unsigned op = byte(m) % 9;
    expect e;
    memset(&e, 0, sizeof e);
    size_t n = byte(m) % (m->nev + 1);
    switch (op) {
    case 0:
        cgw_object(w, name(m));
        return;
    case 1:
        cgw_file(w, name(m));
        return;
    case 2: {
        const char *f = name(m);
        if (cgw_function(w, f) == CGW_OK)
            m->fn = f;
        return;
    }
    case 3:
    case 4: /* the common case twice as often */
        fill(m, e.pos, m->npos);
        fill(m, e.costs, n);
        if (cgw_cost(w, e.pos, e.costs, n) != CGW_OK)
            return;
        e.kind = CGW_REC_COST;
        for (size_t i = 0; i < n && m->parts < 8; i++)
            m->totals[m->parts][i] += e.costs[i];
        break;
    case 5: {
        cgw_target t = { NULL, NULL, name(m) };
        if (byte(m) % 4 == 0)
            t.file = name(m);
        e.count = value(m);
        fill(m, e.tpos, m->npos);
        fill(m, e.pos, m->npos);
        fill(m, e.costs, n);
        if (cgw_call(w, &t, e.count, e.tpos, e.pos, e.costs, n) != CGW_OK)
            return;
        e.kind = CGW_REC_CALL;
        e.callee = t.function;
        break;
    }
    case 6:
        cgw_inline_file(w, name(m));
        return;
    case 7: {
        cgw_target t = { NULL, NULL, name(m) };
        uint64_t a = value(m), b = value(m), tp[3], sp[3];
        fill(m, tp, m->npos);
        fill(m, sp, m->npos);
        if (byte(m) % 2)
            cgw_jump(w, &t, a, tp, sp);
        else
            cgw_cond_jump(w, &t, a, b, tp, sp);
        return;
    }
    default:
        if (cgw_new_part(w) == CGW_OK)
            m->parts++;
        return;
    }
    e.function = m->fn;
    e.part = m->parts;
    m->rec[m->nrec++] = e;
}

/* The output read back: no error, the same records, the same totals. */
static void check(const model *m, const char *text, size_t len)
{
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    const cgw_record *rec;
    size_t k = 0;
    unsigned part = 0;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_PART_END) {
            for (unsigned i = 0; i < m->nev && part < 8; i++)
                if (rec->costs[i] != m->totals[part][i])
                    fuzz_fail("part totals differ from the costs written", NULL);
            part++;
        }
        if (rec->kind != CGW_REC_COST && rec->kind != CGW_REC_CALL)
            continue;
        if (k == m->nrec)
            fuzz_fail("more cost and call records than written", NULL);
        const expect *e = &m->rec[k++];
        if (rec->kind != e->kind || strcmp(rec->function, e->function) != 0)
            fuzz_fail("a record of another kind or function than written", rec->function);
        if (memcmp(rec->pos, e->pos, m->npos * sizeof *e->pos) != 0 ||
            memcmp(rec->costs, e->costs, m->nev * sizeof *e->costs) != 0)
            fuzz_fail("a record with other positions or costs than written", rec->function);
        if (e->kind == CGW_REC_CALL &&
            (strcmp(rec->target.function, e->callee) != 0 || rec->count != e->count ||
             memcmp(rec->target_pos, e->tpos, m->npos * sizeof *e->tpos) != 0))
            fuzz_fail("a call with another callee, count or target than written", e->callee);
    }
    uint64_t errors;
    cgw_reader_counts(r, &errors, NULL);
    if (st != CGW_OK || errors != 0)
        fuzz_fail("the writer's output does not read back without error", NULL);
    if (k != m->nrec)
        fuzz_fail("fewer cost and call records than written", NULL);
    cgw_reader_close(r);
}

static const unsigned positions[] = {
    CGW_POS_LINE, CGW_POS_INSTR, CGW_POS_INSTR | CGW_POS_LINE,
    CGW_POS_INSTR | CGW_POS_BB | CGW_POS_LINE,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    model *m = calloc(1, sizeof *m);
    if (m == NULL)
        return 0;
    m->p = data;
    m->end = data + size;
    unsigned b0 = byte(m), b1 = byte(m);
    cgw_options o = { .struct_size = sizeof o, .positions = positions[b0 % 4],
                      .flags = (b0 >> 2) & 15, .buffer_size = 64 + (b1 >> 4) * 97 };
    if (o.positions & CGW_POS_BB) /* which the portable subset refuses */
        o.flags |= CGW_EXTENDED;
    m->npos = 1 + ((o.positions & CGW_POS_INSTR) != 0) + ((o.positions & CGW_POS_BB) != 0) -
              ((o.positions & CGW_POS_LINE) == 0);
    m->nev = 1 + b1 % MAXEV;
    char *out = NULL;
    size_t len = 0;
    cgw_writer *w = cgw_open_memory(&out, &len, &o);
    if (w == NULL)
        fuzz_fail("cgw_open_memory failed", NULL);
    static const char *const ev[MAXEV] = { "Ir", "Dr", "Dw", "ns" };
    for (unsigned i = 0; i < m->nev; i++)
        cgw_add_event(w, ev[i], byte(m) % 2 ? "Long name" : NULL);
    while (m->p < m->end)
        step(m, w);
    cgw_status st = cgw_finish(w);
    if (st == CGW_OK)
        check(m, out, len);
    else if (out != NULL || len != 0)
        fuzz_fail("a failed writer handed over output", cgw_errmsg(w));
    else if (cgw_cost(w, (uint64_t[3]){ 1, 1, 1 }, (uint64_t[1]){ 1 }, 1) != st)
        fuzz_fail("the first error is not sticky", cgw_errmsg(w));
    cgw_free(w);
    free(out);
    free(m);
    return 0;
}
