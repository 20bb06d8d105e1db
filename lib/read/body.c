/* read-body.c - one input line: its kind, then spec lines (ob= fl= fi=
 * fe= fn= cob= cfi= cfn= calls= jump= jcnd= jfi= jfn=) and position lines
 * (costs, and the source lines of calls and jumps).  Relative positions
 * count from the previous position line, call and jump source lines
 * included; call and jump targets do not move that base. */
#include <string.h>

#include "read.h"

#define BIG_VALUE ((uint64_t)1 << 53)

/* The keys of name lines, and the table (CGWR_OB, CGWR_FL, CGWR_FN) each
 * one's IDs are in. */
enum spec_key { K_OB, K_COB, K_FL, K_FI, K_FE, K_CFI, K_CFL, K_CFE, K_JFI, K_FN, K_CFN, K_JFN,
                K_NONE };
static const char *const key_text[K_NONE] = { "ob", "cob", "fl", "fi", "fe", "cfi",
                                               "cfl", "cfe", "jfi", "fn", "cfn", "jfn" };

static int key_kind(enum spec_key key)
{
    return key <= K_COB ? CGWR_OB : key <= K_JFI ? CGWR_FL : CGWR_FN;
}

static void function_line(cgw_reader *r, const cgwr_str *name);
static int fast_spec(cgw_reader *r, const char *p, const char *end);

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

/* A cost or source line's positions become the base of relative ones. */
static void set_base(cgw_reader *r, const uint64_t *pos)
{
    memcpy(r->base, pos, sizeof r->base);
    r->first_in_block = 0;
    r->seen_cost = 1;
}

/* A position line starts with a digit, '+', '-' or '*'. */
static int starts_position(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}

/* Parse npos subpositions into out (canonical order).  is_target: a call
 * or jump target, which does not move the base.  NULL on error (reported). */
static const char *positions(cgw_reader *r, const char *p, const char *end, uint64_t *out,
                             int is_target)
{
    size_t npos = r->part.pub.npos;
    int relative = 0;
    for (size_t i = 0; i < npos; i++) {
        if (i > 0) {
            if (p < end && !cgwr_blank(*p))
                goto bad;
            p = skip(r, p, end);
        }
        int slot = r->pos_order[i], flags = 0;
        uint64_t base = r->base[slot], v;
        if (p == end) {
            if (is_target) { /* calls= with no target: KCachegrind's converters */
                out[slot] = 0;
                continue;
            }
            goto bad;
        }
        char c = *p;
        if (c == '*') {
            relative = 1;
            out[slot] = base;
            p++;
            continue;
        }
        if (c == '+' || c == '-') {
            relative = 1;
            const char *q = cgwr_number(p + 1, end, &v, &flags);
            if (q == NULL || (flags & CGWR_NUM_HEX))
                goto bad;
            p = q;
            if (c == '+' && v > UINT64_MAX - base) {
                cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "position +%llu passes 2^64-1",
                          (unsigned long long)v);
                return NULL;
            }
            if (c == '-' && v > base) {
                cgwr_diag(r, r->lineno, CGWR_NEGATIVE_POSITION,
                          "relative position -%llu from %llu is negative",
                          (unsigned long long)v, (unsigned long long)base);
                return NULL;
            }
            out[slot] = c == '+' ? base + v : base - v;
            continue;
        }
        const char *q = cgwr_number(p, end, &v, &flags);
        if (q == NULL)
            goto bad;
        if (flags & CGWR_NUM_OVERFLOW) {
            cgwr_diag(r, r->lineno, CGWR_OVERFLOW, "position passes 2^64-1");
            return NULL;
        }
        if (flags & CGWR_NUM_UPPER)
            cgwr_diag(r, r->lineno, CGWR_UPPERCASE_HEX,
                      "uppercase hex (Qt Creator reads lowercase only)");
        out[slot] = v;
        p = q;
    }
    if (p < end && !cgwr_blank(*p))
        goto bad;
    if (relative && !is_target && (r->first_in_block || !r->seen_cost))
        cgwr_diag(r, r->lineno, CGWR_RELATIVE_FIRST,
                  "relative position on the first line of a function block");
    if (!is_target)
        set_base(r, out);
    return p;
bad:
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
    if (any >= BIG_VALUE)
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

/* The common position line, parsed once with no diagnostic to give:
 * single spaces, decimal or lowercase 0x numbers short enough not to
 * overflow, relative steps that stay in range, costs below 2^53, one for
 * every event (none on a jump's source line).  scan() stops at the first
 * byte that does not continue the line, or at a blank just before the
 * '\n', and returns it (take() checks that it ends the line), or NULL to
 * send the line to the general parser, which reports whatever made this
 * one give up.  It needs a readable byte that is not a digit or a blank
 * after the line (a '\n', or what cgwr_getline() cut off), so it needs
 * no bound. */
static CGWP_HOT_INLINE const char *fast_digits(const char *p, uint64_t *v)
{
    /* past 19 digits the value may have wrapped: the general parser.
     * Unsigned bytes and a 64-bit digit keep the loop at seven
     * instructions a digit (no sign extension). */
    const unsigned char *s = (const unsigned char *)p, *q = s;
    uint64_t d = (uint64_t)*q - '0';
    if (d >= 10)
        return NULL;
    uint64_t x = d;
    while ((d = (uint64_t)*++q - '0') < 10)
        x = x * 10 + d;
    if (q - s > 19)
        return NULL;
    *v = x;
    return (const char *)q;
}

/* The value of a lowercase hex digit; 16 or more for any other byte
 * (uppercase ones go to the general parser, which notes them). */
