/* SPDX-License-Identifier: MIT */
/* test-handles: names registered once (cgw_intern, cgw_intern_function)
 * write exactly the bytes of the string calls, in every mode and across
 * parts, mixed with them too; and every misused handle (of another
 * writer, of an earlier part, of the wrong kind, none, forged) is refused
 * with CGW_EINVAL, a message naming the call, no byte written, and the
 * error sticky. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })

/* ------------------------------------------------ the same bytes */

/* The names of part() registered once, when it writes with handles. */
typedef struct handles {
    cgw_name_id a, b, main_fn, work, put;
} handles;

/* Enter function fn: by its handle id when hd, else by the strings,
 * object and file first unless NULL (then as before). */
static void enter(cgw_writer *w, const handles *hd, cgw_name_id id, const char *obj,
                  const char *file, const char *fn)
{
    if (hd != NULL) {
        CHECK_ST(cgw_function_h(w, id), CGW_OK);
        return;
    }
    if (obj != NULL)
        CHECK_ST(cgw_object(w, obj), CGW_OK);
    if (file != NULL)
        CHECK_ST(cgw_file(w, file), CGW_OK);
    CHECK_ST(cgw_function(w, fn), CGW_OK);
}

/* A call of callee (handle id when hd, else target t) with costs c of
 * two events. */
static void call(cgw_writer *w, const handles *hd, cgw_name_id id, const cgw_target *t,
                 uint64_t count, const uint64_t *callee_pos, const uint64_t *pos,
                 const uint64_t *c)
{
    if (hd != NULL)
        CHECK_ST(cgw_call_h(w, id, count, callee_pos, pos, c, 2), CGW_OK);
    else
        CHECK_ST(cgw_call(w, t, count, callee_pos, pos, c, 2), CGW_OK);
}

/* The inlined file: handle id when hd, else the name file. */
static void inline_file(cgw_writer *w, const handles *hd, cgw_name_id id, const char *file)
{
    CHECK_ST(hd != NULL ? cgw_inline_file_h(w, id) : cgw_inline_file(w, file), CGW_OK);
}

/* One part of a profile: calls into another object and file, an inlined
 * file and back, a function without a file, a call to a function not yet
 * defined; with handles when h, else with strings; with mix, the handle
 * calls and the string calls alternate. */
static void part(cgw_writer *w, int h, int mix)
{
    uint64_t c2[2] = { 5, 0 }, c1[2] = { 3, 1 };
    handles names, *hd = NULL;
    if (h) {
        cgw_name_id ob = cgw_intern(w, CGW_NAME_OBJECT, "prog");
        cgw_name_id lib = cgw_intern(w, CGW_NAME_OBJECT, "libc.so");
        names.a = cgw_intern(w, CGW_NAME_FILE, "a.c");
        names.b = cgw_intern(w, CGW_NAME_FILE, "b.h");
        names.main_fn = cgw_intern_function(w, ob, names.a, "main");
        names.work = cgw_intern_function(w, ob, names.b, "work");
        names.put = cgw_intern_function(w, lib, CGW_NO_NAME, "puts");
        hd = &names;
    } else {
        names = (handles){ CGW_NO_NAME, CGW_NO_NAME, CGW_NO_NAME, CGW_NO_NAME, CGW_NO_NAME };
    }
    cgw_target work = { NULL, "b.h", "work" }, put = { "libc.so", "???", "puts" };
    enter(w, hd, names.main_fn, "prog", "a.c", "main");
    CHECK_ST(cgw_cost(w, P1(10), c1, 2), CGW_OK);
    call(w, hd, names.work, &work, 2, P1(40), P1(11), c2);
    inline_file(w, hd, names.b, "b.h");
    CHECK_ST(cgw_cost(w, P1(41), c2, 1), CGW_OK);
    call(w, hd, names.put, &put, 1, NULL, P1(42), c1);
    inline_file(w, hd, names.a, "a.c");
    CHECK_ST(cgw_cost(w, P1(12), c1, 2), CGW_OK);
    if (hd != NULL && mix) { /* the strings after handles */
        cgw_target t = { "prog", "b.h", "work" };
        call(w, NULL, CGW_NO_NAME, &t, 1, P1(40), P1(13), c2);
        enter(w, NULL, CGW_NO_NAME, "prog", "b.h", "work");
    } else {
        call(w, hd, names.work, &work, 1, P1(40), P1(13), c2);
        enter(w, hd, names.work, NULL, "b.h", "work");
    }
    CHECK_ST(cgw_cost(w, P1(40), c2, 2), CGW_OK);
    call(w, hd, names.put, &put, 3, NULL, P1(41), c1);
    enter(w, hd, names.put, "libc.so", "???", "puts");
    CHECK_ST(cgw_cost(w, P1(1), c1, 2), CGW_OK);
}

