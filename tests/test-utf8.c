/* SPDX-License-Identifier: MIT */
/* test-utf8: cgw_utf8_char(), the one UTF-8 decoder, and the places
 * that use it (cgverify --json has its own test): the writer refuses a name that is not UTF-8, the reader
 * warns of one, cgw_stacks_add_folded() says where its bad byte is. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const struct {
    const char *text;
    size_t span; /* SIZE_MAX: all of it */
} cases[] = {
    { "", SIZE_MAX },
    { "plain ascii", SIZE_MAX },
    { "d\xc3\xa9j\xc3\xa0 vu", SIZE_MAX },
    { "\xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf", SIZE_MAX },
    { "\xed\x9f\xbf", SIZE_MAX },            /* U+D7FF, below the surrogates */
    { "ab\xff", 2 },                         /* no lead byte */
    { "ab\x80", 2 },                         /* a lone continuation */
    { "a\xc3", 1 },                          /* cut at the end */
    { "a\xc3(b", 1 },                        /* cut by ASCII */
    { "x\xc0\xaf", 1 },                      /* overlong 2 bytes */
    { "x\xe0\x80\xaf", 1 },                  /* overlong 3 bytes */
    { "x\xf0\x80\x80\xaf", 1 },              /* overlong 4 bytes */
    { "\xc3\xa9\xed\xa0\x80", 2 },           /* a surrogate, U+D800 */
    { "\xf4\x90\x80\x80", 0 },               /* U+110000 */
    { "\xf5\x80\x80\x80", 0 },               /* no such lead byte */
    { "\xe2\x82", 0 },                       /* cut */
};

/* How many bytes at the start of text[0..len) are whole characters. */
static size_t span(const char *text, size_t len)
{
    size_t at = 0, step;
    while (at < len && (step = cgw_utf8_char(text + at, len - at, NULL)) > 0)
        at += step;
    return at;
}

static void spans(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = strlen(cases[i].text);
        size_t want = cases[i].span == SIZE_MAX ? len : cases[i].span;
        CHECK_U64(span(cases[i].text, len), want);
        /* a shorter length never takes more */
        CHECK(span(cases[i].text, len / 2) <= len / 2);
    }
    printf("span: %zu cases\n", sizeof cases / sizeof *cases);
}

/* What a bad sequence's maximal subpart is: cut, the bytes that start a
 * character which stops early; 0 for a byte that starts none. */
