/* SPDX-License-Identifier: MIT */
/* test-stacks-parts: the stacks call as a sampling profiler uses it: one
 * cgw_stacks a thread, written into a part each (cgw_new_part(),
 * cgw_set_thread()) or folded into one (CGW_ONE_PART); stacks given leaf
 * first (CGW_STACK_LEAF_FIRST); events written in the writer's columns of
 * their names (cgw_event_column()), and refused in a later part when the
 * writer lacks them.  Every profile is read back (cgwt_write_checked:
 * no error, callgrind_annotate part by part) and its facts compared with
 * answers worked out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Thread 1: main;work;leaf 3 times, main;work 2 (Samples).
 * Thread 2: main;io 5 (Samples), and 7 Bytes through main;io.  calls=
 * counts the stacks added through a call: main -> work 2, work -> leaf
 * 1, main -> io 2 (one a event). */
static cgw_stacks *thread_stacks(int thread, unsigned flags)
{
    cgw_stacks *s = cgw_stacks_new(NULL);
    CHECK(s != NULL);
    const int leaf_first = (flags & CGW_STACK_LEAF_FIRST) != 0;
    cgw_frame f3[3] = { { NULL, "a.c", "main", NULL, 10 }, { NULL, "a.c", "work", NULL, 20 },
                        { NULL, "b.c", "leaf", NULL, 30 } };
    if (leaf_first) { /* the same stack, leaf first */
        cgw_frame t = f3[0];
        f3[0] = f3[2];
        f3[2] = t;
    }
    if (thread == 1) {
        CHECK_ST(cgw_stacks_add(s, NULL, f3, 3, 3, flags), CGW_OK);
        CHECK_ST(cgw_stacks_add(s, NULL, leaf_first ? f3 + 1 : f3, 2, 2, flags), CGW_OK);
    } else {
        cgw_frame io[2] = { { NULL, "a.c", "main", NULL, 11 }, { NULL, "c.c", "io", NULL, 40 } };
        CHECK_ST(cgw_stacks_add(s, "Samples", io, 2, 5, 0), CGW_OK);
        CHECK_ST(cgw_stacks_add(s, "Bytes", io, 2, 7, 0), CGW_OK);
    }
    return s;
}

typedef struct run {
    unsigned stack_flags;
    int two_parts; /* thread 2 after cgw_new_part() */
} run;

/* one's stacks as thread 1, then two's as thread 2 (in a part of its
 * own when two_parts), through w; both freed.  The last write's status. */
static cgw_status write_parts(cgw_writer *w, cgw_stacks *one, cgw_stacks *two, int two_parts)
{
    cgw_set_thread(w, 1);
    cgw_stacks_write(one, w);
    if (two_parts) {
        cgw_new_part(w);
        cgw_set_thread(w, 2);
    }
    cgw_status st = cgw_stacks_write(two, w);
    cgw_stacks_free(one);
    cgw_stacks_free(two);
    return st;
}

static cgw_status write_threads(void *obj, cgw_writer *w)
{
    const run *r = obj;
    cgw_stacks *one = thread_stacks(1, r->stack_flags), *two = thread_stacks(2, 0);
    cgw_add_event(w, "Samples", NULL);
    cgw_add_event(w, "Bytes", NULL);
    return write_parts(w, one, two, r->two_parts);
}

static void parts(void)
{
    /* a part a thread: thread 1's Samples in column 0, Bytes 0; thread
     * 2's Bytes in the writer's column 1, though its stacks met it second */
    run r = { 0, 1 };
    size_t len;
    char *text = cgwt_write_checked(write_threads, &r, NULL, &len);
    CHECK(strstr(text, "thread: 1\n") != NULL && strstr(text, "thread: 2\n") != NULL);
    CHECK_FACTS(text, len,
                "1|call||a.c|main||a.c|work\t 2 5 0\n"
                "1|call||a.c|work||b.c|leaf\t 1 3 0\n"
                "1|self||a.c|work\t 2 0\n"
                "1|self||b.c|leaf\t 3 0\n"
                "1|totals\t 5 0\n"
                "2|call||a.c|main||c.c|io\t 2 5 7\n"
                "2|self||c.c|io\t 5 7\n"
                "2|totals\t 5 7\n");
    /* leaf first: the same bytes */
    run leaf = { CGW_STACK_LEAF_FIRST, 1 };
    size_t len2;
    char *text2 = cgwt_write_checked(write_threads, &leaf, NULL, &len2);
    CHECK(len == len2 && memcmp(text, text2, len) == 0);
    free(text2);
    free(text);
}