static CGWP_HOT_INLINE uint64_t lower_hex(unsigned char c)
{
    uint64_t d = (uint64_t)c - '0';
    if (d < 10)
        return d;
    d = (uint64_t)c - 'a';
    return d < 6 ? d + 10 : 16;
}

/* Eight input bytes as a number whose low byte is the first of them. */
static CGWP_HOT_INLINE uint64_t load_le64(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The value of the 1 to 16 lowercase hex digits at q (after "0x"), the
 * digits before end; NULL when there is none.  Up to seven digits with
 * eight bytes before end are read in one word: a loop a digit ends in a
 * mispredicted branch on addresses of varying length. */
static CGWP_HOT_INLINE const char *hex_digits(const char *q, const char *end, uint64_t *out)
{
    if (end - q >= 8) {
        uint64_t w = load_le64(q), y = w & CGWP_BYTES(0x7f);
        /* per byte, bit 7: an ASCII byte in '0'..'9' or 'a'..'f' */
        uint64_t hex = ((y + CGWP_BYTES(0x80 - '0')) & ~(y + CGWP_BYTES(0x7f - '9'))) |
                       ((y + CGWP_BYTES(0x80 - 'a')) & ~(y + CGWP_BYTES(0x7f - 'f')));
        uint64_t stop = ~(hex & ~w) & CGWP_BYTES(0x80);
        if (stop != 0) {
            unsigned n = (unsigned)__builtin_ctzll(stop) / 8;
            if (n == 0)
                return NULL;
            /* each digit's value in its byte, the last digit's lowest */
            uint64_t d = (w & CGWP_BYTES(0x0f)) + 9 * ((w >> 6) & CGWP_BYTES(0x01));
            d = __builtin_bswap64(d << (64 - 8 * n));
            d = (d | d >> 4) & 0x00ff00ff00ff00ffu;
            d = (d | d >> 8) & 0x0000ffff0000ffffu;
            *out = (d | d >> 16) & 0xffffffffu;
            return q + n;
        }
    }
    const char *s = q;
    uint64_t v = 0, d;
    while (q < s + 16 && q < end && (d = lower_hex((unsigned char)*q)) < 16) {
        v = v << 4 | d;
        q++;
    }
    if (q == s)
        return NULL;
    *out = v;
    return q;
}

/* One subposition at p, counted from base when relative (*relative is
 * then set): decimal, 0x and lowercase hex, '*', or a '+' or '-' step
 * that stays in range; NULL to send the line to the general parser. */
static CGWP_HOT_INLINE const char *one_position(const char *p, const char *end, uint64_t base,
                                                uint64_t *out, int *relative)
{
    char ch = *p;
    uint64_t v;
    if (ch == '*') {
        *relative = 1;
        *out = base;
        return p + 1;
    }
    if (ch == '+' || ch == '-') {
        *relative = 1;
        if ((p = fast_digits(p + 1, &v)) == NULL)
            return NULL;
        if (ch == '+' ? v > UINT64_MAX - base : v > base)
            return NULL;
        *out = ch == '+' ? base + v : base - v;
        return p;
    }
    if (ch == '0' && p[1] == 'x')
        return hex_digits(p + 2, end, out);
    return fast_digits(p, out);
}

/* The subpositions of a position line or of a call's target, in the
 * form scan() takes; *relative says whether one was relative. */
static CGWP_HOT_INLINE const char *scan_positions(const cgw_reader *r, const char *p,
                                                  const char *end, uint64_t *pos, int *relative)
{
    size_t npos = r->part.pub.npos;
    for (size_t i = 0; i < npos; i++) {
        int slot = r->pos_order[i];
        if (i > 0 && *p++ != ' ')
            return NULL;
        if ((p = one_position(p, end, r->base[slot], &pos[slot], relative)) == NULL)
            return NULL;
    }
    return p;
}

static CGWP_HOT_INLINE const char *scan(const cgw_reader *r, const char *p, const char *end,
                                        uint64_t *pos, uint64_t *c)
{
    size_t ne = r->nevents;
    int relative = 0;
    if ((p = scan_positions(r, p, end, pos, &relative)) == NULL)
        return NULL;
    if (relative && (r->first_in_block || !r->seen_cost))
        return NULL;
    uint64_t any = 0;
    size_t n = 0;
    while (*p == ' ') {
        const char *q;
        if (n == ne || (q = fast_digits(p + 1, &c[n])) == NULL) {
            if (p[1] == '\n') /* a trailing blank: see take() */
                break;
            return NULL;
        }
        p = q;
        any |= c[n++];
    }
    if (any >= BIG_VALUE)
        return NULL;
    if (n != ne) {
        /* the source line of a jump has no costs, as Callgrind writes it */
        if (n != 0 || r->call.kind == 0 || r->call.kind == CGW_REC_CALL)
            return NULL;
        memset(c, 0, ne * sizeof *c);
    }
    return p;
}

/* The record every body record starts from: kind, line, context. */
static CGWP_HOT_INLINE cgw_record *record(cgw_reader *r, cgw_record_kind kind)
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

/* The record of a function or inline-file line, unless the caller
 * skips its kind: the fast path then goes on to the next line instead of
 * handing a record back to cgw_reader_next() to drop.  The part is
 * announced either way. */
static void name_record(cgw_reader *r, cgw_record_kind kind)
{
    if (!(r->skip & CGW_SKIP(kind)))
        record(r, kind);
    else if (!r->part.announced)
        cgwr_announce_part(r);
}

/* The record of a position line: its positions and costs. */
static CGWP_HOT_INLINE cgw_record *position_record(cgw_reader *r, cgw_record_kind kind,
                                                   const uint64_t *pos, uint64_t *c)
{
    cgw_record *rec = record(r, kind);
    memcpy(r->pos[rec - r->q], pos, sizeof r->pos[0]);
    rec->pos = r->pos[rec - r->q];
    rec->costs = c;
    return rec;
}

/* A total passed 2^64-1 while c was added: it stays there. */
static CGWP_COLD void totals_overflow(cgw_reader *r, const uint64_t *c)
{
    uint64_t *t = r->part.totals;
    for (size_t i = 0; i < r->nevents; i++) {
        if (t[i] < c[i]) {
            cgwr_diag(r, r->lineno, CGWR_OVERFLOW,
                      "the total of %s passes 2^64-1", r->part.events[i].name);
            t[i] = UINT64_MAX;
        }
    }
}

/* Add c[0..n) to t[0..n) without a branch an event; 1 when a sum
 * wrapped (a wrapped sum is smaller than what was added). */
static CGWP_HOT_INLINE int add_wrapping(uint64_t *t, const uint64_t *c, size_t n)
{
    int wrapped = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t sum = t[i] + c[i];
        wrapped |= sum < c[i];
        t[i] = sum;
    }
    return wrapped;
}

