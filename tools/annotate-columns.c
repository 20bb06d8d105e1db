/* SPDX-License-Identifier: MIT */
/* annotate-columns.c - cgannotate's cost vectors (CCs) and their columns:
 * a new CC, counts with commas, the widths, a CC's columns and the
 * events' names over them, callgrind_annotate's order of two CCs.  What
 * the reading (cgannotate.c), the report (annotate-print.c) and the
 * source files (annotate-source.c) all use, under them, so that no two
 * of them call each other in a loop. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgannotate.h"

ann_cc ann_cc_new(ann *a)
{
    size_t at = a->pool_len;
    a->pool = tool_grow(a->pool, &a->pool_cap, at + a->ne + 1, sizeof *a->pool);
    memset(a->pool + at, 0, (a->ne + 1) * sizeof *a->pool);
    a->pool_len = at + a->ne + 1;
    return at;
}

/* n with a comma every three digits. */
size_t ann_commify(uint64_t n, char *out)
{
    char d[32];
    size_t k = 0, len = 0;
    do
        d[k++] = (char)('0' + n % 10);
    while ((n /= 10) != 0);
    while (k > 0) {
        out[len++] = d[--k];
        if (k > 0 && k % 3 == 0)
            out[len++] = ',';
    }
    out[len] = '\0';
    return len;
}

/* A cost of event into out (64 bytes): with commas, or in human units
 * for a time event under --units=human (cgw_format_seconds()). */
size_t ann_count(const ann *a, size_t event, uint64_t n, char *out)
{
    if (a->seconds[event] > 0)
        return cgw_format_seconds(out, 64, (double)n * a->seconds[event]);
    return ann_commify(n, out);
}

/* The widths of the columns for ccs[0..n): at least the event's name, at
 * most what the widest count (with commas and a percentage) takes. */
void ann_widths(const ann *a, const ann_cc *ccs, size_t n, size_t *w)
{
    for (size_t i = 0; i < a->ne; i++)
        w[i] = strlen(a->events[i]);
    for (size_t k = 0; k < n; k++) {
        const uint64_t *v = ann_v(a, ccs[k]);
        for (size_t i = 0; i < v[a->ne]; i++) {
            char text[64];
            size_t width = ann_count(a, i, v[i], text) + (a->show_percs ? 9 : 0);
            if (width > w[i])
                w[i] = width;
        }
    }
}

/* v * 100 / s as callgrind_annotate (Perl) computes it. */
static double percent_of(uint64_t v, uint64_t s)
{
    if (s == 0)
        return 0;
    double num = v <= UINT64_MAX / 100 ? (double)(v * 100) : (double)v * 100.0;
    return num / (double)s;
}

/* The columns of cc (NULL: none defined), each followed by a blank. */
void ann_put_cc(const ann *a, const ann_cc *cc, const size_t *w)
{
    const uint64_t *v = cc ? ann_v(a, *cc) : NULL, *sum = ann_v(a, a->summary);
    for (size_t k = 0; k < a->nshow; k++) {
        size_t i = a->show[k];
        char text[64];
        size_t len;
        int defined = v != NULL && i < v[a->ne];
        if (defined)
            len = ann_count(a, i, v[i], text);
        else
            len = (size_t)snprintf(text, sizeof text, ".");
        if (a->show_percs) {
            if (defined && v[i] != 0) {
                double p = percent_of(v[i], i < sum[a->ne] ? sum[i] : 0);
                len += (size_t)snprintf(text + len, sizeof text - len,
                                        -9.995 < p && p < 99.995 ? " (%5.2f%%)" : " (%5.1f%%)", p);
            } else {
                len += (size_t)snprintf(text + len, sizeof text - len, "         ");
            }
        }
        fprintf(a->out, "%*s ", (int)(w[i] > len ? w[i] : len), text);
    }
}

void ann_put_events(const ann *a, const size_t *w)
{
    for (size_t k = 0; k < a->nshow; k++) {
        size_t i = a->show[k];
        fprintf(a->out, "%-*s ", (int)w[i], a->events[i]);
    }
}

/* callgrind_annotate's mycmp(): by each sort event, larger first, an
 * undefined count below every count. */
int ann_cmp_cc(const ann *a, ann_cc x, ann_cc y)
{
    const uint64_t *u = ann_v(a, x), *v = ann_v(a, y);
    for (size_t k = 0; k < a->nsort; k++) {
        size_t i = a->sort[k];
        int du = i < u[a->ne], dv = i < v[a->ne];
        if (du != dv)
            return du ? -1 : 1;
        if (du && u[i] != v[i])
            return u[i] > v[i] ? -1 : 1;
    }
    return 0;
}
