/* fmt.h - integers formatted by hand, straight into an output buffer;
 * each call returns the end of what it wrote.  A decimal takes at most
 * 20 bytes, a 0x hex number 18; give them one byte more (the digits are
 * stored 4 bytes at a time).  Never installed. */
#ifndef CGW_COMMON_FMT_H
#define CGW_COMMON_FMT_H

#include <stdint.h>
#include <string.h>

extern const char cgwp_dec3[1000][4]; /* v < 1000: its digits, their count in [3] */
char *cgwp_fmt_dec_long(char *p, uint64_t v);
char *cgwp_fmt_hex(char *p, uint64_t v);
unsigned cgwp_dec_len(uint64_t v);
unsigned cgwp_hex_len(uint64_t v);

/* Most costs and position steps are below 1000: one table entry, stored
 * whole, with no branch on the length. */
static inline char *cgwp_fmt_dec(char *p, uint64_t v)
{
    if (v < 1000) {
        memcpy(p, cgwp_dec3[v], 4);
        return p + cgwp_dec3[v][3];
    }
    return cgwp_fmt_dec_long(p, v);
}

/* A relative subposition: "*", "+N" or "-N" from base b. */
static inline char *cgwp_pos_step(char *p, uint64_t v, uint64_t b)
{
    if (v == b) {
        *p = '*';
        return p + 1;
    }
    if (v > b) {
        *p = '+';
        return cgwp_fmt_dec(p + 1, v - b);
    }
    *p = '-';
    return cgwp_fmt_dec(p + 1, b - v);
}

#endif /* CGW_COMMON_FMT_H */
