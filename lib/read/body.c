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

const char *cgwr_skip(cgw_reader *r, const char *cur, const char *end)
{
    while (cur < end && cgwr_blank(*cur)) {
        if (*cur == '\t')
            cgwr_diag(r, r->lineno, CGWR_TAB,
                      "tab as a separator (KCachegrind drops the costs, gprof2dot stops)");
        cur++;
    }
    return cur;
}

const char *cgwr_bad_position(cgw_reader *r, const char *cur, const char *end)
{
    cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER,
              "malformed position \"%.*s\" (expected %zu of number, 0xHEX, +N, -N or *)",
              cgwr_clip(cur, end, 40), cur, r->part.pub.npos);
    return NULL;
}

void cgwr_big_line(cgw_reader *r, uint64_t line)
{
    cgwr_diag(r, r->lineno, CGWR_BIG_POSITION,
              "line %llu is 2^32 or more (KCachegrind reads line numbers as 32 bits)",
              (unsigned long long)line);
}

/* A step of value from base, sign '+' or '-' (flags: its number's): the
 * position, after the step's diagnostics; NULL after an error. */
static const char *step(cgw_reader *r, char sign, uint64_t value, int flags, uint64_t base,
                        uint64_t *out, const char *next)
{
    if ((value >> 31) != 0)
        cgwr_diag(r, r->lineno, CGWR_BIG_POSITION,
                  "a relative step of 2^31 or more (KCachegrind adds steps in 32 bits and "
                  "misplaces an address's costs)");
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
    *out = sign == '+' ? base + value : base - value;
    return next;
}

const char *cgwr_subposition_rare(cgw_reader *r, const char *cur, const char *end,
                                  uint64_t base, uint64_t *out, int *relative, int *decimal)
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
        return cgwr_bad_position(r, cur, end);
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
    if (is_step) {
        *relative = 1;
        return step(r, sign, value, flags, base, out, next);
    }
    *decimal = !(flags & CGWR_NUM_HEX);
    *out = value;
    return next;
}

const char *cgwr_cost_rare(cgw_reader *r, const char *cur, const char *end, size_t index,
                           uint64_t *value, int *flags)
{
    const char *next = cgwr_number(cur, end, value, flags);
    if (next == NULL || (next < end && !cgwr_blank(*next))) {
        cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER, "cost %zu is not an unsigned number: \"%.*s\"",
                  index + 1, cgwr_clip(cur, end, 30), cur);
        return NULL;
    }
    return next;
}

int cgwr_costs_checked(cgw_reader *r, int flags)
{
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
    if (r->fn == NULL && !cgwr_open_function(r)) {
        cgwr_diag(r, r->lineno, CGWR_COST_BEFORE_FUNCTION, "cost line before any fn=");
        call->kind = 0;
        return;
    }
    uint64_t pos[CGW_NPOS_MAX], *costs = r->costs[r->nq];
    int few = 0;
    if (cgwr_position_tokens(r, cur, end, pos, costs, &few, CGWR_COMPLETE) == NULL) {
        call->kind = 0;
        return;
    }
    cgwr_emit_position(r, pos, costs);
}

const char *cgwr_counts_rare(cgw_reader *r, cgw_record_kind kind, const char *cur,
                             const char *end, uint64_t *count, uint64_t *executed)
{
    const char *what = kind == CGW_REC_CALL ? "calls=" : kind == CGW_REC_JUMP ? "jump=" : "jcnd=";
    int flags = 0;
    *executed = 0;
    cur = cgwr_skip(r, cur, end); /* "calls=" Space* Number: blanks may follow the '=' */
    const char *next = cgwr_number(cur, end, count, &flags);
    if (next != NULL && kind == CGW_REC_COND_JUMP) {
        if (next < end && (*next == '/' || cgwr_blank(*next)))
            next = cgwr_number(cgwr_skip(r, next + 1, end), end, executed, &flags);
        else
            next = NULL;
    }
    if (next == NULL || (next < end && !cgwr_blank(*next)) || (flags & CGWR_NUM_OVERFLOW)) {
        cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                  "%s expects %s then a target position", what,
                  kind == CGW_REC_COND_JUMP ? "FOLLOWED/EXECUTED" : "a count");
        return NULL;
    }
    return cgwr_skip(r, next, end);
}

void cgwr_call_refused(cgw_reader *r, cgw_record_kind kind, uint64_t count, uint64_t executed)
{
    if (r->fn == NULL)
        cgwr_diag(r, r->lineno, CGWR_COST_BEFORE_FUNCTION, "%s before any fn=",
                  kind == CGW_REC_CALL ? "calls=" : kind == CGW_REC_JUMP ? "jump=" : "jcnd=");
    else if (kind == CGW_REC_COND_JUMP)
        cgwr_diag(r, r->lineno, CGWR_JUMP_FOLLOWED,
                  "jcnd= followed %llu times but executed %llu times (FOLLOWED <= EXECUTED)",
                  (unsigned long long)count, (unsigned long long)executed);
    else
        cgwr_diag(r, r->lineno, CGWR_NO_CALLEE,
                  "calls= with no cfn= before it in the part (KCachegrind crashes, "
                  "or reads the call when a cfn= comes before its cost line)");
}

void cgwr_call_notes(cgw_reader *r, uint64_t count)
{
    if (!r->cfn_fresh)
        cgwr_diag(r, r->lineno, CGWR_CALL_WITHOUT_CFN,
                  "calls= reuses the callee of the previous call (speedscope and "
                  "Qt Creator lose it)");
    if (count == 0)
        cgwr_diag(r, r->lineno, CGWR_CALLS_ZERO,
                  "calls=0 (callgrind_annotate turns the call into self cost)");
}

static void call_line(cgw_reader *r, cgw_record_kind kind, const char *cur, const char *end)
{
    uint64_t count, executed;
    r->call.kind = 0;
    if (cgwr_call_tokens(r, kind, cur, end, &count, &executed, CGWR_COMPLETE) != NULL)
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
    size_t key_len = 0;
    enum cgwr_spec_key key = len >= 2 && len <= 3 ? cgwr_spec_key(keyword, &key_len)
                                                  : CGWR_KEY_NONE;
    if (key_len != len)
        key = CGWR_KEY_NONE;
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
    /* the inline reader of the fast path first, on a line that ends in
     * its '\n'; any other value by the complete branch */
    int kind = cgwr_key_kind(key);
    cgwr_name_form f = { NULL, 0, 0, 0, NULL };
    const cgwr_str *name;
    if (!r->unterminated && *end == '\n' && cgwr_plain_value(r, kind, value, end, &f, 0) == end)
        name = cgwr_form_name(r, kind, &f);
    else
        name = cgwr_name(r, kind, value, (size_t)(end - value));
    if (name != NULL)
        cgwr_spec_apply(r, key, name);
}
