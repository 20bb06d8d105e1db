/* SPDX-License-Identifier: MIT */
/* test-threads: many writers and readers in many threads at once.  The
 * library has no global mutable state, so every thread's profile is
 * byte for byte the one a single thread writes, and reads back with the
 * same totals.  ./quickstart tsan runs this under ThreadSanitizer. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NTHREADS 8
#define ROUNDS 20

typedef struct job {
    const char *want;
    size_t want_len;
    unsigned seed;
    int failures;
} job;

static char *generate(unsigned seed, size_t *len)
{
    char *out = NULL;
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_LINE };
    cgw_writer *w = cgw_open_memory(&out, len, &o);
    cgw_gen_options g = CGW_GEN_OPTIONS_INIT;
    g.seed = seed;
    g.functions = 40;
    g.events = 3;
    g.parts = 2;
    if (w == NULL || cgw_generate(w, &g) != CGW_OK || cgw_close(w) != CGW_OK) {
        free(out);
        return NULL;
    }
    return out;
}

static void *work(void *arg)
{
    job *j = arg;
    for (int round = 0; round < ROUNDS; round++) {
        size_t len;
        char *out = generate(j->seed, &len);
        if (out == NULL || len != j->want_len || memcmp(out, j->want, len) != 0)
            j->failures++;
        uint64_t diffs = 1;
        if (out == NULL || cgw_roundtrip(NULL, out, len, NULL, &diffs) != CGW_OK || diffs != 0)
            j->failures++;
        free(out);
    }
    return NULL;
}

int main(void)
{
    static char *want[NTHREADS];
    static size_t len[NTHREADS];
    job jobs[NTHREADS];
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        want[i] = generate(100 + (unsigned)i % 3, &len[i]);
        CHECK(want[i] != NULL);
        jobs[i] = (job){ want[i], len[i], 100 + (unsigned)i % 3, 0 };
    }
    for (int i = 0; i < NTHREADS; i++)
        CHECK(pthread_create(&th[i], NULL, work, &jobs[i]) == 0);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK(pthread_join(th[i], NULL) == 0);
        CHECK_U64((uint64_t)jobs[i].failures, 0);
        free(want[i]);
    }
    printf("%d threads x %d rounds: every profile identical to the single-threaded one, "
           "each round trip clean\n", NTHREADS, ROUNDS);
    return 0;
}
