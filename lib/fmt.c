/* fmt.c - integers formatted by hand, straight into the output buffer.
 * The length comes from the bit length and one table compare, then two
 * digits per step from a table; no printf family on the hot path.  The
 * one- and two-digit cases are inline in internal.h. */
#include "internal.h"

const char cgwp_digits2[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9'
};

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

/* The eight digits of v < 10^8 as eight bytes, the first digit in the
 * lowest byte: the value is split into lanes of 4, 2 and 1 digits inside
 * one 64-bit word (each division by a multiply and shift that is exact
 * for the lane's range), then '0' is added to every byte. */
static uint64_t eight_digits(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t y = (x * 10486 >> 20) & 0x0000007f0000007full; /* a / 100, a < 10^4 */
    x = y | (x - y * 100) << 16;
    y = (x * 103 >> 10) & 0x000f000f000f000full; /* b / 10, b < 100 */
    x = y | (x - y * 10) << 8;
    return x + 0x3030303030303030ull;
}

/* v >= 100.  Up to eight digits in one 8-byte store (inside the 20
 * bytes of room any decimal needs), longer values two digits a step from
 * the end. */
char *cgwp_fmt_dec_long(char *p, uint64_t v)
{
    unsigned n = cgwp_dec_len(v);
    if (v < 100000000) {
        uint64_t d = eight_digits((uint32_t)v) >> (8 * (8 - n));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        d = __builtin_bswap64(d);
#endif
        memcpy(p, &d, 8);
        return p + n;
    }
    char *end = p + n, *q = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, cgwp_digits2 + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(q - 2, cgwp_digits2 + 2 * v, 2);
    else
        q[-1] = (char)('0' + v);
    return end;
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
