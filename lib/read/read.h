/* SPDX-License-Identifier: MIT */
/* read.h - the reader's private state, shared by the files of lib/read.
 * Never installed.  Cross-file names use the cgwr_ prefix. */
#ifndef CGW_READ_H
#define CGW_READ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cgw.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "common/compiler.h"
#include "common/hash.h"


/* Diagnostic codes; the table in diag.c gives each its name and
 * severity.  The names are what users see and match on: they never
 * change.  The numbers are internal. */
enum cgwr_code {
    /* errors */
    CGWR_NUL_BYTE, CGWR_UNKNOWN_LINE, CGWR_BAD_NUMBER, CGWR_BAD_VERSION,
    CGWR_MISSING_EVENTS, CGWR_COST_BEFORE_EVENTS, CGWR_COST_BEFORE_FUNCTION,
    CGWR_SUMMARY_BEFORE_EVENTS, CGWR_POSITIONS_AFTER_EVENTS, CGWR_TOO_MANY_COSTS,
    CGWR_CALL_WITHOUT_COST, CGWR_UNDEFINED_ID, CGWR_ID_REDEFINED,
    CGWR_NEGATIVE_POSITION, CGWR_TOTALS_MISMATCH, CGWR_OVERFLOW, CGWR_SYNTAX,
    CGWR_NO_CALLEE, CGWR_EVENTS_REDEFINED,
    /* warnings: the portability tier */
    CGWR_CR, CGWR_TAB, CGWR_BLANK, CGWR_NO_FINAL_NEWLINE, CGWR_NO_FORMAT_LINE,
    CGWR_HEADER_ORDER, CGWR_KEY_WITHOUT_SPACE, CGWR_NONPORTABLE_HEADER,
    CGWR_NO_POSITIONS, CGWR_POSITIONS_NOT_LINE, CGWR_SEVERAL_PARTS, CGWR_FEW_COSTS,
    CGWR_HEX_COST, CGWR_UPPERCASE_HEX, CGWR_ID_SAME_REDEFINED, CGWR_ID_LEADING_ZERO,
    CGWR_PAREN_NAME, CGWR_NAME_BLANK, CGWR_RELATIVE_FIRST, CGWR_CALLS_ZERO,
    CGWR_LINE_IN_CALL, CGWR_CALL_WITHOUT_CFN, CGWR_CALLEE_SPEC_AFTER_CFN,
    CGWR_CALLEE_WITHOUT_BLOCK, CGWR_SPLIT_FUNCTION, CGWR_UNCLOSED_INLINE,
    CGWR_NONPORTABLE_LINE, CGWR_SUMMARY_MISMATCH, CGWR_SUMMARY_LOW, CGWR_BIG_VALUE,
    CGWR_NAME_CLASH, CGWR_MANY_EVENTS, CGWR_INCLUSIVE_EXCESS, CGWR_INLINE_BEFORE_FUNCTION,
    CGWR_INVALID_UTF8, CGWR_UNKNOWN_HEADER, CGWR_HEADER_IN_BODY, CGWR_EMPTY_NAME,
    CGWR_JUMP_COSTS, CGWR_DUPLICATE_EVENT, CGWR_BAD_FORMULA, CGWR_EVENT_NAME, CGWR_CR_IN_LINE,
    CGWR_JUMP_FOLLOWED, CGWR_DESC_TYPE, CGWR_REPEATED_KEY,
    /* the spec's corners and what the main readers crash on or misread */
    CGWR_POSITIONS_ORDER, CGWR_EMPTY_FUNCTION, CGWR_HEX_ID, CGWR_INDENTED_COST,
    CGWR_HEX_PREFIX, CGWR_OB_IN_FUNCTION, CGWR_HEX_STEP, CGWR_GZIP_INPUT,
    CGWR_CHECK_EVENTS_CUT, CGWR_BIG_POSITION, CGWR_CFI_SAME_FILE, CGWR_LINE_TOO_LONG,
    CGWR_VERSION_TEXT, CGWR_APPENDED_PROFILE, CGWR_TRAILING_BLANK, CGWR_NO_POSITION_COLUMN,
    CGWR_BB_POSITIONS, CGWR_ID_NAME_BLANK, CGWR_SUMMARY_ZERO, CGWR_SHORT_SUMMARY,
    CGWR_DEFINITION_ONLY, CGWR_ONE_POSITION_NOT_LINE, CGWR_NOT_PROFILE, CGWR_CFN_WITHOUT_CALL,
    CGWR_UNCLOSED_ID, CGWR_CALL_ABOVE_TOTAL, CGWR_FLAME_TOTAL, CGWR_EVENTS_BLANK,
    CGWR_BASENAME_CLASH, CGWR_JUMP_TARGET, CGWR_ABSOLUTE_CFI, CGWR_CONTROL_IN_NAME,
    CGWR_NCODES
};

