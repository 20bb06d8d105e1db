// SPDX-License-Identifier: MIT
// example.cc - README's example in C++, where C99's compound literals
// ((uint64_t[]){ 12 }, &(cgw_target){ .function = "work" }) do not exist:
// the positions and costs are named variables (one event: one uint64_t
// is an array of one), the call's target a struct set member by member.
// It writes the profile to FILE and reads it back through the library,
// checking the self costs and the call; make check builds it with
// -Wall -Wextra -pedantic -Werror.
#include <cstdio>
#include <cstring>
#include <cgw.h>

static int write_profile(const char *path)
{
    cgw_writer *w = cgw_open_path(path, NULL);
    if (w == NULL)
        return std::perror(path), 2;
    cgw_add_event(w, "Ir", NULL);
    cgw_file(w, "demo.c");
    cgw_function(w, "main");
    uint64_t line = 12, ir = 20;
    cgw_cost(w, &line, &ir, 1);
    cgw_target work = cgw_target();  // all NULL: the caller's object and file
    work.function = "work";
    uint64_t call_line = 30, work_line = 14, inclusive = 900;
    cgw_call(w, &work, 3, &call_line, &work_line, &inclusive, 1);
    cgw_function(w, "work");
    line = 31;
    ir = 900;
    cgw_cost(w, &line, &ir, 1);
    cgw_status st = cgw_finish(w);
    if (st != CGW_OK)
        std::fprintf(stderr, "%s: %s\n", path, cgw_errmsg(w));
    cgw_free(w);
    return st != CGW_OK;
}

// The profile at path read back: its self costs must add up to 920, in
// two functions, and main must call work 3 times.
static int read_profile(const char *path)
{
    cgw_read_options o = CGW_READ_OPTIONS_INIT;
    cgw_reader *r = cgw_reader_open_path(path, &o);
    if (r == NULL)
        return std::perror(path), 2;
    const cgw_record *rec;
    cgw_status st;
    uint64_t self = 0, functions = 0, work_calls = 0;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_FUNCTION)
            functions++;
        else if (rec->kind == CGW_REC_COST)
            self += rec->costs[0];
        else if (rec->kind == CGW_REC_CALL && std::strcmp(rec->target.function, "work") == 0)
            work_calls += rec->count;
    }
    uint64_t errors = 0;
    cgw_reader_counts(r, &errors, NULL);
    if (st != CGW_OK)
        std::fprintf(stderr, "%s: %s\n", path, cgw_reader_errmsg(r));
    cgw_reader_close(r);
    if (st != CGW_OK || errors != 0)
        return 1;
    if (self != 920 || functions != 2 || work_calls != 3) {
        std::fprintf(stderr, "%s: read back self %llu, %llu functions, %llu calls of work; "
                     "wrote 920, 2, 3\n", path, (unsigned long long)self,
                     (unsigned long long)functions, (unsigned long long)work_calls);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "callgrind.out.example-cxx";
    int rc = write_profile(path);
    if (rc == 0)
        rc = read_profile(path);
    if (rc == 0)
        std::printf("%s: written and read back\n", path);
    return rc;
}
