/* SPDX-License-Identifier: MIT */
/* recode.c - a reader's records written again through a writer: the one
 * place that maps records to writer calls (cgverify --roundtrip), and
 * whole files recoded (cgrecode). */
#include <string.h>

#include "calls.h"
#include "cgw.h"

static cgw_status part_header(cgw_writer *w, const cgw_part *part)
{
    cgw_status st = CGW_OK;
    if (part->index > 1) {
        st = cgw_new_part(w);
    } else {
        if (part->creator != NULL)
            st = cgw_set_creator(w, part->creator);
        if (st == CGW_OK && part->cmd != NULL)
            st = cgw_set_cmd(w, part->cmd);
        if (st == CGW_OK && part->has_pid)
            st = cgw_set_pid(w, part->pid);
        for (size_t i = 0; st == CGW_OK && i < part->nevents; i++)
            st = cgw_add_event(w, part->events[i].name, part->events[i].long_name);
        for (size_t i = 0; st == CGW_OK && i < part->nderived; i++)
            st = cgw_add_derived_event(w, part->derived[i].name, part->derived[i].formula,
                                       part->derived[i].long_name);
    }
    if (st == CGW_OK && part->has_thread)
        st = cgw_set_thread(w, part->thread);
    for (size_t i = 0; st == CGW_OK && i < part->ndescs; i++)
        st = cgw_add_desc(w, part->descs[i].type, part->descs[i].value);
    if (st == CGW_OK && part->summary != NULL)
        st = cgw_set_summary(w, part->summary, part->nevents);
    return st;
}

cgw_status cgw_write_record(cgw_writer *w, const cgw_record *rec)
{
    cgw_status st = cgw_error(w);
    if (w == NULL || st != CGW_OK)
        return w == NULL ? CGW_EUSAGE : st;
    if (rec == NULL)
        return cgw_set_error(w, CGW_EUSAGE, "cgw_write_record", "the record is NULL");
    size_t nevents = rec->part->nevents;
    cgw_target target = rec->target; /* a record's NULL object is none */
    if (target.object == NULL)
        target.object = CGW_NO_OBJECT;
    switch (rec->kind) {
    case CGW_REC_PART:
        return part_header(w, rec->part);
    case CGW_REC_FUNCTION:
        st = cgw_object(w, rec->object); /* NULL: no object */
        if (st == CGW_OK)
            st = cgw_file(w, rec->file);
        return st == CGW_OK ? cgw_function(w, rec->function) : st;
    case CGW_REC_INLINE:
        return cgw_inline_file(w, rec->source_file);
    case CGW_REC_COST:
        return cgw_cost(w, rec->pos, rec->costs, nevents);
    case CGW_REC_CALL:
        return cgw_call(w, &target, rec->count, rec->target_pos, rec->pos, rec->costs,
                        nevents);
    case CGW_REC_JUMP:
        return cgw_jump(w, &target, rec->count, rec->target_pos, rec->pos);
    case CGW_REC_COND_JUMP:
        return cgw_cond_jump(w, &target, rec->count, rec->executed, rec->target_pos,
                             rec->pos);
    case CGW_REC_PART_END:
        return CGW_OK;
    }
    return cgw_set_error(w, CGW_EINVAL, "cgw_write_record", "unknown record kind %d",
                         (int)rec->kind);
}

/* ------------------------------------------------------ whole-file recode */

/* Subpositions of mask `from` narrowed to mask `to` (both in
 * position-array order; CGW_POS_NONE: none); -1 when `to` wants one
 * that `from` lacks. */
static int narrow(unsigned from, unsigned to, const uint64_t *in, uint64_t *out)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t nkinds = cgw_pos_kinds(from, kinds), j = 0;
    if (to == CGW_POS_NONE)
        return 0;
    if ((to & from) != to)
        return -1;
    for (size_t i = 0; i < nkinds; i++)
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
    int header_summary; /* the current part's header gave its summary: */
} recoder;

typedef struct held {
    int valid;
    uint64_t pos[CGW_NPOS_MAX];
    uint64_t *costs;
    size_t n;
    cgw_record rec;
} held;

static cgw_status flush_held(cgw_writer *w, held *pending)
{
    if (!pending->valid)
        return CGW_OK;
    pending->valid = 0;
    return cgw_write_record(w, &pending->rec);
}

