/* SPDX-License-Identifier: MIT */
/* formula.c - one parser for the formulas of derived events: the writer
 * refuses a bad one (cgw_add_derived_event), the reader drops it with a
 * warning, so that what the reader accepts the writer can write again. */
#include <stdio.h>
#include <string.h>

#include "formula.h"

static int is_alpha(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}

size_t cgwp_event_name_span(const char *str, size_t len)
{
    size_t span = 0;
    while (span < len &&
           (is_alpha(str[span]) || (span > 0 && str[span] >= '0' && str[span] <= '9')))
        span++;
    return span;
}

static const char *blanks(const char *at)
{
    while (*at == ' ')
        at++;
    return at;
}

int cgwp_formula_check(const char *formula, cgwp_event_known known, void *ctx, char *msg,
                       size_t msglen)
{
    const char *at = formula;
    for (;;) {
        at = blanks(at);
        if (*at >= '0' && *at <= '9') {
            while (*at >= '0' && *at <= '9')
                at++;
            at = blanks(at);
            if (*at == '*')
                at = blanks(at + 1);
        }
        const char *name = at;
        at += cgwp_event_name_span(at, strlen(at));
        if (at == name) {
            snprintf(msg, msglen, "expected an event name at byte %zu",
                     (size_t)(at - formula));
            return -1;
        }
        if (!known(ctx, name, (size_t)(at - name))) {
            snprintf(msg, msglen, "event \"%.*s\" is not defined", (int)(at - name), name);
            return -1;
        }
        at = blanks(at);
        if (*at == '\0')
            return 0;
        if (*at != '+') {
            snprintf(msg, msglen, "expected '+' at byte %zu", (size_t)(at - formula));
            return -1;
        }
        at++;
    }
}
