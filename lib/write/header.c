/* SPDX-License-Identifier: MIT */
/* header.c - the header calls and the header and totals lines.  The header
 * is kept until the first body call and written in Callgrind's order:
 * format line, version, creator, pid, cmd, part, thread, desc, positions,
 * event, events, summary.  Later parts repeat it from part: on (with their
 * pid:), so that a reader that resets everything at part: (KCachegrind)
 * still has events and labels each part with its pid and thread. */
#include <string.h>

#include "common/formula.h"
#include "write.h"

/* Append str[0..nbytes) to a growing header text. */
static cgw_status text_add(cgw_writer *w, cgwp_text *text, const char *str, size_t nbytes)
{
    if (text->cap - text->len < nbytes) {
        size_t cap = text->cap ? text->cap : 64;
        while (cap - text->len < nbytes)
            cap *= 2;
        char *grown = cgwp_realloc(&w->alloc, text->p, cap);
        if (grown == NULL)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory growing header text to %zu bytes",
                             cap);
        text->p = grown;
        text->cap = cap;
    }
    if (nbytes == 0) /* text->p may still be NULL: NULL + 0 is undefined */
        return CGW_OK;
    memcpy(text->p + text->len, str, nbytes);
    text->len += nbytes;
    return CGW_OK;
}

static cgw_status text_adds(cgw_writer *w, cgwp_text *text, const char *str)
{
    return text_add(w, text, str, strlen(str));
}

/* Replace *slot with a copy of str; called after the entry check. */
static cgw_status copy_text(cgw_writer *w, char **slot, const char *what, const char *str)
{
    cgw_status st = cgwp_check_text(w, what, str);
    if (st != CGW_OK)
        return st;
    char *copy = cgwp_strdup(&w->alloc, str);
    if (copy == NULL)
        return cgwp_fail(w, CGW_ENOMEM, "out of memory copying the %s", what);
    cgwp_free(&w->alloc, *slot);
    *slot = copy;
    return CGW_OK;
}

cgw_status cgw_set_creator(cgw_writer *w, const char *creator)
{
    cgw_status st = cgwp_enter(w, "cgw_set_creator", CGWP_ST_HEADER);
    return st != CGW_OK ? st : copy_text(w, &w->creator, "creator", creator);
}

cgw_status cgw_set_cmd(cgw_writer *w, const char *cmd)
{
    cgw_status st = cgwp_enter(w, "cgw_set_cmd", CGWP_ST_HEADER);
    return st != CGW_OK ? st : copy_text(w, &w->cmd, "command", cmd);
}

cgw_status cgw_set_pid(cgw_writer *w, uint64_t pid)
{
    cgw_status st = cgwp_enter(w, "cgw_set_pid", CGWP_ST_HEADER);
    if (st != CGW_OK)
        return st;
    w->pid = pid;
    w->has_pid = 1;
    return CGW_OK;
}

/* CGW_ONE_PART: a header call of a part that is not started (the
 * thread of the one part, which holds all threads, too) is taken and
 * not written. */
static int folded(cgw_writer *w, const char *call, int always, cgw_status *st)
{
    if (w == NULL || !(w->flags & CGW_ONE_PART) || !(always || w->folded))
        return 0;
    *st = cgwp_enter(w, call, CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY);
    return 1;
}

cgw_status cgw_set_thread(cgw_writer *w, uint64_t thread)
{
    cgw_status st;
    if (folded(w, "cgw_set_thread", 1, &st))
        return st;
    st = cgwp_enter(w, "cgw_set_thread", CGWP_ST_HEADER | CGWP_ST_PART_HEADER);
    if (st != CGW_OK)
        return st;
    w->thread = thread;
    w->has_thread = 1;
    return CGW_OK;
}

cgw_status cgw_add_desc(cgw_writer *w, const char *type, const char *value)
{
    cgw_status st;
    if (folded(w, "cgw_add_desc", 0, &st))
        return st;
    st = cgwp_enter(w, "cgw_add_desc", CGWP_ST_HEADER | CGWP_ST_PART_HEADER);
    if (st == CGW_OK)
        st = cgwp_check_text(w, "description type", type);
    if (st == CGW_OK)
        st = cgwp_check_text(w, "description value", value);
    if (st != CGW_OK)
        return st;
    if (type[0] == '\0' || strchr(type, ':') != NULL)
        return cgwp_fail(w, CGW_EINVAL, "description type \"%.64s\" is empty or has a ':'",
                         type);
    size_t mark = w->descs.len;
    st = text_adds(w, &w->descs, "desc: ");
    if (st == CGW_OK)
        st = text_adds(w, &w->descs, type);
    if (st == CGW_OK)
        st = text_adds(w, &w->descs, value[0] ? ": " : ":");
    if (st == CGW_OK)
        st = text_adds(w, &w->descs, value);
    if (st == CGW_OK)
        st = text_add(w, &w->descs, "\n", 1);
    if (st != CGW_OK)
        w->descs.len = mark;
    return st;
}

