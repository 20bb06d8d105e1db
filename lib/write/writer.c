/* SPDX-License-Identifier: MIT */
/* writer.c - creating a writer on a sink, parts, finishing and freeing.
 *
 * The sinks (sink-fd.c, sink-memory.c, sink-path.c) are small wrappers:
 * each makes a writer here and binds to it a write function and a close
 * function, as cgw_open_callback() does for the caller's own.  The
 * header and body calls (header.c, body.c) then format lines into the
 * buffer (buf.c), which goes to the sink when full, through deflate
 * when CGW_GZIP asks (gzip.c).  cgw_finish() ends the last part with its
 * totals, flushes, and lets the sink commit only a complete profile.
 * The first error is sticky (error.c): later calls do nothing and return
 * it, so the caller checks once, at cgw_finish(). */
#include <errno.h>
#include <string.h>

#include "config.h" /* HAVE_ZLIB: cgw_features() */
#include "write.h"
#include "common/options.h"

#define DEFAULT_BUFFER (64 * 1024)

/* Known positions and flags; bb positions only with CGW_EXTENDED. */
static int valid_options(const cgw_options *o)
{
    if (o->positions == CGW_POS_NONE && !(o->flags & CGW_EXTENDED))
        return 0;
    if (o->positions > (CGW_POS_LINE | CGW_POS_INSTR | CGW_POS_BB) &&
        o->positions != CGW_POS_NONE)
        return 0;
    if ((o->positions & CGW_POS_BB) && !(o->flags & CGW_EXTENDED))
        return 0;
    unsigned level = o->flags & CGW_GZIP_LEVEL(15);
    if (level && (!(o->flags & CGW_GZIP) || level > CGW_GZIP_LEVEL(9)))
        return 0;
    return !(o->flags & ~(unsigned)(CGW_COMPACT | CGW_NO_NAME_COMPRESSION |
                                    CGW_NO_POS_COMPRESSION | CGW_EXTENDED | CGW_GZIP |
                                    CGW_GZIP_LEVEL(15) | CGW_NOFOLLOW | CGW_EXCL | CGW_RAW |
                                    CGW_ZERO_COUNTS | CGW_ONE_PART |
                                    CGW_QUALIFY_NAMES));
}

/* A writer without a sink yet; NULL with errno EINVAL (args_ok, the
 * opening call's own arguments' check, is 0, or opts are bad) or ENOMEM. */
cgw_writer *cgwp_new(int args_ok, const cgw_options *given)
{
    cgw_allocator alloc;
    cgw_options o = CGW_OPTIONS_INIT;
    int ok = cgwp_options_take(&o, sizeof o, sizeof o, given) == 0 && valid_options(&o);
    cgw_writer *w = cgwp_new_handle(args_ok && ok, o.allocator, sizeof *w, &alloc);
    if (w == NULL)
        return NULL;
    w->alloc = alloc;
    cgwp_tables_init(w);
    w->positions = o.positions ? o.positions : CGW_POS_LINE;
    w->flags = o.flags;
    unsigned kinds[CGW_NPOS_MAX];
    w->npos = (int)cgw_pos_kinds(w->positions, kinds);
    w->nhex = w->npos - ((w->positions & CGW_POS_LINE) != 0);
    /* the line is last; KCachegrind reads it as 32 bits */
    w->line_slot = (w->positions & CGW_POS_LINE) && !(w->flags & CGW_EXTENDED) ? w->npos - 1
                                                                               : -1;
    w->cap = o.buffer_size ? o.buffer_size : DEFAULT_BUFFER;
    w->buf = cgwp_alloc(&w->alloc, w->cap);
    if (w->buf == NULL) {
        alloc.free(alloc.ctx, w);
        errno = ENOMEM;
        return NULL;
    }
    if ((w->flags & CGW_GZIP) && cgwp_gz_new(w) < 0) {
        int e = errno;
        cgwp_destroy(w);
        errno = e;
        return NULL;
    }
    w->state = (w->flags & CGW_RAW) ? CGWP_ST_RAW : CGWP_ST_HEADER;
    w->part = 1;
    w->tag = cgwp_next_tag();
    return w;
}

