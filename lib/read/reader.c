/* SPDX-License-Identifier: MIT */
/* reader.c - opening a reader on an input, handing out records, closing.
 *
 * Each cgw_reader_open_*() call makes a reader and gives it to input.c,
 * which turns a descriptor, callback, memory or mapped file into lines.
 * cgw_reader_next() then pulls lines until a record is queued: the fast
 * path (fast.c) takes the common cost lines in runs, and every other
 * line goes through part.c to the header or the body parser, whose
 * records (emit.c) wait in the queue for the caller.  At the end of the
 * input the last part is closed (and checked, with CGW_READ_CHECK),
 * and the diagnostics are flushed.  An error is sticky: the caller sees it once, from
 * cgw_reader_next(), and every call after returns it again. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "read.h"
#include "common/options.h"

static cgw_reader *reader_new(const cgw_read_options *given)
{
    cgw_allocator alloc;
    unsigned kinds = CGW_SKIP(CGW_REC_PART_END + 1) - CGW_SKIP(CGW_REC_PART);
    unsigned flags = CGW_READ_CHECK | CGW_READ_MAP | CGW_READ_SUM_COSTS;
    cgw_read_options o = CGW_READ_OPTIONS_INIT;
    int options_ok = cgwp_options_take(&o, sizeof o, sizeof o, given) == 0 &&
                     !((o.flags & ~flags) || (o.skip & ~kinds));
    cgw_reader *r = cgwp_new_handle(options_ok, o.allocator, sizeof *r, &alloc);
    if (r == NULL)
        return NULL;
    r->alloc = alloc;
    r->fd = -1;
    r->flags = o.flags;
    r->diag = o.diag;
    r->diag_ctx = o.diag_ctx;
    r->skip = o.skip;
    r->part.pub.version = 1;
    r->part.pub.positions = CGW_POS_LINE;
    r->part.pub.npos = 1;
    cgwr_names_init(r);
    r->unknown = cgwr_intern(r, "???", 3);
    r->no_object = cgwr_intern(r, "", 0);
    if (r->unknown == NULL) {
        cgw_reader_close(r);
        errno = ENOMEM;
        return NULL;
    }
    cgwr_part_start(r);
    return r;
}

/* r once its input is set up (rc 0), else NULL with errno ENOMEM. */
static cgw_reader *ready(cgw_reader *r, int rc)
{
    if (rc < 0) {
        cgw_reader_close(r);
        errno = ENOMEM;
        return NULL;
    }
    return r;
}

cgw_reader *cgw_reader_open_callback(cgw_read_fn fn, void *ctx, const cgw_read_options *opts)
{
    if (fn == NULL) {
        errno = EINVAL;
        return NULL;
    }
    cgw_reader *r = reader_new(opts);
    return r ? ready(r, cgwr_input_callback(r, fn, ctx)) : NULL;
}

cgw_reader *cgw_reader_open_fd(int fd, const cgw_read_options *opts)
{
    if (fd < 0) {
        errno = EINVAL;
        return NULL;
    }
    cgw_reader *r = reader_new(opts);
    return r ? ready(r, cgwr_input_fd(r, fd, 0)) : NULL;
}

cgw_reader *cgw_reader_open_path(const char *path, const cgw_read_options *opts)
{
    if (path == NULL) {
        errno = EINVAL;
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    cgw_reader *r = reader_new(opts);
    if (r == NULL) {
        int saved_errno = errno;
        close(fd);
        errno = saved_errno;
        return NULL;
    }
    if ((r->flags & CGW_READ_MAP) && cgwr_input_map(r, fd)) {
        close(fd); /* the mapping stays */
        return r;
    }
    return ready(r, cgwr_input_fd(r, fd, 1)); /* closed with r */
}

cgw_reader *cgw_reader_open_memory(const void *buf, size_t len, const cgw_read_options *opts)
{
    if (buf == NULL && len > 0) {
        errno = EINVAL;
        return NULL;
    }
    cgw_reader *r = reader_new(opts);
    return r ? ready(r, cgwr_input_memory(r, buf ? buf : "", len)) : NULL;
}

static void finish(cgw_reader *r)
{
    if (r->lineno == 0 && !r->not_profile) {
        cgwr_diag(r, 0, CGWR_NOT_PROFILE, "empty%s, not a Callgrind profile",
                  r->gz != NULL ? " once gzip-decompressed" : "");
        r->not_profile = 1;
    }
    if (r->not_profile) {
        r->done = 1;
        return;
    }
    if (!r->saw_format_line)
        cgwr_diag(r, r->lineno ? 1 : 0, CGWR_NO_FORMAT_LINE,
                  "the first line is not \"# callgrind format\" (KCachegrind and speedscope "
                  "then look for events: near the start)");
    cgwr_part_end(r);
    cgwr_diag_flush(r);
    r->done = 1;
}

/* Read until a record the caller takes is queued at q[qi], or to the end
 * of the input (qi == nq) or an error. */
static cgw_status queue_next(cgw_reader *r)
{
    for (;;) {
        while (r->qi < r->nq && (r->skip & CGW_SKIP(r->q[r->qi].kind)))
            r->qi++;
        if (r->err != CGW_OK || r->qi < r->nq)
            break;
        r->qi = r->nq = 0;
        if (r->done)
            return CGW_OK;
        if (r->replay) {
            r->replay = 0;
            cgwr_part_start(r);
            cgwr_line(r, r->line, r->line_len);
            continue;
        }
        if (cgwr_fast_lines(r))
            continue;
        size_t len;
        const char *line = cgwr_getline(r, &len);
        if (line == NULL) {
            if (r->err == CGW_OK)
                finish(r);
            continue;
        }
        r->line = line;
        r->line_len = len;
        cgwr_line(r, line, len);
    }
    return r->err;
}

/* The next record in *rec (NULL at the end), taken when take is set. */
static inline cgw_status queue_head(cgw_reader *r, const cgw_record **rec, int take)
{
    if (r == NULL || rec == NULL)
        return CGW_EUSAGE;
    *rec = NULL;
    cgw_status st = queue_next(r);
    if (st == CGW_OK && r->qi < r->nq)
        *rec = &r->q[take ? r->qi++ : r->qi];
    return st;
}

cgw_status cgw_reader_next(cgw_reader *r, const cgw_record **rec)
{
    return queue_head(r, rec, 1);
}

cgw_status cgw_reader_peek(cgw_reader *r, const cgw_record **rec)
{
    return queue_head(r, rec, 0);
}

uint64_t cgw_reader_offset(const cgw_reader *r)
{
    return r ? r->consumed : 0;
}

void cgw_reader_close(cgw_reader *r)
{
    if (r == NULL)
        return;
    cgwr_input_free(r);
    cgwr_part_free(r);
    cgwr_names_free(r);
    cgwr_check_free(r);
    r->alloc.free(r->alloc.ctx, r);
}