/* The profile, two parts, into memory. */
static char *profile(unsigned flags, int h, int mix, size_t *len)
{
    char *text;
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_LINE, .flags = flags };
    cgw_writer *w = cgw_open_memory(&text, len, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_add_event(w, "Dr", NULL), CGW_OK);
    part(w, h, mix);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    part(w, h, mix);
    CHECK_ST(cgw_close(w), CGW_OK);
    return text;
}

static void same_bytes(unsigned flags)
{
    size_t slen, hlen, mlen;
    char *s = profile(flags, 0, 0, &slen);
    char *h = profile(flags, 1, 0, &hlen);
    char *m = profile(flags, 1, 1, &mlen);
    cgwt_readback(s, slen, NULL);
    CHECK(hlen == slen && memcmp(h, s, slen) == 0);
    CHECK(mlen == slen && memcmp(m, s, slen) == 0);
    free(s);
    free(h);
    free(m);
}

/* A function of no object and of no file: CGW_NO_NAME as cgw_function()
 * with neither cgw_object() nor cgw_file() before it. */
static void no_object(void)
{
    char *text[2];
    size_t len[2];
    for (int h = 0; h < 2; h++) {
        cgw_writer *w = cgw_open_memory(&text[h], &len[h], NULL);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        if (h)
            CHECK_ST(cgw_function_h(w, cgw_intern_function(w, CGW_NO_NAME, CGW_NO_NAME, "f")),
                     CGW_OK);
        else
            CHECK_ST(cgw_function(w, "f"), CGW_OK);
        CHECK_ST(cgw_cost(w, P1(0), P1(4), 1), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
    }
    cgwt_readback(text[1], len[1], NULL);
    CHECK(len[0] == len[1] && memcmp(text[0], text[1], len[0]) == 0);
    CHECK(strstr(text[1], "fl=(1) ???\nfn=(1) f\n") != NULL);
    free(text[0]);
    free(text[1]);
}

/* Back to no object after one (handles, cgw_object(NULL), a callee's
 * CGW_NO_OBJECT): an empty ob= or cob=, read back as no object; without
 * it the reader would give the earlier object to every function after.
 * text[i]: handles (0), strings (1). */
static void object_again(void)
{
    char *text[2];
    size_t len[2];
    for (int h = 0; h < 2; h++) {
        cgw_writer *w = cgw_open_memory(&text[h], &len[h], NULL);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        cgw_name_id lib = cgw_intern(w, CGW_NAME_OBJECT, "libc.so");
        cgw_name_id fl = cgw_intern(w, CGW_NAME_FILE, "a.c");
        cgw_name_id f = cgw_intern_function(w, lib, fl, "f");
        cgw_name_id g = cgw_intern_function(w, CGW_NO_NAME, fl, "g");
        cgw_target tg = { CGW_NO_OBJECT, NULL, "g" };
        if (h) {
            CHECK_ST(cgw_function_h(w, f), CGW_OK);
            CHECK_ST(cgw_call_h(w, g, 1, P1(2), P1(1), P1(3), 1), CGW_OK);
            CHECK_ST(cgw_function_h(w, g), CGW_OK);
        } else {
            CHECK_ST(cgw_object(w, "libc.so"), CGW_OK);
            CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
            CHECK_ST(cgw_function(w, "f"), CGW_OK);
            CHECK_ST(cgw_call(w, &tg, 1, P1(2), P1(1), P1(3), 1), CGW_OK);
            CHECK_ST(cgw_object(w, NULL), CGW_OK);
            CHECK_ST(cgw_function(w, "g"), CGW_OK);
        }
        CHECK_ST(cgw_cost(w, P1(2), P1(3), 1), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        cgwt_readback(text[h], len[h], NULL);
        CHECK(strstr(text[h], "\ncob=\n") != NULL && strstr(text[h], "\nob=\n") != NULL);
        /* f in libc.so calls g in no object; g's block is in no object */
        cgw_reader *r = cgw_reader_open_memory(text[h], len[h], NULL);
        const cgw_record *rec;
        int seen = 0;
        while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL) {
            if (rec->kind == CGW_REC_FUNCTION) {
                seen++;
                if (strcmp(rec->function, "f") == 0)
                    CHECK_STR(rec->object, "libc.so");
                else
                    CHECK(rec->object == NULL);
            } else if (rec->kind == CGW_REC_CALL) {
                seen++;
                CHECK(rec->target.object == NULL);
            }
        }
        CHECK(seen == 3);
        uint64_t errors, warnings;
        cgw_reader_counts(r, &errors, &warnings);
        CHECK(errors == 0 && warnings == 0);
        cgw_reader_close(r);
    }
    CHECK(len[0] == len[1] && memcmp(text[0], text[1], len[0]) == 0);
    free(text[0]);
    free(text[1]);
}

/* --------------------------------------------------------- misuse */

static cgwt_capture cap;

static cgw_writer *open_w(void)
{
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_LINE, .buffer_size = 1 };
    cgwt_capture_free(&cap);
    cgwt_capture_init(&cap, 0, 0);
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &cap, &o);
    CHECK(w != NULL);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    return w;
}

