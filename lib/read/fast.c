/* SPDX-License-Identifier: MIT */
/* fast.c - the reader's fast path: the commonest lines taken straight
 * from the input, without finding their end first, when they need no
 * diagnostic (or only one that is counted, no longer shown): position
 * lines and call and jump targets by scan.h's readers in their
 * CGWR_FAST mode; anything else goes to cgwr_getline() and is read
 * again by the same readers in their CGWR_COMPLETE mode (part.c,
 * body.c).  A line taken here means what emit.h says, as it does
 * there. */
#include <string.h>

#include "emit.h"
#include "scan.h"

/* Take the line that starts at line and whose parse stopped at stop: 1 when
 * stop is its '\n', or a blank before it (Callgrind ends calls=, jump= and
 * their source lines so), noted as the general parser notes it; 0 when
 * the line must go to the general parser. */
static CGWP_HOT_INLINE int take(cgw_reader *r, const char *line, const char *stop)
{
    if (stop == NULL)
        return 0;
    int blank = *stop == ' ';
    if (stop[blank] != '\n')
        return 0;
    cgwr_take_line(r, (size_t)(stop - line) + 1 + blank);
    if (blank)
        cgwr_trailing_blank(r, line);
    return 1;
}

/* A position line: see fast_line(). */
static int fast_position(cgw_reader *r, const char *line, const char *end)
{
    uint64_t pos[CGW_NPOS_MAX], *costs = r->costs[r->nq];
    int few = 0;
    if (r->nevents == 0 || r->fn == NULL) /* a pending fn= opens in the complete mode */
        return 0;
    const char *stop = cgwr_position_tokens(r, line, end, pos, costs, &few, CGWR_FAST);
    if (!take(r, line, stop))
        return 0;
    if (few)
        cgwr_count_few(r, 1);
    cgwr_set_base(r, pos);
    cgwr_emit_position(r, pos, costs);
    return 1;
}

/* A calls=, jump= or jcnd= line of kind, cur after its '=', that
 * cgwr_call_tokens() takes in its fast mode; a jump line is KCachegrind's
 * and so noted. */
static CGWP_HOT_INLINE int fast_call(cgw_reader *r, const char *line, const char *cur,
                                     const char *end, cgw_record_kind kind)
{
    uint64_t count, executed;
    if (!take(r, line, cgwr_call_tokens(r, kind, cur, end, &count, &executed, CGWR_FAST)))
        return 0;
    if (kind != CGW_REC_CALL)
        cgwr_kcachegrind_only(r, line, 4);
    cgwr_pend_call(r, kind, count, executed);
    return 1;
}

/* "cob=(ID)", "cfi=(ID)", "cfl=(ID)" or "cfn=(ID)" with ID defined: the
 * callee's names between calls.  Returns the length of the line, '\n'
 * included, for the caller to take, or 0 when the complete mode must
 * read it (nothing is changed then). */
static CGWP_HOT_INLINE size_t callee_line(cgw_reader *r, const char *line, const char *end)
{
    const cgwr_str **slot;
    int kind;
    if (line[1] == 'f' && line[2] == 'n') {
        kind = CGWR_FN;
        slot = &r->cfn;
    } else if (line[1] == 'f' && (line[2] == 'i' || line[2] == 'l') && !r->cfn_fresh) {
        kind = CGWR_FL;
        slot = &r->cfi;
    } else if (line[1] == 'o' && line[2] == 'b' && !r->cfn_fresh) {
        kind = CGWR_OB;
        slot = &r->cob;
    } else {
        return 0;
    }
    cgwr_name_form f;
    const char *nl = line[3] == '=' ? cgwr_plain_value(r, kind, line + 4, end, &f, 1) : NULL;
    if (nl == NULL || (slot == &r->cfi && cgwr_in_cwd(f.used)))
        return 0;
    *slot = f.used;
    if (kind == CGWR_FN)
        r->cfn_fresh = 1;
    else if (kind == CGWR_FL)
        r->ss_cfi = f.used;
    return (size_t)(nl + 1 - line);
}

