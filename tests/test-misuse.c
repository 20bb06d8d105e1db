/* SPDX-License-Identifier: MIT */
/* test-misuse: every misuse is refused with its documented status, the
 * message names the call, nothing reaches the sink, and the error sticks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define P1(a) ((const uint64_t[]){ a })

static cgwt_capture cap;

/* A writer whose every byte reaches the capture at once. */
static cgw_writer *open_w(unsigned flags)
{
    cgw_options o = CGW_OPTIONS_INIT;
    o.buffer_size = 1;
    o.flags = flags;
    cgwt_capture_free(&cap);
    cgwt_capture_init(&cap, 0, 0);
    cgw_writer *w = cgw_open_callback(cgwt_capture_write, &cap, &o);
    CHECK(w != NULL);
    return w;
}

static cgw_writer *open_body(unsigned flags)
{
    cgw_writer *w = open_w(flags);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_add_event(w, "Dr", NULL), CGW_OK);
    CHECK_ST(cgw_object(w, "obj"), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    CHECK_ST(cgw_function(w, "f"), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 1), CGW_OK);
    return w;
}

/* The failing call's status, then: no new byte, sticky, named in msg. */
#define REFUSED(w, call, want, name) CGWT_REFUSED(cap, w, call, want, name, NULL)

static void null_writer(void)
{
    CHECK_ST(cgw_set_creator(NULL, "x"), CGW_EUSAGE);
    CHECK_ST(cgw_add_event(NULL, "Ir", NULL), CGW_EUSAGE);
    CHECK_ST(cgw_function(NULL, "f"), CGW_EUSAGE);
    CHECK_ST(cgw_cost(NULL, P1(1), P1(1), 1), CGW_EUSAGE);
    CHECK_ST(cgw_new_part(NULL), CGW_EUSAGE);
    CHECK_ST(cgw_finish(NULL), CGW_EUSAGE);
    CHECK_ST(cgw_close(NULL), CGW_EUSAGE);
    CHECK(cgw_errmsg(NULL) != NULL);
    cgw_free(NULL);
}

static void bad_open(void)
{
    cgw_options o = CGW_OPTIONS_INIT;
    char *buf;
    size_t len;
    o.positions = 8; /* past CGW_POS_LINE | CGW_POS_INSTR | CGW_POS_BB */
    errno = 0;
    CHECK(cgw_open_memory(&buf, &len, &o) == NULL && errno == EINVAL);
    o.positions = 0;
    o.flags = 1u << 20; /* no flag of cgw.h */
    CHECK(cgw_open_memory(&buf, &len, &o) == NULL && errno == EINVAL);
    o.flags = 0;
    cgw_allocator a = { NULL, NULL, NULL, NULL };
    o.allocator = &a;
    CHECK(cgw_open_memory(&buf, &len, &o) == NULL && errno == EINVAL);
    CHECK(cgw_open_memory(NULL, &len, NULL) == NULL && errno == EINVAL);
    CHECK(cgw_open_callback(NULL, NULL, NULL) == NULL && errno == EINVAL);
    CHECK(cgw_open_fd(-1, NULL) == NULL && errno == EINVAL);
    CHECK(cgw_open_path(NULL, NULL) == NULL && errno == EINVAL);
}

