/* SPDX-License-Identifier: MIT */
/* test-sink-fail: make the Nth sink write fail, for every N and several
 * errno values: the status is CGW_EIO, sticky, the message names the call
 * and the error, and no byte reaches the sink after the failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int attempt(const cgwt_scenario *s, long n, int e)
{
    cgwt_capture c;
    cgwt_capture_init(&c, n, e);
    cgw_options o = cgwt_options(s, 16, NULL);
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &c, &o);
    CHECK(w != NULL);
    cgwt_model m;
    cgwt_model_init(&m, s->nev);
    s->run(w, &m);
    cgwt_model_free(&m);
    cgw_status st = cgw_finish(w);
    int done = c.calls < n;
    if (done) {
        CHECK_ST(st, CGW_OK);
    } else {
        CHECK_ST(st, CGW_EIO);
        CHECK(c.calls == n); /* nothing after the failed write */
        CHECK(strstr(cgw_errmsg(w), "cgw_") == cgw_errmsg(w));
        CHECK(strstr(cgw_errmsg(w), strerror(e)) != NULL);
        CHECK_ST(cgw_finish(w), CGW_EIO);
        CHECK(c.calls == n);
    }
    cgw_free(w);
    cgwt_capture_free(&c);
    return done;
}

int main(void)
{
    static const int errs[] = { EIO, ENOSPC, EPIPE };
    long runs = 0;
    for (size_t i = 0; i < cgwt_nscenarios; i++)
        for (size_t k = 0; k < sizeof errs / sizeof errs[0]; k++) {
            long n = 1;
            while (!attempt(&cgwt_scenarios[i], n, errs[k]))
                n++;
            CHECK(n > 3);
            runs += n;
        }
    printf("%ld runs, every sink write failed once with EIO, ENOSPC and EPIPE\n", runs);
    return 0;
}
