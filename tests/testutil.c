/* SPDX-License-Identifier: MIT */
/* testutil.c - see testutil.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

void cgwt_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void cgwt_check_status(const char *file, int line, const char *expr, cgw_status got,
                       cgw_status want)
{
    if (got != want)
        cgwt_fail(file, line, "%s: got %d (%s), want %d (%s)", expr, (int)got,
                  cgw_strerror(got), (int)want, cgw_strerror(want));
}

void cgwt_check_u64(const char *file, int line, const char *expr, uint64_t got,
                    uint64_t want)
{
    if (got != want)
        cgwt_fail(file, line, "%s: got %llu, want %llu", expr, (unsigned long long)got,
                  (unsigned long long)want);
}

void cgwt_check_str(const char *file, int line, const char *expr, const char *got,
                    const char *want)
{
    if (got == NULL || strcmp(got, want) != 0)
        cgwt_fail(file, line, "%s:\n--- got ---\n%s\n--- want ---\n%s", expr,
                  got ? got : "(null)", want);
}

char *cgwt_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *p = malloc(cap);
    size_t r;
    while (p && (r = fread(p + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0)
            p = realloc(p, cap *= 2);
    }
    fclose(f);
    if (p == NULL)
        cgwt_fail(__FILE__, __LINE__, "out of memory reading %s", path);
    p[n] = '\0';
    if (len)
        *len = n;
    return p;
}

long cgwt_serve(const char *data, size_t len, size_t *off, char *buf, size_t cap, size_t n)
{
    n = n > cap ? cap : n;
    n = n > len - *off ? len - *off : n;
    memcpy(buf, data + *off, n);
    *off += n;
    return (long)n;
}

size_t cgwt_scaled(size_t n)
{
    const char *e = getenv("CGW_TEST_SCALE");
    unsigned long scale = e != NULL ? strtoul(e, NULL, 10) : 1;
    size_t k = n / (scale > 1 ? scale : 1);
    return k > 0 ? k : 1;
}

char *cgwt_data_path(const char *name)
{
    static char path[4096];
    const char *dir = getenv("CGW_TEST_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    return path;
}

const char *cgwt_tmpdir(void)
{
    static char dir[256];
    if (dir[0] == '\0') {
        snprintf(dir, sizeof dir, "%s/cgwt-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (mkdtemp(dir) == NULL)
            cgwt_fail(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
    }
    return dir;
}

/* ---------------------------------------------------------------- model */

void cgwt_model_init(cgwt_model *m, size_t nev)
{
    memset(m, 0, sizeof *m);
    m->nev = nev;
    strcpy(m->file, "???");
}

void cgwt_model_free(cgwt_model *m)
{
    for (size_t i = 0; i < m->nfn; i++)
        free(m->keys[i]);
    m->nfn = 0;
}

cgw_status cgwt_object(cgw_writer *w, cgwt_model *m, const char *obj)
{
    snprintf(m->obj, sizeof m->obj, "%s", obj);
    return cgw_object(w, obj);
}

cgw_status cgwt_file(cgw_writer *w, cgwt_model *m, const char *file)
{
    snprintf(m->file, sizeof m->file, "%s", file);
    return cgw_file(w, file);
}

cgw_status cgwt_function(cgw_writer *w, cgwt_model *m, const char *fn)
{
    snprintf(m->fn, sizeof m->fn, "%s", fn);
    snprintf(m->inl, sizeof m->inl, "%s", m->file);
    return cgw_function(w, fn);
}

cgw_status cgwt_inline(cgw_writer *w, cgwt_model *m, const char *file)
{
    snprintf(m->inl, sizeof m->inl, "%s", file);
    return cgw_inline_file(w, file);
}

