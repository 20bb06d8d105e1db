/* SPDX-License-Identifier: MIT */
/* body.c - the general parser of body lines: spec lines (ob= fl= fi=
 * fe= fn= cob= cfi= cfn= calls= jump= jcnd= jfi= jfn=) and position lines
 * (costs, and the source lines of calls and jumps), with every
 * diagnostic.  The fast path (fast.c) takes the common lines that need
 * none.  Relative positions count from the previous position line, call
 * and jump source lines included; call and jump targets do not move that
 * base. */
#include <string.h>

#include "emit.h"
#include "scan.h"

/* The start of the next token, noting tabs. */
static const char *skip(cgw_reader *r, const char *cur, const char *end)
{
    while (cur < end && cgwr_blank(*cur)) {
        if (*cur == '\t')
            cgwr_diag(r, r->lineno, CGWR_TAB,
                      "tab as a separator (KCachegrind drops the costs, gprof2dot stops)");
        cur++;
    }
    return cur;
}

/* One subposition at cur (before end) into *out, counted from base when
 * it is relative (*relative is then set; *decimal is set when it is
 * absolute and decimal).  Returns its end; NULL when it is malformed
 * (*reported stays 0: the caller says so) or out of range (reported here,
 * *reported set). */
static const char *subposition(cgw_reader *r, const char *cur, const char *end, uint64_t base,
                               uint64_t *out, int *relative, int *decimal, int *reported)
{
    int flags = 0;
    uint64_t value;
    char sign = *cur;
    if (sign == '*') {
        *relative = 1;
        *out = base;
        return cur + 1;
    }
    int is_step = sign == '+' || sign == '-';
    const char *next = cgwr_number(cur + is_step, end, &value, &flags);
    if (next == NULL)
        return NULL;
    *reported = 1;
    if (flags & CGWR_NUM_0X_UPPER) {
        cgwr_diag(r, r->lineno, CGWR_HEX_PREFIX,
                  "position with a 0X prefix (KCachegrind and callgrind_annotate read 0)");
        return NULL;
    }
    if (flags & CGWR_NUM_OVERFLOW) {
        cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "position passes 2^64-1");
        return NULL;
    }
    if (flags & CGWR_NUM_UPPER)
        cgwr_diag(r, r->lineno, CGWR_UPPERCASE_HEX,
                  "uppercase hex (Qt Creator reads lowercase only)");
    if (!is_step) {
        *reported = 0;
        *decimal = !(flags & CGWR_NUM_HEX);
        *out = value;
        return next;
    }
    *relative = 1;
    if ((value >> 31) != 0)
        cgwr_diag(r, r->lineno, CGWR_BIG_POSITION,
                  "a relative step of 2^31 or more (KCachegrind reads steps as 32 bits and "
                  "misplaces the costs)");
    if (flags & CGWR_NUM_HEX)
        cgwr_diag(r, r->lineno, CGWR_HEX_STEP,
                  "a relative step in hex, as the grammar allows (callgrind_annotate and "
                  "gprof2dot drop the line)");
    if (sign == '+' && value > UINT64_MAX - base) {
        cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "position +%llu passes 2^64-1",
                  (unsigned long long)value);
        return NULL;
    }
    if (sign == '-' && value > base) {
        cgwr_diag(r, r->lineno, CGWR_NEGATIVE_POSITION,
                  "relative position -%llu from %llu is negative", (unsigned long long)value,
                  (unsigned long long)base);
        return NULL;
    }
    *reported = 0;
    *out = sign == '+' ? base + value : base - value;
    return next;
}

/* The warnings cgwr_scan() noted on a position line (CGWR_NOTE_*), in
 * the order the line gives them; positions() and costs() report theirs
 * through it too. */
