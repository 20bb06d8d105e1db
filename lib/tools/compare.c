/* compare.c - two records compared as the data they carry. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cgw.h"

static int differ(char *msg, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int differ(char *msg, size_t len, const char *fmt, ...)
{
    if (msg != NULL && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return 1;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const char *show(const char *s)
{
    return s ? s : "(none)";
}

#define STR(field, what)                                                             \
    if (!same_str(a->field, b->field))                                               \
        return differ(msg, len, "%s \"%.80s\" vs \"%.80s\"", what, show(a->field),   \
                      show(b->field))

static int same_u64s(const uint64_t *a, const uint64_t *b, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            *at = i;
            return 0;
        }
    }
    return 1;
}

#define U64S(x, y, n, what)                                                          \
    do {                                                                             \
        size_t i_;                                                                   \
        if ((x) != NULL && (y) != NULL && !same_u64s((x), (y), (n), &i_))            \
            return differ(msg, len, "%s %zu: %llu vs %llu", what, i_ + 1,            \
                          (unsigned long long)(x)[i_], (unsigned long long)(y)[i_]); \
    } while (0)

static int events(const cgw_event *a, const cgw_event *b, size_t n, char *msg, size_t len)
{
    for (size_t i = 0; i < n; i++, a++, b++) {
        STR(name, "event");
        STR(long_name, "event long name");
        STR(formula, "event formula");
    }
    return 0;
}

static int parts(const cgw_part *a, const cgw_part *b, char *msg, size_t len)
{
    if (a->positions != b->positions)
        return differ(msg, len, "positions mask %u vs %u", a->positions, b->positions);
    if (a->nevents != b->nevents || a->nderived != b->nderived)
        return differ(msg, len, "%zu+%zu events vs %zu+%zu", a->nevents, a->nderived,
                      b->nevents, b->nderived);
    if (events(a->events, b->events, a->nevents, msg, len) ||
        events(a->derived, b->derived, a->nderived, msg, len))
        return 1;
    if (a->creator != NULL)
        STR(creator, "creator");
    STR(cmd, "cmd");
    if (a->has_pid != b->has_pid || a->pid != b->pid)
        return differ(msg, len, "pid differs");
    if (a->has_thread != b->has_thread || a->thread != b->thread)
        return differ(msg, len, "thread differs");
    if (a->ndescs != b->ndescs)
        return differ(msg, len, "%zu desc lines vs %zu", a->ndescs, b->ndescs);
    for (size_t i = 0; i < a->ndescs; i++) {
        if (!same_str(a->descs[i].type, b->descs[i].type) ||
            !same_str(a->descs[i].value, b->descs[i].value))
            return differ(msg, len, "desc %zu differs", i + 1);
    }
    U64S(a->summary, b->summary, a->nevents, "summary of event");
    return 0;
}

int cgw_record_compare(const cgw_record *a, const cgw_record *b, char *msg, size_t len)
{
    if (a == NULL || b == NULL)
        return a == b ? 0 : differ(msg, len, "one record stream ends early");
    if (a->kind != b->kind)
        return differ(msg, len, "record kind %d vs %d", (int)a->kind, (int)b->kind);
    size_t ne = a->part->nevents, np = a->part->npos;
    if (b->part->nevents != ne || b->part->npos != np)
        return differ(msg, len, "the parts have different events or positions");
    switch (a->kind) {
    case CGW_REC_PART:
        return parts(a->part, b->part, msg, len);
    case CGW_REC_PART_END:
        U64S(a->costs, b->costs, ne, "total of event");
        U64S(a->totals_line, b->totals_line, ne, "totals: line, event");
        U64S(a->summary, b->summary, ne, "summary: line, event");
        return 0;
    default:
        break;
    }
    STR(object, "object");
    STR(file, "file");
    STR(function, "function");
    STR(source_file, "source file");
    if (a->kind == CGW_REC_FUNCTION || a->kind == CGW_REC_INLINE)
        return 0;
    U64S(a->pos, b->pos, np, "position");
    if (a->kind == CGW_REC_COST || a->kind == CGW_REC_CALL)
        U64S(a->costs, b->costs, ne, "cost of event");
    if (a->kind == CGW_REC_COST)
        return 0;
    STR(target.object, "target object");
    STR(target.file, "target file");
    STR(target.function, "target function");
    U64S(a->target_pos, b->target_pos, np, "target position");
    if (a->count != b->count || a->executed != b->executed)
        return differ(msg, len, "count %llu/%llu vs %llu/%llu", (unsigned long long)a->count,
                      (unsigned long long)a->executed, (unsigned long long)b->count,
                      (unsigned long long)b->executed);
    return 0;
}
