/* SPDX-License-Identifier: MIT */
/* test-path-kinds: what cgw_open_path() does with each kind of thing at
 * the path.  A FIFO, a pipe named /dev/fd/N and /dev/null are written
 * through and stay what they were; a symlink is followed (the link
 * stays, the file it names is replaced, in its own folder, even when it
 * does not exist yet); an existing file keeps its permission bits (not
 * set-user-ID) and a new one gets 0666 & ~umask; a 250-byte name works;
 * two writers of one path use different temporary names, not made from
 * the process ID. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char *want;
static size_t want_len;
static cgwt_model model;

static char *in_tmp(const char *name)
{
    static char buf[8][1024];
    static int next;
    char *out = buf[next++ % 8];
    snprintf(out, sizeof buf[0], "%s/%s", cgwt_tmpdir(), name);
    return out;
}

static void write_bulk(const char *path)
{
    const cgwt_scenario *s = cgwt_scenario_named("bulk");
    cgw_options o = cgwt_options(s, 0, NULL);
    cgw_writer *w = cgw_open_path(path, &o);
    if (w == NULL)
        cgwt_fail(__FILE__, __LINE__, "cgw_open_path(%s): %s", path, strerror(errno));
    cgwt_model m;
    cgwt_model_init(&m, 2);
    s->run(w, &m);
    cgwt_model_free(&m);
    CHECK_ST(cgw_close(w), CGW_OK);
}

/* The file at path holds the whole profile. */
static void expect_profile(const char *path)
{
    size_t len;
    char *got = cgwt_read_file(path, &len);
    CHECK(got != NULL && len == want_len && memcmp(got, want, len) == 0);
    free(got);
}

/* Entries of the test folder whose name starts with prefix. */
static int count_entries(const char *prefix, char names[][256], int max)
{
    DIR *d = opendir(cgwt_tmpdir());
    CHECK(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        if (n < max)
            snprintf(names[n], 256, "%s", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* A child that copies what it reads from fd (or, when fd < 0, from the
 * FIFO at fifo) to the file copy; it closes other, the parent's end.
 * The child frees its copy of the parent's heap first: memcheck (make
 * check-valgrind) follows a fork and counts it as still reachable at
 * the child's _exit(). */
static pid_t spawn_reader(int fd, int other, const char *fifo, const char *copy)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid > 0)
        return pid;
    cgwt_model_free(&model);
    free(want);
    if (other >= 0)
        close(other);
    int in = fd >= 0 ? fd : open(fifo, O_RDONLY);
    int out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buf[4096];
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            _exit(1);
    _exit(in >= 0 && out >= 0 && close(out) == 0 ? 0 : 1);
}

