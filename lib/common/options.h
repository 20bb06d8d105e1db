/* SPDX-License-Identifier: MIT */
/* options.h - the caller's options struct, of the size it was compiled
 * with, over the defaults (see "Options structs" in cgw.h).  Never
 * installed. */
#ifndef CGW_COMMON_OPTIONS_H
#define CGW_COMMON_OPTIONS_H

#include <stddef.h>

/* Copy the options at given (NULL: keep the defaults) over *dflt, which
 * is known bytes long (this library's sizeof) and holds the defaults.
 * given's first member is its struct_size (a size_t): at least oldest
 * (the size in libcgw 0.1), and when larger than known, every byte past
 * known zero.  Only the first min(struct_size, known) bytes are read, and
 * dflt's struct_size is left as known.  0, or -1 when struct_size is bad. */
int cgwp_options_take(void *dflt, size_t known, size_t oldest, const void *given);

/* The options at *have (known bytes long) into the caller's struct at out,
 * of out's own struct_size: its members past known are zeroed; -1 (out
 * unchanged) when that struct_size is below oldest. */
int cgwp_options_give(void *out, const void *have, size_t known, size_t oldest);

#endif
