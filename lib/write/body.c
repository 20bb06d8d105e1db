/* SPDX-License-Identifier: MIT */
/* body.c - position specs, cost lines, calls and jumps.  Portable mode
 * writes fl= before every fn=, cob= (when objects are used), cfi= and cfn=
 * before every calls=, and full cost vectors.  CGW_COMPACT writes specs
 * only on change and drops trailing zero costs.  Both close an inlined
 * file with fe= before the block ends.  Every argument is checked before anything
 * is written, so a refused call leaves no partial line. */
#include <string.h>

#include "write.h"

static const uint64_t zero_pos[CGW_NPOS_MAX];

/* cur_fn is set only in the body, so a call refused here has not written
 * the header either. */
cgw_status cgwp_enter_function(cgw_writer *w, const char *call)
{
    cgw_status st = cgwp_enter(w, call, CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY);
    if (st != CGW_OK)
        return st;
    if (w->cur_fn == 0)
        return cgwp_fail(w, CGW_EUSAGE, "no function: call cgw_function() first");
    if (w->next_ob != w->cur_ob || (w->next_fl != 0 && w->next_fl != w->cur_fl))
        return cgwp_fail(w, CGW_EUSAGE, "the object or file changed since cgw_function(); "
                         "call cgw_function() before more costs");
    return CGW_OK;
}

static cgw_status check_costs(cgw_writer *w, const char *what, const uint64_t *costs, size_t ncosts)
{
    if (ncosts > w->nevents)
        return cgwp_fail(w, CGW_EINVAL, "%zu %s costs for %zu events", ncosts, what, w->nevents);
    if (ncosts > 0 && costs == NULL)
        return cgwp_fail(w, CGW_EINVAL, "%s costs are NULL", what);
    return CGW_OK;
}

cgw_status cgwp_begin_body(cgw_writer *w)
{
    if (w->nevents == 0)
        return cgwp_fail(w, CGW_EUSAGE, "no event defined: call cgw_add_event() first");
    if (w->totals == NULL) {
        w->line_max = 128 + 2 * CGWP_POS_MAX + 21 * w->nevents;
        w->totals = cgwp_alloc(&w->alloc, w->nevents * sizeof *w->totals);
        w->line = cgwp_alloc(&w->alloc, w->line_max);
        if (w->totals == NULL || w->line == NULL)
            return cgwp_fail(w, CGW_ENOMEM, "out of memory for %zu events", w->nevents);
    }
    memset(w->totals, 0, w->nevents * sizeof *w->totals);
    w->room = UINT64_MAX;
    cgw_status st = cgwp_write_header(w);
    if (st == CGW_OK)
        w->state = CGWP_ST_BODY;
    cgwp_gate(w);
    return st;
}

/* Return to the function's own file before the block ends, compact mode
 * too: callgrind_annotate keeps an fi= file across fn= and fl=. */
cgw_status cgwp_end_function(cgw_writer *w)
{
    if (w->cur_fn == 0 || w->cur_fi == w->cur_fl)
        return CGW_OK;
    w->cur_fi = w->cur_fl;
    return cgwp_write_name(w, "fe=", CGWP_FL, w->cur_fl);
}

/* A cost line without a position column (CGW_POS_NONE), its costs at
 * first..out: the first without the blank before it, and one at least. */
static CGWP_COLD char *unpositioned_costs(char *first, char *out)
{
    if (out == first) {
        *out++ = '0';
        return out;
    }
    memmove(first, first + 1, (size_t)(out - first - 1));
    return out - 1;
}

/* " c1 c2 ...": every event in portable mode, no trailing zeros compact.
 * With any (cgw_cost passes it, a call passes NULL), each cost is added
 * to w->totals in the same pass and *any gets the OR of the costs, an
 * upper bound of the largest, for cgw_cost's overflow test.  Inlined,
 * the NULL of a call is a constant, so the test leaves both loops.
 * Compact mode writes every cost given too, then cuts the line after the
 * last one that is not 0: a conditional move a cost, where looking for
 * the trailing zeros first cost a loop with an unpredictable exit. */
