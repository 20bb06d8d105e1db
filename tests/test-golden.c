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

/* A call from inside an fi= block to a function of that inline file:
 * the portable output names its file (cfi=), since readers disagree on
 * the current file there (KCachegrind and callgrind_annotate take the
 * fi= one, speedscope the fl= one); the compact output leaves it to the
 * fi= (for a callee in the caller's fl= file it writes cfi= then). */
static void inline_callee(void)
{
    static const char *const want[2] = {
        "fl=(1) a.c\nfn=(1) main\nfi=(2) inc.h\n2 1\ncfi=(2)\ncfn=(2) g\ncalls=1 0\n* 3\n"
        "cfi=(1)\ncfn=(1)\ncalls=1 0\n* 1\nfe=(1)\n\nfl=(2)\nfn=(2)\n1 3\n\ntotals: 4\n",
        "fl=(1) a.c\nfn=(1) main\nfi=(2) inc.h\n2 1\ncfn=(2) g\ncalls=1 0\n* 3\n"
        "cfi=(1)\ncfn=(1)\ncalls=1 0\n* 1\nfe=(1)\nfl=(2)\nfn=(2)\n1 3\ntotals: 4\n",
    };
    for (int compact = 0; compact < 2; compact++) {
        char *text;
        size_t len;
        cgw_options wo = { .struct_size = sizeof wo, .flags = compact ? CGW_COMPACT : 0 };
        cgw_writer *w = cgw_open_memory(&text, &len, &wo);
        const cgw_target g = { NULL, "inc.h", "g" }, self = { NULL, "a.c", "main" };
        const uint64_t two[1] = { 2 };
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
        CHECK_ST(cgw_function(w, "main"), CGW_OK);
        CHECK_ST(cgw_inline_file(w, "inc.h"), CGW_OK);
        CHECK_ST(cgw_cost(w, two, (const uint64_t[]){ 1 }, 1), CGW_OK);
        CHECK_ST(cgw_call(w, &g, 1, NULL, two, (const uint64_t[]){ 3 }, 1), CGW_OK);
        CHECK_ST(cgw_call(w, &self, 1, NULL, two, (const uint64_t[]){ 1 }, 1), CGW_OK);
        CHECK_ST(cgw_file(w, "inc.h"), CGW_OK);
        CHECK_ST(cgw_function(w, "g"), CGW_OK);
        CHECK_ST(cgw_cost(w, (const uint64_t[]){ 1 }, (const uint64_t[]){ 3 }, 1), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        const char *body = strstr(text, "fl=(1) a.c\n");
        CHECK(body != NULL);
        CHECK_STR(body, want[compact]);
        cgwt_readback(text, len, NULL);
        free(text);
    }
}

/* cgw_recode() to lines only: the lines of one place in one block are
 * summed into one (0x1 and 0x2 at line 1: 1 + 2), but not those of
 * another inline file at that line (inc.h's 4, then a.c's 8 again).
 * A reader that skips CGW_REC_INLINE hands out no record between them,
 * only each cost record's source_file tells them apart; the writer then
 * has no fi= to write and puts all three lines in a.c. */
static void recode_inline(void)
{
    static const char *const want[2] = {
        "fl=(1) a.c\nfn=(1) main\n1 3\nfi=(2) inc.h\n* 4\nfe=(1)\n* 8\n\ntotals: 15\n",
        "fl=(1) a.c\nfn=(1) main\n1 3\n* 4\n* 8\n\ntotals: 15\n",
    };
    static const char in[] = "positions: instr line\nevents: Ir\nfl=a.c\nfn=main\n"
                             "0x1 1 1\n0x2 1 2\nfi=inc.h\n0x3 1 4\nfe=a.c\n0x4 1 8\n";
    for (int skip = 0; skip < 2; skip++) {
        cgw_read_options o = { .struct_size = sizeof o,
                               .skip = skip ? CGW_SKIP(CGW_REC_INLINE) : 0 };
        cgw_reader *r = cgw_reader_open_memory(in, sizeof in - 1, &o);
        char *text;
        size_t len;
        cgw_options wo = { .struct_size = sizeof wo, .positions = CGW_POS_LINE };
        cgw_writer *w = cgw_open_memory(&text, &len, &wo);
        CHECK(r != NULL && w != NULL);
        CHECK_ST(cgw_recode(r, w, 0), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        cgw_reader_close(r);
        const char *body = strstr(text, "fl=(1) a.c\n");
        CHECK(body != NULL);
        CHECK_STR(body, want[skip]);
        cgwt_readback(text, len, NULL);
        free(text);
    }
}

int main(void)
{
    reused_buffer();
    inline_callee();
    recode_inline();
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
