/* SPDX-License-Identifier: MIT */
/* test-alloc-fail: make the Nth allocation fail, for every N, on every
 * sink: the writer reports CGW_ENOMEM (or open returns NULL with errno
 * ENOMEM), frees everything, and commits nothing. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

enum { MEMORY, CALLBACK, PATH, NSINKS };

/* Returns 1 when the run completed without reaching allocation N. */
static int attempt(const cgwt_scenario *s, int sink, long n)
{
    cgwt_alloc a;
    cgwt_alloc_init(&a, n);
    cgw_options o = cgwt_options(s, 64, &a.a);
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    char path[512], *mem = (char *)1;
    size_t mlen = 1;
    snprintf(path, sizeof path, "%s/target", cgwt_tmpdir());
    cgw_writer *w = sink == MEMORY ? cgw_open_memory(&mem, &mlen, &o)
                    : sink == CALLBACK ? cgw_open_callback(cgwt_capture_write, &c, &o)
                                       : cgw_open_path(path, &o);
    cgw_status st;
    if (w == NULL) {
        CHECK(errno == ENOMEM);
        st = CGW_ENOMEM;
    } else {
        cgwt_model m;
        cgwt_model_init(&m, s->nev);
        s->run(w, &m);
        cgwt_model_free(&m);
        st = cgw_finish(w);
        if (st != CGW_OK) {
            CHECK_ST(st, CGW_ENOMEM);
            CHECK(strstr(cgw_errmsg(w), "out of memory") != NULL);
            CHECK_ST(cgw_cost(w, NULL, NULL, 0), CGW_ENOMEM); /* sticky */
        }
        cgw_free(w);
    }
    if (st == CGW_OK && sink == MEMORY) {
        CHECK(mem != NULL && mem[mlen] == '\0');
        a.a.free(a.a.ctx, mem); /* the buffer comes from the writer's allocator */
    }
    if (a.live != 0)
        cgwt_fail(__FILE__, __LINE__, "%s sink %d, failing allocation %ld: %ld blocks leaked",
                  s->name, sink, n, a.live);
    size_t flen;
    char *file = cgwt_read_file(path, &flen);
    if (st == CGW_OK) {
        free(file);
        unlink(path);
        cgwt_capture_free(&c);
        return 1;
    }
    if (sink == MEMORY)
        CHECK(mem == NULL && mlen == 0);
    if (sink == PATH) {
        CHECK(file != NULL);
        CHECK_STR(file, "previous profile\n"); /* the target is untouched */
    }
    free(file);
    cgwt_capture_free(&c);
    return 0;
}

int main(void)
{
    long runs = 0;
    char path[512];
    snprintf(path, sizeof path, "%s/target", cgwt_tmpdir());
    for (size_t i = 0; i < cgwt_nscenarios; i++) {
        for (int sink = 0; sink < NSINKS; sink++) {
            long n = 1;
            for (;; n++) {
                FILE *f = fopen(path, "w");
                CHECK(f != NULL && fputs("previous profile\n", f) >= 0 && fclose(f) == 0);
                if (attempt(&cgwt_scenarios[i], sink, n))
                    break;
            }
            CHECK(n > 2); /* the scenario allocates, so failures were exercised */
            runs += n;
        }
    }
    unlink(path);
    CHECK(rmdir(cgwt_tmpdir()) == 0); /* no temporary file left behind */
    printf("%ld runs, every allocation failed once, no leak\n", runs);
    return 0;
}
