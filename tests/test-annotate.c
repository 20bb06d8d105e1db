/* SPDX-License-Identifier: MIT */
/* test-annotate: every scenario read by callgrind_annotate: its PROGRAM
 * TOTALS and each function's self cost equal what the test wrote. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

int main(void)
{
    size_t checked = 0;
    for (size_t i = 0; i < cgwt_nscenarios; i++) {
        const cgwt_scenario *s = &cgwt_scenarios[i];
        cgwt_model m;
        size_t len;
        char *text = cgwt_run_memory(s, 0, &m, &len);
        if (s->parts) {
            cgwt_annotate_parts(text, len);
        } else {
            cgwt_annotate(text, len, &m);
            checked += m.nfn;
        }
        cgwt_model_free(&m);
        free(text);
    }
    printf("%zu scenarios, %zu functions agree with callgrind_annotate\n", cgwt_nscenarios,
           checked);
    return 0;
}
