/* SPDX-License-Identifier: MIT */
/* test-prof-ends: libcgwprof on prof-subject when calls and programs
 * end abnormally: longjmp() out of nested calls, and death by SIGINT,
 * SIGTERM and abort(), which still leaves a profile (atomically). */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proftest.h"

/* Calls that longjmp() left are counted as returning, and the calls
 * after the jump go to the function that called setjmp(). */
static void test_longjmp(void)
{
    profile prof;
    cgwt_profile_mode("longjmp", NULL, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "main", "jumper", 1 },
                        { "jumper", "leaf", 1000 },
                        { "jumper", "jump", 1000 },
                        { "jump", "jump", 3000 + 2 }, /* and bounce()'s jump(2) */
                        { "leaf", "spin", 1000 + 500 },
                        { "jump", "leaf", 0 },
                        { "main", "bounce", 1 },
                        { "bounce", "jump", 1 },
                        { "main", "climb", 100 },
                        { "climb", "climb", 300 },
                        { "climb", "leaf", 500 }, /* 4 going down, 1 after the jump */
                        { "main", "outer", 1 }, /* not under bounce, jump or climb */
                        { "outer", "inner", 2 });
    cgwt_check_times(p);
    printf("longjmp: calls after the jump charged to the function that called setjmp()\n");
}

/* The frames mode of prof-subject built at -O<level>: after each
 * longjmp() back to catcher(), the call it makes is catcher()'s, whether
 * the callee's frame is larger than the left deep()'s (big()), smaller
 * (small()) or the same (deep(-1)), and whether the jump left 21 frames
 * or one at the depth of the next call. */
static void frames_at(char level)
{
    char subject[512], path[512];
    const char *base = getenv("CGW_PROF_SUBJECT_LEVELS");
    CHECK(base != NULL);
    snprintf(subject, sizeof subject, "%s%c", base, level);
    snprintf(path, sizeof path, "%s/frames-O%c.out", cgwt_tmpdir(), level);
    cgwt_subject_path = subject;
    cgwt_run_subject(path, NULL, "frames", NULL);
    cgwt_subject_path = NULL;
    profile prof;
    cgwt_load_profile(path, &prof);
    part *p = &prof.parts[0];
    uint64_t deep_big = cgwt_calls(p, "deep", "big"), deep_small = cgwt_calls(p, "deep", "small");
    if (deep_big != 0 || deep_small != 0)
        cgwt_fail(__FILE__, __LINE__, "-O%c: deep -> big %llu times, deep -> small %llu", level,
                  (unsigned long long)deep_big, (unsigned long long)deep_small);
    CGWT_CHECK_CALLS(p, { "main", "catcher", 3 },
                        { "catcher", "big", 6 },
                        { "catcher", "small", 3 },
                        { "catcher", "deep", 15 },
                        { "deep", "deep", 2 * 3 * 20 },
                        { "deep", "outer", 0 },
                        { "main", "outer", 1 }, /* not under catcher or deep */
                        { "outer", "inner", 2 });
    cgwt_check_times(p);
}

static void test_frames(void)
{
    frames_at('0');
    frames_at('1');
    frames_at('2');
    printf("frames: calls after the jump charged to catcher() at -O0, -O1 and -O2, with "
           "callees of frames larger, smaller and the same\n");
}

/* The files in dir whose names start with prefix. */
static int files_named(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* A program killed by sig (how: the subject's name for it) leaves its
 * profile, with the calls in progress counted, and dies of sig still;
 * the temporary file is gone. */
static void signal_with(const char *how, int sig, profile *prof)
{
    char path[512], name[64], pid_line[64];
    snprintf(name, sizeof name, "signal-%s.out", how);
    snprintf(path, sizeof path, "%s/%s", cgwt_tmpdir(), name);
    int status;
    pid_t pid = cgwt_spawn(path, NULL, "signal", how, &status);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
        cgwt_fail(__FILE__, __LINE__, "prof-subject signal %s: status %d, not killed by %d",
                  how, status, sig);
    CHECK_U64(files_named(cgwt_tmpdir(), name), 1);
    cgwt_load_profile(path, prof);
    part *p = &prof->parts[0];
    CGWT_CHECK_CALLS(p, { "main", "outer", 2 },
                        { "outer", "inner", 4 },
                        { "main", "die", 1 }); /* in progress: counted */
    cgwt_check_times(p);
    size_t len;
    char *text = cgwt_read_file(path, &len);
    snprintf(pid_line, sizeof pid_line, "\npid: %ld\n", (long)pid);
    CHECK(text != NULL && strstr(text, pid_line) != NULL); /* the program's, not the copy's */
    free(text);
}

/* SIGINT, SIGTERM and abort(), also in a program that ignores SIGCHLD
 * (the copy of the process is reaped unseen: waitpid() tells the
 * handler only that it has ended); and a profile that cannot be written
 * does not keep the program from dying of its signal. */
static void test_signals(void)
{
    profile prof;
    signal_with("int", SIGINT, &prof);
    signal_with("term", SIGTERM, &prof);
    signal_with("abort", SIGABRT, &prof);
    signal_with("term-nochld", SIGTERM, &prof);
    /* another thread's call in progress counts too: the copy froze it */
    signal_with("term-thread", SIGTERM, &prof);
    CHECK_U64(prof.nparts, 2);
    CGWT_CHECK_CALLS(&prof.parts[1], { "wait_thread", "leaf", 1 },
                                     { "wait_thread", "waiter", 1 });
    cgwt_check_times(&prof.parts[1]);
    int status;
    cgwt_spawn("/nonexistent/signal.out", NULL, "signal", "term", &status);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    printf("signals: a profile on SIGINT, SIGTERM and abort(), with every thread's calls in "
           "progress, then death by the signal\n");
}

int main(void)
{
    test_longjmp();
    test_frames();
    test_signals();
    return 0;
}
