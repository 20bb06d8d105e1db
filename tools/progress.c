/* SPDX-License-Identifier: MIT */
/* progress.c - one line on stderr that says how far the tools are in
 * their inputs (files and bytes done, rate, time left), where stderr is
 * a terminal and the work lasts more than a moment; nothing otherwise.
 *
 * Off (stderr no terminal, or --quiet), the inputs are opened as before
 * (by path, mapped) and nothing is counted.  On, each input is read
 * through a read callback that counts its bytes (compressed bytes for
 * gzip, as its size counts them) and redraws the line at most four times
 * a second; the tools read one input at a time. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "toolutil.h"

static struct {
    const char *tool;
    int on, shown;
    unsigned done_files, nfiles;
    uint64_t done, total; /* bytes read; of all inputs (0: unknown) */
    double start, last, delay, every;
    int fd; /* the input being read through read_input(), or -1 */
} pg = { .fd = -1 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n bytes as "12.3 MiB" into buf. */
static const char *bytes(char *buf, size_t cap, double n)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    size_t u = 0;
    while (n >= 1024 && u + 1 < sizeof unit / sizeof unit[0]) {
        n /= 1024;
        u++;
    }
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", n, unit[u]);
    return buf;
}

static void draw(double t)
{
    char done[32], total[32], rate[32], files[48] = "", left[48] = "";
    double secs = t - pg.start;
    double per_sec = secs > 0 ? (double)pg.done / secs : 0;
    if (pg.nfiles > 1)
        snprintf(files, sizeof files, "%u of %u files, ", pg.done_files, pg.nfiles);
    if (pg.total > pg.done && per_sec > 0)
        snprintf(left, sizeof left, ", %.0f s left", (double)(pg.total - pg.done) / per_sec);
    fprintf(stderr, "\r%s: %s%s%s%s, %s/s%s\033[K", pg.tool, files, bytes(done, sizeof done, (double)pg.done),
            pg.total ? " of " : "", pg.total ? bytes(total, sizeof total, (double)pg.total) : "",
            bytes(rate, sizeof rate, per_sec), left);
    pg.shown = 1;
    pg.last = t;
}

/* Redraw when a quarter second has passed, after the first moment. */
static void tick(void)
{
    double t = now();
    if (t - pg.start >= pg.delay && t - pg.last >= pg.every)
        draw(t);
}

void tool_progress_begin(const char *tool, char *const *paths, size_t n, int quiet)
{
    pg.tool = tool;
    pg.on = !quiet && isatty(STDERR_FILENO);
    if (!pg.on)
        return;
    /* CGW_PROGRESS_DELAY: seconds before the line shows (1; the tests
     * say 0, and then it is drawn at every read) */
    const char *delay = getenv("CGW_PROGRESS_DELAY");
    pg.delay = delay && *delay ? strtod(delay, NULL) : 1.0;
    pg.every = pg.delay < 0.25 ? pg.delay : 0.25;
    pg.nfiles = (unsigned)n;
    struct stat st;
    for (size_t i = 0; paths != NULL && i < n; i++)
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISREG(st.st_mode))
            pg.total += (uint64_t)st.st_size;
    pg.start = pg.last = now();
}

/* The read callback of an input while the line is on. */
static long read_input(void *ctx, char *buf, size_t len)
{
    (void)ctx;
    ssize_t got = read(pg.fd, buf, len);
    if (got > 0) {
        pg.done += (uint64_t)got;
        tick();
    }
    return (long)got;
}

cgw_reader *tool_progress_open(const char *path, const cgw_read_options *ro)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (!pg.on)
        return is_stdin ? cgw_reader_open_fd(STDIN_FILENO, ro) : cgw_reader_open_path(path, ro);
    pg.fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (pg.fd < 0)
        return NULL;
    cgw_reader *r = cgw_reader_open_callback(read_input, NULL, ro);
    if (r == NULL) {
        int saved = errno;
        tool_progress_close(NULL);
        errno = saved;
    }
    return r;
}

void tool_progress_close(cgw_reader *r)
{
    cgw_reader_close(r);
    if (pg.fd > STDIN_FILENO)
        close(pg.fd);
    pg.fd = -1;
}

void tool_progress_file_done(uint64_t size)
{
    pg.done_files++;
    if (!pg.on)
        return;
    if (size > 0)
        pg.done += size;
    tick();
}

void tool_progress_end(void)
{
    if (pg.shown)
        fputs("\r\033[K", stderr);
    pg.shown = 0;
}

void tool_progress_quiet(void)
{
    pg.on = 0;
    pg.shown = 0;
}