static CGWP_HOT_INLINE char *put_costs(const cgw_writer *w, char *out, const uint64_t *costs,
                                       size_t ncosts, uint64_t *any)
{
    uint64_t *totals = w->totals, bits = 0;
    char *first = out, *last = out; /* the end of the last cost not 0 */
    for (size_t i = 0; i < ncosts; i++) {
        uint64_t cost = costs[i];
        if (any != NULL) {
            totals[i] += cost;
            bits |= cost;
        }
        *out++ = ' ';
        out = cgwp_fmt_dec(out, cost);
        last = cost != 0 ? out : last;
    }
    if (any != NULL)
        *any = bits;
    if (w->flags & CGW_COMPACT) {
        out = last;
    } else {
        for (size_t i = ncosts; i < w->nevents; i++) {
            out[0] = ' ';
            out[1] = '0';
            out += 2;
        }
    }
    if (__builtin_expect(w->npos == 0, 0))
        out = unpositioned_costs(first, out);
    return out;
}

static cgw_status choose(cgw_writer *w, const char *call, int kind, const char *what,
                         const char *name, uint32_t *slot)
{
    cgw_status st = cgwp_enter_body(w, call);
    if (st == CGW_OK)
        st = cgwp_intern(w, kind, what, name, 0, 0, slot);
    if (st == CGW_OK)
        cgwp_gate(w);
    return st;
}

cgw_status cgw_object(cgw_writer *w, const char *name)
{
    if (name == NULL || name[0] == '\0') { /* back to no object (CGW_NO_OBJECT) */
        cgw_status st = cgwp_enter_body(w, "cgw_object");
        if (st == CGW_OK)
            w->next_ob = 0;
        return st;
    }
    return choose(w, "cgw_object", CGWP_OB, "object name", name, &w->next_ob);
}

cgw_status cgw_file(cgw_writer *w, const char *name)
{
    return choose(w, "cgw_file", CGWP_FL, "file name", name, &w->next_fl);
}

/* The entry of the "???" file, for a function named without a file. */
cgw_status cgwp_unknown_file(cgw_writer *w, uint32_t *fl)
{
    if (w->unknown_fl == 0) {
        cgw_status st = cgwp_intern(w, CGWP_FL, NULL, "???", 0, 0, &w->unknown_fl);
        if (st != CGW_OK)
            return st;
    }
    *fl = w->unknown_fl;
    return CGW_OK;
}

cgw_status cgw_function(cgw_writer *w, const char *name)
{
    uint32_t fl = w ? w->next_fl : 0, fn;
    cgw_status st = cgwp_enter_body(w, "cgw_function");
    if (st == CGW_OK && fl == 0)
        st = cgwp_unknown_file(w, &fl);
    if (st == CGW_OK)
        st = cgwp_intern(w, CGWP_FN, "function name", name, w->next_ob, fl, &fn);
    if (st != CGW_OK)
        return st;
    return cgwp_open_function(w, w->next_ob, fl, fn);
}

/* The fn= block of function entry fn in object ob and file fl (entries;
 * ob 0: none), its names interned and checked; they become the object
 * and file of the next cgw_function(), as if cgw_object() and cgw_file()
 * had chosen them. */
cgw_status cgwp_open_function(cgw_writer *w, uint32_t ob, uint32_t fl, uint32_t fn)
{
    cgw_status st = cgwp_end_function(w);
    if (st != CGW_OK)
        return st;
    int compact = (w->flags & CGW_COMPACT) != 0;
    if (!compact)
        st = cgwp_puts(w, "\n", 1);
    if (st == CGW_OK && ob != w->written_ob)
        st = ob != 0 ? cgwp_write_name(w, "ob=", CGWP_OB, ob) : cgwp_puts(w, "ob=\n", 4);
    w->written_ob = ob;
    if (st == CGW_OK && (!compact || fl != w->written_fl))
        st = cgwp_write_name(w, "fl=", CGWP_FL, fl);
    w->written_fl = fl;
    if (st == CGW_OK)
        st = cgwp_write_name(w, "fn=", CGWP_FN, fn);
    w->next_ob = w->cur_ob = ob;
    w->next_fl = w->cur_fl = w->cur_fi = fl;
    w->cur_fn = fn;
    w->base_valid = 0;
    cgwp_gate(w);
    return st;
}

