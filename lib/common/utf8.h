/* SPDX-License-Identifier: MIT */
/* utf8.h - whether bytes are well-formed UTF-8, for the writer (which
 * refuses names gprof2dot would reject) and the reader (which warns of
 * them).  Never installed. */
#ifndef CGW_COMMON_UTF8_H
#define CGW_COMMON_UTF8_H

#include <stddef.h>

/* 1 when str[0..len) is well-formed UTF-8 (lead and continuation bytes;
 * overlong 3- and 4-byte forms are not looked for: this is a
 * portability check). */
int cgwp_utf8_valid(const unsigned char *bytes, size_t len);

#endif /* CGW_COMMON_UTF8_H */
