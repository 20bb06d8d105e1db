/* SPDX-License-Identifier: MIT */
/* bench-writer: the writer against a hand-written fprintf writer that
 * makes the same bytes, and against the physical limit (memcpy and write()
 * of the identical, pre-rendered bytes), in the same run, all three into
 * the same temporary file; and the floor: the self-cost lines alone,
 * formatted into memory by libcgw's number code with no API around it,
 * and the input: the floor's reading of the replay list alone.
 * The profiles are cggen's (cgw_generate), in the shapes Callgrind writes
 * by default (line, Ir), with --dump-instr=yes (instr+line, Ir) and with
 * --cache-sim=yes --branch-sim=yes (line, 13 events).  Each is read back
 * once into a list of operations that both writers replay; the fprintf
 * writer gets every name as a small index, so it does no lookups of its
 * own, while libcgw interns every name string.
 *
 * It also counts, through the allocator hook, the allocations the writer
 * makes inside cgw_cost() and cgw_call(): there must be none.
 *
 *   bench-writer [MB]     (default 16: the size of each profile)
 *
 * Exit 1 when the bytes differ (fprintf writer or floor), or when an
 * allocation happens in a cost line. */
#define _GNU_SOURCE /* open_memstream */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cgw.h>

#include "counting.h"
#include "common/fmt.h" /* the floor formats numbers as libcgw does */

#define ROUNDS 5
#define BUFSZ 65536

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench-writer: %s\n", what);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        die("out of memory");
    return p;
}

/* ------------------------------------------------------ the profile */

enum { OP_FN, OP_COST, OP_CALL };

/* One writer call.  fn indexes funcs: the function of OP_FN, the callee
 * of OP_CALL. */
typedef struct op {
    int kind;
    uint32_t fn;
    uint64_t count;
    uint64_t pos[2], target[2];
    const uint64_t *costs;
} op;

/* A name as the fprintf writer keeps it: its text and compressed ID. */
typedef struct name {
    const char *str;
    unsigned id;
} name;

typedef struct func {
    uint32_t ob, fl, fn; /* into objs, files, fnames */
} func;

typedef struct profile {
    const char *label;
    unsigned positions;
    size_t npos, nev;
    const char *evnames[64];
    op *ops;
    size_t nops, ncost;
    uint64_t *pool;
    name *objs, *files, *fnames;
    size_t nobjs, nfiles, nfnames;
    func *funcs;
    size_t nfuncs;
    char *gen;          /* cggen's bytes */
    cgw_reader *reader; /* open: the names are its */
} profile;

/* Index of pointer key in tab (equal names have equal pointers). */
static uint32_t index_of(name **tab, size_t *n, const char *s)
{
    for (size_t i = *n; i-- > 0;)
        if ((*tab)[i].str == s)
            return (uint32_t)i;
    *tab = realloc(*tab, (*n + 1) * sizeof **tab);
    if (*tab == NULL)
        die("out of memory");
    (*tab)[*n].str = s;
    (*tab)[*n].id = 0;
    return (uint32_t)(*n)++;
}

static uint32_t func_of(profile *p, const char *ob, const char *fl, const char *fn)
{
    func f = { index_of(&p->objs, &p->nobjs, ob), index_of(&p->files, &p->nfiles, fl),
               index_of(&p->fnames, &p->nfnames, fn) };
    for (size_t i = p->nfuncs; i-- > 0;)
        if (p->funcs[i].ob == f.ob && p->funcs[i].fl == f.fl && p->funcs[i].fn == f.fn)
            return (uint32_t)i;
    p->funcs = realloc(p->funcs, (p->nfuncs + 1) * sizeof *p->funcs);
    if (p->funcs == NULL)
        die("out of memory");
    p->funcs[p->nfuncs] = f;
    return (uint32_t)p->nfuncs++;
}

