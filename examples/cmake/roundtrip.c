/* SPDX-License-Identifier: MIT */
/* roundtrip.c - the CMake example's reader: read FILE, README's
 * two-function profile as examples/hello.c (built beside it) writes it,
 * back through the library, checking the self costs and the call; with
 * --read FILE, read any profile (libcgwprof's, say) and check that it has
 * functions and no error.  Exit 0 when all is as expected. */
#include <stdio.h>
#include <string.h>
#include <cgw.h>

/* Read path; the sum of the first event's self costs in *self, the
 * number of function blocks in *functions, the count of calls to
 * "work" in *work_calls.  0 when it read without error. */
static int read_profile(const char *path, uint64_t *self, uint64_t *functions,
                        uint64_t *work_calls)
{
    cgw_reader *r = cgw_reader_open_path(path, NULL);
    if (r == NULL) {
        perror(path);
        return 2;
    }
    const cgw_record *rec;
    cgw_status st;
    *self = *functions = *work_calls = 0;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_FUNCTION)
            ++*functions;
        else if (rec->kind == CGW_REC_COST && rec->part->nevents > 0)
            *self += rec->costs[0];
        else if (rec->kind == CGW_REC_CALL && strcmp(rec->target.function, "work") == 0)
            *work_calls += rec->count;
    }
    uint64_t errors = 0;
    cgw_reader_counts(r, &errors, NULL);
    if (st != CGW_OK)
        fprintf(stderr, "%s: %s\n", path, cgw_reader_errmsg(r));
    cgw_reader_close(r);
    return st != CGW_OK || errors != 0;
}

int main(int argc, char **argv)
{
    uint64_t self, functions, work_calls;
    if (argc == 3 && strcmp(argv[1], "--read") == 0) {
        if (read_profile(argv[2], &self, &functions, &work_calls) != 0 || functions == 0) {
            fprintf(stderr, "%s: not read, or no function in it\n", argv[2]);
            return 1;
        }
        printf("%s: %llu function blocks, read back\n", argv[2], (unsigned long long)functions);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: roundtrip FILE | roundtrip --read FILE\n");
        return 2;
    }
    if (read_profile(argv[1], &self, &functions, &work_calls) != 0)
        return 1;
    if (self != 920 || functions != 2 || work_calls != 3) {
        fprintf(stderr, "%s: read back self %llu, %llu functions, %llu calls of work; "
                "wrote 920, 2, 3\n", argv[1], (unsigned long long)self,
                (unsigned long long)functions, (unsigned long long)work_calls);
        return 1;
    }
    printf("%s: read back as written\n", argv[1]);
    return 0;
}
