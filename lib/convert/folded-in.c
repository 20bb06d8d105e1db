/* SPDX-License-Identifier: MIT */
/* folded-in.c - folded stacks ("root;caller;leaf COUNT", the input of
 * flamegraph.pl) read into a cgw_stacks, with the frame annotations that
 * profilers add:
 *   NAME_[k]           kernel frame (perf, async-profiler): object
 *                      [kernel.kallsyms]
 *   NAME_[j] _[i] _[0] _[1]  JIT-compiled, inlined, interpreted, C1
 *                      (async-profiler): the suffix is dropped, so every
 *                      form of a method is one function
 *   MODULE`NAME        DTrace's ustack(): object MODULE
 *   NAME (FILE:LINE)   py-spy: file FILE, the costs and calls at LINE
 * Anything else is a function name as it stands. */
#include <string.h>

#include "stacks.h"
#include "utf8.h"

/* Where an error is: the input's name, its line and the frame's column. */
typedef struct place {
    const char *name;
    uint64_t line;
    const char *start; /* of the line */
} place;

static cgw_status bad(cgw_stacks *s, const place *at, const char *where, const char *what)
{
    return cgwc_stacks_fail(s, CGW_EINVAL, "%s:%llu:%zu: %s", at->name,
                            (unsigned long long)at->line, (size_t)(where - at->start) + 1, what);
}

static int blank(char byte)
{
    return byte == ' ' || byte == '\t';
}

/* Bytes [cursor, end) of a name: no control byte (a tab neither: the writer
 * refuses it, readers split names at it), well-formed UTF-8 (the
 * reader warns about anything else): cgwp_text_bad()'s rule.  NULL when
 * good, else the first bad byte. */
static const char *bad_byte(const char *cursor, const char *end)
{
    size_t len = (size_t)(end - cursor), bad = cgwp_text_bad(cursor, len);
    return bad < len ? cursor + bad : NULL;
}

/* A decimal number [cursor, end) up to 2^64-1: 0, or -1. */
static int number(const char *cursor, const char *end, uint64_t *value)
{
    uint64_t total = 0;
    if (cursor == end)
        return -1;
    for (; cursor < end; cursor++) {
        unsigned digit = (unsigned char)*cursor - '0';
        if (digit > 9 || total > (UINT64_MAX - digit) / 10)
            return -1;
        total = total * 10 + digit;
    }
    *value = total;
    return 0;
}

/* Whether [cursor, end) is one or more decimal digits. */
static int digits(const char *cursor, const char *end)
{
    if (cursor == end)
        return 0;
    while (cursor < end && (unsigned)(unsigned char)*cursor - '0' < 10u)
        cursor++;
    return cursor == end;
}

/* The parts of one frame, trimmed: object, file, name, line; big_line
 * the LINE of "(FILE:LINE)" when it is 2^32 or more (the writer's
 * portable subset stops below: KCachegrind reads 32 bits). */
typedef struct frame_parts {
    const char *obj, *file, *name, *big_line;
    size_t olen, flen, nlen;
    uint64_t line;
} frame_parts;

/* "NAME (FILE:LINE)": 1 when [start, end) is one, with a non-empty NAME. */
static int pyspy(const char *start, const char *end, frame_parts *parts)
{
    if (end - start < 5 || end[-1] != ')')
        return 0;
    const char *open = end - 1, *colon = NULL;
    while (open > start && open[-1] != '(')
        open--;
    if (open - start < 3 || open[-2] != ' ')
        return 0;
    for (const char *cursor = open; cursor < end - 1; cursor++)
        if (*cursor == ':')
            colon = cursor;
    if (colon == NULL || colon == open || blank(*open) || blank(colon[-1]) ||
        !digits(colon + 1, end - 1))
        return 0;
    if (number(colon + 1, end - 1, &parts->line) < 0 || parts->line > UINT32_MAX)
        parts->big_line = colon + 1;
    parts->file = open;
    parts->flen = (size_t)(colon - open);
    parts->name = start;
    parts->nlen = (size_t)(open - 2 - start);
    while (parts->nlen > 0 && blank(start[parts->nlen - 1]))
        parts->nlen--;
    return parts->nlen > 0;
}

