/* SPDX-License-Identifier: MIT */
/* flood.c - names that all collide under the reader's former hash (a
 * multiply-xor per 8-byte word, seed 0), to show that the keyed hash now
 * in lib/common/hash.h scatters them. */
#include <string.h>

#include "testutil.h"

#define OLD_MUL 0xff51afd7ed558ccdu

static uint64_t old_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= OLD_MUL;
    x ^= x >> 33;
    return x;
}

uint64_t cgwt_old_hash(const char *str, size_t len)
{
    uint64_t hash = len * 0x9e3779b97f4a7c15u, word;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        memcpy(&word, str + i, sizeof word);
        hash = (hash ^ word) * OLD_MUL;
        hash ^= hash >> 32;
    }
    if (i < len) {
        for (word = 0; i < len; i++)
            word = word << 8 | (unsigned char)str[i];
        hash = (hash ^ word) * OLD_MUL;
    }
    return old_mix(hash);
}

uint64_t cgwt_old_id_unmix(uint64_t key)
{
    uint64_t inv = OLD_MUL; /* Newton: each step doubles the good bits */
    for (int i = 0; i < 6; i++)
        inv *= 2 - OLD_MUL * inv;
    key ^= key >> 33;
    key *= inv;
    key ^= key >> 33;
    return key;
}

/* The second word cancels the state the first left: every name of 16
 * bytes ends in the same state.  Names whose second word holds a byte a
 * name line cannot carry (NUL, blanks, line ends) are passed over. */
void cgwt_flood_next(uint64_t *counter, char out[17])
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (;; ++*counter) {
        uint64_t n = *counter, w1, w2;
        out[0] = 'f';
        for (int i = 7; i >= 1; i--, n /= 62)
            out[i] = digits[n % 62];
        memcpy(&w1, out, sizeof w1);
        uint64_t state = (16 * 0x9e3779b97f4a7c15u ^ w1) * OLD_MUL;
        state ^= state >> 32;
        w2 = state ^ 0x2165646973696c6fu; /* any fixed end state */
        memcpy(out + 8, &w2, sizeof w2);
        int ok = 1;
        for (int i = 8; i < 16; i++)
            ok &= (unsigned char)out[i] > ' ';
        if (ok)
            break;
    }
    ++*counter;
    out[16] = '\0';
}

/* lib/tools' former hash of a name (FNV-1a) as its index kept it (32
 * bits, the high half folded over the low), whose low bits picked the
 * slot. */
uint32_t cgwt_old_tools_slot(const char *str, size_t len)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ (unsigned char)str[i]) * 0x100000001b3u;
    return (uint32_t)(hash ^ (hash >> 32));
}

/* A window of CGWT_TOOLS_WINDOW slots at the start of every table of up
 * to 2^CGWT_TOOLS_BITS slots: one name in 64 falls there, so a search
 * finds them fast, and names there make one run that each insert walks
 * to its end. */
void cgwt_tools_flood_next(uint64_t *counter, char out[13], int collide)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (;; ++*counter) {
        uint64_t n = *counter;
        out[0] = 't';
        for (int i = 11; i >= 1; i--, n /= 62)
            out[i] = digits[n % 62];
        if (!collide || (cgwt_old_tools_slot(out, 12) &
                         (((uint32_t)1 << CGWT_TOOLS_BITS) - 1)) < CGWT_TOOLS_WINDOW)
            break;
    }
    ++*counter;
    out[12] = '\0';
}