void cgwp_bind_sink(cgw_writer *w, cgw_write_fn fn, cgwp_close_fn close, void *ctx)
{
    w->sink_write = fn;
    w->sink_close = close;
    w->sink_ctx = ctx;
    w->sink_open = 1;
    if (w->gz != NULL)
        cgwp_gz_wrap(w);
}

/* A writer (cgwp_new()) in *wp and the state of its sink, size bytes
 * zeroed from its allocator; NULL with errno EINVAL or ENOMEM, nothing
 * left allocated. */
void *cgwp_new_sink(int args_ok, const cgw_options *opts, size_t size, cgw_writer **wp)
{
    cgw_writer *w = cgwp_new(args_ok, opts);
    if (w == NULL)
        return NULL;
    void *state = cgwp_alloc(&w->alloc, size);
    if (state == NULL) {
        cgwp_destroy(w);
        errno = ENOMEM;
        return NULL;
    }
    memset(state, 0, size);
    *wp = w;
    return state;
}

cgw_writer *cgw_open_callback(cgw_write_fn fn, void *ctx, const cgw_options *opts)
{
    cgw_writer *w = cgwp_new(fn != NULL, opts);
    if (w != NULL)
        cgwp_bind_sink(w, fn, NULL, ctx);
    return w;
}

/* Close the sink once: commit only when the whole profile was written. */
static void close_sink(cgw_writer *w, int commit)
{
    if (!w->sink_open)
        return;
    w->sink_open = 0;
    if (w->sink_close == NULL)
        return;
    errno = 0;
    if (w->sink_close(w, w->sink_ctx, commit) != 0 && commit) {
        int e = errno;
        cgwp_fail(w, e == ENOMEM ? CGW_ENOMEM : CGW_EIO, "committing the output failed: %s",
                  e ? strerror(e) : "no errno given");
    }
}

static void reset_body(cgw_writer *w)
{
    cgwp_tables_reset(w);
    w->next_ob = w->next_fl = 0;
    w->cur_ob = w->cur_fl = w->cur_fn = w->cur_fi = 0;
    w->written_ob = w->written_fl = 0;
    w->unknown_fl = 0;
    w->base_valid = 0;
    cgwp_gate(w);
}

/* Close the current part: leave an inlined file, then totals:. */
static cgw_status end_part(cgw_writer *w)
{
    cgw_status st = CGW_OK;
    if (w->state != CGWP_ST_BODY)
        st = cgwp_begin_body(w);
    if (st == CGW_OK)
        st = cgwp_end_function(w);
    if (st == CGW_OK)
        st = cgwp_write_totals(w);
    return st;
}

cgw_status cgw_new_part(cgw_writer *w)
{
    cgw_status st = cgwp_enter(w, "cgw_new_part",
                               CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY);
    if (st == CGW_OK && (w->flags & CGW_ONE_PART)) {
        w->folded = 1; /* the same part goes on */
        return CGW_OK;
    }
    if (st == CGW_OK)
        st = end_part(w);
    if (st != CGW_OK)
        return st;
    reset_body(w);
    w->part++;
    w->has_thread = 0;
    w->has_summary = w->late_summary = 0;
    w->descs.len = 0; /* desc: lines belong to the part that adds them */
    w->state = CGWP_ST_PART_HEADER;
    return CGW_OK;
}

cgw_status cgw_write_bytes(cgw_writer *w, const void *bytes, size_t len)
{
    cgw_status st = cgwp_enter(w, "cgw_write_bytes", CGWP_ST_RAW);
    if (st == CGW_OK && bytes == NULL && len > 0)
        st = cgwp_fail(w, CGW_EINVAL, "bytes is NULL");
    return st == CGW_OK && len > 0 ? cgwp_put(w, bytes, len) : st;
}

