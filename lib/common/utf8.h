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

#endif /* CGW_COMMON_UTF8_H */