/* A wrapped total is set to 2^64-1. */
static CGWP_HOT_INLINE void add_totals(cgw_reader *r, const uint64_t *c)
{
    if (add_wrapping(r->part.totals, c, r->nevents))
        totals_overflow(r, c);
}

/* A call's cost line, handed out or not: counted, and checked in check
 * mode.  The call goes to (ob, fl, fn) from line line. */
static CGWP_HOT_INLINE void count_call(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                                       const cgwr_str *fn, uint64_t line, const uint64_t *c)
{
    r->part.calls++;
    if (r->flags & CGW_READ_CHECK)
        cgwr_check_call(r, cgwr_function(r, ob, fl, fn, line), line, c);
}

/* The record of the cost line of the pending call or jump, unless the
 * caller skips its kind; its checks either way. */
static CGWP_COLD void emit_call(cgw_reader *r, const uint64_t *pos, uint64_t *c)
{
    cgwr_pending *call = &r->call;
    cgw_record_kind kind = call->kind;
    if (!(r->skip & CGW_SKIP(kind))) {
        cgw_record *rec = position_record(r, kind, pos, c);
        uint64_t *tp = r->tpos[rec - r->q];
        memcpy(tp, call->target_pos, sizeof call->target_pos);
        rec->target = (cgw_target){ call->ob ? call->ob->s : NULL, call->fl->s, call->fn->s };
        rec->target_pos = tp;
        rec->line = call->line;
        rec->count = call->count;
        rec->executed = call->executed;
        if (kind != CGW_REC_CALL)
            rec->costs = NULL;
    }
    if (kind == CGW_REC_CALL) {
        count_call(r, call->ob, call->fl, call->fn, call->line, c);
    } else {
        for (size_t i = 0; i < r->nevents; i++)
            if (c[i] != 0) {
                cgwr_diag(r, r->lineno, CGWR_JUMP_COSTS,
                          "costs on the source line of a jump are ignored");
                break;
            }
    }
    call->kind = 0;
}

/* The record of a parsed position line: a cost, or the cost line of the
 * pending call or jump. */
static CGWP_HOT_INLINE void emit_position(cgw_reader *r, const uint64_t *pos, uint64_t *c)
{
    r->pending_fi = NULL;
    r->inline_costs = 1;
    if (r->call.kind) {
        emit_call(r, pos, c);
        return;
    }
    if (!(r->skip & CGW_SKIP(CGW_REC_COST)))
        position_record(r, CGW_REC_COST, pos, c);
    r->part.cost_lines++;
    add_totals(r, c);
}

static void position_line(cgw_reader *r, const char *p, const char *end)
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
    if (r->unterminated || scan(r, p, end, pos, c) != end) {
        int is_jump = call->kind == CGW_REC_JUMP || call->kind == CGW_REC_COND_JUMP;
        p = positions(r, p, end, pos, 0);
        if (p == NULL || costs(r, p, end, c, is_jump) < 0) {
            call->kind = 0;
            return;
        }
    } else {
        set_base(r, pos);
    }
    emit_position(r, pos, c);
}

/* Where a call or jump line of kind goes: a call to the callee named
 * since the last call or jump (cob= cfi= cfn=), a jump to jfi= jfn= or
 * within the function.  Those names are used up. */
static CGWP_HOT_INLINE void take_target(cgw_reader *r, cgw_record_kind kind,
                                        const cgwr_str **ob, const cgwr_str **fl,
                                        const cgwr_str **fn)
{
    if (kind == CGW_REC_CALL) {
        *ob = r->cob ? r->cob : r->cur_ob;
        *fl = r->cfi ? r->cfi : r->fi;
        *fn = r->cfn;
    } else {
        *ob = r->cur_ob;
        *fl = r->jfi ? r->jfi : r->fi;
        *fn = r->jfn ? r->jfn : r->fn;
    }
    r->cob = r->cfi = r->jfi = r->jfn = NULL;
    r->cfn_fresh = 0;
}

/* A call or jump line was read: its cost line comes next. */
static void pend_call(cgw_reader *r, cgw_record_kind kind, uint64_t count, uint64_t executed)
{
    cgwr_pending *call = &r->call;
    take_target(r, kind, &call->ob, &call->fl, &call->fn);
    call->kind = kind;
    call->count = count;
    call->executed = executed;
    call->line = r->lineno;
    call->saw_blank = 0;
}

/* A key= line (key k..k+n) that only KCachegrind reads. */
static CGWP_HOT_INLINE void kcachegrind_only(cgw_reader *r, const char *k, size_t n)
{
    if (!cgwr_warning_counted(r, CGWR_NONPORTABLE_LINE))
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE,
                  "%.*s= lines are read by KCachegrind only", (int)n, k);
}

