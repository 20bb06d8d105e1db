/* SPDX-License-Identifier: MIT */
/* header.c - header lines (key: value), and the part's header handed
 * out as a CGW_REC_PART record once it is complete (cgwr_announce_part(),
 * before the part's first body record).  When a part starts and ends is
 * part.c's. */
#include <string.h>

#include "common/formula.h"
#include "read.h"

/* The next blank-separated word of *cur..end in *start, its length
 * returned (0 at the end); *cur moves past it. */
static size_t word(const char **cur, const char *end, const char **start)
{
    const char *at = *cur;
    while (at < end && cgwr_blank(*at))
        at++;
    *start = at;
    while (at < end && !cgwr_blank(*at))
        at++;
    *cur = at;
    return (size_t)(at - *start);
}

static const char *text(cgw_reader *r, const char *value, const char *end)
{
    value = cgwr_trim(value, &end);
    const cgwr_str *str = cgwr_intern(r, value, (size_t)(end - value));
    return str ? str->s : NULL;
}

/* One number that is the whole value; 0 and a diagnostic when not. */
static int number(cgw_reader *r, const char *key, const char *value, const char *end, uint64_t *out)
{
    const char *value_end = end;
    int flags = 0;
    value = cgwr_trim(value, &value_end);
    const char *next = cgwr_number(value, value_end, out, &flags);
    if (next == NULL || next != value_end || (flags & CGWR_NUM_OVERFLOW)) {
        cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                  "%s: expects one unsigned number below 2^64, found \"%.*s\"", key,
                  cgwr_clip(value, value_end, 40), value);
        return 0;
    }
    return 1;
}

static int grow(cgw_reader *r, void **arr, size_t *cap, size_t used, size_t size)
{
    if (used < *cap)
        return 0;
    size_t new_cap = *cap ? *cap * 2 : 16;
    void *grown = cgwp_realloc(&r->alloc, *arr, new_cap * size);
    if (grown == NULL) {
        cgwr_fail(r, CGW_ENOMEM, "out of memory for the header at line %llu",
                  (unsigned long long)r->lineno);
        return -1;
    }
    *arr = grown;
    *cap = new_cap;
    return 0;
}

/* Per-event arrays of the part; sized when events: gives their number. */
static int size_events(cgw_reader *r, size_t nevents)
{
    cgwr_part *pt = &r->part;
    size_t bytes = (nevents ? nevents : 1) * sizeof(uint64_t);
    uint64_t **arrs[] = { &pt->summary, &pt->totals_line, &pt->totals, &pt->scratch,
                          &r->block_start, &r->run_start,
                          &r->costs[0], &r->costs[1], &r->costs[2] };
    for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++) {
        uint64_t *arr = cgwp_realloc(&r->alloc, *arrs[i], bytes);
        if (arr == NULL) {
            cgwr_fail(r, CGW_ENOMEM, "out of memory for %zu events", nevents);
            return -1;
        }
        memset(arr, 0, bytes);
        *arrs[i] = arr;
    }
    /* a summary: or totals: given before was for other events, and its
     * array has moved */
    pt->has_summary = pt->has_totals_line = 0;
    pt->pub.summary = NULL;
    r->nevents = nevents;
    return 0;
}

/* Warn about an event name that formulas cannot use. */
static void check_event_name(cgw_reader *r, const char *name, size_t len)
{
    if (len == 0 || cgwp_event_name_span(name, len) != len)
        cgwr_diag(r, r->lineno, CGWR_EVENT_NAME,
                  "event name \"%.40s\" is not [A-Za-z_][A-Za-z0-9_]* (formulas cannot "
                  "use it)", name);
}

/* Whether the events after value (its leading blanks aside) have a
 * space at the end or two in a row: speedscope splits them at each
 * space, so that an event of the empty name comes there. */
static int events_blank(const char *value, const char *end)
{
    while (value < end && (*value == ' ' || *value == '\t'))
        value++;
    for (const char *at = value; at < end; at++)
        if (*at == ' ' && (at + 1 == end || at[1] == ' '))
            return 1;
    return 0;
}

