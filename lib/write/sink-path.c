/* SPDX-License-Identifier: MIT */
/* sink-path.c - write a file as a careful program replaces one.  A
 * regular file (or a new one) gets a temporary file beside it, under a
 * short random name, with the old file's mode; it is fsynced and renamed
 * over the file at a successful finish, then the folder is fsynced; on
 * any failure it is removed, so the file is either the old one or the
 * whole profile.  A symlink is followed to the file it names, and that
 * file is replaced in its own folder (the link stays).  Anything else at
 * the path (a device, a FIFO, /dev/fd/N) is written through as fopen()
 * would: opened, truncated, never replaced. */
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
    char *temp;   /* NULL when written through */
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

/* Rename the fsynced temporary file over the target, then sync the
 * folder (a file system that cannot sync a folder says EINVAL: nothing
 * more to do); the temporary file is removed when the rename fails. */
static int commit_temp(struct path *p, int ok)
{
    if (ok && rename(p->temp, p->target) == 0)
        return p->dir_fd < 0 || fsync(p->dir_fd) == 0 || errno == EINVAL ? 0 : -1;
    int e = errno;
    unlink(p->temp);
    errno = e;
    return -1;
}

static int path_close(cgw_writer *w, void *ctx, int commit)
{
    struct path *p = ctx;
    int r = 0;
    if (commit && p->temp != NULL && fsync(p->fd) != 0)
        r = -1;
    if (close(p->fd) != 0 && r == 0)
        r = -1;
    if (p->temp != NULL && commit_temp(p, commit && r == 0) != 0 && commit)
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

/* Create a temporary file beside target exclusively, under a name drawn
 * from cgwp_random(), so that nobody can place a file or a link there
 * first; the kernel applies the umask to 0666 as for a new file. */
static int open_temp(cgw_writer *w, struct path *p)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    const char *slash = strrchr(p->target, '/');
    size_t dir = slash == NULL ? 0 : (size_t)(slash - p->target) + 1;
    size_t plen = sizeof TEMP_PREFIX - 1;
    p->temp = cgwp_alloc(&w->alloc, dir + plen + TEMP_RANDOM + 1);
    if (p->temp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(p->temp, p->target, dir);
    memcpy(p->temp + dir, TEMP_PREFIX, plen);
    for (int tries = 0; tries < 100; tries++) {
        unsigned char bytes[TEMP_RANDOM];
        cgwp_random(bytes, sizeof bytes);
        for (size_t i = 0; i < TEMP_RANDOM; i++)
            p->temp[dir + plen + i] = digits[bytes[i] % (sizeof digits - 1)];
        p->temp[dir + plen + TEMP_RANDOM] = '\0';
        int fd = open(p->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* Open p for path: written through when something other than a regular
 * file is there, else a temporary file for the file path names. */
static int open_sink(cgw_writer *w, struct path *p, const char *path)
{
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        return -1;
    if (exists && !S_ISREG(st.st_mode))
        return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    p->target = resolve(w, path);
    p->dir_fd = p->target != NULL ? open_folder(w, p->target) : -1;
    /* a folder one may write but not read is not synced */
    int ok = p->dir_fd >= 0 || (p->target != NULL && errno == EACCES);
    int fd = ok ? open_temp(w, p) : -1;
    /* the permission bits, not set-user-ID and the like, which a write
     * through fopen() would have cleared */
    if (fd >= 0 && exists && fchmod(fd, st.st_mode & 0777) != 0) {
        int e = errno;
        close(fd);
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
    return w;
}
