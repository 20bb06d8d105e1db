/* SPDX-License-Identifier: MIT */
/* report.h - cgreport's model of a profile (report.c) and its page
 * (report-page.c). */
#ifndef CGW_TOOLS_REPORT_H
#define CGW_TOOLS_REPORT_H

#include <stddef.h>

#include "toolutil.h"

typedef struct report_options {
    const char *tool; /* for messages */
    size_t top;       /* functions in the table (0: all) */
    double threshold; /* percent of an event's total a flame frame needs */
    const char *out;  /* NULL: stdout */
} report_options;

typedef struct report report;

/* The profile at path read: NULL after saying why (on stderr). */
report *report_read(const char *path, const report_options *o);
/* Whether the input had errors (said on stderr as they came). */
int report_errors(const report *r);
/* The page written to o->out: 0, or the exit status after saying why.
 * With old (the same events), the page of the difference from old to r:
 * each function's old costs beside its new ones, and old's functions
 * that r lacks. */
int report_write(report *r, const report_options *o, const report *old);
void report_free(report *r);

/* report-page.c: the page around the profile's JSON: the text before it
 * and after it. */
extern const char report_page_head[], report_page_tail[];

#endif /* CGW_TOOLS_REPORT_H */