/* The failing call's status, then: no new byte, sticky, message naming
 * the call and containing why. */
#define REFUSED(w, call, name, why) CGWT_REFUSED(cap, w, call, CGW_EINVAL, name, why)

/* A function handle of w, its block open and a cost line written. */
static cgw_name_id started(cgw_writer *w)
{
    cgw_name_id f = cgw_intern_function(w, CGW_NO_NAME, cgw_intern(w, CGW_NAME_FILE, "a.c"),
                                        "f");
    CHECK(f.bits != 0);
    CHECK_ST(cgw_function_h(w, f), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 1), CGW_OK);
    return f;
}

static void other_writer(void)
{
    cgw_writer *v = cgw_open_callback(cgwt_capture_write, &cap, NULL);
    cgw_name_id g = cgw_intern_function(v, CGW_NO_NAME, CGW_NO_NAME, "g");
    cgw_name_id file = cgw_intern(v, CGW_NAME_FILE, "b.c");
    CHECK(g.bits != 0 && file.bits != 0);
    cgw_writer *w = open_w();
    started(w);
    REFUSED(w, cgw_call_h(w, g, 1, NULL, P1(2), P1(1), 1), "cgw_call_h", "another writer");
    w = open_w();
    started(w);
    REFUSED(w, cgw_function_h(w, g), "cgw_function_h", "another writer");
    w = open_w();
    started(w);
    REFUSED(w, cgw_inline_file_h(w, file), "cgw_inline_file_h", "another writer");
    w = open_w();
    CHECK(cgw_intern_function(w, CGW_NO_NAME, file, "h").bits == 0);
    REFUSED(w, cgw_error(w) == CGW_OK ? CGW_OK : CGW_EINVAL, "cgw_intern_function",
            "another writer");
    cgw_free(v);
}

static void other_part(void)
{
    cgw_writer *w = open_w();
    cgw_name_id f = started(w);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    CHECK(cgw_intern_function(w, CGW_NO_NAME, CGW_NO_NAME, "f").bits != 0);
    REFUSED(w, cgw_function_h(w, f), "cgw_function_h", "part 1, not of this part (2)");
}

