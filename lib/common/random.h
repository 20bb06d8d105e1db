/* SPDX-License-Identifier: MIT */
/* random.h - bytes an input cannot predict: the keys of the hash tables
 * (so that no file can choose names that collide) and the names of
 * temporary files.  Never installed. */
#ifndef CGW_COMMON_RANDOM_H
#define CGW_COMMON_RANDOM_H

#include <stddef.h>

/* Fill buf with len bytes from the kernel (getrandom(), else
 * /dev/urandom), mixed with the time, the process ID and addresses, so
 * that something unpredictable comes out even where the kernel's source
 * is closed (a chroot without /dev).  errno is kept. */
void cgwp_random(void *buf, size_t len);

#endif /* CGW_COMMON_RANDOM_H */