static void bad_names(void)
{
    static const char *bad[] = { "a\nb", "a\rb", "", " lead", "trail ", "tab\t" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cgw_writer *w = open_body(0);
        REFUSED(w, cgw_function(w, bad[i]), CGW_EINVAL, "cgw_function");
        w = open_body(0);
        REFUSED(w, cgw_file(w, bad[i]), CGW_EINVAL, "cgw_file");
        if (bad[i][0] != '\0') { /* "" is CGW_NO_OBJECT, none */
            w = open_body(0);
            REFUSED(w, cgw_object(w, bad[i]), CGW_EINVAL, "cgw_object");
        }
        w = open_body(0);
        REFUSED(w, cgw_inline_file(w, bad[i]), CGW_EINVAL, "cgw_inline_file");
        w = open_body(0);
        REFUSED(w, cgw_call(w, &(cgw_target){ NULL, NULL, bad[i] }, 1, NULL, P1(1), NULL, 0),
                CGW_EINVAL, "cgw_call");
        if (bad[i][0] == '\0')
            continue; /* an object "" is CGW_NO_OBJECT, none: object_again() */
        w = open_body(0);
        REFUSED(w, cgw_call(w, &(cgw_target){ bad[i], NULL, "g" }, 1, NULL, P1(1), NULL, 0),
                CGW_EINVAL, "cgw_call");
    }
    /* The writer remembers the pointers it was given: a buffer the
     * caller rewrites is a new name, checked again. */
    char reused[16];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cgw_writer *w = open_body(0);
        const cgw_target callee = { reused, reused, reused };
        strcpy(reused, "good");
        CHECK_ST(cgw_function(w, reused), CGW_OK);
        CHECK_ST(cgw_call(w, &callee, 1, NULL, P1(1), NULL, 0), CGW_OK);
        strcpy(reused, bad[i]);
        if (i % 2)
            REFUSED(w, cgw_function(w, reused), CGW_EINVAL, "cgw_function");
        else
            REFUSED(w, cgw_call(w, &callee, 1, NULL, P1(1), NULL, 0), CGW_EINVAL, "cgw_call");
    }
    cgw_writer *w = open_body(CGW_NO_NAME_COMPRESSION);
    REFUSED(w, cgw_function(w, "(12) looks like an ID"), CGW_EINVAL, "cgw_function");
    w = open_body(0); /* fine with compression */
    CHECK_ST(cgw_function(w, "(12) looks like an ID"), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgwt_annotate(cap.data, cap.len, NULL);
    w = open_w(0);
    REFUSED(w, cgw_set_cmd(w, "two\nlines"), CGW_EINVAL, "cgw_set_cmd");
    w = open_w(0);
    REFUSED(w, cgw_set_creator(w, NULL), CGW_EINVAL, "cgw_set_creator");
    w = open_w(0);
    REFUSED(w, cgw_add_desc(w, "a:b", "v"), CGW_EINVAL, "cgw_add_desc");
    w = open_w(0);
    REFUSED(w, cgw_add_desc(w, "type", "v\r"), CGW_EINVAL, "cgw_add_desc");
}

static void bad_events(void)
{
    static const char *bad[] = { "", "a b", "a\tb", "a:b", "a=b", "\xc3\xa9", "a\x7f" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cgw_writer *w = open_w(0);
        REFUSED(w, cgw_add_event(w, bad[i], NULL), CGW_EINVAL, "cgw_add_event");
    }
    cgw_writer *w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    REFUSED(w, cgw_add_event(w, "Ir", NULL), CGW_EINVAL, "cgw_add_event");
    w = open_w(0);
    REFUSED(w, cgw_add_event(w, "Ir", "long\nname"), CGW_EINVAL, "cgw_add_event");
    static const char *formulas[] = { "Ir +", "Nope", "Ir - Dr", "2 * ", "Ir Dr" };
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++) {
        w = open_w(0);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_add_event(w, "Dr", NULL), CGW_OK);
        REFUSED(w, cgw_add_derived_event(w, "S", formulas[i], NULL), CGW_EINVAL,
                "cgw_add_derived_event");
    }
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_add_derived_event(w, "S", "Ir", NULL), CGW_OK);
    REFUSED(w, cgw_add_event(w, "S", NULL), CGW_EINVAL, "cgw_add_event");
}

