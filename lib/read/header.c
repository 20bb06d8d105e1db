/* header.c - header lines (key: value), and the part's header handed
 * out as a CGW_REC_PART record once it is complete (cgwr_announce_part(),
 * before the part's first body record).  When a part starts and ends is
 * part.c's. */
#include <string.h>

#include "common/formula.h"
#include "read.h"

/* The next blank-separated word of p..end in *s, its length returned
 * (0 at the end); *p moves past it. */
static size_t word(const char **p, const char *end, const char **s)
{
    const char *q = *p;
    while (q < end && cgwr_blank(*q))
        q++;
    *s = q;
    while (q < end && !cgwr_blank(*q))
        q++;
    *p = q;
    return (size_t)(q - *s);
}

static const char *text(cgw_reader *r, const char *p, const char *end)
{
    p = cgwr_trim(p, &end);
    const cgwr_str *s = cgwr_intern(r, p, (size_t)(end - p));
    return s ? s->s : NULL;
}

/* One number that is the whole value; 0 and a diagnostic when not. */
static int number(cgw_reader *r, const char *key, const char *p, const char *end, uint64_t *v)
{
    const char *e = end;
    int flags = 0;
    p = cgwr_trim(p, &e);
    const char *q = cgwr_number(p, e, v, &flags);
    if (q == NULL || q != e || (flags & CGWR_NUM_OVERFLOW)) {
        cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                  "%s: expects one unsigned number below 2^64, found \"%.*s\"", key,
                  cgwr_clip(p, e, 40), p);
        return 0;
    }
    return 1;
}

static int grow(cgw_reader *r, void **arr, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *a = cgwp_realloc(&r->alloc, *arr, c * size);
    if (a == NULL) {
        cgwr_fail(r, CGW_ENOMEM, "out of memory for the header at line %llu",
                  (unsigned long long)r->lineno);
        return -1;
    }
    *arr = a;
    *cap = c;
    return 0;
}

/* Per-event arrays of the part; sized when events: gives their number. */
static int size_events(cgw_reader *r, size_t n)
{
    cgwr_part *pt = &r->part;
    size_t bytes = (n ? n : 1) * sizeof(uint64_t);
    uint64_t **arrs[] = { &pt->summary, &pt->totals_line, &pt->totals, &pt->scratch,
                          &r->block_start,
                          &r->costs[0], &r->costs[1], &r->costs[2] };
    for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++) {
        uint64_t *a = cgwp_realloc(&r->alloc, *arrs[i], bytes);
        if (a == NULL) {
            cgwr_fail(r, CGW_ENOMEM, "out of memory for %zu events", n);
            return -1;
        }
        memset(a, 0, bytes);
        *arrs[i] = a;
    }
    /* a summary: or totals: given before was for other events, and its
     * array has moved */
    pt->has_summary = pt->has_totals_line = 0;
    pt->pub.summary = NULL;
    r->nevents = n;
    return 0;
}

/* Warn about an event name that formulas cannot use. */
static void check_event_name(cgw_reader *r, const char *name, size_t len)
{
    if (len == 0 || cgwp_event_name_span(name, len) != len)
        cgwr_diag(r, r->lineno, CGWR_EVENT_NAME,
                  "event name \"%.40s\" is not [A-Za-z_][A-Za-z0-9_]* (formulas cannot "
                  "use it; the libcgw writer refuses it)", name);
}