static void wrong_kind(void)
{
    cgw_writer *w = open_w();
    cgw_name_id f = started(w);
    cgw_name_id file = cgw_intern(w, CGW_NAME_FILE, "b.c");
    CHECK(file.bits != 0);
    REFUSED(w, cgw_call_h(w, file, 1, NULL, P1(2), P1(1), 1), "cgw_call_h",
            "the callee is a file, not a function");
    w = open_w();
    f = started(w);
    REFUSED(w, cgw_inline_file_h(w, f), "cgw_inline_file_h",
            "the file is a function, not a file");
    w = open_w();
    file = cgw_intern(w, CGW_NAME_FILE, "b.c");
    CHECK(cgw_intern_function(w, file, CGW_NO_NAME, "g").bits == 0);
    REFUSED(w, cgw_error(w) == CGW_OK ? CGW_OK : CGW_EINVAL, "cgw_intern_function",
            "the object is a file, not an object");
    w = open_w();
    CHECK(cgw_intern(w, (cgw_name_kind)3, "x").bits == 0);
    REFUSED(w, cgw_error(w) == CGW_OK ? CGW_OK : CGW_EINVAL, "cgw_intern",
            "kind 3 is neither");
}

static void no_name(void)
{
    cgw_writer *w = open_w();
    started(w);
    REFUSED(w, cgw_call_h(w, CGW_NO_NAME, 1, NULL, P1(2), P1(1), 1), "cgw_call_h",
            "the callee is CGW_NO_NAME");
    w = open_w();
    REFUSED(w, cgw_function_h(w, CGW_NO_NAME), "cgw_function_h",
            "the function is CGW_NO_NAME");
    /* a forged entry past the table, with the right upper half */
    w = open_w();
    cgw_name_id f = started(w);
    f.bits += 1;
    REFUSED(w, cgw_function_h(w, f), "cgw_function_h", "not a handle this writer gave");
    /* a bad name is checked as the string calls check it */
    w = open_w();
    CHECK(cgw_intern(w, CGW_NAME_OBJECT, " lead").bits == 0);
    REFUSED(w, cgw_error(w) == CGW_OK ? CGW_OK : CGW_EINVAL, "cgw_intern", "object name");
    w = open_w();
    CHECK(cgw_intern_function(w, CGW_NO_NAME, CGW_NO_NAME, "").bits == 0);
    REFUSED(w, cgw_error(w) == CGW_OK ? CGW_OK : CGW_EINVAL, "cgw_intern_function",
            "function name is empty");
    /* NULL writer */
    CHECK(cgw_intern(NULL, CGW_NAME_FILE, "a.c").bits == 0);
    CHECK(cgw_intern_function(NULL, CGW_NO_NAME, CGW_NO_NAME, "f").bits == 0);
    CHECK_ST(cgw_function_h(NULL, CGW_NO_NAME), CGW_EUSAGE);
    CHECK_ST(cgw_call_h(NULL, CGW_NO_NAME, 1, NULL, P1(1), P1(1), 1), CGW_EUSAGE);
    CHECK_ST(cgw_inline_file_h(NULL, CGW_NO_NAME), CGW_EUSAGE);
}

/* A handle refused after an earlier error returns that error. */
static void sticky_first(void)
{
    cgw_writer *w = open_w();
    cgw_name_id f = started(w);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 2), CGW_EINVAL);
    CHECK(cgw_intern(w, CGW_NAME_FILE, "b.c").bits == 0);
    CHECK_ST(cgw_function_h(w, f), CGW_EINVAL);
    CHECK(strstr(cgw_errmsg(w), "cgw_cost: ") == cgw_errmsg(w));
    cgw_free(w);
}

int main(void)
{
    same_bytes(0);
    same_bytes(CGW_COMPACT);
    same_bytes(CGW_NO_NAME_COMPRESSION);
    no_object();
    object_again();
    other_writer();
    other_part();
    wrong_kind();
    no_name();
    sticky_first();
    cgwt_capture_free(&cap);
    printf("handles write the string calls' bytes; every misused handle refused\n");
    return 0;
}
