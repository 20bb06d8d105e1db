/* fast.c - the reader's fast path: the commonest lines taken straight
 * from the input, without finding their end first, when they need no
 * diagnostic; anything else goes to cgwr_getline() and the general
 * parser (part.c, body.c).  A line taken here means what emit.h says,
 * as it does there. */
#include <string.h>

#include "emit.h"
#include "scan.h"

/* Take the line that starts at line and whose parse stopped at e: 1 when
 * e is its '\n', or a blank before it (Callgrind ends calls=, jump= and
 * their source lines so), noted as the general parser notes it; 0 when
 * the line must go to the general parser. */
static CGWP_HOT_INLINE int take(cgw_reader *r, const char *line, const char *e)
{
    if (e == NULL)
        return 0;
    int blank = *e == ' ';
    if (e[blank] != '\n')
        return 0;
    cgwr_take_line(r, (size_t)(e - line) + 1 + blank);
    if (blank)
        cgwr_trailing_blank(r);
    return 1;
}

/* A position line: see fast_line(). */
static int fast_position(cgw_reader *r, const char *p, const char *end)
{
    uint64_t pos[CGW_NPOS_MAX], *c = r->costs[r->nq];
    if (r->nevents == 0 || r->fn == NULL || !take(r, p, cgwr_scan(r, p, end, pos, c)))
        return 0;
    cgwr_set_base(r, pos);
    cgwr_emit_position(r, pos, c);
    return 1;
}

/* "calls=COUNT TARGET" after "calls=": a count other than 0, the callee
 * named since the last call, one space and every target subposition. */
static int fast_calls(cgw_reader *r, const char *line, const char *p, const char *end)
{
    uint64_t count;
    int relative = 0;
    if (r->fn == NULL || r->cfn == NULL || !r->cfn_fresh || r->nevents == 0 ||
        (p = cgwr_digits(p, &count)) == NULL || count == 0 || *p != ' ' ||
        !take(r, line, cgwr_scan_positions(r, p + 1, end, r->call.target_pos, &relative)))
        return 0;
    cgwr_pend_call(r, CGW_REC_CALL, count, 0);
    return 1;
}

/* "jump=COUNT TARGET" or "jcnd=FOLLOWED/EXECUTED TARGET" after the '=',
 * with FOLLOWED <= EXECUTED: KCachegrind's lines, so each one is noted. */
static int fast_jump(cgw_reader *r, const char *line, const char *p, const char *end,
                     cgw_record_kind kind)
{
    uint64_t count, executed;
    int relative = 0;
    if (r->fn == NULL || r->nevents == 0 || (p = cgwr_jump_counts(p, kind, &count, &executed)) == NULL)
        return 0;
    if (*p != ' ' || !take(r, line, cgwr_scan_positions(r, p + 1, end, r->call.target_pos, &relative)))
        return 0;
    cgwr_kcachegrind_only(r, line, 4);
    cgwr_pend_call(r, kind, count, executed);
    return 1;
}

/* The name that "(ID)\n" at p refers to, an ID of kind defined in the
 * part (cgwr_id_digits()); *next is then the start of the next line.  NULL
 * for anything else. */
static CGWP_HOT_INLINE const cgwr_str *id_ref(cgw_reader *r, int kind, const char *p,
                                             const char **next)
{
    uint64_t id;
    const char *e = cgwr_id_digits(p, &id);
    if (e == NULL || e[1] != '\n')
        return NULL;
    *next = e + 2;
    return cgwr_id_name(r, kind, id);
}

/* "cob=(ID)", "cfi=(ID)", "cfl=(ID)" or "cfn=(ID)" with ID defined: the
 * callee's names between calls.  Returns the length of the line, '\n'
 * included, for the caller to take, or 0 when the general parser must
 * read it (nothing is changed then). */
static CGWP_HOT_INLINE size_t callee_line(cgw_reader *r, const char *p)
{
    const cgwr_str **slot;
    int kind;
    if (p[1] == 'f' && p[2] == 'n') {
        kind = CGWR_FN;
        slot = &r->cfn;
    } else if (p[1] == 'f' && (p[2] == 'i' || p[2] == 'l') && !r->cfn_fresh) {
        kind = CGWR_FL;
        slot = &r->cfi;
    } else if (p[1] == 'o' && p[2] == 'b' && !r->cfn_fresh) {
        kind = CGWR_OB;
        slot = &r->cob;
    } else {
        return 0;
    }
    const char *next;
    const cgwr_str *name = p[3] == '=' ? id_ref(r, kind, p + 4, &next) : NULL;
    if (name == NULL)
        return 0;
    *slot = name;
    if (kind == CGWR_FN)
        r->cfn_fresh = 1;
    return (size_t)(next - p);
}