static void events_line(cgw_reader *r, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    if (pt->has_events && !pt->body)
        cgwr_diag(r, r->lineno, CGWR_EVENTS_REDEFINED,
                  "a second events: line in the header of part %u", pt->pub.index);
    size_t n = 0;
    for (const char *s; word(&p, end, &s) > 0;) {
        if (grow(r, (void **)&pt->events, &pt->events_cap, n, sizeof *pt->events) < 0)
            return;
        const cgwr_str *name = cgwr_intern(r, s, (size_t)(p - s));
        if (name == NULL)
            return;
        check_event_name(r, name->s, name->len);
        for (size_t i = 0; i < n; i++)
            if (pt->events[i].name == name->s)
                cgwr_diag(r, r->lineno, CGWR_DUPLICATE_EVENT,
                          "event %s is listed twice", name->s);
        pt->events[n++] = (cgw_event){ name->s, NULL, NULL };
    }
    if (n == 0)
        cgwr_diag(r, r->lineno, CGWR_MISSING_EVENTS, "events: names no event");
    if (n > 200)
        cgwr_diag(r, r->lineno, CGWR_MANY_EVENTS,
                  "%zu events; viewers are slow or limited beyond 200", n);
    if (size_events(r, n) < 0)
        return;
    pt->pub.events = pt->events;
    pt->pub.nevents = n;
    pt->has_events = n > 0;
}

/* event: NAME [= FORMULA] [: LONG NAME] */
static void event_line(cgw_reader *r, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_HEADER,
              "event: lines end Qt Creator's header; callgrind_annotate ignores them");
    const char *colon = memchr(p, ':', (size_t)(end - p));
    const char *eq = memchr(p, '=', (size_t)((colon ? colon : end) - p));
    const char *name_end = eq ? eq : colon ? colon : end;
    const char *long_name = colon ? text(r, colon + 1, end) : NULL;
    const char *formula = eq ? text(r, eq + 1, colon ? colon : end) : NULL;
    const char *name = text(r, p, name_end);
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
    size_t n = pt->pub.nderived;
    if (grow(r, (void **)&pt->derived, &pt->derived_cap, n, sizeof *pt->derived) < 0)
        return;
    pt->derived[n] = (cgw_event){ name, long_name, formula };
    pt->pub.nderived = n + 1;
}

/* The slot of kind in a position array of the kinds in mask. */
static int slot_of(unsigned mask, unsigned kind)
{
    unsigned kinds[CGW_NPOS_MAX];
    size_t n = cgw_pos_kinds(mask, kinds);
    int slot = 0;
    while ((size_t)slot < n && kinds[slot] != kind)
        slot++;
    return slot;
}

static void positions_line(cgw_reader *r, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    if (pt->has_events)
        cgwr_diag(r, r->lineno, CGWR_POSITIONS_AFTER_EVENTS,
                  "positions: after events: in part %u (KCachegrind starts a new part, "
                  "callgrind_annotate misparses it)", pt->pub.index);
    unsigned mask = 0;
    int order[CGW_NPOS_MAX], n = 0;
    const char *s;
    for (size_t k; (k = word(&p, end, &s)) > 0;) {
        unsigned bit = cgw_pos_kind(s, k);
        if (bit == 0 || (mask & bit)) {
            cgwr_diag(r, r->lineno, CGWR_SYNTAX,
                      "positions: expects instr, bb and line at most once each, found "
                      "\"%.*s\"", (int)(k > 40 ? 40 : k), s);
            return;
        }
        mask |= bit;
        order[n++] = (int)bit;
    }
    if (mask == 0) {
        cgwr_diag(r, r->lineno, CGWR_SYNTAX, "positions: names no position");
        return;
    }
    if (mask != CGW_POS_LINE)
        cgwr_diag(r, r->lineno, CGWR_POSITIONS_NOT_LINE,
                  "positions other than line (speedscope reads one column only)");
    for (int i = 0; i < n; i++)
        r->pos_order[i] = slot_of(mask, (unsigned)order[i]);
    pt->pub.positions = mask;
    pt->pub.npos = (size_t)n;
    pt->has_positions = 1;
}

/* Costs of summary: and totals: in out, missing ones zero: their number,
 * or -1 when a value is bad. */
