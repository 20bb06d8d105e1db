/* SPDX-License-Identifier: MIT */
/* test-real: real profiles.  valgrind makes Callgrind files of
 * tests/subject with each option that changes the output, and Cachegrind
 * files; with the files of ../shared/corpus they are all read: no error,
 * every totals: line equal to the sum of the cost lines, a round trip
 * through the writer with no difference, and callgrind_annotate's PROGRAM
 * TOTALS equal to the summary: (or, without one, the computed totals).
 * Each is also recoded (cgw_recode, portable and compact) with its
 * totals, self costs and call edges kept. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

static const char *const callgrind_options[] = {
    "",
    "--dump-instr=yes",
    "--dump-line=no --dump-instr=yes",
    "--dump-bb=yes --dump-instr=yes",
    "--compress-strings=no --compress-pos=no",
    "--compress-strings=no --dump-instr=yes",
    "--collect-jumps=yes --dump-instr=yes",
    "--collect-jumps=yes",
    "--cache-sim=yes --branch-sim=yes",
    "--cache-sim=yes --cacheuse=yes",
    "--cache-sim=yes --simulate-wb=yes --simulate-hwpref=yes",
    "--collect-bus=yes --collect-systime=nsec",
    "--separate-threads=yes",
    "--separate-threads=yes --combine-dumps=yes --dump-instr=yes --collect-jumps=yes",
    "--separate-callers=3 --separate-recs=3",
    "--dump-before=work --zero-before=fib",
    "--dump-every-bb=20000 --combine-dumps=yes",
    "--toggle-collect=work",
    "--skip-plt=no --skip-direct-rec=no",
};

static const char *const cachegrind_options[] = {
    "--cache-sim=yes --branch-sim=yes",
    "--cache-sim=no",
};

typedef struct result {
    uint64_t errors, parts;
    char first[400];
    const char *allowed; /* an error code the file is known to have */
    int ca_aborts;       /* callgrind_annotate dies on fi= before fn= */
} result;

static void on_diag(void *ctx, const cgw_diagnostic *d)
{
    result *res = ctx;
    if (strcmp(d->code, "inline-before-function") == 0)
        res->ca_aborts = 1;
    if (d->severity != CGW_ERROR || d->line == 0)
        return;
    if (res->allowed != NULL && strcmp(d->code, res->allowed) == 0)
        return;
    res->errors++;
    if (res->first[0] == '\0')
        snprintf(res->first, sizeof res->first, "line %llu: %s [%s]",
                 (unsigned long long)d->line, d->message, d->code);
}

static uint64_t callgrind_bytes, compact_bytes;

/* cgrecode's two modes keep every total, self cost and call edge (a
 * calls=0 with cost, as Callgrind writes after zeroing its counters in
 * mid-call, becomes calls=1 in the portable mode); the portable output
 * reads back clean and callgrind_annotate agrees. */
static void recode(const char *path, unsigned positions, const uint64_t *want, size_t nev,
                   int annotate)
{
    size_t len;
    char *out;
    unsigned portable = positions & CGW_POS_LINE ? CGW_POS_LINE : positions;
    out = cgwt_recode_check(path, portable, (portable & CGW_POS_BB) ? CGW_EXTENDED : 0, &len);
    cgwt_readback(out, len, NULL);
    if (annotate && !(portable & CGW_POS_BB)) {
        char tmp[1200];
        snprintf(tmp, sizeof tmp, "%s/recoded.out", cgwt_tmpdir());
        FILE *f = fopen(tmp, "wb");
        CHECK(f != NULL && fwrite(out, 1, len, f) == len && fclose(f) == 0);
        cgwt_annotate_totals(tmp, want, nev);
        remove(tmp);
    }
    free(out);
    out = cgwt_recode_check(path, positions,
                            CGW_COMPACT | ((positions & CGW_POS_BB) ? CGW_EXTENDED : 0), &len);
    cgwt_readback(out, len, NULL);
    free(out);
    struct stat st;
    if (strstr(path, "/callgrind-") != NULL && stat(path, &st) == 0) {
        callgrind_bytes += (uint64_t)st.st_size;
        compact_bytes += len;
    }
}

