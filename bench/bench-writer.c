/* bench-writer: libcgw against a hand-written fprintf writer that makes
 * the same bytes (checked first), both into a discarding sink, in the same
 * run.  Prints ns per cost line, MB/s and the ratio.
 *   usage: bench-writer [LINES] [EVENTS]   (default 2000000 lines, 3 events) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgw.h>

#define FUNCS 1000

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The profile: FUNCS functions in one file, lines in small steps. */
typedef struct line { uint32_t fn; uint64_t pos; uint64_t c[8]; } line;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t sunk;
static int sink(void *ctx, const char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    sunk += len;
    return 0;
}

static int capture(void *ctx, const char *buf, size_t len)
{
    fwrite(buf, 1, len, ctx);
    return 0;
}

static void with_cgw(cgw_write_fn fn, void *ctx, const line *ls, size_t n, size_t ev)
{
    char name[32];
    cgw_writer *w = cgw_open_callback(fn, ctx, NULL);
    for (size_t e = 0; e < ev; e++) {
        snprintf(name, sizeof name, "E%zu", e);
        cgw_add_event(w, name, NULL);
    }
    cgw_file(w, "src/file.c");
    uint32_t fn_now = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        if (ls[i].fn != fn_now) {
            fn_now = ls[i].fn;
            snprintf(name, sizeof name, "function_%u", (unsigned)fn_now);
            cgw_function(w, name);
        }
        cgw_cost(w, &ls[i].pos, ls[i].c, ev);
    }
    if (cgw_close(w) != CGW_OK)
        abort();
}

/* What a careful hand-written writer does: fprintf per line. */
static void with_fprintf(FILE *f, const line *ls, size_t n, size_t ev)
{
    fprintf(f, "# callgrind format\nversion: 1\ncreator: libcgw-%s\npart: 1\npositions: line\n"
               "events:", cgw_version());
    for (size_t e = 0; e < ev; e++)
        fprintf(f, " E%zu", e);
    fprintf(f, "\n");
    uint32_t fn_now = UINT32_MAX, ids = 0;
    uint64_t base = 0;
    static uint32_t id[FUNCS];
    memset(id, 0, sizeof id);
    for (size_t i = 0; i < n; i++) {
        const line *l = &ls[i];
        if (l->fn != fn_now) {
            fn_now = l->fn;
            fprintf(f, "\nfl=(1)%s\n", ids ? "" : " src/file.c");
            if (id[fn_now])
                fprintf(f, "fn=(%u)\n", id[fn_now]);
            else
                fprintf(f, "fn=(%u) function_%u\n", id[fn_now] = ++ids, (unsigned)fn_now);
            fprintf(f, "%llu", (unsigned long long)l->pos);
        } else if (l->pos == base) {
            fprintf(f, "*");
        } else if (l->pos > base) {
            fprintf(f, "+%llu", (unsigned long long)(l->pos - base));
        } else {
            fprintf(f, "-%llu", (unsigned long long)(base - l->pos));
        }
        base = l->pos;
        for (size_t e = 0; e < ev; e++)
            fprintf(f, " %llu", (unsigned long long)l->c[e]);
        fprintf(f, "\n");
    }
    uint64_t t[8] = { 0 };
    for (size_t i = 0; i < n; i++)
        for (size_t e = 0; e < ev; e++)
            t[e] += ls[i].c[e];
    fprintf(f, "\ntotals:");
    for (size_t e = 0; e < ev; e++)
        fprintf(f, " %llu", (unsigned long long)t[e]);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000;
    size_t ev = argc > 2 ? strtoul(argv[2], NULL, 10) : 3;
    if (ev < 1 || ev > 8)
        return 2;
    line *ls = malloc(n * sizeof *ls);
    uint32_t fn = 0;
    uint64_t pos = 100;
    for (size_t i = 0; i < n; i++) {
        if (next() % 20 == 0) {
            fn = (uint32_t)(next() % FUNCS);
            pos = 10 + next() % 5000;
        }
        pos += next() % 7;
        ls[i].fn = fn;
        ls[i].pos = pos;
        for (size_t e = 0; e < 8; e++)
            ls[i].c[e] = (next() % 4 == 0) ? next() % 100000 : next() % 10;
    }

    /* Same bytes from both writers, on a prefix of the profile. */
    size_t check = n < 50000 ? n : 50000;
    char *a, *b;
    size_t alen, blen;
    FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
    with_cgw(capture, fa, ls, check, ev);
    with_fprintf(fb, ls, check, ev);
    fclose(fa);
    fclose(fb);
    if (alen != blen || memcmp(a, b, alen) != 0) {
        fprintf(stderr, "bench-writer: the two writers differ (%zu vs %zu bytes)\n", alen, blen);
        return 1;
    }
    free(a);
    free(b);

    FILE *null = fopen("/dev/null", "w");
    double best_cgw = 1e9, best_printf = 1e9;
    for (int r = 0; r < 3; r++) {
        sunk = 0;
        double t0 = now();
        with_cgw(sink, NULL, ls, n, ev);
        double t1 = now();
        with_fprintf(null, ls, n, ev);
        fflush(null);
        double t2 = now();
        best_cgw = t1 - t0 < best_cgw ? t1 - t0 : best_cgw;
        best_printf = t2 - t1 < best_printf ? t2 - t1 : best_printf;
    }
    printf("%zu cost lines, %zu events, %.1f MB (identical bytes checked on %zu lines)\n", n, ev,
           sunk / 1e6, check);
    printf("libcgw:  %6.1f ns/line %7.0f MB/s\n", best_cgw * 1e9 / n, sunk / best_cgw / 1e6);
    printf("fprintf: %6.1f ns/line %7.0f MB/s\n", best_printf * 1e9 / n,
           sunk / best_printf / 1e6);
    printf("ratio:   libcgw is %.1fx faster than fprintf\n", best_printf / best_cgw);
    fclose(null);
    free(ls);
    return 0;
}
