/* SPDX-License-Identifier: MIT */
/* emit.h - what a parsed body line does to the reader: the position
 * base, the records handed out, the part's totals, the pending call or
 * jump and its callee.  The general parser (body.c) and the fast path
 * (fast.c) both end in these calls, so a line has one meaning whichever
 * reads it; the ones on the fast path are inline.  Never installed. */
#ifndef CGW_READ_EMIT_H
#define CGW_READ_EMIT_H

#include "read.h"

/* A position line starts with a digit, '+', '-' or '*'. */
static inline int cgwr_starts_position(char byte)
{
    return (byte >= '0' && byte <= '9') || byte == '+' || byte == '-' || byte == '*';
}

/* The keys of name lines, and the table (CGWR_OB, CGWR_FL, CGWR_FN) each
 * one's IDs are in. */
enum cgwr_spec_key { CGWR_KEY_OB, CGWR_KEY_COB, CGWR_KEY_FL, CGWR_KEY_FI, CGWR_KEY_FE, CGWR_KEY_CFI, CGWR_KEY_CFL, CGWR_KEY_CFE, CGWR_KEY_JFI, CGWR_KEY_FN, CGWR_KEY_CFN, CGWR_KEY_JFN,
                CGWR_KEY_NONE };
extern const char *const cgwr_key_text[CGWR_KEY_NONE];

static inline int cgwr_key_kind(enum cgwr_spec_key key)
{
    return key <= CGWR_KEY_COB ? CGWR_OB : key <= CGWR_KEY_JFI ? CGWR_FL : CGWR_FN;
}

/* emit.c */
void cgwr_totals_overflow(cgw_reader *r, const uint64_t *costs);
void cgwr_emit_call(cgw_reader *r, const uint64_t *pos, uint64_t *costs);
void cgwr_spec_apply(cgw_reader *r, enum cgwr_spec_key key, const cgwr_str *name);

/* emit.c: whether name is an absolute path in the working folder (out
 * of line, once a name). */
int cgwr_note_cwd(cgwr_str *name);

/* Whether name, a callee's file, is an absolute path in the working
 * folder, which callgrind_annotate strips from fl= names but not from
 * cfi= ones (so the general parser warns of it and the fast path leaves
 * the line to it). */
static inline int cgwr_in_cwd(const cgwr_str *name)
{
    if (name->s[0] != '/')
        return 0;
    return name->in_cwd ? name->in_cwd == 2 : cgwr_note_cwd((cgwr_str *)name);
}

/* Whether a cfi= of name, into slot, names the caller's own file by an
 * absolute path: callgrind_annotate then loses the callers, so the
 * general parser warns of it and the fast path leaves the line to it. */
static inline int cgwr_cfi_same_file(const cgw_reader *r, const cgwr_str *const *slot,
                                     const cgwr_str *name)
{
    return slot == &r->cfi && name == r->fi && name == r->cur_fl && name->s[0] == '/';
}

/* A cost or source line's positions become the base of relative ones. */
static inline void cgwr_set_base(cgw_reader *r, const uint64_t *pos)
{
    memcpy(r->base, pos, sizeof r->base);
    r->first_in_block = 0;
    r->seen_cost = 1;
}

/* The record every body record starts from: kind, line, context. */
static CGWP_HOT_INLINE cgw_record *cgwr_record(cgw_reader *r, cgw_record_kind kind)
{
    if (!r->part.announced)
        cgwr_announce_part(r);
    cgw_record *rec = cgwr_push(r, kind, r->lineno);
    rec->object = r->cur_ob ? r->cur_ob->s : NULL;
    rec->file = r->cur_fl->s;
    rec->function = r->fn->s;
    rec->source_file = r->fi->s;
    return rec;
}

/* The record of a position line: its positions and costs. */
static CGWP_HOT_INLINE cgw_record *cgwr_position_record(cgw_reader *r, cgw_record_kind kind,
                                                   const uint64_t *pos, uint64_t *costs)
{
    cgw_record *rec = cgwr_record(r, kind);
    memcpy(r->pos[rec - r->q], pos, sizeof r->pos[0]);
    rec->pos = r->pos[rec - r->q];
    rec->costs = costs;
    return rec;
}

/* Add costs[0..count) to totals[0..count) without a branch an event; 1
 * when a sum wrapped (a wrapped sum is smaller than what was added). */
static CGWP_HOT_INLINE int cgwr_add_wrapping(uint64_t *totals, const uint64_t *costs, size_t count)
{
    int wrapped = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t sum = totals[i] + costs[i];
        wrapped |= sum < costs[i];
        totals[i] = sum;
    }
    return wrapped;
}