static CGWP_HOT_INLINE void trailing_blank(cgw_reader *r)
{
    if (!cgwr_warning_counted(r, CGWR_BLANK))
        cgwr_diag(r, r->lineno, CGWR_BLANK, "trailing blank (speedscope rejects it)");
}

/* Take the line that starts at line and whose parse stopped at e: 1 when
 * e is its '\n', or a blank before it (Callgrind ends calls=, jump= and
 * their source lines so), noted as the general parser notes it; 0 when
 * the line must go to the general parser. */
static CGWP_HOT_INLINE int take(cgw_reader *r, const char *line, const char *e)
{
    if (e == NULL)
        return 0;
    int blank = *e == ' ';
    if (e[blank] != '\n')
        return 0;
    cgwr_take_line(r, (size_t)(e - line) + 1 + blank);
    if (blank)
        trailing_blank(r);
    return 1;
}

/* A position line: see fast_line(). */
static int fast_position(cgw_reader *r, const char *p, const char *end)
{
    uint64_t pos[CGW_NPOS_MAX], *c = r->costs[r->nq];
    if (r->nevents == 0 || r->fn == NULL || !take(r, p, scan(r, p, end, pos, c)))
        return 0;
    set_base(r, pos);
    emit_position(r, pos, c);
    return 1;
}

/* "calls=COUNT TARGET" after "calls=": a count other than 0, the callee
 * named since the last call, one space and every target subposition. */
static int fast_calls(cgw_reader *r, const char *line, const char *p, const char *end)
{
    uint64_t count;
    int relative = 0;
    if (r->fn == NULL || r->cfn == NULL || !r->cfn_fresh || r->nevents == 0 ||
        (p = fast_digits(p, &count)) == NULL || count == 0 || *p != ' ' ||
        !take(r, line, scan_positions(r, p + 1, end, r->call.target_pos, &relative)))
        return 0;
    pend_call(r, CGW_REC_CALL, count, 0);
    return 1;
}

/* CGW_REC_JUMP or CGW_REC_COND_JUMP for a line that starts with "jump="
 * or "jcnd=" (five bytes of it are read), else 0. */
static CGWP_HOT_INLINE cgw_record_kind jump_kind(const char *p)
{
    return memcmp(p, "jump=", 5) == 0   ? CGW_REC_JUMP
           : memcmp(p, "jcnd=", 5) == 0 ? CGW_REC_COND_JUMP : 0;
}

/* A jump line's COUNT, or a jcnd= line's FOLLOWED/EXECUTED with
 * FOLLOWED <= EXECUTED, at p (after the '='); NULL when not so. */
static CGWP_HOT_INLINE const char *jump_counts(const char *p, cgw_record_kind kind,
                                               uint64_t *count, uint64_t *executed)
{
    *executed = 0;
    if ((p = fast_digits(p, count)) == NULL)
        return NULL;
    if (kind == CGW_REC_COND_JUMP &&
        (*p != '/' || (p = fast_digits(p + 1, executed)) == NULL || *count > *executed))
        return NULL;
    return p;
}

/* "jump=COUNT TARGET" or "jcnd=FOLLOWED/EXECUTED TARGET" after the '=',
 * with FOLLOWED <= EXECUTED: KCachegrind's lines, so each one is noted. */
static int fast_jump(cgw_reader *r, const char *line, const char *p, const char *end,
                     cgw_record_kind kind)
{
    uint64_t count, executed;
    int relative = 0;
    if (r->fn == NULL || r->nevents == 0 || (p = jump_counts(p, kind, &count, &executed)) == NULL)
        return 0;
    if (*p != ' ' || !take(r, line, scan_positions(r, p + 1, end, r->call.target_pos, &relative)))
        return 0;
    kcachegrind_only(r, line, 4);
    pend_call(r, kind, count, executed);
    return 1;
}

/* The ')' that ends "(ID" at p, an ID of at most 18 digits written
 * without a leading zero, into *id; NULL for anything else, which the
 * general parser reads (and reports). */
static CGWP_HOT_INLINE const char *id_digits(const char *p, uint64_t *id)
{
    if (p[0] != '(' || (p[1] == '0' && p[2] != ')'))
        return NULL;
    const char *e = fast_digits(p + 1, id);
    return e == NULL || e - p > 1 + 18 || e[0] != ')' ? NULL : e;
}

/* The name that "(ID)\n" at p refers to, an ID of kind defined in the
 * part (id_digits()); *next is then the start of the next line.  NULL
 * for anything else. */
static CGWP_HOT_INLINE const cgwr_str *id_ref(cgw_reader *r, int kind, const char *p,
                                             const char **next)
{
    uint64_t id;
    const char *e = id_digits(p, &id);
    if (e == NULL || e[1] != '\n')
        return NULL;
    *next = e + 2;
    return cgwr_id_name(r, kind, id);
}

/* "cob=(ID)", "cfi=(ID)", "cfl=(ID)" or "cfn=(ID)" with ID defined: the
 * callee's names between calls.  Returns the length of the line, '\n'
 * included, for the caller to take, or 0 when the general parser must
 * read it (nothing is changed then). */
