/* sink-path.c - write a file atomically: a temporary file beside the
 * target, fsynced and renamed over it at a successful finish, removed on
 * any failure, so the target is either the old file or the whole profile. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "write.h"

struct path {
    int fd;
    char *target;
    char *temp;
};

static int path_write(void *ctx, const char *buf, size_t len)
{
    struct path *p = ctx;
    return cgwp_fd_write_all(p->fd, buf, len);
}

static int path_close(cgw_writer *w, void *ctx, int commit)
{
    struct path *p = ctx;
    int r = 0;
    if (commit && fsync(p->fd) != 0)
        r = -1;
    if (close(p->fd) != 0 && r == 0)
        r = -1;
    if (commit && r == 0 && rename(p->temp, p->target) != 0)
        r = -1;
    int e = errno;
    if (!commit || r != 0)
        unlink(p->temp);
    cgwp_free(&w->alloc, p->temp);
    cgwp_free(&w->alloc, p->target);
    cgwp_free(&w->alloc, p);
    errno = e;
    return r;
}

/* Create "<path>.cgw-<pid>-<n>" exclusively; the name is unique per
 * process and the counter only breaks ties with leftovers. */
static int open_temp(char *temp, size_t size, const char *path)
{
    for (unsigned n = 0; n < 1000; n++) {
        snprintf(temp, size, "%s.cgw-%ld-%u", path, (long)getpid(), n);
        int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

cgw_writer *cgw_open_path(const char *path, const cgw_options *opts)
{
    if (path == NULL || path[0] == '\0') {
        errno = EINVAL;
        return NULL;
    }
    cgw_writer *w = cgwp_new(opts);
    if (w == NULL)
        return NULL;
    size_t size = strlen(path) + 48;
    struct path *p = cgwp_alloc(&w->alloc, sizeof *p);
    char *target = cgwp_strdup(&w->alloc, path);
    char *temp = cgwp_alloc(&w->alloc, size);
    int fd = p && target && temp ? open_temp(temp, size, path) : -1;
    if (fd < 0) {
        int e = p && target && temp ? errno : ENOMEM;
        cgwp_free(&w->alloc, p);
        cgwp_free(&w->alloc, target);
        cgwp_free(&w->alloc, temp);
        cgwp_destroy(w);
        errno = e;
        return NULL;
    }
    p->fd = fd;
    p->target = target;
    p->temp = temp;
    cgwp_bind_sink(w, path_write, path_close, p);
    return w;
}
