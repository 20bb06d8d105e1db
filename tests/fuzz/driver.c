/* SPDX-License-Identifier: MIT */
/* driver.c - runs a fuzz target without libFuzzer: over every file named
 * on the command line (folders: every file in them), then over N
 * mutations of each (flipped, inserted, deleted and duplicated bytes,
 * digits and newlines), reproducible from the seed.
 *
 *   fuzz-TARGET [-n MUTATIONS] [-s SEED] FILE|DIR...
 *
 * With no FILE, the folders in $CGW_FUZZ_SEEDS (colon-separated).  An
 * input that crashes the target is saved as crash-input in the current
 * folder, to become a seed and a regression test. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long nmut = 200, ninputs;
static unsigned long long rng = 88172645463325252ull;
static const unsigned char *current;
static size_t current_len;

static void save_input(int sig)
{
    int fd = open("crash-input", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, current, current_len) == (ssize_t)current_len)
            write(2, "driver: the input is in crash-input\n", 36);
        close(fd);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void run(const unsigned char *b, size_t n)
{
    /* an exact-size copy, so that ASan sees any read past the end */
    unsigned char *exact = malloc(n ? n : 1);
    if (exact == NULL)
        exit(2);
    memcpy(exact, b, n);
    current = exact;
    current_len = n;
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    ninputs++;
}


static unsigned next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 16);
}

static void mutate(unsigned char *b, size_t *len, size_t cap)
{
    static const char bytes[] = "0123456789 \n=()+-*x:#\t\r\0\xff";
    for (unsigned k = 1 + next() % 4; k > 0; k--) {
        size_t n = *len, at = n ? next() % n : 0;
        switch (next() % 5) {
        case 0: /* change a byte */
            if (n)
                b[at] = next() % 2 ? (unsigned char)bytes[next() % (sizeof bytes - 1)]
                                   : (unsigned char)next();
            break;
        case 1: /* insert one */
            if (n < cap) {
                memmove(b + at + 1, b + at, n - at);
                b[at] = (unsigned char)bytes[next() % (sizeof bytes - 1)];
                (*len)++;
            }
            break;
        case 2: /* delete a run */
            if (n) {
                size_t run = 1 + next() % 8;
                run = run > n - at ? n - at : run;
                memmove(b + at, b + at + run, n - at - run);
                *len -= run;
            }
            break;
        case 3: /* duplicate a run */
            if (n) {
                size_t run = 1 + next() % 64;
                run = run > n - at ? n - at : run;
                if (n + run <= cap) {
                    memmove(b + at + run, b + at, n - at);
                    (*len) += run;
                }
            }
            break;
        default: /* truncate */
            *len = at;
            break;
        }
    }
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 20, len;
    unsigned char *seed = malloc(cap), *b = malloc(2 * cap);
    if (seed == NULL || b == NULL)
        exit(2);
    len = fread(seed, 1, cap, f);
    fclose(f);
    run(seed, len);
    for (unsigned long m = 0; m < nmut; m++) {
        size_t n = len;
        memcpy(b, seed, len);
        mutate(b, &n, 2 * cap);
        run(b, n);
    }
    free(seed);
    free(b);
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        run_path(sub);
    }
    if (d != NULL)
        closedir(d);
}

int main(int argc, char **argv)
{
    int i = 1, paths = 0;
    signal(SIGABRT, save_input);
    signal(SIGSEGV, save_input);
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-n") == 0)
            nmut = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0)
            rng = strtoull(argv[i + 1], NULL, 10) | 1;
    }
    for (; i < argc; i++, paths++)
        run_path(argv[i]);
    const char *env = getenv("CGW_FUZZ_SEEDS");
    if (paths == 0 && env != NULL) {
        char *list = strdup(env);
        for (char *dir = strtok(list, ":"); dir != NULL; dir = strtok(NULL, ":")) {
            struct stat st;
            if (stat(dir, &st) == 0) {
                run_path(dir);
                paths++;
            }
        }
        free(list);
    }
    if (paths == 0) {
        fprintf(stderr, "usage: %s [-n MUTATIONS] [-s SEED] FILE|DIR... (or $CGW_FUZZ_SEEDS)\n",
                argv[0]);
        return 2;
    }
    printf("%lu inputs, no property broken\n", ninputs);
    return 0;
}
