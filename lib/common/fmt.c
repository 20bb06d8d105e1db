/* SPDX-License-Identifier: MIT */
/* fmt.c - integers formatted by hand, straight into the output buffer,
 * three decimal digits at a time from a table of 0..999 (4 KB each for
 * the plain and the zero-padded forms); no printf family on the hot
 * path.  A number below 1000 is inline in fmt.h. */
#include "fmt.h"

/* The table entries of 0..999, made by the preprocessor: D3 gives the
 * digits of h t o without leading zeros and their count, Z3 all three. */
#define DIG(d) ((char)('0' + (d)))
#define D3(h, t, o)                                                                           \
    { (h) ? DIG(h) : (t) ? DIG(t) : DIG(o), (h) ? DIG(t) : (t) ? DIG(o) : 0,                  \
      (h) ? DIG(o) : 0, (h) ? 3 : (t) ? 2 : 1 }
#define Z3(h, t, o) { DIG(h), DIG(t), DIG(o), 0 }
#define TEN(M, h, t)                                                                          \
    M(h, t, 0), M(h, t, 1), M(h, t, 2), M(h, t, 3), M(h, t, 4), M(h, t, 5), M(h, t, 6),       \
        M(h, t, 7), M(h, t, 8), M(h, t, 9)
#define HUNDRED(M, h)                                                                         \
    TEN(M, h, 0), TEN(M, h, 1), TEN(M, h, 2), TEN(M, h, 3), TEN(M, h, 4), TEN(M, h, 5),       \
        TEN(M, h, 6), TEN(M, h, 7), TEN(M, h, 8), TEN(M, h, 9)
#define THOUSAND(M)                                                                           \
    HUNDRED(M, 0), HUNDRED(M, 1), HUNDRED(M, 2), HUNDRED(M, 3), HUNDRED(M, 4),                \
        HUNDRED(M, 5), HUNDRED(M, 6), HUNDRED(M, 7), HUNDRED(M, 8), HUNDRED(M, 9)

const char cgwp_dec3[1000][4] = { THOUSAND(D3) };
static const char dec3z[1000][4] = { THOUSAND(Z3) };

const uint64_t cgwp_pow10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull
};

/* group < 1000, zero padded to three digits. */
static char *three(char *out, uint32_t group)
{
    memcpy(out, dec3z[group], 4);
    return out + 3;
}

/* value >= 1000: the leading group of one to three digits, then groups
 * of three, each one table entry. */
char *cgwp_fmt_dec_long(char *out, uint64_t value)
{
    if (value >= 1000000000) {
        out = cgwp_fmt_dec(out, value / 1000000000);
        uint32_t low = (uint32_t)(value % 1000000000);
        out = three(out, low / 1000000);
        out = three(out, low / 1000 % 1000);
        return three(out, low % 1000);
    }
    uint32_t low = (uint32_t)value;
    if (low >= 1000000) {
        out = cgwp_fmt_dec(out, low / 1000000);
        out = three(out, low / 1000 % 1000);
    } else {
        out = cgwp_fmt_dec(out, low / 1000);
    }
    return three(out, low % 1000);
}

char *cgwp_fmt_hex(char *out, uint64_t value)
{
    static const char hex[] = "0123456789abcdef";
    char *end = out + cgwp_hex_len(value);
    char *digit = end;
    out[0] = '0';
    out[1] = 'x';
    do {
        *--digit = hex[value & 15];
        value >>= 4;
    } while (value != 0);
    return end;
}
