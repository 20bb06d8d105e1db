/* SPDX-License-Identifier: MIT */
/* message.c - the text of a sticky error. */
#include <stdio.h>

#include "message.h"

void cgwp_format_message(char *msg, size_t cap, const char *prefix, const char *fmt,
                         va_list ap)
{
    int used = 0;
    if (prefix != NULL) {
        used = snprintf(msg, cap, "%s: ", prefix);
        if (used < 0 || (size_t)used >= cap)
            return;
    }
    vsnprintf(msg + used, cap - (size_t)used, fmt, ap);
}

cgw_status cgwp_sticky(cgw_status *err, char *msg, size_t cap, cgw_status st, const char *prefix,
                       const char *fmt, va_list ap)
{
    if (*err != CGW_OK)
        return *err;
    *err = st;
    if (msg != NULL && cap > 0)
        cgwp_format_message(msg, cap, prefix, fmt, ap);
    return st;
}
