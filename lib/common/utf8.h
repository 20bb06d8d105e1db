/* SPDX-License-Identifier: MIT */
/* utf8.h - whether bytes are well-formed UTF-8, for the writer (which
 * refuses names gprof2dot would reject) and the reader (which warns of
 * them), by the rule of cgw_utf8_char() (utf8.c).  Never installed. */
#ifndef CGW_COMMON_UTF8_H
#define CGW_COMMON_UTF8_H

#include <stddef.h>

#include "cgw.h"

/* 1 when bytes[0..len) is well-formed UTF-8. */
int cgwp_utf8_valid(const unsigned char *bytes, size_t len);

/* The offset of the first byte of text[0..len) that a name or header
 * text of the portable subset may not have: a control byte (a line feed,
 * a tab, DEL) or one that starts no well-formed UTF-8 character; len
 * when there is none.  The one rule of the writer's check, of the
 * folded-stack parser and of cgw_stacks_add(). */
size_t cgwp_text_bad(const char *text, size_t len);

/* 1 when byte is a control byte (below a blank, or DEL). */
static inline int cgwp_control(unsigned char byte)
{
    return byte < 0x20 || byte == 0x7f;
}

#endif /* CGW_COMMON_UTF8_H */
