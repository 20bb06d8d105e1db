/* SPDX-License-Identifier: MIT */
/* read-records: every record of every FILE read through
 * cgw_reader_next() (files mapped, as the tools read them) and nothing
 * else: what any merge of those files must do at the least, for
 * bench-merge.sh.  Prints the number of records, so that no work is
 * optimised away; exit 1 when a file does not read.
 *
 *   read-records FILE... */
#include <stdio.h>

#include <cgw.h>

int main(int argc, char **argv)
{
    unsigned long long records = 0;
    for (int i = 1; i < argc; i++) {
        cgw_read_options o = CGW_READ_OPTIONS_INIT;
        o.flags = CGW_READ_MAP;
        cgw_reader *r = cgw_reader_open_path(argv[i], &o);
        if (r == NULL) {
            perror(argv[i]);
            return 1;
        }
        const cgw_record *rec;
        cgw_status st;
        while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
            records++;
        if (st != CGW_OK) {
            fprintf(stderr, "read-records: %s: %s\n", argv[i], cgw_reader_errmsg(r));
            cgw_reader_close(r);
            return 1;
        }
        cgw_reader_close(r);
    }
    printf("%llu records\n", records);
    return 0;
}
