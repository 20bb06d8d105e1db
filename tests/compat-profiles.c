/* SPDX-License-Identifier: MIT */
/* compat-profiles DIR: one profile for each writer feature and option,
 * each on top of the same small program (two events, four functions in
 * two files, calls within and across files, a recursive call), into
 * DIR/NAME.out; test-compat.sh reads every one with every reference
 * reader.  Prints each NAME, a short description and the totals written
 * (summed over parts), tab-separated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cgw.h>

#define P(...) ((const uint64_t[]){ __VA_ARGS__ })

typedef struct feature {
    const char *name, *what;
    unsigned positions, flags;
    int events;  /* 1: long names, 2: a derived event too */
    int inlined; /* fi=/fe= runs */
    int jumps;   /* jump=, jcnd=, and a jump into another function */
    int parts;
} feature;

static const feature features[] = {
    { "default", "the portable default: line positions, names compressed", 0, 0, 0, 0, 0, 1 },
    { "instr-line", "positions: instr line", CGW_POS_INSTR | CGW_POS_LINE, 0, 0, 0, 0, 1 },
    { "instr", "positions: instr", CGW_POS_INSTR, 0, 0, 0, 0, 1 },
    { "bb", "positions: instr bb line (CGW_EXTENDED)", CGW_POS_INSTR | CGW_POS_BB | CGW_POS_LINE,
      CGW_EXTENDED, 0, 0, 0, 1 },
    { "long-events", "event: lines with long names", 0, 0, 1, 0, 0, 1 },
    { "derived-events", "a derived event (event: X = formula)", 0, 0, 2, 0, 0, 1 },
    { "inline", "inlined files (fi= and fe=)", 0, 0, 0, 1, 0, 1 },
    { "jumps", "jump= and jcnd=, one into another function", CGW_POS_INSTR | CGW_POS_LINE, 0, 0,
      0, 1, 1 },
    { "parts", "three parts (cgw_new_part)", 0, 0, 0, 0, 0, 3 },
    { "compact", "CGW_COMPACT", 0, CGW_COMPACT, 0, 0, 0, 1 },
    { "no-name-compression", "CGW_NO_NAME_COMPRESSION", 0, CGW_NO_NAME_COMPRESSION, 0, 0, 0, 1 },
    { "no-pos-compression", "CGW_NO_POS_COMPRESSION", 0, CGW_NO_POS_COMPRESSION, 0, 0, 0, 1 },
};

/* The positions of a line in the feature's positions: an address of
 * 0x1000 + 4 * line where the instruction is written. */
static const uint64_t *at(const feature *f, uint64_t line, uint64_t pos[3])
{
    size_t n = 0;
    if (f->positions & CGW_POS_INSTR)
        pos[n++] = 0x1000 + 4 * line;
    if (f->positions & CGW_POS_BB)
        pos[n++] = 0x1000 + 4 * (line & ~(uint64_t)3);
    if (f->positions == 0 || (f->positions & CGW_POS_LINE))
        pos[n++] = line;
    return pos;
}

static void header(cgw_writer *w, const feature *f, unsigned part)
{
    if (part == 1) {
        cgw_set_cmd(w, "./compat");
        cgw_set_pid(w, 321);
        cgw_add_event(w, "Ir", f->events ? "Instruction Fetches" : NULL);
        cgw_add_event(w, "Dr", f->events ? "Data Reads" : NULL);
        if (f->events == 2)
            cgw_add_derived_event(w, "Sum", "Ir + 2 Dr", "Weighted");
    }
    if (f->parts > 1)
        cgw_set_thread(w, part);
}

/* main (main.c) -> work x2 (main.c) -> leaf x6 (util.c); work -> work
 * once (recursion); leaf has costs in inline.h when inlined. */
static void body(cgw_writer *w, const feature *f, uint64_t k)
{
    uint64_t pos[3], tpos[3];
    const cgw_target work = { NULL, NULL, "work" }, leaf = { NULL, "util.c", "leaf" };
    cgw_object(w, "/usr/bin/compat");
    cgw_file(w, "main.c");
    cgw_function(w, "main");
    cgw_cost(w, at(f, 10, pos), P(5 * k, 2), 2);
    cgw_call(w, &work, 2, at(f, 20, tpos), at(f, 11, pos), P(360 * k, 54), 2);
    cgw_cost(w, at(f, 12, pos), P(3, 0), 2); /* a zero: compact mode drops it */
    cgw_function(w, "work");
    cgw_cost(w, at(f, 20, pos), P(40 * k, 9), 2);
    if (f->jumps) {
        cgw_cond_jump(w, &work, 1, 2, at(f, 20, tpos), at(f, 21, pos));
        cgw_jump(w, &leaf, 1, at(f, 30, tpos), at(f, 22, pos));
    }
    cgw_call(w, &leaf, 6, at(f, 30, tpos), at(f, 23, pos), P(300 * k, 42), 2);
    cgw_call(w, &work, 1, at(f, 20, tpos), at(f, 24, pos), P(20 * k, 3), 2);
    cgw_cost(w, at(f, 25, pos), P(20 * k, 3), 2);
    cgw_file(w, "util.c");
    cgw_function(w, "leaf");
    cgw_cost(w, at(f, 30, pos), P(200 * k, 30), 2);
    if (f->inlined) {
        cgw_inline_file(w, "inline.h");
        cgw_cost(w, at(f, 5, pos), P(100 * k, 12), 2);
        cgw_inline_file(w, "util.c");
    } else {
        cgw_cost(w, at(f, 31, pos), P(100 * k, 12), 2);
    }
}

static int write_one(const char *dir, const feature *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.out", dir, f->name);
    cgw_options o = { .struct_size = sizeof o, .positions = f->positions, .flags = f->flags };
    cgw_writer *w = cgw_open_path(path, &o);
    if (w == NULL) {
        perror(path);
        return -1;
    }
    for (unsigned part = 1; part <= (unsigned)f->parts; part++) {
        if (part > 1)
            cgw_new_part(w);
        header(w, f, part);
        body(w, f, part);
    }
    if (cgw_close(w) != CGW_OK) {
        fprintf(stderr, "compat-profiles: %s: %s\n", f->name, "writing failed");
        return -1;
    }
    /* each part k: Ir 5k + 3 + 60k + 300k, Dr 2 + 12 + 42 */
    uint64_t ir = 0, dr = 0;
    for (uint64_t k = 1; k <= (uint64_t)f->parts; k++) {
        ir += 365 * k + 3;
        dr += 56;
    }
    printf("%s\t%s\t%llu,%llu\n", f->name, f->what, (unsigned long long)ir,
           (unsigned long long)dr);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: compat-profiles DIR\n", stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        if (write_one(argv[1], &features[i]) < 0)
            return 1;
    return 0;
}