/* The '\n' that ends the name at s, when no NUL or CR comes before it;
 * else NULL.  A '\n' comes before end.  Eight bytes a step while eight
 * are left before end: the lowest byte a zero-byte test marks is exact. */
static const char *name_end(const char *s, const char *end)
{
#define ZERO_BYTES(x) (((x) - CGWP_BYTES(1)) & ~(x) & CGWP_BYTES(0x80))
    for (; end - s >= 8; s += 8) {
        uint64_t w = cgwr_load_le64(s);
        uint64_t hit = ZERO_BYTES(w ^ CGWP_BYTES('\n')) | ZERO_BYTES(w) |
                       ZERO_BYTES(w ^ CGWP_BYTES('\r'));
        if (hit != 0) {
            s += __builtin_ctzll(hit) / 8;
            return *s == '\n' ? s : NULL;
        }
    }
#undef ZERO_BYTES
    for (; *s != '\n'; s++)
        if (*s == '\0' || *s == '\r')
            return NULL;
    return s;
}

/* A name line at p (ob= fl= fi= fe= fn= cob= cfi= cfl= cfn=): a name, a
 * defined "(ID)" or "(ID) name", as cgwr_spec_line() reads it, when the line
 * has nothing the general parser would note (a blank around the name or
 * at the end, a NUL or CR, an ID's leading zero, an undefined ID, a name
 * that starts with '(').  All its reads stop at the line's '\n'.  1 when
 * taken. */
static CGWP_HOT_INLINE int fast_spec(cgw_reader *r, const char *p, const char *end)
{
    enum cgwr_spec_key key;
    const char *v = p + 3;
    if (p[0] == 'c' && p[1] == 'o' && p[2] == 'b')
        key = CGWR_KEY_COB;
    else if (p[0] == 'c' && p[1] == 'f')
        key = p[2] == 'n' ? CGWR_KEY_CFN : p[2] == 'i' ? CGWR_KEY_CFI : p[2] == 'l' ? CGWR_KEY_CFL : CGWR_KEY_NONE;
    else if (p[0] == 'f')
        key = p[1] == 'n' ? CGWR_KEY_FN : p[1] == 'l' ? CGWR_KEY_FL : p[1] == 'i' ? CGWR_KEY_FI
            : p[1] == 'e' ? CGWR_KEY_FE : CGWR_KEY_NONE, v = p + 2;
    else if (p[0] == 'o' && p[1] == 'b')
        key = CGWR_KEY_OB, v = p + 2;
    else
        return 0;
    if (key == CGWR_KEY_NONE || *v++ != '=')
        return 0;
    const char *s = v, *nl;
    uint64_t id = 0;
    int has_id = v[0] == '(';
    if (has_id) {
        const char *e = cgwr_id_digits(v, &id);
        if (e == NULL)
            return 0;
        if (e[1] == '\n') { /* "(ID)": a use */
            const cgwr_str *name = cgwr_id_name(r, cgwr_key_kind(key), id);
            if (name == NULL)
                return 0;
            cgwr_take_line(r, (size_t)(e + 2 - p));
            r->part.body = 1;
            cgwr_spec_apply(r, key, name);
            return 1;
        }
        if (e[1] != ' ')
            return 0;
        s = e + 2;
    }
    if (cgwr_blank(*s) || *s == '(' || (nl = name_end(s, end)) == NULL || nl == s ||
        cgwr_blank(nl[-1]))
        return 0;
    cgwr_take_line(r, (size_t)(nl + 1 - p));
    r->part.body = 1;
    const cgwr_str *name = has_id ? cgwr_id_define(r, cgwr_key_kind(key), id, s, (size_t)(nl - s))
                                  : cgwr_intern(r, s, (size_t)(nl - s));
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
 * is consumed then), which gives any other diagnostic.  p starts a line
 * and a '\n' follows it before end.  The keys are compared with
 * memcmp(), which may read all their bytes, only when that many are
 * left before end (a line "c" may end the input). */
static CGWP_HOT_INLINE int fast_line(cgw_reader *r, const char *p, const char *end)
{
    if (cgwr_starts_position(*p))
        return fast_position(r, p, end);
    if (r->call.kind != 0)
        return 0;
    if (*p == '\n') {
        cgwr_take_line(r, 1);
        return 1;
    }
    if (end - p < 6)
        return 0;
    if (*p == 'j') {
        cgw_record_kind kind = cgwr_jump_kind(p);
        return kind != 0 && fast_jump(r, p, p + 5, end, kind);
    }
    if (*p == 'c' && memcmp(p, "calls=", 6) == 0)
        return fast_calls(r, p, p + 6, end);
    return fast_spec(r, p, end);
}

