/* SPDX-License-Identifier: MIT */
/* input.c - lines from a descriptor or a read callback (read in
 * large blocks), from memory (used in place) or from a mapped file; gzip
 * input of any kind comes through gzip.c's inflater, in blocks.  A
 * line longer than the block grows the buffer, and a mapping is given
 * back behind the reader, so memory follows the longest line, never the
 * input's size. */
#define _DEFAULT_SOURCE /* madvise() */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fdwait.h"
#include "common/gz.h"
#include "common/utf8.h"
#include "read.h"

/* 128 KiB: a block that stays in L2 and needs few page faults.  Whole
 * cgverify runs took 5-6% less time than with 1 MiB blocks on 2-3 MB
 * files, and the same on 200 MB (paired runs). */
#define BLOCK (1u << 17)

/* A non-blocking descriptor's EAGAIN is a wait, not an error. */
static long read_fd(void *ctx, char *buf, size_t len)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t got = read(fd, buf, len);
        if (got >= 0 || !cgwp_wait_ready(fd, 0))
            return (long)got;
    }
}

/* The offset past the last '\n' of text[0..len), or 0.  Lines are short: a
 * backward scan stops soon. */
static size_t whole_lines(const char *text, size_t len)
{
    while (len > 0 && text[len - 1] != '\n')
        len--;
    return len;
}


/* A mapped file is read in windows of MAP_WINDOW bytes: the fast path
 * (cgwr_whole_lines()) sees the whole lines of one window, and the pages
 * before the next one's first line are given back then, so the mapping
 * adds at most a window to the resident memory.  A line longer than a
 * window is found by mem_line() alone. */
#define MAP_WINDOW (1u << 20)

static void map_window(cgw_reader *r)
{
#ifdef MADV_DONTNEED
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t keep = r->mem_off / page * page; /* up to the next line's page */
    if (keep > r->map_dropped) {
        /* unwritten pages of a private file mapping read back the same
         * bytes if touched again: this only saves memory */
        madvise((char *)r->map + r->map_dropped, keep - r->map_dropped, MADV_DONTNEED);
        r->map_dropped = keep;
    }
#endif
    size_t span = r->mem_len - r->mem_off;
    if (span > MAP_WINDOW)
        span = MAP_WINDOW;
    r->whole_end = r->mem_off + whole_lines(r->mem + r->mem_off, span);
}

int cgwr_input_map(cgw_reader *r, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (uintmax_t)st.st_size > SIZE_MAX)
        return 0;
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
        return 0;
    if (cgwp_is_gzip(map, (size_t)st.st_size)) {
        /* read in blocks and inflated: memory stays flat */
        munmap(map, (size_t)st.st_size);
        return 0;
    }
    r->map = map;
    r->mem = map;
    r->mem_len = (size_t)st.st_size;
    map_window(r);
    return 1;
}

static int block(cgw_reader *r)
{
    r->buf = cgwp_alloc(&r->alloc, BLOCK);
    if (r->buf == NULL)
        return -1;
    r->buf_cap = BLOCK;
    return 0;
}

/* The first read tells gzip from text (cgwr_sniff_read()): plain input
 * pays for that once, never per block. */
int cgwr_input_callback(cgw_reader *r, cgw_read_fn fn, void *ctx)
{
    r->src_fn = fn;
    r->src_ctx = ctx;
    r->read_fn = cgwr_sniff_read;
    r->read_ctx = r;
    return block(r);
}

/* Memory is used in place; gzip in memory is inflated into blocks. */
int cgwr_input_memory(cgw_reader *r, const char *text, size_t len)
{
    if (cgwp_is_gzip(text, len))
        return cgwr_gz_memory(r, text, len) < 0 ? -1 : block(r);
    r->mem = text;
    r->mem_len = len;
    r->whole_end = whole_lines(text, len);
    return 0;
}

int cgwr_input_fd(cgw_reader *r, int fd, int own)
{
    r->fd = fd;
    r->own_fd = own;
    return cgwr_input_callback(r, read_fd, &r->fd);
}

void cgwr_input_free(cgw_reader *r)
{
    if (r->map != NULL)
        munmap(r->map, r->mem_len);
    r->map = NULL;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    cgwp_free(&r->alloc, r->buf);
    r->buf = NULL;
    cgwr_gz_free(r);
}

