/* SPDX-License-Identifier: MIT */
/* folded-out.c - a Callgrind profile written as folded stacks, and its
 * stacks handed to a writer of another format (pprof): the profile model
 * (cgw_profile_*, lib/profile) reads it and rebuilds the stacks, cycles
 * taken whole (cgw_profile_stacks() says how); this file picks the
 * events, names the frames and words the errors as the public calls'. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "convert.h"

/* The column of event (NULL: the first) among the profile's; -1, with
 * the message, when it has none such. */
static long column(cgw_profile *p, const char *call, const char *event, char *msg, size_t len)
{
    const cgw_event *events;
    size_t nev = cgw_profile_events(p, &events);
    if (nev == 0) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "%s: the profile has no %s", call,
                     cgw_profile_parts(p) == 0 ? "part" : "event at all");
        return -1;
    }
    for (size_t i = 0; event != NULL && i < nev; i++)
        if (strcmp(events[i].name, event) == 0)
            return (long)i;
    if (event == NULL)
        return 0;
    if (msg != NULL && len > 0) {
        int n = snprintf(msg, len, "%s: the profile has no event %s (it has", call, event);
        for (size_t i = 0; i < nev && n > 0 && (size_t)n < len; i++)
            n += snprintf(msg + n, len - (size_t)n, " %s", events[i].name);
        if (n > 0 && (size_t)n < len - 1)
            snprintf(msg + n, len - (size_t)n, ")");
    }
    return -1;
}

typedef struct stack_out {
    cgw_frame *frames; /* the profile's functions as frames */
    unsigned ev;
    cgwc_stack_fn each;
    void *ctx;
} stack_out;

static cgw_status one_stack(void *ctx, const uint32_t *fns, size_t depth, uint64_t amount)
{
    const stack_out *o = ctx;
    return o->each(o->ctx, o->frames, fns, depth, o->ev, amount);
}

/* The profile's error as the public call's: "call: " and its reason. */
static cgw_status profile_error(cgw_profile *p, const char *call, char *msg, size_t len)
{
    const char *why = cgw_profile_errmsg(p), *colon = strstr(why, ": ");
    if (msg != NULL && len > 0)
        snprintf(msg, len, "%s: %s", call, colon != NULL ? colon + 2 : why);
    return cgw_profile_error(p);
}

/* The stacks of the profile p read, of one event (col) or of all. */
static cgw_status stacks(cgw_profile *p, const char *call, long col, cgwc_events_fn events,
                         cgwc_stack_fn each, void *ctx, char *msg, size_t len)
{
    const cgw_event *evs;
    size_t nev = cgw_profile_events(p, &evs), nfns;
    const cgw_profile_fn *fns = cgw_profile_functions(p, &nfns);
    if (fns == NULL)
        return profile_error(p, call, msg, len);
    size_t first = col >= 0 ? (size_t)col : 0, end = col >= 0 ? first + 1 : nev;
    const char *names[64], **name_list = names;
    if (end - first > sizeof names / sizeof *names &&
        (name_list = cgwp_alloc(cgwp_libc(), (end - first) * sizeof *name_list)) == NULL)
        goto nomem;
    for (size_t e = first; e < end; e++)
        name_list[e - first] = evs[e].name;
    cgw_status st = events != NULL ? events(ctx, name_list, end - first) : CGW_OK;
    if (name_list != names)
        cgwp_free(cgwp_libc(), name_list);
    if (st != CGW_OK)
        return st; /* the callback said why */
    stack_out o = { cgwp_alloc(cgwp_libc(), (nfns + 1) * sizeof *o.frames), 0, each, ctx };
    if (o.frames == NULL)
        goto nomem;
    for (size_t fn = 0; fn < nfns; fn++) {
        cgw_frame f = { fns[fn].object, fns[fn].file, fns[fn].name, NULL, 0 };
        o.frames[fn] = f;
    }
    for (size_t e = first; e < end && st == CGW_OK; e++) {
        o.ev = (unsigned)(e - first);
        st = cgw_profile_stacks(p, e, one_stack, &o);
    }
    cgwp_free(cgwp_libc(), o.frames);
    if (st != CGW_OK && cgw_profile_error(p) == st)
        return profile_error(p, call, msg, len);
    return st; /* OK, or the callback's, which said why */
nomem:
    if (msg != NULL && len > 0)
        snprintf(msg, len, "%s: out of memory", call);
    return CGW_ENOMEM;
}

