/* fmt.c - integers formatted by hand, straight into the output buffer.
 * Two digits per step from a table; no printf family on the hot path. */
#include "internal.h"

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

unsigned cgwp_dec_len(uint64_t v)
{
    unsigned n = 1;
    while (v >= 10000) {
        v /= 10000;
        n += 4;
    }
    if (v >= 1000)
        return n + 3;
    if (v >= 100)
        return n + 2;
    return v >= 10 ? n + 1 : n;
}

unsigned cgwp_hex_len(uint64_t v)
{
    unsigned n = 1;
    while (v >= 16) {
        v >>= 4;
        n++;
    }
    return n + 2;
}

char *cgwp_fmt_dec(char *p, uint64_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    unsigned n = cgwp_dec_len(v);
    char *end = p + n;
    char *q = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        q[0] = digits2[2 * r];
        q[1] = digits2[2 * r + 1];
    }
    if (v >= 10) {
        q -= 2;
        q[0] = digits2[2 * v];
        q[1] = digits2[2 * v + 1];
    } else {
        *--q = (char)('0' + v);
    }
    return end;
}

char *cgwp_fmt_hex(char *p, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    unsigned n = cgwp_hex_len(v);
    char *end = p + n;
    char *q = end;
    p[0] = '0';
    p[1] = 'x';
    do {
        *--q = hex[v & 15];
        v >>= 4;
    } while (v != 0);
    return end;
}
