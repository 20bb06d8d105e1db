/* SPDX-License-Identifier: MIT */
/* test-golden: the format specification's four examples (and the richer
 * scenarios) come out byte for byte as the files in tests/data.  Run with
 * CGW_GOLDEN_UPDATE=1 to rewrite them after a deliberate change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void golden(const char *name)
{
    const cgwt_scenario *s = cgwt_scenario_named(name);
    CHECK(s != NULL);
    size_t len;
    cgwt_model m;
    char *text = cgwt_run_memory(s, 0, &m, &len);
    char file[128];
    snprintf(file, sizeof file, "%s.out", name);
    const char *path = cgwt_data_path(file);
    if (getenv("CGW_GOLDEN_UPDATE")) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL && fwrite(text, 1, len, f) == len && fclose(f) == 0);
    }
    char *want = cgwt_read_file(path, NULL);
    if (want == NULL)
        cgwt_fail(__FILE__, __LINE__, "missing golden file %s", path);
    CHECK_STR(text, want);
    if (s->parts)
        cgwt_annotate_parts(text, len);
    else
        cgwt_annotate(text, len, &m);
    cgwt_model_free(&m);
    free(want);
    free(text);
}

/* One buffer rewritten between calls gives each name its own entry (the
 * writer remembers given pointers, and must notice the new text). */
static void reused_buffer(void)
{
    char *text, name[16];
    size_t len;
    cgw_writer *w = cgw_open_memory(&text, &len, NULL);
    const cgw_target callee = { NULL, NULL, name };
    cgw_add_event(w, "Ir", NULL);
    const char *names[] = { "f", "g", "f", "gg" };
    for (size_t i = 0; i < 4; i++) {
        strcpy(name, names[i]);
        CHECK_ST(cgw_function(w, name), CGW_OK);
        CHECK_ST(cgw_cost(w, (const uint64_t[]){ 1 }, (const uint64_t[]){ 1 }, 1), CGW_OK);
        strcpy(name, names[3 - i]);
        CHECK_ST(cgw_call(w, &callee, 1, NULL, (const uint64_t[]){ 1 }, NULL, 0), CGW_OK);
    }
    CHECK_ST(cgw_close(w), CGW_OK);
    const char *body = strstr(text, "fl=(1) ???\n");
    CHECK(body != NULL);
    /* callees in the caller's file: no cfi= */
    CHECK_STR(body, "fl=(1) ???\nfn=(1) f\n1 1\ncfn=(2) gg\ncalls=1 0\n* 0\n\n"
                    "fl=(1)\nfn=(3) g\n1 1\ncfn=(1)\ncalls=1 0\n* 0\n\n"
                    "fl=(1)\nfn=(1)\n1 1\ncfn=(3)\ncalls=1 0\n* 0\n\n"
                    "fl=(1)\nfn=(2)\n1 1\ncfn=(1)\ncalls=1 0\n* 0\n\n"
                    "totals: 4\n");
    cgwt_readback(text, len, NULL);
    cgwt_annotate(text, len, NULL);
    free(text);
}

int main(void)
{
    reused_buffer();
    static const char *names[] = {
        "spec-simple", "spec-extended", "spec-compression", "spec-subposition",
        "spec-subposition-absolute", "rich", "rich-compact", "rich-nocompress", "parts",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        golden(names[i]);

    /* Independent of the golden files: the spec's own compressed lines. */
    size_t len;
    char *text = cgwt_run_memory(cgwt_scenario_named("spec-subposition"), 0, NULL, &len);
    CHECK(strstr(text, "positions: instr line\nevents: ticks\n") != NULL);
    CHECK(strstr(text, "fn=(1) func\n0x80001234 90 1\n+3 * 5\n+1 +1 6\n") != NULL);
    free(text);
    text = cgwt_run_memory(cgwt_scenario_named("spec-subposition-absolute"), 0, NULL, &len);
    CHECK(strstr(text, "0x80001234 90 1\n0x80001237 90 5\n0x80001238 91 6\n") != NULL);
    free(text);
    printf("golden files match\n");
    return 0;
}
