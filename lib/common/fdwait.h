/* SPDX-License-Identifier: MIT */
/* fdwait.h - a descriptor that is not ready yet: a non-blocking pipe,
 * socket or terminal says EAGAIN where a blocking one would wait; the
 * reader and the fd sink wait for it instead of failing.  Never
 * installed. */
#ifndef CGW_COMMON_FDWAIT_H
#define CGW_COMMON_FDWAIT_H

/* When errno says that fd would block (EAGAIN, EWOULDBLOCK), wait until
 * it is ready to read (for_write 0) or to write, and return 1: the call
 * may be tried again.  Otherwise (another error, or poll() failing)
 * return 0 with errno as it was.  EINTR while waiting is a retry too. */
int cgwp_wait_ready(int fd, int for_write);

#endif /* CGW_COMMON_FDWAIT_H */
