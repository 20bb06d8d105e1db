/* SPDX-License-Identifier: MIT */
/* test-pprof: cgw_stacks_add_pprof() on protobuf written here byte by
 * byte: sample types as events, locations as functions at their lines,
 * an inlined call in another file as fi=, calls=1 (pprof has no count),
 * the output read back (cgwt_write_checked()); and every kind of bad
 * input refused with a message that says what and where, a stack a
 * million frames deep read, a profile of empty strings refused in a
 * child limited to 256 MB of address space.  Built with libcgw-pprof
 * (protobuf-c) only. */
#ifdef HAVE_CONFIG_H
#include <config.h> /* HAVE_ZLIB: the test's own gzip */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include <cgw-pprof.h>

#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* ------------------------------------------------- a protobuf encoder */

typedef struct pb {
    unsigned char *p;
    size_t len, cap;
} pb;

static void put(pb *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        b->cap = 2 * (b->len + len) + 64;
        b->p = realloc(b->p, b->cap);
        CHECK(b->p != NULL);
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
}

static void varint(pb *b, uint64_t v)
{
    unsigned char byte;
    do {
        byte = (unsigned char)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
        put(b, &byte, 1);
        v >>= 7;
    } while (v != 0);
}

static void field(pb *b, unsigned num, uint64_t v) /* a varint field */
{
    varint(b, (uint64_t)num << 3);
    varint(b, v);
}

static void bytes(pb *b, unsigned num, const void *data, size_t len) /* length-delimited */
{
    varint(b, (uint64_t)num << 3 | 2);
    varint(b, len);
    put(b, data, len);
}

static void message(pb *b, unsigned num, pb *sub) /* sub, then released */
{
    bytes(b, num, sub->p, sub->len);
    free(sub->p);
    *sub = (pb){ NULL, 0, 0 };
}

/* A profile: its strings, two sample types (samples/count and
 * cpu/nanoseconds), functions main (a.c), work (a.c), inl (b.h), a
 * mapping /bin/prog; locations 1 (main:10), 2 (work:20), 3 (inl:5
 * inlined into work:21); then the samples given as (locations leaf
 * first, 0-terminated; two values). */
static const char *const strings[] = { "",     "samples", "count", "cpu", "nanoseconds", "main",
                                       "a.c",  "work",    "b.h",   "inl", "/bin/prog" };

typedef struct smp {
    uint64_t locs[8];
    int64_t values[2];
} smp;

static pb profile(const smp *samples, size_t n)
{
    pb b = { NULL, 0, 0 }, sub = { NULL, 0, 0 }, line = { NULL, 0, 0 };
    field(&sub, 1, 1), field(&sub, 2, 2), message(&b, 1, &sub);
    field(&sub, 1, 3), field(&sub, 2, 4), message(&b, 1, &sub);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; samples[i].locs[k] != 0; k++)
            field(&sub, 1, samples[i].locs[k]);
        field(&sub, 2, (uint64_t)samples[i].values[0]);
        field(&sub, 2, (uint64_t)samples[i].values[1]);
        message(&b, 2, &sub);
    }
    field(&sub, 1, 1), field(&sub, 5, 10), message(&b, 3, &sub);
    static const uint64_t loc_fn[][2] = { { 1, 10 }, { 2, 20 }, { 3, 5 } };
    for (uint64_t l = 1; l <= 3; l++) {
        field(&sub, 1, l), field(&sub, 2, 1);
        field(&line, 1, loc_fn[l - 1][0]), field(&line, 2, loc_fn[l - 1][1]);
        message(&sub, 4, &line);
        if (l == 3) /* inl is inlined into work, at work's line 21 */
            field(&line, 1, 2), field(&line, 2, 21), message(&sub, 4, &line);
        message(&b, 4, &sub);
    }
    static const uint64_t fn_strs[][2] = { { 5, 6 }, { 7, 6 }, { 9, 8 } };
    for (uint64_t f = 1; f <= 3; f++) {
        field(&sub, 1, f), field(&sub, 2, fn_strs[f - 1][0]), field(&sub, 4, fn_strs[f - 1][1]);
        message(&b, 5, &sub);
    }
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        bytes(&b, 6, strings[i], strlen(strings[i]));
    return b;
}

