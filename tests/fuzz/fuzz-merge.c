/* SPDX-License-Identifier: MIT */
/* fuzz-merge: any input merged with itself.  The merger may refuse it
 * only as documented (EINVAL: names or events the writer refuses, two
 * formulas for a derived event; ERANGE: a sum past 2^64-1); otherwise the
 * output reads back without an error, its totals are twice the input's
 * (matched by event name), and merged alone again it gives its own bytes.
 * The input and its first half merged in either order give the same bytes.
 * And a diff of the input against itself never fails but as the merge
 * does, and has nothing but totals rows. */
#include <stdlib.h>
#include <string.h>

#include <cgw.h>
#include "fuzz.h"

#define MAXEV 64

/* Per event name, the totals of every part of a profile. */
typedef struct sums {
    char *name[MAXEV];
    uint64_t total[MAXEV];
    size_t n;
    int overflow, skip;
} sums;

static void add_part(sums *s, const cgw_record *rec)
{
    const cgw_part *p = rec->part;
    for (size_t i = 0; i < p->nevents && !s->skip; i++) {
        size_t k = 0;
        while (k < s->n && strcmp(s->name[k], p->events[i].name) != 0)
            k++;
        if (k == MAXEV) {
            s->skip = 1;
            break;
        }
        if (k == s->n)
            s->name[s->n++] = strdup(p->events[i].name);
        s->overflow |= rec->costs[i] > UINT64_MAX - s->total[k];
        s->total[k] += rec->costs[i];
    }
}

/* The totals of the profile at data; the reader's error count. */
static uint64_t profile_sums(const void *data, size_t size, sums *s)
{
    cgw_reader *r = cgw_reader_open_memory(data, size, NULL);
    const cgw_record *rec;
    while (r != NULL && cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            add_part(s, rec);
    uint64_t errors = 1;
    if (r != NULL && cgw_reader_errmsg(r)[0] == '\0')
        cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    return errors;
}

static void free_sums(sums *s)
{
    for (size_t k = 0; k < s->n; k++)
        free(s->name[k]);
}

/* Merge the n inputs data[i][0..size[i]); the status, and the output in
 * *out. */
static cgw_status merge(const void *const *data, const size_t *size, int n, char **out,
                        size_t *len)
{
    cgw_merger *m = cgw_merge_new(NULL);
    if (m == NULL)
        fuzz_fail("cgw_merge_new", "NULL");
    for (int i = 0; i < n; i++) {
        cgw_reader *r = cgw_reader_open_memory(data[i], size[i], NULL);
        cgw_merge_add(m, r);
        cgw_reader_close(r);
    }
    cgw_options wo = { .struct_size = sizeof wo, .positions = cgw_merge_positions(m) };
    cgw_writer *w = cgw_open_memory(out, len, &wo);
    cgw_status st = cgw_merge_write(m, w);
    st = st == CGW_OK ? cgw_close(w) : (cgw_free(w), st);
    cgw_merge_free(m);
    return st;
}

static void check_twice(const sums *in, const char *out, size_t len)
{
    sums got = { { 0 }, { 0 }, 0, 0, 0 };
    if (profile_sums(out, len, &got) != 0)
        fuzz_fail("the merged profile has errors", out);
    for (size_t k = 0; k < in->n && !in->skip; k++) {
        size_t j = 0;
        while (j < got.n && strcmp(got.name[j], in->name[k]) != 0)
            j++;
        uint64_t want = 2 * in->total[k];
        if ((j == got.n && want != 0) || (j < got.n && got.total[j] != want))
            fuzz_fail("the merged totals are not twice the input's", in->name[k]);
    }
    free_sums(&got);
}

static void check_diff(const void *data, size_t size)
{
    cgw_differ *d = cgw_diff_new(NULL);
    for (int side = 0; side < 2; side++) {
        cgw_reader *r = cgw_reader_open_memory(data, size, NULL);
        cgw_diff_add(d, side, r);
        cgw_reader_close(r);
    }
    const cgw_diff_row *rows;
    size_t n;
    cgw_status st = cgw_diff_rows(d, &rows, &n);
    if (st != CGW_OK && st != CGW_EINVAL && st != CGW_ERANGE && st != CGW_EUSAGE)
        fuzz_fail("cgw_diff_rows", cgw_strerror(st));
    for (size_t i = 0; st == CGW_OK && i < n; i++)
        if (rows[i].function != NULL || rows[i].old_cost != rows[i].new_cost)
            fuzz_fail("a profile differs from itself", rows[i].event);
    cgw_diff_free(d);
}

/* The input and its first half (to a line end) merged in both orders:
 * both refused, or the same bytes.  A refusal may differ in kind: with
 * several problems (a sum past 2^64-1 here, two formulas of a derived
 * event there), the first one met is the one reported, and which is
 * first depends on the order (libFuzzer found such an input). */
static void check_commutative(const uint8_t *data, size_t size)
{
    const uint8_t *nl = size > 1 ? memchr(data + size / 2, '\n', size - size / 2) : NULL;
    if (nl == NULL)
        return;
    size_t half = (size_t)(nl + 1 - data);
    char *ab = NULL, *ba = NULL;
    size_t lab = 0, lba = 0;
    const void *in[2] = { data, data };
    size_t whole_half[2] = { size, half }, half_whole[2] = { half, size };
    cgw_status s1 = merge(in, whole_half, 2, &ab, &lab);
    cgw_status s2 = merge(in, half_whole, 2, &ba, &lba);
    if ((s1 == CGW_OK) != (s2 == CGW_OK) ||
        (s1 == CGW_OK && (lab != lba || memcmp(ab, ba, lab) != 0)))
        fuzz_fail("merge(a, b) and merge(b, a) differ", cgw_strerror(s2));
    free(ab);
    free(ba);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return 0; /* gzip: fuzz-gzip's (its first half is a truncated stream) */
    sums in = { { 0 }, { 0 }, 0, 0, 0 };
    uint64_t errors = profile_sums(data, size, &in);
    char *out = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    const void *twice[2] = { data, data };
    size_t sizes[2] = { size, size };
    cgw_status st = merge(twice, sizes, 2, &out, &len);
    if (st != CGW_OK && st != CGW_EINVAL && st != CGW_ERANGE && st != CGW_EUSAGE)
        fuzz_fail("cgw_merge_write", cgw_strerror(st));
    if (st == CGW_OK && errors == 0 && !in.overflow) {
        check_twice(&in, out, len);
        const void *merged[1] = { out };
        if (merge(merged, &len, 1, &again, &len2) != CGW_OK || len2 != len ||
            memcmp(out, again, len) != 0)
            fuzz_fail("a merged profile merged alone changed", out);
    }
    check_diff(data, size);
    check_commutative(data, size);
    free(out);
    free(again);
    free_sums(&in);
    return 0;
}