static void events_line(cgw_reader *r, const char *cur, const char *end)
{
    cgwr_part *pt = &r->part;
    if (events_blank(cur, end))
        cgwr_diag(r, r->lineno, CGWR_EVENTS_BLANK,
                  "events: has a space at its end or two in a row (Cachegrind writes one at "
                  "the end): speedscope makes an event of the empty name there, whose costs "
                  "are NaN");
    if (pt->has_events && !pt->body)
        cgwr_diag(r, r->lineno, CGWR_EVENTS_REDEFINED,
                  "a second events: line in the header of part %u", pt->pub.index);
    size_t count = 0;
    for (const char *start; word(&cur, end, &start) > 0;) {
        if (grow(r, (void **)&pt->events, &pt->events_cap, count, sizeof *pt->events) < 0)
            return;
        const cgwr_str *name = cgwr_intern(r, start, (size_t)(cur - start));
        if (name == NULL)
            return;
        check_event_name(r, name->s, name->len);
        for (size_t i = 0; i < count; i++)
            if (pt->events[i].name == name->s)
                cgwr_diag(r, r->lineno, CGWR_DUPLICATE_EVENT,
                          "event %s is listed twice", name->s);
        pt->events[count++] = (cgw_event){ name->s, NULL, NULL };
    }
    if (count == 0)
        cgwr_diag(r, r->lineno, CGWR_MISSING_EVENTS, "events: names no event");
    if (count > 200)
        cgwr_diag(r, r->lineno, CGWR_MANY_EVENTS,
                  "%zu events; KCachegrind refuses a file with more than 200", count);
    if (count > CGWR_CHECK_EVENTS && (r->flags & CGW_READ_CHECK))
        cgwr_diag(r, r->lineno, CGWR_CHECK_EVENTS_CUT,
                  "%zu events: inclusive costs are checked for the first %d only "
                  "(the sums per function would need %zu bytes each)", count,
                  CGWR_CHECK_EVENTS, 3 * count * sizeof(uint64_t));
    if (size_events(r, count) < 0)
        return;
    pt->pub.events = pt->events;
    pt->pub.nevents = count;
    pt->has_events = count > 0;
}

/* event: NAME [= FORMULA] [: LONG NAME] */
static void event_line(cgw_reader *r, const char *value, const char *end)
{
    cgwr_part *pt = &r->part;
    cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_HEADER,
              "event: lines end Qt Creator's header; callgrind_annotate ignores them");
    const char *colon = memchr(value, ':', (size_t)(end - value));
    const char *eq = memchr(value, '=', (size_t)((colon ? colon : end) - value));
    const char *name_end = eq ? eq : colon ? colon : end;
    const char *long_name = colon ? text(r, colon + 1, end) : NULL;
    const char *formula = eq ? text(r, eq + 1, colon ? colon : end) : NULL;
    const char *name = text(r, value, name_end);
    if (name == NULL || (colon && long_name == NULL) || (eq && formula == NULL))
        return;
    if (name[0] == '\0') {
        cgwr_diag(r, r->lineno, CGWR_SYNTAX, "event: expects NAME [= FORMULA] [: LONG NAME]");
        return;
    }
    check_event_name(r, name, strlen(name));
    for (size_t i = 0; i < pt->pub.nderived; i++) {
        if (pt->derived[i].name == name) {
            pt->derived[i].long_name = long_name;
            pt->derived[i].formula = formula;
            return;
        }
    }
    size_t count = pt->pub.nderived;
    if (grow(r, (void **)&pt->derived, &pt->derived_cap, count, sizeof *pt->derived) < 0)
        return;
    pt->derived[count] = (cgw_event){ name, long_name, formula };
    pt->pub.nderived = count + 1;
}

/* The slot of kind in a position array of the kinds in mask. */
static int slot_of(unsigned mask, unsigned kind)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t count = cgw_pos_kinds(mask, kinds);
    int slot = 0;
    while ((size_t)slot < count && kinds[slot] != kind)
        slot++;
    return slot;
}

