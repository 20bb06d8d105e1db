/* SPDX-License-Identifier: MIT */
/* test-path-flags: the path sink's choices beyond the plain replace.
 * CGW_NOFOLLOW takes only a regular file, CGW_EXCL only a free name (at
 * the open and again at the finish), CGW_RAW writes the caller's bytes
 * (plain and gzip) through the same atomic sink, and a writer killed in
 * the middle of a profile leaves no temporary file behind where the file
 * system has O_TMPFILE. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char dir[512];

static const char *at(const char *name)
{
    static char path[2][700];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0);
}

static void expect_text(const char *path, const char *want)
{
    char *text = cgwt_read_file(path, NULL);
    CHECK(text != NULL);
    CHECK_STR(text, want);
    free(text);
}

/* The file at path contains want (the profile, not what was there). */
static void expect_has(const char *path, const char *want)
{
    char *text = cgwt_read_file(path, NULL);
    if (text == NULL || strstr(text, want) == NULL)
        cgwt_fail(__FILE__, __LINE__, "%s: no \"%s\" in:\n%s", path, want,
                  text ? text : "(unreadable)");
    free(text);
}

/* Remove the files named, up to a NULL. */
__attribute__((sentinel)) static void unlink_all(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    for (; name != NULL; name = va_arg(ap, const char *))
        unlink(at(name));
    va_end(ap);
}

/* The number of entries in dir, and whether one is a temporary file. */
static int entries(int *temps)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    *temps = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        *temps += strncmp(e->d_name, ".cgw-", 5) == 0;
    }
    closedir(d);
    return n;
}

/* A small whole profile through w; its status at cgw_finish(). */
static cgw_status small_profile(cgw_writer *w)
{
    uint64_t pos = 1, cost = 7;
    cgw_add_event(w, "Ir", NULL);
    cgw_file(w, "a.c");
    cgw_function(w, "main");
    cgw_cost(w, &pos, &cost, 1);
    cgw_status st = cgw_finish(w);
    cgw_free(w);
    return st;
}

static cgw_writer *open_flags(const char *path, unsigned flags)
{
    cgw_options o = {.struct_size = sizeof o, .flags = flags};
    return cgw_open_path(path, &o);
}

static void test_nofollow(void)
{
    put(at("victim"), "victim\n");
    CHECK(symlink(at("victim"), at("link")) == 0);
    errno = 0;
    CHECK(open_flags(at("link"), CGW_NOFOLLOW) == NULL && errno == ELOOP);
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    errno = 0;
    CHECK(open_flags(at("fifo"), CGW_NOFOLLOW) == NULL && errno == EEXIST);
    expect_text(at("victim"), "victim\n");
    /* a regular file is replaced, as without the flag */
    put(at("mine"), "old\n");
    CHECK_ST(small_profile(open_flags(at("mine"), CGW_NOFOLLOW)), CGW_OK);
    expect_has(at("mine"), "fn=");
    /* without the flag the link is still followed */
    CHECK_ST(small_profile(open_flags(at("link"), 0)), CGW_OK);
    struct stat st;
    CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode));
    expect_has(at("victim"), "fn=");
    unlink_all("victim", "link", "fifo", "mine", NULL);
    printf("nofollow: a link ELOOP, a FIFO EEXIST, a regular file replaced\n");
}

static void test_excl(void)
{
    put(at("taken"), "taken\n");
    errno = 0;
    CHECK(open_flags(at("taken"), CGW_EXCL) == NULL && errno == EEXIST);
    CHECK(symlink(at("nowhere"), at("dangling")) == 0);
    errno = 0;
    CHECK(open_flags(at("dangling"), CGW_EXCL) == NULL && errno == ELOOP);
    CHECK(access(at("nowhere"), F_OK) != 0);
    /* the name is taken between the open and the finish: not replaced */
    cgw_writer *w = open_flags(at("race"), CGW_EXCL);
    CHECK(w != NULL);
    put(at("race"), "theirs\n");
    errno = 0;
    CHECK_ST(small_profile(w), CGW_EIO);
    expect_text(at("race"), "theirs\n");
    /* a free name is taken */
    CHECK_ST(small_profile(open_flags(at("free"), CGW_EXCL)), CGW_OK);
    expect_has(at("free"), "totals: 7");
    int temps, n = entries(&temps);
    CHECK(n == 4 && temps == 0); /* taken, dangling, race, free */
    unlink_all("taken", "dangling", "race", "free", NULL);
    printf("excl: a file or link there refused, a name taken meanwhile kept\n");
}