static size_t model_key(cgwt_model *m, const char *key)
{
    for (size_t i = 0; i < m->nfn; i++)
        if (strcmp(m->keys[i], key) == 0)
            return i;
    if (m->nfn == CGWT_MAX_FN)
        cgwt_fail(__FILE__, __LINE__, "model: too many functions");
    m->keys[m->nfn] = strdup(key);
    memset(m->self[m->nfn], 0, sizeof m->self[m->nfn]);
    return m->nfn++;
}

cgw_status cgwt_cost(cgw_writer *w, cgwt_model *m, const uint64_t *pos, const uint64_t *c,
                     size_t n)
{
    cgw_status st = cgw_cost(w, pos, c, n);
    if (st == CGW_OK) {
        char key[1600];
        /* callgrind_annotate names the object only outside inlined files */
        if (m->obj[0] && strcmp(m->inl, m->file) == 0)
            snprintf(key, sizeof key, "%s:%s [%s]", m->inl, m->fn, m->obj);
        else
            snprintf(key, sizeof key, "%s:%s", m->inl, m->fn);
        size_t k = model_key(m, key);
        for (size_t i = 0; i < n; i++) {
            m->self[k][i] += c[i];
            m->totals[i] += c[i];
        }
    }
    return st;
}

/* ------------------------------------------------- callgrind_annotate */

/* Read "1,234 (5.6%)" or "." columns from s; returns the rest. */
static const char *parse_costs(const char *s, uint64_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        while (*s == ' ')
            s++;
        c[i] = 0;
        if (*s == '.') {
            s++;
        } else {
            if (*s < '0' || *s > '9')
                return NULL;
            for (; (*s >= '0' && *s <= '9') || *s == ','; s++)
                if (*s != ',')
                    c[i] = c[i] * 10 + (uint64_t)(*s - '0');
        }
        while (*s == ' ')
            s++;
        if (*s == '(') {
            s = strchr(s, ')');
            if (s == NULL)
                return NULL;
            s++;
        }
    }
    while (*s == ' ')
        s++;
    return s;
}

/* The totals: line of a single-part profile. */
static void totals_line(const char *text, uint64_t *t, size_t *n)
{
    const char *p = strstr(text, "\ntotals:");
    if (p == NULL)
        cgwt_fail(__FILE__, __LINE__, "profile has no totals: line:\n%s", text);
    p += 8;
    *n = 0;
    while (*p == ' ' && *n < CGWT_MAX_EV) {
        t[*n] = strtoull(p, (char **)&p, 10);
        (*n)++;
    }
}

/* callgrind_annotate's output on the file at path; NULL (and a note)
 * when it is not installed. */
static FILE *annotate(const char *path)
{
    const char *ca = getenv("CALLGRIND_ANNOTATE");
    if (ca == NULL || ca[0] == '\0') {
        fprintf(stderr, "note: callgrind_annotate not installed, cross-check skipped\n");
        return NULL;
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --threshold=100 --auto=no --inclusive=no '%s' 2>&1", ca,
             path);
    FILE *p = popen(cmd, "r");
    if (p == NULL)
        cgwt_fail(__FILE__, __LINE__, "cannot run %s", cmd);
    return p;
}

void cgwt_annotate_totals(const char *path, const uint64_t *want, size_t n)
{
    FILE *p = annotate(path);
    if (p == NULL)
        return;
    char line[4096];
    int saw = 0;
    uint64_t c[64];
    CHECK(n <= 64);
    while (fgets(line, sizeof line, p)) {
        if (!strstr(line, "PROGRAM TOTALS"))
            continue;
        if (parse_costs(line, c, n) == NULL)
            cgwt_fail(__FILE__, __LINE__, "%s: bad totals line: %s", path, line);
        for (size_t i = 0; i < n; i++)
            if (c[i] != want[i])
                cgwt_fail(__FILE__, __LINE__, "%s: callgrind_annotate PROGRAM TOTALS[%zu] = "
                          "%llu, the reader %llu", path, i, (unsigned long long)c[i],
                          (unsigned long long)want[i]);
        saw = 1;
    }
    int rc = pclose(p);
    if (rc != 0 || !saw)
        cgwt_fail(__FILE__, __LINE__, "callgrind_annotate failed on %s (status %d)", path, rc);
}

