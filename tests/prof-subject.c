/* SPDX-License-Identifier: MIT */
/* prof-subject: a program with a known call graph, compiled with
 * -finstrument-functions and linked with libcgwprof; test-prof runs it
 * in each mode and checks the profile it leaves.  Built again as
 * prof-preload, not linked with it (CGW_PRELOAD_ONLY), for the cgwprof
 * launcher's LD_PRELOAD.
 *   graph    main -> outer x3 -> inner x2 each -> spin; main -> fib(12);
 *            main -> nap, a 20 ms sleep: prints the ns it took; main ->
 *            ns::thing(int) and core::fmt::write, C functions with a
 *            C++ and a Rust (legacy) mangled name
 *   threads  three workers; worker k calls leaf 10*k times; worker 3
 *            ends with pthread_exit() from inside nested calls
 *   fork     before_fork x2; the child runs child_work x3, the parent
 *            parent_work x4
 *   fork-skip down(100) with realloc() refused (the profiler's stack of
 *            64 frames cannot grow: the 40 calls past it are skipped);
 *            down(0) forks, the parent prints the child's pid; both
 *            return (not in prof-preload or under ASan or TSan: exit 77)
 *   dump     cgwprof_dump(argv[2]) from inside dumper(), then more work;
 *            argv[2] "default" dumps to the default path (NULL)
 *   exit     exit() from inside deep(): the calls in progress count
 *   signal   outer x2, then die(): argv[2] int raises SIGINT, term
 *            sends SIGTERM to the process, abort calls abort(), and
 *            term-nochld ignores SIGCHLD first (children reaped
 *            unseen), then sends SIGTERM; term-thread starts a thread
 *            that calls waiter(), which never returns, and sends SIGTERM
 *            once it waits
 *   longjmp  jumper() 1000 times: setjmp(), jump(3) recursing down to
 *            jump(0), which longjmp()s back, then leaf(); then
 *            bounce(), which longjmp()s from jump(2) and returns; then
 *            climb(3) 100 times, which calls leaf() at each level and
 *            longjmp()s from climb(0) up to climb(3), which calls leaf()
 *            again from the same place
 *   frames   catcher() 3 times: setjmp(), deep(20), which longjmp()s
 *            from deep(0), then big() (512 bytes of locals); again with
 *            small(); then deep(0) longjmp()s straight back, and big(),
 *            and again with deep(-1); then outer().  Built at -O0, -O1
 *            and -O2 (prof-subject-O0, -O2)
 *   many     argv[2] short threads, eight at a time: each calls
 *            short_worker(), which calls leaf() once
 *   dlclose  libprofplug-a.so from folder argv[2], opened twice: its
 *            plug_a_entry() 5 times, one dlclose() (it stays loaded), 2
 *            more, the last dlclose(); then libprofplug-b.so, often at
 *            the same address: plug_b_entry() 7 times; all through
 *            call_plugin().  Prints "same" or "moved". */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgwprof.h"

#define NOINLINE __attribute__((noinline))

static __thread volatile unsigned long sink; /* per thread: no race */

NOINLINE static void spin(int n)
{
    for (int i = 0; i < n; i++)
        sink += (unsigned long)i;
}

NOINLINE static void inner(void)
{
    spin(2000);
}

NOINLINE static void outer(void)
{
    inner();
    inner();
}

/* a C++ name, and a Rust one (legacy mangling, with its hash) */
NOINLINE static void cxx_named(int n) __asm__("_ZN2ns5thingEi");
NOINLINE static void rust_named(void) __asm__("_ZN4core3fmt5write17h0123456789abcdefE");

NOINLINE static void cxx_named(int n)
{
    spin(n);
}

NOINLINE static void rust_named(void)
{
    spin(10);
}

NOINLINE static void nap(void)
{
    struct timespec d = { 0, 20000000 };
    while (nanosleep(&d, &d) != 0)
        ;
}

static unsigned long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000u + (unsigned long long)ts.tv_nsec;
}

NOINLINE static int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static void leaf(void)
{
    spin(100);
}

NOINLINE static void quit_thread(void)
{
    pthread_exit(NULL);
}

NOINLINE static void *worker(void *arg)
{
    int k = (int)(long)arg;
    for (int i = 0; i < 10 * k; i++)
        leaf();
    if (k == 3)
        quit_thread();
    return NULL;
}

NOINLINE static void before_fork(void)
{
    spin(100);
}

