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

static const uint64_t pow10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull
};

static unsigned bit_len(uint64_t v)
{
#if defined(__GNUC__)
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
#else
    unsigned n = 0;
    while (v != 0) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

unsigned cgwp_dec_len(uint64_t v)
{
    /* 1233/4096 is just above log10(2): t is the digit count or one
     * less.  Zero has one digit, and v | 1 passes a power of ten (even)
     * exactly when v does. */
    uint64_t u = v | 1;
    unsigned t = bit_len(u) * 1233u >> 12;
    return t + (u >= pow10[t]);
}

unsigned cgwp_hex_len(uint64_t v)
{
    unsigned bits = bit_len(v);
    return 2 + (bits ? (bits + 3) / 4 : 1);
}

/* u < 1000, zero padded to three digits. */
static char *three(char *p, uint32_t u)
{
    memcpy(p, dec3z[u], 4);
    return p + 3;
}

/* v >= 1000: the leading group of one to three digits, then groups of
 * three, each one table entry. */
char *cgwp_fmt_dec_long(char *p, uint64_t v)
{
    if (v >= 1000000000) {
        p = cgwp_fmt_dec(p, v / 1000000000);
        uint32_t u = (uint32_t)(v % 1000000000);
        p = three(p, u / 1000000);
        p = three(p, u / 1000 % 1000);
        return three(p, u % 1000);
    }
    uint32_t u = (uint32_t)v;
    if (u >= 1000000) {
        p = cgwp_fmt_dec(p, u / 1000000);
        p = three(p, u / 1000 % 1000);
    } else {
        p = cgwp_fmt_dec(p, u / 1000);
    }
    return three(p, u % 1000);
}

char *cgwp_fmt_hex(char *p, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    char *end = p + cgwp_hex_len(v);
    char *q = end;
    p[0] = '0';
    p[1] = 'x';
    do {
        *--q = hex[v & 15];
        v >>= 4;
    } while (v != 0);
    return end;
}