void cgwt_annotate(const char *text, size_t len, const cgwt_model *m)
{
    char path[512];
    snprintf(path, sizeof path, "%s/annotate-%ld.out", cgwt_tmpdir(), (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        cgwt_fail(__FILE__, __LINE__, "cannot write %s", path);
    FILE *p = annotate(path);
    if (p == NULL) {
        unlink(path); /* test-path-kinds wants its folder empty at the end */
        return;
    }

    uint64_t wtot[CGWT_MAX_EV] = { 0 };
    size_t nev;
    if (m == NULL) {
        totals_line(text, wtot, &nev);
    } else {
        nev = m->nev;
        memcpy(wtot, m->totals, sizeof wtot);
    }
    char line[4096], out[65536] = "";
    int in_fns = 0, saw_totals = 0;
    size_t seen = 0;
    while (fgets(line, sizeof line, p)) {
        strncat(out, line, sizeof out - strlen(out) - 1);
        line[strcspn(line, "\n")] = '\0';
        uint64_t c[CGWT_MAX_EV];
        if (strstr(line, "PROGRAM TOTALS")) {
            if (parse_costs(line, c, nev) == NULL)
                cgwt_fail(__FILE__, __LINE__, "bad totals line: %s", line);
            for (size_t i = 0; i < nev; i++)
                if (c[i] != wtot[i])
                    cgwt_fail(__FILE__, __LINE__,
                              "callgrind_annotate PROGRAM TOTALS[%zu] = %llu, wrote %llu\n%s",
                              i, (unsigned long long)c[i], (unsigned long long)wtot[i], out);
            saw_totals = 1;
        } else if (strstr(line, "file:function")) {
            in_fns = 1;
        } else if (in_fns && m != NULL && line[0] != '\0' && line[0] != '-') {
            const char *key = parse_costs(line, c, nev);
            if (key == NULL)
                continue;
            size_t k = 0;
            while (k < m->nfn && strcmp(m->keys[k], key) != 0)
                k++;
            if (k == m->nfn)
                cgwt_fail(__FILE__, __LINE__, "callgrind_annotate shows %s, never written\n%s",
                          key, out);
            for (size_t i = 0; i < nev; i++)
                if (c[i] != m->self[k][i])
                    cgwt_fail(__FILE__, __LINE__, "%s self[%zu]: annotate %llu, wrote %llu\n%s",
                              key, i, (unsigned long long)c[i],
                              (unsigned long long)m->self[k][i], out);
            seen++;
        }
    }
    int rc = pclose(p);
    if (rc != 0 || !saw_totals)
        cgwt_fail(__FILE__, __LINE__, "callgrind_annotate failed (status %d):\n%s", rc, out);
    if (m != NULL) {
        size_t nonzero = 0;
        for (size_t k = 0; k < m->nfn; k++) {
            int any = 0;
            for (size_t i = 0; i < nev; i++)
                any |= m->self[k][i] != 0;
            nonzero += any;
        }
        if (seen != nonzero)
            cgwt_fail(__FILE__, __LINE__, "callgrind_annotate listed %zu functions, wrote %zu\n%s",
                      seen, nonzero, out);
    }
    unlink(path);
}

void cgwt_annotate_parts(const char *text, size_t len)
{
    /* callgrind_annotate reads one part: give each later part the lines
     * of the file's header that come before "part: 1". */
    const char *first = strstr(text, "\npart: ");
    CHECK(first != NULL);
    size_t head = (size_t)(first - text) + 1;
    const char *start = text, *end = text + len;
    while (start < end) {
        const char *next = strstr(start == text ? first + 1 : start, "\npart: ");
        next = next ? next + 1 : end;
        size_t pre = start == text ? 0 : head;
        size_t n = pre + (size_t)(next - start);
        char *one = malloc(n + 1);
        CHECK(one != NULL);
        memcpy(one, text, pre);
        memcpy(one + pre, start, (size_t)(next - start));
        one[n] = '\0';
        cgwt_annotate(one, n, NULL);
        free(one);
        start = next;
    }
}

/* The room for a read's first error, "line N: message [code]", that a
 * failing test names; empty while there is none. */
#define FIRST_ERROR_SIZE 400

/* Keep d in first (FIRST_ERROR_SIZE bytes) when it is the read's first
 * error. */
static void keep_first_error(char *first, const cgw_diagnostic *d)
{
    if (first[0] == '\0' && d->severity == CGW_ERROR)
        snprintf(first, FIRST_ERROR_SIZE, "line %llu: %s [%s]", (unsigned long long)d->line,
                 d->message, d->code);
}

/* A diagnostic callback whose ctx is a char[FIRST_ERROR_SIZE]: the read's
 * first error kept there. */
static void readback_diag(void *ctx, const cgw_diagnostic *d)
{
    keep_first_error(ctx, d);
}

/* What cgwt_readback()'s read notes: its first error, and how many
 * flame-total warnings it gave. */
typedef struct readback_notes {
    char first[FIRST_ERROR_SIZE];
    uint64_t flame;
} readback_notes;

/* readback_diag(), and flame-total counted: speedscope's flame graph of
 * the call graph a test writes (a function a root and a callee too, a
 * call to a function with no block), which no writing changes. */
static void readback_note(void *ctx, const cgw_diagnostic *d)
{
    readback_notes *notes = ctx;
    keep_first_error(notes->first, d);
    notes->flame += strcmp(d->code, "flame-total") == 0;
}

uint64_t cgwt_readback(const char *text, size_t len, const cgwt_model *m)
{
    readback_notes notes = { "", 0 };
    char *first = notes.first;
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = readback_note,
                           .diag_ctx = &notes };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    CHECK(r != NULL);
    const cgw_record *rec;
    unsigned parts = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind != CGW_REC_PART_END)
            continue;
        parts++;
        size_t ne = rec->part->nevents;
        CHECK(rec->totals_line != NULL);
        for (size_t i = 0; i < ne; i++)
            CHECK_U64(rec->totals_line[i], rec->costs[i]);
        for (size_t i = 0; m != NULL && parts == 1 && i < m->nev && i < ne; i++)
            CHECK_U64(rec->costs[i], m->totals[i]);
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    uint64_t errors, warnings;
    cgw_reader_counts(r, &errors, &warnings);
    cgw_reader_close(r);
    if (errors != 0)
        cgwt_fail(__FILE__, __LINE__, "the reader finds %llu errors, first %s",
                  (unsigned long long)errors, first);
    uint64_t diffs = 0;
    o.diag = readback_diag;
    o.diag_ctx = first;
    CHECK_ST(cgw_roundtrip(NULL, text, len, &o, &diffs), CGW_OK);
    if (diffs != 0)
        cgwt_fail(__FILE__, __LINE__, "round trip: %s", first);
    return warnings - notes.flame;
}