/* A cggen profile of about mb MB, read back into operations. */
static void load(profile *p, unsigned mb)
{
    size_t glen;
    cgw_options o = { p->positions, 0, 0, NULL };
    cgw_writer *w = cgw_open_memory(&p->gen, &glen, &o);
    cgw_gen_options g;
    cgw_gen_defaults(&g);
    g.seed = 1;
    g.events = (unsigned)p->nev;
    g.size = (uint64_t)mb << 20;
    if (w == NULL || cgw_generate(w, &g) != CGW_OK || cgw_close(w) != CGW_OK)
        die("cgw_generate failed");

    p->reader = cgw_reader_open_memory(p->gen, glen, NULL);
    if (p->reader == NULL)
        die("cannot read the generated profile");
    size_t cap = glen / 8 + 16, used = 0;
    p->ops = xmalloc(cap * sizeof *p->ops);
    p->pool = xmalloc(cap * p->nev * sizeof *p->pool);
    const cgw_record *r;
    while (cgw_reader_next(p->reader, &r) == CGW_OK && r != NULL) {
        if (r->kind == CGW_REC_PART) {
            if (r->part->npos != p->npos || r->part->nevents != p->nev)
                die("unexpected part header");
            for (size_t e = 0; e < p->nev; e++)
                p->evnames[e] = r->part->events[e].name;
            continue;
        }
        if (r->kind == CGW_REC_PART_END)
            continue;
        if (p->nops == cap)
            die("more operations than the estimate");
        op *x = &p->ops[p->nops++];
        memset(x, 0, sizeof *x);
        switch (r->kind) {
        case CGW_REC_FUNCTION:
            x->kind = OP_FN;
            x->fn = func_of(p, r->object, r->file, r->function);
            continue;
        case CGW_REC_COST:
        case CGW_REC_CALL:
            break;
        default:
            die("unexpected record kind");
        }
        x->kind = r->kind == CGW_REC_COST ? OP_COST : OP_CALL;
        memcpy(x->pos, r->pos, p->npos * sizeof *x->pos);
        uint64_t *c = p->pool + used;
        memcpy(c, r->costs, p->nev * sizeof *c);
        used += p->nev;
        x->costs = c;
        p->ncost++;
        if (x->kind == OP_CALL) {
            x->fn = func_of(p, r->target.object, r->target.file, r->target.function);
            x->count = r->count;
            memcpy(x->target, r->target_pos, p->npos * sizeof *x->target);
        }
    }
    uint64_t errors;
    cgw_reader_counts(p->reader, &errors, NULL);
    if (errors != 0 || p->ncost == 0)
        die("the generated profile does not read back");
}

static void unload(profile *p)
{
    cgw_reader_close(p->reader);
    free(p->gen);
    free(p->ops);
    free(p->pool);
    free(p->objs);
    free(p->files);
    free(p->fnames);
    free(p->funcs);
}

/* ------------------------------------------------------ libcgw */

static int discard(void *ctx, const char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

/* Replay p through w.  When seen is not NULL (one flag a function),
 * *line_allocs collects the allocations made inside cgw_cost() and
 * inside cgw_call() to a function named before: cost lines, as opposed
 * to a name's first use. */
static void replay(const profile *p, cgw_writer *w, char *seen, long *line_allocs)
{
    for (size_t e = 0; e < p->nev; e++)
        cgw_add_event(w, p->evnames[e], NULL);
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        const func *f = &p->funcs[x->fn];
        long before = allocs;
        int known = seen != NULL && seen[x->fn];
        if (x->kind == OP_FN) {
            cgw_object(w, p->objs[f->ob].str);
            cgw_file(w, p->files[f->fl].str);
            cgw_function(w, p->fnames[f->fn].str);
        } else if (x->kind == OP_COST) {
            cgw_cost(w, x->pos, x->costs, p->nev);
            known = seen != NULL;
        } else {
            cgw_target t = { p->objs[f->ob].str, p->files[f->fl].str, p->fnames[f->fn].str };
            cgw_call(w, &t, x->count, x->target, x->pos, x->costs, p->nev);
        }
        if (seen != NULL)
            seen[x->fn] = 1;
        if (known)
            *line_allocs += allocs - before;
    }
    if (cgw_close(w) != CGW_OK)
        die("the writer failed");
}

static void with_libcgw(const profile *p, int fd)
{
    cgw_options o = { p->positions, 0, BUFSZ, NULL };
    replay(p, cgw_open_fd(fd, &o), NULL, NULL);
}

/* ------------------------------------------------------ fprintf */

/* What a careful hand-written writer does: fprintf per field, name
 * compression with IDs it keeps itself, relative positions. */
typedef struct fstate {
    FILE *f;
    const profile *p;
    unsigned next_id[3];
    uint64_t base[2];
    int base_valid;
} fstate;

static void f_name(fstate *s, const char *spec, name *n, int kind)
{
    if (n->id != 0) {
        fprintf(s->f, "%s(%u)\n", spec, n->id);
    } else {
        n->id = ++s->next_id[kind];
        fprintf(s->f, "%s(%u) %s\n", spec, n->id, n->str);
    }
}

