/* SPDX-License-Identifier: MIT */
/* test-no-alloc: writing cost lines, calls and jumps allocates nothing:
 * a profile of 200,000 lines makes exactly as many allocations as one of
 * 10 lines with the same names. */
#include <stdio.h>

#include "testutil.h"

static long allocations(uint64_t lines)
{
    cgwt_alloc a;
    cgwt_alloc_init(&a, 0);
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_LINE,
                      .buffer_size = 4096, .allocator = &a.a };
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &c, &o);
    const cgw_target g = { "lib.so", "g.c", "g" };
    const cgw_target self = { NULL, NULL, "f" };
    cgw_add_event(w, "Ir", NULL);
    cgw_add_event(w, "Dr", NULL);
    cgw_object(w, "app");
    cgw_file(w, "f.c");
    cgw_function(w, "f");
    for (uint64_t i = 0; i < lines; i++) {
        uint64_t pos[2] = { 0x400000 + 4 * i, 10 + i % 50 };
        cgw_cost(w, pos, (const uint64_t[]){ i, i / 3 }, 2);
        if (i % 10 == 0)
            cgw_call(w, &g, i + 1, NULL, pos, (const uint64_t[]){ 7, 1 }, 2);
        if (i % 10 == 5)
            cgw_cond_jump(w, &self, 1, 2, pos, pos);
    }
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(a.live == 0);
    if (lines < 100)
        cgwt_annotate(c.data, c.len, NULL);
    cgwt_capture_free(&c);
    return a.calls;
}

int main(void)
{
    long few = allocations(10), many = allocations(200000);
    CHECK(few > 0);
    if (few != many)
        cgwt_fail(__FILE__, __LINE__, "10 lines: %ld allocations, 200000 lines: %ld", few, many);
    printf("%ld allocations for 10 lines and for 200000 lines\n", many);
    return 0;
}