/* ------------------------------------------------ what a profile says */

/* One line per cost or call record, "part|kind|key costs...", from a
 * reader; summed by key after sorting. */
/* The key of a line: up to the tab before its numbers. */
static size_t key_len(const char *s)
{
    const char *t = strrchr(s, '\t');
    return t ? (size_t)(t - s) : strlen(s);
}

/* Sorted, with the numbers of equal keys summed, as one string. */
static char *summed(cgwt_lines *f)
{
    cgwt_lines_sort(f);
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    CHECK(out != NULL);
    out[0] = '\0';
    for (size_t i = 0; i < f->n;) {
        size_t k = key_len(f->lines[i]);
        uint64_t sum[66] = { 0 };
        size_t nv = 0, j = i;
        for (; j < f->n && key_len(f->lines[j]) == k && !strncmp(f->lines[j], f->lines[i], k);
             j++) {
            char *p = f->lines[j] + k;
            for (nv = 0; *p == '\t' || *p == ' '; nv++) {
                CHECK(nv < 66);
                sum[nv] += strtoull(p + 1, &p, 10);
            }
        }
        while (len + k + nv * 21 + 3 > cap) {
            cap *= 2;
            out = realloc(out, cap);
            CHECK(out != NULL);
        }
        len += (size_t)sprintf(out + len, "%.*s\t", (int)k, f->lines[i]);
        for (size_t v = 0; v < nv; v++)
            len += (size_t)sprintf(out + len, " %llu", (unsigned long long)sum[v]);
        out[len++] = '\n';
        out[len] = '\0';
        for (; i < j; i++)
            free(f->lines[i]);
    }
    free(f->lines);
    return out;
}