static void cuts(void)
{
    static const struct {
        const char *text;
        size_t len, cut;
    } bad[] = {
        { "\xc3", 1, 1 },              /* the text ends */
        { "\xe2\x82", 2, 2 },
        { "\xf0\x9f\x98", 3, 3 },
        { "\xe2(", 2, 1 },             /* the next byte continues none */
        { "\xf0\x9f\x98(", 4, 3 },
        { "\x80", 1, 0 },              /* a lone continuation */
        { "\xc0\xaf", 2, 0 },          /* overlong */
        { "\xe0\x80\xaf", 3, 0 },
        { "\xed\xa0\x80", 3, 0 },      /* a surrogate */
        { "\xf4\x90\x80\x80", 4, 0 },  /* past U+10FFFF */
        { "\xff", 1, 0 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t cut = 99;
        CHECK_U64(cgw_utf8_char(bad[i].text, bad[i].len, &cut), 0);
        CHECK_U64(cut, bad[i].cut);
    }
    size_t cut = 99;
    CHECK_U64(cgw_utf8_char("\xf0\x9f\x98\x80", 4, &cut), 4);
    CHECK_U64(cut, 0);
    CHECK_U64(cgw_utf8_char("a", 1, NULL), 1);
    CHECK_U64(cgw_utf8_char(NULL, 0, &cut), 0);
    CHECK_U64(cgw_utf8_char("\xc3\xa9", 1, NULL), 0); /* the length bounds a character */
    printf("cut: %zu maximal subparts\n", sizeof bad / sizeof *bad);
}

/* Counts the reader's invalid-utf8 warnings and its errors. */
typedef struct seen {
    uint64_t invalid, errors;
} seen;

static void on_diag(void *ctx, const cgw_diagnostic *d)
{
    seen *counts = ctx;
    counts->invalid += strcmp(d->code, "invalid-utf8") == 0;
    counts->errors += d->severity == CGW_ERROR;
}

static seen read_back(const char *buf, size_t len)
{
    seen counts = { 0, 0 };
    cgw_read_options o = { .struct_size = sizeof o, .flags = CGW_READ_CHECK, .diag = on_diag,
                           .diag_ctx = &counts };
    cgw_reader *r = cgw_reader_open_memory(buf, len, &o);
    const cgw_record *rec;
    CHECK(r != NULL);
    while (cgw_reader_next(r, &rec) == CGW_OK && rec != NULL)
        continue;
    CHECK_STR(cgw_reader_errmsg(r), "");
    cgw_reader_close(r);
    return counts;
}

/* A name that is not all UTF-8 is refused by the writer and warned of by
 * the reader (written with CGW_EXTENDED). */
static void writer_and_reader(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *name = cases[i].text;
        if (name[0] == '\0' || strcmp(name, "plain ascii") == 0)
            continue;
        int good = cases[i].span == SIZE_MAX;
        char *buf;
        size_t len;
        cgw_writer *w = cgw_open_memory(&buf, &len, NULL);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_function(w, name), good ? CGW_OK : CGW_EINVAL);
        if (!good)
            CHECK(strstr(cgw_errmsg(w), "invalid UTF-8") != NULL);
        cgw_free(w);
        cgw_options opts = { .struct_size = sizeof opts, .flags = CGW_EXTENDED };
        w = cgw_open_memory(&buf, &len, &opts);
        CHECK_ST(cgw_add_event(w, "Ir", NULL), CGW_OK);
        CHECK_ST(cgw_function(w, name), CGW_OK);
        CHECK_ST(cgw_cost(w, (const uint64_t[]){ 1 }, (const uint64_t[]){ 1 }, 1), CGW_OK);
        CHECK_ST(cgw_close(w), CGW_OK);
        seen got = read_back(buf, len);
        CHECK_U64(got.errors, 0);
        CHECK_U64(got.invalid, !good);
        free(buf);
    }
    printf("writer and reader: the same rule\n");
}

/* cgw_stacks_add_folded() names the line and column of the bad byte
 * (test-convert has a control byte and a cut character). */
static void folded(void)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "x 1\na;b\xed\xa0\x80 3\n", "in:2:4: a control byte or invalid UTF-8 in a frame" },
        { "a;\xc3\xa9\xe0\x80\x80 3\n", "in:1:5: a control byte or invalid UTF-8 in a frame" },
        { "a;\xc3\xa9\x01\xff 3\n", "in:1:5: a control byte or invalid UTF-8 in a frame" },
        { "a;\xff\x01 3\n", "in:1:3: a control byte or invalid UTF-8 in a frame" },
        { "a;\xc3\xa9x\xe2\x82\xacy\xff 3\n",
          "in:1:10: a control byte or invalid UTF-8 in a frame" },
        { "a;\xc3\xa9x\xe2\x82\xacy\x01 3\n",
          "in:1:10: a control byte or invalid UTF-8 in a frame" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cgw_stacks *s = cgw_stacks_new(NULL);
        CHECK_ST(cgw_stacks_add_folded(s, NULL, "in", bad[i].text, strlen(bad[i].text)),
                 CGW_EINVAL);
        CHECK_STR(cgw_stacks_errmsg(s), bad[i].msg);
        cgw_stacks_free(s);
    }
    printf("folded: %zu bad frames placed\n", sizeof bad / sizeof *bad);
}

int main(void)
{
    spans();
    cuts();
    writer_and_reader();
    folded();
    return 0;
}
