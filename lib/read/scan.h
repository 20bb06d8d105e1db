/* scan.h - the scanners of the reader's fast path: numbers, positions
 * and the cost line read once with no diagnostic to give, inline in the
 * files that read lines (body.c tries cgwr_scan() first too).  They only
 * read the reader's state.  Never installed. */
#ifndef CGW_READ_SCAN_H
#define CGW_READ_SCAN_H

#include "read.h"

/* Costs from 2^53 on lose precision in gprof2dot and speedscope. */
#define CGWR_BIG_COST ((uint64_t)1 << 53)

/* A position line starts with a digit, '+', '-' or '*'. */
static inline int cgwr_starts_position(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}

/* The common position line, parsed once with no diagnostic to give:
 * single spaces, decimal or lowercase 0x numbers short enough not to
 * overflow, relative steps that stay in range, costs below 2^53, one for
 * every event (none on a jump's source line).  cgwr_scan() stops at the first
 * byte that does not continue the line, or at a blank just before the
 * '\n', and returns it (take() checks that it ends the line), or NULL to
 * send the line to the general parser, which reports whatever made this
 * one give up.  It needs a readable byte that is not a digit or a blank
 * after the line (a '\n', or what cgwr_getline() cut off), so it needs
 * no bound. */
static CGWP_HOT_INLINE const char *cgwr_digits(const char *p, uint64_t *v)
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
static CGWP_HOT_INLINE uint64_t cgwr_lower_hex(unsigned char c)
{
    uint64_t d = (uint64_t)c - '0';
    if (d < 10)
        return d;
    d = (uint64_t)c - 'a';
    return d < 6 ? d + 10 : 16;
}

/* Eight input bytes as a number whose low byte is the first of them. */
static CGWP_HOT_INLINE uint64_t cgwr_load_le64(const char *p)
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
static CGWP_HOT_INLINE const char *cgwr_hex_digits(const char *q, const char *end, uint64_t *out)
{
    if (end - q >= 8) {
        uint64_t w = cgwr_load_le64(q), y = w & CGWP_BYTES(0x7f);
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
    while (q < s + 16 && q < end && (d = cgwr_lower_hex((unsigned char)*q)) < 16) {
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
static CGWP_HOT_INLINE const char *cgwr_one_position(const char *p, const char *end, uint64_t base,
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
        if ((p = cgwr_digits(p + 1, &v)) == NULL)
            return NULL;
        if (ch == '+' ? v > UINT64_MAX - base : v > base)
            return NULL;
        *out = ch == '+' ? base + v : base - v;
        return p;
    }
    if (ch == '0' && p[1] == 'x')
        return cgwr_hex_digits(p + 2, end, out);
    return cgwr_digits(p, out);
}

/* The subpositions of a position line or of a call's target, in the
 * form cgwr_scan() takes; *relative says whether one was relative. */
static CGWP_HOT_INLINE const char *cgwr_scan_positions(const cgw_reader *r, const char *p,
                                                  const char *end, uint64_t *pos, int *relative)
{
    size_t npos = r->part.pub.npos;
    for (size_t i = 0; i < npos; i++) {
        int slot = r->pos_order[i];
        if (i > 0 && *p++ != ' ')
            return NULL;
        if ((p = cgwr_one_position(p, end, r->base[slot], &pos[slot], relative)) == NULL)
            return NULL;
    }
    return p;
}

static CGWP_HOT_INLINE const char *cgwr_scan(const cgw_reader *r, const char *p, const char *end,
                                        uint64_t *pos, uint64_t *c)
{
    size_t ne = r->nevents;
    int relative = 0;
    if ((p = cgwr_scan_positions(r, p, end, pos, &relative)) == NULL)
        return NULL;
    if (relative && (r->first_in_block || !r->seen_cost))
        return NULL;
    uint64_t any = 0;
    size_t n = 0;
    while (*p == ' ') {
        const char *q;
        if (n == ne || (q = cgwr_digits(p + 1, &c[n])) == NULL) {
            if (p[1] == '\n') /* a trailing blank: see take() */
                break;
            return NULL;
        }
        p = q;
        any |= c[n++];
    }
    if (any >= CGWR_BIG_COST)
        return NULL;
    if (n != ne) {
        /* the source line of a jump has no costs, as Callgrind writes it */
        if (n != 0 || r->call.kind == 0 || r->call.kind == CGW_REC_CALL)
            return NULL;
        memset(c, 0, ne * sizeof *c);
    }
    return p;
}

/* CGW_REC_JUMP or CGW_REC_COND_JUMP for a line that starts with "jump="
 * or "jcnd=" (five bytes of it are read), else 0. */
static CGWP_HOT_INLINE cgw_record_kind cgwr_jump_kind(const char *p)
{
    return memcmp(p, "jump=", 5) == 0   ? CGW_REC_JUMP
           : memcmp(p, "jcnd=", 5) == 0 ? CGW_REC_COND_JUMP : 0;
}

/* A jump line's COUNT, or a jcnd= line's FOLLOWED/EXECUTED with
 * FOLLOWED <= EXECUTED, at p (after the '='); NULL when not so. */
static CGWP_HOT_INLINE const char *cgwr_jump_counts(const char *p, cgw_record_kind kind,
                                               uint64_t *count, uint64_t *executed)
{
    *executed = 0;
    if ((p = cgwr_digits(p, count)) == NULL)
        return NULL;
    if (kind == CGW_REC_COND_JUMP &&
        (*p != '/' || (p = cgwr_digits(p + 1, executed)) == NULL || *count > *executed))
        return NULL;
    return p;
}

/* The ')' that ends "(ID" at p, an ID of at most 18 digits written
 * without a leading zero, into *id; NULL for anything else, which the
 * general parser reads (and reports). */
static CGWP_HOT_INLINE const char *cgwr_id_digits(const char *p, uint64_t *id)
{
    if (p[0] != '(' || (p[1] == '0' && p[2] != ')'))
        return NULL;
    const char *e = cgwr_digits(p + 1, id);
    return e == NULL || e - p > 1 + 18 || e[0] != ')' ? NULL : e;
}

#endif /* CGW_READ_SCAN_H */