cgw_status cgw_inline_file(cgw_writer *w, const char *name)
{
    uint32_t fl;
    cgw_status st = cgwp_enter_function(w, "cgw_inline_file");
    if (st == CGW_OK)
        st = cgwp_intern(w, CGWP_FL, "inline file name", name, 0, 0, &fl);
    if (st != CGW_OK)
        return st;
    return cgwp_switch_file(w, fl);
}

/* Costs from file entry fl from now on: fi=, or fe= back to the
 * function's own file. */
cgw_status cgwp_switch_file(cgw_writer *w, uint32_t fl)
{
    if (fl == w->cur_fi)
        return CGW_OK;
    w->cur_fi = fl;
    return cgwp_write_name(w, fl == w->cur_fl ? "fe=" : "fi=", CGWP_FL, fl);
}

/* Every check of cgw_cost at once, for the hot path; when one fails the
 * slow path repeats them one by one to say which. */
static int cost_ready(const cgw_writer *w, const uint64_t *pos, const uint64_t *costs,
                      size_t ncosts)
{
    return w != NULL && w->costs_open && pos != NULL && ncosts <= w->nevents && (costs != NULL || ncosts == 0) &&
           (w->line_slot < 0 || (pos[w->line_slot] >> 32) == 0);
}

/* A line number of 2^32 or more, which KCachegrind reads as 32 bits,
 * unless CGW_EXTENDED; what names the position in the message. */
static cgw_status check_line(cgw_writer *w, const char *what, const uint64_t *pos)
{
    if (pos == NULL || w->line_slot < 0 || (pos[w->line_slot] >> 32) == 0)
        return CGW_OK;
    return cgwp_fail(w, CGW_ERANGE, "%s line %llu is 2^32 or more (KCachegrind reads line "
                     "numbers as 32 bits); CGW_EXTENDED allows it", what,
                     (unsigned long long)pos[w->line_slot]);
}

/* The costs just added may have made a total pass 2^64-1, as w->room (a
 * lower bound of what every total can still take) no longer excludes
 * it: CGW_OK with w->room exact again, or take the costs back out and
 * name the first event that overflows.  Compact mode added none of the
 * trailing zeros, which cannot wrap anything. */
static CGWP_COLD cgw_status check_totals(cgw_writer *w, const uint64_t *costs, size_t ncosts)
{
    uint64_t room = UINT64_MAX;
    size_t i, wrapped = 0;
    for (i = 0; i < ncosts; i++)
        wrapped |= w->totals[i] < costs[i];
    if (!wrapped) {
        for (i = 0; i < w->nevents; i++)
            if (UINT64_MAX - w->totals[i] < room)
                room = UINT64_MAX - w->totals[i];
        w->room = room;
        return CGW_OK;
    }
    for (i = 0; i < ncosts; i++)
        w->totals[i] -= costs[i];
    for (i = 0; i + 1 < ncosts && costs[i] <= UINT64_MAX - w->totals[i]; i++)
        ;
    w->call = "cgw_cost";
    return cgwp_fail(w, CGW_ERANGE, "the total of event %zu would pass 2^64-1", i + 1);
}

/* cgw_cost() when cost_ready() fails: the checks one at a time. */
static CGWP_COLD cgw_status check_cost(cgw_writer *w, const uint64_t *pos, const uint64_t *costs,
                                       size_t ncosts)
{
    cgw_status st = cgwp_enter_function(w, "cgw_cost");
    if (st == CGW_OK && pos == NULL && w->npos > 0)
        st = cgwp_fail(w, CGW_EINVAL, "position is NULL");
    if (st == CGW_OK)
        st = check_costs(w, "self", costs, ncosts);
    if (st == CGW_OK)
        st = check_line(w, "the", pos);
    return st;
}

/* cgw_cost() in every case: the checks, then the line through cgwp_pos()
 * and put_costs(). */
