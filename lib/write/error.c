/* SPDX-License-Identifier: MIT */
/* error.c - the sticky first error, its message, and argument checks
 * (text, names, handles). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/message.h"
#include "common/utf8.h"
#include "write.h"

const char *cgw_strerror(cgw_status status)
{
    switch (status) {
    case CGW_OK: return "success";
    case CGW_EIO: return "I/O error";
    case CGW_ENOMEM: return "out of memory";
    case CGW_EUSAGE: return "call not allowed in this state";
    case CGW_EINVAL: return "invalid argument";
    case CGW_ERANGE: return "value out of range";
    }
    return "unknown status";
}

const char *cgw_errmsg(const cgw_writer *w)
{
    if (w == NULL)
        return "no writer (NULL)";
    return w->msg;
}

/* Record st as the writer's error unless one is already recorded; the
 * message is prefixed with the public call being served.  Formatting with
 * vsnprintf is fine here: this runs once per writer, never per line. */
static cgw_status failv(cgw_writer *w, cgw_status st, const char *fmt, va_list ap)
{
    if (w->err != CGW_OK)
        return w->err;
    cgwp_sticky(&w->err, w->msg, sizeof w->msg, st, w->call ? w->call : "cgw", fmt, ap);
    cgwp_gate(w); /* after err is set: the fast paths close on it */
    return st;
}

cgw_status cgwp_fail(cgw_writer *w, cgw_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = failv(w, st, fmt, ap);
    va_end(ap);
    return st;
}

cgw_status cgw_set_error(cgw_writer *w, cgw_status st, const char *call, const char *fmt, ...)
{
    if (w == NULL || st == CGW_OK)
        return CGW_EUSAGE;
    if (w->err != CGW_OK)
        return w->err;
    w->call = call;
    va_list ap;
    va_start(ap, fmt);
    st = failv(w, st, fmt ? fmt : "failed", ap);
    va_end(ap);
    return st;
}

cgw_status cgw_error(const cgw_writer *w)
{
    return w ? w->err : CGW_EUSAGE;
}

static const char *state_name(int state)
{
    switch (state) {
    case CGWP_ST_HEADER: return "header";
    case CGWP_ST_PART_HEADER: return "part header";
    case CGWP_ST_BODY: return "body";
    case CGWP_ST_RAW: return "raw (CGW_RAW: bytes only)";
    default: return "finished";
    }
}

static const char *expected(int states)
{
    if (states == (CGWP_ST_HEADER | CGWP_ST_PART_HEADER))
        return "the header (before any body call)";
    if (states == CGWP_ST_HEADER)
        return "the first part's header (before any body call or cgw_new_part)";
    if (states == CGWP_ST_RAW)
        return "a writer opened with CGW_RAW";
    return "an open writer (before cgw_finish)";
}

/* The check at every public entry point. */
cgw_status cgwp_enter(cgw_writer *w, const char *call, int states)
{
    if (w == NULL)
        return CGW_EUSAGE;
    if (w->err != CGW_OK)
        return w->err;
    w->call = call;
    if (!(w->state & states))
        return cgwp_fail(w, CGW_EUSAGE, "not allowed in the %s state; expected %s",
                         state_name(w->state), expected(states));
    return CGW_OK;
}

/* Header text: one line, so no line breaks. */
static int space(unsigned char byte)
{
    return byte == ' ' || byte == '\t' || byte == '\v' || byte == '\f';
}

/* What a main reader mangles in a name or header text, unless
 * CGW_EXTENDED opens it: white space around it, a control character,
 * invalid UTF-8; NULL when there is none. */
static const char *mangled(const char *text, size_t len)
{
    if (len > 0 && (space((unsigned char)text[0]) || space((unsigned char)text[len - 1])))
        return "white space around it (readers strip it; callgrind_annotate merges "
               "\"\\vmain\" into \"main\")";
    size_t bad = cgwp_text_bad(text, len);
    if (bad == len)
        return NULL;
    return cgwp_control((unsigned char)text[bad])
               ? "a control character (readers split or drop it)"
               : "invalid UTF-8 (gprof2dot rejects the file)";
}

/* Header text: one line, so no line breaks; in the portable subset
 * nothing a reader mangles. */
cgw_status cgwp_check_text(cgw_writer *w, const char *what, const char *text)
{
    if (text == NULL)
        return cgwp_fail(w, CGW_EINVAL, "%s is NULL", what);
    const char *bad = strpbrk(text, "\r\n");
    if (bad != NULL)
        return cgwp_fail(w, CGW_EINVAL, "%s contains a %s at byte %zu", what,
                         *bad == '\n' ? "line feed" : "carriage return",
                         (size_t)(bad - text));
    const char *why = (w->flags & CGW_EXTENDED) ? NULL : mangled(text, strlen(text));
    if (why != NULL)
        return cgwp_fail(w, CGW_EINVAL, "%s \"%.64s\" has %s; CGW_EXTENDED allows it", what,
                         text, why);
    return CGW_OK;
}

/* A name must survive "(id) name" in every reader: readers strip blanks
 * around it, and without compression "(digit" would read as an ID. */
cgw_status cgwp_check_name(cgw_writer *w, const char *what, const char *name)
{
    cgw_status st = cgwp_check_text(w, what, name);
    if (st != CGW_OK)
        return st;
    size_t len = strlen(name);
    if (len == 0)
        return cgwp_fail(w, CGW_EINVAL, "%s is empty", what);
    if (name[0] == ' ' || name[0] == '\t' || name[len - 1] == ' ' || name[len - 1] == '\t')
        return cgwp_fail(w, CGW_EINVAL, "%s \"%.64s\" has leading or trailing blanks",
                         what, name);
    if ((w->flags & CGW_NO_NAME_COMPRESSION) && name[0] == '(' && name[1] >= '0' && name[1] <= '9')
        return cgwp_fail(w, CGW_EINVAL,
                         "%s \"%.64s\" starts with '(' and a digit, which readers take "
                         "for a compressed ID without name compression", what, name);
    return CGW_OK;
}

static const char *kind_name(unsigned kind)
{
    switch (kind) {
    case CGWP_OB + 1: return "an object";
    case CGWP_FL + 1: return "a file";
    case CGWP_FN + 1: return "a function";
    default: return "no kind of name";
    }
}

/* Why handle bits is not an entry of table kind: the error, naming the
 * argument what. */
CGWP_COLD cgw_status cgwp_refuse_handle(cgw_writer *w, uint64_t bits, int kind,
                                        const char *what)
{
    unsigned part = (unsigned)(bits >> 34) & CGWP_PART_MASK;
    if (bits == 0)
        return cgwp_fail(w, CGW_EINVAL, "%s is CGW_NO_NAME", what);
    if ((bits >> 48) != w->tag)
        return cgwp_fail(w, CGW_EINVAL, "%s is a handle of another writer", what);
    if (part != (w->part & CGWP_PART_MASK))
        return cgwp_fail(w, CGW_EINVAL, "%s is a handle of part %u, not of this part (%u): "
                         "cgw_new_part() starts fresh names; register them again", what,
                         part, w->part);
    if (((bits >> 32) & 3) != (uint64_t)kind + 1)
        return cgwp_fail(w, CGW_EINVAL, "%s is %s, not %s", what,
                         kind_name((unsigned)(bits >> 32) & 3), kind_name((unsigned)kind + 1));
    return cgwp_fail(w, CGW_EINVAL, "%s is not a handle this writer gave", what);
}