/* A name on the events: line: printable ASCII without blanks, and
 * without the ':' and '=' that event: lines use.  Xdebug's
 * "Time_(10ns)" is one; only [A-Za-z_][A-Za-z0-9_]* names can be used in
 * formulas. */
static int is_event_name(const char *name)
{
    if (name[0] == '\0')
        return 0;
    for (const char *cur = name; *cur != '\0'; cur++)
        if (*cur <= ' ' || *cur > '~' || *cur == ':' || *cur == '=')
            return 0;
    return 1;
}

static cgw_status check_new_event(cgw_writer *w, const char *name, const char *long_name)
{
    if (name == NULL)
        return cgwp_fail(w, CGW_EINVAL, "event name is NULL");
    if (!is_event_name(name))
        return cgwp_fail(w, CGW_EINVAL,
                         "event name \"%.64s\" is empty or has a blank, a control or "
                         "non-ASCII byte, ':' or '='", name);
    if (cgwp_lookup(w, CGWP_EV, name) != NULL)
        return cgwp_fail(w, CGW_EINVAL, "event \"%.64s\" is already defined", name);
    if (long_name != NULL)
        return cgwp_check_text(w, "event long name", long_name);
    return CGW_OK;
}

/* Whether the event name[0..len) is already defined. */
static int defined(void *ctx, const char *name, size_t len)
{
    char buf[128];
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return cgwp_lookup(ctx, CGWP_EV, buf) != NULL;
}

static cgw_status check_formula(cgw_writer *w, const char *formula)
{
    char msg[160];
    if (cgwp_formula_check(formula, defined, w, msg, sizeof msg) != 0)
        return cgwp_fail(w, CGW_EINVAL, "formula \"%.64s\": %s", formula, msg);
    return CGW_OK;
}

static cgw_status add_event(cgw_writer *w, const char *name, const char *formula,
                            const char *long_name)
{
    uint32_t entry;
    size_t mark_ev = w->events.len, mark_names = w->evnames.len;
    cgw_status st = CGW_OK;
    if (formula != NULL || long_name != NULL) {
        st = text_adds(w, &w->events, "event: ");
        if (st == CGW_OK)
            st = text_adds(w, &w->events, name);
        if (st == CGW_OK && formula != NULL)
            st = text_adds(w, &w->events, " = ");
        if (st == CGW_OK && formula != NULL)
            st = text_adds(w, &w->events, formula);
        if (st == CGW_OK && long_name != NULL)
            st = text_adds(w, &w->events, " : ");
        if (st == CGW_OK && long_name != NULL)
            st = text_adds(w, &w->events, long_name);
        if (st == CGW_OK)
            st = text_add(w, &w->events, "\n", 1);
    }
    if (st == CGW_OK && formula == NULL) {
        st = text_add(w, &w->evnames, " ", 1);
        if (st == CGW_OK)
            st = text_adds(w, &w->evnames, name);
    }
    if (st == CGW_OK)
        st = cgwp_intern(w, CGWP_EV, NULL, name, 0, 0, &entry);
    if (st != CGW_OK) {
        w->events.len = mark_ev;
        w->evnames.len = mark_names;
        return st;
    }
    if (formula == NULL)
        w->nevents++;
    return CGW_OK;
}

cgw_status cgw_add_event(cgw_writer *w, const char *name, const char *long_name)
{
    cgw_status st = cgwp_enter(w, "cgw_add_event", CGWP_ST_HEADER);
    if (st == CGW_OK && w->nevents >= 200 && !(w->flags & CGW_EXTENDED))
        st = cgwp_fail(w, CGW_EINVAL, "a 201st event (KCachegrind refuses a file with more "
                       "than 200); CGW_EXTENDED allows it");
    if (st == CGW_OK)
        st = check_new_event(w, name, long_name);
    if (st != CGW_OK)
        return st;
    return add_event(w, name, NULL, long_name);
}

cgw_status cgw_add_derived_event(cgw_writer *w, const char *name, const char *formula,
                                 const char *long_name)
{
    cgw_status st = cgwp_enter(w, "cgw_add_derived_event", CGWP_ST_HEADER);
    if (st == CGW_OK)
        st = check_new_event(w, name, long_name);
    if (st == CGW_OK)
        st = cgwp_check_text(w, "formula", formula);
    if (st == CGW_OK)
        st = check_formula(w, formula);
    if (st != CGW_OK)
        return st;
    return add_event(w, name, formula, long_name);
}

/* In the body, a part's summary: is written at its end, before
 * totals:, where Cachegrind writes it and every known reader reads it. */