static CGWP_NOINLINE cgw_status any_cost(cgw_writer *w, const uint64_t *pos,
                                        const uint64_t *costs, size_t ncosts)
{
    if (!cost_ready(w, pos, costs, ncosts)) {
        cgw_status st = check_cost(w, pos, costs, ncosts);
        if (st != CGW_OK)
            return st;
    }
    /* w->call, for the messages, is set only where a message can come */
    char *start = w->buf + w->len;
    if (w->cap - w->len < w->line_max) {
        w->call = "cgw_cost";
        start = cgwp_reserve_slow(w, w->line_max);
        if (start == NULL)
            return w->err;
    }
    uint64_t any;
    char *out = cgwp_pos(w, start, pos, 0);
    out = put_costs(w, out, costs, ncosts, &any);
    if (any <= w->room) { /* no cost can have made its total wrap */
        w->room -= any;
    } else {
        cgw_status st = check_totals(w, costs, ncosts);
        if (st != CGW_OK)
            return st;
    }
    *out++ = '\n';
    return cgwp_commit(w, start, out);
}

/* A step of one pass (below): the difference of two values below 2^63,
 * as a signed number.  Whether it is below bound either way: shifted up
 * by bound - 1, exactly those steps are 0 .. 2 bound - 2. */
static CGWP_HOT_INLINE int step_below(uint64_t step, uint64_t bound)
{
    return step + bound - 1 < 2 * bound - 1;
}

/* "*", "+N" or "-N" for a step. */
static CGWP_HOT_INLINE char *put_step(char *out, uint64_t step)
{
    if (step == 0) {
        *out = '*';
        return out + 1;
    }
    int minus = (int64_t)step < 0;
    *out = minus ? '-' : '+';
    return cgwp_fmt_dec(out + 1, minus ? -step : step);
}

/* The commonest cost line, in one pass with few registers live: a cost
 * for every event (w->one_pass says the rest of the state allows it),
 * each of its one or two subpositions a step from the line before that
 * the mode writes relative (below 2^31 either way; in compact mode, where
 * cgwp_compact_plain() says "+N" is plainly no longer), values below 2^63,
 * so that a step is their difference as a signed number, and a line
 * below 2^32 unless CGW_EXTENDED.  0 when any_cost() must write it
 * (nothing is changed then); 1 when taken: written, or refused by
 * check_totals() (the writer's error says which).  Inlined four times,
 * compact and two (two subpositions, else one) constants in each. */
static CGWP_HOT_INLINE int one_pass(cgw_writer *w, const uint64_t *pos, const uint64_t *costs,
                                    size_t ncosts, const int compact, const int two)
{
    if (w->cap - w->len < w->line_max)
        return 0;
    uint64_t p0 = pos[0], p1 = two ? pos[1] : 0, b0 = w->base[0], b1 = two ? w->base[1] : 0;
    uint64_t s0 = p0 - b0, s1 = p1 - b1, bound = (uint64_t)1 << 31;
    int relative;
    if (compact) /* the steps' sizes: positive or negative as signed */
        relative = cgwp_compact_plain(p0, (int64_t)s0 < 0 ? -s0 : s0, w->nhex > 0) &&
                   (!two || cgwp_compact_plain(p1, (int64_t)s1 < 0 ? -s1 : s1, w->nhex > 1));
    else
        relative = step_below(s0, bound) && step_below(s1, bound);
    if (((p0 | b0 | p1 | b1) >> 63) != 0 || !relative ||
        (w->line_slot >= 0 && (pos[w->line_slot] >> 32) != 0))
        return 0;
    char *out = put_step(w->buf + w->len, s0);
    if (two) {
        *out++ = ' ';
        out = put_step(out, s1);
    }
    /* the new base now, so that no position stays live across the costs:
     * a refusal below leaves the writer failed, its base unused */
    w->base[0] = p0;
    if (two)
        w->base[1] = p1;
    /* compact mode leaves out the trailing zeros, which add nothing */
    if (compact)
        while (ncosts > 0 && costs[ncosts - 1] == 0)
            ncosts--;
    uint64_t *totals = w->totals, any = 0;
    for (size_t i = 0; i < ncosts; i++) {
        uint64_t cost = costs[i];
        totals[i] += cost;
        any |= cost;
        *out++ = ' ';
        out = cgwp_fmt_dec(out, cost);
    }
    if (any <= w->room) /* no cost can have made its total wrap */
        w->room -= any;
    else if (check_totals(w, costs, ncosts) != CGW_OK)
        return 1;
    *out++ = '\n';
    w->len = (size_t)(out - w->buf);
    return 1;
}

