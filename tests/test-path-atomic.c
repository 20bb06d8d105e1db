/* SPDX-License-Identifier: MIT */
/* test-path-atomic: the path sink replaces the target only when the whole
 * profile was written.  A write failure at every size (RLIMIT_FSIZE), an
 * API error, or a writer freed unfinished leave the previous file intact
 * and no temporary file behind. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char target[512];

static void put_previous(void)
{
    FILE *f = fopen(target, "w");
    CHECK(f != NULL && fputs("previous\n", f) >= 0 && fclose(f) == 0);
}

static void expect_previous_only(void)
{
    char *text = cgwt_read_file(target, NULL);
    CHECK(text != NULL);
    CHECK_STR(text, "previous\n");
    free(text);
    DIR *d = opendir(cgwt_tmpdir());
    CHECK(d != NULL);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL)
        files += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    CHECK(files == 1); /* the target and nothing else */
}

static cgw_writer *open_bulk(size_t bufsize)
{
    const cgwt_scenario *s = cgwt_scenario_named("bulk");
    cgw_options o = cgwt_options(s, bufsize, NULL);
    return cgw_open_path(target, &o);
}

static void run_bulk(cgw_writer *w)
{
    cgwt_model m;
    cgwt_model_init(&m, 2);
    cgwt_scenario_named("bulk")->run(w, &m);
    cgwt_model_free(&m);
}

int main(void)
{
    snprintf(target, sizeof target, "%s/profile.out", cgwt_tmpdir());
    size_t full;
    char *want = cgwt_run_memory(cgwt_scenario_named("bulk"), 0, NULL, &full);

    /* Success replaces the previous file, with the usual permissions. */
    put_previous();
    mode_t mask = umask(022);
    cgw_writer *w = open_bulk(0);
    run_bulk(w);
    CHECK_ST(cgw_close(w), CGW_OK);
    size_t len;
    char *got = cgwt_read_file(target, &len);
    CHECK(len == full && memcmp(got, want, full) == 0);
    free(got);
    struct stat st;
    CHECK(stat(target, &st) == 0 && (st.st_mode & 0777) == 0644);
    umask(mask);

    /* The disk fills up after every possible number of bytes. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    long runs = 0;
    for (rlim_t limit = 16; limit < full; limit += limit < 512 ? 37 : 1021) {
        put_previous();
        struct rlimit r = { limit, old.rlim_max };
        CHECK(setrlimit(RLIMIT_FSIZE, &r) == 0);
        w = open_bulk(64);
        CHECK(w != NULL);
        run_bulk(w);
        CHECK_ST(cgw_finish(w), CGW_EIO);
        CHECK(strstr(cgw_errmsg(w), strerror(EFBIG)) != NULL);
        cgw_free(w);
        CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
        expect_previous_only();
        runs++;
    }

    /* A refused call: nothing is committed. */
    put_previous();
    w = open_bulk(0);
    run_bulk(w);
    CHECK_ST(cgw_add_event(w, "late", NULL), CGW_EUSAGE);
    CHECK_ST(cgw_close(w), CGW_EUSAGE);
    expect_previous_only();

    /* Freed without finishing: nothing is committed. */
    w = open_bulk(0);
    run_bulk(w);
    cgw_free(w);
    expect_previous_only();

    /* A folder that does not exist. */
    CHECK(cgw_open_path("/nonexistent-cgw-dir/x.out", NULL) == NULL && errno == ENOENT);

    unlink(target);
    CHECK(rmdir(cgwt_tmpdir()) == 0);
    free(want);
    printf("target intact after %ld write failures, a refused call and a discard\n", runs);
    return 0;
}
