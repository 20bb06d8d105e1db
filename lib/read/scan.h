/* SPDX-License-Identifier: MIT */
/* scan.h - the scanners of the reader's fast path: numbers, positions
 * and the cost line read once, its warnings noted, inline in the files
 * that read lines (body.c tries cgwr_scan() first too).  They only
 * read the reader's state.  Never installed. */
#ifndef CGW_READ_SCAN_H
#define CGW_READ_SCAN_H

#include "read.h"

/* Costs from 2^53 on lose precision in gprof2dot and speedscope. */
#define CGWR_BIG_COST ((uint64_t)1 << 53)

/* A position line starts with a digit, '+', '-' or '*'. */
static inline int cgwr_starts_position(char byte)
{
    return (byte >= '0' && byte <= '9') || byte == '+' || byte == '-' || byte == '*';
}

/* The position line, read once: single spaces, decimal or lowercase 0x
 * numbers short enough not to overflow, relative steps that stay in
 * range, and up to one cost for every event.  What such a line may still
 * be warned about is not a reason to read it again: a relative position
 * on a block's first line, a cost of 2^53 or more, fewer costs than
 * events (the rest are 0; a jump's source line has none, as Callgrind
 * writes it, and is not warned about) are noted in *notes
 * (CGWR_NOTE_*, the number of costs read above CGWR_NOTE_SHIFT), for
 * cgwr_position_notes() to report once the line is taken; fewer costs
 * than events, once that warning is only counted (cgwr_only_counted()),
 * set *few instead, for the caller to count (cgwr_count_few()).  cgwr_scan()
 * stops at the first byte that does not continue the line, or at a blank
 * just before the '\n', and returns it (take() checks that it ends the
 * line), or NULL to send the line to the general parser (body.c), which
 * reports whatever made this one give up: a tab or several blanks,
 * uppercase hex, a 0X prefix, a hex step or cost, an overflow, more
 * costs than events, a malformed number.  It needs a readable byte that
 * is not a digit or a blank after the line (a '\n', or what
 * cgwr_getline() cut off), so it needs no bound. */
enum {
    CGWR_NOTE_RELATIVE_FIRST = 1,
    CGWR_NOTE_BIG = 2,
    CGWR_NOTE_FEW = 4,
    CGWR_NOTE_READ = 8, /* set with any: the line was read */
    CGWR_NOTE_SHIFT = 16
};

static CGWP_HOT_INLINE const char *cgwr_digits(const char *text, uint64_t *value)
{
    /* past 19 digits the value may have wrapped: the general parser.
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
 * (uppercase ones go to the general parser, which notes them). */
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
 * that stays in range; NULL to send the line to the general parser. */
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
        /* a step of 2^31 or more: the general parser's big-position */
        if ((step >> 31) != 0 || (ch == '+' ? step > UINT64_MAX - base : step > base))
            return NULL;
        *out = ch == '+' ? base + step : base - step;
        return cur;
    }
    if (ch == '0' && cur[1] == 'x')
        return cgwr_hex_digits(cur + 2, end, out);
    /* a decimal of 2^32 or more may be a line KCachegrind misreads: the
     * general parser knows which subposition it is */
    cur = cgwr_digits(cur, out);
    return cur != NULL && (*out >> 32) == 0 ? cur : NULL;
}

/* The subpositions of a position line or of a call's target, in the
 * form cgwr_scan() takes; *relative says whether one was relative. */
static CGWP_HOT_INLINE const char *cgwr_scan_positions(const cgw_reader *r, const char *cur,
                                                  const char *end, uint64_t *pos, int *relative)
{
    size_t npos = r->part.pub.npos;
    for (size_t i = 0; i < npos; i++) {
        int slot = r->pos_order[i];
        if (i > 0 && *cur++ != ' ')
            return NULL;
        if ((cur = cgwr_one_position(cur, end, r->base[slot], &pos[slot], relative)) == NULL)
            return NULL;
    }
    return cur;
}

/* The costs at cur, each after one blank, after the *ncosts ones read
 * already (their bits or-ed in *any), up to ne of them: cgwr_scan()'s
 * loop.  Returns where they stop, or the blank that ends the line just
 * before its '\n'; NULL when a blank is followed by anything else. */
static CGWP_HOT_INLINE const char *cgwr_scan_costs(const char *cur, size_t ne, uint64_t *costs,
                                                   size_t *ncosts, uint64_t *any)
{
    size_t count = *ncosts;
    uint64_t bits = *any;
    while (*cur == ' ') {
        const char *next;
        if (count == ne || (next = cgwr_digits(cur + 1, &costs[count])) == NULL) {
            if (cur[1] == '\n') /* a trailing blank: see take() */
                break;
            return NULL;
        }
        cur = next;
        bits |= costs[count++];
    }
    *ncosts = count;
    *any = bits;
    return cur;
}

/* cgwr_scan()'s rare branches, which finish the line (body.c): the
 * costs of a position line from cur on, ncosts of them already read
 * into costs (their bits or-ed in any); or, after a relative position on
 * a block's first line, all of them.  They return NULL, and set
 * r->notes (CGWR_NOTE_READ and what the line gets) and r->notes_stop
 * (what cgwr_scan() would return) when the line is one cgwr_scan()
 * reads. */
CGWP_COLD const char *cgwr_scan_finish(cgw_reader *r, const char *cur, uint64_t *costs,
                                       size_t ncosts, uint64_t any);
CGWP_COLD const char *cgwr_scan_relative_first(cgw_reader *r, const char *cur, uint64_t *costs);

static CGWP_HOT_INLINE const char *cgwr_scan(cgw_reader *r, const char *cur, const char *end,
                                             uint64_t *pos, uint64_t *costs, int *few)
{
    size_t ne = r->nevents;
    int relative = 0;
    if ((cur = cgwr_scan_positions(r, cur, end, pos, &relative)) == NULL)
        return NULL;
    if (relative && (r->first_in_block || !r->seen_cost))
        return cgwr_scan_relative_first(r, cur, costs);
    uint64_t any = 0;
    size_t ncosts = 0;
    if ((cur = cgwr_scan_costs(cur, ne, costs, &ncosts, &any)) == NULL)
        return NULL;
    if (any >= CGWR_BIG_COST)
        return cgwr_scan_finish(r, cur, costs, ncosts, any);
    if (ncosts != ne) {
        /* fewer costs than events: the rest are 0.  Callgrind writes
         * them so (it drops trailing zeros), and a jump's source line
         * with none or some, which is not warned about.  Once the warning
         * is only counted, the line is read here and *few set for the
         * caller to count it once the line is taken. */
        if (r->call.kind != CGW_REC_JUMP && r->call.kind != CGW_REC_COND_JUMP) {
            if (!cgwr_only_counted(r, CGWR_FEW_COSTS))
                return cgwr_scan_finish(r, cur, costs, ncosts, any);
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

/* The ')' that ends "(ID" at cur, an ID of at most 18 digits written
 * without a leading zero, into *id; NULL for anything else, which the
 * general parser reads (and reports). */
static CGWP_HOT_INLINE const char *cgwr_id_digits(const char *cur, uint64_t *id)
{
    if (cur[0] != '(' || (cur[1] == '0' && cur[2] != ')'))
        return NULL;
    const char *rparen = cgwr_digits(cur + 1, id);
    return rparen == NULL || rparen - cur > 1 + 18 || rparen[0] != ')' ? NULL : rparen;
}

#endif /* CGW_READ_SCAN_H */