CGWP_COLD void cgwr_position_notes(cgw_reader *r, uint64_t notes)
{
    if (notes & CGWR_NOTE_RELATIVE_FIRST)
        cgwr_diag(r, r->lineno, CGWR_RELATIVE_FIRST,
                  "relative position on the first line of a function block");
    if (notes & CGWR_NOTE_BIG)
        cgwr_diag(r, r->lineno, CGWR_BIG_VALUE,
                  "a cost of 2^53 or more (gprof2dot and speedscope lose precision)");
    if (notes & CGWR_NOTE_FEW)
        cgwr_diag(r, r->lineno, CGWR_FEW_COSTS,
                  "%zu costs for %zu events (speedscope reads the missing ones as NaN)",
                  (size_t)(notes >> CGWR_NOTE_SHIFT), r->nevents);
}

CGWP_COLD const char *cgwr_scan_finish(cgw_reader *r, const char *cur, uint64_t *costs,
                                       size_t ncosts, uint64_t any)
{
    size_t ne = r->nevents;
    uint64_t notes = r->notes | CGWR_NOTE_READ;
    r->notes = 0;
    if ((cur = cgwr_scan_costs(cur, ne, costs, &ncosts, &any)) == NULL)
        return NULL;
    if (any >= CGWR_BIG_COST)
        notes |= CGWR_NOTE_BIG;
    if (ncosts != ne) {
        memset(costs + ncosts, 0, (ne - ncosts) * sizeof *costs);
        if (r->call.kind != CGW_REC_JUMP && r->call.kind != CGW_REC_COND_JUMP)
            notes |= CGWR_NOTE_FEW | (uint64_t)ncosts << CGWR_NOTE_SHIFT;
    }
    r->notes = notes;
    r->notes_stop = cur;
    return NULL;
}

CGWP_COLD const char *cgwr_scan_relative_first(cgw_reader *r, const char *cur, uint64_t *costs)
{
    r->notes = CGWR_NOTE_RELATIVE_FIRST;
    return cgwr_scan_finish(r, cur, costs, 0, 0);
}

/* Parse npos subpositions into out (canonical order).  is_target: a call
 * or jump target, which does not move the base.  NULL on error (reported). */
static const char *positions(cgw_reader *r, const char *cur, const char *end, uint64_t *out,
                             int is_target)
{
    size_t npos = r->part.pub.npos;
    int relative = 0, reported = 0, line_decimal = 0;
    for (size_t i = 0; i < npos; i++) {
        if (i > 0) {
            if (cur < end && !cgwr_blank(*cur))
                goto bad;
            cur = skip(r, cur, end);
        }
        int slot = r->pos_order[i];
        if (cur == end) {
            if (is_target) { /* calls= with no target: KCachegrind's converters */
                out[slot] = 0;
                continue;
            }
            goto bad;
        }
        int decimal = 0;
        const char *next = subposition(r, cur, end, r->base[slot], &out[slot], &relative,
                                       &decimal, &reported);
        if (next == NULL)
            goto bad;
        if (slot == (int)npos - 1 && (r->part.pub.positions & CGW_POS_LINE))
            line_decimal = decimal;
        cur = next;
    }
    /* a line written in decimal (the array's last subposition) */
    if (line_decimal && (out[npos - 1] >> 32) != 0)
        cgwr_diag(r, r->lineno, CGWR_BIG_POSITION,
                  "line %llu is 2^32 or more (KCachegrind reads line numbers as 32 bits)",
                  (unsigned long long)out[npos - 1]);
    if (npos > 0 && cur < end && !cgwr_blank(*cur)) /* none: the costs start here */
        goto bad;
    if (relative && !is_target && (r->first_in_block || !r->seen_cost))
        cgwr_position_notes(r, CGWR_NOTE_RELATIVE_FIRST);
    if (!is_target)
        cgwr_set_base(r, out);
    return cur;
bad:
    if (!reported)
        cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER,
                  "malformed position \"%.*s\" (expected %zu of number, 0xHEX, +N, -N or *)",
                  cgwr_clip(cur, end, 40), cur, npos);
    return NULL;
}