static void f_pos(fstate *s, const uint64_t *pos, int is_target)
{
    const profile *p = s->p;
    for (size_t i = 0; i < p->npos; i++) {
        int hex = i == 0 && (p->positions & CGW_POS_INSTR);
        if (i > 0)
            fputc(' ', s->f);
        if (is_target || !s->base_valid)
            fprintf(s->f, hex ? "0x%llx" : "%llu", (unsigned long long)pos[i]);
        else if (pos[i] == s->base[i])
            fputc('*', s->f);
        else if (pos[i] > s->base[i])
            fprintf(s->f, "+%llu", (unsigned long long)(pos[i] - s->base[i]));
        else
            fprintf(s->f, "-%llu", (unsigned long long)(s->base[i] - pos[i]));
    }
    if (!is_target) {
        memcpy(s->base, pos, p->npos * sizeof *pos);
        s->base_valid = 1;
    }
}

static void f_costs(fstate *s, const uint64_t *c, uint64_t *totals)
{
    for (size_t e = 0; e < s->p->nev; e++) {
        fprintf(s->f, " %llu", (unsigned long long)c[e]);
        if (totals != NULL)
            totals[e] += c[e];
    }
    fputc('\n', s->f);
}

static void with_fprintf(profile *p, FILE *f)
{
    fstate s = { f, p, { 0, 0, 0 }, { 0, 0 }, 0 };
    uint64_t totals[64] = { 0 };
    for (size_t i = 0; i < p->nobjs; i++)
        p->objs[i].id = 0;
    for (size_t i = 0; i < p->nfiles; i++)
        p->files[i].id = 0;
    for (size_t i = 0; i < p->nfnames; i++)
        p->fnames[i].id = 0;
    name *fnid = xmalloc(p->nfuncs * sizeof *fnid);
    for (size_t i = 0; i < p->nfuncs; i++)
        fnid[i] = (name){ p->fnames[p->funcs[i].fn].str, 0 };

    fprintf(f, "# callgrind format\nversion: 1\ncreator: libcgw-%s\npart: 1\npositions: %s\n"
               "events:", cgw_version(), p->npos == 2 ? "instr line" : "line");
    for (size_t e = 0; e < p->nev; e++)
        fprintf(f, " %s", p->evnames[e]);
    fputc('\n', f);
    uint32_t written_ob = UINT32_MAX, cur_fl = UINT32_MAX;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        const func *fn = &p->funcs[x->fn];
        switch (x->kind) {
        case OP_FN:
            fputc('\n', f);
            if (fn->ob != written_ob)
                f_name(&s, "ob=", &p->objs[fn->ob], 0);
            written_ob = fn->ob;
            f_name(&s, "fl=", &p->files[fn->fl], 1);
            cur_fl = fn->fl;
            f_name(&s, "fn=", &fnid[x->fn], 2);
            s.base_valid = 0;
            break;
        case OP_COST:
            f_pos(&s, x->pos, 0);
            f_costs(&s, x->costs, totals);
            break;
        case OP_CALL:
            f_name(&s, "cob=", &p->objs[fn->ob], 0);
            if (fn->fl != cur_fl) /* as libcgw: cfi= only for another file */
                f_name(&s, "cfi=", &p->files[fn->fl], 1);
            f_name(&s, "cfn=", &fnid[x->fn], 2);
            fprintf(f, "calls=%llu ", (unsigned long long)x->count);
            f_pos(&s, x->target, 1);
            fputc('\n', f);
            f_pos(&s, x->pos, 0);
            f_costs(&s, x->costs, NULL);
            break;
        }
    }
    fprintf(f, "\ntotals:");
    for (size_t e = 0; e < p->nev; e++)
        fprintf(f, " %llu", (unsigned long long)totals[e]);
    fputc('\n', f);
    free(fnid);
}

/* ------------------------------------------------------ the limit */

/* The identical bytes, copied into a buffer of the writer's size and
 * written out, as any writer must at least do. */
static void with_memcpy(const char *ref, size_t len, int fd)
{
    static char buf[BUFSZ];
    for (size_t off = 0; off < len; off += BUFSZ) {
        size_t n = len - off < BUFSZ ? len - off : BUFSZ;
        memcpy(buf, ref + off, n);
        if (write(fd, buf, n) != (ssize_t)n)
            die("write failed");
    }
}

/* ------------------------------------------------------ the floor */

/* The self-cost lines alone (the bulk of every profile), formatted into
 * memory with libcgw's own number formatting (lib/common/fmt.c is built into
 * this program) and their totals added, but with no API call, no check,
 * no name, call or function line and no write: with this formatting, no
 * writer of these lines can take less time on this machine.  Returns the
 * length of what it wrote at out. */
