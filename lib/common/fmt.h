/* SPDX-License-Identifier: MIT */
/* fmt.h - integers formatted by hand, straight into an output buffer;
 * each call returns the end of what it wrote.  A decimal takes at most
 * 20 bytes, a 0x hex number 18; give them one byte more (the digits are
 * stored 4 bytes at a time).  Never installed. */
#ifndef CGW_COMMON_FMT_H
#define CGW_COMMON_FMT_H

#include <stdint.h>
#include <string.h>

extern const char cgwp_dec3[1000][4]; /* [value]: its digits, their count in [3] */
char *cgwp_fmt_dec_long(char *out, uint64_t value);
char *cgwp_fmt_hex(char *out, uint64_t value);
unsigned cgwp_dec_len(uint64_t value);
unsigned cgwp_hex_len(uint64_t value);

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