/* Costs after the positions into out[nevents]; -1 on error (reported).
 * A jump's source line has none, as Callgrind writes it. */
static int costs(cgw_reader *r, const char *cur, const char *end, uint64_t *out, int is_jump)
{
    size_t ncosts = 0, ne = r->nevents;
    uint64_t any = 0;
    int flags = 0;
    for (;;) {
        cur = skip(r, cur, end);
        if (cur == end)
            break;
        uint64_t value;
        const char *next = cgwr_number(cur, end, &value, &flags);
        if (next == NULL || (next < end && !cgwr_blank(*next))) {
            cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER,
                      "cost %zu is not an unsigned number: \"%.*s\"", ncosts + 1,
                      cgwr_clip(cur, end, 30), cur);
            return -1;
        }
        if (ncosts == ne) {
            cgwr_diag(r, r->lineno, CGWR_TOO_MANY_COSTS,
                      "more than %zu costs for the %zu events; the rest are ignored", ne, ne);
            break;
        }
        out[ncosts++] = value;
        any |= value;
        cur = next;
    }
    if (flags & CGWR_NUM_OVERFLOW) {
        cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "a cost passes 2^64-1");
        return -1;
    }
    if (flags & CGWR_NUM_0X_UPPER) {
        cgwr_diag(r, r->lineno, CGWR_HEX_PREFIX,
                  "a cost with a 0X prefix (KCachegrind and callgrind_annotate read 0)");
        return -1;
    }
    if (flags & CGWR_NUM_HEX)
        cgwr_diag(r, r->lineno, CGWR_HEX_COST,
                  "hex cost (callgrind_annotate and Qt Creator read it as 0)");
    uint64_t notes = any >= CGWR_BIG_COST ? CGWR_NOTE_BIG : 0;
    if (ncosts < ne) {
        if (!is_jump)
            notes |= CGWR_NOTE_FEW | (uint64_t)ncosts << CGWR_NOTE_SHIFT;
        memset(out + ncosts, 0, (ne - ncosts) * sizeof *out);
    }
    if (notes)
        cgwr_position_notes(r, notes);
    return 0;
}

void cgwr_position_line(cgw_reader *r, const char *cur, const char *end)
{
    cgwr_pending *call = &r->call;
    if (r->nevents == 0) {
        cgwr_diag(r, r->lineno, CGWR_COST_BEFORE_EVENTS,
                  "cost line before events: (KCachegrind rejects the file)");
        return;
    }
    if (r->fn == NULL) {
        cgwr_diag(r, r->lineno, CGWR_COST_BEFORE_FUNCTION, "cost line before any fn=");
        call->kind = 0;
        return;
    }
    uint64_t pos[CGW_NPOS_MAX], *line_costs = r->costs[r->nq];
    /* an unterminated line has nothing readable after it: the scanner
     * needs a byte that stops it */
    int few = 0;
    const char *stop = r->unterminated ? NULL : cgwr_scan(r, cur, end, pos, line_costs, &few);
    uint64_t notes = r->notes;
    if (stop == NULL && notes != 0)
        stop = r->notes_stop;
    r->notes = 0;
    if (stop != end) {
        int is_jump = call->kind == CGW_REC_JUMP || call->kind == CGW_REC_COND_JUMP;
        cur = positions(r, cur, end, pos, 0);
        if (cur == NULL || costs(r, cur, end, line_costs, is_jump) < 0) {
            call->kind = 0;
            return;
        }
    } else {
        if (notes)
            cgwr_position_notes(r, notes);
        if (few)
            cgwr_count_few(r, 1);
        cgwr_set_base(r, pos);
    }
    cgwr_emit_position(r, pos, line_costs);
}

