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

/* Where an error is: the input's name, its line and the frame's column. */
typedef struct place {
    const char *name;
    uint64_t line;
    const char *start; /* of the line */
} place;

static cgw_status bad(cgw_stacks *s, const place *at, const char *p, const char *what)
{
    return cgwc_stacks_fail(s, CGW_EINVAL, "%s:%llu:%zu: %s", at->name,
                            (unsigned long long)at->line, (size_t)(p - at->start) + 1, what);
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Bytes [p, e) of a name: no control byte (a tab neither: the writer
 * refuses it, readers split names at it), well-formed UTF-8 (the
 * reader warns about anything else).  NULL when good, else the first
 * bad byte. */
static const char *bad_byte(const char *p, const char *e)
{
    while (p < e) {
        unsigned char c = (unsigned char)*p;
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (c < 0x20 || c == 0x7f || n == 0 || (size_t)(e - p) < n ||
            (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
            return p;
        for (size_t i = 1; i < n; i++)
            if (((unsigned char)p[i] >> 6) != 2)
                return p;
        if ((n == 3 && c == 0xe0 && (unsigned char)p[1] < 0xa0) ||
            (n == 4 && c == 0xf0 && (unsigned char)p[1] < 0x90) ||
            (n == 4 && c == 0xf4 && (unsigned char)p[1] > 0x8f) ||
            (n == 3 && c == 0xed && (unsigned char)p[1] > 0x9f))
            return p;
        p += n;
    }
    return NULL;
}

/* A decimal number [p, e) up to 2^64-1: 0, or -1. */
static int number(const char *p, const char *e, uint64_t *v)
{
    uint64_t x = 0;
    if (p == e)
        return -1;
    for (; p < e; p++) {
        unsigned d = (unsigned char)*p - '0';
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* The parts of one frame [p, e), trimmed: object, file, name, line. */
typedef struct frame_parts {
    const char *obj, *file, *name;
    size_t olen, flen, nlen;
    uint64_t line;
} frame_parts;

/* "NAME (FILE:LINE)": 1 when [p, e) is one, with a non-empty NAME. */
static int pyspy(const char *p, const char *e, frame_parts *f)
{
    if (e - p < 5 || e[-1] != ')')
        return 0;
    const char *open = e - 1, *colon = NULL;
    while (open > p && open[-1] != '(')
        open--;
    if (open - p < 3 || open[-2] != ' ')
        return 0;
    for (const char *q = open; q < e - 1; q++)
        if (*q == ':')
            colon = q;
    if (colon == NULL || colon == open || blank(*open) || blank(colon[-1]) ||
        number(colon + 1, e - 1, &f->line) < 0)
        return 0;
    f->file = open;
    f->flen = (size_t)(colon - open);
    f->name = p;
    f->nlen = (size_t)(open - 2 - p);
    while (f->nlen > 0 && blank(p[f->nlen - 1]))
        f->nlen--;
    return f->nlen > 0;
}

static void split_frame(const char *p, const char *e, frame_parts *f)
{
    memset(f, 0, sizeof *f);
    if (pyspy(p, e, f))
        return;
    f->name = p;
    f->nlen = (size_t)(e - p);
    if (f->nlen > 4 && e[-4] == '_' && e[-3] == '[' && e[-1] == ']' &&
        strchr("kji01", e[-2]) != NULL && !blank(e[-5])) {
        f->nlen -= 4;
        if (e[-2] == 'k') {
            f->obj = "[kernel.kallsyms]";
            f->olen = strlen(f->obj);
        }
        return;
    }
    const char *tick = memchr(p, '`', f->nlen);
    if (tick != NULL && tick > p && tick + 1 < e && !blank(tick[-1]) && !blank(tick[1])) {
        f->obj = p;
        f->olen = (size_t)(tick - p);
        f->name = tick + 1;
        f->nlen = (size_t)(e - tick - 1);
    }
}

/* The frame [p, e) as a function of the stack. */
static cgw_status frame(cgw_stacks *s, const place *at, const char *p, const char *e,
                        cgwc_frame *out)
{
    const char *start = p;
    while (p < e && blank(*p))
        p++;
    while (e > p && blank(e[-1]))
        e--;
    if (p == e)
        return bad(s, at, start, "empty frame (expected a name between ';')");
    const char *b = bad_byte(p, e);
    if (b != NULL)
        return bad(s, at, b, "a control byte or invalid UTF-8 in a frame");
    frame_parts f;
    split_frame(p, e, &f);
    uint32_t obj, file, name;
    cgw_status st = cgwc_stacks_name(s, f.obj, f.olen, &obj);
    if (st == CGW_OK)
        st = cgwc_stacks_name(s, f.file, f.flen, &file);
    if (st == CGW_OK)
        st = cgwc_stacks_name(s, f.name, f.nlen, &name);
    if (st == CGW_OK)
        st = cgwc_stacks_function(s, obj, file, name, &out->fn);
    out->line = f.line;
    return st;
}

/* One line [p, e) without its line end. */
static cgw_status line(cgw_stacks *s, unsigned ev, const place *at, const char *p,
                       const char *e)
{
    while (e > p && blank(e[-1]))
        e--;
    if (e == p)
        return CGW_OK; /* blank line */
    const char *c = e;
    while (c > p && !blank(c[-1]))
        c--;
    uint64_t count;
    if (c == p)
        return number(p, e, &count) == 0
                   ? bad(s, at, p, "a count without a stack (expected 'FRAME;FRAME... COUNT')")
                   : bad(s, at, e, "no count at the end of the line (expected 'FRAME;FRAME... COUNT')");
    if (number(c, e, &count) < 0)
        return bad(s, at, c, "the line does not end with a count (a decimal number below 2^64)");
    size_t n = 0;
    for (const char *f = p; f < c; n++) {
        const char *semi = memchr(f, ';', (size_t)(c - f));
        const char *end = semi != NULL ? semi : c;
        if (cgwc_grow(&s->a, &s->frames, &s->capframes, n + 1, sizeof *s->frames) < 0)
            return cgwc_stacks_fail(s, CGW_ENOMEM, "%s:%llu: out of memory for %zu frames",
                                    at->name, (unsigned long long)at->line, n + 1);
        cgw_status st = frame(s, at, f, end, &s->frames[n]);
        if (st != CGW_OK)
            return st;
        f = semi != NULL ? semi + 1 : c; /* c[-1] is a blank: a last ';' leaves one */
    }
    return cgwc_stacks_add(s, ev, s->frames, n, count, at->name, at->line);
}

cgw_status cgw_stacks_add_folded(cgw_stacks *s, const char *event, const char *name,
                                 const char *text, size_t len)
{
    if (s == NULL)
        return CGW_EUSAGE;
    if (s->err != CGW_OK)
        return s->err;
    if (text == NULL && len > 0)
        return cgwc_stacks_fail(s, CGW_EUSAGE, "cgw_stacks_add_folded: the text is NULL");
    if (s->sorted)
        return cgwc_stacks_fail(s, CGW_EUSAGE,
                                "cgw_stacks_add_folded: called after cgw_stacks_write()");
    unsigned ev;
    cgw_status st = cgwc_stacks_event(s, event != NULL ? event : "Samples", &ev);
    if (len == 0)
        return st;
    place at = { name != NULL ? name : "-", 0, text };
    const char *end = text + len;
    for (const char *p = text; st == CGW_OK && p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl != NULL ? nl : end;
        at.line++;
        at.start = p;
        st = line(s, ev, &at, p, e > p && e[-1] == '\r' ? e - 1 : e);
        p = nl != NULL ? nl + 1 : end;
    }
    return st;
}