/* The one pass for each mode and number of subpositions, out of
 * cgw_cost(), so that cgw_cost() itself saves no register before it
 * knows which applies, and each is compiled for its own case. */
#define ONE_PASS_COST(name, compact, two)                                                     \
    static CGWP_NOINLINE cgw_status name(cgw_writer *w, const uint64_t *pos,                  \
                                         const uint64_t *costs, size_t ncosts)                \
    {                                                                                         \
        if (one_pass(w, pos, costs, ncosts, compact, two))                                    \
            return w->err;                                                                    \
        return any_cost(w, pos, costs, ncosts);                                               \
    }
ONE_PASS_COST(portable_cost_1, 0, 0)
ONE_PASS_COST(portable_cost_2, 0, 1)
ONE_PASS_COST(compact_cost_1, 1, 0)
ONE_PASS_COST(compact_cost_2, 1, 1)
#undef ONE_PASS_COST

/* cgw_cost() by w->one_pass: the general path for 0. */
typedef cgw_status cost_fn(cgw_writer *w, const uint64_t *pos, const uint64_t *costs,
                           size_t ncosts);
static cost_fn *const cost_by_pass[] = {
    [0] = any_cost,
    [CGWP_ONE_PASS_1] = portable_cost_1,
    [CGWP_ONE_PASS_2] = portable_cost_2,
    [CGWP_ONE_PASS_COMPACT_1] = compact_cost_1,
    [CGWP_ONE_PASS_COMPACT_2] = compact_cost_2,
};

cgw_status cgw_cost(cgw_writer *w, const uint64_t *pos, const uint64_t *costs, size_t ncosts)
{
    if (w == NULL || pos == NULL || costs == NULL || ncosts != w->nevents)
        return any_cost(w, pos, costs, ncosts);
    return cost_by_pass[w->one_pass](w, pos, costs, ncosts);
}

/* Resolve a callee or jump target to table entries; checks come first. */
static cgw_status resolve(cgw_writer *w, const cgw_target *target, const char *what,
                          uint32_t *ob, uint32_t *fl, uint32_t *fn)
{
    if (target == NULL || target->function == NULL)
        return cgwp_fail(w, CGW_EINVAL, "the %s has no function name", what);
    cgw_status st = CGW_OK;
    *ob = w->cur_ob;
    *fl = w->cur_fl;
    if (target->object != NULL && target->object[0] == '\0')
        *ob = 0; /* CGW_NO_OBJECT */
    else if (target->object != NULL)
        st = cgwp_intern(w, CGWP_OB, "object name", target->object, 0, 0, ob);
    if (st == CGW_OK && target->file != NULL)
        st = cgwp_intern(w, CGWP_FL, "file name", target->file, 0, 0, fl);
    if (st == CGW_OK)
        st = cgwp_intern(w, CGWP_FN, "function name", target->function, *ob, *fl, fn);
    return st;
}

/* The checks every call and jump starts with. */
static cgw_status enter_association(cgw_writer *w, const char *call, const uint64_t *source,
                                     const uint64_t *target)
{
    cgw_status st = cgwp_enter_function(w, call);
    if (st == CGW_OK && source == NULL && w->npos > 0)
        st = cgwp_fail(w, CGW_EINVAL, "source position is NULL");
    if (st == CGW_OK)
        st = check_line(w, "the source", source);
    if (st == CGW_OK)
        st = check_line(w, "the target", target);
    return st;
}

/* " TARGET\nSOURCE": the rest of a calls=/jump= line and the source
 * line's positions; only the source moves the base. */
static char *target_and_source(cgw_writer *w, char *out, const uint64_t *target,
                               const uint64_t *source)
{
    if (w->npos > 0)
        *out++ = ' ';
    out = cgwp_pos(w, out, target ? target : zero_pos, 1);
    *out++ = '\n';
    return cgwp_pos(w, out, source, 0);
}