/* The first lines, which cgwr_getline() hands out (the fast path
 * waits): a NUL byte in them before any profile line is binary data. */
#define CGWR_SNIFF_LINES 8

/* An interned name: one per distinct string for the reader's life. */
typedef struct cgwr_str {
    uint32_t len;
    uint32_t fn_part;  /* part in which fn_index is valid (0: none) */
    uint32_t fn_index; /* first function of this name in that part */
    uint32_t first;    /* the first function of this name in the part,
                          when fns[first] has this name (cgwr_function()) */
    uint32_t in_cwd;   /* an absolute path in the working folder: 0 not
                          known yet, 1 no, 2 yes (cgwr_in_cwd()) */
    char s[];
} cgwr_str;

/* A function of the current part: (object, file, name) and what the
 * whole-part checks count for it. */
typedef struct cgwr_fn {
    const cgwr_str *ob, *fl, *name;
    uint64_t first_line, call_line;
    uint32_t blocks;
    uint32_t nagg; /* cgwr_checked_events() with CGW_READ_CHECK, else 0 */
    int called, recursive;
    int ss_called; /* called as speedscope names callees (check.c) */
    uint64_t agg[]; /* own (self + outgoing calls), incoming calls: 2 x nagg,
                       each a saturating sum, which no order of adding
                       changes */
} cgwr_fn;

enum { CGWR_OB, CGWR_FL, CGWR_FN, CGWR_NKINDS };

/* A call or jump whose source line has not come yet. */
typedef struct cgwr_pending {
    cgw_record_kind kind; /* 0: none */
    uint64_t line, count, executed;
    uint64_t target_pos[CGW_NPOS_MAX];
    const cgwr_str *ob, *fl, *fn;
    int saw_blank;
} cgwr_pending;

/* The header of a part as owned storage behind the public cgw_part. */
typedef struct cgwr_part {
    cgw_part pub;
    cgw_desc *descs;
    size_t descs_cap;
    cgw_event *events, *derived;
    size_t events_cap, derived_cap;
    uint64_t *summary, *totals_line, *totals;
    uint64_t *scratch; /* a summary: or totals: line until it is valid */
    int has_summary, has_totals_line;
    int has_events, has_positions, body, announced;
    uint64_t first_line, totals_line_no;
    uint64_t cost_lines, calls, functions;
} cgwr_part;

struct cgw_reader {
    cgw_allocator alloc;
    unsigned flags;
    unsigned skip; /* CGW_SKIP() bits of the kinds not handed out */
    cgw_diag_fn diag;
    void *diag_ctx;
    cgw_status err;
    char msg[256];

    /* input: a descriptor or a callback read into buf, or memory used
     * in place */
    int fd, own_fd;
    cgw_read_fn read_fn; /* what fills buf: src_fn, or the inflater */
    void *read_ctx;
    cgw_read_fn src_fn; /* the input's own bytes (gzip.c sniffs them) */
    void *src_ctx;
    struct cgwr_gz *gz; /* the inflater of a gzip input */
    const char *mem;
    size_t mem_len, mem_off;
    void *map;          /* mem when it is a mapped file (CGW_READ_MAP) */
    size_t map_dropped; /* bytes at the mapping's start given back */
    char *buf;
    size_t buf_cap, buf_start, buf_end;
    size_t whole_end; /* mem or buf offset past the last '\n' read so far */
    int eof, done;
    int unterminated;   /* the line has no newline: nothing readable after it */
    int replay; /* the last line ended a part: read it again in the next */
    const char *line;
    size_t line_len;
    uint64_t consumed; /* bytes of input handed out as lines */
    uint64_t lineno;
    uint64_t header_keys; /* header lines seen in part 1, for the order check */
    int saw_format_line;
    int saw_text;    /* a line that is not blank nor a comment */
    int defer_read_error; /* reading ahead (input.c): a failed read waits */
    int deferred_errno;   /* its errno, said when the lines reach it */
    int not_profile; /* binary or empty: one error, nothing else said */

    /* diagnostics */
    uint64_t count[CGWR_NCODES];
    uint64_t nerrors, nwarnings;

    /* names */
    cgwp_arena names;  /* every cgwr_str, for the reader's life */
    cgwp_hash_key hash_key; /* the secret of the tables below */
    cgwp_hash pool;    /* hash of a string -> its cgwr_str */
    cgwp_hash ids[CGWR_NKINDS]; /* cgwp_hash_int(ID) -> cgwr_str, per part */
    const cgwr_str *unknown; /* "???" */
    const cgwr_str *no_object; /* "": an empty ob= or cob=, no object */