/* A name line (ob= fl= fi= fe= fn= cob= cfi= cfl= cfn=) at line whose
 * value cgwr_plain_value() takes.  1 when taken. */
static CGWP_HOT_INLINE int fast_spec(cgw_reader *r, const char *line, const char *end)
{
    size_t len;
    enum cgwr_spec_key key = cgwr_spec_key(line, &len);
    /* cfe=, jfi= and jfn= are warned of: the complete mode */
    if (key == CGWR_KEY_NONE || key == CGWR_KEY_CFE || key == CGWR_KEY_JFI ||
        key == CGWR_KEY_JFN || line[len] != '=')
        return 0;
    cgwr_name_form f;
    int kind = cgwr_key_kind(key);
    const char *nl = cgwr_plain_value(r, kind, line + len + 1, end, &f, 0);
    if (nl == NULL || (size_t)(nl - line) > CGWR_MAX_LINE)
        return 0;
    cgwr_take_line(r, (size_t)(nl + 1 - line));
    r->part.body = 1;
    const cgwr_str *name = cgwr_form_name(r, kind, &f);
    if (name != NULL)
        cgwr_spec_apply(r, key, name);
    return 1;
}

/* The commonest lines taken straight from the input, without finding
 * their end first: position lines, blank lines, calls=, jump= and jcnd=
 * lines, and the name lines (fast_spec(), which finds a name's end
 * itself).  Callgrind ends calls=, jump=, jcnd= and their source lines
 * in a blank, which is noted here as the general parser notes it.  A
 * position, call or jump line needs an earlier name line of the part,
 * which began the part's body; a name line begins it.  1 when taken; 0
 * when the line must go through cgwr_getline() and cgwr_line() (nothing
 * is consumed then), which gives any other diagnostic.  line is the start of
 * a line and a '\n' follows it before end.  The keys are compared with
 * memcmp(), which may read all their bytes, only when that many are
 * left before end (a line "c" may end the input). */
static CGWP_HOT_INLINE int fast_line(cgw_reader *r, const char *line, const char *end)
{
    if (cgwr_starts_position(*line))
        return fast_position(r, line, end);
    if (r->call.kind != 0)
        return 0;
    if (*line == '\n') {
        cgwr_take_line(r, 1);
        return 1;
    }
    if (end - line < 6)
        return 0;
    if (*line == 'j') {
        cgw_record_kind kind = cgwr_jump_kind(line);
        return kind != 0 && fast_call(r, line, line + 5, end, kind);
    }
    if (*line == 'c' && memcmp(line, "calls=", 6) == 0)
        return fast_call(r, line, line + 6, end, CGW_REC_CALL);
    return fast_spec(r, line, end);
}

/* The subpositions of a line in a run (below), counted from the bases
 * b0 and b1 into *v0 and *v1, as cgwr_scan_positions() reads them. */
static CGWP_HOT_INLINE const char *run_positions(const char *cur, const char *end,
                                                 const size_t npos, uint64_t b0, uint64_t b1,
                                                 uint64_t *v0, uint64_t *v1, int *relative)
{
    if ((cur = cgwr_one_position(cur, end, b0, v0, relative)) == NULL)
        return NULL;
    if (npos > 1 &&
        (*cur++ != ' ' || (cur = cgwr_one_position(cur, end, b1, v1, relative)) == NULL))
        return NULL;
    return cur;
}

/* The start of the next line when cur ends this one, after one blank at
 * most (*blanks counts it); NULL when cur does not. */
static CGWP_HOT_INLINE const char *run_line_end(const char *cur, uint64_t *blanks)
{
    int blank = *cur == ' ';
    if (cur[blank] != '\n')
        return NULL;
    *blanks += (uint64_t)blank;
    return cur + blank + 1;
}