static void split_frame(const char *start, const char *end, frame_parts *parts)
{
    memset(parts, 0, sizeof *parts);
    if (pyspy(start, end, parts))
        return;
    parts->name = start;
    parts->nlen = (size_t)(end - start);
    if (parts->nlen > 4 && end[-4] == '_' && end[-3] == '[' && end[-1] == ']' &&
        strchr("kji01", end[-2]) != NULL && !blank(end[-5])) {
        parts->nlen -= 4;
        if (end[-2] == 'k') {
            parts->obj = "[kernel.kallsyms]";
            parts->olen = strlen(parts->obj);
        }
        return;
    }
    const char *tick = memchr(start, '`', parts->nlen);
    if (tick != NULL && tick > start && tick + 1 < end && !blank(tick[-1]) && !blank(tick[1])) {
        parts->obj = start;
        parts->olen = (size_t)(tick - start);
        parts->name = tick + 1;
        parts->nlen = (size_t)(end - tick - 1);
    }
}

/* The frame [begin, end) as a function of the stack. */
static cgw_status frame(cgw_stacks *s, const place *at, const char *begin, const char *end,
                        cgwc_frame *out)
{
    const char *start = begin;
    while (begin < end && blank(*begin))
        begin++;
    while (end > begin && blank(end[-1]))
        end--;
    if (begin == end)
        return bad(s, at, start, "empty frame (expected a name between ';')");
    const char *bad_at = bad_byte(begin, end);
    if (bad_at != NULL)
        return bad(s, at, bad_at, "a control byte or invalid UTF-8 in a frame");
    frame_parts parts;
    split_frame(begin, end, &parts);
    if (parts.big_line != NULL)
        return bad(s, at, parts.big_line, "a line number of 2^32 or more (expected "
                   "'NAME (FILE:LINE)' with a LINE below 2^32)");
    uint32_t obj, file, name;
    cgw_status st = cgwc_stacks_name(s, parts.obj, parts.olen, &obj);
    if (st == CGW_OK)
        st = cgwc_stacks_name(s, parts.file, parts.flen, &file);
    if (st == CGW_OK)
        st = cgwc_stacks_name(s, parts.name, parts.nlen, &name);
    if (st == CGW_OK)
        st = cgwc_stacks_function(s, obj, file, name, &out->fn);
    out->line = parts.line;
    out->addr = 0; /* folded text has no addresses */
    out->fi = CGWC_NONE;
    return st;
}

/* One line [begin, stop) without its line end. */
static cgw_status line(cgw_stacks *s, unsigned ev, const place *at, const char *begin,
                       const char *stop)
{
    while (stop > begin && blank(stop[-1]))
        stop--;
    if (stop == begin)
        return CGW_OK; /* blank line */
    const char *digits = stop;
    while (digits > begin && !blank(digits[-1]))
        digits--;
    uint64_t count;
    if (digits == begin)
        return number(begin, stop, &count) == 0
                   ? bad(s, at, begin, "a count without a stack (expected 'FRAME;FRAME... COUNT')")
                   : bad(s, at, stop,
                         "no count at the end of the line (expected 'FRAME;FRAME... COUNT')");
    if (number(digits, stop, &count) < 0)
        return bad(s, at, digits,
                   "the line does not end with a count (a decimal number below 2^64)");
    size_t nframes = 0;
    for (const char *cursor = begin; cursor < digits; nframes++) {
        const char *semi = memchr(cursor, ';', (size_t)(digits - cursor));
        const char *end = semi != NULL ? semi : digits;
        if (cgwp_grow(&s->a, &s->frames, &s->capframes, nframes + 1, sizeof *s->frames) < 0)
            return cgwc_stacks_fail(s, CGW_ENOMEM, "%s:%llu: out of memory for %zu frames",
                                    at->name, (unsigned long long)at->line, nframes + 1);
        cgw_status st = frame(s, at, cursor, end, &s->frames[nframes]);
        if (st != CGW_OK)
            return st;
        cursor = semi != NULL ? semi + 1 : digits; /* digits[-1] is a blank: a last ';' leaves one */
    }
    return cgwc_stacks_add(s, ev, s->frames, nframes, count, 1, at->name, at->line);
}

cgw_status cgw_stacks_add_folded(cgw_stacks *s, const char *event, const char *name,
                                 const char *text, size_t len)
{
    cgw_status st = cgwc_stacks_enter(s, "cgw_stacks_add_folded", text, len);
    if (st != CGW_OK)
        return st;
    unsigned ev;
    st = cgwc_stacks_event(s, event != NULL ? event : "Samples", &ev);
    if (len == 0)
        return st;
    place at = { name != NULL ? name : "-", 0, text };
    const char *end = text + len;
    for (const char *cursor = text; st == CGW_OK && cursor < end;) {
        const char *nl = memchr(cursor, '\n', (size_t)(end - cursor));
        const char *eol = nl != NULL ? nl : end;
        at.line++;
        at.start = cursor;
        st = line(s, ev, &at, cursor, eol > cursor && eol[-1] == '\r' ? eol - 1 : eol);
        cursor = nl != NULL ? nl + 1 : end;
    }
    return st;
}
