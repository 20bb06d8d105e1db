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
static const char *skip(cgw_reader *r, const char *p, const char *end)
{
    while (p < end && cgwr_blank(*p)) {
        if (*p == '\t')
            cgwr_diag(r, r->lineno, CGWR_TAB,
                      "tab as a separator (KCachegrind drops the costs, gprof2dot stops)");
        p++;
    }
    return p;
}

/* One subposition at p (before end) into *out, counted from base when
 * it is relative (*relative is then set).  Returns its end; NULL when it
 * is malformed (*reported stays 0: the caller says so) or out of range
 * (reported here, *reported set). */
static const char *subposition(cgw_reader *r, const char *p, const char *end, uint64_t base,
                               uint64_t *out, int *relative, int *reported)
{
    int flags = 0;
    uint64_t value;
    char sign = *p;
    if (sign == '*') {
        *relative = 1;
        *out = base;
        return p + 1;
    }
    if (sign != '+' && sign != '-') {
        const char *next = cgwr_number(p, end, &value, &flags);
        if (next == NULL)
            return NULL;
        if (flags & CGWR_NUM_OVERFLOW) {
            cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "position passes 2^64-1");
            *reported = 1;
            return NULL;
        }
        if (flags & CGWR_NUM_UPPER)
            cgwr_diag(r, r->lineno, CGWR_UPPERCASE_HEX,
                      "uppercase hex (Qt Creator reads lowercase only)");
        *out = value;
        return next;
    }
    *relative = 1;
    const char *next = cgwr_number(p + 1, end, &value, &flags);
    if (next == NULL || (flags & CGWR_NUM_HEX))
        return NULL;
    *reported = 1;
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

/* Parse npos subpositions into out (canonical order).  is_target: a call
 * or jump target, which does not move the base.  NULL on error (reported). */
static const char *positions(cgw_reader *r, const char *p, const char *end, uint64_t *out,
                             int is_target)
{
    size_t npos = r->part.pub.npos;
    int relative = 0, reported = 0;
    for (size_t i = 0; i < npos; i++) {
        if (i > 0) {
            if (p < end && !cgwr_blank(*p))
                goto bad;
            p = skip(r, p, end);
        }
        int slot = r->pos_order[i];
        if (p == end) {
            if (is_target) { /* calls= with no target: KCachegrind's converters */
                out[slot] = 0;
                continue;
            }
            goto bad;
        }
        const char *next = subposition(r, p, end, r->base[slot], &out[slot], &relative,
                                       &reported);
        if (next == NULL)
            goto bad;
        p = next;
    }
    if (p < end && !cgwr_blank(*p))
        goto bad;
    if (relative && !is_target && (r->first_in_block || !r->seen_cost))
        cgwr_diag(r, r->lineno, CGWR_RELATIVE_FIRST,
                  "relative position on the first line of a function block");
    if (!is_target)
        cgwr_set_base(r, out);
    return p;
bad:
    if (!reported)
        cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER,
                  "malformed position \"%.*s\" (expected %zu of number, 0xHEX, +N, -N or *)",
                  cgwr_clip(p, end, 40), p, npos);
    return NULL;
}

/* Costs after the positions into c[nevents]; -1 on error (reported).
 * A jump's source line has none, as Callgrind writes it. */