static void positions_line(cgw_reader *r, const char *cur, const char *end)
{
    cgwr_part *pt = &r->part;
    if (pt->has_events)
        cgwr_diag(r, r->lineno, CGWR_POSITIONS_AFTER_EVENTS,
                  "positions: after events: in part %u (KCachegrind starts a new part, "
                  "with no events, and rejects the file; callgrind_annotate ignores "
                  "the line)", pt->pub.index);
    unsigned mask = 0;
    int order[CGW_NPOS_MAX], count = 0;
    const char *start;
    for (size_t len; (len = word(&cur, end, &start)) > 0;) {
        unsigned bit = cgw_pos_kind(start, len);
        if (bit == 0 || (mask & bit)) {
            cgwr_diag(r, r->lineno, CGWR_SYNTAX,
                      "positions: expects instr, bb and line at most once each, found "
                      "\"%.*s\"", (int)(len > 40 ? 40 : len), start);
            return;
        }
        mask |= bit;
        order[count++] = (int)bit;
    }
    if (mask == 0)
        cgwr_diag(r, r->lineno, CGWR_NO_POSITION_COLUMN,
                  "positions: names no position, so cost lines have no position column "
                  "(callgrind_annotate reads the first cost as the line)");
    else if (mask & CGW_POS_BB)
        cgwr_diag(r, r->lineno, CGWR_BB_POSITIONS,
                  "bb positions (KCachegrind misplaces the costs; with another position, "
                  "callgrind_annotate dies and speedscope reads the second as the first "
                  "event)");
    else if (mask != CGW_POS_LINE && count > 1)
        cgwr_diag(r, r->lineno, CGWR_POSITIONS_NOT_LINE,
                  "positions other than line (speedscope reads the second column as the "
                  "first event)");
    else if (mask != CGW_POS_LINE)
        cgwr_diag(r, r->lineno, CGWR_ONE_POSITION_NOT_LINE,
                  "positions: instr without line (every reader takes one column; Qt Creator "
                  "wants lines)");
    for (int i = 1; i < count; i++)
        if (slot_of(mask, (unsigned)order[i]) < slot_of(mask, (unsigned)order[i - 1])) {
            cgwr_diag(r, r->lineno, CGWR_POSITIONS_ORDER,
                      "positions: not in the order instr, bb, line (callgrind_annotate dies, "
                      "KCachegrind reads the address first whatever the order)");
            break;
        }
    for (int i = 0; i < count; i++)
        r->pos_order[i] = slot_of(mask, (unsigned)order[i]);
    pt->pub.positions = mask != 0 ? mask : CGW_POS_NONE;
    pt->pub.npos = (size_t)count;
    pt->has_positions = 1;
}

/* Costs of summary: and totals: in out, missing ones zero: their number,
 * or -1 when a value is bad. */
static int cost_list(cgw_reader *r, const char *key, const char *cur, const char *end,
                     uint64_t *out)
{
    size_t count = 0;
    memset(out, 0, (r->nevents ? r->nevents : 1) * sizeof *out);
    for (;;) {
        while (cur < end && cgwr_blank(*cur))
            cur++;
        if (cur == end)
            break;
        int flags = 0;
        uint64_t value;
        const char *next = cgwr_number(cur, end, &value, &flags);
        if (next == NULL || (next < end && !cgwr_blank(*next)) || (flags & CGWR_NUM_OVERFLOW)) {
            cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                      "%s: value %zu is not an unsigned number below 2^64", key, count + 1);
            return -1;
        }
        if (count == r->nevents) {
            cgwr_diag(r, r->lineno, CGWR_TOO_MANY_COSTS, "%s: has more than the %zu events",
                      key, r->nevents);
            return -1;
        }
        out[count++] = value;
        cur = next;
    }
    if (count > 0 && count < r->nevents) /* speedscope reads neither line */
        cgwr_diag(r, r->lineno, CGWR_SHORT_SUMMARY, "%s: gives %zu of %zu events", key, count,
                  r->nevents);
    return (int)count;
}

static void summary_line(cgw_reader *r, const char *key, const char *value, const char *end)
{
    cgwr_part *pt = &r->part;
    if (!pt->has_events && r->nevents == 0) {
        cgwr_diag(r, r->lineno, CGWR_SUMMARY_BEFORE_EVENTS,
                  "%s: before events: (KCachegrind rejects the file)", key);
        return;
    }
    /* a line that is bad, empty or a second one is ignored: the first
     * valid one stands, as a writer can only give one */
    int count = cost_list(r, key, value, end, pt->scratch);
    if (count == 0)
        cgwr_diag(r, r->lineno, CGWR_SYNTAX, "%s: gives no cost; the line is ignored", key);
    if (count <= 0)
        return;
    int *has = key[0] == 's' ? &pt->has_summary : &pt->has_totals_line;
    if (*has) {
        cgwr_diag(r, r->lineno, CGWR_REPEATED_KEY, "a second %s: line in part %u; it is ignored",
                  key, pt->pub.index);
        return;
    }
    *has = 1;
    memcpy(key[0] == 's' ? pt->summary : pt->totals_line, pt->scratch,
           r->nevents * sizeof *pt->scratch);
    if (key[0] == 's' && !pt->body)
        pt->pub.summary = pt->summary;
    if (key[0] == 't')
        pt->totals_line_no = r->lineno;
}

static void desc_line(cgw_reader *r, const char *rest, const char *end)
{
    cgwr_part *pt = &r->part;
    const char *colon = memchr(rest, ':', (size_t)(end - rest));
    const char *type = text(r, rest, colon ? colon : end);
    const char *value = text(r, colon ? colon + 1 : end, end);
    size_t count = pt->pub.ndescs;
    if (type == NULL || value == NULL)
        return;
    if (type[0] == '\0') {
        cgwr_diag(r, r->lineno, CGWR_DESC_TYPE, "desc: expects TYPE: VALUE with a TYPE; "
                  "the line is ignored");
        return;
    }
    if (grow(r, (void **)&pt->descs, &pt->descs_cap, count, sizeof *pt->descs) < 0)
        return;
    pt->descs[count] = (cgw_desc){ type, value };
    pt->pub.descs = pt->descs;
    pt->pub.ndescs = count + 1;
}

