/* SPDX-License-Identifier: MIT */
/* scan.h - the one reader of position lines and of the subpositions of
 * call and jump targets: numbers, subpositions, costs and the line, each
 * inline for the common forms, in two modes (CGWR_FAST for the fast
 * path, CGWR_COMPLETE for a framed line, with every diagnostic; see
 * below), and the ID and jump-count readers of the fast path.  Never
 * installed. */
#ifndef CGW_READ_SCAN_H
#define CGW_READ_SCAN_H

#include "emit.h"

/* Costs from 2^53 on lose precision in gprof2dot and speedscope. */
#define CGWR_BIG_COST ((uint64_t)1 << 53)

/* The digits of a decimal number of at most 19 digits (so it cannot
 * have wrapped) at text into *value: where they stop, or NULL.  Like
 * every inline reader here it needs a byte after the line that stops it
 * (a '\n', or what cgwr_getline() cut off), so it needs no bound. */
static CGWP_HOT_INLINE const char *cgwr_digits(const char *text, uint64_t *value)
{
    /* past 19 digits the value may have wrapped: the complete branch.
     * Unsigned bytes and a 64-bit digit keep the loop at seven
     * instructions a digit (no sign extension). */
    const unsigned char *start = (const unsigned char *)text, *cur = start;
    uint64_t digit = (uint64_t)*cur - '0';
    if (digit >= 10)
        return NULL;
    uint64_t num = digit;
    while ((digit = (uint64_t)*++cur - '0') < 10)
        num = num * 10 + digit;
    if (cur - start > 19)
        return NULL;
    *value = num;
    return (const char *)cur;
}

/* The value of a lowercase hex digit; 16 or more for any other byte
 * (uppercase ones go to the complete branch, which notes them). */
static CGWP_HOT_INLINE uint64_t cgwr_lower_hex(unsigned char byte)
{
    uint64_t digit = (uint64_t)byte - '0';
    if (digit < 10)
        return digit;
    digit = (uint64_t)byte - 'a';
    return digit < 6 ? digit + 10 : 16;
}