static void reap(pid_t pid)
{
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void through_fifo_and_pipe(void)
{
    const char *fifo = in_tmp("fifo"), *copy = in_tmp("fifo.copy");
    CHECK(mkfifo(fifo, 0600) == 0);
    pid_t pid = spawn_reader(-1, -1, fifo, copy);
    write_bulk(fifo);
    reap(pid);
    struct stat st;
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    expect_profile(copy);

    /* -o >(cmd) */
    int fds[2];
    CHECK(pipe(fds) == 0);
    const char *pcopy = in_tmp("pipe.copy");
    pid = spawn_reader(fds[0], fds[1], NULL, pcopy);
    close(fds[0]);
    char devfd[64];
    snprintf(devfd, sizeof devfd, "/dev/fd/%d", fds[1]);
    write_bulk(devfd);
    close(fds[1]);
    reap(pid);
    expect_profile(pcopy);
    CHECK(unlink(fifo) == 0 && unlink(copy) == 0 && unlink(pcopy) == 0);
}

static void through_dev_null(void)
{
    struct stat before, after;
    if (stat("/dev/null", &before) != 0 || !S_ISCHR(before.st_mode)) {
        printf("no /dev/null here: skipped\n");
        return;
    }
    write_bulk("/dev/null");
    CHECK(stat("/dev/null", &after) == 0 && S_ISCHR(after.st_mode));
    CHECK(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino);
}

static void follows_links(void)
{
    const char *real = in_tmp("real.out"), *link = in_tmp("link.out");
    FILE *f = fopen(real, "w");
    CHECK(f != NULL && fputs("previous\n", f) >= 0 && fclose(f) == 0);
    CHECK(chmod(real, 0600) == 0 && symlink("real.out", link) == 0);
    write_bulk(link);
    struct stat st;
    char text[64];
    ssize_t n = readlink(link, text, sizeof text - 1);
    CHECK(n == 8 && memcmp(text, "real.out", 8) == 0);
    CHECK(stat(real, &st) == 0 && (st.st_mode & 07777) == 0600);
    expect_profile(real);

    /* into another folder, to a file that does not exist yet */
    const char *sub = in_tmp("sub"), *far = in_tmp("far.out"), *made = in_tmp("sub/made.out");
    CHECK(mkdir(sub, 0700) == 0 && symlink("sub/made.out", far) == 0);
    write_bulk(far);
    CHECK(lstat(far, &st) == 0 && S_ISLNK(st.st_mode));
    expect_profile(made);
    CHECK(unlink(made) == 0 && rmdir(sub) == 0); /* nothing else was left there */
    CHECK(unlink(far) == 0 && unlink(link) == 0 && unlink(real) == 0);
}

static void modes_and_long_name(void)
{
    const char *fresh = in_tmp("fresh.out");
    mode_t old = umask(027);
    write_bulk(fresh);
    umask(old);
    struct stat st;
    CHECK(stat(fresh, &st) == 0 && (st.st_mode & 07777) == 0640);
    CHECK(chmod(fresh, 0604) == 0);
    write_bulk(fresh);
    CHECK(stat(fresh, &st) == 0 && (st.st_mode & 07777) == 0604);
    expect_profile(fresh);
    CHECK(chmod(fresh, 04750) == 0); /* set-user-ID is not carried over */
    write_bulk(fresh);
    CHECK(stat(fresh, &st) == 0 && (st.st_mode & 07777) == 0750);
    CHECK(unlink(fresh) == 0);

    char name[251];
    memset(name, 'n', 246);
    memcpy(name + 246, ".out", 5);
    CHECK(strlen(name) == 250);
    const char *path = in_tmp(name);
    write_bulk(path);
    expect_profile(path);
    CHECK(unlink(path) == 0);
}

static void temp_names(void)
{
    const char *path = in_tmp("two.out");
    cgw_writer *a = cgw_open_path(path, NULL), *b = cgw_open_path(path, NULL);
    CHECK(a != NULL && b != NULL);
    char names[3][256];
    int named = count_entries(".cgw-", names, 3);
    if (named == 0) { /* anonymous temporary files (O_TMPFILE): no name yet */
        cgw_free(a);
        cgw_free(b);
        CHECK(count_entries("", names, 3) == 2);
        return;
    }
    CHECK(named == 2);
    CHECK(strcmp(names[0], names[1]) != 0);
    for (int i = 0; i < 2; i++)
        CHECK(strlen(names[i]) == 17 && strstr(names[i], "two.out") == NULL);
    cgw_free(a);
    cgw_free(b);
    CHECK(count_entries("", names, 3) == 2); /* "." and ".." */
}

int main(void)
{
    alarm(60); /* the old sink renamed over a FIFO: its reader waited for ever */
    want = cgwt_run_memory(cgwt_scenario_named("bulk"), 0, &model, &want_len);
    CHECK(want != NULL);
    cgwt_readback(want, want_len, &model);
    cgwt_annotate(want, want_len, &model);
    through_fifo_and_pipe();
    through_dev_null();
    follows_links();
    modes_and_long_name();
    temp_names();
    CHECK(rmdir(cgwt_tmpdir()) == 0);
    cgwt_model_free(&model);
    free(want);
    printf("FIFO, pipe, /dev/null, links, modes, a 250-byte name and temporary names\n");
    return 0;
}