static size_t with_floor(const profile *p, char *out, uint64_t *totals)
{
    uint64_t base[2] = { 0, 0 };
    int base_valid = 0;
    char *q = out;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        if (x->kind == OP_FN) {
            base_valid = 0;
            continue;
        }
        if (x->kind == OP_COST) {
            for (size_t k = 0; k < p->npos; k++) {
                if (k > 0)
                    *q++ = ' ';
                if (base_valid)
                    q = cgwp_pos_step(q, x->pos[k], base[k]);
                else if (k == 0 && (p->positions & CGW_POS_INSTR))
                    q = cgwp_fmt_hex(q, x->pos[k]);
                else
                    q = cgwp_fmt_dec(q, x->pos[k]);
            }
            for (size_t e = 0; e < p->nev; e++) {
                *q++ = ' ';
                q = cgwp_fmt_dec(q, x->costs[e]);
                totals[e] += x->costs[e];
            }
            *q++ = '\n';
        }
        /* a call's source line moves the base too */
        memcpy(base, x->pos, sizeof base);
        base_valid = 1;
    }
    return (size_t)(q - out);
}

/* What the floor reads, with nothing formatted: every self-cost line's
 * positions (summed, returned) and costs (added to totals).  Its time is
 * the part of every column here that is reading the replay list. */
static uint64_t with_input(const profile *p, uint64_t *totals)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->nops; i++) {
        const op *x = &p->ops[i];
        if (x->kind != OP_COST)
            continue;
        for (size_t k = 0; k < p->npos; k++)
            sum += x->pos[k];
        for (size_t e = 0; e < p->nev; e++)
            totals[e] += x->costs[e];
    }
    return sum;
}

/* The self-cost lines of the file ref (position lines not after a
 * calls= line) and its totals: line, which the floor must reproduce;
 * the lines' length. */
static size_t cost_lines_of(const char *ref, size_t len, char *out, uint64_t *totals, size_t nev)
{
    char *q = out;
    int after_call = 0;
    for (const char *l = ref, *end = ref + len; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t n = nl ? (size_t)(nl - l) + 1 : (size_t)(end - l);
        if (*l != '\0' && strchr("0123456789+-*", *l) != NULL && !after_call) {
            memcpy(q, l, n);
            q += n;
        }
        if (strncmp(l, "totals:", 7) == 0) {
            char *v = (char *)l + 7;
            for (size_t e = 0; e < nev; e++)
                totals[e] = strtoull(v, &v, 10);
        }
        after_call = strncmp(l, "calls=", 6) == 0;
        l += n;
    }
    return (size_t)(q - out);
}

/* ------------------------------------------------------ the run */

static void rewind_fd(int fd)
{
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
        die("cannot reset the output file");
}

static void check_size(int fd, size_t want, const char *who)
{
    off_t end = lseek(fd, 0, SEEK_END);
    if (end < 0 || (size_t)end != want) {
        fprintf(stderr, "bench-writer: %s wrote %lld bytes, not %zu\n", who, (long long)end,
                want);
        exit(1);
    }
}

