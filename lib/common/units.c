/* SPDX-License-Identifier: MIT */
/* units.c - which events are times, and a time in human units: the one
 * rule for cgreport's page, cgannotate --units=human and the Python
 * package (cgw.event_seconds, cgw.format_seconds).  The page's script
 * repeats cgw_format_seconds() in JavaScript, and tests/test-cgreport.sh
 * holds the two to the same strings. */
#include <stdio.h>
#include <string.h>

#include "cgw.h"

/* ASCII lower case, whatever the locale. */
static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* 1 when text[0..len) is word, ignoring ASCII case. */
static int same(const char *text, size_t len, const char *word)
{
    if (strlen(word) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (lower((unsigned char)text[i]) != word[i])
            return 0;
    return 1;
}

static const struct {
    const char *word;
    double seconds;
    int alone; /* 1: only as the whole unit, never after a '_' or blank */
} words[] = {
    { "ns", 1e-9, 1 }, { "nsec", 1e-9, 0 }, { "nanosecond", 1e-9, 0 }, { "nanoseconds", 1e-9, 0 },
    { "us", 1e-6, 1 }, { "usec", 1e-6, 0 }, { "\xc2\xb5s", 1e-6, 1 },
    { "microsecond", 1e-6, 0 }, { "microseconds", 1e-6, 0 },
    { "ms", 1e-3, 1 }, { "msec", 1e-3, 0 }, { "millisecond", 1e-3, 0 }, { "milliseconds", 1e-3, 0 },
    { "s", 1, 1 }, { "sec", 1, 1 }, { "secs", 1, 1 }, { "second", 1, 0 }, { "seconds", 1, 0 },
};

/* The seconds of the unit word text[0..len) ("ns", "usec", "seconds");
 * 0 for anything else.  tail: the word follows a '_' or blank, where the
 * short ones ("s", "ms") are not taken (a name's "_s" says little). */
static double word_seconds(const char *text, size_t len, int tail)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if ((!tail || !words[i].alone) && same(text, len, words[i].word))
            return words[i].seconds;
    return 0;
}

/* The seconds of a unit with an optional multiplier, text[0..len): "10ns",
 * "10 ns", "0.5 ms", "ns"; 0 when it is none. */
static double unit_seconds(const char *text, size_t len)
{
    double n = 0, scale = 1;
    size_t i = 0, digits = 0;
    for (; i < len && text[i] >= '0' && text[i] <= '9'; i++, digits++)
        n = n * 10 + (text[i] - '0');
    if (i < len && text[i] == '.' && digits) {
        for (i++; i < len && text[i] >= '0' && text[i] <= '9'; i++)
            n += (text[i] - '0') * (scale /= 10);
    }
    if (!digits)
        n = 1;
    while (digits && i < len && text[i] == ' ')
        i++;
    return n * word_seconds(text + i, len - i, 0);
}

/* The seconds of one count of text: the whole of it a unit ("ns",
 * "nanoseconds"), a unit in the last parentheses ("Time_(10ns)",
 * "CPU time (us)"), or a long unit word last after a '_' or blank
 * ("cpu_nanoseconds", "wall time in microseconds"). */
static double text_seconds(const char *text)
{
    size_t len = strlen(text);
    double s = unit_seconds(text, len);
    if (s > 0)
        return s;
    if (len > 2 && text[len - 1] == ')') {
        size_t open = len - 1;
        while (open > 0 && text[open - 1] != '(')
            open--;
        if (open > 0)
            return unit_seconds(text + open, len - 1 - open);
    }
    size_t start = len;
    while (start > 0 && text[start - 1] != '_' && text[start - 1] != ' ')
        start--;
    return start > 0 ? word_seconds(text + start, len - start, 1) : 0;
}

double cgw_event_seconds(const char *name, const char *long_name)
{
    double s = name ? text_seconds(name) : 0;
    if (s == 0 && long_name)
        s = text_seconds(long_name);
    return s;
}

static const char *const unit_names[] = { "ns", "us", "ms", "s" };
static const double unit_ns[] = { 1, 1e3, 1e6, 1e9 };

/* The decimals that give x (1 <= x < 1000, or past it in seconds) four
 * significant digits; nanoseconds are whole. */
static int decimals(size_t unit, double x)
{
    if (unit == 0 || x >= 1000)
        return 0;
    return x >= 100 ? 1 : x >= 10 ? 2 : 3;
}

size_t cgw_format_seconds(char *buf, size_t cap, double seconds)
{
    char dummy[1];
    if (buf == NULL || cap == 0)
        buf = dummy, cap = 1;
    if (seconds != seconds)
        return (size_t)snprintf(buf, cap, "nan");
    if (seconds == 0)
        return (size_t)snprintf(buf, cap, "0 s");
    const char *sign = seconds < 0 ? "-" : "";
    double ns = (seconds < 0 ? -seconds : seconds) * 1e9;
    size_t unit = 3;
    while (unit > 0 && ns < unit_ns[unit])
        unit--;
    if (ns >= 1e24) /* past whole seconds in 2^53 */
        return (size_t)snprintf(buf, cap, "%s%.0f s", sign, ns / 1e9);
    for (;;) {
        double x = ns / unit_ns[unit];
        int d = decimals(unit, x);
        double p = d == 3 ? 1e3 : d == 2 ? 1e2 : d == 1 ? 1e1 : 1;
        unsigned long long n = (unsigned long long)(x * p + 0.5);
        /* rounding up to the next power of ten: 999.95 ms is 1.000 s,
         * 99.996 us is 100.0 us */
        if (unit < 3 && (double)n >= 1000 * p) {
            unit++;
            continue;
        }
        if (decimals(unit, (double)n / p) != d) {
            n = (n + 5) / 10;
            p /= 10;
            d--;
        }
        unsigned long long whole = n / (unsigned long long)p, part = n % (unsigned long long)p;
        if (d == 0)
            return (size_t)snprintf(buf, cap, "%s%llu %s", sign, whole, unit_names[unit]);
        return (size_t)snprintf(buf, cap, "%s%llu.%0*llu %s", sign, whole, d, part, unit_names[unit]);
    }
}