/* ------------------------------------------------------------ the tests */

static cgw_status write_stacks(void *obj, cgw_writer *w)
{
    return cgw_stacks_write(obj, w);
}

static void good(void)
{
    const smp samples[] = { { { 2, 1 }, { 3, 30 } }, { { 3, 1 }, { 2, 20 } }, { { 1 }, { 1, 10 } },
                            { { 3, 2, 1 }, { 0, 5 } } };
    pb b = profile(samples, 4);
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_pprof(s, "good", b.p, b.len), CGW_OK);
    size_t len;
    char *text = cgwt_write_checked(write_stacks, s, NULL, &len);
    cgw_stacks_free(s);
    /* within a limit of its own: 1 MiB is room, 64 bytes is not */
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_pprof_limit(s, "good", b.p, b.len, 1 << 20), CGW_OK);
    cgw_stacks_free(s);
    s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_pprof_limit(s, "good", b.p, b.len, 64), CGW_ERANGE);
    CHECK(strstr(cgw_stacks_errmsg(s), "good: too big: decoding its ") != NULL);
    CHECK(strstr(cgw_stacks_errmsg(s), "more than 64 bytes, the limit of memory for a pprof "
                                       "profile (cgw_stacks_add_pprof_limit()") != NULL);
    cgw_stacks_free(s);
    free(b.p);
    CHECK(strstr(text, "\nevents: samples cpu_nanoseconds\n") != NULL);
    CHECK(strstr(text, "\ntotals: 6 65\n") != NULL);
    CHECK(strstr(text, "ob=(1) /bin/prog\nfl=(1) a.c\nfn=(1) main\n10 1 10\n") != NULL);
    /* main calls work in three samples (the last one twice over, folded
     * as recursion: main;work;work is main;work); no call count: 1 */
    CHECK(strstr(text, "cfn=(2) work\ncalls=1 0\n* 5 55\n") != NULL);
    /* inl's code in work, at its own line (5) of its own file */
    CHECK(strstr(text, "fn=(2)\n20 3 30\nfi=(2) b.h\n-15 2 25\n") != NULL);
    CHECK(strstr(text, "calls=0") == NULL);
    free(text);
}

/* A profile the reader must refuse, with want in its message. */
static void bad(const void *data, size_t len, const char *want)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_pprof(s, "bad.pb", data, len), CGW_EINVAL);
    if (strstr(cgw_stacks_errmsg(s), want) == NULL)
        cgwt_fail(__FILE__, __LINE__, "message \"%s\", want \"%s\"", cgw_stacks_errmsg(s), want);
    CHECK_ST(cgw_stacks_add_pprof(s, "more.pb", data, len), CGW_EINVAL); /* sticky */
    cgw_stacks_free(s);
}

static void bad_inputs(void)
{
    const smp one = { { 2, 1 }, { 3, 30 } }, no_loc = { { 9, 1 }, { 1, 1 } },
              negative = { { 1 }, { -4, 1 } };
    pb b = profile(&one, 1);
    bad(b.p, b.len - 1, "bad.pb: not a pprof profile, or a truncated or damaged one");
    bad("\x0a\x05\x08", 3, "does not decode: field 1 at byte 0: 5 bytes, 1 left");
    bad("\x0e", 1, "does not decode: field 1 at byte 0: wire type 6 is not protobuf's");
    /* a Line inside a Location (profile field 4, location field 4) cut */
    bad("\x22\x04\x08\x01\x22\x05", 6, "does not decode: field 4 at byte 4: 5 bytes, 0 left");
    free(b.p);
    b = profile(&no_loc, 1);
    bad(b.p, b.len, "bad.pb: sample 1 names location 9, which the profile does not have");
    free(b.p);
    b = profile(&negative, 1);
    bad(b.p, b.len, "bad.pb: sample 1: value 1 is negative (-4)");
    free(b.p);
    pb s = { NULL, 0, 0 }, sub = { NULL, 0, 0 };
    field(&sub, 1, 99), field(&sub, 2, 0), message(&s, 1, &sub); /* type: string 99 */
    bytes(&s, 6, "", 0);
    bad(s.p, s.len, "a sample type names string 99, past the string table (1 strings)");
    free(s.p);
    s = (pb){ NULL, 0, 0 };
    bytes(&s, 6, "x", 1); /* the table must start with "" */
    bad(s.p, s.len, "the string table does not start with \"\"");
    free(s.p);
    s = (pb){ NULL, 0, 0 };
    bytes(&s, 6, "", 0);
    bad(s.p, s.len, "0 sample types (expected 1 to 64)");
    free(s.p);
}

