/* SPDX-License-Identifier: MIT */
/* scenarios.c - writer call sequences shared by the tests: the four
 * examples of the Callgrind format specification and richer profiles
 * that use every call of the API. */
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })
#define P2(a, b) ((const uint64_t[]){ a, b })

/* "Simple Example": events Cycles Instructions Flops, a short cost line. */
static void spec_simple(cgw_writer *w, cgwt_model *m)
{
    cgw_add_event(w, "Cycles", NULL);
    cgw_add_event(w, "Instructions", NULL);
    cgw_add_event(w, "Flops", NULL);
    cgwt_file(w, m, "file.f");
    cgwt_function(w, m, "main");
    cgwt_cost(w, m, P1(15), (const uint64_t[]){ 90, 14, 2 }, 3);
    cgwt_cost(w, m, P1(16), (const uint64_t[]){ 20, 12 }, 2);
}

/* "Extended Example" (and, compressed, "Name Compression"). */
static void spec_extended(cgw_writer *w, cgwt_model *m)
{
    const cgw_target func1 = { NULL, NULL, "func1" };
    const cgw_target func2 = { NULL, "file2.c", "func2" };
    cgw_add_event(w, "Instructions", NULL);
    cgwt_file(w, m, "file1.c");
    cgwt_function(w, m, "main");
    cgwt_cost(w, m, P1(16), P1(20), 1);
    cgw_call(w, &func1, 1, P1(50), P1(16), P1(400), 1);
    cgw_call(w, &func2, 3, P1(20), P1(16), P1(400), 1);
    cgwt_function(w, m, "func1");
    cgwt_cost(w, m, P1(51), P1(100), 1);
    cgw_call(w, &func2, 2, P1(20), P1(51), P1(300), 1);
    cgwt_file(w, m, "file2.c");
    cgwt_function(w, m, "func2");
    cgwt_cost(w, m, P1(20), P1(700), 1);
}

/* "Subposition Compression": positions instr line, events ticks. */
static void spec_subposition(cgw_writer *w, cgwt_model *m)
{
    cgw_add_event(w, "ticks", NULL);
    cgwt_function(w, m, "func");
    cgwt_cost(w, m, P2(0x80001234, 90), P1(1), 1);
    cgwt_cost(w, m, P2(0x80001237, 90), P1(5), 1);
    cgwt_cost(w, m, P2(0x80001238, 91), P1(6), 1);
}

/* Every header call, objects, inline files, calls across objects and
 * files, recursion, jumps, names with blanks, "(", "::", "<>" and UTF-8. */
