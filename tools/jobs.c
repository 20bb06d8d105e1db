/* SPDX-License-Identifier: MIT */
/* jobs.c - the worker pool of jobs.h.  The parent starts a worker (fork)
 * a job, its stdout and stderr on two unlinked temporary files, while at
 * most j->workers run and at most twice that many jobs wait to be
 * printed (so that a slow job holds up the temporary files of a bounded
 * few); it copies each job's output out when all before it are out.  A
 * worker's output is then what one job prints, on disk, never in the
 * parent's memory.  Only the parent draws the progress line. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobs.h"
#include "toolutil.h"

enum { PENDING, RUNNING, FINISHED, HERE };

/* A status over this says a worker failed rather than its job. */
#define LAST_STATUS 124

typedef struct job {
    int state;
    pid_t pid;
    int out, err; /* the worker's stdout and stderr */
    int wstatus;  /* waitpid()'s, when FINISHED */
} job;

/* Start job i in a worker: 0, or -1 (nothing started, nothing said). */
static int spawn(const tool_jobs *j, job *jb, size_t i)
{
    jb->out = tool_temp_file("cgw-job");
    jb->err = jb->out < 0 ? -1 : tool_temp_file("cgw-job");
    if (jb->err < 0) {
        if (jb->out >= 0)
            close(jb->out);
        return -1;
    }
    fflush(NULL); /* nothing buffered to be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(jb->out);
        close(jb->err);
        return -1;
    }
    if (pid == 0) {
        tool_progress_quiet();
        if (dup2(jb->out, STDOUT_FILENO) < 0 || dup2(jb->err, STDERR_FILENO) < 0)
            _exit(LAST_STATUS + 1);
        int rc = j->run(j->ctx, i);
        if (fflush(stdout) != 0 || ferror(stdout) || rc < 0 || rc > LAST_STATUS)
            rc = LAST_STATUS + 1;
        _exit(rc);
    }
    jb->pid = pid;
    jb->state = RUNNING;
    return 0;
}

/* Wait for a worker to end: the job it ran, FINISHED. */
static void reap(job *jobs, size_t n)
{
    int ws;
    pid_t pid;
    do
        pid = waitpid(-1, &ws, 0);
    while (pid < 0 && errno == EINTR);
    if (pid < 0)
        abort(); /* a RUNNING job has a worker: it cannot be ECHILD */
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].state == RUNNING && jobs[i].pid == pid) {
            jobs[i].state = FINISHED;
            jobs[i].wstatus = ws;
            return;
        }
    }
}

/* Copy all of fd (from its start) to f, then close fd. */
static void copy_out(int fd, FILE *f)
{
    char buf[65536];
    ssize_t got;
    if (lseek(fd, 0, SEEK_SET) == 0)
        while ((got = read(fd, buf, sizeof buf)) != 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0 || fwrite(buf, 1, (size_t)got, f) != (size_t)got)
                break;
        }
    fflush(f);
    close(fd);
}

static int has_bytes(int fd)
{
    struct stat st;
    return fstat(fd, &st) != 0 || st.st_size > 0;
}

/* Print job i's output, or say that its worker died; its status, or -1. */
static int finish(const tool_jobs *j, job *jb, size_t i)
{
    int ws = jb->wstatus;
    int ok = WIFEXITED(ws) && WEXITSTATUS(ws) <= LAST_STATUS;
    if (!ok || has_bytes(jb->out) || has_bytes(jb->err))
        tool_progress_end(); /* its line off the terminal first */
    if (ok)
        copy_out(jb->out, stdout);
    else
        close(jb->out); /* a part of an output: left out */
    copy_out(jb->err, stderr);
    if (ok)
        return WEXITSTATUS(ws);
    if (WIFSIGNALED(ws))
        fprintf(stderr, "%s: %s: its worker died of signal %d (%s)\n", j->tool, j->names[i],
                WTERMSIG(ws), strsignal(WTERMSIG(ws)));
    else
        fprintf(stderr, "%s: %s: its worker failed (exit status %d)\n", j->tool, j->names[i],
                WEXITSTATUS(ws));
    return -1;
}

void tool_jobs_run(const tool_jobs *j)
{
    size_t n = j->n, next = 0, start = 0;
    unsigned running = 0, workers = j->workers ? j->workers : 1;
    job *jobs = calloc(n ? n : 1, sizeof *jobs);
    if (jobs == NULL) {
        fprintf(stderr, "%s: out of memory\n", j->tool);
        exit(2);
    }
    while (next < n) {
        while (running < workers && start < n && start - next < 2 * (size_t)workers) {
            if ((j->here != NULL && j->here(j->ctx, start)) || spawn(j, &jobs[start], start) < 0)
                jobs[start].state = HERE;
            else
                running++;
            start++;
        }
        job *jb = &jobs[next];
        tool_reading(j->names[next]); /* the file a SIGBUS to the parent names */
        if (jb->state == RUNNING) {
            reap(jobs, n);
            running--;
            continue;
        }
        int in_worker = jb->state == FINISHED;
        int status = in_worker ? finish(j, jb, next) : j->run(j->ctx, next);
        j->done(j->ctx, next, status, in_worker);
        next++;
    }
    free(jobs);
}

unsigned tool_jobs_default(size_t jobs)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t w = cpus > 0 ? (size_t)cpus : 1;
    if (w > jobs)
        w = jobs;
    return w > 0 ? (unsigned)w : 1;
}
