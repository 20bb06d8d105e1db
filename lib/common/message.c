/* message.c - the text of a sticky error. */
#include <stdio.h>

#include "message.h"

void cgwp_format_message(char *msg, size_t cap, const char *prefix, const char *fmt,
                         va_list ap)
{
    int n = 0;
    if (prefix != NULL) {
        n = snprintf(msg, cap, "%s: ", prefix);
        if (n < 0 || (size_t)n >= cap)
            return;
    }
    vsnprintf(msg + n, cap - (size_t)n, fmt, ap);
}