NOINLINE static void child_work(void)
{
    spin(100);
}

NOINLINE static void parent_work(void)
{
    spin(100);
}

NOINLINE static void dumper(const char *path)
{
#ifdef CGW_PRELOAD_ONLY /* prof-preload: not linked with libcgwprof */
    (void)path;
    exit(3);
#else
    if (cgwprof_dump(strcmp(path, "default") ? path : NULL) != 0) {
        perror(path);
        exit(3);
    }
#endif
}

static jmp_buf deep_env;
static volatile int deep_jumps; /* deep(0) longjmp()s instead of exit() */

NOINLINE static void deep(int n)
{
    if (n < 0)
        return;
    if (n == 0 && deep_jumps)
        longjmp(deep_env, 1);
    if (n == 0)
        exit(0);
    deep(n - 1);
}

static int waiting[2]; /* a pipe: waiter() says it is waiting */

NOINLINE static void waiter(void)
{
    if (write(waiting[1], "w", 1) != 1)
        return;
    for (;;)
        pause();
}

NOINLINE static void *wait_thread(void *arg)
{
    (void)arg;
    leaf();
    waiter();
    return NULL;
}

/* A thread in waiter(), a call in progress at the signal. */
static int start_waiter(void)
{
    pthread_t th;
    char c;
    return pipe(waiting) == 0 && pthread_create(&th, NULL, wait_thread, NULL) == 0 &&
           read(waiting[0], &c, 1) == 1;
}

NOINLINE static void die(const char *how)
{
    if (strcmp(how, "int") == 0)
        raise(SIGINT);
    else if (strcmp(how, "term") == 0)
        kill(getpid(), SIGTERM);
    else if (strcmp(how, "term-nochld") == 0 && signal(SIGCHLD, SIG_IGN) != SIG_ERR)
        kill(getpid(), SIGTERM);
    else if (strcmp(how, "term-thread") == 0 && start_waiter())
        kill(getpid(), SIGTERM);
    else if (strcmp(how, "abort") == 0)
        abort();
}

NOINLINE static void *short_worker(void *arg)
{
    (void)arg;
    leaf();
    return NULL;
}

static int run_many(long n)
{
    pthread_t th[8];
    for (long done = 0; done < n; done += 8) {
        int k = n - done < 8 ? (int)(n - done) : 8;
        for (int i = 0; i < k; i++)
            if (pthread_create(&th[i], NULL, short_worker, NULL) != 0)
                return 3;
        for (int i = 0; i < k; i++)
            pthread_join(th[i], NULL);
    }
    return 0;
}

NOINLINE static void call_plugin(void (*fn)(void))
{
    fn();
}

/* The plugin at dir/name, and its function entry: NULL when it fails. */
static void *open_plugin(const char *dir, const char *name, const char *entry,
                         void (**fn)(void))
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    *(void **)fn = h != NULL ? dlsym(h, entry) : NULL;
    if (*fn == NULL)
        fprintf(stderr, "prof-subject: %s: %s\n", path, dlerror());
    return *fn != NULL ? h : NULL;
}

static int run_dlclose(const char *dir)
{
    void (*fa)(void), (*fa2)(void), (*fb)(void);
    void *ha = open_plugin(dir, "libprofplug-a.so", "plug_a_entry", &fa);
    void *ha2 = open_plugin(dir, "libprofplug-a.so", "plug_a_entry", &fa2);
    if (ha == NULL || ha2 == NULL)
        return 3;
    for (int i = 0; i < 5; i++)
        call_plugin(fa);
    if (dlclose(ha2) != 0)
        return 3;
    for (int i = 0; i < 2; i++)
        call_plugin(fa);
    if (dlclose(ha) != 0)
        return 3;
    if (open_plugin(dir, "libprofplug-b.so", "plug_b_entry", &fb) == NULL)
        return 3;
    for (int i = 0; i < 7; i++)
        call_plugin(fb);
    printf("%s\n", fb == fa ? "same" : "moved");
    return 0;
}

static jmp_buf env;
static volatile int armed = 1; /* GCC takes jump() for endless otherwise */

NOINLINE static void jump(int n)
{
    if (n == 0 && armed)
        longjmp(env, 1);
    if (n > 0)
        jump(n - 1);
}

NOINLINE static void jumper(void)
{
    for (int i = 0; i < 1000; i++) {
        if (setjmp(env) == 0)
            jump(3);
        leaf();
    }
}