static int cost_list(cgw_reader *r, const char *key, const char *p, const char *end,
                     uint64_t *out)
{
    size_t n = 0;
    memset(out, 0, (r->nevents ? r->nevents : 1) * sizeof *out);
    for (;;) {
        while (p < end && cgwr_blank(*p))
            p++;
        if (p == end)
            break;
        int flags = 0;
        uint64_t v;
        const char *q = cgwr_number(p, end, &v, &flags);
        if (q == NULL || (q < end && !cgwr_blank(*q)) || (flags & CGWR_NUM_OVERFLOW)) {
            cgwr_diag(r, r->lineno, (flags & CGWR_NUM_OVERFLOW) ? CGWR_OVERFLOW : CGWR_BAD_NUMBER,
                      "%s: value %zu is not an unsigned number below 2^64", key, n + 1);
            return -1;
        }
        if (n == r->nevents) {
            cgwr_diag(r, r->lineno, CGWR_TOO_MANY_COSTS, "%s: has more than the %zu events",
                      key, r->nevents);
            return -1;
        }
        out[n++] = v;
        p = q;
    }
    if (n > 0 && n < r->nevents)
        cgwr_diag(r, r->lineno, CGWR_FEW_COSTS, "%s: gives %zu of %zu events", key, n,
                  r->nevents);
    return (int)n;
}

static void summary_line(cgw_reader *r, const char *key, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    if (!pt->has_events && r->nevents == 0) {
        cgwr_diag(r, r->lineno, CGWR_SUMMARY_BEFORE_EVENTS,
                  "%s: before events: (KCachegrind rejects the file)", key);
        return;
    }
    /* a line that is bad, empty or a second one is ignored: the first
     * valid one stands, as a writer can only give one */
    int n = cost_list(r, key, p, end, pt->scratch);
    if (n == 0)
        cgwr_diag(r, r->lineno, CGWR_SYNTAX, "%s: gives no cost; the line is ignored", key);
    if (n <= 0)
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

static void desc_line(cgw_reader *r, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    const char *type = text(r, p, colon ? colon : end);
    const char *value = text(r, colon ? colon + 1 : end, end);
    size_t n = pt->pub.ndescs;
    if (type == NULL || value == NULL)
        return;
    if (type[0] == '\0') {
        cgwr_diag(r, r->lineno, CGWR_DESC_TYPE, "desc: expects TYPE: VALUE with a TYPE; "
                  "the line is ignored");
        return;
    }
    if (grow(r, (void **)&pt->descs, &pt->descs_cap, n, sizeof *pt->descs) < 0)
        return;
    pt->descs[n] = (cgw_desc){ type, value };
    pt->pub.descs = pt->descs;
    pt->pub.ndescs = n + 1;
}

/* Keys that start a new part when they come after a part's body. */
static int starts_part(const char *k, size_t n)
{
    static const char *const keys[] = { "version", "creator", "pid", "cmd", "part",
                                        "thread", "positions", "events" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strlen(keys[i]) == n && memcmp(keys[i], k, n) == 0)
            return 1;
    return 0;
}

static int key_is(const char *k, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(name, k, n) == 0;
}

static void order_check(cgw_reader *r, const char *k, size_t n)
{
    if (r->part.pub.index != 1)
        return;
    uint64_t at = ++r->header_keys;
    if ((key_is(k, n, "version") && at != 1) || (key_is(k, n, "creator") && at != 2))
        cgwr_diag(r, r->lineno, CGWR_HEADER_ORDER,
                  "%.*s: is header line %llu; gprof2dot reads version: only first and "
                  "creator: only second", (int)n, k, (unsigned long long)at);
}

/* A "key: value" line; k..k+n is the key, p..end the value after ':'. */
static void dispatch(cgw_reader *r, const char *k, size_t n, const char *p, const char *end)
{
    cgwr_part *pt = &r->part;
    uint64_t v;
    if (key_is(k, n, "version")) {
        if (number(r, "version", p, end, &v)) {
            pt->pub.version = v;
            if (v != 1)
                cgwr_diag(r, r->lineno, CGWR_BAD_VERSION,
                          "version: %llu; this reader knows format version 1",
                          (unsigned long long)v);
        }
    } else if (key_is(k, n, "creator")) {
        pt->pub.creator = text(r, p, end);
    } else if (key_is(k, n, "cmd")) {
        pt->pub.cmd = text(r, p, end);
    } else if (key_is(k, n, "pid")) {
        pt->pub.has_pid = number(r, "pid", p, end, &pt->pub.pid);
    } else if (key_is(k, n, "thread")) {
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_HEADER, "thread: ends Qt Creator's header");
        pt->pub.has_thread = number(r, "thread", p, end, &pt->pub.thread);
    } else if (key_is(k, n, "part")) {
        if (number(r, "part", p, end, &v))
            pt->pub.number = v;
    } else if (key_is(k, n, "desc")) {
        desc_line(r, p, end);
    } else if (key_is(k, n, "positions")) {
        positions_line(r, p, end);
    } else if (key_is(k, n, "events")) {
        events_line(r, p, end);
    } else if (key_is(k, n, "event")) {
        event_line(r, p, end);
    } else if (key_is(k, n, "summary") || key_is(k, n, "totals")) {
        summary_line(r, key_is(k, n, "summary") ? "summary" : "totals", p, end);
    } else {
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_HEADER, "unknown header line \"%.*s:\" ignored",
                  (int)(n > 40 ? 40 : n), k);
    }
}

