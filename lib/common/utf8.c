/* SPDX-License-Identifier: MIT */
/* utf8.c - well-formed UTF-8 (RFC 3629), the one decoder of it: for the
 * writer, the reader and, through cgw_utf8_char(), the modules over
 * <cgw.h> and the tools. */
#include "utf8.h"

size_t cgw_utf8_char(const char *text, size_t len, size_t *cut)
{
    const unsigned char *bytes = (const unsigned char *)text;
    size_t dummy;
    if (cut == NULL)
        cut = &dummy;
    *cut = 0;
    if (text == NULL || len == 0)
        return 0;
    unsigned lead = bytes[0];
    size_t need = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3
                  : lead < 0xf5 ? 4 : 0;
    for (size_t i = 1; i < need; i++) {
        if (i == len || (bytes[i] & 0xc0) != 0x80) {
            *cut = i;
            return 0;
        }
        /* the second byte's range rules out overlong forms, surrogates
         * and code points past U+10FFFF */
        if (i == 1 && ((lead == 0xe0 && bytes[1] < 0xa0) || (lead == 0xed && bytes[1] > 0x9f) ||
                       (lead == 0xf0 && bytes[1] < 0x90) || (lead == 0xf4 && bytes[1] > 0x8f)))
            return 0;
    }
    return need;
}

int cgwp_utf8_valid(const unsigned char *bytes, size_t len)
{
    for (size_t at = 0; at < len;) {
        if (bytes[at] < 0x80) {
            at++;
            continue;
        }
        size_t step = cgw_utf8_char((const char *)bytes + at, len - at, NULL);
        if (step == 0)
            return 0;
        at += step;
    }
    return 1;
}

size_t cgwp_text_bad(const char *text, size_t len)
{
    for (size_t at = 0; at < len;) {
        unsigned char byte = (unsigned char)text[at];
        size_t step = byte < 0x80 ? !cgwp_control(byte) : cgw_utf8_char(text + at, len - at, NULL);
        if (step == 0)
            return at;
        at += step;
    }
    return len;
}
