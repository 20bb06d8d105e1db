/* recode.c - a reader's records written again through a writer: the one
 * place that maps records to writer calls (cgverify --roundtrip), and
 * whole files recoded (cgrecode). */
#include <string.h>

#include "cgw.h"

static cgw_status part_header(cgw_writer *w, const cgw_part *p)
{
    cgw_status st = CGW_OK;
    if (p->index > 1) {
        st = cgw_new_part(w);
    } else {
        if (p->creator != NULL)
            st = cgw_set_creator(w, p->creator);
        if (st == CGW_OK && p->cmd != NULL)
            st = cgw_set_cmd(w, p->cmd);
        if (st == CGW_OK && p->has_pid)
            st = cgw_set_pid(w, p->pid);
        for (size_t i = 0; st == CGW_OK && i < p->nevents; i++)
            st = cgw_add_event(w, p->events[i].name, p->events[i].long_name);
        for (size_t i = 0; st == CGW_OK && i < p->nderived; i++)
            st = cgw_add_derived_event(w, p->derived[i].name, p->derived[i].formula,
                                       p->derived[i].long_name);
    }
    if (st == CGW_OK && p->has_thread)
        st = cgw_set_thread(w, p->thread);
    for (size_t i = 0; st == CGW_OK && i < p->ndescs; i++)
        st = cgw_add_desc(w, p->descs[i].type, p->descs[i].value);
    if (st == CGW_OK && p->summary != NULL)
        st = cgw_set_summary(w, p->summary, p->nevents);
    return st;
}

cgw_status cgw_write_record(cgw_writer *w, const cgw_record *rec)
{
    cgw_status st = cgw_error(w);
    if (w == NULL || st != CGW_OK)
        return w == NULL ? CGW_EUSAGE : st;
    if (rec == NULL)
        return cgw_set_error(w, CGW_EUSAGE, "cgw_write_record", "the record is NULL");
    size_t n = rec->part->nevents;
    switch (rec->kind) {
    case CGW_REC_PART:
        return part_header(w, rec->part);
    case CGW_REC_FUNCTION:
        if (rec->object != NULL)
            st = cgw_object(w, rec->object);
        if (st == CGW_OK)
            st = cgw_file(w, rec->file);
        return st == CGW_OK ? cgw_function(w, rec->function) : st;
    case CGW_REC_INLINE:
        return cgw_inline_file(w, rec->source_file);
    case CGW_REC_COST:
        return cgw_cost(w, rec->pos, rec->costs, n);
    case CGW_REC_CALL:
        return cgw_call(w, &rec->target, rec->count, rec->target_pos, rec->pos, rec->costs, n);
    case CGW_REC_JUMP:
        return cgw_jump(w, &rec->target, rec->count, rec->target_pos, rec->pos);
    case CGW_REC_COND_JUMP:
        return cgw_cond_jump(w, &rec->target, rec->count, rec->executed, rec->target_pos,
                             rec->pos);
    case CGW_REC_PART_END:
        return CGW_OK;
    }
    return cgw_set_error(w, CGW_EINVAL, "cgw_write_record", "unknown record kind %d",
                         (int)rec->kind);
}

/* ------------------------------------------------------ whole-file recode */

/* Subpositions of mask `from` narrowed to mask `to` (both in
 * position-array order); -1 when `to` wants one that `from` lacks. */
static int narrow(unsigned from, unsigned to, const uint64_t *in, uint64_t *out)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t n = cgw_pos_kinds(from, kinds), j = 0;
    if ((to & from) != to)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (to & kinds[i])
            out[j++] = in[i];
    return 0;
}

/* A cost line held back while the next ones fall on the same position of
 * the same block: narrowed positions repeat, and one line says it all. */
/* The writer being recoded into and what it was opened with. */
typedef struct recoder {
    cgw_writer *w;
    cgw_options opts;
    size_t npos;
} recoder;

typedef struct held {
    int valid;
    uint64_t pos[CGW_NPOS_MAX];
    uint64_t *costs;
    size_t n;
    cgw_record rec;
} held;

static cgw_status flush_held(cgw_writer *w, held *h)
{
    if (!h->valid)
        return CGW_OK;
    h->valid = 0;
    return cgw_write_record(w, &h->rec);
}

/* Add rec's costs to the held line when it is the same place (the npos
 * positions the writer writes, all that rec->pos holds); 1 if so. */
static int merge(held *h, const cgw_record *rec, size_t npos)
{
    if (!h->valid || rec->function != h->rec.function ||
        rec->source_file != h->rec.source_file ||
        memcmp(rec->pos, h->pos, npos * sizeof *h->pos) != 0)
        return 0;
    for (size_t i = 0; i < h->n; i++)
        if (rec->costs[i] > UINT64_MAX - h->costs[i])
            return 0;
    for (size_t i = 0; i < h->n; i++)
        h->costs[i] += rec->costs[i];
    return 1;
}

