/* SPDX-License-Identifier: MIT */
/* test-fd-retry: the fd sink finishes the profile through a pipe whose
 * writes are cut short and interrupted (EINTR) by a timer signal. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static volatile sig_atomic_t signals;

static void on_alarm(int sig)
{
    (void)sig;
    signals++;
}

struct reader {
    int fd;
    cgwt_capture got;
};

static void *drain(void *arg)
{
    struct reader *r = arg;
    cgwt_drain(r->fd, &r->got, 20000);
    return NULL;
}

static void write_profile(cgw_writer *w)
{
    cgw_add_event(w, "Ir", NULL);
    cgw_file(w, "big.c");
    cgw_function(w, "loop");
    for (uint64_t i = 0; i < 200000; i++)
        cgw_cost(w, (uint64_t[]){ i % 977 }, (uint64_t[]){ i, i * 3 % 7 }, 1);
}

int main(void)
{
    char *want;
    size_t wlen;
    cgw_writer *w = cgw_open_memory(&want, &wlen, NULL);
    write_profile(w);
    CHECK_ST(cgw_close(w), CGW_OK);

    int p[2];
    CHECK(pipe(p) == 0);
    struct reader r = { p[0], { 0 } };
    cgwt_capture_init(&r.got, 0, 0);
    pthread_t t;
    /* The reader thread must not take the signals. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    CHECK(pthread_create(&t, NULL, drain, &r) == 0);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: blocked writes are cut */
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
    /* every 200 us; check-valgrind slows it (CGW_TEST_TIMER_US), or a
     * valgrinded write would be cut before it makes any progress */
    const char *us = getenv("CGW_TEST_TIMER_US");
    long period = us != NULL ? atol(us) : 200;
    struct itimerval it = { { period / 1000000, period % 1000000 },
                            { period / 1000000, period % 1000000 } };
    CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);

    cgw_options o = CGW_OPTIONS_INIT;
    o.buffer_size = 1 << 20;
    w = cgw_open_fd(p[1], &o);
    write_profile(w);
    cgw_status st = cgw_close(w);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    CHECK_ST(st, CGW_OK);
    close(p[1]);
    pthread_join(t, NULL);
    close(p[0]);

    CHECK(r.got.len == wlen && memcmp(r.got.data, want, wlen) == 0);
    CHECK(signals > 0);
    cgwt_annotate(want, wlen, NULL);
    printf("%zu bytes intact through a pipe interrupted by %d signals\n", wlen, (int)signals);
    cgwt_capture_free(&r.got);
    free(want);
    return 0;
}