    /* functions of the part */
    cgwr_fn **fns;
    size_t nfns, fns_cap;
    cgwp_arena fn_arena; /* the functions themselves, sums included */
    cgwp_hash fn_table;  /* hash of (ob, fl, name) -> index in fns + 1 */

    /* the part */
    cgwr_part part;
    size_t nevents; /* cost columns of the part */
    int pos_order[CGW_NPOS_MAX]; /* column i of the file -> index in pos[] */

    /* body state */
    const cgwr_str *ob, *fl;         /* of the next fn= */
    const cgwr_str *cur_ob, *cur_fl; /* of the current function */
    const cgwr_str *fn, *fi;         /* function; file of its costs */
    int fn_index;   /* of fn in fns, -1 before fn= */
    const cgwr_str *cob, *cfi, *cfn, *jfi, *jfn;
    /* the callee's file as speedscope takes it (check.c's flame_total()):
     * the last cfi= or cfl= since the last call, after cfn= too, else
     * (none, or an empty one, which this reader reads as "???") the last
     * fl=; empty_line: the line of the last empty name */
    const cgwr_str *ss_cfi, *ss_callee_fl;
    uint64_t empty_line;
    int cfn_fresh;
    const cgwr_str *pending_fi; /* fi= with no cost line after it yet */
    uint64_t pending_fi_line;
    /* fn= with no body line after it yet: not a function until one comes
     * (yappi defines every name first, in a block of fn= lines) */
    const cgwr_str *pending_fn, *pending_fn_ob, *pending_fn_fl;
    uint64_t pending_fn_line;
    uint64_t pending_ob_line; /* an ob= after that fn=, 0 for none */
    int inline_costs;           /* cost lines since the last fi=/fe= */
    uint64_t base[CGW_NPOS_MAX];
    int first_in_block, seen_cost;
    cgwr_pending call;

    /* records handed out: up to three from one line */
    cgw_record q[3];
    int nq, qi;
    int q_dirty[3]; /* the slot holds more than a cost record sets */
    uint64_t pos[3][CGW_NPOS_MAX], tpos[3][CGW_NPOS_MAX];
    uint64_t *costs[3];
    uint64_t *block_start; /* the part's totals when the block began */
    uint64_t *run_start;   /* CGW_READ_SUM_COSTS: the totals when a run began */
    /* CGW_READ_CHECK: the part's call edges, caller << 32 | callee, once
     * each (edge_set), for the cycles of its call graph */
    cgwp_hash edge_set;
    uint64_t *edges;
    /* and, per edge and checked event, its dearest call: the inclusive
     * cost and the line (edge * cgwr_checked_events() + event) */
    uint64_t *edge_max, *edge_line;
    size_t nedges, capedges, edge_events, capmax;
    /* callees that speedscope names otherwise than this reader, as
     * (file, name) pairs: the frames it takes as called */
    const cgwr_str **ss_callees;
    size_t nss_callees, capss_callees;
};

/* diag.c */
/* Each code is shown this many times a file; the rest are counted and
 * summed up in one diagnostic at the end, so a CRLF file of a million
 * lines gives a readable report. */
