/* SPDX-License-Identifier: MIT */
/* roundtrip.c - read, write again through the writer into memory,
 * read that back, and compare the two record streams. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cgw.h"

typedef struct input {
    const char *path;
    const void *buf;
    size_t len;
    cgw_read_options opts;
} input;

static cgw_reader *open_input(const input *in)
{
    if (in->path != NULL)
        return cgw_reader_open_path(in->path, &in->opts);
    return cgw_reader_open_memory(in->buf, in->len, &in->opts);
}

static void report(const cgw_read_options *opts, uint64_t line, uint64_t *diffs, const char *msg)
{
    ++*diffs;
    if (opts != NULL && opts->diag != NULL) {
        cgw_diagnostic diag = { line, CGW_ERROR, "roundtrip", msg };
        opts->diag(opts->diag_ctx, &diag);
    }
}

static cgw_status status_of(cgw_reader *r, cgw_status st)
{
    if (st == CGW_OK && r == NULL)
        st = errno == ENOMEM ? CGW_ENOMEM : CGW_EIO;
    return st;
}

/* Write every record of in through a memory writer with flags; the bytes
 * in *out.  When the writer refuses a record or fails, msg says so and
 * *line is the record's line (0: at finish); msg is "" otherwise. */
static cgw_status rewrite(const input *in, unsigned flags, char **out, size_t *outlen,
                          char *msg, size_t msglen, uint64_t *line)
{
    cgw_reader *r = open_input(in);
    if (r == NULL)
        return status_of(r, CGW_OK);
    cgw_writer *w = NULL;
    cgw_status st;
    const cgw_record *rec;
    msg[0] = '\0';
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (w == NULL) {
            cgw_options wo = { rec->part->positions, flags, 0, in->opts.allocator };
            w = cgw_open_memory(out, outlen, &wo);
            if (w == NULL) {
                st = CGW_ENOMEM;
                break;
            }
        }
        if (cgw_write_record(w, rec) != CGW_OK) {
            snprintf(msg, msglen, "the writer refuses the record: %s", cgw_errmsg(w));
            *line = rec->line;
            break;
        }
    }
    if (w != NULL && cgw_finish(w) != CGW_OK && msg[0] == '\0' && st == CGW_OK) {
        snprintf(msg, msglen, "the writer failed: %s", cgw_errmsg(w));
        *line = 0;
    }
    cgw_free(w);
    cgw_reader_close(r);
    return st;
}

static cgw_status next_data(cgw_reader *r, const cgw_record **rec)
{
    cgw_status st;
    while ((st = cgw_reader_next(r, rec)) == CGW_OK && *rec != NULL &&
           (*rec)->kind == CGW_REC_INLINE)
        ;
    return st;
}

/* Compare in with the written bytes, record by record; stop at the first
 * difference. */
static cgw_status compare(const input *in, const char *out, size_t outlen,
                          const cgw_read_options *opts, uint64_t *diffs)
{
    input again = { NULL, out, outlen, in->opts };
    cgw_reader *orig = open_input(in), *copy = open_input(&again);
    cgw_status st = CGW_OK;
    if (orig == NULL || copy == NULL) {
        st = status_of(NULL, CGW_OK);
    } else {
        const cgw_record *orig_rec, *copy_rec;
        char what[400], msg[600];
        for (;;) {
            if ((st = next_data(orig, &orig_rec)) != CGW_OK ||
                (st = next_data(copy, &copy_rec)) != CGW_OK)
                break;
            if (cgw_record_compare(orig_rec, copy_rec, what, sizeof what) != 0) {
                snprintf(msg, sizeof msg, "the re-read record (line %llu of the rewritten "
                         "profile) differs: %s",
                         copy_rec ? (unsigned long long)copy_rec->line : 0ull, what);
                report(opts, orig_rec ? orig_rec->line : 0, diffs, msg);
                break;
            }
            if (orig_rec == NULL)
                break;
        }
    }
    cgw_reader_close(orig);
    cgw_reader_close(copy);
    return st;
}

cgw_status cgw_roundtrip(const char *path, const void *buf, size_t len,
                         const cgw_read_options *opts, uint64_t *differences)
{
    uint64_t diffs = 0;
    if (differences != NULL)
        *differences = 0;
    if (path == NULL && buf == NULL && len > 0)
        return CGW_EINVAL;
    input in = { path, buf, len, { 0, NULL, NULL, opts ? opts->allocator : NULL, 0 } };
    char *out = NULL, msg[600];
    size_t outlen = 0;
    uint64_t line = 0;
    /* portable first; calls=0 (Callgrind writes it after --zero-before)
     * and jump counts of 0 only in compact mode; what the portable subset
     * refuses because some reader misreads it (bb, names with control
     * characters or invalid UTF-8: the reader has warned of it) only
     * with CGW_EXTENDED */
    cgw_status st = rewrite(&in, CGW_EXTENDED, &out, &outlen, msg, sizeof msg, &line);
    if (st == CGW_OK && msg[0] != '\0')
        st = rewrite(&in, CGW_COMPACT | CGW_EXTENDED, &out, &outlen, msg, sizeof msg, &line);
    if (st == CGW_OK && msg[0] != '\0')
        report(opts, line, &diffs, msg);
    if (st == CGW_OK && diffs == 0)
        st = compare(&in, out, outlen, opts, &diffs);
    if (out != NULL) {
        if (opts != NULL && opts->allocator != NULL)
            opts->allocator->free(opts->allocator->ctx, out);
        else
            free(out);
    }
    if (differences != NULL)
        *differences = diffs;
    return st;
}
