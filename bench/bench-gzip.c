/* SPDX-License-Identifier: MIT */
/* bench-gzip: gzip input and output against their floors, in one run.
 *
 *   bench-gzip [MB]     (default 32: the profile's text, in MB)
 *
 * Reading: the reader (CGW_READ_CHECK, every record) on a gzip profile,
 * against zlib alone inflating the same file into a 128 KiB buffer
 * (read(2) and inflate(), nothing else) plus the reader on the plain
 * file: the ratio gzip / (inflate + plain) is what reading gzip costs
 * beyond its two parts.  Writing: cgw_generate() through a CGW_GZIP path
 * writer (level 6), against the same profile written plain plus
 * `gzip -c` of its bytes, and against `gzip -c` alone.  Each time is the
 * best of 3 by CPU time: this process's (CLOCK_PROCESS_CPUTIME_ID) plus
 * its waited-for children's (getrusage(RUSAGE_CHILDREN), for gzip -c),
 * user + system; wall time is printed beside, and every ratio is of CPU
 * time.  Without gzip(1) the rows against it say "not run".  Files are
 * written in the current folder and removed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cgw.h>

#define BENCH_NAME "bench-gzip"
#include "bench.h"
#include "config.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

static unsigned mb_arg;

#ifdef HAVE_ZLIB
static double mb_of(const char *path)
{
    return (double)file_size(path) / 1e6;
}

/* The floor of gzip input: read(2) the file in 128 KiB blocks and
 * inflate it into a 128 KiB buffer, members one after another. */
static void inflate_only(const char *path)
{
    static unsigned char in[1 << 17], out[1 << 17];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int fd = open(path, O_RDONLY);
    if (fd < 0 || inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        die("inflate_only: open");
    int rc = Z_OK;
    for (;;) {
        if (zs.avail_in == 0) {
            ssize_t n = read(fd, in, sizeof in);
            if (n <= 0)
                break;
            zs.next_in = in;
            zs.avail_in = (uInt)n;
        }
        zs.next_out = out;
        zs.avail_out = sizeof out;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END && zs.avail_in > 0)
            rc = inflateReset(&zs);
        else if (rc != Z_OK && rc != Z_STREAM_END)
            die("inflate_only: corrupt");
    }
    inflateEnd(&zs);
    close(fd);
    if (rc != Z_STREAM_END)
        die("inflate_only: truncated");
}

static const char *path_arg;
static unsigned flags_arg;

static void run_read(void)
{
    if (read_all(path_arg) != 0)
        die("the reader failed");
}

static void run_inflate(void)
{
    inflate_only(path_arg);
}

static void run_make(void)
{
    make_profile(path_arg, mb_arg, flags_arg);
}

static void run_gzip_c(void)
{
    if (system("gzip -c bench-gzip.out > bench-gzip.gzip-c.gz") != 0)
        die("gzip -c failed");
}

/* CPU seconds of this process and of its children waited for. */
static double cpu_all(void)
{
    struct rusage ru;
    double c = cpu_now();
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        c += (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    return c;
}

/* A time: CPU and wall seconds. */
typedef struct tm2 {
    double cpu, wall;
} tm2;

static tm2 best_of_3(void (*fn)(void), const char *path, unsigned flags)
{
    tm2 best = { -1, -1 };
    path_arg = path;
    flags_arg = flags;
    for (int i = 0; i < 3; i++) {
        double c0 = cpu_all(), t0 = now();
        fn();
        double t = now() - t0, c = cpu_all() - c0;
        if (best.cpu < 0 || c < best.cpu)
            best.cpu = c, best.wall = t;
    }
    return best;
}

#endif /* HAVE_ZLIB */

int main(int argc, char **argv)
{
    mb_arg = argc > 1 ? (unsigned)atoi(argv[1]) : 32;
    if (mb_arg == 0)
        die("usage: bench-gzip [MB]");
#ifndef HAVE_ZLIB
    printf("bench-gzip: libcgw built without zlib: nothing to measure\n");
    return 0;
#else
    const char *plain = "bench-gzip.out", *gz = "bench-gzip.out.gz";
    int have_gzip = system("gzip --version >/dev/null 2>&1") == 0;
    tm2 w_plain = best_of_3(run_make, plain, 0);
    tm2 w_gz = best_of_3(run_make, gz, CGW_GZIP);
    tm2 w_gzip_c = { -1, -1 };
    if (have_gzip)
        w_gzip_c = best_of_3(run_gzip_c, NULL, 0);
    double mb = mb_of(plain);
    printf("bench-gzip: best of 3 by CPU time (this process's and its children's, user + "
           "system), wall time beside; every ratio of CPU time\n");
    printf("profile: %.1f MB of text; gzip: libcgw level 6 %.2f MB (%.3f)", mb, mb_of(gz),
           mb_of(gz) / mb);
    if (have_gzip)
        printf(", gzip -c %.2f MB (%.3f)", mb_of("bench-gzip.gzip-c.gz"),
               mb_of("bench-gzip.gzip-c.gz") / mb);
    printf("\n");
    tm2 r_plain = best_of_3(run_read, plain, 0);
    tm2 r_gz = best_of_3(run_read, gz, 0);
    tm2 r_inflate = best_of_3(run_inflate, gz, 0);
    printf("read:  cpu  gzip %.3f s; inflate alone %.3f s + plain read %.3f s = %.3f s; "
           "ratio gzip / (inflate + plain) %.2f\n",
           r_gz.cpu, r_inflate.cpu, r_plain.cpu, r_inflate.cpu + r_plain.cpu,
           r_gz.cpu / (r_inflate.cpu + r_plain.cpu));
    printf("       wall gzip %.3f s; inflate alone %.3f s + plain read %.3f s = %.3f s\n",
           r_gz.wall, r_inflate.wall, r_plain.wall, r_inflate.wall + r_plain.wall);
    if (have_gzip) {
        printf("write: cpu  gzip %.3f s; plain write %.3f s + gzip -c %.3f s = %.3f s; "
               "ratio gzip / (plain + gzip -c) %.2f, gzip / gzip -c %.2f\n",
               w_gz.cpu, w_plain.cpu, w_gzip_c.cpu, w_plain.cpu + w_gzip_c.cpu,
               w_gz.cpu / (w_plain.cpu + w_gzip_c.cpu), w_gz.cpu / w_gzip_c.cpu);
        printf("       wall gzip %.3f s; plain write %.3f s + gzip -c %.3f s = %.3f s\n",
               w_gz.wall, w_plain.wall, w_gzip_c.wall, w_plain.wall + w_gzip_c.wall);
    } else {
        printf("write: cpu  gzip %.3f s, plain write %.3f s; wall gzip %.3f s, plain write "
               "%.3f s\n", w_gz.cpu, w_plain.cpu, w_gz.wall, w_plain.wall);
        printf("gzip -c: not run: no gzip(1) in PATH\n");
    }
    unlink(plain);
    unlink(gz);
    unlink("bench-gzip.gzip-c.gz");
    return 0;
#endif
}