static void check_file(const char *path, const char *allowed)
{
    result res = { 0, 0, "", allowed, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = on_diag,
                           .diag_ctx = &res };
    cgw_reader *r = cgw_reader_open_path(path, &o);
    if (r == NULL)
        cgwt_fail(__FILE__, __LINE__, "cannot open %s", path);
    const cgw_record *rec;
    uint64_t want[64];
    size_t nev = 0;
    unsigned positions = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind != CGW_REC_PART_END)
            continue;
        res.parts++;
        nev = rec->part->nevents;
        positions = rec->part->positions;
        CHECK(nev <= 64);
        for (size_t i = 0; rec->totals_line && i < nev; i++)
            if (rec->totals_line[i] != rec->costs[i])
                cgwt_fail(__FILE__, __LINE__, "%s: totals: %llu, cost lines %llu", path,
                          (unsigned long long)rec->totals_line[i],
                          (unsigned long long)rec->costs[i]);
        /* callgrind_annotate's total: summary: unless it is all zero */
        int summary = 0;
        for (size_t i = 0; rec->summary && i < nev; i++)
            summary |= rec->summary[i] != 0;
        for (size_t i = 0; i < nev; i++)
            want[i] = summary ? rec->summary[i] : rec->costs[i];
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    if (res.errors != 0)
        cgwt_fail(__FILE__, __LINE__, "%s: %llu errors, first %s", path,
                  (unsigned long long)res.errors, res.first);
    uint64_t diffs;
    res.allowed = NULL;
    CHECK_ST(cgw_roundtrip(path, NULL, 0, &o, &diffs), CGW_OK);
    if (diffs != 0)
        cgwt_fail(__FILE__, __LINE__, "%s: round trip: %s", path, res.first);
    /* callgrind_annotate miscounts the columns of bb positions ("too many
     * event counts"), and reads one part only */
    if (res.parts == 1 && !(positions & CGW_POS_BB) && !res.ca_aborts)
        cgwt_annotate_totals(path, want, nev);
    recode(path, positions, want, nev, res.parts == 1);
}

/* Every file in dir whose name starts with prefix; returns how many. */
static size_t check_dir(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    size_t n = 0;
    char path[1200];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || strstr(e->d_name, ".md"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        /* --separate-threads=yes leaves the base name as an empty file
         * beside the per-thread profiles: not a profile */
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
            (st.st_size == 0 && prefix[0] != '\0'))
            continue;
        /* a file of the oldest dialect really uses an object ID it never defines */
        const char *allowed = strstr(e->d_name, "selinux") ? "undefined-id" : NULL;
        check_file(path, allowed);
        n++;
    }
    closedir(d);
    return n;
}

static size_t run_valgrind(const char *vg, const char *tool, const char *opts, int k)
{
    char cmd[2000], prefix[64];
    const char *dir = cgwt_tmpdir();
    snprintf(prefix, sizeof prefix, "%s-%d.", tool, k);
    snprintf(cmd, sizeof cmd, "'%s' -q --tool=%s %s --%s-out-file='%s/%s%%p' ./tests/subject "
             ">/dev/null 2>'%s/log-%s'", vg, tool, opts, tool, dir, prefix, dir, prefix);
    if (system(cmd) != 0)
        cgwt_fail(__FILE__, __LINE__, "failed: %s", cmd);
    size_t n = check_dir(dir, prefix);
    if (n == 0)
        cgwt_fail(__FILE__, __LINE__, "no profile from: %s", cmd);
    printf("%-80s %zu file%s\n", opts[0] ? opts : "(callgrind defaults)", n, n == 1 ? "" : "s");
    return n;
}

int main(void)
{
    size_t files = 0;
    const char *vg = getenv("VALGRIND");
#if defined(__SANITIZE_ADDRESS__)
    printf("note: valgrind cannot run the ASan-built subject; the plain build runs it\n");
    vg = NULL;
#endif
    if (vg != NULL && vg[0] != '\0' && cgwt_scaled(2) == 1) {
        printf("note: under memcheck (CGW_TEST_SCALE) the corpus only: the plain build "
               "makes and reads Callgrind's files\n");
        vg = NULL;
    }
    if (vg != NULL && vg[0] != '\0') {
        int k = 0;
        for (size_t i = 0; i < sizeof callgrind_options / sizeof *callgrind_options; i++)
            files += run_valgrind(vg, "callgrind", callgrind_options[i], k++);
        for (size_t i = 0; i < sizeof cachegrind_options / sizeof *cachegrind_options; i++)
            files += run_valgrind(vg, "cachegrind", cachegrind_options[i], k++);
    } else {
        printf("note: valgrind not installed, no profiles made at test time\n");
    }
    const char *corpus = getenv("CGW_CORPUS");
    size_t n = corpus ? check_dir(corpus, "") : 0;
    if (n == 0)
        printf("note: no corpus at %s\n", corpus ? corpus : "(CGW_CORPUS unset)");
    files += n;
    printf("%zu real profiles read, checked, round-tripped and recoded\n", files);
    if (callgrind_bytes > 0)
        printf("cgrecode --compact: %llu bytes for Callgrind's %llu (%.1f%%)\n",
               (unsigned long long)compact_bytes, (unsigned long long)callgrind_bytes,
               100.0 * (double)compact_bytes / (double)callgrind_bytes);
    return files == 0 ? 77 : 0;
}
