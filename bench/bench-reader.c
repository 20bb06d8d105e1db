/* bench-reader: the reader against callgrind_annotate on the same file, in
 * the same run, and the reader's peak memory on a large file.
 *
 *   bench-reader [MID_MB [BIG_MB]]     (defaults 16 and 200)
 *
 * Both files are written by cgw_generate() (as cggen --positions
 * instr,line --events 4) into the current folder and removed at the end.  The reader runs in a child process, so the peak RSS
 * is the reader's own. */
#define _DEFAULT_SOURCE /* wait4 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cgw.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A cggen profile of about mb megabytes at path: instr and line
 * positions, 4 events, the generator's default program shape. */
static void make_profile(const char *path, unsigned mb)
{
    cgw_options o = { CGW_POS_INSTR | CGW_POS_LINE, 0, 0, NULL };
    cgw_writer *w = cgw_open_path(path, &o);
    cgw_gen_options g;
    cgw_gen_defaults(&g);
    g.seed = 1;
    g.events = 4;
    g.size = (uint64_t)mb << 20;
    if (w == NULL || cgw_generate(w, &g) != CGW_OK || cgw_close(w) != CGW_OK) {
        fprintf(stderr, "bench-reader: writing %s failed\n", path);
        exit(2);
    }
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Read path with the reader in a child; seconds, and its peak RSS in KiB. */
static double read_in_child(const char *path, long *maxrss_kb)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        cgw_read_options o = { CGW_READ_CHECK, NULL, NULL, NULL };
        cgw_reader *r = cgw_reader_open_path(path, &o);
        const cgw_record *rec;
        uint64_t n = 0;
        while (r != NULL && cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
            n++;
        uint64_t errors;
        cgw_reader_counts(r, &errors, NULL);
        cgw_reader_close(r);
        _exit(r == NULL || n == 0 || errors != 0);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench-reader: reading %s failed\n", path);
        exit(2);
    }
    *maxrss_kb = ru.ru_maxrss;
    return now() - t0;
}

int main(int argc, char **argv)
{
    unsigned mid = argc > 1 ? (unsigned)atoi(argv[1]) : 16;
    unsigned big = argc > 2 ? (unsigned)atoi(argv[2]) : 200;
    const char *mid_path = "bench-reader-mid.out", *big_path = "bench-reader-big.out";
    make_profile(mid_path, mid);
    double mb = (double)file_size(mid_path) / 1e6;

    long rss;
    double best = 1e9;
    for (int i = 0; i < 5; i++) {
        double t = read_in_child(mid_path, &rss);
        if (t < best)
            best = t;
    }
    printf("file: %.1f MB, cggen --positions instr,line --events 4\n", mb);
    printf("libcgw reader (CGW_READ_CHECK): %8.3f s  %8.1f MB/s  peak RSS %ld MiB\n", best,
           mb / best, rss / 1024);

    const char *ca = getenv("CALLGRIND_ANNOTATE");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' --auto=no --threshold=100 %s >/dev/null 2>&1",
             ca && *ca ? ca : "callgrind_annotate", mid_path);
    double t0 = now();
    int rc = system(cmd);
    double ca_time = now() - t0;
    if (rc == 0) {
        printf("callgrind_annotate:             %8.3f s  %8.1f MB/s\n", ca_time, mb / ca_time);
        printf("ratio: the reader is %.0f times faster\n", ca_time / best);
    } else {
        printf("callgrind_annotate: not run (%s failed)\n", cmd);
    }
    remove(mid_path);

    make_profile(big_path, big);
    double bmb = (double)file_size(big_path) / 1e6;
    double t = read_in_child(big_path, &rss);
    printf("big file: %.1f MB read in %.3f s (%.1f MB/s), peak RSS %ld MiB\n", bmb, t, bmb / t,
           rss / 1024);
    remove(big_path);
    return 0;
}
