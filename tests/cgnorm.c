/* SPDX-License-Identifier: MIT */
/* cgnorm: what libcgw's reader reads from a profile, printed in the
 * normalised form of the KCachegrind oracle (../shared/oracles, kcgdump
 * with KCGNORM=1), so that test-oracles.sh can diff the two:
 *
 *   T<TAB>c1,c2,...                         totals, summed over parts
 *   F<TAB>ob<TAB>fl<TAB>fn<TAB>c1,...       self cost of each function
 *   C<TAB>caller ob, fl, fn<TAB>-><TAB>callee ob, fl, fn<TAB>count<TAB>c1,...
 *
 * Parts are summed, events matched by name in order of first definition,
 * empty or missing names printed as "???", lines sorted bytewise.  With
 * --source, the self costs are keyed by the cost's source file (an fi=
 * file where there is one) and the function, as callgrind_annotate keys
 * them: S<TAB>file<TAB>fn<TAB>c1,...
 * Usage: cgnorm [--source] FILE.  Exit 1 when the reader reports an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>

#define MAX_EVENTS 256

typedef struct entry {
    char *key;
    uint64_t count;
    uint64_t costs[MAX_EVENTS];
} entry;

typedef struct norm {
    int by_source;
    const char *events[MAX_EVENTS]; /* owned copies */
    size_t nevents;
    size_t column[MAX_EVENTS]; /* the current part's column -> event */
    uint64_t totals[MAX_EVENTS];
    entry *entries;
    size_t nentries, cap;
} norm;

static void *must(void *mem)
{
    if (mem == NULL) {
        fputs("cgnorm: out of memory\n", stderr);
        exit(2);
    }
    return mem;
}

static const char *name(const char *str)
{
    return str != NULL && str[0] != '\0' ? str : "???";
}

static size_t event_index(norm *nm, const char *event)
{
    for (size_t i = 0; i < nm->nevents; i++)
        if (strcmp(nm->events[i], event) == 0)
            return i;
    if (nm->nevents == MAX_EVENTS) {
        fputs("cgnorm: too many events\n", stderr);
        exit(2);
    }
    nm->events[nm->nevents] = must(strdup(event));
    return nm->nevents++;
}

static void part(norm *nm, const cgw_part *pt)
{
    for (size_t i = 0; i < pt->nevents; i++)
        nm->column[i] = event_index(nm, pt->events[i].name);
}

static void add(uint64_t *sums, const norm *nm, const uint64_t *costs, size_t n)
{
    for (size_t i = 0; costs != NULL && i < n; i++)
        sums[nm->column[i]] += costs[i];
}

/* One F or C line's key and what it carries, merged after sorting. */
static void push(norm *nm, const char *key, uint64_t count, const uint64_t *costs, size_t n)
{
    if (nm->nentries == nm->cap) {
        nm->cap = nm->cap ? nm->cap * 2 : 1024;
        nm->entries = must(realloc(nm->entries, nm->cap * sizeof *nm->entries));
    }
    entry *e = &nm->entries[nm->nentries++];
    e->key = must(strdup(key));
    e->count = count;
    memset(e->costs, 0, sizeof e->costs);
    add(e->costs, nm, costs, n);
}

static void function_key(char *out, size_t size, const char *ob, const char *fl, const char *fn)
{
    snprintf(out, size, "%s\t%s\t%s", name(ob), name(fl), name(fn));
}

