/* SPDX-License-Identifier: MIT */
/* utf8.c - well-formed UTF-8 (RFC 3629), the one check of it: for the
 * writer, the reader and, through cgw_utf8_span(), lib/tools. */
#include "cgw.h"

size_t cgw_utf8_span(const char *text, size_t len)
{
    const unsigned char *bytes = (const unsigned char *)text;
    if (text == NULL)
        return 0;
    for (size_t at = 0; at < len;) {
        unsigned lead = bytes[at];
        if (lead < 0x80) {
            at++;
            continue;
        }
        size_t ncont = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2
                       : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
        if (ncont == 0 || len - at <= ncont)
            return at;
        /* the second byte's range rules out overlong forms, surrogates
         * and code points past U+10FFFF */
        unsigned low = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
        unsigned high = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
        if (bytes[at + 1] < low || bytes[at + 1] > high)
            return at;
        for (size_t j = 2; j <= ncont; j++)
            if ((bytes[at + j] & 0xc0) != 0x80)
                return at;
        at += ncont + 1;
    }
    return len;
}