static jmp_buf up;

/* The jump goes up climb()'s own recursion: after it, climb(3) calls
 * leaf() from where each level did. */
NOINLINE static void climb(int n)
{
    volatile int jumped = 0;
    if (n == 3 && setjmp(up) != 0)
        jumped = 1;
    leaf();
    if (n == 0 && !jumped && armed)
        longjmp(up, 1);
    if (n > 0 && !jumped)
        climb(n - 1);
}

/* leaves right after the jump: no call shows the frames were left */
NOINLINE static void bounce(void)
{
    if (setjmp(env) == 0)
        jump(2);
}

/* Callees with frames larger and smaller than deep()'s */
NOINLINE static void big(void)
{
    volatile char buf[512];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)i;
    sink += (unsigned long)buf[sizeof buf - 1];
}

NOINLINE static void small(void)
{
    sink++;
}

/* After each jump, a call from here: the frames left must end at it. */
NOINLINE static void catcher(void)
{
    deep_jumps = 1;
    if (setjmp(deep_env) == 0)
        deep(20);
    big();
    if (setjmp(deep_env) == 0)
        deep(20);
    small();
    if (setjmp(deep_env) == 0)
        deep(0); /* a frame at the same depth as the next call's */
    big();
    if (setjmp(deep_env) == 0)
        deep(0);
    deep(-1);
    deep_jumps = 0;
}

#if !defined(CGW_PRELOAD_ONLY) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define REFUSE_REALLOC 1
/* While refuse is set, realloc() (the profiler's, when its stack of
 * calls grows) fails: the calls past the stack's room are skipped. */
static volatile int refuse;
extern void *__libc_realloc(void *p, size_t n);
__attribute__((no_instrument_function, visibility("default"))) void *realloc(void *p, size_t n)
{
    return refuse ? NULL : __libc_realloc(p, n);
}

NOINLINE static void down(int n)
{
    if (n > 0) {
        down(n - 1);
        return;
    }
    refuse = 0;
    pid_t pid = fork();
    if (pid > 0 && waitpid(pid, NULL, 0) == pid)
        printf("%ld\n", (long)pid);
}
#endif

static int run_fork_skip(void)
{
#ifdef REFUSE_REALLOC
    refuse = 1;
    down(100);
    return 0;
#else
    return 77;
#endif
}

static int run_fork(void)
{
    before_fork();
    before_fork();
    pid_t pid = fork();
    if (pid < 0)
        return 3;
    if (pid == 0) {
        for (int i = 0; i < 3; i++)
            child_work();
        return 0; /* through main and exit(): the child dumps */
    }
    for (int i = 0; i < 4; i++)
        parent_work();
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 3;
    printf("%ld\n", (long)pid);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "graph";
    if (strcmp(mode, "graph") == 0) {
        for (int i = 0; i < 3; i++)
            outer();
        unsigned long long t0 = now_ns();
        nap();
        printf("%llu\n", now_ns() - t0);
        cxx_named(10);
        rust_named();
        return fib(12) == 144 ? 0 : 3;
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t th[3];
        for (long k = 0; k < 3; k++)
            if (pthread_create(&th[k], NULL, worker, (void *)(k + 1)) != 0)
                return 3;
        for (int k = 0; k < 3; k++)
            pthread_join(th[k], NULL);
        return 0;
    }
    if (strcmp(mode, "fork") == 0)
        return run_fork();
    if (strcmp(mode, "fork-skip") == 0)
        return run_fork_skip();
    if (strcmp(mode, "dump") == 0 && argc > 2) {
        outer();
        dumper(argv[2]);
        outer();
        return 0;
    }
    if (strcmp(mode, "exit") == 0)
        deep(5);
    if (strcmp(mode, "dlclose") == 0 && argc > 2)
        return run_dlclose(argv[2]);
    if (strcmp(mode, "many") == 0 && argc > 2)
        return run_many(atol(argv[2]));
    if (strcmp(mode, "longjmp") == 0) {
        jumper();
        bounce();
        for (int i = 0; i < 100; i++)
            climb(3);
        outer();
        return 0;
    }
    if (strcmp(mode, "frames") == 0) {
        for (int i = 0; i < 3; i++)
            catcher();
        outer();
        return 0;
    }
    if (strcmp(mode, "signal") == 0 && argc > 2) {
        outer();
        outer();
        die(argv[2]);
    }
    return 2;
}
