/* SPDX-License-Identifier: MIT */
/* sink-fd.c - write to a descriptor the caller owns. */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "common/fdwait.h"
#include "write.h"

int cgwp_fd_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t written = write(fd, buf, len);
        if (written < 0) {
            if (errno == EINTR || cgwp_wait_ready(fd, 1))
                continue; /* interrupted, or a non-blocking fd not ready */
            return -1;
        }
        if (written == 0) {
            errno = EIO;
            return -1;
        }
        buf += written;
        len -= (size_t)written;
    }
    return 0;
}

static int fd_write(void *ctx, const char *buf, size_t len)
{
    return cgwp_fd_write_all((int)(intptr_t)ctx, buf, len);
}

cgw_writer *cgw_open_fd(int fd, const cgw_options *opts)
{
    cgw_writer *w = cgwp_new(fd >= 0, opts);
    if (w != NULL)
        cgwp_bind_sink(w, fd_write, NULL, (void *)(intptr_t)fd);
    return w;
}