static int costs(cgw_reader *r, const char *p, const char *end, uint64_t *c, int is_jump)
{
    size_t n = 0, ne = r->nevents;
    uint64_t any = 0;
    int flags = 0;
    for (;;) {
        p = skip(r, p, end);
        if (p == end)
            break;
        uint64_t v;
        const char *q = cgwr_number(p, end, &v, &flags);
        if (q == NULL || (q < end && !cgwr_blank(*q))) {
            cgwr_diag(r, r->lineno, CGWR_BAD_NUMBER,
                      "cost %zu is not an unsigned number: \"%.*s\"", n + 1,
                      cgwr_clip(p, end, 30), p);
            return -1;
        }
        if (n == ne) {
            cgwr_diag(r, r->lineno, CGWR_TOO_MANY_COSTS,
                      "more than %zu costs for the %zu events; the rest are ignored", ne, ne);
            break;
        }
        c[n++] = v;
        any |= v;
        p = q;
    }
    if (flags & CGWR_NUM_OVERFLOW) {
        cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "a cost passes 2^64-1");
        return -1;
    }
    if (flags & CGWR_NUM_HEX)
        cgwr_diag(r, r->lineno, CGWR_HEX_COST,
                  "hex cost (callgrind_annotate and Qt Creator read it as 0)");
    if (any >= CGWR_BIG_COST)
        cgwr_diag(r, r->lineno, CGWR_BIG_VALUE,
                  "a cost of 2^53 or more (gprof2dot and speedscope lose precision)");
    if (n < ne) {
        if (!is_jump)
            cgwr_diag(r, r->lineno, CGWR_FEW_COSTS,
                      "%zu costs for %zu events (speedscope reads the missing ones as NaN)",
                      n, ne);
        memset(c + n, 0, (ne - n) * sizeof *c);
    }
    return 0;
}

void cgwr_position_line(cgw_reader *r, const char *p, const char *end)
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
    uint64_t pos[CGW_NPOS_MAX], *c = r->costs[r->nq];
    if (r->unterminated || cgwr_scan(r, p, end, pos, c) != end) {
        int is_jump = call->kind == CGW_REC_JUMP || call->kind == CGW_REC_COND_JUMP;
        p = positions(r, p, end, pos, 0);
        if (p == NULL || costs(r, p, end, c, is_jump) < 0) {
            call->kind = 0;
            return;
        }
    } else {
        cgwr_set_base(r, pos);
    }
    cgwr_emit_position(r, pos, c);
}

static void call_line(cgw_reader *r, cgw_record_kind kind, const char *p, const char *end)
{
    cgwr_pending *call = &r->call;
    const char *what = kind == CGW_REC_CALL ? "calls=" : kind == CGW_REC_JUMP ? "jump=" : "jcnd=";
    int flags = 0;
    uint64_t count, executed = 0;
    call->kind = 0;
    const char *q = cgwr_number(p, end, &count, &flags);
    if (q != NULL && kind == CGW_REC_COND_JUMP) {
        if (q < end && (*q == '/' || cgwr_blank(*q)))
            q = cgwr_number(skip(r, q + 1, end), end, &executed, &flags);
        else
            q = NULL;
    }
    if (q == NULL || (q < end && !cgwr_blank(*q)) || (flags & CGWR_NUM_OVERFLOW)) {
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
    if (r->nevents == 0 || positions(r, skip(r, q, end), end, call->target_pos, 1) == NULL)
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


/* A key= line: k..k+n the key, p..end the value. */
void cgwr_spec_line(cgw_reader *r, const char *k, size_t n, const char *p, const char *end)
{
#define KEY(s) (n == sizeof(s) - 1 && memcmp(k, s, n) == 0)
    if (KEY("calls") || KEY("jump") || KEY("jcnd")) {
        if (!KEY("calls"))
            cgwr_kcachegrind_only(r, k, n);
        call_line(r, KEY("calls") ? CGW_REC_CALL : KEY("jump") ? CGW_REC_JUMP
                                                                : CGW_REC_COND_JUMP, p, end);
        return;
    }
    enum cgwr_spec_key key = CGWR_KEY_NONE;
    for (int i = 0; i < CGWR_KEY_NONE && n <= 3; i++)
        if (memcmp(cgwr_key_text[i], k, n) == 0 && cgwr_key_text[i][n] == '\0')
            key = (enum cgwr_spec_key)i;
    if (key == CGWR_KEY_NONE) {
        if (KEY("rec") || KEY("frfn") || KEY("ln") || KEY("bb")) {
            cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE,
                      "%.*s= (written by some Callgrind options) is ignored", (int)n, k);
            return;
        }
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_LINE, "unknown line kind \"%.*s=\"",
                  (int)(n > 40 ? 40 : n), k);
        return;
    }
#undef KEY
    const cgwr_str *name = cgwr_name(r, cgwr_key_kind(key), p, (size_t)(end - p));
    if (name != NULL)
        cgwr_spec_apply(r, key, name);
}
