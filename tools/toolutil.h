/* toolutil.h - argument parsing shared by the tools (not installed). */
#ifndef CGW_TOOLUTIL_H
#define CGW_TOOLUTIL_H

#include <stdint.h>

/* "line", "instr", "instr,line" (any order, "bb" too) into a CGW_POS_*
 * mask; -1 when s names something else. */
int tool_positions(const char *s, unsigned *mask);

/* A decimal count with an optional K, M or G (powers of 1024) suffix;
 * -1 when s is not one. */
int tool_size(const char *s, uint64_t *v);

/* A decimal number up to max; -1 when s is not one. */
int tool_uint(const char *s, uint64_t max, uint64_t *v);

#endif
