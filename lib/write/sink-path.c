/* SPDX-License-Identifier: MIT */
/* sink-path.c - write a file as a careful program replaces one.  A
 * regular file (or a new one) gets a temporary file beside it, under a
 * short random name, with the old file's mode; it is fsynced and renamed
 * over the file at a successful finish, then the folder is fsynced; on
 * any failure it is removed, so the file is either the old one or the
 * whole profile.  Where the file system can (O_TMPFILE), the temporary
 * file has no name until the finish links it in, so a writer killed
 * midway leaves nothing behind.  A symlink is followed to the file it
 * names, and that file is replaced in its own folder (the link stays).
 * Anything else at the path (a device, a FIFO, /dev/fd/N) is written
 * through as fopen() would: opened, truncated, never replaced.
 * CGW_NOFOLLOW refuses both; CGW_EXCL also refuses a file that is there
 * and, at the finish, takes the name only if it is still free. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/random.h"
#include "write.h"

#define MAX_LINKS 40     /* as the kernel's ELOOP */
#define TEMP_PREFIX ".cgw-"
#define TEMP_RANDOM 12   /* letters and digits: 36^12, about 2^62 names */

struct path {
    int fd;
    int dir_fd;   /* the target's folder; -1 when written through or unreadable */
    char *target; /* the file the temporary one replaces */
    char *temp;   /* NULL when written through; with anon, a name in dir_fd */
    int anon;     /* fd is an O_TMPFILE: linked in as temp at the finish */
    int excl;     /* CGW_EXCL: target is taken only while it is free */
};

static int path_write(void *ctx, const char *buf, size_t len)
{
    struct path *p = ctx;
    return cgwp_fd_write_all(p->fd, buf, len);
}

/* The folder of target, opened now so that the commit, after the
 * rename, needs no allocation to fsync it. */
static int open_folder(cgw_writer *w, const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t len = slash == NULL || slash == target ? 1 : (size_t)(slash - target);
    char *dir = cgwp_alloc(&w->alloc, len + 1);
    if (dir == NULL) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(dir, slash == NULL ? "." : target, len);
    dir[len] = '\0';
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    int e = errno;
    cgwp_free(&w->alloc, dir);
    errno = e;
    return fd;
}

static void free_path(cgw_writer *w, struct path *p)
{
    if (p->dir_fd >= 0)
        close(p->dir_fd);
    cgwp_free(&w->alloc, p->temp);
    cgwp_free(&w->alloc, p->target);
    cgwp_free(&w->alloc, p);
}

/* The folder synced after a rename or link (a file system that cannot
 * sync a folder says EINVAL: nothing more to do). */
static int sync_folder(const struct path *p)
{
    return p->dir_fd < 0 || fsync(p->dir_fd) == 0 || errno == EINVAL ? 0 : -1;
}

/* Put the fsynced named temporary file at the target: renamed over it,
 * or with CGW_EXCL linked only to a free name; the temporary name is
 * removed whenever it is still there. */
static int commit_named(struct path *p, int ok)
{
    int done = ok && (p->excl ? link(p->temp, p->target) : rename(p->temp, p->target)) == 0;
    int e = errno;
    if (!done || p->excl)
        unlink(p->temp);
    errno = e;
    return done ? sync_folder(p) : -1;
}

/* The part of target after its last slash: its name in dir_fd. */
static const char *base_name(const char *target)
{
    const char *slash = strrchr(target, '/');
    return slash == NULL ? target : slash + 1;
}

/* Give the anonymous temporary file (O_TMPFILE) a name in its folder:
 * the target's with CGW_EXCL (EEXIST when it was taken meanwhile), else
 * p->temp, renamed over the target.  Nothing to undo on failure but a
 * name made here. */
static int commit_anon(struct path *p, int ok)
{
    char proc[48];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", p->fd);
    const char *base = base_name(p->target);
    if (!ok)
        return -1;
    if (p->excl)
        return linkat(AT_FDCWD, proc, p->dir_fd, base, AT_SYMLINK_FOLLOW) == 0 ? sync_folder(p)
                                                                             : -1;
    if (linkat(AT_FDCWD, proc, p->dir_fd, p->temp, AT_SYMLINK_FOLLOW) != 0)
        return -1;
    if (renameat(p->dir_fd, p->temp, p->dir_fd, base) == 0)
        return sync_folder(p);
    int e = errno;
    unlinkat(p->dir_fd, p->temp, 0);
    errno = e;
    return -1;
}

static int path_close(cgw_writer *w, void *ctx, int commit)
{
    struct path *p = ctx;
    int r = 0;
    w->temp_name = NULL;
    if (commit && p->temp != NULL && fsync(p->fd) != 0)
        r = -1;
    if (p->anon && commit_anon(p, commit && r == 0) != 0 && commit)
        r = -1; /* linked through /proc while the descriptor is open */
    if (close(p->fd) != 0 && r == 0)
        r = -1;
    if (p->temp != NULL && !p->anon && commit_named(p, commit && r == 0) != 0 && commit)
        r = -1;
    int e = errno;
    free_path(w, p);
    errno = e;
    return r;
}

