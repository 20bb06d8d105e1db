/* SPDX-License-Identifier: MIT */
/* write.h - the writer's private state, shared by the files of lib/write.
 * Never installed.  Cross-file names use the cgwp_ prefix. */
#ifndef CGW_WRITE_H
#define CGW_WRITE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "cgw.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "common/compiler.h"
#include "common/fmt.h"
#include "common/hash.h"

/* Writer states; entry points name the set of states they accept. */
enum {
    CGWP_ST_HEADER = 1,      /* before the first body call */
    CGWP_ST_PART_HEADER = 2, /* after cgw_new_part(), before its body */
    CGWP_ST_BODY = 4,
    CGWP_ST_DONE = 8,        /* after cgw_finish() */
    CGWP_ST_RAW = 16         /* CGW_RAW: bytes only, until cgw_finish() */
};

/* A growable byte string for header text (desc and event lines). */
typedef struct cgwp_text {
    char *p;
    size_t len, cap;
} cgwp_text;

/* One interned name.  id is 0 until the name is first written, so IDs are
 * dense and in order of first use.  scope (functions only) holds the
 * object and file entries (index + 1) that, with the name, identify it. */
typedef struct cgwp_name {
    const char *str;
    const char *given; /* the caller's pointer last seen for it */
    uint32_t len;
    uint32_t id;
    uint32_t scope_ob, scope_fl;
} cgwp_name;

/* A name table: entries plus a hash index of entry + 1, and the entries
 * of recently given pointers, so that a caller passing the same string
 * again costs a strcmp() instead of a hash. */
#define CGWP_RECENT 64
typedef struct cgwp_table {
    cgwp_name *names;
    uint32_t count, cap;
    cgwp_hash index;
    uint32_t next_id;
    uint32_t recent[CGWP_RECENT];
} cgwp_table;

enum { CGWP_OB, CGWP_FL, CGWP_FN, CGWP_EV, CGWP_NTABLES };


/* The sink: write every byte or fail with errno; close commits (finish
 * without error) or discards, and frees ctx.  close may be NULL. */
typedef int (*cgwp_close_fn)(cgw_writer *w, void *ctx, int commit);

struct cgw_writer {
    /* sink and memory */
    cgw_write_fn sink_write;
    cgwp_close_fn sink_close;
    void *sink_ctx;
    int sink_open;
    const char *temp_name; /* the path sink's named temporary file, or NULL */
    struct cgwp_gz *gz; /* CGW_GZIP: the deflater wrapped around the sink */
    cgw_allocator alloc;

    /* options */
    unsigned flags;
    unsigned positions;
    int npos;
    int nhex;      /* the subpositions before the line: addresses, written in hex */
    int line_slot; /* of a line limited to 32 bits in position arrays; -1: none */

    /* state and sticky error */
    int state;
    cgw_status err;
    const char *call; /* the public call being served, for messages */
    char msg[256];

    /* output buffer; 'line' holds a numeric line when it cannot fit */
    char *buf;
    size_t len, cap;
    uint64_t sent; /* bytes the sink has taken */
    char *line;
    size_t line_max;

    /* header */
    char *creator, *cmd;
    uint64_t pid, thread;
    int has_pid, has_thread;
    int folded; /* CGW_ONE_PART: cgw_new_part() was called */
    cgwp_text descs;    /* "desc: T: V\n" lines */
    cgwp_text events;   /* "event: ..." lines */
    cgwp_text evnames;  /* " A B" for the events: line */
    size_t nevents;     /* raw events: cost columns */
    uint64_t *summary;
    size_t nsummary;
    int has_summary;
    int late_summary;   /* given in the body: written before totals: */
    unsigned part;
    uint16_t tag; /* in every handle this writer gives (handles.c) */

    /* body of the current part */
    uint64_t *totals;
    uint64_t room; /* every total can take this much more without wrapping */
    cgwp_table tables[CGWP_NTABLES];
    cgwp_hash_key hash_key; /* the secret of the tables' indexes */
    cgwp_arena names;                /* body names of this part */
    cgwp_arena event_names;
    uint32_t next_ob, next_fl;       /* chosen by cgw_object/cgw_file */
    uint32_t cur_ob, cur_fl, cur_fn; /* of the current function block */
    uint32_t cur_fi;                 /* file of the following costs */
    uint32_t written_ob, written_fl; /* last ob=/fl= line written */
    uint32_t unknown_fl;             /* entry of "???" once interned */
    uint64_t base[CGW_NPOS_MAX];    /* previous cost line's position */
    int base_valid;
    /* cgw_cost()'s state checks passed at once: no error, in the body, a
     * function open and its object and file still the chosen ones;
     * cgwp_gate() recomputes it on every change of those */
    int costs_open;
    /* cgw_cost()'s one pass applies (body.c): costs open, a base, relative
     * positions, one or two subpositions: which one pass, CGWP_ONE_PASS_1
     * or _2, or in compact mode CGWP_ONE_PASS_COMPACT_1 or _2; else 0 */
    int one_pass;
};

