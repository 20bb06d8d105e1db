/* recode.c - a reader's record written again through a writer: the one
 * place that maps records to writer calls (cgverify --roundtrip, cgrecode). */
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