/* A call or jump line's target (after its counts, at cur) and its source
 * line, in a run: the target's positions count from the bases and leave
 * them; the source line's become the new bases (*b0, *b1).  The pair
 * follows a position line of the run, so relative positions are allowed.
 * A jump's source line has no costs; a call's has one for every event,
 * into costs, or fewer when few is not NULL (the rest are 0, and *few
 * counts the line: Callgrind drops a call's trailing zero costs too).
 * *blanks counts the trailing blanks of both lines (trailing-blank: a
 * call's lines, which every reader takes so), which the pair may have
 * only when blanks_counted.  Returns the start of the line after the pair, or NULL
 * to leave both lines to fast_line() (nothing is changed then, but
 * costs). */
static CGWP_HOT_INLINE const char *run_pair(const char *cur, const char *end, const size_t npos,
                                            size_t ne, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted,
                                            uint64_t *costs, uint64_t *few)
{
    uint64_t v0, v1 = 0, any = 0, blank = 0, call_blank = 0;
    int relative = 0;
    if (*cur != ' ' ||
        (cur = run_positions(cur + 1, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL ||
        (cur = run_line_end(cur, &call_blank)) == NULL || cur == end)
        return NULL;
    if ((cur = run_positions(cur, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL)
        return NULL;
    size_t ncosts = 0;
    for (; ncosts < ne && *cur == ' '; ncosts++) {
        if ((cur = cgwr_digits(cur + 1, &costs[ncosts])) == NULL)
            return NULL;
        any |= costs[ncosts];
    }
    if (ncosts < ne) {
        if (few == NULL)
            return NULL;
        memset(costs + ncosts, 0, (ne - ncosts) * sizeof *costs);
    }
    if (any >= CGWR_BIG_COST || (cur = run_line_end(cur, &blank)) == NULL ||
        ((blank || call_blank) && !blanks_counted))
        return NULL;
    *b0 = v0;
    *b1 = v1;
    *blanks += blank + call_blank;
    if (ncosts < ne)
        *few += 1;
    return cur;
}

/* A jump= or jcnd= line and its source line in a run, as fast_jump()
 * and fast_position() take them when jump records are skipped (the
 * caller makes sure that the jump's warning is only counted); or NULL. */
static CGWP_HOT_INLINE const char *run_jump(cgw_reader *r, const char *cur, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted)
{
    cgw_record_kind kind = cgwr_jump_kind(cur);
    uint64_t count, executed;
    const cgwr_str *ob, *fl, *fn;
    if (kind == 0 || !(r->skip & CGW_SKIP(kind)) ||
        (cur = cgwr_jump_counts(cur + 5, kind, &count, &executed)) == NULL ||
        (cur = run_pair(cur, end, npos, 0, b0, b1, blanks, blanks_counted, NULL, NULL)) == NULL)
        return NULL;
    cgwr_take_target(r, kind, &ob, &fl, &fn); /* uses up jfi= jfn= cob= cfi= cfn= */
    return cur;
}

/* A calls= line, number line, and its source line in a run, as
 * fast_calls() and fast_position() take them when call records are
 * skipped, counted and checked as cgwr_emit_call() does; or NULL.  few:
 * see run_pair(). */
static CGWP_HOT_INLINE const char *run_call(cgw_reader *r, const char *cur, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted,
                                            uint64_t *few, uint64_t line)
{
    uint64_t count, *costs = r->costs[r->nq];
    if (r->cfn == NULL || !r->cfn_fresh || !(r->skip & CGW_SKIP(CGW_REC_CALL)) ||
        (cur = cgwr_digits(cur + 6, &count)) == NULL || count == 0 ||
        (cur = run_pair(cur, end, npos, r->nevents, b0, b1, blanks, blanks_counted, costs,
                        few)) == NULL)
        return NULL;
    const cgwr_str *ob, *fl, *fn;
    cgwr_take_target(r, CGW_REC_CALL, &ob, &fl, &fn);
    cgwr_count_call(r, ob, fl, fn, line, costs);
    return cur;
}

/* The costs of a cost line in a run, after its positions at cur: one for
 * each event (into costs), or fewer when few_ok (the rest are 0, and
 * *few counts the line), then the '\n'; added to totals.  Returns the
 * '\n', or NULL to end the run before the line (totals unchanged). */
static CGWP_HOT_INLINE const char *run_costs(const char *cur, size_t ne, uint64_t *costs,
                                             uint64_t *totals, int few_ok, uint64_t *few)
{
    uint64_t any = 0, wrapped = 0, cost;
    size_t ncosts = 0;
    /* added as they are read: one loop whose end depends on the line,
     * not two (a wrapped total is for the general parser to report) */
    while (ncosts < ne && *cur == ' ' && (cur = cgwr_digits(cur + 1, &cost)) != NULL) {
        uint64_t sum = totals[ncosts] + cost;
        wrapped |= sum < cost;
        totals[ncosts] = sum;
        costs[ncosts++] = cost;
        any |= cost;
    }
    if (cur == NULL || *cur != '\n' || any >= CGWR_BIG_COST || (ncosts != ne && !few_ok) ||
        wrapped) {
        for (size_t i = 0; i < ncosts; i++) /* exact: sums wrap modulo 2^64 */
            totals[i] -= costs[i];
        return NULL;
    }
    *few += ncosts != ne;
    return cur;
}

/* A run read a cost line: the block has begun, as after cgwr_set_base(),
 * and an inline file has costs. */
static void run_began(cgw_reader *r)
{
    r->first_in_block = 0;
    r->seen_cost = 1;
    r->pending_fi = NULL;
    r->inline_costs = 1;
}

/* What a run read, counted once at its end: cost lines, and the
 * warnings of its jump lines and trailing blanks. */
static void run_account(cgw_reader *r, uint64_t cost_lines, uint64_t jumps, uint64_t blanks)
{
    r->part.cost_lines += cost_lines;
    r->count[CGWR_NONPORTABLE_LINE] += jumps;
    r->count[CGWR_TRAILING_BLANK] += blanks;
    r->nwarnings += jumps + blanks;
}

/* The record of a run's cost lines under CGW_READ_SUM_COSTS: their
 * costs are what the run added to the part's totals, which did not wrap
 * (the run ends before a line that would wrap one); the positions and
 * line are the last line's. */
static void run_record(cgw_reader *r)
{
    uint64_t *costs = r->costs[r->nq];
    for (size_t i = 0; i < r->nevents; i++)
        costs[i] = r->part.totals[i] - r->run_start[i];
    cgwr_position_record(r, CGW_REC_COST, r->base, costs);
}

/* A run of cost lines, when no record is handed out for them (the
 * caller skips CGW_REC_COST, or sums them: CGW_READ_SUM_COSTS and
 * run_record()) and no call or jump is pending: the lines
 * fast_position() would take, read in one loop that keeps the bases in
 * registers and accounts for the run once at its end, specialised by
 * the number of subpositions (1 or 2).  The run also takes the callee
 * lines (callee_line()), and the calls and jumps with their source lines
 * when the caller skips their records too and the warnings they get are
 * only counted (cgwr_only_counted(): shown often enough already, or no
 * callback): trailing blanks, and jump lines (run_call(),
 * run_jump()).  The run ends before a cost line that ends in a blank,
 * has a relative position on a block's first line, a cost of 2^53 or
 * more or, while that warning is still shown, fewer costs than events,
 * or would wrap a total, and before any line cgwr_position_tokens()
 * gives up on or any other line; the caller then reads it as usual
 * (fast_line(), then the complete mode).  The run reads a line with the
 * same token readers as cgwr_position_tokens() (cgwr_one_position(),
 * cgwr_digits()) and takes a subset of what its fast mode takes, with
 * the bases in registers.  Returns where the run stopped. */
static CGWP_HOT_INLINE const char *cost_run(cgw_reader *r, const char *cur, const char *end,
                                            const size_t npos)
{
    const int s0 = r->pos_order[0], s1 = npos > 1 ? r->pos_order[1] : 0;
    uint64_t b0 = r->base[s0], b1 = npos > 1 ? r->base[s1] : 0;
    uint64_t *totals = r->part.totals, *costs = r->costs[r->nq];
    const size_t ne = r->nevents;
    int relative_ok = !r->first_in_block && r->seen_cost;
    const int blanks_counted = cgwr_only_counted(r, CGWR_TRAILING_BLANK);
    const int jumps_counted = cgwr_only_counted(r, CGWR_NONPORTABLE_LINE);
    const int few_counted = cgwr_only_counted(r, CGWR_FEW_COSTS);
    const char *start = cur;
    uint64_t lines = 0, cost_lines = 0, jumps = 0, blanks = 0, few = 0;
    while (cur < end) {
        int relative = 0;
        uint64_t v0, v1 = 0;
        const char *next = run_positions(cur, end, npos, b0, b1, &v0, &v1, &relative);
        if (next == NULL) {
            size_t len;
            if (end - cur < 6)
                break;
            if (*cur == 'j') {
                if (!jumps_counted ||
                    (next = run_jump(r, cur, end, npos, &b0, &b1, &blanks, blanks_counted)) == NULL)
                    break;
                jumps++;
            } else if (*cur == 'c' && memcmp(cur, "calls=", 6) == 0) {
                if ((next = run_call(r, cur, end, npos, &b0, &b1, &blanks, blanks_counted,
                                     few_counted ? &few : NULL, r->lineno + lines + 1)) == NULL)
                    break;
            } else if (*cur == 'c' && (len = callee_line(r, cur, end)) > 0) {
                lines++;
                cur += len;
                continue;
            } else {
                break;
            }
            lines += 2;
            cur = next;
            continue;
        }
        if ((relative && !relative_ok) ||
            (next = run_costs(next, ne, costs, totals, few_counted, &few)) == NULL)
            break;
        b0 = v0;
        b1 = v1;
        relative_ok = 1;
        lines++;
        cost_lines++;
        cur = next + 1;
    }
    if (cost_lines > 0) { /* a position line was read: the run starts with one */
        r->base[s0] = b0;
        if (npos > 1)
            r->base[s1] = b1;
        run_began(r);
    }
    run_account(r, cost_lines, jumps, blanks);
    cgwr_count_few(r, few);
    cgwr_take_lines(r, (size_t)(cur - start), lines);
    if (cost_lines > 0 && !(r->skip & CGW_SKIP(CGW_REC_COST)))
        run_record(r);
    return cur;
}

/* cost_run() for this part; cur itself when it does not apply. */
static const char *any_cost_run(cgw_reader *r, const char *cur, const char *end)
{
    if (r->call.kind != 0 || r->fn == NULL || r->nevents == 0)
        return cur;
    if (!(r->skip & CGW_SKIP(CGW_REC_COST))) {
        if (!(r->flags & CGW_READ_SUM_COSTS))
            return cur;
        memcpy(r->run_start, r->part.totals, r->nevents * sizeof *r->run_start);
    }
    if (r->part.pub.npos == 1)
        return cost_run(r, cur, end, 1);
    if (r->part.pub.npos == 2)
        return cost_run(r, cur, end, 2);
    return cur;
}

int cgwr_fast_lines(cgw_reader *r)
{
    /* the first lines go through cgwr_getline(), which tells a profile
     * from binary data by them (input.c), whatever the reads */
    if (r->lineno < CGWR_SNIFF_LINES)
        return 0;
    const char *end, *cur = cgwr_whole_lines(r, &end);
    while (cur < end) {
        if (cgwr_starts_position(*cur)) {
            const char *next = any_cost_run(r, cur, end);
            if (next != cur) {
                if (r->nq > 0)
                    return 1;
                cur = next;
                continue;
            }
        }
        if (!fast_line(r, cur, end))
            break;
        if (r->nq > 0)
            return 1;
        cur = cgwr_whole_lines(r, &end);
    }
    return 0;
}