static void rich(cgw_writer *w, cgwt_model *m)
{
    const cgw_target libc_malloc = { "/lib/libc.so.6", "malloc.c", "malloc" };
    const cgw_target self = { NULL, NULL, "ns::Parser<int>::parse(char const*)" };
    const cgw_target helper = { NULL, "util.c", "(below main)" };
    const cgw_target here = { NULL, NULL, "main" };
    cgw_set_creator(w, "libcgw-tests");
    cgw_set_pid(w, 4242);
    cgw_set_cmd(w, "./app --input 'a b' \xc3\xa9t\xc3\xa9");
    cgw_set_thread(w, 1);
    cgw_add_desc(w, "I1 cache", "32768 B, 64 B, 8-way associative");
    cgw_add_desc(w, "Trigger", "Program termination");
    cgw_add_event(w, "Ir", "Instruction Fetches");
    cgw_add_event(w, "Dr", NULL);
    cgw_add_event(w, "Dw", "Data Writes");
    cgw_add_derived_event(w, "L1m", "Ir + 2 * Dr + Dw", "Weighted accesses");
    cgw_set_summary(w, (const uint64_t[]){ 1102, 135, 25 }, 3); /* = totals */

    cgwt_object(w, m, "/usr/bin/app");
    cgwt_file(w, m, "main.c");
    cgwt_function(w, m, "main");
    cgwt_cost(w, m, P2(0x401000, 10), (const uint64_t[]){ 5, 1, 1 }, 3);
    cgwt_cost(w, m, P2(0x401004, 11), (const uint64_t[]){ 7, 0, 2 }, 3);
    cgw_call(w, &self, 2, P2(0x402000, 40), P2(0x401008, 12),
             (const uint64_t[]){ 900, 100, 20 }, 3);
    cgwt_inline(w, m, "inline.h");
    cgwt_cost(w, m, P2(0x401010, 3), (const uint64_t[]){ 8, 2 }, 2);
    cgw_call(w, &libc_malloc, 4, NULL, P2(0x401014, 4), (const uint64_t[]){ 400, 80, 9 }, 3);
    cgwt_inline(w, m, "main.c");
    cgw_jump(w, &here, 3, P2(0x401000, 10), P2(0x401018, 13));
    cgw_cond_jump(w, &here, 1, 4, P2(0x401004, 11), P2(0x40101c, 14));
    cgw_call(w, &helper, 1, P2(0x403000, 7), P2(0x401020, 15), (const uint64_t[]){ 77 }, 1);
    cgwt_cost(w, m, P2(0x401024, 16), (const uint64_t[]){ 1, 0, 0 }, 3);
    cgwt_inline(w, m, "inline.h");
    cgwt_cost(w, m, P2(0x401028, 5), (const uint64_t[]){ 3 }, 1);

    cgwt_function(w, m, "ns::Parser<int>::parse(char const*)");
    cgwt_cost(w, m, P2(0x402000, 40), (const uint64_t[]){ 600, 50, 10 }, 3);
    cgw_call(w, &self, 5, P2(0x402000, 40), P2(0x402010, 44),
             (const uint64_t[]){ 300, 25, 5 }, 3);
    cgwt_cost(w, m, P2(0x401ff0, 39), (const uint64_t[]){ 0, 0, 0 }, 3);

    cgwt_file(w, m, "util.c");
    cgwt_function(w, m, "(below main)");
    cgwt_cost(w, m, P2(0x403000, 7), (const uint64_t[]){ 77 }, 1);

    cgwt_object(w, m, "/lib/libc.so.6");
    cgwt_file(w, m, "malloc.c");
    cgwt_function(w, m, "malloc");
    cgwt_cost(w, m, P2(0x1000, 0), (const uint64_t[]){ 400, 80, 9 }, 3);
    cgwt_file(w, m, "d\xc3\xa9j\xc3\xa0 vu/a file.c");
    cgwt_function(w, m, "operator new(unsigned long)");
    cgwt_cost(w, m, P2(0x2000, 1), (const uint64_t[]){ 1, 2, 3 }, 3);
}

/* Three parts, each with its own tables, thread and summary. */
static void parts(cgw_writer *w, cgwt_model *m)
{
    (void)m;
    const cgw_target g = { NULL, NULL, "g" };
    cgw_set_cmd(w, "threads");
    cgw_set_pid(w, 77);
    cgw_add_event(w, "ns", "Nanoseconds");
    for (unsigned t = 1; t <= 3; t++) {
        if (t > 1)
            cgw_new_part(w);
        cgw_set_thread(w, t);
        cgw_set_summary(w, P1(100 * t), 1);
        cgw_file(w, t == 2 ? "two.c" : "main.c");
        cgw_function(w, "f");
        cgw_cost(w, P1(3), P1(60 * t), 1);
        cgw_call(w, &g, t, P1(9), P1(4), P1(40 * t), 1);
        cgw_function(w, "g");
        cgw_cost(w, P1(9), P1(40 * t), 1);
    }
}

