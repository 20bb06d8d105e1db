/* formula.c - one parser for the formulas of derived events: the writer
 * refuses a bad one (cgw_add_derived_event), the reader drops it with a
 * warning, so that what the reader accepts the writer can write again. */
#include <stdio.h>
#include <string.h>

#include "formula.h"

static int is_alpha(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

size_t cgwp_event_name_span(const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && (is_alpha(s[n]) || (n > 0 && s[n] >= '0' && s[n] <= '9')))
        n++;
    return n;
}

static const char *blanks(const char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

int cgwp_formula_check(const char *f, cgwp_event_known known, void *ctx, char *msg,
                       size_t msglen)
{
    const char *s = f;
    for (;;) {
        s = blanks(s);
        if (*s >= '0' && *s <= '9') {
            while (*s >= '0' && *s <= '9')
                s++;
            s = blanks(s);
            if (*s == '*')
                s = blanks(s + 1);
        }
        const char *name = s;
        s += cgwp_event_name_span(s, strlen(s));
        if (s == name) {
            snprintf(msg, msglen, "expected an event name at byte %zu", (size_t)(s - f));
            return -1;
        }
        if (!known(ctx, name, (size_t)(s - name))) {
            snprintf(msg, msglen, "event \"%.*s\" is not defined", (int)(s - name), name);
            return -1;
        }
        s = blanks(s);
        if (*s == '\0')
            return 0;
        if (*s != '+') {
            snprintf(msg, msglen, "expected '+' at byte %zu", (size_t)(s - f));
            return -1;
        }
        s++;
    }
}