static void test_raw(void)
{
    static const char text[] = "main;f 3\nmain 1\n";
    put(at("raw"), "old\n");
    CHECK(chmod(at("raw"), 0640) == 0);
    cgw_writer *w = open_flags(at("raw"), CGW_RAW);
    CHECK(w != NULL);
    CHECK_ST(cgw_write_bytes(w, text, 9), CGW_OK);
    CHECK_ST(cgw_write_bytes(w, text + 9, sizeof text - 10), CGW_OK);
    CHECK_ST(cgw_finish(w), CGW_OK);
    cgw_free(w);
    expect_text(at("raw"), text);
    struct stat st;
    CHECK(stat(at("raw"), &st) == 0 && (st.st_mode & 0777) == 0640);
    /* Callgrind calls are refused, and the old file stays */
    w = open_flags(at("raw"), CGW_RAW);
    CHECK_ST(cgw_write_bytes(w, "x", 1), CGW_OK);
    CHECK_ST(cgw_function(w, "main"), CGW_EUSAGE);
    CHECK(strstr(cgw_errmsg(w), "CGW_RAW") != NULL);
    CHECK_ST(cgw_finish(w), CGW_EUSAGE);
    cgw_free(w);
    expect_text(at("raw"), text);
    /* a writer without CGW_RAW takes no bytes */
    w = open_flags(at("raw"), 0);
    CHECK_ST(cgw_write_bytes(w, "x", 1), CGW_EUSAGE);
    cgw_free(w);
    expect_text(at("raw"), text);
    const char *zlib = getenv("CGW_HAVE_ZLIB");
    if (zlib != NULL && strcmp(zlib, "yes") == 0) {
        w = open_flags(at("raw.gz"), CGW_RAW | CGW_GZIP);
        CHECK(w != NULL);
        CHECK_ST(cgw_write_bytes(w, text, sizeof text - 1), CGW_OK);
        CHECK_ST(cgw_finish(w), CGW_OK);
        cgw_free(w);
        size_t len;
        char *gz = cgwt_read_file(at("raw.gz"), &len);
        CHECK(gz != NULL && len > 10 && (unsigned char)gz[0] == 0x1f &&
              (unsigned char)gz[1] == 0x8b);
        free(gz);
        char cmd[800];
        snprintf(cmd, sizeof cmd, "gzip -dc '%s' > '%s'", at("raw.gz"), at("raw.txt"));
        if (system(cmd) == 0)
            expect_text(at("raw.txt"), text);
        unlink_all("raw.gz", "raw.txt", NULL);
    }
    unlink(at("raw"));
    printf("raw: bytes through the atomic sink, Callgrind calls refused\n");
}

/* Can this folder hold an anonymous file (O_TMPFILE)? */
static int have_tmpfile(void)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
    if (fd >= 0) {
        close(fd);
        return access("/proc/self/fd", X_OK) == 0;
    }
#endif
    return 0;
}

/* A writer killed while it writes leaves no temporary file, and the old
 * file intact. */
static void test_killed(void)
{
    if (!have_tmpfile()) {
        printf("killed: skipped (no O_TMPFILE here: the tools remove the named "
               "temporary file on a signal instead)\n");
        return;
    }
    put(at("target"), "previous\n");
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        cgw_writer *w = open_flags(at("target"), 0);
        uint64_t pos = 1, cost = 1;
        cgw_add_event(w, "Ir", NULL);
        cgw_file(w, "a.c");
        cgw_function(w, "main");
        for (uint64_t i = 0; i < 200000; i++) {
            pos = i + 1;
            cgw_cost(w, &pos, &cost, 1);
        }
        if (write(ready[1], "x", 1) != 1) /* some of it is in the file by now */
            _exit(1);
        for (;;)
            pause();
    }
    close(ready[1]);
    char c;
    CHECK(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    int temps, n = entries(&temps);
    CHECK(n == 1 && temps == 0); /* nothing named while it writes */
    CHECK(kill(pid, SIGKILL) == 0);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
    n = entries(&temps);
    CHECK(n == 1 && temps == 0);
    expect_text(at("target"), "previous\n");
    unlink(at("target"));
    printf("killed: nothing left behind, the old file intact\n");
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s", cgwt_tmpdir());
    test_nofollow();
    test_excl();
    test_raw();
    test_killed();
    return 0;
}