#define CGWR_SHOWN_PER_CODE 20
void cgwr_diag(cgw_reader *r, uint64_t line, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void cgwr_diag_flush(cgw_reader *r);
cgw_status cgwr_fail(cgw_reader *r, cgw_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The longest line read (its '\n' not counted): 4 MiB, a hundred times
 * the longest name a compiler gives (demangled C++ templates of tens of
 * KiB), so small that the input buffer stays flat.  A longer line is an
 * error (line-too-long) and is skipped, its bytes dropped as they come:
 * memory grows with the names, never with a line's length. */
#define CGWR_MAX_LINE ((size_t)4 << 20)

/* input.c: the next line without its end (\n, \r\n); NULL at the
 * end of the input or after an error */
const char *cgwr_getline(cgw_reader *r, size_t *len);
int cgwr_input_fd(cgw_reader *r, int fd, int own);
int cgwr_input_map(cgw_reader *r, int fd);
int cgwr_input_memory(cgw_reader *r, const char *p, size_t len);
int cgwr_input_callback(cgw_reader *r, cgw_read_fn fn, void *ctx);
void cgwr_input_free(cgw_reader *r);

/* source.c, under input.c and gzip.c: up to room bytes from fn into
 * buf, retrying EINTR: how many (0 at the end), or -1 with the reader's
 * sticky error set; -2 with the error kept in r->deferred_errno while
 * r->defer_read_error (input.c's read ahead). */
long cgwr_read_some(cgw_reader *r, cgw_read_fn fn, void *ctx, char *buf, size_t room);
/* A failed read with errno err as the reader's sticky CGW_EIO. */
void cgwr_read_error(cgw_reader *r, int err);

/* gzip.c: gzip input.  cgwr_sniff_read() is the first read_fn of a
 * callback or descriptor input (ctx: the reader): it reads src_fn until
 * it can tell gzip by its magic bytes, then hands over to src_fn or to
 * the inflater for good.  cgwr_gz_memory() reads compressed memory in
 * place through the inflater.  Both return -1 when out of memory; a
 * build without zlib refuses gzip input with a sticky CGW_EIO instead. */
long cgwr_sniff_read(void *ctx, char *buf, size_t len);
int cgwr_gz_memory(cgw_reader *r, const char *p, size_t len);
void cgwr_gz_free(cgw_reader *r);

/* names.c */
void cgwr_names_init(cgw_reader *r);
const cgwr_str *cgwr_intern(cgw_reader *r, const char *str, size_t len);
const cgwr_str *cgwr_name(cgw_reader *r, int kind, const char *value, size_t len);
const cgwr_str *cgwr_id_name(cgw_reader *r, int kind, uint64_t id);
const cgwr_str *cgwr_id_define(cgw_reader *r, int kind, uint64_t id, const char *str, size_t len);
void cgwr_ids_reset(cgw_reader *r);
int cgwr_function(cgw_reader *r, const cgwr_str *ob, const cgwr_str *fl,
                  const cgwr_str *name, uint64_t line);
void cgwr_names_free(cgw_reader *r);

/* White space readers strip from around a name: blanks, \v and \f. */
static inline int cgwr_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f';
}

static inline int cgwr_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* cur..*end without the white space readers strip around a name
 * (cgwr_space()); returns the new start. */
static inline const char *cgwr_trim(const char *cur, const char **end)
{
    while (cur < *end && cgwr_space(*cur))
        cur++;
    while (*end > cur && cgwr_space((*end)[-1]))
        (*end)--;
    return cur;
}

/* Length of an excerpt of the input for a message: at most max bytes,
 * never past end (input lines are not NUL-terminated). */
static inline int cgwr_clip(const char *start, const char *end, int max)
{
    return end - start > max ? max : (int)(end - start);
}

/* Numbers: decimal, or hex after 0x.  Returns the end of the digits, or
 * NULL when there is none; *flags gets CGWR_NUM_* bits.  Inline: the
 * cost lines spend most of their time here. */
enum { CGWR_NUM_HEX = 1, CGWR_NUM_UPPER = 2, CGWR_NUM_OVERFLOW = 4, CGWR_NUM_0X_UPPER = 8 };

static inline int cgwr_hexval(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

static inline const char *cgwr_number(const char *cur, const char *end, uint64_t *value, int *flags)
{
    uint64_t num = 0;
    const char *start;
    if (end - cur > 2 && cur[0] == '0' && (cur[1] == 'x' || cur[1] == 'X')) {
        *flags |= CGWR_NUM_HEX | (cur[1] == 'X' ? CGWR_NUM_0X_UPPER : 0);
        start = cur += 2;
        for (int digit; cur < end && (digit = cgwr_hexval((unsigned char)*cur)) >= 0; cur++) {
            if (num >> 60)
                *flags |= CGWR_NUM_OVERFLOW;
            if (*cur >= 'A' && *cur <= 'F')
                *flags |= CGWR_NUM_UPPER;
            num = num << 4 | (uint64_t)digit;
        }
    } else {
        /* 19 digits cannot overflow: check only from the 20th on */
        start = cur;
        const char *fast = end - cur > 19 ? cur + 19 : end;
        for (; cur < fast && (unsigned)(*cur - '0') < 10; cur++)
            num = num * 10 + (unsigned)(*cur - '0');
        for (; cur < end && (unsigned)(*cur - '0') < 10; cur++) {
            unsigned digit = (unsigned)(*cur - '0');
            if (num > (UINT64_MAX - digit) / 10)
                *flags |= CGWR_NUM_OVERFLOW;
            num = num * 10 + digit;
        }
    }
    *value = num;
    return cur == start ? NULL : cur;
}

/* header.c: the header lines; cgwr_announce_part() hands out the part's
 * header as a record once, before its first body record. */
int cgwr_header_line(cgw_reader *r, const char *cur, size_t len);
void cgwr_announce_part(cgw_reader *r);

/* part.c: the part's lifecycle, and one line (not taken by the fast
 * path) to the header or the body */
void cgwr_part_start(cgw_reader *r);
void cgwr_line(cgw_reader *r, const char *line, size_t len);
void cgwr_part_end(cgw_reader *r);
void cgwr_part_free(cgw_reader *r);

/* body.c: the general parser of body lines (cur or value..end, the key the
 * len bytes at keyword) */
void cgwr_position_line(cgw_reader *r, const char *cur, const char *end);
void cgwr_spec_line(cgw_reader *r, const char *keyword, size_t len, const char *value,
                    const char *end);

/* emit.c: the end of a function block (fn= or the end of the part), and
 * the body state of a new part */
void cgwr_body_end(cgw_reader *r);
/* A body line comes while r->fn is NULL: the block of a pending fn=
 * starts (its record and checks, at its own line); whether there is a
 * function now. */
int cgwr_open_function(cgw_reader *r);
void cgwr_definition_only(cgw_reader *r);
void cgwr_body_reset(cgw_reader *r);

/* fast.c: take the lines at the reader's place that need no diagnostic
 * and no search for their end, until one of them queues a record (1) or
 * a line needs cgwr_getline() and cgwr_line() (0). */
int cgwr_fast_lines(cgw_reader *r);

/* check.c: the whole-part checks of CGW_READ_CHECK */

/* The events whose inclusive costs are checked: the first 64 (Callgrind
 * writes at most 17), so that the sums of a function take at most
 * 3 x 64 x 8 bytes whatever the events: line lists. */
#define CGWR_CHECK_EVENTS 64
static inline size_t cgwr_checked_events(const cgw_reader *r)
{
    return r->nevents < CGWR_CHECK_EVENTS ? r->nevents : CGWR_CHECK_EVENTS;
}

void cgwr_check_block(cgw_reader *r);
/* the cost line of a call from line to callee (a function index, or
 * negative after an error) */
void cgwr_check_call(cgw_reader *r, int callee, uint64_t line, const uint64_t *costs);
void cgwr_check_part(cgw_reader *r);
void cgwr_check_free(cgw_reader *r);

/* input.c: the unread input that ends in '\n', as [start, *end):
 * whole lines that cgwr_fast_lines() may take without looking for their
 * end; cgwr_take_line() consumes one of len bytes (its '\n' included), as
 * cgwr_getline() does. */
static inline const char *cgwr_whole_lines(const cgw_reader *r, const char **end)
{
    const char *base = r->mem ? r->mem : r->buf;
    *end = base + r->whole_end;
    return base + (r->mem ? r->mem_off : r->buf_start);
}

/* Whether a warning of code is only to be counted (shown often enough
 * already, or no callback); cgwr_warning_counted() counts it so, inline,
 * instead of a cgwr_diag(): 1 if so.  The warnings that common lines of
 * real files get (a trailing blank, a jump line) take it first, to spare
 * the variadic call. */
static inline int cgwr_only_counted(const cgw_reader *r, int code)
{
    return r->diag == NULL || r->count[code] >= CGWR_SHOWN_PER_CODE;
}

static inline int cgwr_warning_counted(cgw_reader *r, int code)
{
    if (!cgwr_only_counted(r, code))
        return 0;
    r->count[code]++;
    r->nwarnings++;
    return 1;
}

/* lines cost lines with fewer costs than events were read while their
 * warning (few-costs) is only counted: counted. */
static inline void cgwr_count_few(cgw_reader *r, uint64_t lines)
{
    r->count[CGWR_FEW_COSTS] += lines;
    r->nwarnings += lines;
}

static inline void cgwr_take_lines(cgw_reader *r, size_t len, uint64_t lines)
{
    if (r->mem)
        r->mem_off += len;
    else
        r->buf_start += len;
    r->lineno += lines;
    r->consumed += len;
}

static inline void cgwr_take_line(cgw_reader *r, size_t len)
{
    cgwr_take_lines(r, len, 1);
}

/* The next record slot, for the line being read.  A cost record sets
 * every field it uses, so a slot that last held one needs no clearing:
 * that saves a memset on most lines. */
static inline cgw_record *cgwr_push(cgw_reader *r, cgw_record_kind kind, uint64_t line)
{
    int slot = r->nq++;
    cgw_record *rec = &r->q[slot];
    if (r->q_dirty[slot] || kind != CGW_REC_COST)
        memset(rec, 0, sizeof *rec);
    r->q_dirty[slot] = kind != CGW_REC_COST;
    rec->kind = kind;
    rec->line = line;
    rec->part = &r->part.pub;
    return rec;
}

#endif /* CGW_READ_H */
