/* SPDX-License-Identifier: MIT */
/* test-gen: cgw_generate() (cggen) over many seeds and feature mixes:
 * the same options give the same bytes; every profile reads back with no
 * error, totals equal to its summary:, one block per function, and a
 * clean round trip; portable mixes give no warning at all; --size lands
 * near its target; callgrind_annotate agrees on the totals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct mix {
    cgw_gen_options g;
    unsigned positions, wflags;
} mix;

static char *generate(const mix *m, size_t *len)
{
    char *buf;
    cgw_options o = { .struct_size = sizeof o, .positions = m->positions, .flags = m->wflags };
    cgw_writer *w = cgw_open_memory(&buf, len, &o);
    CHECK(w != NULL);
    cgw_generate(w, &m->g);
    if (cgw_finish(w) != CGW_OK)
        cgwt_fail(__FILE__, __LINE__, "seed %llu: %s", (unsigned long long)m->g.seed,
                  cgw_errmsg(w));
    cgw_free(w);
    return buf;
}

/* Only what every reader reads: line positions, one part, no jumps, no
 * compact mode. */
static int portable(const mix *m)
{
    return m->positions == CGW_POS_LINE && m->g.parts == 1 && !(m->g.flags & CGW_GEN_JUMPS) &&
           !(m->wflags & CGW_COMPACT);
}

/* The totals of every part equal its summary, and each part has one
 * block per function. */
static void check_parts(const char *text, size_t len, const mix *m)
{
    cgw_reader *r = cgw_reader_open_memory(text, len, NULL);
    CHECK(r != NULL);
    const cgw_record *rec;
    unsigned parts = 0;
    uint64_t blocks = 0;
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_FUNCTION)
            blocks++;
        if (rec->kind != CGW_REC_PART_END)
            continue;
        parts++;
        CHECK(rec->summary != NULL);
        for (size_t i = 0; i < rec->part->nevents; i++)
            CHECK_U64(rec->costs[i], rec->summary[i]);
        CHECK_U64(rec->functions, m->g.functions);
        CHECK_U64(blocks, m->g.functions);
        CHECK(rec->costs[0] > 0);
        blocks = 0;
    }
    CHECK_STR(cgw_reader_errmsg(r), "");
    CHECK_U64(parts, m->g.parts);
    cgw_reader_close(r);
}

static void one(const mix *m, int annotate)
{
    size_t len, len2;
    char *a = generate(m, &len), *b = generate(m, &len2);
    CHECK(len == len2 && memcmp(a, b, len) == 0);
    uint64_t warnings = cgwt_readback(a, len, NULL);
    if (portable(m) && warnings != 0)
        cgwt_fail(__FILE__, __LINE__, "seed %llu: %llu warnings in a portable profile",
                  (unsigned long long)m->g.seed, (unsigned long long)warnings);
    check_parts(a, len, m);
    if (annotate && m->g.parts == 1 && m->positions == CGW_POS_LINE) {
        char path[512];
        snprintf(path, sizeof path, "%s/gen.out", cgwt_tmpdir());
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL && fwrite(a, 1, len, f) == len && fclose(f) == 0);
        cgw_reader *r = cgw_reader_open_memory(a, len, NULL);
        const cgw_record *rec;
        while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
            if (rec->kind == CGW_REC_PART_END)
                cgwt_annotate_totals(path, rec->costs, rec->part->nevents);
        cgw_reader_close(r);
        remove(path);
    }
    free(a);
    free(b);
}

static const unsigned positions[] = { CGW_POS_LINE, CGW_POS_INSTR | CGW_POS_LINE, CGW_POS_INSTR };

int main(int argc, char **argv)
{
    unsigned seeds = argc > 1 ? (unsigned)atoi(argv[1]) : 300;
    for (unsigned s = 0; s < seeds; s++) {
        mix m = { .positions = positions[s % 3] };
        m.g = (cgw_gen_options)CGW_GEN_OPTIONS_INIT;
        m.g.seed = s * 7919u + 1;
        m.g.functions = 1 + s % 97;
        m.g.files = 1 + s % 7;
        m.g.objects = 1 + s % 3;
        m.g.events = 1 + s % 13;
        m.g.calls_per_fn = s % 6;
        m.g.parts = 1 + (s / 5) % 2;
        m.g.flags = (s / 3) % 4;
        m.wflags = (s / 7) % 4 == 3 ? CGW_COMPACT : 0;
        one(&m, s % 50 == 0);
    }
    /* the defaults, and its portable variant with inline runs */
    mix d = { .positions = CGW_POS_LINE };
    d.g = (cgw_gen_options)CGW_GEN_OPTIONS_INIT;
    one(&d, 1);
    d.g.flags = CGW_GEN_INLINE;
    one(&d, 1);

    /* a target size is reached within 2 % */
    d.g.size = 2u << 20;
    size_t len;
    char *big = generate(&d, &len);
    CHECK(len > d.g.size * 98 / 100 && len < d.g.size * 102 / 100);
    CHECK_U64(cgwt_readback(big, len, NULL), 0);
    free(big);

    /* options out of range: refused, nothing committed */
    d.g.size = 0;
    d.g.events = 65;
    char *buf = (char *)1;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK_ST(cgw_generate(w, &d.g), CGW_EINVAL);
    CHECK_ST(cgw_finish(w), CGW_EINVAL);
    CHECK(buf == NULL && len == 0);
    CHECK(strstr(cgw_errmsg(w), "cgw_generate") != NULL);
    cgw_free(w);
    /* and only on a fresh writer */
    d.g = (cgw_gen_options)CGW_GEN_OPTIONS_INIT;
    w = cgw_open_memory(&buf, &len, NULL);
    cgw_add_event(w, "Ir", NULL);
    cgw_file(w, "a.c");
    CHECK_ST(cgw_generate(w, &d.g), CGW_EUSAGE);
    cgw_free(w);
    printf("%u seeds and the defaults: deterministic, valid, round trips clean\n", seeds);
    return 0;
}