/* Read more bytes after the unfinished line in buf; 0, or -1 on error. */
static int fill(cgw_reader *r)
{
    if (r->buf_start > 0) {
        memmove(r->buf, r->buf + r->buf_start, r->buf_end - r->buf_start);
        r->buf_end -= r->buf_start;
        r->whole_end = r->whole_end > r->buf_start ? r->whole_end - r->buf_start : 0;
        r->buf_start = 0;
    }
    if (r->buf_end == r->buf_cap) {
        char *nb = cgwp_realloc(&r->alloc, r->buf, r->buf_cap * 2);
        if (nb == NULL) {
            cgwr_fail(r, CGW_ENOMEM, "out of memory for a line of %zu bytes", r->buf_cap);
            return -1;
        }
        r->buf = nb;
        r->buf_cap *= 2;
    }
    if (r->deferred_errno != 0) { /* a read ahead failed: the lines reached it */
        cgwr_read_error(r, r->deferred_errno);
        return -1;
    }
    long got = cgwr_read_some(r, r->read_fn, r->read_ctx, r->buf + r->buf_end,
                            r->buf_cap - r->buf_end);
    if (got == -2)
        return 0; /* reading ahead: the error waits in r->deferred_errno */
    if (got < 0)
        return -1;
    if (got == 0)
        r->eof = 1;
    size_t whole = whole_lines(r->buf + r->buf_end, (size_t)got);
    if (whole > 0)
        r->whole_end = r->buf_end + whole;
    r->buf_end += (size_t)got;
    return 0;
}

/* The rest of a line over CGWR_MAX_LINE, read and dropped block by
 * block; *len is the whole line's length (saturated), for the caller to
 * report and skip it: the returned text is not the line's. */
static const char *drop_long_line(cgw_reader *r, size_t *len, int *final_nl)
{
    size_t dropped = 0;
    for (;;) {
        char *line = r->buf + r->buf_start;
        size_t avail = r->buf_end - r->buf_start;
        char *nl = memchr(line, '\n', avail);
        size_t part = nl != NULL ? (size_t)(nl - line) : avail;
        dropped = part > SIZE_MAX - dropped ? SIZE_MAX : dropped + part;
        r->buf_start += part + (nl != NULL);
        if (nl != NULL || r->eof) {
            *final_nl = nl != NULL;
            *len = dropped;
            return r->buf;
        }
        if (fill(r) < 0)
            return NULL;
    }
}

/* The next line of a descriptor, or NULL with *len 0 at the end. */
static const char *fd_line(cgw_reader *r, size_t *len, int *final_nl)
{
    size_t scanned = 0;
    for (;;) {
        char *line = r->buf + r->buf_start;
        size_t avail = r->buf_end - r->buf_start;
        char *nl = memchr(line + scanned, '\n', avail - scanned);
        if (nl != NULL) {
            *len = (size_t)(nl - line);
            r->buf_start += *len + 1;
            return line;
        }
        if (r->eof) {
            r->buf_start = r->buf_end;
            *len = avail;
            *final_nl = 0;
            return avail ? line : NULL;
        }
        if (avail > CGWR_MAX_LINE)
            return drop_long_line(r, len, final_nl);
        scanned = avail;
        if (fill(r) < 0)
            return NULL;
    }
}

static const char *mem_line(cgw_reader *r, size_t *len, int *final_nl)
{
    const char *line = r->mem + r->mem_off;
    size_t avail = r->mem_len - r->mem_off;
    const char *nl = memchr(line, '\n', avail);
    if (nl == NULL) {
        r->mem_off = r->mem_len;
        *len = avail;
        *final_nl = 0;
        return avail ? line : NULL;
    }
    *len = (size_t)(nl - line);
    r->mem_off += *len + 1;
    if (r->map != NULL && r->mem_off >= r->whole_end)
        map_window(r);
    return line;
}

/* The first SNIFF_BYTES of the input (or all of it) in the buffer before
 * the first line is handed out, so that binary_ahead() sees the same
 * bytes however the input comes (memory, a descriptor, short reads);
 * 0, or -1 on an error.  A read that fails there is kept, and said when
 * the lines reach it (fill()), after any error of the lines before. */
#define SNIFF_BYTES 1024
static int prefill(cgw_reader *r)
{
    int st = 0;
    r->defer_read_error = 1; /* an error there comes when the lines reach it */
    while (r->mem == NULL && !r->eof && r->deferred_errno == 0 &&
           r->buf_end - r->buf_start < SNIFF_BYTES)
        if ((st = fill(r)) < 0)
            break;
    r->defer_read_error = 0;
    return st;
}

/* The next line of the input, counted; NULL at the end. */
static const char *next_line(cgw_reader *r, size_t *len, int *final_nl)
{
    *final_nl = 1;
    const char *line = r->mem ? mem_line(r, len, final_nl) : fd_line(r, len, final_nl);
    if (line != NULL) {
        r->lineno++;
        r->consumed += *len + (size_t)*final_nl;
    }
    return line;
}

/* Says that the input is binary data, not a profile: one error naming
 * what it looks like, and the read ends. */