/* Part totals, each function's self cost and each call edge's count and
 * inclusive cost, as sorted text (parts summed with sum_parts).
 * zero_calls_as: the count a calls=0 with cost stands for (1 where
 * cgw_recode() writes it so). */
static char *profile_facts(cgw_reader *r, int sum_parts, uint64_t zero_calls_as)
{
    cgwt_lines f = { 0 };
    const cgw_record *rec;
    char buf[8192];
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        size_t ne = rec->part->nevents, n;
        unsigned part = sum_parts ? 0 : rec->part->index;
        const char *ob = rec->object ? rec->object : "";
        if (rec->kind == CGW_REC_COST)
            n = (size_t)snprintf(buf, sizeof buf, "%u|self|%s|%s|%s\t", part, ob,
                                 rec->file, rec->function);
        else if (rec->kind == CGW_REC_CALL && (rec->count != 0 || rec->costs[0] != 0))
            n = (size_t)snprintf(buf, sizeof buf, "%u|call|%s|%s|%s|%s|%s|%s\t %llu",
                                 part, ob, rec->file, rec->function,
                                 rec->target.object ? rec->target.object : "",
                                 rec->target.file, rec->target.function,
                                 (unsigned long long)(rec->count ? rec->count : zero_calls_as));
        else if (rec->kind == CGW_REC_PART_END)
            n = (size_t)snprintf(buf, sizeof buf, "%u|totals\t", part);
        else
            continue;
        for (size_t i = 0; i < ne && n < sizeof buf - 24; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " %llu",
                                  (unsigned long long)rec->costs[i]);
        cgwt_lines_add(&f, buf);
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    return summed(&f);
}

static void ignore_diag(void *ctx, const cgw_diagnostic *d)
{
    (void)ctx;
    (void)d;
}

char *cgwt_recode_check(const char *path, unsigned positions, unsigned wflags, size_t *len)
{
    cgw_read_options o = { .struct_size = sizeof o, .diag = ignore_diag };
    cgw_reader *r = cgw_reader_open_path(path, &o);
    CHECK(r != NULL);
    /* the writer refuses calls=0 but in compact mode: cgw_recode()
     * writes calls=1 for one with cost */
    char *want = profile_facts(r, 0, (wflags & CGW_COMPACT) ? 0 : 1);
    cgw_reader_close(r);

    char *out;
    cgw_options wo = { .struct_size = sizeof wo, .positions = positions, .flags = wflags };
    cgw_writer *w = cgw_open_memory(&out, len, &wo);
    r = cgw_reader_open_path(path, &o);
    CHECK(w != NULL && r != NULL);
    cgw_status st = cgw_recode(r, w, 0);
    if (st == CGW_OK)
        st = cgw_finish(w);
    if (st != CGW_OK)
        cgwt_fail(__FILE__, __LINE__, "%s: cgw_recode: %s", path, cgw_errmsg(w));
    cgw_free(w);
    cgw_reader_close(r);

    r = cgw_reader_open_memory(out, *len, &o);
    char *got = profile_facts(r, 0, 0);
    cgw_reader_close(r);
    if (strcmp(want, got) != 0) {
        size_t i = 0;
        while (want[i] == got[i])
            i++;
        while (i > 0 && want[i - 1] != '\n')
            i--;
        cgwt_fail(__FILE__, __LINE__, "%s: recoded (positions %u, flags %u) differs at\n"
                  "  want %.200s\n  got  %.200s", path, positions, wflags, want + i, got + i);
    }
    free(want);
    free(got);
    return out;
}