/* A stack a million frames deep (main and work in turn, leaf first):
 * folded as recursion, read in time and memory that grow with it. */
static void deep(void)
{
    pb b = profile(NULL, 0), sub = { NULL, 0, 0 };
    for (uint64_t k = 0; k < 1000000; k++)
        field(&sub, 1, 1 + (k & 1));
    field(&sub, 2, 7), field(&sub, 2, 70);
    message(&b, 2, &sub);
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add_pprof(s, "deep", b.p, b.len), CGW_OK);
    size_t len;
    char *text = cgwt_write_checked(write_stacks, s, NULL, &len);
    CHECK(strstr(text, "\ntotals: 7 70\n") != NULL);
    free(text);
    cgw_stacks_free(s);
    free(b.p);
}

static int collect(void *ctx, const char *buf, size_t len)
{
    put(ctx, buf, len);
    return 0;
}

/* A call tree to pprof and back: exact, the same self costs and calls,
 * for every event or the one asked for. */
static void to_pprof(void)
{
    static const char tree[] = "events: Ir Dr\nfl=m.c\nfn=main\n1 1 1\ncfn=a\ncalls=4 9\n"
                               "2 10 2\ncfn=b\ncalls=1 7\n3 5 3\nfn=a\n9 10 2\nfn=b\n7 5 3\n";
    for (int dr = 0; dr < 2; dr++) {
        cgw_reader *r = cgw_reader_open_memory(tree, sizeof tree - 1, NULL);
        pb b = { NULL, 0, 0 };
        char msg[256];
        CHECK_ST(cgw_write_pprof(r, dr ? "Dr" : NULL, collect, &b, msg, sizeof msg), CGW_OK);
        cgw_reader_close(r);
        cgw_stacks *s = cgw_stacks_new(NULL);
        CHECK_ST(cgw_stacks_add_pprof(s, "back", b.p, b.len), CGW_OK);
        free(b.p);
        size_t len;
        char *text = cgwt_write_checked(write_stacks, s, NULL, &len);
        cgw_stacks_free(s);
        CHECK(strstr(text, dr ? "\nevents: Dr\n" : "\nevents: Ir Dr\n") != NULL);
        CHECK(strstr(text, dr ? "\ntotals: 6\n" : "\ntotals: 16 6\n") != NULL);
        CHECK(strstr(text, dr ? "fn=(1) main\n0 1\n" : "fn=(1) main\n0 1 1\n") != NULL);
        CHECK(strstr(text, dr ? "cfn=(2) a\ncalls=1 0\n* 2\n" : "cfn=(2) a\ncalls=1 0\n* 10 2\n") !=
              NULL);
        CHECK(strstr(text, dr ? "fn=(3)\n0 3\n" : "fn=(3)\n0 5 3\n") != NULL);
        free(text);
    }
    cgw_reader *r = cgw_reader_open_memory(tree, sizeof tree - 1, NULL);
    char msg[256];
    CHECK_ST(cgw_write_pprof(r, "Bc", collect, NULL, msg, sizeof msg), CGW_EINVAL);
    CHECK(strstr(msg, "cgw_write_pprof: the profile has no event Bc") != NULL);
    cgw_reader_close(r);
}

