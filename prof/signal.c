/* SPDX-License-Identifier: MIT */
/* signal.c - a profile when SIGINT, SIGTERM or SIGABRT (abort()) kills
 * the program, as Callgrind writes one; then the signal goes on with
 * its default action, so the program still dies of it.
 *
 * The dump allocates, reads ELF files and the debug info, and the
 * writer allocates: none of it is async-signal-safe, and the signal may
 * have come in the middle of malloc() or of the profiler's own hooks.
 * So the handler does only what is async-signal-safe: it creates a
 * temporary file beside the target, _Fork()s (no atfork handlers, no
 * locks taken) and waits.  The copy of the process, which has a single
 * thread and the memory of the moment, writes the profile into the
 * file, fsyncs it and renames it over the target, and removes it on
 * failure.  Should the copy fail or hang (the signal came while a lock
 * was held, or a heap update was half done), the target is untouched:
 * after TIMEOUT_MS the handler kills the copy and removes the file.
 *
 * Only signals whose disposition is the default at start are handled: a
 * program's own handlers, installed before or after, win.
 * CGWPROF_SIGNALS=off leaves all three alone; so do a C library
 * without _Fork() (glibc before 2.34) and a setuid or setgid program,
 * which writes no profile to the default path.  The profile is put at
 * the default path as output.c allows: a name nobody chose only while it
 * is free, or over this process's own earlier dump. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "prof.h"

#define TIMEOUT_MS 10000

static const int fatal[] = { SIGINT, SIGTERM, SIGABRT };
static int state; /* 0, 1 a handler is dumping, 2 done */

/* dst + src, cut to len bytes with the NUL; async-signal-safe */
static void append(char *dst, size_t len, const char *src)
{
    size_t used = strlen(dst);
    while (*src != '\0' && used + 1 < len)
        dst[used++] = *src++;
    dst[used] = '\0';
}

static void append_number(char *dst, size_t len, unsigned long value)
{
    char digits[24], rev[24];
    size_t ndigits = 0;
    do
        rev[ndigits++] = (char)('0' + value % 10);
    while ((value /= 10) != 0);
    for (size_t i = 0; i < ndigits; i++)
        digits[i] = rev[ndigits - 1 - i];
    digits[ndigits] = '\0';
    append(dst, len, digits);
}

static void pause_ms(long ms)
{
    struct timespec d = { 0, ms * 1000000 };
    nanosleep(&d, NULL);
}

/* In the copy: the profile of process pid, its calls in progress ending
 * at tick now, into fd, then over target. */
static __attribute__((noreturn)) void write_copy(int fd, const char *temp, const char *target,
                                                 unsigned flags, long pid, uint64_t now)
{
    if (prof_dump_fd(fd, target, pid, now) == 0 && fsync(fd) == 0 && close(fd) == 0 &&
        prof_output_commit(temp, target, flags) == 0)
        _exit(0);
    unlink(temp);
    _exit(1);
}

/* The copy's end, or its kill after TIMEOUT_MS; then the file it left
 * is removed (gone already when it succeeded; none for standard output,
 * temp ""). */
static void wait_copy(pid_t pid, const char *temp)
{
    int st;
    pid_t reaped = 0;
    for (long waited = 0; waited < TIMEOUT_MS && reaped == 0; waited += 10) {
        reaped = waitpid(pid, &st, WNOHANG);
        if (reaped == 0)
            pause_ms(10);
    }
    if (reaped == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    if (temp[0] != '\0')
        unlink(temp);
}

static void dump_in_copy(void)
{
    uint64_t now = prof_ticks(); /* the calls in progress end here */
    long self = (long)getpid();
    char target[4200], temp[4300];
    unsigned flags;
    if (prof_default_target(target, sizeof target, &flags) != 0)
        return;
    int to_stdout = target[0] == '-' && target[1] == '\0';
    int fd = STDOUT_FILENO;
    temp[0] = '\0';
    if (!to_stdout) {
        append(temp, sizeof temp, target);
        append(temp, sizeof temp, ".cgwprof-signal-");
        append_number(temp, sizeof temp, (unsigned long)self);
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0)
            return;
    }
#if HAVE__FORK
    pid_t pid = _Fork();
#else
    pid_t pid = -1;
#endif
    if (pid == 0 && to_stdout)
        _exit(prof_dump_fd(fd, target, self, now) == 0 ? 0 : 1);
    if (pid == 0)
        write_copy(fd, temp, target, flags, self, now);
    if (!to_stdout)
        close(fd);
    if (pid > 0)
        wait_copy(pid, temp);
    else if (!to_stdout)
        unlink(temp);
}

/* The first fatal signal dumps; one that comes meanwhile in another
 * thread waits for that dump.  Then the signal is raised again with the
 * default action: blocked while the handler runs, it kills the process
 * as the handler returns. */
static void on_signal(int sig)
{
    int saved = errno;
    int idle = 0;
    if (__atomic_compare_exchange_n(&state, &idle, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        if (prof_threads() != NULL) /* as at exit: no call, no profile */
            dump_in_copy();
        __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
            pause_ms(10);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

void prof_signals_init(void)
{
#if !HAVE__FORK
    return; /* fork() would run the atfork handlers, and take malloc's locks */
#endif
    const char *want = prof_getenv("CGWPROF_SIGNALS");
    if ((want != NULL && strcmp(want, "off") == 0) || prof_secure())
        return; /* a secure-execution process writes no default profile */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaddset(&sa.sa_mask, fatal[i]); /* one at a time in each thread */
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction old;
        if (sigaction(fatal[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            sigaction(fatal[i], &sa, NULL);
    }
}