/* A wrapped total is set to 2^64-1. */
static CGWP_HOT_INLINE void cgwr_add_totals(cgw_reader *r, const uint64_t *costs)
{
    if (cgwr_add_wrapping(r->part.totals, costs, r->nevents))
        cgwr_totals_overflow(r, costs);
}

/* A call's cost line, handed out or not: counted, and checked in check
 * mode.  The call goes to (ob, fl, fn) from line line. */
static CGWP_HOT_INLINE void cgwr_count_call(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                                       const cgwr_str *fn, uint64_t line, const uint64_t *costs)
{
    r->part.calls++;
    if (r->flags & CGW_READ_CHECK)
        cgwr_check_call(r, cgwr_function(r, ob, fl, fn, line), line, costs);
}

/* The record of a parsed position line: a cost, or the cost line of the
 * pending call or jump. */
static CGWP_HOT_INLINE void cgwr_emit_position(cgw_reader *r, const uint64_t *pos, uint64_t *costs)
{
    r->pending_fi = NULL;
    r->inline_costs = 1;
    if (r->call.kind) {
        cgwr_emit_call(r, pos, costs);
        return;
    }
    if (!(r->skip & CGW_SKIP(CGW_REC_COST)))
        cgwr_position_record(r, CGW_REC_COST, pos, costs);
    r->part.cost_lines++;
    cgwr_add_totals(r, costs);
}

/* Where a call or jump line of kind goes: a call to the callee named
 * since the last call or jump (cob= cfi= cfn=), a jump to jfi= jfn= or
 * within the function.  Those names are used up. */
static CGWP_HOT_INLINE void cgwr_take_target(cgw_reader *r, cgw_record_kind kind,
                                        const cgwr_str **ob, const cgwr_str **fl,
                                        const cgwr_str **fn)
{
    if (kind == CGW_REC_CALL) {
        *ob = r->cob == NULL ? r->cur_ob : r->cob == r->no_object ? NULL : r->cob;
        *fl = r->cfi ? r->cfi : r->fi;
        *fn = r->cfn;
        r->ss_callee_fl = r->ss_cfi ? r->ss_cfi : r->fl;
        r->ss_cfi = NULL;
    } else {
        *ob = r->cur_ob;
        *fl = r->jfi ? r->jfi : r->fi;
        *fn = r->jfn ? r->jfn : r->fn;
    }
    r->cob = r->cfi = r->jfi = r->jfn = NULL;
    r->cfn_fresh = 0;
}

/* A key= line (its key the len bytes at key) that only KCachegrind reads. */
static CGWP_HOT_INLINE void cgwr_kcachegrind_only(cgw_reader *r, const char *key, size_t len)
{
    if (!cgwr_warning_counted(r, CGWR_NONPORTABLE_LINE))
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE,
                  "%.*s= lines are read by KCachegrind only (speedscope reads the line "
                  "after jump= as a cost line)", (int)len, key);
}

/* A trailing blank on the line that starts at line: speedscope rejects a
 * cost line that ends so (blank), but takes it on any other line, a
 * call's or jump's cost line too, and so do the other readers
 * (trailing-blank, a note): Valgrind ends calls= lines and desc: lines
 * so. */
static CGWP_HOT_INLINE void cgwr_trailing_blank(cgw_reader *r, const char *line)
{
    int cost = cgwr_starts_position(line[0]) && r->call.kind == 0;
    if (cost && !cgwr_warning_counted(r, CGWR_BLANK))
        cgwr_diag(r, r->lineno, CGWR_BLANK, "trailing blank on a cost line (speedscope "
                  "rejects the file)");
    else if (!cost && !cgwr_warning_counted(r, CGWR_TRAILING_BLANK))
        cgwr_diag(r, r->lineno, CGWR_TRAILING_BLANK, "trailing blank (every reader takes it "
                  "here; Valgrind writes it after calls= and desc:)");
}

/* A call or jump line was read: its cost line comes next. */
static inline void cgwr_pend_call(cgw_reader *r, cgw_record_kind kind, uint64_t count,
                                  uint64_t executed)
{
    cgwr_pending *call = &r->call;
    cgwr_take_target(r, kind, &call->ob, &call->fl, &call->fn);
    call->kind = kind;
    call->count = count;
    call->executed = executed;
    call->line = r->lineno;
    call->saw_blank = 0;
}

#endif /* CGW_READ_EMIT_H */