/* Keys that start a new part when they come after a part's body. */
static int starts_part(const char *key, size_t len)
{
    static const char *const keys[] = { "version", "creator", "pid", "cmd", "part",
                                        "thread", "positions", "events" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strlen(keys[i]) == len && memcmp(keys[i], key, len) == 0)
            return 1;
    return 0;
}

static int key_is(const char *key, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(name, key, len) == 0;
}

static void order_check(cgw_reader *r, const char *key, size_t len)
{
    if (r->part.pub.index != 1)
        return;
    uint64_t at = ++r->header_keys;
    if ((key_is(key, len, "version") && at != 1) || (key_is(key, len, "creator") && at != 2))
        cgwr_diag(r, r->lineno, CGWR_HEADER_ORDER,
                  "%.*s: is header line %llu; gprof2dot stops there (it takes version: "
                  "only first and creator: only second)", (int)len, key,
                  (unsigned long long)at);
}

/* Xdebug 2 writes "version: 0.9.6", its own version, where the format's
 * is due: said, and read as format version 1 (KCachegrind ignores it). */
static int xdebug2_version(cgw_reader *r, const char *value, const char *end)
{
    const char *value_end = end;
    value = cgwr_trim(value, &value_end);
    size_t len = (size_t)(value_end - value);
    int dots = 0, digits = 0;
    for (size_t i = 0; i < len; i++) {
        dots += value[i] == '.';
        digits += value[i] >= '0' && value[i] <= '9';
    }
    if (dots == 0 || dots + digits != (int)len || value[0] == '.' || value[len - 1] == '.')
        return 0;
    cgwr_diag(r, r->lineno, CGWR_VERSION_TEXT,
              "version: %.*s is a program's version, not the format's (Xdebug 2 writes it); "
              "read as format version 1", cgwr_clip(value, value_end, 20), value);
    r->part.pub.version = 1;
    return 1;
}

/* A "key: value" line; the len bytes at key are the key, value..end the
 * value after ':'. */
static void dispatch(cgw_reader *r, const char *key, size_t len, const char *value, const char *end)
{
    cgwr_part *pt = &r->part;
    uint64_t num;
    if (key_is(key, len, "version")) {
        if (xdebug2_version(r, value, end))
            return;
        if (number(r, "version", value, end, &num)) {
            pt->pub.version = num;
            /* version 0 is the format before version 1 added name
             * compression, which a version 1 reader reads too */
            if (num > 1)
                cgwr_diag(r, r->lineno, CGWR_BAD_VERSION,
                          "version: %llu; this reader knows format versions 0 and 1",
                          (unsigned long long)num);
        }
    } else if (key_is(key, len, "creator")) {
        pt->pub.creator = text(r, value, end);
    } else if (key_is(key, len, "cmd")) {
        pt->pub.cmd = text(r, value, end);
    } else if (key_is(key, len, "pid")) {
        pt->pub.has_pid = number(r, "pid", value, end, &pt->pub.pid);
    } else if (key_is(key, len, "thread")) {
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_HEADER, "thread: ends Qt Creator's header");
        pt->pub.has_thread = number(r, "thread", value, end, &pt->pub.thread);
    } else if (key_is(key, len, "part")) {
        if (number(r, "part", value, end, &num))
            pt->pub.number = num;
    } else if (key_is(key, len, "desc")) {
        desc_line(r, value, end);
    } else if (key_is(key, len, "positions")) {
        positions_line(r, value, end);
    } else if (key_is(key, len, "events")) {
        events_line(r, value, end);
    } else if (key_is(key, len, "event")) {
        event_line(r, value, end);
    } else if (key_is(key, len, "summary") || key_is(key, len, "totals")) {
        summary_line(r, key_is(key, len, "summary") ? "summary" : "totals", value, end);
    } else {
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_HEADER, "unknown header line \"%.*s:\" ignored",
                  (int)(len > 40 ? 40 : len), key);
    }
}

static int is_key_char(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == ' ' || ch == '(' || ch == ')';
}

/* A line "key: value" (the key is [A-Za-z0-9_ ()]+ before ':').  Returns
 * 0 when the line is not one, 1 when it was read, 2 when it ends the part
 * (nothing is read then: the caller ends the part and reads the line
 * again in the next). */
