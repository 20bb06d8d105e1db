/* SPDX-License-Identifier: MIT */
/* test-sinks: every sink, and every buffer size from 1 byte up, gives the
 * same bytes for the same calls. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static void run(const cgwt_scenario *s, cgw_writer *w)
{
    cgwt_model m;
    CHECK(w != NULL);
    cgwt_model_init(&m, s->nev);
    s->run(w, &m);
    cgwt_model_free(&m);
    if (cgw_finish(w) != CGW_OK)
        cgwt_fail(__FILE__, __LINE__, "%s: %s", s->name, cgw_errmsg(w));
    cgw_free(w);
}

static void same(const cgwt_scenario *s, const char *sink, size_t bufsize, const char *got,
                 size_t glen, const char *want, size_t wlen)
{
    if (glen != wlen || memcmp(got, want, wlen) != 0)
        cgwt_fail(__FILE__, __LINE__, "%s: %s sink with a %zu-byte buffer differs "
                  "(%zu bytes, want %zu)", s->name, sink, bufsize, glen, wlen);
}

static void check_scenario(const cgwt_scenario *s)
{
    size_t wlen;
    char *want = cgwt_run_memory(s, 0, NULL, &wlen);
    static const size_t sizes[] = { 1, 2, 3, 5, 7, 8, 13, 16, 31, 64, 100, 127, 128, 255,
                                    256, 1000, 4096, 65536, 1 << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cgw_options o = cgwt_options(s, sizes[i], NULL);
        cgwt_capture c;
        cgwt_capture_init(&c, 0, 0);
        run(s, cgw_open_callback(cgwt_capture_write, &c, &o));
        same(s, "callback", sizes[i], c.data, c.len, want, wlen);
        cgwt_capture_free(&c);

        char *mem;
        size_t mlen;
        run(s, cgw_open_memory(&mem, &mlen, &o));
        same(s, "memory", sizes[i], mem, mlen, want, wlen);
        CHECK(mem[mlen] == '\0');
        free(mem);

        char path[512];
        snprintf(path, sizeof path, "%s/fd.out", cgwt_tmpdir());
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        CHECK(fd >= 0);
        run(s, cgw_open_fd(fd, &o));
        CHECK(close(fd) == 0);
        size_t flen;
        char *file = cgwt_read_file(path, &flen);
        same(s, "fd", sizes[i], file, flen, want, wlen);
        free(file);

        snprintf(path, sizeof path, "%s/path.out", cgwt_tmpdir());
        run(s, cgw_open_path(path, &o));
        file = cgwt_read_file(path, &flen);
        same(s, "path", sizes[i], file, flen, want, wlen);
        free(file);
        unlink(path);
        snprintf(path, sizeof path, "%s/fd.out", cgwt_tmpdir());
        unlink(path);
    }
    if (s->parts)
        cgwt_annotate_parts(want, wlen);
    else
        cgwt_annotate(want, wlen, NULL);
    free(want);
}

int main(void)
{
    for (size_t i = 0; i < cgwt_nscenarios; i++)
        check_scenario(&cgwt_scenarios[i]);
    rmdir(cgwt_tmpdir());
    printf("%zu scenarios identical across 4 sinks and 19 buffer sizes\n", cgwt_nscenarios);
    return 0;
}
