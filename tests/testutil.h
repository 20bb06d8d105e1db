/* SPDX-License-Identifier: MIT */
/* testutil.h - helpers shared by the test programs: checks that exit on
 * failure, a counting and failing allocator, a capturing and failing
 * sink, and the callgrind_annotate cross-check. */
#ifndef CGW_TESTUTIL_H
#define CGW_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <cgw.h>

#define CHECK(cond) \
    ((cond) ? (void)0 : cgwt_fail(__FILE__, __LINE__, "check failed: %s", #cond))
#define CHECK_ST(got, want) cgwt_check_status(__FILE__, __LINE__, #got, (got), (want))
#define CHECK_U64(got, want) cgwt_check_u64(__FILE__, __LINE__, #got, (got), (want))
#define CHECK_STR(got, want) cgwt_check_str(__FILE__, __LINE__, #got, (got), (want))

void cgwt_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void cgwt_check_status(const char *file, int line, const char *expr, cgw_status got,
                       cgw_status want);
void cgwt_check_u64(const char *file, int line, const char *expr, uint64_t got,
                    uint64_t want);
void cgwt_check_str(const char *file, int line, const char *expr, const char *got,
                    const char *want);

/* Files. */
char *cgwt_read_file(const char *path, size_t *len);
char *cgwt_data_path(const char *name); /* in $CGW_TEST_DATA; static buffer */
/* n divided by $CGW_TEST_SCALE (at least 1): make check-valgrind sets it,
 * so that the tests of sizes (a million frames, IDs, lines) take the same
 * paths with fewer of them under memcheck. */
size_t cgwt_scaled(size_t n);
const char *cgwt_tmpdir(void);          /* a fresh folder for this test */

/* For a read callback that serves an input in pieces: copy the next n
 * bytes of data[0..len) from *off (fewer at its end, at most cap) into
 * buf and move *off past them.  The count copied, 0 at the end. */
long cgwt_serve(const char *data, size_t len, size_t *off, char *buf, size_t cap, size_t n);
/* An allocator that counts live blocks and fails call number fail_at
 * (1-based; 0 never fails). */
typedef struct cgwt_alloc {
    long calls, fail_at, live;
    cgw_allocator a;
} cgwt_alloc;
void cgwt_alloc_init(cgwt_alloc *t, long fail_at);
/* attempt(allocator, ctx) run with allocation 1, 2, 3... of the allocator
 * failing, until a run succeeds: each must return OK or ENOMEM and free
 * all it took. */
typedef cgw_status (*cgwt_attempt_fn)(const cgw_allocator *alloc, void *ctx);
void cgwt_each_alloc_fail(cgwt_attempt_fn attempt, void *ctx);

/* A callback sink that captures bytes and fails write number fail_at
 * (1-based; 0 never) with fail_errno, or writes partial output first. */
typedef struct cgwt_capture {
    char *data;
    size_t len, cap;
    long calls, fail_at;
    int fail_errno;
} cgwt_capture;
void cgwt_capture_init(cgwt_capture *c, long fail_at, int fail_errno);
int cgwt_capture_write(void *ctx, const char *buf, size_t len);
void cgwt_capture_free(cgwt_capture *c);
/* A writer (opts may be NULL) whose bytes go to c, made fresh. */
cgw_writer *cgwt_capture_open(cgwt_capture *c, const cgw_options *opts);
/* Append text[0..len) (or the C string s) to c, as a write would. */
void cgwt_capture_add(cgwt_capture *c, const char *text, size_t len);
void cgwt_capture_str(cgwt_capture *c, const char *s);
/* Read fd to its end into c, pausing pause_ns nanoseconds between reads
 * (a slow reader at the other end of a pipe); EINTR is retried. */
void cgwt_drain(int fd, cgwt_capture *c, long pause_ns);
/* A writer call into c refused with status want: not a byte written, the
 * error sticky (a cost line and cgw_finish() get it too), the message
 * naming the call ("name: ...") and containing why (unless why is NULL).
 * Frees w. */
#define CGWT_REFUSED(c, w, call, want, name, why)                                        \
    do {                                                                                 \
        size_t before_ = (c).len;                                                        \
        CHECK_ST(call, want);                                                            \
        cgwt_refused(__FILE__, __LINE__, w, &(c), before_, want, name, why);             \
    } while (0)
void cgwt_refused(const char *file, int line, cgw_writer *w, const cgwt_capture *c,
                  size_t before, cgw_status want, const char *name, const char *why);

/* A growing list of copied strings; lines may be sorted in place. */
typedef struct cgwt_lines {
    char **lines;
    size_t n, cap;
} cgwt_lines;
void cgwt_lines_add(cgwt_lines *l, const char *s);
void cgwt_lines_sort(cgwt_lines *l);
/* The lines sorted and joined by sep, as a string to free(); l is freed. */
char *cgwt_lines_join(cgwt_lines *l, const char *sep);

/* What a test wrote, per callgrind_annotate key ("file:function"). */
#define CGWT_MAX_EV 8
#define CGWT_MAX_FN 256
typedef struct cgwt_model {
    size_t nev;
    uint64_t totals[CGWT_MAX_EV];
    size_t nfn;
    char *keys[CGWT_MAX_FN];
    uint64_t self[CGWT_MAX_FN][CGWT_MAX_EV];
    char obj[512], file[512], fn[512], inl[512];
} cgwt_model;

void cgwt_model_init(cgwt_model *m, size_t nev);
void cgwt_model_free(cgwt_model *m);
/* Writer calls that also record what callgrind_annotate must report. */
cgw_status cgwt_object(cgw_writer *w, cgwt_model *m, const char *obj);
cgw_status cgwt_file(cgw_writer *w, cgwt_model *m, const char *file);
cgw_status cgwt_function(cgw_writer *w, cgwt_model *m, const char *fn);
cgw_status cgwt_inline(cgw_writer *w, cgwt_model *m, const char *file);
cgw_status cgwt_cost(cgw_writer *w, cgwt_model *m, const uint64_t *pos,
                     const uint64_t *c, size_t n);

/* Run callgrind_annotate on the profile text: its PROGRAM TOTALS and every
 * function's self cost must equal the model.  Prints a note and returns
 * when callgrind_annotate is not installed. */
void cgwt_annotate(const char *text, size_t len, const cgwt_model *m);

/* cgwt_annotate() with a model of nev events: totals[0..nev), and for
 * each of the nfn keys ("file:function") its self costs
 * self[i * nev .. i * nev + nev). */
void cgwt_annotate_expect(const char *text, size_t len, size_t nev, const uint64_t *totals,
                          size_t nfn, const char *const *keys, const uint64_t *self);

/* Run callgrind_annotate on the file at path: its PROGRAM TOTALS must be
 * want[0..n).  Prints a note and returns when it is not installed. */
void cgwt_annotate_totals(const char *path, const uint64_t *want, size_t n);

/* Read all of text (a string literal for CGWT_EXPECT) with
 * CGW_READ_CHECK: the diagnostic code must come at line at with that
 * severity, and an error must be counted. */
void cgwt_expect(const char *file, int line, const char *text, size_t len, const char *code,
                 uint64_t at, cgw_severity severity);
#define CGWT_EXPECT(text, code, at, severity) \
    cgwt_expect(__FILE__, __LINE__, text, sizeof text - 1, code, at, severity)
/* One input, several warnings: CGWT_WARNINGS(text, { "code", line }, ...). */
typedef struct cgwt_warning {
    const char *code;
    uint64_t line;
} cgwt_warning;
void cgwt_expect_warnings(const char *file, int line, const char *text, size_t len,
                          const cgwt_warning *want, size_t n);
#define CGWT_WARNINGS(text, ...)                                                          \
    cgwt_expect_warnings(__FILE__, __LINE__, text, sizeof text - 1,                       \
                         (const cgwt_warning[]){ __VA_ARGS__ },                           \
                         sizeof((const cgwt_warning[]){ __VA_ARGS__ }) / sizeof(cgwt_warning))

/* Read a profile back through the reader (with CGW_READ_CHECK): no error,
 * every part's totals: equal to its cost lines (and the first part's to
 * m's totals when m is not NULL), and cgw_roundtrip() finds no
 * difference.  Returns the number of portability warnings (not
 * flame-total, which is about the call graph written, not the writing). */
uint64_t cgwt_readback(const char *text, size_t len, const cgwt_model *m);

/* A profile that write(obj, w) writes into memory through a writer with
 * opts (NULL: the defaults): the test fails with the writer's message
 * unless all goes well; then read back (cgwt_readback) and given to
 * callgrind_annotate, part by part.  The bytes, to free(); *len. */
typedef cgw_status (*cgwt_write_fn)(void *obj, cgw_writer *w);
char *cgwt_write_checked(cgwt_write_fn write, void *obj, const cgw_options *opts, size_t *len);
/* write(obj, w) through a callback writer into a capture, then closed:
 * the status (cgw_close() must agree), with some bytes written when OK.
 * For runs that may fail (cgwt_each_alloc_fail). */
cgw_status cgwt_write_captured(cgwt_write_fn write, void *obj);

/* cgw_recode() the file at path into memory (writer positions and
 * flags): the output's part totals, functions' self costs and call
 * edges (count, inclusive cost) must equal the input's (a calls=0 with
 * cost counting as 1 without CGW_COMPACT, as cgw_recode() writes it).  Returns the
 * output (malloc'd) and its length. */
char *cgwt_recode_check(const char *path, unsigned positions, unsigned wflags, size_t *len);

/* What a profile says, as sorted text: a line "PART|totals\t C..." per
 * part, "PART|self|OBJECT|FILE|FUNCTION\t C..." per function and
 * "PART|call|CALLER...|CALLEE...\t COUNT C..." per call edge, each summed
 * (PART 0 for all with sum_parts).  malloc'd. */
char *cgwt_facts(const char *text, size_t len, int sum_parts);
/* The facts of text, parts apart, must be want. */
#define CHECK_FACTS(text, len, want) cgwt_check_facts(__FILE__, __LINE__, text, len, want)
void cgwt_check_facts(const char *file, int line, const char *text, size_t len,
                      const char *want);
/* Facts texts (of several profiles, one after another) summed by key. */
char *cgwt_facts_sum(const char *text);

/* Hash flooding (flood.c).  cgwt_old_hash() is the reader's hash before
 * issue 26 (seed 0); cgwt_flood_next() writes the next name of 16 bytes
 * (from *counter, which it advances) that has the same cgwt_old_hash()
 * as every other; cgwt_old_id_unmix() inverts the former key of an ID,
 * so that IDs sharing the low bits of their keys can be made. */
uint64_t cgwt_old_hash(const char *str, size_t len);
void cgwt_flood_next(uint64_t *counter, char out[17]);
uint64_t cgwt_old_id_unmix(uint64_t key);

/* lib/tools' hash index before it was keyed: cgwt_old_tools_slot() is
 * the 32 bits of a name's FNV-1a that it kept and probed from;
 * cgwt_tools_flood_next() writes the next name of 12 bytes (from
 * *counter, which it advances) that, when collide, starts its probe in
 * the first CGWT_TOOLS_WINDOW slots of every table of up to
 * 2^CGWT_TOOLS_BITS slots (any name when not). */
#define CGWT_TOOLS_BITS 17
#define CGWT_TOOLS_WINDOW 2048
uint32_t cgwt_old_tools_slot(const char *str, size_t len);
void cgwt_tools_flood_next(uint64_t *counter, char out[13], int collide);

#endif

/* Scenarios (scenarios.c): fixed sequences of writer calls that the sink,
 * fault-injection and golden tests replay. */
typedef struct cgwt_scenario {
    const char *name;
    unsigned positions, flags;
    void (*run)(cgw_writer *w, cgwt_model *m);
    size_t nev;
    int parts; /* more than one part: callgrind_annotate cannot read it */
    int portable; /* only portable features: no warning from the reader */
} cgwt_scenario;
extern const cgwt_scenario cgwt_scenarios[];
extern const size_t cgwt_nscenarios;
const cgwt_scenario *cgwt_scenario_named(const char *name);

/* Options for a scenario; buffer_size and allocator may be 0/NULL. */
cgw_options cgwt_options(const cgwt_scenario *s, size_t buffer_size, const cgw_allocator *a);
/* Run a scenario into memory and return the bytes (malloc'd); the model
 * (may be NULL) records what was written.  Fails the test on error. */
char *cgwt_run_memory(const cgwt_scenario *s, size_t buffer_size, cgwt_model *m, size_t *len);
/* Check every part of a profile with callgrind_annotate (which reads one
 * part at a time): each part's PROGRAM TOTALS must equal its totals:. */
void cgwt_annotate_parts(const char *text, size_t len);