int cgwr_header_line(cgw_reader *r, const char *cur, size_t len)
{
    const char *end = cur + len, *key = cur;
    while (cur < end && is_key_char(*cur))
        cur++;
    if (cur == end || *cur != ':' || cur == key)
        return 0;
    size_t key_len = (size_t)(cur - key);
    cur++;
    if (cur < end && *cur != ' ')
        cgwr_diag(r, r->lineno, CGWR_KEY_WITHOUT_SPACE,
                  "no space after \"%.*s:\" (callgrind_annotate and Qt Creator need \": \")",
                  (int)(key_len > 40 ? 40 : key_len), key);
    cgwr_part *pt = &r->part;
    if (pt->body || pt->has_totals_line) {
        if (starts_part(key, key_len)) {
            if (pt->body && key_is(key, key_len, "positions"))
                cgwr_diag(r, r->lineno, CGWR_POSITIONS_AFTER_EVENTS,
                          "positions: after the body of part %u began (KCachegrind starts a "
                          "new part here, with no events, and rejects the file; "
                          "callgrind_annotate ignores the line)",
                          pt->pub.index);
            return 2;
        }
        if (!key_is(key, key_len, "summary") && !key_is(key, key_len, "totals")) {
            cgwr_diag(r, r->lineno, CGWR_HEADER_IN_BODY,
                      "header line \"%.*s:\" inside the body (callgrind_annotate warns)",
                      (int)(key_len > 40 ? 40 : key_len), key);
        }
    }
    if (!pt->first_line)
        pt->first_line = r->lineno;
    order_check(r, key, key_len);
    dispatch(r, key, key_len, cur, end);
    return 1;
}

/* The events a formula may use: the part's events and the derived
 * events kept before it (as a writer must have defined them). */
typedef struct known_events {
    const cgwr_part *pt;
    size_t nkept;
} known_events;

static int same(const char *str, const char *name, size_t len)
{
    return strncmp(str, name, len) == 0 && str[len] == '\0';
}

/* Whether name[0..len) is one of the part's cost columns. */
static int has_column(const cgwr_part *pt, const char *name, size_t len)
{
    for (size_t i = 0; i < pt->pub.nevents; i++)
        if (same(pt->events[i].name, name, len))
            return 1;
    return 0;
}

static int known(void *ctx, const char *name, size_t len)
{
    const known_events *events = ctx;
    if (has_column(events->pt, name, len))
        return 1;
    for (size_t i = 0; i < events->nkept; i++)
        if (same(events->pt->derived[i].name, name, len))
            return 1;
    return 0;
}

/* Keep the derived events with a formula that a writer accepts: not a
 * name that already has a cost column, and a formula of known events. */
static void keep_derived(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    known_events allowed = { pt, 0 };
    char msg[160];
    for (size_t j = 0; j < pt->pub.nderived; j++) {
        const cgw_event *ev = &pt->derived[j];
        if (ev->formula == NULL)
            continue;
        if (has_column(pt, ev->name, strlen(ev->name))) {
            cgwr_diag(r, pt->first_line, CGWR_BAD_FORMULA,
                      "event %s = %s: %s has a cost column in events:; the formula is ignored",
                      ev->name, ev->formula, ev->name);
            continue;
        }
        if (cgwp_formula_check(ev->formula, known, &allowed, msg, sizeof msg) != 0) {
            cgwr_diag(r, pt->first_line, CGWR_BAD_FORMULA,
                      "event %s = %s: %s; the derived event is ignored", ev->name, ev->formula,
                      msg);
            continue;
        }
        pt->derived[allowed.nkept++] = *ev;
    }
    pt->pub.nderived = allowed.nkept;
    pt->pub.derived = pt->derived;
}

/* Give the part's header as a record, once, before its first body record. */
void cgwr_announce_part(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    if (pt->announced)
        return;
    pt->announced = 1;
    if (pt->pub.index == 1 && pt->pub.positions == CGW_POS_LINE && !pt->has_positions)
        cgwr_diag(r, pt->first_line, CGWR_NO_POSITIONS,
                  "no positions: line (Qt Creator then reads no position column)");
    /* long names given by event: lines */
    for (size_t i = 0; i < pt->pub.nevents; i++)
        for (size_t j = 0; j < pt->pub.nderived; j++)
            if (pt->derived[j].name == pt->events[i].name && pt->derived[j].formula == NULL)
                pt->events[i].long_name = pt->derived[j].long_name;
    keep_derived(r);
    cgwr_push(r, CGW_REC_PART, pt->first_line ? pt->first_line : r->lineno);
}