cgw_status cgw_finish(cgw_writer *w)
{
    if (w == NULL)
        return CGW_EUSAGE;
    if (w->state == CGWP_ST_DONE)
        return cgwp_enter(w, "cgw_finish", 0);
    cgw_status st = cgwp_enter(w, "cgw_finish", ~CGWP_ST_DONE);
    if (st == CGW_OK && w->state != CGWP_ST_RAW)
        st = end_part(w);
    if (st == CGW_OK)
        st = cgwp_flush(w);
    close_sink(w, st == CGW_OK);
    w->state = CGWP_ST_DONE;
    cgwp_gate(w);
    return w->err;
}

void cgwp_destroy(cgw_writer *w)
{
    cgwp_gz_free(w);
    cgwp_tables_free(w);
    void *blocks[] = { w->buf, w->line, w->totals, w->summary, w->creator, w->cmd,
                       w->descs.p, w->events.p, w->evnames.p };
    cgwp_free_all(&w->alloc, blocks, sizeof blocks / sizeof *blocks);
    cgw_allocator alloc = w->alloc;
    alloc.free(alloc.ctx, w);
}

void cgw_free(cgw_writer *w)
{
    if (w == NULL)
        return;
    close_sink(w, 0);
    cgwp_destroy(w);
}

cgw_status cgw_close(cgw_writer *w)
{
    cgw_status st = cgw_finish(w);
    cgw_free(w);
    return st;
}

const char *cgw_version(void)
{
    return CGW_VERSION_STRING;
}

/* What configure found, as the names a --version Features: line shows. */
unsigned cgw_features(const char *const **names)
{
    static const char *const list[] = {
#ifdef HAVE_ZLIB
        "gzip",
#endif
        NULL
    };
    if (names != NULL)
        *names = list;
#ifdef HAVE_ZLIB
    return CGW_FEATURE_GZIP;
#else
    return 0;
#endif
}

long cgw_event_column(const cgw_writer *w, const char *name)
{
    if (w == NULL || name == NULL)
        return -1;
    if (w->evnames.p == NULL) /* no event yet: and NULL + 0 is undefined */
        return -1;
    size_t len = strlen(name);
    const char *p = w->evnames.p, *end = p + w->evnames.len; /* " A B" */
    for (long col = 0; p != NULL && p < end; col++) {
        const char *word = p + 1, *next = memchr(word, ' ', (size_t)(end - word));
        size_t n = (size_t)((next ? next : end) - word);
        if (n == len && memcmp(word, name, len) == 0)
            return col;
        p = next;
    }
    return -1;
}

cgw_state cgw_get_state(const cgw_writer *w)
{
    if (w == NULL)
        return (cgw_state)0;
    switch (w->state) {
    case CGWP_ST_HEADER: return CGW_STATE_HEADER;
    case CGWP_ST_PART_HEADER: return CGW_STATE_PART_HEADER;
    case CGWP_ST_BODY:
    case CGWP_ST_RAW: return CGW_STATE_BODY;
    default: return CGW_STATE_FINISHED;
    }
}

cgw_status cgw_get_options(const cgw_writer *w, cgw_options *out)
{
    if (w == NULL || out == NULL)
        return CGW_EUSAGE;
    cgw_options o = { .struct_size = sizeof o, .positions = w->positions, .flags = w->flags,
                      .buffer_size = w->cap, .allocator = &w->alloc };
    return cgwp_options_give(out, &o, sizeof o, sizeof o) == 0 ? CGW_OK : CGW_EINVAL;
}

const char *cgw_temp_path(const cgw_writer *w)
{
    return w != NULL ? w->temp_name : NULL;
}

uint64_t cgw_bytes_written(const cgw_writer *w)
{
    return w ? w->sent + w->len : 0;
}