static int bench(profile *p, unsigned mb, int fd)
{
    load(p, mb);

    /* the reference bytes, and the fprintf writer's, must be equal */
    char *ref, *alt;
    size_t rlen, alen;
    cgw_options o = { p->positions, 0, BUFSZ, NULL };
    replay(p, cgw_open_memory(&ref, &rlen, &o), NULL, NULL);

    /* allocations into a sink that keeps nothing (a memory sink grows) */
    long line_allocs = 0;
    allocs = 0;
    o.allocator = &counting;
    char *seen = calloc(p->nfuncs, 1);
    if (seen == NULL)
        die("out of memory");
    replay(p, cgw_open_callback(discard, NULL, &o), seen, &line_allocs);
    long all_allocs = allocs;
    free(seen);
    FILE *m = open_memstream(&alt, &alen);
    if (m == NULL)
        die("open_memstream failed");
    with_fprintf(p, m);
    fclose(m);
    if (alen != rlen || memcmp(ref, alt, rlen) != 0) {
        size_t i = 0;
        while (i < rlen && i < alen && ref[i] == alt[i])
            i++;
        fprintf(stderr, "bench-writer: %s: the fprintf writer differs at byte %zu\n", p->label,
                i);
        return 1;
    }
    free(alt);

    /* the floor must make exactly the self-cost lines of the file */
    char *lines = xmalloc(rlen), *fl = xmalloc(rlen + 64);
    uint64_t want[64] = { 0 }, got[64] = { 0 };
    size_t llen = cost_lines_of(ref, rlen, lines, want, p->nev);
    if (with_floor(p, fl, got) != llen || memcmp(fl, lines, llen) != 0 ||
        memcmp(got, want, sizeof got) != 0) {
        fprintf(stderr, "bench-writer: %s: the floor makes other cost lines or totals\n",
                p->label);
        return 1;
    }
    free(lines);
    double floor_best = 1e30, input_best = 1e30;
    uint64_t first_sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        memset(got, 0, sizeof got);
        double t0 = now();
        with_floor(p, fl, got);
        double t1 = now();
        memset(got, 0, sizeof got);
        uint64_t sum = with_input(p, got);
        double t2 = now();
        if (r == 0)
            first_sum = sum;
        if (memcmp(got, want, sizeof got) != 0 || sum != first_sum) {
            fprintf(stderr, "bench-writer: %s: the input pass sums other totals\n", p->label);
            return 1;
        }
        if (t1 - t0 < floor_best)
            floor_best = t1 - t0;
        if (t2 - t1 < input_best)
            input_best = t2 - t1;
    }
    free(fl);

    double best[3] = { 1e30, 1e30, 1e30 };
    for (int r = 0; r < ROUNDS; r++) {
        double t[4];
        rewind_fd(fd);
        t[0] = now();
        with_libcgw(p, fd);
        t[1] = now();
        check_size(fd, rlen, "libcgw");

        rewind_fd(fd);
        FILE *f = fdopen(dup(fd), "w");
        if (f == NULL || setvbuf(f, NULL, _IOFBF, BUFSZ) != 0)
            die("fdopen failed");
        t[1] = now();
        with_fprintf(p, f);
        if (fclose(f) != 0)
            die("fclose failed");
        t[2] = now();
        check_size(fd, rlen, "fprintf");

        rewind_fd(fd);
        t[2] = now();
        with_memcpy(ref, rlen, fd);
        t[3] = now();
        check_size(fd, rlen, "memcpy");
        for (int k = 0; k < 3; k++)
            if (t[k + 1] - t[k] < best[k])
                best[k] = t[k + 1] - t[k];
    }
    double n = (double)p->ncost;
    printf("%-11s %9zu %6.1f", p->label, p->ncost, rlen / 1e6);
    for (int k = 0; k < 3; k++)
        printf(" %7.1f %6.0f", best[k] * 1e9 / n, rlen / best[k] / 1e6);
    printf(" %8.1fx %6.2fx %4ld/%ld %7.1f %7.1f\n", best[1] / best[0], best[0] / best[2],
           line_allocs, all_allocs, floor_best * 1e9 / n, input_best * 1e9 / n);
    free(ref);
    unload(p);
    if (line_allocs != 0)
        fprintf(stderr, "bench-writer: %s: the writer allocated inside cost lines\n", p->label);
    return line_allocs != 0;
}

int main(int argc, char **argv)
{
    unsigned mb = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 16;
    if (mb == 0)
        die("usage: bench-writer [MB]");
    char path[] = "bench-writer-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("cannot create a temporary file");
    unlink(path);

    profile ps[3] = {
        { .label = "line", .positions = CGW_POS_LINE, .npos = 1, .nev = 1 },
        { .label = "instr+line", .positions = CGW_POS_INSTR | CGW_POS_LINE, .npos = 2, .nev = 1 },
        { .label = "many-event", .positions = CGW_POS_LINE, .npos = 1, .nev = 13 },
    };
    printf("bench-writer: cggen profiles of %u MB, best of %d runs, each writer into the same "
           "file\n",
           mb, ROUNDS);
    printf("%-11s %9s %6s %7s %6s %7s %6s %7s %6s %9s %7s %8s %7s %7s\n", "profile",
           "lines", "MB", "libcgw", "MB/s", "fprintf", "MB/s", "limit", "MB/s", "vs printf",
           "vs lim", "allocs", "floor", "input");
    printf("%-11s %9s %6s %7s %6s %7s %6s %7s %6s %9s %7s %8s %7s %7s\n", "", "", "", "ns/line",
           "", "ns/line", "", "ns/line", "", "(>=20x)", "(<=3x)", "line/all", "ns/line",
           "ns/line");
    int bad = 0;
    for (int i = 0; i < 3; i++)
        bad |= bench(&ps[i], mb, fd);
    close(fd);
    return bad;
}
