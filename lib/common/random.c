/* SPDX-License-Identifier: MIT */
/* random.c - unpredictable bytes (random.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif

#include "hash.h"
#include "random.h"

/* Read len bytes from fd, retrying EINTR and short reads: how many came. */
static size_t read_fully(int fd, unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    return got;
}

/* The kernel's bytes: how many it gave (all len, unless it has none). */
static size_t from_kernel(unsigned char *buf, size_t len)
{
    size_t got = 0;
#if defined(HAVE_GETRANDOM)
    while (got < len) {
        /* never blocks, even early at boot: the mix below covers it */
        ssize_t n = getrandom(buf + got, len - got, GRND_NONBLOCK);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    if (got == len)
        return got;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return got;
    got += read_fully(fd, buf + got, len - got);
    close(fd);
    return got;
}

void cgwp_random(void *buf, size_t len)
{
    int saved = errno;
    unsigned char *bytes = buf;
    size_t got = from_kernel(bytes, len);
    if (got < len) {
        /* no kernel source: what the process and the clock can give */
        struct timespec real = { 0, 0 }, mono = { 0, 0 };
        clock_gettime(CLOCK_REALTIME, &real);
        clock_gettime(CLOCK_MONOTONIC, &mono);
        uint64_t state = (uint64_t)real.tv_sec * 1000000007u ^ (uint64_t)real.tv_nsec;
        state ^= ((uint64_t)mono.tv_nsec << 32 | (uint64_t)mono.tv_sec) * 0x9e3779b97f4a7c15u;
        state ^= (uint64_t)getpid() << 40 ^ (uint64_t)(uintptr_t)buf ^
                 (uint64_t)(uintptr_t)&state >> 4;
        for (; got < len; got++) {
            state = cgwp_hash_mix(state + 0x9e3779b97f4a7c15u);
            bytes[got] = (unsigned char)(state >> 24);
        }
    }
    errno = saved;
}