static void call_line(cgw_reader *r, cgw_record_kind kind, const char *cur, const char *end)
{
    cgwr_pending *call = &r->call;
    const char *what = kind == CGW_REC_CALL ? "calls=" : kind == CGW_REC_JUMP ? "jump=" : "jcnd=";
    int flags = 0;
    uint64_t count, executed = 0;
    call->kind = 0;
    cur = skip(r, cur, end); /* "calls=" Space* Number: blanks may follow the '=' */
    const char *next = cgwr_number(cur, end, &count, &flags);
    if (next != NULL && kind == CGW_REC_COND_JUMP) {
        if (next < end && (*next == '/' || cgwr_blank(*next)))
            next = cgwr_number(skip(r, next + 1, end), end, &executed, &flags);
        else
            next = NULL;
    }
    if (next == NULL || (next < end && !cgwr_blank(*next)) || (flags & CGWR_NUM_OVERFLOW)) {
        cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                  "%s expects %s then a target position", what,
                  kind == CGW_REC_COND_JUMP ? "FOLLOWED/EXECUTED" : "a count");
        return;
    }
    if (r->fn == NULL) {
        cgwr_diag(r, r->lineno, CGWR_COST_BEFORE_FUNCTION, "%s before any fn=", what);
        return;
    }
    if (kind == CGW_REC_COND_JUMP && count > executed) {
        cgwr_diag(r, r->lineno, CGWR_JUMP_FOLLOWED,
                  "jcnd= followed %llu times but executed %llu times (FOLLOWED <= EXECUTED)",
                  (unsigned long long)count, (unsigned long long)executed);
        return;
    }
    if (kind == CGW_REC_CALL && r->cfn == NULL) {
        cgwr_diag(r, r->lineno, CGWR_NO_CALLEE,
                  "calls= with no cfn= before it in the part (KCachegrind crashes)");
        return;
    }
    if (r->nevents == 0 || positions(r, skip(r, next, end), end, call->target_pos, 1) == NULL)
        return;
    if (kind == CGW_REC_CALL) {
        if (!r->cfn_fresh)
            cgwr_diag(r, r->lineno, CGWR_CALL_WITHOUT_CFN,
                      "calls= reuses the callee of the previous call (speedscope and "
                      "Qt Creator lose it)");
        if (count == 0)
            cgwr_diag(r, r->lineno, CGWR_CALLS_ZERO,
                      "calls=0 (callgrind_annotate turns the call into self cost)");
    }
    cgwr_pend_call(r, kind, count, executed);
}


/* A key= line: its key the len bytes at keyword, its value value..end. */
void cgwr_spec_line(cgw_reader *r, const char *keyword, size_t len, const char *value,
                    const char *end)
{
#define KEY(lit) (len == sizeof(lit) - 1 && memcmp(keyword, lit, len) == 0)
    if (KEY("calls") || KEY("jump") || KEY("jcnd")) {
        if (!KEY("calls"))
            cgwr_kcachegrind_only(r, keyword, len);
        call_line(r, KEY("calls") ? CGW_REC_CALL : KEY("jump") ? CGW_REC_JUMP
                                                                : CGW_REC_COND_JUMP, value, end);
        return;
    }
    enum cgwr_spec_key key = CGWR_KEY_NONE;
    for (int i = 0; i < CGWR_KEY_NONE && len <= 3; i++)
        if (memcmp(cgwr_key_text[i], keyword, len) == 0 && cgwr_key_text[i][len] == '\0')
            key = (enum cgwr_spec_key)i;
    if (key == CGWR_KEY_NONE) {
        if (KEY("rec") || KEY("frfn") || KEY("ln") || KEY("bb")) {
            cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE,
                      "%.*s= (written by some Callgrind options) is ignored", (int)len, keyword);
            return;
        }
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_LINE, "unknown line kind \"%.*s=\"",
                  (int)(len > 40 ? 40 : len), keyword);
        return;
    }
#undef KEY
    const cgwr_str *name = cgwr_name(r, cgwr_key_kind(key), value, (size_t)(end - value));
    if (name != NULL)
        cgwr_spec_apply(r, key, name);
}