static cgw_status hold(const recoder *rc, held *h, const cgw_record *rec)
{
    size_t n = rec->part->nevents;
    if (n > h->n) {
        const cgw_allocator *a = rc->opts.allocator;
        uint64_t *c = h->costs ? a->realloc(a->ctx, h->costs, n * sizeof *c)
                               : a->malloc(a->ctx, n * sizeof *c);
        if (c == NULL)
            return cgw_set_error(rc->w, CGW_ENOMEM, "cgw_recode",
                                 "out of memory for %zu events", n);
        h->costs = c;
    }
    h->n = n;
    memcpy(h->costs, rec->costs, n * sizeof *h->costs);
    memcpy(h->pos, rec->pos, rc->npos * sizeof *h->pos);
    h->rec = *rec;
    h->rec.pos = h->pos;
    h->rec.costs = h->costs;
    h->valid = 1;
    return CGW_OK;
}

static int all_zero(const uint64_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (c[i] != 0)
            return 0;
    return 1;
}

/* One record of cgw_recode(), with positions already narrowed. */
static cgw_status recode_one(const recoder *rc, held *h, const cgw_record *rec,
                             unsigned flags)
{
    cgw_writer *w = rc->w;
    if (rec->kind == CGW_REC_COST && merge(h, rec, rc->npos))
        return CGW_OK;
    cgw_status st = flush_held(w, h);
    if (st != CGW_OK)
        return st;
    switch (rec->kind) {
    case CGW_REC_COST:
        return hold(rc, h, rec);
    case CGW_REC_JUMP:
    case CGW_REC_COND_JUMP:
        return (flags & CGW_RECODE_JUMPS) ? cgw_write_record(w, rec) : CGW_OK;
    case CGW_REC_CALL:
        /* calls=0, as Callgrind writes after zeroing counters: nothing is
         * lost by dropping one without cost where the writer refuses it */
        if (rec->count == 0 && !(rc->opts.flags & CGW_COMPACT) &&
            all_zero(rec->costs, rec->part->nevents))
            return CGW_OK;
        return cgw_write_record(w, rec);
    default:
        return cgw_write_record(w, rec);
    }
}

cgw_status cgw_recode(cgw_reader *r, cgw_writer *w, unsigned flags)
{
    recoder rc = { .w = w };
    cgw_status st = cgw_get_options(w, &rc.opts);
    if (st != CGW_OK || (st = cgw_error(w)) != CGW_OK)
        return st;
    if (cgw_get_state(w) != CGW_STATE_HEADER)
        return cgw_set_error(w, CGW_EUSAGE, "cgw_recode",
                             "not allowed after the first part's header has ended");
    if (r == NULL || (flags & ~(unsigned)CGW_RECODE_JUMPS))
        return cgw_set_error(w, r == NULL ? CGW_EUSAGE : CGW_EINVAL, "cgw_recode",
                             r == NULL ? "the reader is NULL" : "unknown flags %#x", flags);
    unsigned kinds[CGW_NPOS_MAX];
    rc.npos = cgw_pos_kinds(rc.opts.positions, kinds);
    held h = { 0 };
    const cgw_record *rec;
    cgw_record copy;
    uint64_t pos[CGW_NPOS_MAX], tpos[CGW_NPOS_MAX];
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        unsigned from = rec->part->positions, to = rc.opts.positions;
        if (rec->pos != NULL && from != to) {
            copy = *rec;
            if (narrow(from, to, rec->pos, pos) < 0 ||
                (rec->target_pos != NULL && narrow(from, to, rec->target_pos, tpos) < 0)) {
                st = cgw_set_error(w, CGW_EINVAL, "cgw_recode",
                                   "line %llu: the input has no position the writer needs",
                                   (unsigned long long)rec->line);
                break;
            }
            copy.pos = pos;
            copy.target_pos = rec->target_pos != NULL ? tpos : NULL;
            rec = &copy;
        }
        if ((st = recode_one(&rc, &h, rec, flags)) != CGW_OK)
            break;
    }
    if (st == CGW_OK)
        st = flush_held(w, &h);
    if (h.costs != NULL)
        rc.opts.allocator->free(rc.opts.allocator->ctx, h.costs);
    if (st == CGW_OK && cgw_error(w) == CGW_OK)
        return CGW_OK;
    if (cgw_error(w) == CGW_OK) /* the reader failed */
        return cgw_set_error(w, st, "cgw_recode", "reading: %s", cgw_reader_errmsg(r));
    return cgw_error(w);
}
