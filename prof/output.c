/* SPDX-License-Identifier: MIT */
/* output.c - where profiles go, and which file a dump may replace.
 *
 * The user names the file with $CGWPROF_OUT; that name is written as the
 * path sink writes any (a symlink followed, a file replaced).  Without
 * it the profile goes to callgrind.out.<pid> in the folder the program
 * started in, a name nobody chose, often in a folder others may write:
 * there no symlink is followed and no file is replaced but the one this
 * process wrote itself (CGW_EXCL for a free name, CGW_NOFOLLOW for its
 * own earlier dump).  A setuid or setgid program (secure execution)
 * writes no default profile at all, since the user who runs it chooses
 * its folder (the dump at exit says so on stderr; no signal handler is
 * installed), and cgwprof_dump() with a path of the program's own still
 * writes one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cgw.h>
#include "config.h"
#include "prof.h"

static char out_pattern[4096]; /* $CGWPROF_OUT or callgrind.out.%p, absolute */
static int out_named;          /* $CGWPROF_OUT was given */

/* The file this process (since its start or its fork) wrote last at its
 * default path. */
static struct {
    char path[4200];
    dev_t dev;
    ino_t ino;
    pid_t pid;
} own;

/* Where dumps go, fixed at start: a later chdir() does not move them;
 * "-" is standard output, as in every tool. */
void prof_output_init(void)
{
    const char *value = prof_getenv("CGWPROF_OUT");
    out_named = value != NULL && value[0] != '\0';
    if (!out_named)
        value = "callgrind.out.%p";
    char cwd[2048];
    if (value[0] != '/' && strcmp(value, "-") != 0 && getcwd(cwd, sizeof cwd) != NULL)
        snprintf(out_pattern, sizeof out_pattern, "%s/%s", cwd, value);
    else
        snprintf(out_pattern, sizeof out_pattern, "%s", value);
}

/* The default path: the pattern with %p replaced by the pid (a forked
 * child writes its own file) and %% by %.  Async-signal-safe: the
 * signal handler calls it. */
void prof_default_path(char *out, size_t len)
{
    char pid[24];
    size_t used = 0, np = 0;
    for (unsigned long rest = (unsigned long)getpid(); rest != 0 || np == 0; rest /= 10)
        pid[np++] = (char)('0' + rest % 10);
    for (const char *at = out_pattern; *at != '\0' && used + 1 < len; at++) {
        if (at[0] == '%' && at[1] == 'p') {
            for (size_t i = np; i > 0 && used + 1 < len; i--)
                out[used++] = pid[i - 1];
            at++;
        } else {
            out[used++] = at[0] == '%' && at[1] == '%' ? *at++ : *at;
        }
    }
    out[used < len ? used : len - 1] = '\0';
}

/* Whether path is the file this process wrote at its default path, as
 * lstat() finds it now (a regular file, not a link).  Async-signal-safe. */
static int is_own(const char *path)
{
    struct stat st;
    return own.pid == getpid() && strcmp(own.path, path) == 0 && lstat(path, &st) == 0 &&
           S_ISREG(st.st_mode) && st.st_dev == own.dev && st.st_ino == own.ino;
}

int prof_default_target(char *out, size_t len, unsigned *flags)
{
    if (prof_secure()) {
        errno = EPERM;
        return -1;
    }
    prof_default_path(out, len);
    *flags = out_named ? 0 : is_own(out) ? CGW_NOFOLLOW : CGW_EXCL;
    return 0;
}

void prof_output_written(const char *path)
{
    struct stat st;
    if (out_named || lstat(path, &st) != 0 || strlen(path) >= sizeof own.path)
        return;
    memcpy(own.path, path, strlen(path) + 1);
    own.dev = st.st_dev;
    own.ino = st.st_ino;
    own.pid = getpid();
}

int prof_output_commit(const char *temp, const char *target, unsigned flags)
{
    if (!(flags & CGW_EXCL))
        return rename(temp, target);
    int rc = link(temp, target); /* only to a free name */
    int saved = errno;
    unlink(temp);
    errno = saved;
    return rc;
}