/* Eight input bytes as a number whose low byte is the first of them. */
static CGWP_HOT_INLINE uint64_t cgwr_load_le64(const char *at)
{
    uint64_t word;
    memcpy(&word, at, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

/* The value of the 1 to 16 lowercase hex digits at cur (after "0x"), the
 * digits before end; NULL when there is none.  Up to seven digits with
 * eight bytes before end are read in one word: a loop a digit ends in a
 * mispredicted branch on addresses of varying length. */
static CGWP_HOT_INLINE const char *cgwr_hex_digits(const char *cur, const char *end, uint64_t *out)
{
    if (end - cur >= 8) {
        uint64_t word = cgwr_load_le64(cur), ascii = word & CGWP_BYTES(0x7f);
        /* per byte, bit 7: an ASCII byte in '0'..'9' or 'a'..'f' */
        uint64_t hex = ((ascii + CGWP_BYTES(0x80 - '0')) & ~(ascii + CGWP_BYTES(0x7f - '9'))) |
                       ((ascii + CGWP_BYTES(0x80 - 'a')) & ~(ascii + CGWP_BYTES(0x7f - 'f')));
        uint64_t stop = ~(hex & ~word) & CGWP_BYTES(0x80);
        if (stop != 0) {
            unsigned ndigits = (unsigned)__builtin_ctzll(stop) / 8;
            if (ndigits == 0)
                return NULL;
            /* each digit's value in its byte, the last digit's lowest */
            uint64_t packed = (word & CGWP_BYTES(0x0f)) + 9 * ((word >> 6) & CGWP_BYTES(0x01));
            packed = __builtin_bswap64(packed << (64 - 8 * ndigits));
            packed = (packed | packed >> 4) & 0x00ff00ff00ff00ffu;
            packed = (packed | packed >> 8) & 0x0000ffff0000ffffu;
            *out = (packed | packed >> 16) & 0xffffffffu;
            return cur + ndigits;
        }
    }
    const char *start = cur;
    uint64_t value = 0, digit;
    while (cur < start + 16 && cur < end && (digit = cgwr_lower_hex((unsigned char)*cur)) < 16) {
        value = value << 4 | digit;
        cur++;
    }
    if (cur == start)
        return NULL;
    *out = value;
    return cur;
}

/* One subposition at cur, counted from base when relative (*relative is
 * then set): decimal, 0x and lowercase hex, '*', or a '+' or '-' step
 * that stays in range; NULL for the complete branch (or to give up). */
static CGWP_HOT_INLINE const char *cgwr_one_position(const char *cur, const char *end,
                                                     uint64_t base, uint64_t *out, int *relative)
{
    char ch = *cur;
    uint64_t step;
    if (ch == '*') {
        *relative = 1;
        *out = base;
        return cur + 1;
    }
    if (ch == '+' || ch == '-') {
        *relative = 1;
        if ((cur = cgwr_digits(cur + 1, &step)) == NULL)
            return NULL;
        /* a step of 2^31 or more: the complete branch's big-position */
        if ((step >> 31) != 0 || (ch == '+' ? step > UINT64_MAX - base : step > base))
            return NULL;
        *out = ch == '+' ? base + step : base - step;
        return cur;
    }
    if (ch == '0' && cur[1] == 'x')
        return cgwr_hex_digits(cur + 2, end, out);
    /* a decimal of 2^32 or more may be a line KCachegrind misreads: the
     * complete branch knows which subposition it is */
    cur = cgwr_digits(cur, out);
    return cur != NULL && (*out >> 32) == 0 ? cur : NULL;
}

/* The two modes of the line readers below, one piece of code each:
 * CGWR_FAST reads the lines Callgrind writes (one blank between tokens,
 * the common number forms cgwr_one_position() and cgwr_digits() take)
 * and gives up, returning NULL with nothing reported, at anything else
 * or at anything a diagnostic is due for; CGWR_COMPLETE reads any line
 * the grammar allows between cur and end (blanks and tabs, every
 * number form), each token by the same inline reader first and by its
 * complete branch (body.c) when that one does not take it, and reports
 * what it finds, returning NULL after an error.  The fast path (fast.c)
 * runs the first on unframed input, and a line it gives up on is framed
 * (cgwr_getline()) and read again by the second (body.c).  CGWR_FAST
 * needs a byte after the line that stops a number (its '\n'), and so
 * does CGWR_COMPLETE's inline first try, which is skipped on a last line
 * without one (r->unterminated). */
enum { CGWR_FAST = 0, CGWR_COMPLETE = 1 };

/* The complete branches (body.c), cold: the blanks and tabs before a
 * token (a tab is noted), a subposition in any form (its diagnostics,
 * and *decimal set for an absolute decimal one), a malformed position, a
 * cost in any form (*flags gets its CGWR_NUM_* bits), and what those
 * bits say once the costs are read (-1 after an error). */
CGWP_COLD const char *cgwr_skip(cgw_reader *r, const char *cur, const char *end);
CGWP_COLD const char *cgwr_subposition_rare(cgw_reader *r, const char *cur, const char *end,
                                            uint64_t base, uint64_t *out, int *relative,
                                            int *decimal);
CGWP_COLD const char *cgwr_bad_position(cgw_reader *r, const char *cur, const char *end);
CGWP_COLD const char *cgwr_cost_rare(cgw_reader *r, const char *cur, const char *end,
                                     size_t index, uint64_t *value, int *flags);
CGWP_COLD int cgwr_costs_checked(cgw_reader *r, int flags);
CGWP_COLD void cgwr_big_line(cgw_reader *r, uint64_t line);

/* Whether the inline reader's token ends where a complete read may go
 * on: at end or before a blank (otherwise the complete branch reads the
 * token again, e.g. a number longer than the inline reader takes). */
static CGWP_HOT_INLINE int cgwr_token_ends(const char *next, const char *end)
{
    return next != NULL && (next == end || cgwr_blank(*next));
}

/* The subpositions of a position line or of a call's or jump's target
 * (is_target: missing ones are 0 in CGWR_COMPLETE, as KCachegrind's
 * converters write calls= without a target) into pos, by slot;
 * *relative is set when one is relative. */
static CGWP_HOT_INLINE const char *cgwr_positions(cgw_reader *r, const char *cur,
                                                  const char *end, uint64_t *pos, int *relative,
                                                  const int complete, const int is_target)
{
    const size_t npos = r->part.pub.npos;
    int line_decimal = 0;
    for (size_t i = 0; i < npos; i++) {
        const int slot = r->pos_order[i];
        if (!complete) {
            if (i > 0 && *cur++ != ' ')
                return NULL;
        } else {
            if (i > 0) {
                if (cur < end && !cgwr_blank(*cur))
                    return cgwr_bad_position(r, cur, end);
                cur = cgwr_skip(r, cur, end);
            }
            if (cur == end) {
                if (!is_target)
                    return cgwr_bad_position(r, cur, end);
                pos[slot] = 0;
                continue;
            }
        }
        const char *next = NULL;
        if (!complete || !r->unterminated)
            next = cgwr_one_position(cur, end, r->base[slot], &pos[slot], relative);
        if (complete && !cgwr_token_ends(next, end)) {
            int decimal = 0;
            next = cgwr_subposition_rare(r, cur, end, r->base[slot], &pos[slot], relative,
                                         &decimal);
            /* a line written in decimal (the array's last subposition) */
            if (slot == (int)npos - 1 && (r->part.pub.positions & CGW_POS_LINE))
                line_decimal = decimal;
        }
        if (next == NULL)
            return NULL;
        cur = next;
    }
    if (complete) {
        if (line_decimal && (pos[npos - 1] >> 32) != 0)
            cgwr_big_line(r, pos[npos - 1]);
        if (npos > 0 && cur < end && !cgwr_blank(*cur)) /* none: the costs start here */
            return cgwr_bad_position(r, cur, end);
    }
    return cur;
}

/* The costs at cur into costs, up to r->nevents of them: *ncosts says
 * how many, *any gets their bits or-ed.  CGWR_FAST: each after one
 * blank; returns where they stop, or the blank that ends the line just
 * before its '\n', or NULL when a blank is followed by anything else or
 * there are more costs than events.  CGWR_COMPLETE: returns end, or
 * NULL after an error (more costs than events are warned of and
 * dropped). */
static CGWP_HOT_INLINE const char *cgwr_costs(cgw_reader *r, const char *cur, const char *end,
                                              uint64_t *costs, size_t *ncosts, uint64_t *any,
                                              const int complete)
{
    const size_t ne = r->nevents;
    size_t count = 0;
    uint64_t bits = 0;
    int flags = 0;
    for (;;) {
        const char *next = NULL;
        uint64_t value;
        if (!complete) {
            if (*cur != ' ')
                break;
            if (count == ne || (next = cgwr_digits(cur + 1, &value)) == NULL) {
                if (cur[1] == '\n') /* a trailing blank: see take() */
                    break;
                return NULL;
            }
        } else {
            if ((cur = cgwr_skip(r, cur, end)) == end)
                break;
            if (!r->unterminated)
                next = cgwr_digits(cur, &value);
            if (!cgwr_token_ends(next, end) &&
                (next = cgwr_cost_rare(r, cur, end, count, &value, &flags)) == NULL)
                return NULL;
            if (count == ne) {
                cgwr_diag(r, r->lineno, CGWR_TOO_MANY_COSTS,
                          "more than %zu costs for the %zu events; the rest are ignored", ne, ne);
                break;
            }
        }
        costs[count++] = value;
        bits |= value;
        cur = next;
    }
    if (complete && cgwr_costs_checked(r, flags) < 0)
        return NULL;
    *ncosts = count;
    *any = bits;
    return complete ? end : cur;
}

/* A position line: its subpositions into pos (the new base), its costs
 * into costs (those it lacks are 0).  CGWR_FAST, inline in the fast
 * path: returns where the line stops (see cgwr_costs()) or NULL; a line
 * with a diagnostic due gives up, but for fewer costs than events once
 * that warning is only counted (cgwr_only_counted()): *few is set then,
 * for the caller to count once the line is taken (cgwr_count_few()).
 * CGWR_COMPLETE, in body.c: returns end, or NULL after an error. */
static CGWP_HOT_INLINE const char *cgwr_position_tokens(cgw_reader *r, const char *cur,
                                                        const char *end, uint64_t *pos,
                                                        uint64_t *costs, int *few,
                                                        const int complete)
{
    const size_t ne = r->nevents;
    int relative = 0;
    if ((cur = cgwr_positions(r, cur, end, pos, &relative, complete, 0)) == NULL)
        return NULL;
    if (relative && (r->first_in_block || !r->seen_cost)) {
        if (!complete)
            return NULL;
        cgwr_diag(r, r->lineno, CGWR_RELATIVE_FIRST,
                  "relative position on the first line of a function block");
    }
    if (complete)
        cgwr_set_base(r, pos);
    uint64_t any;
    size_t ncosts;
    if ((cur = cgwr_costs(r, cur, end, costs, &ncosts, &any, complete)) == NULL)
        return NULL;
    if (any >= CGWR_BIG_COST) {
        if (!complete)
            return NULL;
        cgwr_diag(r, r->lineno, CGWR_BIG_VALUE,
                  "a cost of 2^53 or more (gprof2dot and speedscope lose precision)");
    }
    if (ncosts != ne) {
        /* fewer costs than events: the rest are 0.  Callgrind writes
         * them so (it drops trailing zeros), and a jump's source line
         * with none or some, which is not warned about */
        if (r->call.kind != CGW_REC_JUMP && r->call.kind != CGW_REC_COND_JUMP) {
            if (complete)
                cgwr_diag(r, r->lineno, CGWR_FEW_COSTS,
                          "%zu costs for %zu events (speedscope reads the missing ones as NaN)",
                          ncosts, ne);
            else if (!cgwr_only_counted(r, CGWR_FEW_COSTS))
                return NULL;
            else
                *few = 1;
        }
        memset(costs + ncosts, 0, (ne - ncosts) * sizeof *costs);
    }
    return cur;
}

/* CGW_REC_JUMP or CGW_REC_COND_JUMP for a line that starts with "jump="
 * or "jcnd=" (five bytes of it are read), else 0. */
static CGWP_HOT_INLINE cgw_record_kind cgwr_jump_kind(const char *line)
{
    return memcmp(line, "jump=", 5) == 0   ? CGW_REC_JUMP
           : memcmp(line, "jcnd=", 5) == 0 ? CGW_REC_COND_JUMP : 0;
}

/* A jump line's COUNT, or a jcnd= line's FOLLOWED/EXECUTED with
 * FOLLOWED <= EXECUTED, at cur (after the '='); NULL when not so. */
static CGWP_HOT_INLINE const char *cgwr_jump_counts(const char *cur, cgw_record_kind kind,
                                               uint64_t *count, uint64_t *executed)
{
    *executed = 0;
    if ((cur = cgwr_digits(cur, count)) == NULL)
        return NULL;
    if (kind == CGW_REC_COND_JUMP &&
        (*cur != '/' || (cur = cgwr_digits(cur + 1, executed)) == NULL || *count > *executed))
        return NULL;
    return cur;
}

/* The complete branches of call and jump lines (body.c): the counts in
 * any form after blanks, and the separator after them, with their
 * diagnostics (the target's start, or NULL after an error); why the line
 * cannot be a call or jump now, reported; the warnings of a call. */
CGWP_COLD const char *cgwr_counts_rare(cgw_reader *r, cgw_record_kind kind, const char *cur,
                                       const char *end, uint64_t *count, uint64_t *executed);
CGWP_COLD void cgwr_call_refused(cgw_reader *r, cgw_record_kind kind, uint64_t count,
                                 uint64_t executed);
CGWP_COLD void cgwr_call_notes(cgw_reader *r, uint64_t count);

/* A calls=, jump= or jcnd= line at cur (after its '='): COUNT, or
 * FOLLOWED/EXECUTED for jcnd=, into *count and *executed, then the
 * target's subpositions into r->call.target_pos.  The line needs a
 * function, FOLLOWED <= EXECUTED, and for a call a callee (cfn=) named
 * in the part.  CGWR_FAST also wants a position column, decimal counts,
 * one blank before the target, and for a call a count other than 0 and a callee named
 * since the last call (else it gives up: NULL); CGWR_COMPLETE takes
 * blanks after the '=', a blank for the '/' and any number form, and
 * reports what it finds (NULL after an error).  Returns where the line
 * stops (see cgwr_positions()). */
static CGWP_HOT_INLINE const char *cgwr_call_tokens(cgw_reader *r, cgw_record_kind kind,
                                                    const char *cur, const char *end,
                                                    uint64_t *count, uint64_t *executed,
                                                    const int complete)
{
    if (!complete) {
        /* without a position column the blank after the counts would
         * end the line, a trailing blank that only the general parser
         * notes */
        if (r->part.pub.npos == 0 ||
            (cur = cgwr_jump_counts(cur, kind, count, executed)) == NULL || *cur++ != ' ')
            return NULL;
    } else if ((cur = cgwr_counts_rare(r, kind, cur, end, count, executed)) == NULL) {
        return NULL;
    }
    if (complete && r->fn == NULL) /* the block of a pending fn= starts */
        cgwr_open_function(r);
    if (r->fn == NULL || (kind == CGW_REC_COND_JUMP && *count > *executed) ||
        (kind == CGW_REC_CALL && r->cfn == NULL)) {
        if (complete)
            cgwr_call_refused(r, kind, *count, *executed);
        return NULL;
    }
    if (r->nevents == 0 || (!complete && kind == CGW_REC_CALL && (!r->cfn_fresh || *count == 0)))
        return NULL;
    int relative = 0;
    if ((cur = cgwr_positions(r, cur, end, r->call.target_pos, &relative, complete, 1)) == NULL)
        return NULL;
    if (complete && kind == CGW_REC_CALL)
        cgwr_call_notes(r, *count);
    return cur;
}

/* The ')' that ends "(ID" at cur, an ID of at most 18 digits written
 * without a leading zero, into *id; NULL for anything else, which the
 * complete branch reads (and reports). */
static CGWP_HOT_INLINE const char *cgwr_id_digits(const char *cur, uint64_t *id)
{
    if (cur[0] != '(' || (cur[1] == '0' && cur[2] != ')'))
        return NULL;
    const char *rparen = cgwr_digits(cur + 1, id);
    return rparen == NULL || rparen - cur > 1 + 18 || rparen[0] != ')' ? NULL : rparen;
}

/* The key of a name line at k (ob fl fi fe fn cob cfi cfl cfe cfn jfi
 * jfn, by its first bytes), its length into *len; CGWR_KEY_NONE for any
 * other.  Reads up to three bytes of k: the caller checks that the '='
 * comes next (k[*len]). */
static CGWP_HOT_INLINE enum cgwr_spec_key cgwr_spec_key(const char *k, size_t *len)
{
    *len = 2;
    if (k[0] == 'f')
        return k[1] == 'n'   ? CGWR_KEY_FN
               : k[1] == 'l' ? CGWR_KEY_FL
               : k[1] == 'i' ? CGWR_KEY_FI
               : k[1] == 'e' ? CGWR_KEY_FE : CGWR_KEY_NONE;
    if (k[0] == 'o')
        return k[1] == 'b' ? CGWR_KEY_OB : CGWR_KEY_NONE;
    *len = 3;
    if (k[0] == 'c' && k[1] == 'f')
        return k[2] == 'n'   ? CGWR_KEY_CFN
               : k[2] == 'i' ? CGWR_KEY_CFI
               : k[2] == 'l' ? CGWR_KEY_CFL
               : k[2] == 'e' ? CGWR_KEY_CFE : CGWR_KEY_NONE;
    if (k[0] == 'c' && k[1] == 'o' && k[2] == 'b')
        return CGWR_KEY_COB;
    if (k[0] == 'j' && k[1] == 'f')
        return k[2] == 'i' ? CGWR_KEY_JFI : k[2] == 'n' ? CGWR_KEY_JFN : CGWR_KEY_NONE;
    return CGWR_KEY_NONE;
}

/* The '\n' that ends the name at cur, when no NUL or CR comes before it;
 * else NULL.  A '\n' comes before end.  Eight bytes a step while eight
 * are left before end: the lowest byte a zero-byte test marks is exact. */
static CGWP_HOT_INLINE const char *cgwr_name_end(const char *cur, const char *end)
{
#define ZERO_BYTES(bytes) (((bytes) - CGWP_BYTES(1)) & ~(bytes) & CGWP_BYTES(0x80))
    for (; end - cur >= 8; cur += 8) {
        uint64_t word = cgwr_load_le64(cur);
        uint64_t hit = ZERO_BYTES(word ^ CGWP_BYTES('\n')) | ZERO_BYTES(word) |
                       ZERO_BYTES(word ^ CGWP_BYTES('\r'));
        if (hit != 0) {
            cur += __builtin_ctzll(hit) / 8;
            return *cur == '\n' ? cur : NULL;
        }
    }
#undef ZERO_BYTES
    for (; *cur != '\n'; cur++)
        if (*cur == '\0' || *cur == '\r')
            return NULL;
    return cur;
}

/* The value of a name line, as the inline reader takes it: "(ID)" of a
 * defined ID (used is its name), "(ID) name" (has_id) or a name (text,
 * len). */
typedef struct cgwr_name_form {
    const char *text;
    size_t len;
    uint64_t id;
    int has_id;
    const cgwr_str *used;
} cgwr_name_form;

/* The value at value of a name line of kind, when it has nothing the
 * complete branch (names.c's cgwr_name()) would note: an ID of up to 18
 * digits without a leading zero, a use only of a defined one, and a name
 * with no blank around it, no NUL or CR, not empty, not starting with
 * '('.  Returns the line's '\n' (one comes before end), the value in *f;
 * NULL for any other value.  Nothing is defined or interned yet:
 * cgwr_form_name() does that once the line is taken.  The fast path
 * reads every name line so, and the complete mode (body.c) a framed line
 * that ends in its '\n' first so too.  uses_only: NULL for any value but
 * the use of a defined ID (the callee lines of a run). */
static CGWP_HOT_INLINE const char *cgwr_plain_value(cgw_reader *r, int kind, const char *value,
                                                    const char *end, cgwr_name_form *f,
                                                    const int uses_only)
{
    const char *text = value, *nl, *rparen;
    f->has_id = 0;
    f->used = NULL;
    if (value[0] == '(') {
        if ((rparen = cgwr_id_digits(value, &f->id)) == NULL)
            return NULL;
        if (rparen[1] == '\n') { /* "(ID)": a use */
            f->used = cgwr_id_name(r, kind, f->id);
            f->text = value;
            f->len = 0;
            return f->used != NULL ? rparen + 1 : NULL;
        }
        if (uses_only || rparen[1] != ' ')
            return NULL;
        f->has_id = 1;
        text = rparen + 2;
    } else if (uses_only) {
        return NULL;
    }
    if (cgwr_space(*text) || *text == '(' || (nl = cgwr_name_end(text, end)) == NULL ||
        nl == text || cgwr_space(nl[-1]))
        return NULL;
    f->text = text;
    f->len = (size_t)(nl - text);
    return nl;
}

/* The name a value cgwr_plain_value() read stands for, defined or
 * interned now; NULL only after a sticky error. */
static CGWP_HOT_INLINE const cgwr_str *cgwr_form_name(cgw_reader *r, int kind,
                                                      const cgwr_name_form *f)
{
    if (f->used != NULL)
        return f->used;
    return f->has_id ? cgwr_id_define(r, kind, f->id, f->text, f->len)
                     : cgwr_intern(r, f->text, f->len);
}

#endif /* CGW_READ_SCAN_H */