static void one_part(void)
{
    /* CGW_ONE_PART: the same calls give one part, the threads summed */
    run r = { 0, 1 };
    cgw_options o = CGW_OPTIONS_INIT;
    o.flags = CGW_ONE_PART;
    size_t len;
    char *text = cgwt_write_checked(write_threads, &r, &o, &len);
    CHECK(strstr(text, "thread:") == NULL);
    CHECK(strstr(text, "part: 2") == NULL);
    CHECK_FACTS(text, len,
                "1|call||a.c|main||a.c|work\t 2 5 0\n"
                "1|call||a.c|main||c.c|io\t 2 5 7\n"
                "1|call||a.c|work||b.c|leaf\t 1 3 0\n"
                "1|self||a.c|work\t 2 0\n"
                "1|self||b.c|leaf\t 3 0\n"
                "1|self||c.c|io\t 5 7\n"
                "1|totals\t 10 7\n");
    free(text);
}

/* Thread 1 runs work of a.c; thread 2 work of a.c and work of x.c: work
 * of a.c has one name in both parts (issue 52: the second part's named
 * it "work (a.c)", and KCachegrind showed it twice), and the two works of
 * part 2 are two functions by their files. */
static cgw_status write_same_name(void *obj, cgw_writer *w)
{
    (void)obj;
    const cgw_frame mine[2] = { { NULL, "a.c", "main", NULL, 1 },
                                { NULL, "a.c", "work", NULL, 2 } };
    const cgw_frame other[2] = { { NULL, "a.c", "main", NULL, 1 },
                                 { NULL, "x.c", "work", NULL, 3 } };
    cgw_stacks *one = cgw_stacks_new(NULL), *two = cgw_stacks_new(NULL);
    CHECK_ST(cgw_stacks_add(one, NULL, mine, 2, 3, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(two, NULL, mine, 2, 2, 0), CGW_OK);
    CHECK_ST(cgw_stacks_add(two, NULL, other, 2, 1, 0), CGW_OK);
    return write_parts(w, one, two, 1);
}

static void same_name(void)
{
    size_t len;
    char *text = cgwt_write_checked(write_same_name, NULL, NULL, &len);
    CHECK_FACTS(text, len,
                "1|call||a.c|main||a.c|work\t 1 3\n"
                "1|self||a.c|work\t 3\n"
                "1|totals\t 3\n"
                "2|call||a.c|main||a.c|work\t 1 2\n"
                "2|call||a.c|main||x.c|work\t 1 1\n"
                "2|self||a.c|work\t 2\n"
                "2|self||x.c|work\t 1\n"
                "2|totals\t 3\n");
    free(text);
    /* CGW_QUALIFY_NAMES: every function with a file qualified, alike in
     * both parts */
    cgw_options o = CGW_OPTIONS_INIT;
    o.flags = CGW_QUALIFY_NAMES;
    text = cgwt_write_checked(write_same_name, NULL, &o, &len);
    CHECK_FACTS(text, len,
                "1|call||a.c|main (a.c)||a.c|work (a.c)\t 1 3\n"
                "1|self||a.c|work (a.c)\t 3\n"
                "1|totals\t 3\n"
                "2|call||a.c|main (a.c)||a.c|work (a.c)\t 1 2\n"
                "2|call||a.c|main (a.c)||x.c|work (x.c)\t 1 1\n"
                "2|self||a.c|work (a.c)\t 2\n"
                "2|self||x.c|work (x.c)\t 1\n"
                "2|totals\t 3\n");
    free(text);
}

/* Thread 1's stacks through handles registered once (*obj set) or
 * through strings. */
static cgw_status write_thread1(void *obj, cgw_writer *w)
{
    cgw_stacks *s;
    if (*(const int *)obj) {
        s = cgw_stacks_new(NULL);
        const cgw_frame f[3] = { { NULL, "a.c", "main", NULL, 0 },
                                 { NULL, "a.c", "work", NULL, 0 },
                                 { NULL, "b.c", "leaf", NULL, 0 } };
        uint64_t h[3], lines[3] = { 10, 20, 30 }, again;
        for (int i = 0; i < 3; i++)
            CHECK_ST(cgw_stacks_intern(s, &f[i], &h[i]), CGW_OK);
        CHECK_ST(cgw_stacks_intern(s, &f[1], &again), CGW_OK);
        CHECK_U64(again, h[1]);
        CHECK_ST(cgw_stacks_add_h(s, NULL, h, lines, 3, 3, 0), CGW_OK);
        uint64_t leaf_first[2] = { h[1], h[0] }, leaf_lines[2] = { 20, 10 };
        CHECK_ST(cgw_stacks_add_h(s, NULL, leaf_first, leaf_lines, 2, 2, CGW_STACK_LEAF_FIRST),
                 CGW_OK);
    } else {
        s = thread_stacks(1, 0);
    }
    cgw_status st = cgw_stacks_write(s, w);
    cgw_stacks_free(s);
    return st;
}

static void handles(void)
{
    int by_handle = 1, by_name = 0;
    size_t len, len2;
    char *text = cgwt_write_checked(write_thread1, &by_handle, NULL, &len);
    char *want = cgwt_write_checked(write_thread1, &by_name, NULL, &len2);
    CHECK(len == len2 && memcmp(text, want, len) == 0);
    free(want);
    free(text);
    /* a handle that is not one of these stacks' */
    cgw_stacks *s = cgw_stacks_new(NULL);
    uint64_t bad = 7;
    CHECK_ST(cgw_stacks_add_h(s, NULL, &bad, NULL, 1, 1, 0), CGW_EINVAL);
    CHECK(strstr(cgw_stacks_errmsg(s), "none of cgw_stacks_intern()'s") != NULL);
    cgw_stacks_free(s);
}

static void missing_event(void)
{
    /* a later part cannot add an event: the writer says which */
    cgwt_capture c;
    cgwt_capture_init(&c, 0, 0);
    cgw_writer *w = cgwt_capture_open(&c, NULL);
    cgw_stacks *two = thread_stacks(2, 0);
    /* before any event: no column (and no NULL + 0, which UBSan stops) */
    CHECK(cgw_event_column(w, "Samples") == -1);
    CHECK(cgw_event_column(w, "") == -1);
    CHECK_ST(cgw_add_event(w, "Samples", NULL), CGW_OK);
    CHECK(cgw_event_column(w, "Samples") == 0);
    CHECK(cgw_event_column(w, "Bytes") == -1);
    CHECK(cgw_event_column(w, "Sample") == -1);
    CHECK(cgw_event_column(NULL, "Samples") == -1);
    CHECK_ST(cgw_function(w, "x"), CGW_OK);
    CHECK_ST(cgw_cost(w, (uint64_t[]){ 1 }, (uint64_t[]){ 1 }, 1), CGW_OK);
    CHECK_ST(cgw_new_part(w), CGW_OK);
    CHECK_ST(cgw_stacks_write(two, w), CGW_EINVAL);
    CHECK(strstr(cgw_errmsg(w), "the writer has no event Bytes") != NULL);
    cgw_stacks_free(two);
    cgw_free(w);
    cgwt_capture_free(&c);
}

int main(void)
{
    parts();
    one_part();
    same_name();
    handles();
    missing_event();
    puts("stacks: a part a thread, one part for all, leaf first, events by name, "
         "names alike in every part");
    return 0;
}
