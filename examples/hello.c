/* SPDX-License-Identifier: MIT */
/* hello.c - the smallest libcgw program: a two-function profile written
 * to callgrind.out.hello (or the path given), ready for callgrind_annotate
 * or KCachegrind. */
#include <stdio.h>
#include <cgw.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "callgrind.out.hello";
    cgw_writer *w = cgw_open_path(path, NULL);
    if (w == NULL) {
        perror(path);
        return 2;
    }
    cgw_set_cmd(w, "hello");
    cgw_add_event(w, "Ir", NULL);
    cgw_file(w, "hello.c");

    cgw_function(w, "main");
    cgw_cost(w, (uint64_t[]){ 12 }, (uint64_t[]){ 20 }, 1);
    cgw_call(w, &(cgw_target){ .function = "work" }, 3, (uint64_t[]){ 30 },
             (uint64_t[]){ 14 }, (uint64_t[]){ 900 }, 1);

    cgw_function(w, "work");
    cgw_cost(w, (uint64_t[]){ 31 }, (uint64_t[]){ 600 }, 1);
    cgw_cost(w, (uint64_t[]){ 32 }, (uint64_t[]){ 300 }, 1);

    cgw_status st = cgw_finish(w); /* the one check: errors are sticky */
    if (st != CGW_OK)
        fprintf(stderr, "hello: %s: %s\n", path, cgw_errmsg(w));
    else
        printf("wrote %s\n", path);
    cgw_free(w);
    return st == CGW_OK ? 0 : 1;
}
