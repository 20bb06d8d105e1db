/* SPDX-License-Identifier: MIT */
/* writer-callgrind.c - bench-writer on Callgrind's own files, made now
 * (callgrind.h): the two modes on the shapes users have.  Each file is
 * recoded once into memory by the writer's default mode (jumps kept), so
 * that every record is one the writer takes; that text is read into a
 * list of records; and the list is written again through
 * cgw_write_record() in the default and the compact mode, in turn, into
 * the same file, ROUNDS rounds of about 16 MB each (the file written
 * again as many times), the best of each counting.  The default
 * mode must make the recode's bytes again, the compact mode the same
 * bytes every round, and both must read back with the recode's totals. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callgrind.h"
#include "writer.h"

/* The records of one file, with their own copies of what the reader
 * hands out only until its next record; names stay the reader's. */
typedef struct records {
    cgw_reader *reader;
    char *text; /* the recode, which reader reads */
    size_t len;
    cgw_record *v;
    size_t n, cost_lines;
    uint64_t *pool; /* positions and costs */
    size_t used, pool_cap;
    cgw_part part;
    cgw_event *events;
    cgw_desc *descs;
    uint64_t totals[MAX_EV];
} records;

static const uint64_t *keep(records *rs, const uint64_t *v, size_t n)
{
    if (v == NULL)
        return NULL;
    if (rs->pool_cap - rs->used < n)
        die("more numbers than the recode's bytes");
    uint64_t *at = rs->pool + rs->used;
    memcpy(at, v, n * sizeof *v);
    rs->used += n;
    return at;
}

/* The part's header, kept (one part: Callgrind writes one by default). */
static void keep_part(records *rs, const cgw_part *p)
{
    if (p->index != 1 || p->nevents > MAX_EV)
        die("a Callgrind file of more than one part or too many events");
    rs->part = *p;
    rs->events = xmalloc((p->nevents + 1) * sizeof *rs->events);
    if (p->nevents > 0)
        memcpy(rs->events, p->events, p->nevents * sizeof *rs->events);
    rs->part.events = rs->events;
    rs->descs = xmalloc((p->ndescs + 1) * sizeof *rs->descs);
    if (p->ndescs > 0) /* descs, events may be NULL when there are none */
        memcpy(rs->descs, p->descs, p->ndescs * sizeof *rs->descs);
    rs->part.descs = rs->descs;
    rs->part.nderived = 0; /* Callgrind writes none */
    rs->part.derived = NULL;
    rs->part.summary = keep(rs, p->summary, p->nevents);
}

/* Callgrind's file at path, recoded and read into rs. */
static void load_records(records *rs, const char *path)
{
    memset(rs, 0, sizeof *rs);
    cgw_reader *in = cgw_reader_open_path(path, NULL);
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_LINE };
    const cgw_record *rec;
    if (in == NULL || cgw_reader_peek(in, &rec) != CGW_OK || rec == NULL ||
        rec->kind != CGW_REC_PART)
        die("cannot read a Callgrind file");
    o.positions = rec->part->positions;
    cgw_writer *w = cgw_open_memory(&rs->text, &rs->len, &o);
    if (w == NULL || cgw_recode(in, w, CGW_RECODE_JUMPS) != CGW_OK || cgw_close(w) != CGW_OK)
        die("cannot recode a Callgrind file");
    cgw_reader_close(in);

    rs->reader = cgw_reader_open_memory(rs->text, rs->len, NULL);
    size_t cap = 2; /* a record a line at most, and the part and its end */
    for (const char *c = rs->text, *end = c + rs->len; (c = memchr(c, '\n', (size_t)(end - c)));
         c++)
        cap++;
    rs->v = xmalloc(cap * sizeof *rs->v);
    rs->pool_cap = rs->len + 64;
    rs->pool = xmalloc(rs->pool_cap * sizeof *rs->pool);
    while (rs->reader != NULL && cgw_reader_next(rs->reader, &rec) == CGW_OK && rec != NULL) {
        if (rec->kind == CGW_REC_PART)
            keep_part(rs, rec->part);
        if (rs->n == cap)
            die("more records than the estimate");
        size_t np = rs->part.npos, ne = rs->part.nevents;
        cgw_record *x = &rs->v[rs->n++];
        *x = *rec;
        x->part = &rs->part;
        x->pos = rec->kind == CGW_REC_PART_END ? NULL : keep(rs, rec->pos, np);
        x->costs = rec->kind == CGW_REC_COST || rec->kind == CGW_REC_CALL
                       ? keep(rs, rec->costs, ne) : NULL;
        x->target_pos = rec->kind == CGW_REC_PART_END ? NULL : keep(rs, rec->target_pos, np);
        x->totals_line = x->summary = NULL;
        rs->cost_lines += rec->kind == CGW_REC_COST || rec->kind == CGW_REC_CALL;
        if (rec->kind == CGW_REC_PART_END)
            memcpy(rs->totals, rec->costs, ne * sizeof *rec->costs);
    }
    uint64_t errors = 1;
    if (rs->reader != NULL)
        cgw_reader_counts(rs->reader, &errors, NULL);
    if (errors != 0 || rs->cost_lines == 0)
        die("the recode of a Callgrind file does not read back");
}

