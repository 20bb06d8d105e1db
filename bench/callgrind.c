/* SPDX-License-Identifier: MIT */
/* callgrind.c - Callgrind's own files, made now, and the child set-up
 * of the benchmarks (callgrind.h). */
#define _DEFAULT_SOURCE /* putenv */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "callgrind.h"

static const char *const python = "/usr/bin/python3";

const char *cgb_callgrind_needs(int shape)
{
    return shape == CGB_CACHE_CC1 ? "valgrind in $VALGRIND, gcc's cc1 in $CC1 and its input in "
                                    "$CC1_INPUT"
                                  : "valgrind in $VALGRIND and /usr/bin/python3";
}

void cgb_exec_child(char *const argv[], char *assign, int err)
{
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, 1) < 0 || dup2(err >= 0 ? err : null, 2) < 0 ||
        (assign != NULL && putenv(assign) != 0))
        _exit(126);
    execvp(argv[0], argv);
    _exit(127);
}

/* argv run in a child, its output and errors to /dev/null: whether it
 * exited with 0. */
static int run_quiet(char *const argv[])
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        cgb_exec_child(argv, NULL, -1);
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

int cgb_make_callgrind(const char *path, int shape)
{
    const char *vg = getenv("VALGRIND"), *cc1 = getenv("CC1"), *input = getenv("CC1_INPUT"),
               *flags = getenv("CC1_FLAGS");
    if (vg == NULL || *vg == '\0')
        return 0;
    if (shape == CGB_CACHE_CC1 ? cc1 == NULL || input == NULL || access(cc1, X_OK) != 0
                               : access(python, X_OK) != 0)
        return 0;
    char out[300];
    snprintf(out, sizeof out, "--callgrind-out-file=%s", path);
    char *argv[40] = { (char *)vg, "--tool=callgrind", out };
    int n = 3;
    if (shape == CGB_CACHE_PY || shape == CGB_CACHE_CC1) {
        argv[n++] = "--cache-sim=yes", argv[n++] = "--branch-sim=yes";
        argv[n++] = "--dump-instr=yes";
    } else if (shape == CGB_INSTR_JUMPS) {
        argv[n++] = "--dump-instr=yes", argv[n++] = "--collect-jumps=yes";
    }
    if (shape == CGB_CACHE_CC1) {
        argv[n++] = (char *)cc1, argv[n++] = "-quiet";
        static char words[1024]; /* $CC1_FLAGS, split at blanks */
        snprintf(words, sizeof words, "%s", flags ? flags : "-O2");
        for (char *w = strtok(words, " "); w != NULL && n < 34; w = strtok(NULL, " "))
            argv[n++] = w;
        argv[n++] = (char *)input, argv[n++] = "-o", argv[n++] = "/dev/null";
    } else {
        argv[n++] = (char *)python, argv[n++] = "-c";
        argv[n++] = "import json, email.parser, http.client, decimal, argparse, unittest, "
                    "asyncio, xml.dom.minidom, csv, logging";
    }
    argv[n] = NULL;
    struct stat st;
    return run_quiet(argv) && stat(path, &st) == 0 && st.st_size > 0 ? 1 : -1;
}