/* The subpositions of a line in a run (below), counted from the bases
 * b0 and b1 into *v0 and *v1, as cgwr_scan_positions() reads them. */
static CGWP_HOT_INLINE const char *run_positions(const char *p, const char *end,
                                                 const size_t npos, uint64_t b0, uint64_t b1,
                                                 uint64_t *v0, uint64_t *v1, int *relative)
{
    if ((p = cgwr_one_position(p, end, b0, v0, relative)) == NULL)
        return NULL;
    if (npos > 1 && (*p++ != ' ' || (p = cgwr_one_position(p, end, b1, v1, relative)) == NULL))
        return NULL;
    return p;
}

/* The start of the next line when q ends this one, after one blank at
 * most (*blanks counts it); NULL when q does not. */
static CGWP_HOT_INLINE const char *run_line_end(const char *q, uint64_t *blanks)
{
    int blank = *q == ' ';
    if (q[blank] != '\n')
        return NULL;
    *blanks += (uint64_t)blank;
    return q + blank + 1;
}

/* A call or jump line's target (after its counts, at p) and its source
 * line, in a run: the target's positions count from the bases and leave
 * them; the source line's become the new bases (*b0, *b1).  The pair
 * follows a position line of the run, so relative positions are allowed.
 * A jump's source line has no costs; a call's has one for every event,
 * into c.  *blanks counts the trailing blanks, which the pair may have
 * only when blanks_counted.  Returns the start of the line after the
 * pair, or NULL to leave both lines to fast_line() (nothing is changed
 * then, but c). */