static void record(norm *nm, const cgw_record *rec)
{
    static char caller[8192], callee[8192], key[16384 + 16];
    size_t n = rec->part->nevents;
    switch (rec->kind) {
    case CGW_REC_PART:
        part(nm, rec->part);
        break;
    case CGW_REC_COST:
        if (nm->by_source)
            snprintf(key, sizeof key, "S\t%s\t%s", name(rec->source_file), name(rec->function));
        else
            function_key(caller, sizeof caller, rec->object, rec->file, rec->function);
        if (!nm->by_source)
            snprintf(key, sizeof key, "F\t%s", caller);
        push(nm, key, 0, rec->costs, n);
        break;
    case CGW_REC_CALL:
        function_key(caller, sizeof caller, rec->object, rec->file, rec->function);
        function_key(callee, sizeof callee, rec->target.object, rec->target.file,
                     rec->target.function);
        snprintf(key, sizeof key, "C\t%s\t->\t%s", caller, callee);
        push(nm, key, rec->count, rec->costs, n);
        snprintf(key, sizeof key, "F\t%s", callee); /* a callee is a function too */
        push(nm, key, 0, NULL, 0);
        break;
    case CGW_REC_FUNCTION: /* a function without costs still has a line */
        function_key(caller, sizeof caller, rec->object, rec->file, rec->function);
        snprintf(key, sizeof key, "F\t%s", caller);
        push(nm, key, 0, NULL, 0);
        break;
    case CGW_REC_PART_END:
        add(nm->totals, nm, rec->costs, n);
        break;
    default:
        break;
    }
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "KEY\tc1,c2,..." (with the count before the costs on a C line). */
static char *line_text(const norm *nm, const char *key, const uint64_t *count,
                       const uint64_t *costs)
{
    char *text;
    size_t len;
    FILE *out = must(open_memstream(&text, &len));
    fputs(key, out);
    if (count != NULL)
        fprintf(out, "\t%llu", (unsigned long long)*count);
    fputc('\t', out);
    for (size_t k = 0; k < nm->nevents; k++)
        fprintf(out, "%s%llu", k ? "," : "", (unsigned long long)costs[k]);
    fclose(out);
    return text;
}

/* Equal keys merged, then every line (T too) sorted as text, as
 * kcgdump sorts them. */
static void print(norm *nm)
{
    if (nm->nentries > 0) /* qsort() of NULL is undefined, even of 0 items */
        qsort(nm->entries, nm->nentries, sizeof *nm->entries, by_key);
    size_t nlines = 0;
    char **lines = must(calloc(nm->nentries + 1, sizeof *lines));
    lines[nlines++] = line_text(nm, "T", NULL, nm->totals);
    for (size_t i = 0; i < nm->nentries;) {
        entry *e = &nm->entries[i];
        for (i++; i < nm->nentries && strcmp(nm->entries[i].key, e->key) == 0; i++) {
            e->count += nm->entries[i].count;
            for (size_t k = 0; k < nm->nevents; k++)
                e->costs[k] += nm->entries[i].costs[k];
        }
        lines[nlines++] = line_text(nm, e->key, e->key[0] == 'C' ? &e->count : NULL, e->costs);
    }
    qsort(lines, nlines, sizeof *lines, by_text);
    for (size_t i = 0; i < nlines; i++) {
        printf("%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    for (size_t i = 0; i < nm->nentries; i++)
        free(nm->entries[i].key);
    free(nm->entries);
    for (size_t i = 0; i < nm->nevents; i++)
        free((char *)nm->events[i]);
}

int main(int argc, char **argv)
{
    norm nm = { 0 };
    nm.by_source = argc == 3 && strcmp(argv[1], "--source") == 0;
    if (argc != 2 + nm.by_source) {
        fputs("usage: cgnorm [--source] FILE\n", stderr);
        return 2;
    }
    const char *path = argv[argc - 1];
    cgw_reader *r = cgw_reader_open_path(path, NULL);
    if (r == NULL) {
        perror(path);
        return 2;
    }
    const cgw_record *rec;
    cgw_status st;
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL)
        record(&nm, rec);
    uint64_t errors = 0;
    cgw_reader_counts(r, &errors, NULL);
    if (st != CGW_OK)
        fprintf(stderr, "cgnorm: %s\n", cgw_reader_errmsg(r));
    cgw_reader_close(r);
    print(&nm);
    return st != CGW_OK ? 2 : errors > 0;
}
