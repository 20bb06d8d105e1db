/* SPDX-License-Identifier: MIT */
/* fdwait.c - wait for a non-blocking descriptor (see fdwait.h). */
#include <errno.h>
#include <poll.h>

#include "fdwait.h"

int cgwp_wait_ready(int fd, int for_write)
{
    int err = errno;
    if (err != EAGAIN && err != EWOULDBLOCK)
        return 0;
    struct pollfd ready = { fd, (short)(for_write ? POLLOUT : POLLIN), 0 };
    /* POLLHUP and POLLERR end the wait too: the retried call says what
     * they mean (end of input, EPIPE) */
    while (poll(&ready, 1, -1) < 0) {
        if (errno != EINTR) {
            errno = err;
            return 0;
        }
    }
    return 1;
}
