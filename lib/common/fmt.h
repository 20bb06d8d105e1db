/* SPDX-License-Identifier: MIT */
/* fmt.h - integers formatted by hand, straight into an output buffer;
 * each call returns the end of what it wrote.  Their lengths are inline,
 * for compact mode's choice of the shorter form.  A decimal takes at most
 * 20 bytes, a 0x hex number 18; give them one byte more (the digits are
 * stored 4 bytes at a time).  Never installed. */
#ifndef CGW_COMMON_FMT_H
#define CGW_COMMON_FMT_H

#include <stdint.h>
#include <string.h>

extern const char cgwp_dec3[1000][4]; /* [value]: its digits, their count in [3] */
char *cgwp_fmt_dec_long(char *out, uint64_t value);
char *cgwp_fmt_hex(char *out, uint64_t value);
extern const uint64_t cgwp_pow10[20];

/* The number of bits of value (0 for 0). */
static inline unsigned cgwp_bit_len(uint64_t value)
{
#if defined(__GNUC__)
    return value ? 64u - (unsigned)__builtin_clzll(value) : 0u;
#else
    unsigned bits = 0;
    while (value != 0) {
        value >>= 1;
        bits++;
    }
    return bits;
#endif
}

/* The length of value in decimal. */
static inline unsigned cgwp_dec_len(uint64_t value)
{
    /* 1233/4096 is just above log10(2): guess is the digit count or one
     * less.  Zero has one digit, and value | 1 passes a power of ten
     * (even) exactly when value does. */
    uint64_t odd = value | 1;
    unsigned guess = cgwp_bit_len(odd) * 1233u >> 12;
    return guess + (odd >= cgwp_pow10[guess]);
}

/* The length of value in hex, "0x" included. */
static inline unsigned cgwp_hex_len(uint64_t value)
{
    unsigned bits = cgwp_bit_len(value);
    return 2 + (bits ? (bits + 3) / 4 : 1);
}

/* Most costs and position steps are below 1000: one table entry, stored
 * whole, with no branch on the length. */
static inline char *cgwp_fmt_dec(char *out, uint64_t value)
{
    if (value < 1000) {
        memcpy(out, cgwp_dec3[value], 4);
        return out + cgwp_dec3[value][3];
    }
    return cgwp_fmt_dec_long(out, value);
}

/* An absolute subposition: hex for an address, else decimal. */
static inline char *cgwp_pos_abs(char *out, uint64_t value, int hex)
{
    return hex ? cgwp_fmt_hex(out, value) : cgwp_fmt_dec(out, value);
}

/* A relative subposition: "*", "+N" or "-N" from base. */
static inline char *cgwp_pos_step(char *out, uint64_t value, uint64_t base)
{
    if (value == base) {
        *out = '*';
        return out + 1;
    }
    if (value > base) {
        *out = '+';
        return cgwp_fmt_dec(out + 1, value - base);
    }
    *out = '-';
    return cgwp_fmt_dec(out + 1, base - value);
}

#endif /* CGW_COMMON_FMT_H */