/* Add rec's costs to the held line when it is the same place (the npos
 * positions the writer writes, all that rec->pos holds); 1 if so. */
static int merge(held *pending, const cgw_record *rec, size_t npos)
{
    if (!pending->valid || rec->function != pending->rec.function ||
        rec->source_file != pending->rec.source_file ||
        memcmp(rec->pos, pending->pos, npos * sizeof *pending->pos) != 0)
        return 0;
    for (size_t i = 0; i < pending->n; i++)
        if (rec->costs[i] > UINT64_MAX - pending->costs[i])
            return 0;
    for (size_t i = 0; i < pending->n; i++)
        pending->costs[i] += rec->costs[i];
    return 1;
}

static cgw_status hold(const recoder *rc, held *pending, const cgw_record *rec)
{
    size_t nevents = rec->part->nevents;
    if (nevents > pending->n) {
        const cgw_allocator *alloc = rc->opts.allocator;
        uint64_t *grown = pending->costs
                              ? alloc->realloc(alloc->ctx, pending->costs, nevents * sizeof *grown)
                              : alloc->malloc(alloc->ctx, nevents * sizeof *grown);
        if (grown == NULL)
            return cgw_set_error(rc->w, CGW_ENOMEM, "cgw_recode",
                                 "out of memory for %zu events", nevents);
        pending->costs = grown;
    }
    pending->n = nevents;
    if (nevents > 0) /* both may be NULL then; memcpy() must not see it */
        memcpy(pending->costs, rec->costs, nevents * sizeof *pending->costs);
    memcpy(pending->pos, rec->pos, rc->npos * sizeof *pending->pos);
    pending->rec = *rec;
    pending->rec.pos = pending->pos;
    pending->rec.costs = pending->costs;
    pending->valid = 1;
    return CGW_OK;
}

/* A call as the writer takes it (cgwp_call_count()). */
static cgw_status recode_call(const recoder *rc, const cgw_record *rec)
{
    cgw_record call = *rec;
    if (!cgwp_call_count(&call.count, rec->costs, rec->part->nevents, rc->opts.flags))
        return CGW_OK;
    return cgw_write_record(rc->w, &call);
}

/* One record of cgw_recode(), with positions already narrowed. */
static cgw_status recode_one(recoder *rc, held *pending, const cgw_record *rec,
                             unsigned flags)
{
    cgw_writer *w = rc->w;
    if (rec->kind == CGW_REC_COST && merge(pending, rec, rc->npos))
        return CGW_OK;
    cgw_status st = flush_held(w, pending);
    if (st != CGW_OK)
        return st;
    switch (rec->kind) {
    case CGW_REC_COST:
        return hold(rc, pending, rec);
    case CGW_REC_PART:
        rc->header_summary = rec->part->summary != NULL;
        return cgw_write_record(w, rec);
    case CGW_REC_PART_END:
        /* a summary: after the body (Cachegrind writes it last) */
        if (rec->summary != NULL && !rc->header_summary)
            return cgw_set_summary(w, rec->summary, rec->part->nevents);
        return CGW_OK;
    case CGW_REC_JUMP:
    case CGW_REC_COND_JUMP:
        return (flags & CGW_RECODE_JUMPS) ? cgw_write_record(w, rec) : CGW_OK;
    case CGW_REC_CALL:
        return recode_call(rc, rec);
    default:
        return cgw_write_record(w, rec);
    }
}

cgw_status cgw_recode(cgw_reader *r, cgw_writer *w, unsigned flags)
{
    recoder rc = { .w = w, .opts = CGW_OPTIONS_INIT };
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
    held pending = { 0 };
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
        if ((st = recode_one(&rc, &pending, rec, flags)) != CGW_OK)
            break;
    }
    if (st == CGW_OK)
        st = flush_held(w, &pending);
    if (pending.costs != NULL)
        rc.opts.allocator->free(rc.opts.allocator->ctx, pending.costs);
    if (st == CGW_OK && cgw_error(w) == CGW_OK)
        return CGW_OK;
    if (cgw_error(w) == CGW_OK) /* the reader failed */
        return cgw_set_error(w, st, "cgw_recode", "reading: %s", cgw_reader_errmsg(r));
    return cgw_error(w);
}