/* A calls= line and its cost line ("calls=COUNT TARGET\nSOURCE COSTS\n",
 * every event written, as the portable subset wants), or a jump= or
 * jcnd= line and its source line ("jcnd=COUNT/EXECUTED TARGET\nSOURCE\n",
 * when executed is given). */
static CGWP_HOT_INLINE cgw_status put_association(cgw_writer *w, const char *key, uint64_t count,
                                  const uint64_t *executed, const uint64_t *target_pos,
                                  const uint64_t *source_pos, int is_call,
                                  const uint64_t *costs, size_t ncosts)
{
    char *start = cgwp_reserve(w, w->line_max);
    if (start == NULL)
        return w->err;
    size_t keylen = strlen(key);
    memcpy(start, key, keylen);
    char *out = cgwp_fmt_dec(start + keylen, count);
    if (executed != NULL) {
        *out++ = '/';
        out = cgwp_fmt_dec(out, *executed);
    }
    out = target_and_source(w, out, target_pos, source_pos);
    if (is_call)
        out = put_costs(w, out, costs, ncosts, NULL);
    *out++ = '\n';
    return cgwp_commit(w, start, out);
}

/* The checks of a call before its callee is known. */
static CGWP_HOT_INLINE cgw_status enter_call(cgw_writer *w, const char *call, uint64_t count,
                                             const uint64_t *target_pos,
                                             const uint64_t *source_pos,
                                             const uint64_t *inclusive, size_t ncosts)
{
    /* every check at once, as cost_ready() for a cost line; when one
     * fails, the calls below say which */
    int line_slot = w != NULL ? w->line_slot : -1;
    if (w != NULL && w->costs_open && source_pos != NULL && ncosts <= w->nevents &&
        (inclusive != NULL || ncosts == 0) &&
        (count != 0 || (w->flags & (CGW_COMPACT | CGW_ZERO_COUNTS))) &&
        (line_slot < 0 || ((source_pos[line_slot] >> 32) == 0 &&
                           (target_pos == NULL || (target_pos[line_slot] >> 32) == 0)))) {
        w->call = call;
        return CGW_OK;
    }
    cgw_status st = enter_association(w, call, source_pos, target_pos);
    if (st == CGW_OK && count == 0 && !(w->flags & (CGW_COMPACT | CGW_ZERO_COUNTS)))
        st = cgwp_fail(w, CGW_EINVAL, "call count 0 (callgrind_annotate turns such a call "
                       "into self cost); only CGW_COMPACT or CGW_ZERO_COUNTS allows it");
    if (st == CGW_OK)
        st = check_costs(w, "inclusive", inclusive, ncosts);
    return st;
}

/* The lines of a checked call to function entry fn of object ob, file fl. */
static CGWP_HOT_INLINE cgw_status put_call(cgw_writer *w, uint32_t ob, uint32_t fl, uint32_t fn,
                                           uint64_t count, const uint64_t *target_pos,
                                           const uint64_t *source_pos,
                                           const uint64_t *inclusive, size_t ncosts)
{
    cgw_status st = CGW_OK;
    int compact = (w->flags & CGW_COMPACT) != 0;
    if (ob != 0 && (compact ? ob != w->cur_ob : 1))
        st = cgwp_write_name(w, "cob=", CGWP_OB, ob);
    else if (ob == 0 && w->cur_ob != 0) /* an empty cob=: no object, not the caller's */
        st = cgwp_puts(w, "cob=\n", 5);
    /* cfi= only for a callee in another file: callgrind_annotate strips
     * the working folder from fl= names but not from cfi= ones.  Inside an
     * fi= file the readers disagree on the current file (KCachegrind and
     * callgrind_annotate take the fi= one, speedscope the fl= one), so the
     * portable output names it there. */
    if (st == CGW_OK && (fl != w->cur_fi || (!compact && w->cur_fi != w->cur_fl)))
        st = cgwp_write_name(w, "cfi=", CGWP_FL, fl);
    if (st == CGW_OK)
        st = cgwp_write_name(w, "cfn=", CGWP_FN, fn);
    if (st != CGW_OK)
        return st;
    return put_association(w, "calls=", count, NULL, target_pos, source_pos, 1, inclusive,
                           ncosts);
}

