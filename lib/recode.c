/* recode.c - a reader's records written again through a writer: the one
 * place that maps records to writer calls (cgverify --roundtrip), and
 * whole files recoded (cgrecode). */
#include <string.h>

#include "internal.h"

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
    if (w == NULL)
        return CGW_EUSAGE;
    if (w->err != CGW_OK)
        return w->err;
    if (rec == NULL) {
        w->call = "cgw_write_record";
        return cgwp_fail(w, CGW_EUSAGE, "the record is NULL");
    }
    size_t n = rec->part->nevents;
    cgw_status st = CGW_OK;
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
    w->call = "cgw_write_record";
    return cgwp_fail(w, CGW_EINVAL, "unknown record kind %d", (int)rec->kind);
}

/* ------------------------------------------------------ whole-file recode */

/* Subpositions of mask `from` narrowed to mask `to` (canonical order:
 * instr, bb, line); -1 when `to` wants one that `from` lacks. */
static int narrow(unsigned from, unsigned to, const uint64_t *in, uint64_t *out)
{
    static const unsigned order[] = { CGW_POS_INSTR, CGW_POS_BB, CGW_POS_LINE };
    size_t i = 0, j = 0;
    for (size_t k = 0; k < 3; k++) {
        if (!(from & order[k])) {
            if (to & order[k])
                return -1;
            continue;
        }
        if (to & order[k])
            out[j++] = in[i];
        i++;
    }
    return 0;
}

/* A cost line held back while the next ones fall on the same position of
 * the same block: narrowed positions repeat, and one line says it all. */
typedef struct held {
    int valid;
    uint64_t pos[CGWP_NPOS_MAX];
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
static int merge(held *h, const cgw_record *rec, int npos)
{
    if (!h->valid || rec->function != h->rec.function ||
        rec->source_file != h->rec.source_file ||
        memcmp(rec->pos, h->pos, (size_t)npos * sizeof *h->pos) != 0)
        return 0;
    for (size_t i = 0; i < h->n; i++)
        if (rec->costs[i] > UINT64_MAX - h->costs[i])
            return 0;
    for (size_t i = 0; i < h->n; i++)
        h->costs[i] += rec->costs[i];
    return 1;
}

static cgw_status hold(cgw_writer *w, held *h, const cgw_record *rec)
{
    size_t n = rec->part->nevents;
    if (n > h->n) {
        uint64_t *c = cgwp_realloc(w, h->costs, n * sizeof *c);
        if (c == NULL)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory for %zu events", n);
        h->costs = c;
    }
    h->n = n;
    memcpy(h->costs, rec->costs, n * sizeof *h->costs);
    memcpy(h->pos, rec->pos, (size_t)w->npos * sizeof *h->pos);
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
static cgw_status recode_one(cgw_writer *w, held *h, const cgw_record *rec, unsigned flags)
{
    if (rec->kind == CGW_REC_COST && merge(h, rec, w->npos))
        return CGW_OK;
    cgw_status st = flush_held(w, h);
    if (st != CGW_OK)
        return st;
    switch (rec->kind) {
    case CGW_REC_COST:
        return hold(w, h, rec);
    case CGW_REC_JUMP:
    case CGW_REC_COND_JUMP:
        return (flags & CGW_RECODE_JUMPS) ? cgw_write_record(w, rec) : CGW_OK;
    case CGW_REC_CALL:
        /* calls=0, as Callgrind writes after zeroing counters: nothing is
         * lost by dropping one without cost where the writer refuses it */
        if (rec->count == 0 && !(w->flags & CGW_COMPACT) &&
            all_zero(rec->costs, rec->part->nevents))
            return CGW_OK;
        return cgw_write_record(w, rec);
    default:
        return cgw_write_record(w, rec);
    }
}

cgw_status cgw_recode(cgw_reader *r, cgw_writer *w, unsigned flags)
{
    cgw_status st = cgwp_enter(w, "cgw_recode", CGWP_ST_HEADER);
    if (st != CGW_OK)
        return st;
    if (r == NULL || (flags & ~(unsigned)CGW_RECODE_JUMPS))
        return cgwp_fail(w, r == NULL ? CGW_EUSAGE : CGW_EINVAL,
                         r == NULL ? "the reader is NULL" : "unknown flags %#x", flags);
    held h = { 0 };
    const cgw_record *rec;
    cgw_record copy;
    uint64_t pos[CGWP_NPOS_MAX], tpos[CGWP_NPOS_MAX];
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        unsigned from = rec->part->positions;
        if (rec->pos != NULL && from != w->positions) {
            copy = *rec;
            if (narrow(from, w->positions, rec->pos, pos) < 0 ||
                (rec->target_pos != NULL &&
                 narrow(from, w->positions, rec->target_pos, tpos) < 0)) {
                w->call = "cgw_recode";
                st = cgwp_fail(w, CGW_EINVAL,
                               "line %llu: the input has no position the writer needs",
                               (unsigned long long)rec->line);
                break;
            }
            copy.pos = pos;
            copy.target_pos = rec->target_pos != NULL ? tpos : NULL;
            rec = &copy;
        }
        if ((st = recode_one(w, &h, rec, flags)) != CGW_OK)
            break;
    }
    if (st == CGW_OK)
        st = flush_held(w, &h);
    cgwp_free(w, h.costs);
    if (st == CGW_OK && w->err == CGW_OK)
        return CGW_OK;
    if (w->err == CGW_OK) { /* the reader failed */
        w->call = "cgw_recode";
        return cgwp_fail(w, st, "reading: %s", cgw_reader_errmsg(r));
    }
    return w->err;
}