char *cgwt_facts(const char *text, size_t len, int sum_parts)
{
    cgw_read_options o = { .struct_size = sizeof o, .diag = ignore_diag };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    CHECK(r != NULL);
    char *f = profile_facts(r, sum_parts, 0);
    cgw_reader_close(r);
    return f;
}

void cgwt_check_facts(const char *file, int line, const char *text, size_t len,
                      const char *want)
{
    char *facts = cgwt_facts(text, len, 0);
    cgwt_check_str(file, line, "the facts", facts, want);
    free(facts);
}

char *cgwt_facts_sum(const char *text)
{
    cgwt_lines f = { 0 };
    char line[8192];
    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        CHECK(n < sizeof line);
        memcpy(line, p, n);
        line[n] = '\0';
        cgwt_lines_add(&f, line);
        p += n + (p[n] == '\n');
    }
    return summed(&f);
}

/* What cgwt_expect() looks for, and the first error, for its message. */
typedef struct expected {
    const char *code;
    uint64_t line;
    cgw_severity severity;
    int found;
    char first_error[FIRST_ERROR_SIZE];
} expected;

static void on_expected(void *ctx, const cgw_diagnostic *d)
{
    expected *want = ctx;
    if (strcmp(d->code, want->code) == 0 && d->line == want->line &&
        d->severity == want->severity)
        want->found = 1;
    keep_first_error(want->first_error, d);
}

void cgwt_expect(const char *file, int line, const char *text, size_t len, const char *code,
                 uint64_t at, cgw_severity severity)
{
    expected want = { code, at, severity, 0, "" };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = on_expected,
                           .diag_ctx = &want };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    if (r == NULL)
        cgwt_fail(file, line, "cgw_reader_open_memory failed");
    const cgw_record *rec;
    size_t records = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        records++;
    cgwt_check_str(file, line, "cgw_reader_errmsg(r)", cgw_reader_errmsg(r), "");
    uint64_t errors;
    cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    if (!want.found)
        cgwt_fail(file, line, "no %s %s at line %llu in:\n%s\n(first error %s)",
                  severity == CGW_ERROR ? "error" : "warning", code, (unsigned long long)at,
                  text, want.first_error);
    if (severity == CGW_ERROR && errors == 0)
        cgwt_fail(file, line, "the error is not counted");
    /* a part and its end, whatever the input, unless it is no profile */
    if (strcmp(code, "not-a-profile") == 0 ? records != 0 : records < 2)
        cgwt_fail(file, line, "%zu records", records);
}

void cgwt_expect_warnings(const char *file, int line, const char *text, size_t len,
                          const cgwt_warning *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cgwt_expect(file, line, text, len, want[i].code, want[i].line, CGW_WARNING);
}

void cgwt_annotate_expect(const char *text, size_t len, size_t nev, const uint64_t *totals,
                          size_t nfn, const char *const *keys, const uint64_t *self)
{
    cgwt_model m;
    cgwt_model_init(&m, nev);
    CHECK(nfn <= CGWT_MAX_FN && nev <= CGWT_MAX_EV);
    for (size_t i = 0; i < nfn; i++) {
        m.keys[i] = strdup(keys[i]);
        CHECK(m.keys[i] != NULL);
        memcpy(m.self[i], self + i * nev, nev * sizeof *self);
    }
    m.nfn = nfn;
    memcpy(m.totals, totals, nev * sizeof *totals);
    cgwt_annotate(text, len, &m);
    cgwt_model_free(&m);
}