cgw_status cgw_call(cgw_writer *w, const cgw_target *callee, uint64_t count,
                    const uint64_t *target_pos, const uint64_t *source_pos,
                    const uint64_t *inclusive, size_t ncosts)
{
    uint32_t ob, fl, fn;
    cgw_status st = enter_call(w, "cgw_call", count, target_pos, source_pos, inclusive, ncosts);
    if (st == CGW_OK)
        st = resolve(w, callee, "callee", &ob, &fl, &fn);
    if (st != CGW_OK)
        return st;
    return put_call(w, ob, fl, fn, count, target_pos, source_pos, inclusive, ncosts);
}

/* cgw_call() of a registered callee, here so that both inline the
 * checks and the lines. */
cgw_status cgw_call_h(cgw_writer *w, cgw_name_id callee, uint64_t count,
                      const uint64_t *target_pos, const uint64_t *source_pos,
                      const uint64_t *inclusive, size_t ncosts)
{
    uint32_t fn;
    cgw_status st = enter_call(w, "cgw_call_h", count, target_pos, source_pos, inclusive,
                               ncosts);
    if (st == CGW_OK)
        st = cgwp_handle(w, callee, CGWP_FN, "the callee", 0, &fn);
    if (st != CGW_OK)
        return st;
    const cgwp_name *name = &w->tables[CGWP_FN].names[fn - 1];
    return put_call(w, name->scope_ob, name->scope_fl, fn, count, target_pos, source_pos,
                    inclusive, ncosts);
}

static cgw_status jump(cgw_writer *w, const char *call, const cgw_target *to, int cond,
                       uint64_t count, uint64_t executed, const uint64_t *target_pos,
                       const uint64_t *source_pos)
{
    uint32_t ob, fl, fn;
    cgw_status st = enter_association(w, call, source_pos, target_pos);
    int zero_ok = w && (w->flags & (CGW_COMPACT | CGW_ZERO_COUNTS));
    if (st == CGW_OK && w->npos == 0)
        st = cgwp_fail(w, CGW_EINVAL, "no jump without a position column (CGW_POS_NONE): "
                       "its source line would be empty");
    if (st == CGW_OK && cond && count > executed)
        st = cgwp_fail(w, CGW_EINVAL, "followed %llu times but executed %llu times",
                       (unsigned long long)count, (unsigned long long)executed);
    if (st == CGW_OK && (cond ? executed : count) == 0 && !zero_ok)
        st = cgwp_fail(w, CGW_EINVAL, "a count of 0; only CGW_COMPACT or CGW_ZERO_COUNTS "
                       "allows it");
    if (st == CGW_OK)
        st = resolve(w, to, "jump target", &ob, &fl, &fn);
    if (st == CGW_OK && ob != w->cur_ob)
        st = cgwp_fail(w, CGW_EINVAL, "a jump cannot leave its object");
    if (st == CGW_OK && fl != w->cur_fi)
        st = cgwp_write_name(w, "jfi=", CGWP_FL, fl);
    if (st == CGW_OK && fn != w->cur_fn)
        st = cgwp_write_name(w, "jfn=", CGWP_FN, fn);
    if (st != CGW_OK)
        return st;
    return put_association(w, cond ? "jcnd=" : "jump=", count, cond ? &executed : NULL,
                           target_pos, source_pos, 0, NULL, 0);
}

cgw_status cgw_jump(cgw_writer *w, const cgw_target *to, uint64_t count,
                    const uint64_t *target_pos, const uint64_t *source_pos)
{
    return jump(w, "cgw_jump", to, 0, count, 0, target_pos, source_pos);
}

cgw_status cgw_cond_jump(cgw_writer *w, const cgw_target *to, uint64_t followed,
                         uint64_t executed, const uint64_t *target_pos,
                         const uint64_t *source_pos)
{
    return jump(w, "cgw_cond_jump", to, 1, followed, executed, target_pos, source_pos);
}
