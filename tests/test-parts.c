/* SPDX-License-Identifier: MIT */
/* test-parts: several parts in one file: each repeats its header from
 * part: on (with the pid:), has fresh name tables (IDs defined again
 * from 1), its own thread:, summary: and totals:, and reads back in
 * callgrind_annotate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

int main(void)
{
    size_t len;
    char *text = cgwt_run_memory(cgwt_scenario_named("parts"), 0, NULL, &len);
    CHECK(count(text, "# callgrind format\n") == 1);
    for (int p = 1; p <= 3; p++) {
        char line[64];
        /* each part with its pid: KCachegrind forgets the header at part: */
        snprintf(line, sizeof line, "\npart: %d\n%sthread: %d\npositions: line\n", p,
                 p > 1 ? "pid: 77\n" : "", p);
        CHECK(strstr(text, line) != NULL);
        snprintf(line, sizeof line, "\nsummary: %d\n", 100 * p);
        CHECK(strstr(text, line) != NULL);
        snprintf(line, sizeof line, "\ntotals: %d\n", 100 * p);
        CHECK(strstr(text, line) != NULL);
    }
    CHECK(count(text, "event: ns : Nanoseconds\nevents: ns\n") == 3);
    CHECK(count(text, "fn=(1) f\n") == 3);
    CHECK(count(text, "cfn=(2) g\n") == 3);
    CHECK(count(text, "fl=(1) two.c\n") == 1);
    CHECK(count(text, "cmd: threads\n") == 1);
    CHECK(count(text, "pid: 77\n") == 3);
    cgwt_annotate_parts(text, len);
    free(text);
    printf("3 parts, each complete with fresh tables\n");
    return 0;
}
