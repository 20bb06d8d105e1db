/* SPDX-License-Identifier: MIT */
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

static int same_str(const char *left, const char *right)
{
    return left == right || (left != NULL && right != NULL && strcmp(left, right) == 0);
}

static const char *show(const char *str)
{
    return str ? str : "(none)";
}

#define STR(field, what)                                                                 \
    if (!same_str(left->field, right->field))                                            \
        return differ(msg, len, "%s \"%.80s\" vs \"%.80s\"", what, show(left->field),    \
                      show(right->field))

static int same_u64s(const uint64_t *left, const uint64_t *right, size_t count, size_t *at)
{
    for (size_t i = 0; i < count; i++) {
        if (left[i] != right[i]) {
            *at = i;
            return 0;
        }
    }
    return 1;
}

#define U64S(lhs, rhs, count, what)                                                      \
    do {                                                                                 \
        size_t i_;                                                                       \
        if ((lhs) != NULL && (rhs) != NULL && !same_u64s((lhs), (rhs), (count), &i_))    \
            return differ(msg, len, "%s %zu: %llu vs %llu", what, i_ + 1,                \
                          (unsigned long long)(lhs)[i_], (unsigned long long)(rhs)[i_]); \
    } while (0)

static int events(const cgw_event *left, const cgw_event *right, size_t count, char *msg,
                  size_t len)
{
    for (size_t i = 0; i < count; i++, left++, right++) {
        STR(name, "event");
        STR(long_name, "event long name");
        STR(formula, "event formula");
    }
    return 0;
}

static int parts(const cgw_part *left, const cgw_part *right, char *msg, size_t len)
{
    if (left->positions != right->positions)
        return differ(msg, len, "positions mask %u vs %u", left->positions, right->positions);
    if (left->nevents != right->nevents || left->nderived != right->nderived)
        return differ(msg, len, "%zu+%zu events vs %zu+%zu", left->nevents, left->nderived,
                      right->nevents, right->nderived);
    if (events(left->events, right->events, left->nevents, msg, len) ||
        events(left->derived, right->derived, left->nderived, msg, len))
        return 1;
    if (left->creator != NULL)
        STR(creator, "creator");
    STR(cmd, "cmd");
    if (left->has_pid != right->has_pid || left->pid != right->pid)
        return differ(msg, len, "pid differs");
    if (left->has_thread != right->has_thread || left->thread != right->thread)
        return differ(msg, len, "thread differs");
    if (left->ndescs != right->ndescs)
        return differ(msg, len, "%zu desc lines vs %zu", left->ndescs, right->ndescs);
    for (size_t i = 0; i < left->ndescs; i++) {
        if (!same_str(left->descs[i].type, right->descs[i].type) ||
            !same_str(left->descs[i].value, right->descs[i].value))
            return differ(msg, len, "desc %zu differs", i + 1);
    }
    U64S(left->summary, right->summary, left->nevents, "summary of event");
    return 0;
}

int cgw_record_compare(const cgw_record *left, const cgw_record *right, char *msg, size_t len)
{
    if (left == NULL || right == NULL)
        return left == right ? 0 : differ(msg, len, "one record stream ends early");
    if (left->kind != right->kind)
        return differ(msg, len, "record kind %d vs %d", (int)left->kind, (int)right->kind);
    size_t ne = left->part->nevents, np = left->part->npos;
    if (right->part->nevents != ne || right->part->npos != np)
        return differ(msg, len, "the parts have different events or positions");
    switch (left->kind) {
    case CGW_REC_PART:
        return parts(left->part, right->part, msg, len);
    case CGW_REC_PART_END:
        U64S(left->costs, right->costs, ne, "total of event");
        U64S(left->totals_line, right->totals_line, ne, "totals: line, event");
        U64S(left->summary, right->summary, ne, "summary: line, event");
        return 0;
    default:
        break;
    }
    STR(object, "object");
    STR(file, "file");
    STR(function, "function");
    STR(source_file, "source file");
    if (left->kind == CGW_REC_FUNCTION || left->kind == CGW_REC_INLINE)
        return 0;
    U64S(left->pos, right->pos, np, "position");
    if (left->kind == CGW_REC_COST || left->kind == CGW_REC_CALL)
        U64S(left->costs, right->costs, ne, "cost of event");
    if (left->kind == CGW_REC_COST)
        return 0;
    STR(target.object, "target object");
    STR(target.file, "target file");
    STR(target.function, "target function");
    U64S(left->target_pos, right->target_pos, np, "target position");
    if (left->count != right->count || left->executed != right->executed)
        return differ(msg, len, "count %llu/%llu vs %llu/%llu", (unsigned long long)left->count,
                      (unsigned long long)left->executed, (unsigned long long)right->count,
                      (unsigned long long)right->executed);
    return 0;
}