cgw_status cgw_set_summary(cgw_writer *w, const uint64_t *costs, size_t ncosts)
{
    cgw_status st;
    if (folded(w, "cgw_set_summary", 1, &st))
        return st;
    st = cgwp_enter(w, "cgw_set_summary",
                               CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY);
    if (st != CGW_OK)
        return st;
    if (w->state == CGWP_ST_BODY && w->has_summary && !w->late_summary)
        return cgwp_fail(w, CGW_EUSAGE, "the part's summary: was written in its header");
    if (ncosts > w->nevents)
        return cgwp_fail(w, CGW_EINVAL, "%zu costs for %zu events", ncosts, w->nevents);
    if (ncosts > 0 && costs == NULL)
        return cgwp_fail(w, CGW_EINVAL, "costs is NULL");
    if (ncosts > w->nsummary) {
        uint64_t *grown = cgwp_realloc(&w->alloc, w->summary, ncosts * sizeof *grown);
        if (grown == NULL)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory copying the summary");
        w->summary = grown;
    }
    if (ncosts > 0)
        memcpy(w->summary, costs, ncosts * sizeof *costs);
    w->nsummary = ncosts;
    w->has_summary = 1;
    w->late_summary = w->state == CGWP_ST_BODY;
    return CGW_OK;
}

/* "key: N\n" */
static cgw_status put_number_line(cgw_writer *w, const char *key, uint64_t value)
{
    char line[64];
    size_t key_len = strlen(key);
    memcpy(line, key, key_len);
    char *end = cgwp_fmt_dec(line + key_len, value);
    *end++ = '\n';
    return cgwp_put(w, line, (size_t)(end - line));
}

static cgw_status put_text_line(cgw_writer *w, const char *key, const char *text)
{
    cgw_status st = cgwp_put(w, key, strlen(key));
    if (st == CGW_OK)
        st = cgwp_put(w, text, strlen(text));
    if (st == CGW_OK)
        st = cgwp_put(w, "\n", 1);
    return st;
}

/* "key: c1 c2 ...\n", every event written. */
static cgw_status put_costs_line(cgw_writer *w, const char *key, const uint64_t *costs,
                                 size_t ncosts)
{
    cgw_status st = cgwp_put(w, key, strlen(key));
    for (size_t i = 0; i < w->nevents && st == CGW_OK; i++) {
        char num[24] = " ";
        char *end = cgwp_fmt_dec(num + 1, i < ncosts ? costs[i] : 0);
        st = cgwp_put(w, num, (size_t)(end - num));
    }
    if (st == CGW_OK)
        st = cgwp_put(w, "\n", 1);
    return st;
}

static cgw_status put_positions(cgw_writer *w)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t nkinds = cgw_pos_kinds(w->positions, kinds);
    cgw_status st = cgwp_put(w, "positions:", 10);
    for (size_t i = 0; st == CGW_OK && i < nkinds; i++) {
        const char *name = cgw_pos_name(kinds[i]);
        st = cgwp_put(w, " ", 1);
        if (st == CGW_OK)
            st = cgwp_put(w, name, strlen(name));
    }
    if (st == CGW_OK)
        st = cgwp_put(w, "\n", 1);
    return st;
}

cgw_status cgwp_write_header(cgw_writer *w)
{
    cgw_status st = CGW_OK;
    if (w->part == 1) {
        st = cgwp_put(w, "# callgrind format\nversion: 1\n", 30);
        if (st == CGW_OK)
            st = put_text_line(w, "creator: ", w->creator ? w->creator
                                                          : "libcgw-" CGW_VERSION_STRING);
        if (st == CGW_OK && w->has_pid)
            st = put_number_line(w, "pid: ", w->pid);
        if (st == CGW_OK && w->cmd)
            st = put_text_line(w, "cmd: ", w->cmd);
    } else if (!(w->flags & CGW_COMPACT)) {
        st = cgwp_put(w, "\n", 1);
    }
    if (st == CGW_OK)
        st = put_number_line(w, "part: ", w->part);
    /* KCachegrind forgets the header at a new part: it labels a part
     * with the pid and thread of its own header */
    if (st == CGW_OK && w->part > 1 && w->has_pid)
        st = put_number_line(w, "pid: ", w->pid);
    if (st == CGW_OK && w->has_thread)
        st = put_number_line(w, "thread: ", w->thread);
    if (st == CGW_OK)
        st = cgwp_put(w, w->descs.p, w->descs.len);
    if (st == CGW_OK)
        st = put_positions(w);
    if (st == CGW_OK)
        st = cgwp_put(w, w->events.p, w->events.len);
    if (st == CGW_OK)
        st = cgwp_put(w, "events:", 7);
    if (st == CGW_OK)
        st = cgwp_put(w, w->evnames.p, w->evnames.len);
    if (st == CGW_OK)
        st = cgwp_put(w, "\n", 1);
    if (st == CGW_OK && w->has_summary)
        st = put_costs_line(w, "summary:", w->summary, w->nsummary);
    return st;
}

cgw_status cgwp_write_totals(cgw_writer *w)
{
    cgw_status st = CGW_OK;
    if (!(w->flags & CGW_COMPACT))
        st = cgwp_put(w, "\n", 1);
    if (st == CGW_OK && w->late_summary)
        st = put_costs_line(w, "summary:", w->summary, w->nsummary);
    if (st == CGW_OK)
        st = put_costs_line(w, "totals:", w->totals, w->nevents);
    return st;
}