/* Many lines, so buffers of every size are crossed many times. */
static void bulk(cgw_writer *w, cgwt_model *m)
{
    char name[64];
    cgw_add_event(w, "Ir", NULL);
    cgw_add_event(w, "Bc", NULL);
    for (int f = 0; f < 40; f++) {
        cgwt_file(w, m, f % 3 ? "a.c" : "b.c");
        memcpy(name, "fn_", 3);
        name[3] = (char)('A' + f % 26);
        name[4] = (char)('a' + f / 26);
        name[5] = '\0';
        cgwt_function(w, m, name);
        for (uint64_t l = 0; l < 30; l++)
            cgwt_cost(w, m, P1(100 + (l * 7) % 23), (const uint64_t[]){ l * f + 1, l % 3 }, 2);
        const cgw_target callee = { NULL, NULL, "fn_Aa" };
        cgw_call(w, &callee, (uint64_t)f + 1, P1(100), P1(200), P1(5), 1);
    }
}

const cgwt_scenario cgwt_scenarios[] = {
    { "spec-simple", 0, 0, spec_simple, 3, 0, 1 },
    { "spec-extended", 0, CGW_NO_NAME_COMPRESSION, spec_extended, 1, 0, 1 },
    { "spec-compression", 0, 0, spec_extended, 1, 0, 1 },
    { "spec-subposition", CGW_POS_INSTR | CGW_POS_LINE, 0, spec_subposition, 1, 0, 0 },
    { "spec-subposition-absolute", CGW_POS_INSTR | CGW_POS_LINE, CGW_NO_POS_COMPRESSION,
      spec_subposition, 1, 0, 0 },
    { "rich", CGW_POS_INSTR | CGW_POS_LINE, 0, rich, 3, 0, 0 },
    { "rich-compact", CGW_POS_INSTR | CGW_POS_LINE, CGW_COMPACT, rich, 3, 0, 0 },
    { "rich-nocompress", CGW_POS_INSTR | CGW_POS_LINE,
      CGW_NO_NAME_COMPRESSION | CGW_NO_POS_COMPRESSION, rich, 3, 0, 0 },
    { "parts", 0, 0, parts, 1, 1, 0 },
    { "bulk", 0, 0, bulk, 2, 0, 0 },
    { "bulk-compact", CGW_POS_LINE, CGW_COMPACT, bulk, 2, 0, 0 },
};
const size_t cgwt_nscenarios = sizeof cgwt_scenarios / sizeof cgwt_scenarios[0];

const cgwt_scenario *cgwt_scenario_named(const char *name)
{
    for (size_t i = 0; i < cgwt_nscenarios; i++)
        if (strcmp(cgwt_scenarios[i].name, name) == 0)
            return &cgwt_scenarios[i];
    return NULL;
}

cgw_options cgwt_options(const cgwt_scenario *s, size_t buffer_size, const cgw_allocator *a)
{
    cgw_options o = CGW_OPTIONS_INIT;
    o.positions = s->positions;
    o.flags = s->flags;
    o.buffer_size = buffer_size;
    o.allocator = a;
    return o;
}

char *cgwt_run_memory(const cgwt_scenario *s, size_t buffer_size, cgwt_model *m, size_t *len)
{
    cgwt_model local;
    char *buf;
    cgw_options o = cgwt_options(s, buffer_size, NULL);
    cgw_writer *w = cgw_open_memory(&buf, len, &o);
    CHECK(w != NULL);
    cgwt_model_init(m ? m : &local, s->nev);
    s->run(w, m ? m : &local);
    cgw_status st = cgw_finish(w);
    if (st != CGW_OK)
        cgwt_fail(__FILE__, __LINE__, "scenario %s: %s", s->name, cgw_errmsg(w));
    cgw_free(w);
    uint64_t warnings = cgwt_readback(buf, *len, s->parts ? NULL : m ? m : &local);
    if (s->portable && warnings != 0)
        cgwt_fail(__FILE__, __LINE__, "scenario %s: %llu portability warnings", s->name,
                  (unsigned long long)warnings);
    if (m == NULL)
        cgwt_model_free(&local);
    return buf;
}