enum {
    CGWP_ONE_PASS_1 = 1, CGWP_ONE_PASS_2, CGWP_ONE_PASS_COMPACT_1, CGWP_ONE_PASS_COMPACT_2
};

/* Recompute w->costs_open and w->one_pass; every change of the state,
 * the error, the current function, the chosen object or file or the
 * base calls it. */
static inline void cgwp_gate(cgw_writer *w)
{
    w->costs_open = w->err == CGW_OK && w->state == CGWP_ST_BODY && w->cur_fn != 0 &&
                    w->next_ob == w->cur_ob && (w->next_fl == 0 || w->next_fl == w->cur_fl);
    w->one_pass = 0;
    if (w->costs_open && w->base_valid && !(w->flags & CGW_NO_POS_COMPRESSION) &&
        (w->npos == 1 || w->npos == 2))
        w->one_pass = (w->flags & CGW_COMPACT ? CGWP_ONE_PASS_COMPACT_1 : CGWP_ONE_PASS_1) +
                      (w->npos == 2);
}

/* error.c */
cgw_status cgwp_fail(cgw_writer *w, cgw_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
cgw_status cgwp_enter(cgw_writer *w, const char *call, int states);
cgw_status cgwp_check_text(cgw_writer *w, const char *what, const char *text);
cgw_status cgwp_check_name(cgw_writer *w, const char *what, const char *name);
cgw_status cgwp_refuse_handle(cgw_writer *w, uint64_t bits, int kind, const char *what);

/* writer.c: creating a writer and binding its sink (used by the sinks) */
cgw_writer *cgwp_new(int args_ok, const cgw_options *opts);
void *cgwp_new_sink(int args_ok, const cgw_options *opts, size_t size, cgw_writer **wp);
void cgwp_bind_sink(cgw_writer *w, cgw_write_fn fn, cgwp_close_fn close, void *ctx);
void cgwp_destroy(cgw_writer *w);

/* gzip.c (CGW_GZIP): cgwp_gz_new() makes the deflater of the level in
 * w->flags, 0 or -1 with errno ENOMEM (ENOTSUP without zlib);
 * cgwp_gz_wrap() puts it between the bound sink and the buffer. */
#define CGWP_GZIP_LEVEL_SHIFT 8
int cgwp_gz_new(cgw_writer *w);
void cgwp_gz_wrap(cgw_writer *w);
void cgwp_gz_free(cgw_writer *w);

/* sink-fd.c: write all bytes to a descriptor, retrying EINTR and short
 * writes (the fd and path sinks share it) */
int cgwp_fd_write_all(int fd, const char *buf, size_t len);

/* buf.c */
cgw_status cgwp_flush(cgw_writer *w);
cgw_status cgwp_put(cgw_writer *w, const char *bytes, size_t size);
char *cgwp_reserve_slow(cgw_writer *w, size_t size);

/* Room for need bytes: a pointer into the buffer, or into w->line when the
 * buffer is smaller than need; NULL after an error.  cgwp_commit() takes the
 * bytes from the returned pointer up to end. */
static inline char *cgwp_reserve(cgw_writer *w, size_t need)
{
    if (w->cap - w->len >= need)
        return w->buf + w->len;
    return cgwp_reserve_slow(w, need);
}

static inline cgw_status cgwp_commit(cgw_writer *w, char *start, char *end)
{
    if (start == w->buf + w->len) {
        w->len += (size_t)(end - start);
        return CGW_OK;
    }
    return cgwp_put(w, start, (size_t)(end - start));
}

static inline cgw_status cgwp_puts(cgw_writer *w, const char *str, size_t len)
{
    if (w->cap - w->len >= len) {
        for (size_t i = 0; i < len; i++)
            w->buf[w->len + i] = str[i];
        w->len += len;
        return CGW_OK;
    }
    return cgwp_put(w, str, len);
}

/* names.c */
cgw_status cgwp_intern(cgw_writer *w, int kind, const char *what, const char *name,
                       uint32_t scope_ob, uint32_t scope_fl, uint32_t *entry);
cgw_status cgwp_write_name_any(cgw_writer *w, const char *spec, int kind, uint32_t entry);

/* "spec(id)\n" for a name already written in this part, straight into
 * the buffer: the lines between calls (cob= cfi= cfn=), which would
 * otherwise cost a reserve and a commit each; spec is a literal, so its
 * length is a constant.  Anything else: cgwp_write_name_any(). */
static inline cgw_status cgwp_write_name(cgw_writer *w, const char *spec, int kind, uint32_t entry)
{
    const cgwp_name *name = &w->tables[kind].names[entry - 1];
    size_t spec_len = strlen(spec);
    if (name->id == 0 || (w->flags & CGW_NO_NAME_COMPRESSION) || w->cap - w->len < spec_len + 14)
        return cgwp_write_name_any(w, spec, kind, entry);
    char *out = w->buf + w->len;
    memcpy(out, spec, spec_len);
    out[spec_len] = '(';
    out = cgwp_fmt_dec(out + spec_len + 1, name->id);
    out[0] = ')';
    out[1] = '\n';
    w->len = (size_t)(out + 2 - w->buf);
    return CGW_OK;
}
const cgwp_name *cgwp_lookup(const cgw_writer *w, int kind, const char *name);
void cgwp_tables_init(cgw_writer *w);
void cgwp_tables_reset(cgw_writer *w);
void cgwp_tables_free(cgw_writer *w);

/* pos.c */
#define CGWP_POS_MAX 66 /* three subpositions of 21 bytes and separators */
char *cgwp_pos_steps(cgw_writer *w, char *out, const uint64_t *pos);

/* Whether CGW_COMPACT plainly writes a subposition of value relative,
 * as a step of size (its distance from the base): when "+N" is no longer
 * than the absolute form ("+N" takes 2 to 4 bytes below 1000; a hex
 * value 3 below 16, 4 or more from there; a decimal one digit more at
 * each power of ten).  0 for the others, steps of 1000 or more among
 * them, which need lengths computed: cgwp_shortest().  Most values are
 * 1000 or more; below that, a decimal step of d digits is plainly no
 * longer from 10^d on (one table entry), where a bound worked out from
 * the value branched on each power of ten, mispredicted on the line
 * numbers of real profiles, which cross them all the time. */
static inline int cgwp_compact_plain(uint64_t value, uint64_t size, int hex)
{
    if (size >= 1000)
        return 0;
    if (value >= 1000)
        return 1;
    uint64_t least = hex ? (size < 100 ? 0 : 16)
                         : size ? cgwp_pow10[(unsigned char)cgwp_dec3[size][3]] : 0;
    return value >= least;
}

/* The shorter of value's step from base (below 2^31 either way: see
 * pos.c) and its absolute form, hex or decimal, the step on a tie: a
 * subposition in compact mode.  The lengths are computed only when
 * neither form is plainly the shorter: a step cgwp_compact_plain()
 * takes, or a decimal step at least the value (as long, with its sign
 * one byte longer). */
static inline char *cgwp_shortest(char *out, uint64_t value, uint64_t base, int hex)
{
    uint64_t step = value >= base ? value - base : base - value;
    if (cgwp_compact_plain(value, step, hex))
        return cgwp_pos_step(out, value, base);
    if (step < (uint64_t)1 << 31 && (hex || step < value) &&
        1 + cgwp_dec_len(step) <= (hex ? cgwp_hex_len(value) : cgwp_dec_len(value)))
        return cgwp_pos_step(out, value, base);
    return cgwp_pos_abs(out, value, hex);
}

/* Write the subpositions of pos (at most CGWP_POS_MAX bytes), without
 * leading or trailing blank; a cost or source position becomes the base.
 * The usual cases are inline: absolute positions, a relative step of a
 * cost or source line (in compact mode when the relative form is plainly
 * the shorter), and a compact target. */
static CGWP_HOT_INLINE char *cgwp_pos(cgw_writer *w, char *out, const uint64_t *pos,
                                      int is_target)
{
    int compact = (w->flags & CGW_COMPACT) != 0;
    if (!w->base_valid || (w->flags & CGW_NO_POS_COMPRESSION) || (is_target && !compact)) {
        /* absolute: a block's first line, a target by default */
        int nhex = w->nhex;
        for (int i = 0; i < w->npos; i++) {
            if (i > 0)
                *out++ = ' ';
            out = cgwp_pos_abs(out, pos[i], i < nhex);
        }
        if (!is_target) {
            for (int i = 0; i < w->npos; i++)
                w->base[i] = pos[i];
            w->base_valid = 1;
            cgwp_gate(w);
        }
        return out;
    }
    if (is_target) { /* compact: each the shorter form */
        int nhex = w->nhex;
        for (int i = 0; i < w->npos; i++) {
            if (i > 0)
                *out++ = ' ';
            out = cgwp_shortest(out, pos[i], w->base[i], i < nhex);
        }
        return out;
    }
    /* the step's size is known in the branch that writes its sign: one
     * more compare there sends a step of 2^31 or more, or in compact mode
     * one that is not plainly shorter relative, to cgwp_pos_steps(), which
     * starts the line again from the bases, left untouched here */
    char *start = out;
    for (int i = 0; i < w->npos; i++) {
        uint64_t value = pos[i], base = w->base[i];
        if (i > 0)
            *out++ = ' ';
        if (value == base) {
            *out++ = '*';
        } else if (value > base) {
            if (value - base >= (uint64_t)1 << 31 ||
                (compact && !cgwp_compact_plain(value, value - base, i < w->nhex)))
                return cgwp_pos_steps(w, start, pos);
            *out = '+';
            out = cgwp_fmt_dec(out + 1, value - base);
        } else {
            if (base - value >= (uint64_t)1 << 31 ||
                (compact && !cgwp_compact_plain(value, base - value, i < w->nhex)))
                return cgwp_pos_steps(w, start, pos);
            *out = '-';
            out = cgwp_fmt_dec(out + 1, base - value);
        }
    }
    for (int i = 0; i < w->npos; i++)
        w->base[i] = pos[i];
    return out;
}

/* header.c */
cgw_status cgwp_write_header(cgw_writer *w);
cgw_status cgwp_write_totals(cgw_writer *w);

/* handles.c: the tag of a new writer, which its handles carry (why a
 * handle is refused, cold, is error.c's cgwp_refuse_handle()) */
uint16_t cgwp_next_tag(void);

/* A handle: bits 0-31 the entry, 32-33 the table + 1, 34-47 the part
 * (modulo 2^14), 48-63 the writer's tag (handles.c says more).  The
 * upper half of every handle of table kind in this writer's part: */
#define CGWP_PART_MASK ((1u << 14) - 1)
static inline uint64_t cgwp_handle_upper(const cgw_writer *w, int kind)
{
    return (uint64_t)w->tag << 48 | (uint64_t)(w->part & CGWP_PART_MASK) << 34 |
           (uint64_t)(kind + 1) << 32;
}

/* The table entry of handle id, which must be of table kind; with
 * optional, CGW_NO_NAME is entry 0.  what names the argument. */
static CGWP_HOT_INLINE cgw_status cgwp_handle(cgw_writer *w, cgw_name_id id, int kind,
                                              const char *what, int optional, uint32_t *entry)
{
    uint32_t low = (uint32_t)id.bits;
    if ((id.bits & ~(uint64_t)UINT32_MAX) == cgwp_handle_upper(w, kind) &&
        low - 1 < w->tables[kind].count) {
        *entry = low;
        return CGW_OK;
    }
    *entry = 0;
    if (optional && id.bits == 0)
        return CGW_OK;
    return cgwp_refuse_handle(w, id.bits, kind, what);
}

/* body.c; the string calls and handles.c's calls share these */
cgw_status cgwp_begin_body(cgw_writer *w);
cgw_status cgwp_end_function(cgw_writer *w);
cgw_status cgwp_unknown_file(cgw_writer *w, uint32_t *fl);
cgw_status cgwp_enter_function(cgw_writer *w, const char *call);
cgw_status cgwp_switch_file(cgw_writer *w, uint32_t fl);
cgw_status cgwp_open_function(cgw_writer *w, uint32_t ob, uint32_t fl, uint32_t fn);

/* The body's entry check, which writes the header on the first body
 * call (body.c's and handles.c's calls). */
static inline cgw_status cgwp_enter_body(cgw_writer *w, const char *call)
{
    cgw_status st = cgwp_enter(w, call, CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY);
    if (st == CGW_OK && w->state != CGWP_ST_BODY)
        st = cgwp_begin_body(w);
    return st;
}

#endif /* CGW_WRITE_H */
