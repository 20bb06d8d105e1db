/* SPDX-License-Identifier: MIT */
/* output.c - the one way every tool writes its output: the library's
 * path sink (atomic replace, symlinks followed, devices and FIFOs written
 * through), standard output for "-" or no -o, gzip for a .gz name, and
 * the named temporary file removed when SIGINT, SIGTERM or SIGHUP ends
 * the tool midway (where the file system has O_TMPFILE there is none). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cgw.h>

#include "toolutil.h"

static const int ending[] = { SIGINT, SIGTERM, SIGHUP };
static char temp_copy[4096];            /* the output's temporary file */
static volatile sig_atomic_t have_temp; /* temp_copy is set */

static void remove_temp_and_die(int sig)
{
    if (have_temp)
        unlink(temp_copy);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Remember w's temporary file, if it has a name, for the handler; the
 * handler is installed for each signal not ignored (nohup keeps its
 * SIGHUP ignored). */
static void watch_temp(cgw_writer *w)
{
    const char *temp = cgw_temp_path(w);
    if (temp == NULL || strlen(temp) >= sizeof temp_copy)
        return;
    memcpy(temp_copy, temp, strlen(temp) + 1);
    have_temp = 1;
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        struct sigaction old, sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temp_and_die;
        sigemptyset(&sa.sa_mask);
        if (sigaction(ending[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(ending[i], &sa, NULL);
    }
}

const char *tool_output_arg(const char *arg)
{
    return arg != NULL && strcmp(arg, "-") == 0 ? NULL : arg;
}

/* The writer flags an output path asks for: CGW_GZIP when it ends in
 * ".gz" (cgrecode -o x.gz, cggen -o x.gz), else 0. */
static unsigned output_flags(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 3 && !strcmp(path + n - 3, ".gz") ? CGW_GZIP : 0;
}

/* Why opening the output path failed, errno e: strerror(e), or what an
 * ENOTSUP from a libcgw without zlib means for a .gz output. */
static const char *open_error(const char *path, int e)
{
    if (e == ENOTSUP && output_flags(path))
        return "gzip output (a .gz name) needs a libcgw built with zlib";
    return strerror(e);
}

cgw_writer *tool_open_output(const char *tool, const char *out, cgw_options *wo)
{
    out = tool_output_arg(out);
    if (!(wo->flags & CGW_RAW))
        wo->flags |= output_flags(out);
    /* the ending signals wait while the temporary file is made and its
     * handler installed: one that came between them would leave it */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++)
        sigaddset(&block, ending[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    cgw_writer *w = out ? cgw_open_path(out, wo) : cgw_open_fd(STDOUT_FILENO, wo);
    int e = errno;
    if (w != NULL)
        watch_temp(w);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (w == NULL)
        fprintf(stderr, "%s: %s: %s\n", tool, out ? out : "stdout", open_error(out, e));
    return w;
}

int tool_close_output(const char *tool, const char *out, cgw_writer *w, cgw_status st)
{
    out = tool_output_arg(out);
    if (st == CGW_OK)
        st = cgw_finish(w);
    have_temp = 0; /* renamed or removed by now */
    if (st != CGW_OK)
        fprintf(stderr, "%s: %s: %s\n", tool, out ? out : "stdout", tool_words(cgw_errmsg(w)));
    cgw_free(w);
    return st == CGW_OK ? 0 : st == CGW_EIO || st == CGW_ENOMEM ? 2 : 1;
}