/* The file a symlink at path names, relative to the link's folder. */
static char *link_target(cgw_writer *w, const char *path, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash == NULL ? 0 : (size_t)(slash - path) + 1;
    size = size < 256 ? 4096 : size + 1; /* /proc says 0 */
    char *out = cgwp_alloc(&w->alloc, dir + size + 1);
    if (out == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    ssize_t n = readlink(path, out + dir, size);
    if (n < 0 || (size_t)n >= size) {
        int e = n < 0 ? errno : ENAMETOOLONG;
        cgwp_free(&w->alloc, out);
        errno = e;
        return NULL;
    }
    out[dir + (size_t)n] = '\0';
    if (out[dir] == '/')
        memmove(out, out + dir, (size_t)n + 1);
    else
        memcpy(out, path, dir);
    return out;
}

/* path with every symlink at its end followed, even to a file that does
 * not exist yet; NULL with errno set. */
static char *resolve(cgw_writer *w, const char *path)
{
    char *cur = cgwp_strdup(&w->alloc, path);
    errno = ENOMEM;
    for (int hops = 0; cur != NULL; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* open() reports what lstat() could not see */
        char *next = NULL;
        if (hops == MAX_LINKS)
            errno = ELOOP;
        else
            next = link_target(w, cur, (size_t)st.st_size);
        int e = errno;
        cgwp_free(&w->alloc, cur);
        errno = e;
        cur = next;
    }
    return NULL;
}

/* A fresh random name for the temporary file at temp + at. */
static void random_name(char *temp, size_t at)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t plen = sizeof TEMP_PREFIX - 1;
    unsigned char bytes[TEMP_RANDOM];
    memcpy(temp + at, TEMP_PREFIX, plen);
    cgwp_random(bytes, sizeof bytes);
    for (size_t i = 0; i < TEMP_RANDOM; i++)
        temp[at + plen + i] = digits[bytes[i] % (sizeof digits - 1)];
    temp[at + plen + TEMP_RANDOM] = '\0';
}

/* An anonymous temporary file in the target's folder (O_TMPFILE), to
 * be linked in at the finish through /proc/self/fd under p->temp, a
 * name drawn now so that the commit needs no allocation; -1 where the
 * kernel, the file system or a missing /proc cannot do it. */
static int open_anon(cgw_writer *w, struct path *p)
{
#ifdef O_TMPFILE
    if (p->dir_fd < 0 || access("/proc/self/fd", X_OK) != 0)
        return -1;
    p->temp = cgwp_alloc(&w->alloc, sizeof TEMP_PREFIX + TEMP_RANDOM);
    if (p->temp == NULL)
        return -1;
    random_name(p->temp, 0);
    int fd = openat(p->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd >= 0) {
        p->anon = 1;
        return fd;
    }
    cgwp_free(&w->alloc, p->temp);
    p->temp = NULL;
#else
    (void)w, (void)p;
#endif
    return -1;
}

/* Create a temporary file beside target: an anonymous one where it can
 * be had, else one created exclusively under a name drawn from
 * cgwp_random(), so that nobody can place a file or a link there first;
 * the kernel applies the umask to 0666 as for a new file. */
static int open_temp(cgw_writer *w, struct path *p)
{
    int fd = open_anon(w, p);
    if (fd >= 0)
        return fd;
    const char *slash = strrchr(p->target, '/');
    size_t dir = slash == NULL ? 0 : (size_t)(slash - p->target) + 1;
    p->temp = cgwp_alloc(&w->alloc, dir + sizeof TEMP_PREFIX + TEMP_RANDOM);
    if (p->temp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(p->temp, p->target, dir);
    for (int tries = 0; tries < 100; tries++) {
        random_name(p->temp, dir);
        fd = open(p->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* Open p for path: written through when something other than a regular
 * file is there, else a temporary file for the file path names; with
 * CGW_NOFOLLOW or CGW_EXCL neither a link nor anything but a regular file
 * is taken (ELOOP, EEXIST), and with CGW_EXCL no file at all (EEXIST). */
static int open_sink(cgw_writer *w, struct path *p, const char *path)
{
    struct stat st;
    int nofollow = (w->flags & (CGW_NOFOLLOW | CGW_EXCL)) != 0;
    int exists = (nofollow ? lstat(path, &st) : stat(path, &st)) == 0;
    if (!exists && errno != ENOENT)
        return -1;
    if (exists && (p->excl || (nofollow && !S_ISREG(st.st_mode)))) {
        errno = S_ISLNK(st.st_mode) ? ELOOP : EEXIST;
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode))
        return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    errno = ENOMEM;
    p->target = nofollow ? cgwp_strdup(&w->alloc, path) : resolve(w, path);
    p->dir_fd = p->target != NULL ? open_folder(w, p->target) : -1;
    /* a folder one may write but not read is not synced */
    int ok = p->dir_fd >= 0 || (p->target != NULL && errno == EACCES);
    int fd = ok ? open_temp(w, p) : -1;
    /* the permission bits, not set-user-ID and the like, which a write
     * through fopen() would have cleared */
    if (fd >= 0 && exists && fchmod(fd, st.st_mode & 0777) != 0) {
        int e = errno;
        close(fd);
        if (!p->anon)
            unlink(p->temp);
        errno = e;
        return -1;
    }
    return fd;
}

cgw_writer *cgw_open_path(const char *path, const cgw_options *opts)
{
    cgw_writer *w;
    struct path *p = cgwp_new_sink(path != NULL && path[0] != '\0', opts, sizeof *p, &w);
    if (p == NULL)
        return NULL;
    p->dir_fd = -1;
    p->excl = (w->flags & CGW_EXCL) != 0;
    errno = ENOMEM;
    p->fd = open_sink(w, p, path);
    if (p->fd < 0) {
        int e = errno;
        free_path(w, p);
        cgwp_destroy(w);
        errno = e;
        return NULL;
    }
    cgwp_bind_sink(w, path_write, path_close, p);
    w->temp_name = p->anon ? NULL : p->temp;
    return w;
}