static CGWP_HOT_INLINE const char *run_pair(const char *p, const char *end, const size_t npos,
                                            size_t ne, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted, uint64_t *c)
{
    uint64_t v0, v1 = 0, any = 0, blank = 0;
    int relative = 0;
    if (*p != ' ' || (p = run_positions(p + 1, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL ||
        (p = run_line_end(p, &blank)) == NULL || p == end)
        return NULL;
    if ((p = run_positions(p, end, npos, *b0, *b1, &v0, &v1, &relative)) == NULL)
        return NULL;
    for (size_t n = 0; n < ne; n++) {
        if (*p != ' ' || (p = cgwr_digits(p + 1, &c[n])) == NULL)
            return NULL;
        any |= c[n];
    }
    if (any >= CGWR_BIG_COST || (p = run_line_end(p, &blank)) == NULL || (blank && !blanks_counted))
        return NULL;
    *b0 = v0;
    *b1 = v1;
    *blanks += blank;
    return p;
}

/* A jump= or jcnd= line and its source line in a run, as fast_jump()
 * and fast_position() take them when jump records are skipped (the
 * caller makes sure that the jump's warning is only counted); or NULL. */
static CGWP_HOT_INLINE const char *run_jump(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted)
{
    cgw_record_kind kind = cgwr_jump_kind(p);
    uint64_t count, executed;
    const cgwr_str *ob, *fl, *fn;
    if (kind == 0 || !(r->skip & CGW_SKIP(kind)) ||
        (p = cgwr_jump_counts(p + 5, kind, &count, &executed)) == NULL ||
        (p = run_pair(p, end, npos, 0, b0, b1, blanks, blanks_counted, NULL)) == NULL)
        return NULL;
    cgwr_take_target(r, kind, &ob, &fl, &fn); /* uses up jfi= jfn= cob= cfi= cfn= */
    return p;
}

/* A calls= line, number line, and its source line in a run, as
 * fast_calls() and fast_position() take them when call records are
 * skipped, counted and checked as cgwr_emit_call() does; or NULL. */
static CGWP_HOT_INLINE const char *run_call(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos, uint64_t *b0, uint64_t *b1,
                                            uint64_t *blanks, int blanks_counted, uint64_t line)
{
    uint64_t count, *c = r->costs[r->nq];
    if (r->cfn == NULL || !r->cfn_fresh || !(r->skip & CGW_SKIP(CGW_REC_CALL)) ||
        (p = cgwr_digits(p + 6, &count)) == NULL || count == 0 ||
        (p = run_pair(p, end, npos, r->nevents, b0, b1, blanks, blanks_counted, c)) == NULL)
        return NULL;
    const cgwr_str *ob, *fl, *fn;
    cgwr_take_target(r, CGW_REC_CALL, &ob, &fl, &fn);
    cgwr_count_call(r, ob, fl, fn, line, c);
    return p;
}

/* The costs of a cost line in a run, after its positions at q: one for
 * each event (into c), then the '\n'; added to the totals t.  Returns
 * the '\n', or NULL to end the run before the line (t unchanged). */
static CGWP_HOT_INLINE const char *run_costs(const char *q, size_t ne, uint64_t *c,
                                             uint64_t *t)
{
    uint64_t any = 0;
    size_t n = 0; /* q is NULL only when n < ne */
    while (n < ne && *q == ' ' && (q = cgwr_digits(q + 1, &c[n])) != NULL)
        any |= c[n++];
    if (n != ne || *q != '\n' || any >= CGWR_BIG_COST)
        return NULL;
    if (cgwr_add_wrapping(t, c, ne)) { /* the general parser reports it */
        for (size_t i = 0; i < ne; i++)
            t[i] -= c[i];
        return NULL;
    }
    return q;
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
    r->count[CGWR_BLANK] += blanks;
    r->nwarnings += jumps + blanks;
}

/* A run of cost lines, when no record is handed out for them (the
 * caller skips CGW_REC_COST) and no call or jump is pending: the lines
 * fast_position() would take, read in one loop that keeps the bases in
 * registers and accounts for the run once at its end, specialised by
 * the number of subpositions (1 or 2).  The run also takes the callee
 * lines (callee_line()), and the calls and jumps with their source lines
 * when the caller skips their records too and the warnings they get are
 * only counted (cgwr_only_counted(): shown often enough already, or no
 * callback): trailing blanks, and jump lines (run_call(),
 * run_jump()).  A cost line that ends in a blank, has fewer costs than
 * events, or would wrap a total ends the run, as does any other line;
 * the caller then reads it as usual.  Returns where the run stopped. */
static CGWP_HOT_INLINE const char *cost_run(cgw_reader *r, const char *p, const char *end,
                                            const size_t npos)
{
    const int s0 = r->pos_order[0], s1 = npos > 1 ? r->pos_order[1] : 0;
    uint64_t b0 = r->base[s0], b1 = npos > 1 ? r->base[s1] : 0;
    uint64_t *t = r->part.totals, *c = r->costs[r->nq];
    const size_t ne = r->nevents;
    int relative_ok = !r->first_in_block && r->seen_cost;
    const int blanks_counted = cgwr_only_counted(r, CGWR_BLANK);
    const int jumps_counted = cgwr_only_counted(r, CGWR_NONPORTABLE_LINE);
    const char *start = p;
    uint64_t lines = 0, cost_lines = 0, jumps = 0, blanks = 0;
    while (p < end) {
        int relative = 0;
        uint64_t v0, v1 = 0;
        const char *q = run_positions(p, end, npos, b0, b1, &v0, &v1, &relative);
        if (q == NULL) {
            size_t n;
            if (end - p < 6)
                break;
            if (*p == 'j') {
                if (!jumps_counted ||
                    (q = run_jump(r, p, end, npos, &b0, &b1, &blanks, blanks_counted)) == NULL)
                    break;
                jumps++;
            } else if (*p == 'c' && memcmp(p, "calls=", 6) == 0) {
                if ((q = run_call(r, p, end, npos, &b0, &b1, &blanks, blanks_counted,
                                  r->lineno + lines + 1)) == NULL)
                    break;
            } else if (*p == 'c' && (n = callee_line(r, p)) > 0) {
                lines++;
                p += n;
                continue;
            } else {
                break;
            }
            lines += 2;
            p = q;
            continue;
        }
        if ((relative && !relative_ok) || (q = run_costs(q, ne, c, t)) == NULL)
            break;
        b0 = v0;
        b1 = v1;
        relative_ok = 1;
        lines++;
        cost_lines++;
        p = q + 1;
    }
    if (cost_lines > 0) { /* a position line was read: the run starts with one */
        r->base[s0] = b0;
        if (npos > 1)
            r->base[s1] = b1;
        run_began(r);
    }
    run_account(r, cost_lines, jumps, blanks);
    cgwr_take_lines(r, (size_t)(p - start), lines);
    return p;
}

/* cost_run() for this part; p itself when it does not apply. */
static const char *any_cost_run(cgw_reader *r, const char *p, const char *end)
{
    if (r->call.kind != 0 || r->fn == NULL || r->nevents == 0 ||
        !(r->skip & CGW_SKIP(CGW_REC_COST)))
        return p;
    if (r->part.pub.npos == 1)
        return cost_run(r, p, end, 1);
    if (r->part.pub.npos == 2)
        return cost_run(r, p, end, 2);
    return p;
}

int cgwr_fast_lines(cgw_reader *r)
{
    const char *end, *p = cgwr_whole_lines(r, &end);
    while (p < end) {
        if (cgwr_starts_position(*p)) {
            const char *q = any_cost_run(r, p, end);
            if (q != p) {
                p = q;
                continue;
            }
        }
        if (!fast_line(r, p, end))
            break;
        if (r->nq > 0)
            return 1;
        p = cgwr_whole_lines(r, &end);
    }
    return 0;
}