static void bad_counts(void)
{
    const uint64_t three[3] = { 1, 2, 3 };
    cgw_writer *w = open_body(0);
    REFUSED(w, cgw_cost(w, P1(1), three, 3), CGW_EINVAL, "cgw_cost");
    w = open_body(0);
    REFUSED(w, cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 1, NULL, P1(1), three, 3),
            CGW_EINVAL, "cgw_call");
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    REFUSED(w, cgw_set_summary(w, three, 2), CGW_EINVAL, "cgw_set_summary");
    w = open_body(0);
    REFUSED(w, cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 0, NULL, P1(1), P1(1), 1),
            CGW_EINVAL, "cgw_call");
    w = open_body(CGW_COMPACT); /* compact mode allows calls=0 */
    CHECK_ST(cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 0, NULL, P1(1), P1(1), 1), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    cgwt_annotate(cap.data, cap.len, NULL);
    w = open_body(CGW_ZERO_COUNTS); /* so does CGW_ZERO_COUNTS, in portable mode */
    CHECK_ST(cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 0, NULL, P1(1), P1(1), 1), CGW_OK);
    CHECK_ST(cgw_close(w), CGW_OK);
    CHECK(cap.data != NULL && strstr(cap.data, "\ncalls=0 0\n* 1 0\n") != NULL);
    cgwt_annotate(cap.data, cap.len, NULL);
    w = open_body(0);
    REFUSED(w, cgw_cost(w, NULL, P1(1), 1), CGW_EINVAL, "cgw_cost");
    w = open_body(0);
    REFUSED(w, cgw_cost(w, P1(1), NULL, 1), CGW_EINVAL, "cgw_cost");
    w = open_body(0);
    REFUSED(w, cgw_call(w, NULL, 1, NULL, P1(1), NULL, 0), CGW_EINVAL, "cgw_call");
    w = open_body(0);
    REFUSED(w, cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 1, NULL, NULL, NULL, 0),
            CGW_EINVAL, "cgw_call");
    w = open_body(0);
    REFUSED(w, cgw_cond_jump(w, &(cgw_target){ NULL, NULL, "f" }, 5, 4, NULL, P1(1)),
            CGW_EINVAL, "cgw_cond_jump");
    w = open_body(0);
    REFUSED(w, cgw_jump(w, &(cgw_target){ "other", NULL, "f" }, 1, NULL, P1(1)), CGW_EINVAL,
            "cgw_jump");
    w = open_body(0);
    REFUSED(w, cgw_jump(w, &(cgw_target){ NULL, NULL, "f" }, 0, NULL, P1(1)), CGW_EINVAL,
            "cgw_jump");
}

static void bad_order(void)
{
    cgw_writer *w = open_w(0);
    REFUSED(w, cgw_function(w, "f"), CGW_EUSAGE, "cgw_function");
    w = open_w(0);
    REFUSED(w, cgw_object(w, "o"), CGW_EUSAGE, "cgw_object");
    w = open_w(0);
    REFUSED(w, cgw_finish(w), CGW_EUSAGE, "cgw_finish");
    w = open_w(0);
    REFUSED(w, cgw_new_part(w), CGW_EUSAGE, "cgw_new_part");

    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    REFUSED(w, cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE, "cgw_cost");
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    REFUSED(w, cgw_call(w, &(cgw_target){ NULL, NULL, "g" }, 1, NULL, P1(1), NULL, 0),
            CGW_EUSAGE, "cgw_call");
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    REFUSED(w, cgw_inline_file(w, "b.h"), CGW_EUSAGE, "cgw_inline_file");
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_file(w, "a.c"), CGW_OK);
    REFUSED(w, cgw_jump(w, &(cgw_target){ NULL, NULL, "g" }, 1, NULL, P1(1)), CGW_EUSAGE,
            "cgw_jump");

    /* the file changed: cgw_function() must come before more costs */
    w = open_body(0);
    CHECK_ST(cgw_file(w, "b.c"), CGW_OK);
    REFUSED(w, cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE, "cgw_cost");
    w = open_body(0);
    CHECK_ST(cgw_object(w, "other"), CGW_OK);
    REFUSED(w, cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE, "cgw_cost");

    /* header calls once the body started */
    w = open_body(0);
    REFUSED(w, cgw_set_creator(w, "c"), CGW_EUSAGE, "cgw_set_creator");
    w = open_body(0);
    REFUSED(w, cgw_set_cmd(w, "c"), CGW_EUSAGE, "cgw_set_cmd");
    w = open_body(0);
    REFUSED(w, cgw_set_pid(w, 1), CGW_EUSAGE, "cgw_set_pid");
    w = open_body(0);
    REFUSED(w, cgw_set_thread(w, 1), CGW_EUSAGE, "cgw_set_thread");
    w = open_body(0);
    REFUSED(w, cgw_add_desc(w, "t", "v"), CGW_EUSAGE, "cgw_add_desc");
    w = open_body(0);
    REFUSED(w, cgw_add_event(w, "Late", NULL), CGW_EUSAGE, "cgw_add_event");
    w = open_body(0);
    REFUSED(w, cgw_add_derived_event(w, "S", "Ir", NULL), CGW_EUSAGE, "cgw_add_derived_event");
    /* a summary in the body only when the header had none */
    w = open_w(0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_set_summary(w, P1(1), 1), CGW_OK);
    CHECK_ST(cgw_function(w, "f"), CGW_OK);
    REFUSED(w, cgw_set_summary(w, P1(1), 1), CGW_EUSAGE, "cgw_set_summary");
    w = open_body(0);
    CHECK_ST(cgw_set_summary(w, P1(1), 1), CGW_OK);
    CHECK_ST(cgw_set_summary(w, P1(1), 1), CGW_OK); /* not written yet: replaced */
    cgw_free(w);

    /* after cgw_new_part: thread, desc and summary only */
    w = open_body(0);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    CHECK_ST(cgw_set_thread(w, 2), CGW_OK);
    CHECK_ST(cgw_set_summary(w, P1(1), 1), CGW_OK);
    CHECK_ST(cgw_add_desc(w, "t", "v"), CGW_OK);
    REFUSED(w, cgw_add_event(w, "Late", NULL), CGW_EUSAGE, "cgw_add_event");
    w = open_body(0);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    REFUSED(w, cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE, "cgw_cost"); /* no function yet */

    /* finishing twice */
    w = open_body(0);
    CHECK_ST(cgw_finish(w), CGW_OK);
    size_t before = cap.len;
    CHECK_ST(cgw_finish(w), CGW_EUSAGE);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE);
    CHECK(cap.len == before);
    CHECK(strncmp(cgw_errmsg(w), "cgw_finish: ", 12) == 0);
    cgw_free(w);
}