static int not_profile(cgw_reader *r, const char *line, size_t len)
{
    const char *what = "binary data";
    if (r->lineno == 1 && len >= 4 && memcmp(line, "\177ELF", 4) == 0)
        what = "an ELF file (a program or library)";
    else if (r->gz != NULL && r->lineno == 2 && r->consumed - len <= 2)
        what = "binary data (a pprof profile? cgconvert --from pprof reads those)";
    cgwr_diag(r, r->lineno, CGWR_NOT_PROFILE, "%s%s, not a Callgrind profile",
              r->gz != NULL ? "gzip-compressed " : "", what);
    r->not_profile = 1;
    return 1;
}

/* Whether line, the first with a NUL byte, says the input is binary
 * data rather than a profile: only blank lines or comments came before
 * it, in its first lines (a pprof profile starts with a newline byte). */
static int binary(cgw_reader *r, const char *line, size_t len)
{
    if (r->saw_text || r->saw_format_line || r->lineno > CGWR_SNIFF_LINES ||
        memchr(line, 0, len) == NULL)
        return 0;
    return not_profile(r, line, len);
}

/* Whether a line (its newline and CR not included) could be a
 * profile's: text with no control character but a tab or a form feed,
 * and well-formed UTF-8. */
static int text_line(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t' && c != '\f') || c == 0x7f)
            return 0;
    }
    return cgwp_utf8_valid((const unsigned char *)line, len);
}

/* The first line, looking ahead at the first SNIFF_BYTES of the input
 * (read before it, prefill()): a NUL byte there with only lines before
 * it that are not text (a PNG's "\x89PNG\r", "\x1a"), blank or
 * comments, one at least not text, says binary data at once, before
 * those lines are read as unknown ones. */
static int binary_ahead(cgw_reader *r, const char *line, size_t len)
{
    const char *end = r->mem != NULL ? r->mem + r->mem_len : r->buf + r->buf_end;
    if ((size_t)(end - line) > SNIFF_BYTES)
        end = line + SNIFF_BYTES;
    const char *nul = memchr(line, 0, (size_t)(end - line));
    if (nul == NULL)
        return 0;
    int lines = 0, texts = 0, others = 0;
    for (const char *cur = line; cur < nul; lines++) {
        const char *nl = memchr(cur, '\n', (size_t)(nul - cur));
        if (nl == NULL)
            break; /* the line with the NUL */
        size_t n = (size_t)(nl - cur);
        if (n > 0 && cur[n - 1] == '\r') /* CR LF: a blank line is blank */
            n--;
        if (n > 0 && cur[0] != '#')
            *(text_line(cur, n) ? &texts : &others) += 1;
        cur = nl + 1;
    }
    /* with only blanks and comments before it, binary() names the NUL's line */
    if (texts > 0 || others == 0 || lines >= CGWR_SNIFF_LINES)
        return 0;
    return not_profile(r, line, len);
}

const char *cgwr_getline(cgw_reader *r, size_t *len)
{
    int final_nl;
    const char *line;
    if (r->lineno == 0 && prefill(r) < 0)
        return NULL;
    while ((line = next_line(r, len, &final_nl)) != NULL && *len > CGWR_MAX_LINE)
        cgwr_diag(r, r->lineno, CGWR_LINE_TOO_LONG,
                  "a line of %zu%s bytes, over the limit of %zu: skipped", *len,
                  *len == SIZE_MAX ? " or more" : "", CGWR_MAX_LINE);
    if (line == NULL || (r->lineno == 1 && binary_ahead(r, line, *len)) ||
        binary(r, line, *len))
        return NULL;
    r->unterminated = !final_nl;
    if (!final_nl)
        cgwr_diag(r, r->lineno, CGWR_NO_FINAL_NEWLINE,
                  "the last line has no newline (Qt Creator needs one)");
    const char *nul = memchr(line, 0, *len);
    if (nul != NULL) {
        cgwr_diag(r, r->lineno, CGWR_NUL_BYTE,
                  "NUL byte at column %zu; the rest of the line is ignored "
                  "(KCachegrind hangs on the line)", (size_t)(nul - line) + 1);
        *len = (size_t)(nul - line);
    }
    if (*len > 0 && line[*len - 1] == '\r') {
        cgwr_diag(r, r->lineno, CGWR_CR,
                  "line ends in CR LF; speedscope rejects \\r and callgrind_annotate "
                  "keeps it in names");
        (*len)--;
    }
    const char *cr = memchr(line, '\r', *len);
    if (cr != NULL)
        cgwr_diag(r, r->lineno, CGWR_CR_IN_LINE,
                  "CR at column %zu, inside the line; readers keep it in names and text, "
                  "and the libcgw writer refuses it", (size_t)(cr - line) + 1);
    return line;
}