static void free_records(records *rs)
{
    cgw_reader_close(rs->reader);
    free(rs->text);
    free(rs->v);
    free(rs->pool);
    free(rs->events);
    free(rs->descs);
}

/* The records written through w (closed here). */
static void replay_records(const records *rs, cgw_writer *w)
{
    for (size_t i = 0; w != NULL && i < rs->n; i++)
        if (cgw_write_record(w, &rs->v[i]) != CGW_OK)
            break;
    if (w == NULL || cgw_close(w) != CGW_OK)
        die("the writer refused a record of a Callgrind file");
}

static cgw_options mode(const records *rs, unsigned flags)
{
    cgw_options o = { .struct_size = sizeof o, .positions = rs->part.positions,
                      .flags = flags, .buffer_size = BUFSZ };
    return o;
}

/* text[0..len) read back: no error, and the totals of rs. */
static void reads_back(const records *rs, const char *text, size_t len)
{
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK };
    cgw_reader *r = cgw_reader_open_memory(text, len, &o);
    const cgw_record *rec;
    uint64_t errors = 1, totals[MAX_EV] = { 0 };
    while (r != NULL && cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        if (rec->kind == CGW_REC_PART_END)
            memcpy(totals, rec->costs, rs->part.nevents * sizeof *totals);
    if (r != NULL)
        cgw_reader_counts(r, &errors, NULL);
    cgw_reader_close(r);
    if (errors != 0 || memcmp(totals, rs->totals, sizeof totals) != 0)
        die("a Callgrind file's records written again read back otherwise");
}

/* The file holds exactly want[0..len). */
static void same_bytes(int fd, const char *want, size_t len)
{
    off_t end = lseek(fd, 0, SEEK_END);
    char *got = xmalloc(len + 1);
    if (end < 0 || (size_t)end != len || pread(fd, got, len, 0) != (ssize_t)len ||
        memcmp(got, want, len) != 0)
        die("a Callgrind file's records written again made other bytes");
    free(got);
}

/* One Callgrind file: its row, or 0 when it could not be made. */
static int bench_file(const char *label, int shape, int fd)
{
    const char *path = "bench-writer-callgrind.out";
    int made = cgb_make_callgrind(path, shape);
    if (made <= 0) {
        printf("Callgrind's file %s: not run: %s%s\n", label,
               made < 0 ? "valgrind failed; it needs " : "it needs ", cgb_callgrind_needs(shape));
        return 0;
    }
    records rs;
    load_records(&rs, path);
    struct stat st;
    double in_mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;
    remove(path);

    /* the references: the default mode makes the recode again */
    size_t clen;
    char *compact;
    cgw_options oc = mode(&rs, CGW_COMPACT);
    replay_records(&rs, cgw_open_memory(&compact, &clen, &oc));
    reads_back(&rs, rs.text, rs.len);
    reads_back(&rs, compact, clen);

    /* a round writes the file as many times as make 16 MB, so that a
     * small file's round is not lost in the clock's and the VM's noise */
    int reps = rs.len < 16000000 ? (int)(16000000 / rs.len) : 1;
    double best[2] = { 1e30, 1e30 }, best_wall[2] = { 1e30, 1e30 };
    for (int r = 0; r < ROUNDS; r++) {
        for (int m = 0; m < 2; m++) {
            cgw_options o = mode(&rs, m ? CGW_COMPACT : 0);
            double t = 0, tw = 0;
            for (int k = 0; k < reps; k++) {
                rewind_fd(fd);
                double c0 = cpu_now(), w0 = now();
                replay_records(&rs, cgw_open_fd(fd, &o));
                t += cpu_now() - c0;
                tw += now() - w0;
            }
            same_bytes(fd, m ? compact : rs.text, m ? clen : rs.len);
            if (t < best[m])
                best[m] = t;
            if (tw < best_wall[m])
                best_wall[m] = tw;
        }
    }
    double n = (double)rs.cost_lines * reps;
    printf("%-10s %8zu %6.1f %6.1f %6.1f %7.1f %7.1f %6.2fx %7.1f %7.1f\n", label, rs.cost_lines,
           in_mb, rs.len / 1e6, clen / 1e6, best[0] * 1e9 / n, best[1] * 1e9 / n,
           best[1] / best[0], best_wall[0] * 1e9 / n, best_wall[1] * 1e9 / n);
    free(compact);
    free_records(&rs);
    return 1;
}

void bench_callgrind(int fd)
{
    printf("\nCallgrind's own files, made now (python3 importing ten modules), recoded once "
           "and their records written again through cgw_write_record(), each mode into the "
           "same file, best of %d rounds of about 16 MB (ranked by CPU time); ns a cost or call line "
           "of CPU time (the ratio too), then of wall time\n", ROUNDS);
    printf("%-10s %8s %6s %6s %6s %7s %7s %7s %7s %7s\n", "file", "lines", "MB", "MB def",
           "MB cmp", "def cpu", "cmp cpu", "cmp/def", "def wal", "cmp wal");
    bench_file("cg-default", CGB_DEFAULT, fd);
    bench_file("cg-instr", CGB_INSTR_JUMPS, fd);
    bench_file("cg-cache", CGB_CACHE_PY, fd);
}