/* --------------------------------------- a profile of empty strings */

#define HOSTILE_BYTES ((size_t)8 << 20)

#ifdef HAVE_ZLIB
/* in[0..len) gzip-compressed, into *out. */
static size_t gzip(const unsigned char *in, size_t len, unsigned char **out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    size_t cap = deflateBound(&z, (uLong)len);
    *out = malloc(cap);
    CHECK(*out != NULL);
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return n;
}
#endif

/* data[0..len) refused as too big with want in the message: 1, or 0
 * after printing what came instead. */
static int refused_as(const char *name, const void *data, size_t len, const char *want)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK(s != NULL);
    cgw_status st = cgw_stacks_add_pprof(s, name, data, len);
    int ok = st == CGW_EINVAL && strstr(cgw_stacks_errmsg(s), want) != NULL;
    if (!ok)
        printf("%s: status %d, message \"%s\", want \"%s\"\n", name, (int)st,
               cgw_stacks_errmsg(s), want);
    cgw_stacks_free(s);
    return ok;
}

/* Whether valgrind runs the test (make check-valgrind): its own memory
 * takes more than the address-space limit, and memcheck ends a forked
 * child with the parent's heap reachable with its error status. */
static int under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload != NULL && strstr(preload, "vgpreload") != NULL;
}

/* In a child (under 256 MB of address space unless ASan, which reserves
 * terabytes, built it): data[0..len) refused as too big with want in
 * the message, not killed, not out of memory.  Under valgrind, here,
 * without the limit. */
static void refused_in_child(const char *name, const void *data, size_t len, const char *want)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (under_valgrind()) {
        CHECK(refused_as(name, data, len, want));
        printf("%s: refused (under valgrind: in the test's process, no address-space "
               "limit)\n", name);
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
#ifndef UNDER_ASAN
        struct rlimit lim = { (rlim_t)256 << 20, (rlim_t)256 << 20 };
        CHECK(setrlimit(RLIMIT_AS, &lim) == 0);
#endif
        int ok = refused_as(name, data, len, want);
        fflush(stdout);
        _exit(ok ? 0 : 1);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (WIFSIGNALED(status))
        cgwt_fail(__FILE__, __LINE__, "%s: the child was killed by signal %d", name,
                  WTERMSIG(status));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s: refused in %.2f s\n", name,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* A string table of 4 Mi empty strings: 8 MiB that protobuf-c would
 * make 290 MB of (a pointer, a block and a scanned field each); refused
 * at 16 bytes a byte and 16 MiB, raw and gzip-compressed (8 KB). */
static void empty_strings(void)
{
#ifdef UNDER_ASAN
    printf("empty strings: an ASan build: checked without the 256 MB RLIMIT_AS\n");
#endif
    unsigned char *raw = malloc(HOSTILE_BYTES);
    CHECK(raw != NULL);
    for (size_t i = 0; i < HOSTILE_BYTES; i += 2)
        raw[i] = 6 << 3 | 2, raw[i + 1] = 0; /* string_table: "" */
    static const char want[] = ": too big: decoding its 8388608 bytes of protobuf would take "
                               "more than 144 MiB of memory (the limit: 16 bytes a byte and "
                               "16 MiB)";
    refused_in_child("empty.pb", raw, HOSTILE_BYTES, want);
#ifdef HAVE_ZLIB
    unsigned char *gz;
    size_t len = gzip(raw, HOSTILE_BYTES, &gz);
    CHECK(len < 65536);
    refused_in_child("empty.pb.gz", gz, len, want);
    free(gz);
#else
    printf("empty strings: no zlib: only the raw protobuf\n");
#endif
    free(raw);
}

/* Built with libcgw-pprof only: with protobuf-c. */
int main(void)
{
    empty_strings();
    good();
    bad_inputs();
    deep();
    to_pprof();
    printf("test-pprof: pprof protobuf read, bad ones refused\n");
    return 0;
}
