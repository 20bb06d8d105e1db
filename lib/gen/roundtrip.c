/* SPDX-License-Identifier: MIT */
/* roundtrip.c - read, write again through the writer into a temporary
 * file, read that back, and compare the two record streams.  Memory stays
 * flat: the input is a regular file read from its start for each pass (or
 * the caller's memory), the rewritten profile goes to an unlinked
 * temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgw.h"
#include "util.h"

/* A profile to read again and again: a regular file (fd >= 0), read from
 * its start, or buf/len. */
typedef struct input {
    int fd;
    const void *buf;
    size_t len;
    cgw_read_options opts;
} input;

static cgw_reader *open_input(const input *in)
{
    if (in->fd < 0)
        return cgw_reader_open_memory(in->buf, in->len, &in->opts);
    if (lseek(in->fd, 0, SEEK_SET) != 0)
        return NULL;
    return cgw_reader_open_fd(in->fd, &in->opts);
}

/* An unlinked temporary file in $TMPDIR (else /tmp), open for reading and
 * writing; -1 with errno set. */
static int temp_file(void)
{
    const char *dir = getenv("TMPDIR");
    char name[4096];
    if (snprintf(name, sizeof name, "%s/cgw-roundtrip-XXXXXX", dir && *dir ? dir : "/tmp") >=
        (int)sizeof name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(name);
    if (fd >= 0) {
        unlink(name);
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    return fd;
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

/* Write every record of in through a writer with flags into the file
 * out (emptied first).  When the writer refuses a record or fails, msg
 * says so and *line is the record's line (0: at finish); msg is ""
 * otherwise. */
static cgw_status rewrite(const input *in, unsigned flags, int out, char *msg, size_t msglen,
                          uint64_t *line)
{
    if (ftruncate(out, 0) != 0 || lseek(out, 0, SEEK_SET) != 0)
        return CGW_EIO;
    cgw_reader *r = open_input(in);
    if (r == NULL)
        return status_of(r, CGW_OK);
    cgw_writer *w = NULL;
    cgw_status st;
    const cgw_record *rec;
    msg[0] = '\0';
    while ((st = cgw_reader_next(r, &rec)) == CGW_OK && rec != NULL) {
        if (w == NULL) {
            cgw_options wo = { .struct_size = sizeof wo, .positions = rec->part->positions,
                               .flags = flags, .allocator = in->opts.allocator };
            w = cgw_open_fd(out, &wo);
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
static cgw_status compare(const input *in, int out, const cgw_read_options *opts,
                          uint64_t *diffs)
{
    input again = { out, NULL, 0, in->opts };
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

/* The round trip of in, with a temporary file for the rewritten profile. */
static cgw_status roundtrip(input *in, const cgw_read_options *opts, uint64_t *differences)
{
    uint64_t diffs = 0;
    if (differences != NULL)
        *differences = 0;
    int out = temp_file();
    if (out < 0)
        return CGW_EIO;
    char msg[600];
    uint64_t line = 0;
    /* portable first; calls=0 (Callgrind writes it after --zero-before)
     * and jump counts of 0 only in compact mode; what the portable subset
     * refuses because some reader misreads it (bb, names with control
     * characters or invalid UTF-8: the reader has warned of it) only
     * with CGW_EXTENDED */
    cgw_status st = rewrite(in, CGW_EXTENDED, out, msg, sizeof msg, &line);
    if (st == CGW_OK && msg[0] != '\0')
        st = rewrite(in, CGW_COMPACT | CGW_EXTENDED, out, msg, sizeof msg, &line);
    if (st == CGW_OK && msg[0] != '\0')
        report(opts, line, &diffs, msg);
    if (st == CGW_OK && diffs == 0)
        st = compare(in, out, opts, &diffs);
    close(out);
    if (differences != NULL)
        *differences = diffs;
    return st;
}

/* The caller's options into *o, and the reader options of in (its
 * allocator alone: the passes' diagnostics are compared, not shown). */
static int take_options(const cgw_read_options *given, cgw_read_options *o, input *in)
{
    if (cgwp_options_take(o, sizeof *o, sizeof *o, given) < 0)
        return -1;
    in->opts.allocator = o->allocator;
    return 0;
}

cgw_status cgw_roundtrip_fd(int fd, const cgw_read_options *opts, uint64_t *differences)
{
    struct stat st;
    cgw_read_options o = CGW_READ_OPTIONS_INIT;
    input in = { fd, NULL, 0, CGW_READ_OPTIONS_INIT };
    if (differences != NULL)
        *differences = 0;
    if (fd < 0 || fstat(fd, &st) != 0 || take_options(opts, &o, &in) < 0)
        return CGW_EINVAL;
    if (!S_ISREG(st.st_mode))
        return CGW_EINVAL; /* it is read once a pass: a pipe would be gone */
    return roundtrip(&in, &o, differences);
}

cgw_status cgw_roundtrip(const char *path, const void *buf, size_t len,
                         const cgw_read_options *opts, uint64_t *differences)
{
    if (differences != NULL)
        *differences = 0;
    if (path == NULL && buf == NULL && len > 0)
        return CGW_EINVAL;
    if (path == NULL) {
        cgw_read_options o = CGW_READ_OPTIONS_INIT;
        input in = { -1, buf, len, CGW_READ_OPTIONS_INIT };
        if (take_options(opts, &o, &in) < 0)
            return CGW_EINVAL;
        return roundtrip(&in, &o, differences);
    }
    /* O_NONBLOCK: a FIFO is refused (EINVAL below) instead of waited on */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOMEM ? CGW_ENOMEM : CGW_EIO;
    (void)fcntl(fd, F_SETFL, 0);
    cgw_status st = cgw_roundtrip_fd(fd, opts, differences);
    close(fd);
    return st;
}