static int is_key_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == ' ' || c == '(' || c == ')';
}

/* A line "key: value" (the key is [A-Za-z0-9_ ()]+ before ':').  Returns
 * 0 when the line is not one, 1 when it was read, 2 when it ends the part
 * (nothing is read then: the caller ends the part and reads the line
 * again in the next). */
int cgwr_header_line(cgw_reader *r, const char *p, size_t len)
{
    const char *end = p + len, *k = p;
    while (p < end && is_key_char(*p))
        p++;
    if (p == end || *p != ':' || p == k)
        return 0;
    size_t n = (size_t)(p - k);
    p++;
    if (p < end && *p != ' ')
        cgwr_diag(r, r->lineno, CGWR_KEY_WITHOUT_SPACE,
                  "no space after \"%.*s:\" (callgrind_annotate and Qt Creator need \": \")",
                  (int)(n > 40 ? 40 : n), k);
    cgwr_part *pt = &r->part;
    if (pt->body || pt->has_totals_line) {
        if (starts_part(k, n))
            return 2;
        if (!key_is(k, n, "summary") && !key_is(k, n, "totals")) {
            cgwr_diag(r, r->lineno, CGWR_HEADER_IN_BODY,
                      "header line \"%.*s:\" inside the body (callgrind_annotate warns)",
                      (int)(n > 40 ? 40 : n), k);
        }
    }
    if (!pt->first_line)
        pt->first_line = r->lineno;
    order_check(r, k, n);
    dispatch(r, k, n, p, end);
    return 1;
}

/* The events a formula may use: the part's events and the derived
 * events kept before it (as a writer must have defined them). */
typedef struct known_events {
    const cgwr_part *pt;
    size_t nkept;
} known_events;

static int same(const char *s, const char *name, size_t len)
{
    return strncmp(s, name, len) == 0 && s[len] == '\0';
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
    const known_events *k = ctx;
    if (has_column(k->pt, name, len))
        return 1;
    for (size_t i = 0; i < k->nkept; i++)
        if (same(k->pt->derived[i].name, name, len))
            return 1;
    return 0;
}

/* Keep the derived events with a formula that a writer accepts: not a
 * name that already has a cost column, and a formula of known events. */
static void keep_derived(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    known_events k = { pt, 0 };
    char msg[160];
    for (size_t j = 0; j < pt->pub.nderived; j++) {
        const cgw_event *d = &pt->derived[j];
        if (d->formula == NULL)
            continue;
        if (has_column(pt, d->name, strlen(d->name))) {
            cgwr_diag(r, pt->first_line, CGWR_BAD_FORMULA,
                      "event %s = %s: %s has a cost column in events:; the formula is ignored",
                      d->name, d->formula, d->name);
            continue;
        }
        if (cgwp_formula_check(d->formula, known, &k, msg, sizeof msg) != 0) {
            cgwr_diag(r, pt->first_line, CGWR_BAD_FORMULA,
                      "event %s = %s: %s; the derived event is ignored", d->name, d->formula,
                      msg);
            continue;
        }
        pt->derived[k.nkept++] = *d;
    }
    pt->pub.nderived = k.nkept;
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