cgw_status cgwc_profile_stacks(cgw_reader *r, const char *call, const char *event, int all,
                               cgwc_events_fn events, cgwc_stack_fn each, void *ctx,
                               char *msg, size_t len)
{
    if (msg != NULL && len > 0)
        msg[0] = '\0';
    if (r == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "%s: the reader is NULL", call);
        return CGW_EUSAGE;
    }
    cgw_profile_options po = CGW_PROFILE_OPTIONS_INIT;
    /* the stacks' names are the reader's: a caller may keep them until it
     * closes the reader (pprof's string table does) */
    po.flags = CGW_PROFILE_READER_NAMES | (all ? CGW_PROFILE_SAME_EVENTS : 0);
    cgw_profile *p = cgw_profile_new(&po);
    if (p == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "%s: out of memory", call);
        return CGW_ENOMEM;
    }
    cgw_status st;
    long col = 0;
    if (cgw_profile_add(p, r) != CGW_OK)
        st = profile_error(p, call, msg, len);
    else if (!all && (col = column(p, call, event, msg, len)) < 0)
        st = CGW_EINVAL;
    else if (all && cgw_profile_events(p, NULL) == 0)
        st = column(p, call, NULL, msg, len) < 0 ? CGW_EINVAL : CGW_OK;
    else
        st = stacks(p, call, all ? -1 : col, events, each, ctx, msg, len);
    cgw_profile_free(p);
    return st;
}

cgw_status cgw_read_stacks(cgw_reader *r, const char *event, cgw_events_fn events,
                           cgw_stack_fn each, void *ctx, char *msg, size_t len)
{
    if (each == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "cgw_read_stacks: the callback is NULL");
        return CGW_EUSAGE;
    }
    return cgwc_profile_stacks(r, "cgw_read_stacks", event, event == NULL, events, each, ctx,
                               msg, len);
}

/* ------------------------------------------------------ as folded text */

typedef struct folded_text {
    char *line;
    size_t len, cap;
    cgw_write_fn write;
    void *ctx;
    char *msg;
    size_t msglen;
} folded_text;

static int put(folded_text *t, const char *bytes, size_t len)
{
    if (cgwp_grow(cgwp_libc(), &t->line, &t->cap, t->len + len + 1, 1) < 0)
        return -1;
    memcpy(t->line + t->len, bytes, len);
    t->len += len;
    return 0;
}

/* A frame's name: ';' would split it, so it becomes ':'; a kernel
 * function gets back the _[k] that folded-in.c takes off. */
static int put_name(folded_text *t, const cgwc_names *func)
{
    size_t start = t->len, len = strlen(func->name);
    if (put(t, func->name, len) < 0)
        return -1;
    for (size_t i = start; i < t->len; i++)
        if (t->line[i] == ';')
            t->line[i] = ':';
    if (func->object != NULL && strcmp(func->object, "[kernel.kallsyms]") == 0)
        return put(t, "_[k]", 4);
    return 0;
}

/* One line "ROOT;...;LEAF AMOUNT\n". */
static cgw_status text_line(void *ctx, const cgwc_names *fns, const uint32_t *ids, size_t depth,
                            unsigned ev, uint64_t amount)
{
    folded_text *t = ctx;
    (void)ev; /* one event */
    char num[24];
    t->len = 0;
    for (size_t i = depth; i > 0; i--)
        if ((i < depth && put(t, ";", 1) < 0) || put_name(t, &fns[ids[i - 1]]) < 0)
            goto nomem;
    int n = snprintf(num, sizeof num, " %llu\n", (unsigned long long)amount);
    if (put(t, num, (size_t)n) < 0)
        goto nomem;
    if (t->write(t->ctx, t->line, t->len) == 0)
        return CGW_OK;
    if (t->msg != NULL && t->msglen > 0)
        snprintf(t->msg, t->msglen, "cgw_write_folded: writing: %s", strerror(errno));
    return CGW_EIO;
nomem:
    if (t->msg != NULL && t->msglen > 0)
        snprintf(t->msg, t->msglen, "cgw_write_folded: out of memory");
    return CGW_ENOMEM;
}

cgw_status cgw_write_folded(cgw_reader *r, const char *event, cgw_write_fn fn, void *ctx,
                            char *msg, size_t len)
{
    folded_text t = { NULL, 0, 0, fn, ctx, msg, len };
    if (fn == NULL) {
        if (msg != NULL && len > 0)
            snprintf(msg, len, "cgw_write_folded: the callback is NULL");
        return CGW_EUSAGE;
    }
    cgw_status st =
        cgwc_profile_stacks(r, "cgw_write_folded", event, 0, NULL, text_line, &t, msg, len);
    cgwp_free(cgwp_libc(), t.line);
    return st;
}
