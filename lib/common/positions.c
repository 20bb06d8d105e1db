/* SPDX-License-Identifier: MIT */
/* positions.c - the one place that knows the order of subpositions in a
 * position array and on a positions: line: Callgrind's, instr, bb, line
 * (callgrind/dump.c writes them so, and callgrind_annotate dies on any
 * other order). */
#include <string.h>

#include "cgw.h"

static const struct {
    unsigned kind;
    const char *name;
} order[CGW_NPOS_MAX] = {
    { CGW_POS_INSTR, "instr" },
    { CGW_POS_BB, "bb" },
    { CGW_POS_LINE, "line" },
};

size_t cgw_pos_kinds(unsigned positions, unsigned kinds[CGW_NPOS_MAX])
{
    size_t count = 0;
    if (positions & ~(unsigned)(CGW_POS_INSTR | CGW_POS_BB | CGW_POS_LINE))
        return 0;
    for (size_t i = 0; i < CGW_NPOS_MAX; i++)
        if (positions & order[i].kind)
            kinds[count++] = order[i].kind;
    return count;
}

const char *cgw_pos_name(unsigned kind)
{
    for (size_t i = 0; i < CGW_NPOS_MAX; i++)
        if (order[i].kind == kind)
            return order[i].name;
    return NULL;
}

unsigned cgw_pos_kind(const char *name, size_t len)
{
    for (size_t i = 0; i < CGW_NPOS_MAX; i++)
        if (strlen(order[i].name) == len && memcmp(order[i].name, name, len) == 0)
            return order[i].kind;
    return 0;
}
