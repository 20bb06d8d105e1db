/* SPDX-License-Identifier: MIT */
/* test-units: cgw_event_seconds(), which events are times and of what
 * unit, on the names real writers give (cgw.cprofile's "ns", Xdebug's
 * "Time_(10ns)", pyprof2calltree's and yappi's "Ticks", Callgrind's);
 * and cgw_format_seconds(), four significant digits in ns, us, ms or s,
 * at the edges where rounding moves to the next unit or digit. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static const struct {
    const char *name, *long_name;
    double seconds;
} events[] = {
    { "ns", NULL, 1e-9 },                  /* cgw.cprofile */
    { "Time_(10ns)", NULL, 1e-8 },         /* Xdebug 3 */
    { "Time_(10 ns)", NULL, 1e-8 },
    { "cpu_nanoseconds", NULL, 1e-9 },
    { "wall_nanoseconds", NULL, 1e-9 },
    { "wall_microseconds", NULL, 1e-6 },
    { "us", NULL, 1e-6 },
    { "usec", NULL, 1e-6 },
    { "ms", NULL, 1e-3 },
    { "msec", NULL, 1e-3 },
    { "s", NULL, 1 },
    { "sec", NULL, 1 },
    { "seconds", NULL, 1 },
    { "T", "nanoseconds", 1e-9 },          /* event: T : nanoseconds */
    { "T", "Time (us)", 1e-6 },
    { "T", "wall time in milliseconds", 1e-3 },
    { "t", "0.5ms", 5e-4 },
    { "ns", "Ticks", 1e-9 },               /* the name first */
    { NULL, "ns", 1e-9 },
    { "Ticks", NULL, 0 },                  /* pyprof2calltree, yappi */
    { "Ticks", "ticks", 0 },
    { "Ir", "Instruction Fetch", 0 },
    { "Samples", NULL, 0 },
    { "Memory_(bytes)", NULL, 0 },         /* Xdebug */
    { "Time", NULL, 0 },                   /* no unit */
    { "Dr_s", NULL, 0 },                   /* a short unit only alone */
    { "bus", NULL, 0 },
    { "nss", NULL, 0 },
    { "(ns", NULL, 0 },
    { "()", NULL, 0 },
    { "", "", 0 },
    { NULL, NULL, 0 },
};

static const struct {
    double seconds;
    const char *text;
} formats[] = {
    { 0.1057355, "105.7 ms" },
    { 3, "3.000 s" },
    { 950e-9, "950 ns" },
    { 0.99995, "1.000 s" },       /* 999.95 ms rounds to the next unit */
    { 0.99994, "999.9 ms" },
    { 999.6e-9, "1.000 us" },     /* whole ns round into us */
    { 99.996e-6, "100.0 us" },    /* and into one digit fewer */
    { 9.9996e-3, "10.00 ms" },
    { 1e-6, "1.000 us" },
    { 12.5e-6, "12.50 us" },
    { 1e-9, "1 ns" },
    { 0.4e-9, "0 ns" },
    { 0, "0 s" },
    { -0.25, "-250.0 ms" },
    { 1234.5, "1235 s" },
    { 86400, "86400 s" },
};

int main(void)
{
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        double got = cgw_event_seconds(events[i].name, events[i].long_name);
        if (got != events[i].seconds && !(got > events[i].seconds * 0.999999 &&
                                          got < events[i].seconds * 1.000001))
            cgwt_fail(__FILE__, __LINE__, "cgw_event_seconds(%s, %s) = %g, not %g",
                      events[i].name ? events[i].name : "NULL",
                      events[i].long_name ? events[i].long_name : "NULL", got, events[i].seconds);
    }
    char buf[32];
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        size_t n = cgw_format_seconds(buf, sizeof buf, formats[i].seconds);
        CHECK_STR(buf, formats[i].text);
        CHECK_U64(n, strlen(formats[i].text));
    }
    /* cut to fit, the whole length returned; no buffer at all */
    CHECK_U64(cgw_format_seconds(buf, 4, 0.1057355), 8);
    CHECK_STR(buf, "105");
    CHECK_U64(cgw_format_seconds(NULL, 0, 3), 7);
    printf("units: %zu event names, %zu times formatted\n", sizeof events / sizeof events[0],
           sizeof formats / sizeof formats[0]);
    return 0;
}