/* After an error the memory sink hands over nothing. */
/* What a main reader mangles is refused in the portable subset (with
 * the reader named), and written with CGW_EXTENDED. */
static void not_portable(void)
{
    static const char *mangled[] = { "\vmain", "main\f", "ma\x01in", "ma\x7fin",
                                     "bad\xc3(", "\xff" };
    for (size_t i = 0; i < sizeof mangled / sizeof *mangled; i++) {
        cgw_writer *w = open_w(0);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_function(w, "first"), CGW_OK); /* the header is out */
        REFUSED(w, cgw_function(w, mangled[i]), CGW_EINVAL, "cgw_function");
        w = open_w(CGW_EXTENDED);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_function(w, mangled[i]), CGW_OK);
        CHECK_ST(cgw_finish(w), CGW_OK);
        cgw_free(w);
    }
    cgw_writer *w = open_w(0);
    REFUSED(w, cgw_set_cmd(w, "prog --x "), CGW_EINVAL, "cgw_set_cmd");
    w = open_w(0);
    REFUSED(w, cgw_add_desc(w, "Trigger", "end\t"), CGW_EINVAL, "cgw_add_desc");
    w = open_w(0);
    CHECK_ST(cgw_set_cmd(w, "prog  --x"), CGW_OK); /* blanks inside are fine */
    cgw_free(w);

    /* KCachegrind refuses more than 200 events */
    char name[16];
    w = open_w(0);
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "E%d", i);
        CHECK_ST(cgw_add_event(w, name, NULL), CGW_OK);
    }
    REFUSED(w, cgw_add_event(w, "E200", NULL), CGW_EINVAL, "cgw_add_event");
    w = open_w(CGW_EXTENDED);
    for (int i = 0; i < 201; i++) {
        snprintf(name, sizeof name, "E%d", i);
        CHECK_ST(cgw_add_event(w, name, NULL), CGW_OK);
    }
    cgw_free(w);

    /* bb positions: KCachegrind misreads them, callgrind_annotate dies */
    cgw_options o = { .struct_size = sizeof o, .positions = CGW_POS_INSTR | CGW_POS_BB };
    errno = 0;
    CHECK(cgw_open_callback(cgwt_capture_write, &cap, &o) == NULL && errno == EINVAL);
    o.flags = CGW_EXTENDED;
    w = cgw_open_callback(cgwt_capture_write, &cap, &o);
    CHECK(w != NULL);
    cgw_free(w);
}

static void memory_after_error(void)
{
    char *buf = (char *)1;
    size_t len = 1;
    cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
    CHECK(w != NULL && buf == NULL && len == 0);
    CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
    CHECK_ST(cgw_cost(w, P1(1), P1(1), 1), CGW_EUSAGE);
    CHECK_ST(cgw_close(w), CGW_EUSAGE);
    CHECK(buf == NULL && len == 0);
}

int main(void)
{
    null_writer();
    bad_open();
    bad_names();
    bad_events();
    bad_counts();
    bad_order();
    not_portable();
    memory_after_error();
    cgwt_capture_free(&cap);
    printf("every misuse refused, nothing written, errors sticky\n");
    return 0;
}
