/* SPDX-License-Identifier: MIT */
/* reader.c - the smallest libcgw reader program: the ten functions with
 * the highest self cost (first event) of a profile, over all its parts.
 *
 *   reader FILE
 *
 * Names handed out by the reader are interned (equal names, equal
 * pointers) and live until cgw_reader_close(), so they can be kept and
 * compared as pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <cgw.h>

typedef struct fn {
    const char *name;
    unsigned long long self;
} fn;

static int by_self(const void *a, const void *b)
{
    const fn *x = a, *y = b;
    return (x->self < y->self) - (x->self > y->self);
}

static void diag(void *ctx, const cgw_diagnostic *d)
{
    fprintf(stderr, "%s:%llu: %s [%s]\n", (const char *)ctx, (unsigned long long)d->line,
            d->message, d->code);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: reader FILE\n");
        return 2;
    }
    cgw_read_options o = { .struct_size = sizeof o, .diag = diag, .diag_ctx = argv[1] };
    cgw_reader *r = cgw_reader_open_path(argv[1], &o);
    if (r == NULL) {
        perror(argv[1]);
        return 2;
    }
    fn *fns = NULL;
    size_t n = 0;
    const char *event = "?";
    const cgw_record *rec;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_PART && rec->part->nevents > 0)
            event = rec->part->events[0].name;
        if (rec->kind != CGW_REC_COST || rec->part->nevents == 0)
            continue;
        size_t i = 0;
        while (i < n && fns[i].name != rec->function) /* interned: compare pointers */
            i++;
        if (i == n) {
            fn *more = realloc(fns, (n + 1) * sizeof *fns);
            if (more == NULL)
                break;
            fns = more;
            fns[n++] = (fn){ rec->function, 0 };
        }
        fns[i].self += rec->costs[0];
    }
    if (st != CGW_OK)
        fprintf(stderr, "%s: %s\n", argv[1], cgw_reader_errmsg(r));
    qsort(fns, n, sizeof *fns, by_self);
    printf("%-20s  function\n", event);
    for (size_t i = 0; i < n && i < 10; i++)
        printf("%-20llu  %s\n", fns[i].self, fns[i].name);
    uint64_t errors;
    cgw_reader_counts(r, &errors, NULL);
    free(fns);
    cgw_reader_close(r);
    return st != CGW_OK ? 2 : errors != 0;
}