static CGWP_HOT_INLINE size_t callee_line(cgw_reader *r, const char *p)
{
    const cgwr_str **slot;
    int kind;
    if (p[1] == 'f' && p[2] == 'n') {
        kind = CGWR_FN;
        slot = &r->cfn;
    } else if (p[1] == 'f' && (p[2] == 'i' || p[2] == 'l') && !r->cfn_fresh) {
        kind = CGWR_FL;
        slot = &r->cfi;
    } else if (p[1] == 'o' && p[2] == 'b' && !r->cfn_fresh) {
        kind = CGWR_OB;
        slot = &r->cob;
    } else {
        return 0;
    }
    const char *next;
    const cgwr_str *name = p[3] == '=' ? id_ref(r, kind, p + 4, &next) : NULL;
    if (name == NULL)
        return 0;
    *slot = name;
    if (kind == CGWR_FN)
        r->cfn_fresh = 1;
    return (size_t)(next - p);
}

/* The commonest lines taken straight from the input, without finding
 * their end first: position lines, blank lines, calls=, jump= and jcnd=
 * lines, and the name lines (fast_spec(), which finds a name's end
 * itself).  Callgrind ends calls=, jump=, jcnd= and their source lines
 * in a blank, which is noted here as the general parser notes it.  A
 * position, call or jump line needs an earlier name line of the part,
 * which began the part's body; a name line begins it.  1 when taken; 0
 * when the line must go through cgwr_getline() and cgwr_line() (nothing
 * is consumed then), which gives any other diagnostic.  p starts a line
 * and a '\n' follows it before end.  The keys are compared with
 * memcmp(), which may read all their bytes, only when that many are
 * left before end (a line "c" may end the input). */
static CGWP_HOT_INLINE int fast_line(cgw_reader *r, const char *p, const char *end)
{
    if (starts_position(*p))
        return fast_position(r, p, end);
    if (r->call.kind != 0)
        return 0;
    if (*p == '\n') {
        cgwr_take_line(r, 1);
        return 1;
    }
    if (end - p < 6)
        return 0;
    if (*p == 'j') {
        cgw_record_kind kind = jump_kind(p);
        return kind != 0 && fast_jump(r, p, p + 5, end, kind);
    }
    if (*p == 'c' && memcmp(p, "calls=", 6) == 0)
        return fast_calls(r, p, p + 6, end);
    return fast_spec(r, p, end);
}

/* The subpositions of a line in a run (below), counted from the bases
 * b0 and b1 into *v0 and *v1, as scan_positions() reads them. */
static CGWP_HOT_INLINE const char *run_positions(const char *p, const char *end,
                                                 const size_t npos, uint64_t b0, uint64_t b1,
                                                 uint64_t *v0, uint64_t *v1, int *relative)
{
    if ((p = one_position(p, end, b0, v0, relative)) == NULL)
        return NULL;
    if (npos > 1 && (*p++ != ' ' || (p = one_position(p, end, b1, v1, relative)) == NULL))
        return NULL;
    return p;
}

/* The start of the next line when q ends this one, after one blank at
 * most (*blanks counts it); NULL when q does not. */
static CGWP_HOT_INLINE const char *run_line_end(const char *q, uint64_t *blanks)
{
    int blank = *q == ' ';
    if (q[blank] != '\n')
        return NULL;
    *blanks += (uint64_t)blank;
    return q + blank + 1;
}

/* A call or jump line's target (after its counts, at p) and its source
 * line, in a run: the target's positions count from the bases and leave
 * them; the source line's become the new bases (*b0, *b1).  The pair
 * follows a position line of the run, so relative positions are allowed.
 * A jump's source line has no costs; a call's has one for every event,
 * into c.  *blanks counts the trailing blanks, which the pair may have
 * only when blanks_counted.  Returns the start of the line after the
 * pair, or NULL to leave both lines to fast_line() (nothing is changed
 * then, but c). */
