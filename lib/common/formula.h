/* SPDX-License-Identifier: MIT */
/* formula.h - the grammar of derived events, shared by the writer and
 * the reader.  Never installed. */
#ifndef CGW_FORMULA_H
#define CGW_FORMULA_H

#include <stddef.h>

/* The length of the longest prefix of str[0..len) that is an event name
 * usable in formulas, [A-Za-z_][A-Za-z0-9_]*: 0 when there is none. */
size_t cgwp_event_name_span(const char *str, size_t len);

/* Whether the event name[0..len) may appear in the formula. */
typedef int (*cgwp_event_known)(void *ctx, const char *name, size_t len);

/* 0 when formula is FORMULA := TERM ('+' TERM)*, TERM := [NUMBER ['*']] EVENT
 * (blanks between tokens) and known() accepts every EVENT; otherwise -1
 * and what is wrong in msg ("event \"X\" is not defined", ...). */
int cgwp_formula_check(const char *formula, cgwp_event_known known, void *ctx, char *msg,
                       size_t msglen);

#endif