static CGWP_HOT_INLINE const char *run_pair(const char *p, const char *end, const size_t npos,
                                            size_t ne, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted, uint64_t *c)
{
    uint64_t v0, v1 = 0, any = 0, blank = 0;
    int relative = 0;
    if (*p != ' ' || (p = run_positions(p + 1, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL ||
        (p = run_line_end(p, &blank)) == NULL || p == end)
        return NULL;
    if ((p = run_positions(p, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL)
        return NULL;
    for (size_t n = 0; n < ne; n++) {
        if (*p != ' ' || (p = fast_digits(p + 1, &c[n])) == NULL)
            return NULL;
        any |= c[n];
    }
    if (any >= BIG_VALUE || (p = run_line_end(p, &blank)) == NULL || (blank && !blanks_counted))
        return NULL;
    *b0 = v0;
    *b1 = v1;
    *blanks += blank;
    return p;
}

/* A jump= or jcnd= line and its source line in a run, as fast_jump()
 * and fast_position() take them when jump records are skipped (the
 * caller makes sure that the jump's warning is only counted); or NULL. */
static CGWP_HOT_INLINE const char *run_jump(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted)
{
    cgw_record_kind kind = jump_kind(p);
    uint64_t count, executed;
    const cgwr_str *ob, *fl, *fn;
    if (kind == 0 || !(r->skip & CGW_SKIP(kind)) ||
        (p = jump_counts(p + 5, kind, &count, &executed)) == NULL ||
        (p = run_pair(p, end, npos, 0, b0, b1, blanks, blanks_counted, NULL)) == NULL)
        return NULL;
    take_target(r, kind, &ob, &fl, &fn); /* uses up jfi= jfn= cob= cfi= cfn= */
    return p;
}

/* A calls= line, number line, and its source line in a run, as
 * fast_calls() and fast_position() take them when call records are
 * skipped, counted and checked as emit_call() does; or NULL. */
static CGWP_HOT_INLINE const char *run_call(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted, uint64_t line)
{
    uint64_t count, *c = r->costs[r->nq];
    if (r->cfn == NULL || !r->cfn_fresh || !(r->skip & CGW_SKIP(CGW_REC_CALL)) ||
        (p = fast_digits(p + 6, &count)) == NULL || count == 0 ||
        (p = run_pair(p, end, npos, r->nevents, b0, b1, blanks, blanks_counted, c)) == NULL)
        return NULL;
    const cgwr_str *ob, *fl, *fn;
    take_target(r, CGW_REC_CALL, &ob, &fl, &fn);
    count_call(r, ob, fl, fn, line, c);
    return p;
}

/* A run of cost lines, when no record is handed out for them (the
 * caller skips CGW_REC_COST) and no call or jump is pending: the lines
 * fast_position() would take, read in one loop that keeps the bases in
 * registers and accounts for the run once at its end, specialised by
 * the number of subpositions (1 or 2).  The run also takes the callee
 * lines (callee_line()), and the calls and jumps with their source lines
 * when the caller skips their records too and the warnings they get are
 * only counted (cgwr_only_counted(): shown often enough already, or no
 * callback): trailing blanks, and jump lines (run_call(),
 * run_jump()).  A cost line that ends in a blank, has fewer costs than
 * events, or would wrap a total ends the run, as does any other line;
 * the caller then reads it as usual.  Returns where the run stopped. */
static CGWP_HOT_INLINE const char *cost_run(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos)
{
    const int s0 = r->pos_order[0], s1 = npos > 1 ? r->pos_order[1] : 0;
    uint64_t b0 = r->base[s0], b1 = npos > 1 ? r->base[s1] : 0;
    uint64_t *t = r->part.totals, *c = r->costs[r->nq];
    const size_t ne = r->nevents;
    int relative_ok = !r->first_in_block && r->seen_cost;
    const int blanks_counted = cgwr_only_counted(r, CGWR_BLANK);
    const int jumps_counted = cgwr_only_counted(r, CGWR_NONPORTABLE_LINE);
    const char *start = p;
    uint64_t lines = 0, cost_lines = 0, jumps = 0, blanks = 0;
    while (p < end) {
        int relative = 0;
        uint64_t v0, v1 = 0, any = 0;
        const char *q = run_positions(p, end, npos, b0, b1, &v0, &v1, &relative);
        if (q == NULL) {
            size_t n;
            if (end - p < 6)
                break;
            if (*p == 'j') {
                if (!jumps_counted ||
                    (q = run_jump(r, p, end, npos, &b0, &b1, &blanks, blanks_counted)) == NULL)
                    break;
                jumps++;
            } else if (*p == 'c' && memcmp(p, "calls=", 6) == 0) {
                if ((q = run_call(r, p, end, npos, &b0, &b1, &blanks, blanks_counted,
                                  r->lineno + lines + 1)) == NULL)
                    break;
            } else if (*p == 'c' && (n = callee_line(r, p)) > 0) {
                lines++;
                p += n;
                continue;
            } else {
                break;
            }
            lines += 2;
            p = q;
            continue;
        }
        if (relative && !relative_ok)
            break;
        size_t n = 0; /* q is NULL only when n < ne */
        while (n < ne && *q == ' ' && (q = fast_digits(q + 1, &c[n])) != NULL)
            any |= c[n++];
        if (n != ne || *q != '\n' || any >= BIG_VALUE)
            break;
        if (add_wrapping(t, c, ne)) { /* the general parser reports it */
            for (size_t i = 0; i < ne; i++)
                t[i] -= c[i];
            break;
        }
        b0 = v0;
        b1 = v1;
        relative_ok = 1;
        lines++;
        cost_lines++;
        p = q + 1;
    }
    if (cost_lines > 0) { /* a position line was read: the run starts with one */
        r->base[s0] = b0;
        if (npos > 1)
            r->base[s1] = b1;
        r->first_in_block = 0;
        r->seen_cost = 1;
        r->pending_fi = NULL;
        r->inline_costs = 1;
    }
    r->part.cost_lines += cost_lines;
    r->count[CGWR_NONPORTABLE_LINE] += jumps;
    r->count[CGWR_BLANK] += blanks;
    r->nwarnings += jumps + blanks;
    cgwr_take_lines(r, (size_t)(p - start), lines);
    return p;
}

/* cost_run() for this part; p itself when it does not apply. */
static const char *any_cost_run(cgw_reader *r, const char *p, const char *end)
{
    if (r->call.kind != 0 || r->fn == NULL || r->nevents == 0 ||
        !(r->skip & CGW_SKIP(CGW_REC_COST)))
        return p;
    if (r->part.pub.npos == 1)
        return cost_run(r, p, end, 1);
    if (r->part.pub.npos == 2)
        return cost_run(r, p, end, 2);
    return p;
}

int cgwr_fast_lines(cgw_reader *r)
{
    const char *end, *p = cgwr_whole_lines(r, &end);
    while (p < end) {
        if (starts_position(*p)) {
            const char *q = any_cost_run(r, p, end);
            if (q != p) {
                p = q;
                continue;
            }
        }
        if (!fast_line(r, p, end))
            break;
        if (r->nq > 0)
            return 1;
        p = cgwr_whole_lines(r, &end);
    }
    return 0;
}

/* A function block starts: fn=. */
static void function_line(cgw_reader *r, const cgwr_str *name)
{
    const cgwr_str *fl = r->fl;
    if (r->pending_fi != NULL) {
        cgwr_diag(r, r->pending_fi_line, CGWR_INLINE_BEFORE_FUNCTION,
                  "fi= before fn= is read as the function's file (KCachegrind does so; "
                  "callgrind_annotate aborts)");
        fl = r->pending_fi;
    }
    cgwr_body_end(r);
    r->pending_fi = NULL;
    int k = cgwr_function(r, r->ob, fl, name, r->lineno);
    if (k < 0)
        return;
    cgwr_fn *f = r->fns[k];
    if (f->blocks == 0) {
        r->part.functions++;
        f->first_line = r->lineno;
    }
    if (k != r->fn_index && f->blocks++ > 0)
        cgwr_diag(r, r->lineno, CGWR_SPLIT_FUNCTION,
                      "function %s has a second block (first at line %llu); "
                      "Xdebug-style readers keep only one", name->s,
                      (unsigned long long)f->first_line);
    r->fn = name;
    r->fn_index = k;
    if ((r->flags & CGW_READ_CHECK) && r->nevents > 0)
        memcpy(r->block_start, r->part.totals, r->nevents * sizeof *r->block_start);
    r->cur_ob = r->ob;
    r->cur_fl = r->fi = fl;
    r->first_in_block = 1;
    if (name->fn_part != r->part.pub.index) {
        ((cgwr_str *)name)->fn_part = r->part.pub.index;
        ((cgwr_str *)name)->fn_index = (uint32_t)k;
    } else if (name->fn_index != (uint32_t)k) {
        const cgwr_fn *g = r->fns[name->fn_index];
        if (g->ob != f->ob || g->fl != f->fl)
            cgwr_diag(r, r->lineno, CGWR_NAME_CLASH,
                      "function %s also exists in another file or object (line %llu); "
                      "gprof2dot merges them", name->s, (unsigned long long)g->first_line);
    }
    name_record(r, CGW_REC_FUNCTION);
}

/* fi= / fe=: later costs come from another file.  Before any cost of a
 * block, KCachegrind-style, fi= names the file of the next fn=. */
static void inline_line(cgw_reader *r, const cgwr_str *name, int is_fe)
{
    r->pending_fi = is_fe ? NULL : name;
    r->pending_fi_line = r->lineno;
    r->inline_costs = 0;
    if (r->fn == NULL)
        return;
    r->fi = name;
    name_record(r, CGW_REC_INLINE);
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
    pend_call(r, kind, count, executed);
}

static void callee_spec(cgw_reader *r, const cgwr_str **slot, const cgwr_str *name)
{
    if (r->cfn_fresh)
        cgwr_diag(r, r->lineno, CGWR_CALLEE_SPEC_AFTER_CFN,
                  "cob=/cfi= after cfn= (KCachegrind binds the callee at cfn=)");
    *slot = name;
}

/* What a name line does once its name is read (key_text[key]= ...). */
static void spec_apply(cgw_reader *r, enum spec_key key, const cgwr_str *name)
{
    switch (key) {
    case K_OB:
        r->ob = name;
        break;
    case K_FL:
        r->fl = name;
        break;
    case K_FN:
        function_line(r, name);
        break;
    case K_FI:
    case K_FE:
        inline_line(r, name, key == K_FE);
        break;
    case K_COB:
        callee_spec(r, &r->cob, name);
        break;
    case K_CFE:
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE, "cfe= is read as cfi=");
        /* fall through */
    case K_CFI:
    case K_CFL:
        callee_spec(r, &r->cfi, name);
        break;
    case K_CFN:
        r->cfn = name;
        r->cfn_fresh = 1;
        break;
    case K_JFI:
    case K_JFN:
        kcachegrind_only(r, key_text[key], strlen(key_text[key]));
        if (key == K_JFI)
            r->jfi = name;
        else
            r->jfn = name;
        break;
    case K_NONE:
        break;
    }
}

/* A key= line: k..k+n the key, p..end the value. */
static void spec_line(cgw_reader *r, const char *k, size_t n, const char *p, const char *end)
{
#define KEY(s) (n == sizeof(s) - 1 && memcmp(k, s, n) == 0)
    if (KEY("calls") || KEY("jump") || KEY("jcnd")) {
        if (!KEY("calls"))
            kcachegrind_only(r, k, n);
        call_line(r, KEY("calls") ? CGW_REC_CALL : KEY("jump") ? CGW_REC_JUMP
                                                                : CGW_REC_COND_JUMP, p, end);
        return;
    }
    enum spec_key key = K_NONE;
    for (int i = 0; i < K_NONE && n <= 3; i++)
        if (memcmp(key_text[i], k, n) == 0 && key_text[i][n] == '\0')
            key = (enum spec_key)i;
    if (key == K_NONE) {
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
    const cgwr_str *name = cgwr_name(r, key_kind(key), p, (size_t)(end - p));
    if (name != NULL)
        spec_apply(r, key, name);
}

/* The '\n' that ends the name at s, when no NUL or CR comes before it;
 * else NULL.  A '\n' comes before end.  Eight bytes a step while eight
 * are left before end: the lowest byte a zero-byte test marks is exact. */
static const char *name_end(const char *s, const char *end)
{
#define ZERO_BYTES(x) (((x) - CGWP_BYTES(1)) & ~(x) & CGWP_BYTES(0x80))
    for (; end - s >= 8; s += 8) {
        uint64_t w = load_le64(s);
        uint64_t hit = ZERO_BYTES(w ^ CGWP_BYTES('\n')) | ZERO_BYTES(w) |
                       ZERO_BYTES(w ^ CGWP_BYTES('\r'));
        if (hit != 0) {
            s += __builtin_ctzll(hit) / 8;
            return *s == '\n' ? s : NULL;
        }
    }
#undef ZERO_BYTES
    for (; *s != '\n'; s++)
        if (*s == '\0' || *s == '\r')
            return NULL;
    return s;
}

/* A name line at p (ob= fl= fi= fe= fn= cob= cfi= cfl= cfn=): a name, a
 * defined "(ID)" or "(ID) name", as spec_line() reads it, when the line
 * has nothing the general parser would note (a blank around the name or
 * at the end, a NUL or CR, an ID's leading zero, an undefined ID, a name
 * that starts with '(').  All its reads stop at the line's '\n'.  1 when
 * taken. */
static int fast_spec(cgw_reader *r, const char *p, const char *end)
{
    enum spec_key key;
    const char *v = p + 3;
    if (p[0] == 'c' && p[1] == 'o' && p[2] == 'b')
        key = K_COB;
    else if (p[0] == 'c' && p[1] == 'f')
        key = p[2] == 'n' ? K_CFN : p[2] == 'i' ? K_CFI : p[2] == 'l' ? K_CFL : K_NONE;
    else if (p[0] == 'f')
        key = p[1] == 'n' ? K_FN : p[1] == 'l' ? K_FL : p[1] == 'i' ? K_FI
            : p[1] == 'e' ? K_FE : K_NONE, v = p + 2;
    else if (p[0] == 'o' && p[1] == 'b')
        key = K_OB, v = p + 2;
    else
        return 0;
    if (key == K_NONE || *v++ != '=')
        return 0;
    const char *s = v, *nl;
    uint64_t id = 0;
    int has_id = v[0] == '(';
    if (has_id) {
        const char *e = id_digits(v, &id);
        if (e == NULL)
            return 0;
        if (e[1] == '\n') { /* "(ID)": a use */
            const cgwr_str *name = cgwr_id_name(r, key_kind(key), id);
            if (name == NULL)
                return 0;
            cgwr_take_line(r, (size_t)(e + 2 - p));
            r->part.body = 1;
            spec_apply(r, key, name);
            return 1;
        }
        if (e[1] != ' ')
            return 0;
        s = e + 2;
    }
    if (cgwr_blank(*s) || *s == '(' || (nl = name_end(s, end)) == NULL || nl == s ||
        cgwr_blank(nl[-1]))
        return 0;
    cgwr_take_line(r, (size_t)(nl + 1 - p));
    r->part.body = 1;
    const cgwr_str *name = has_id ? cgwr_id_define(r, key_kind(key), id, s, (size_t)(nl - s))
                                  : cgwr_intern(r, s, (size_t)(nl - s));
    if (name != NULL)
        spec_apply(r, key, name);
    return 1;
}

/* A line that is neither blank nor a comment, leading blanks removed. */
static void content_line(cgw_reader *r, const char *p, size_t len)
{
    const char *end = p + len;
    if (starts_position(p[0])) {
        position_line(r, p, end);
        return;
    }
    if (r->call.kind) {
        cgwr_diag(r, r->call.line, CGWR_CALL_WITHOUT_COST,
                  "%s is not followed by its cost line (line %llu is not one)",
                  r->call.kind == CGW_REC_CALL ? "calls=" : "a jump",
                  (unsigned long long)r->lineno);
        r->call.kind = 0;
    }
    const char *k = p;
    while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        p++;
    if (p < end && *p == '=' && p > k) {
        r->part.body = 1;
        spec_line(r, k, (size_t)(p - k), p + 1, end);
        return;
    }
    int h = cgwr_header_line(r, k, len);
    if (h == 2)
        r->replay = 1;
    if (h == 0)
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_LINE, "unknown line \"%.*s\"",
                  cgwr_clip(k, end, 40), k);
}

void cgwr_line(cgw_reader *r, const char *p, size_t len)
{
    if (len > 0 && cgwr_blank(p[len - 1]))
        trailing_blank(r);
    if (len > 0 && cgwr_blank(p[0])) {
        const char *q = p;
        while (len > 0 && cgwr_blank(*q)) {
            q++;
            len--;
        }
        if (len > 0)
            cgwr_diag(r, r->lineno, CGWR_BLANK, "leading blank");
        p = q;
    }
    if (len == 0 || p[0] == '#') {
        if (r->lineno == 1 && len >= 18 && memcmp(p, "# callgrind format", 18) == 0)
            r->saw_format_line = 1;
        if (r->call.kind && !r->call.saw_blank) {
            r->call.saw_blank = 1;
            cgwr_diag(r, r->lineno, CGWR_LINE_IN_CALL,
                      "a blank or comment line between calls= and its cost line "
                      "(gprof2dot and speedscope lose the call)");
        }
        return;
    }
    content_line(r, p, len);
}

/* The end of a function block (fn= or the end of the part). */
void cgwr_body_end(cgw_reader *r)
{
    if (r->flags & CGW_READ_CHECK)
        cgwr_check_block(r);
    if (r->call.kind) {
        cgwr_diag(r, r->call.line, CGWR_CALL_WITHOUT_COST,
                  "%s is not followed by its cost line",
                  r->call.kind == CGW_REC_CALL ? "calls=" : "a jump");
        r->call.kind = 0;
    }
    if (r->fn != NULL && r->fi != r->cur_fl && r->inline_costs)
        cgwr_diag(r, r->lineno, CGWR_UNCLOSED_INLINE,
                  "function %s ends inside the inlined file %s; close it with fe= "
                  "(callgrind_annotate keeps it for the next function)", r->fn->s, r->fi->s);
}

void cgwr_body_reset(cgw_reader *r)
{
    r->ob = r->cur_ob = NULL;
    r->fl = r->cur_fl = r->fi = r->unknown;
    r->fn = NULL;
    r->fn_index = -1;
    r->cob = r->cfi = r->cfn = r->jfi = r->jfn = NULL;
    r->cfn_fresh = 0;
    r->pending_fi = NULL;
    r->inline_costs = 0;
    memset(r->base, 0, sizeof r->base);
    r->first_in_block = 1;
    r->seen_cost = 0;
    memset(&r->call, 0, sizeof r->call);
}
