/* SPDX-License-Identifier: MIT */
/* sink-memory.c - write into a growing buffer handed over at finish.
 *
 * cgw_open_memory() makes a writer with a write function that appends to
 * a buffer on the writer's allocator, doubling it as needed.  When the
 * profile is complete, cgw_finish() closes the sink, which NUL-terminates
 * the buffer and hands it to the caller through *bufp and *lenp (the
 * caller's to free, with the writer's allocator); after an error the
 * buffer is freed and *bufp stays NULL.  It is the model for a sink:
 * the other sink files (fd, path) have the same shape. */
#include <errno.h>
#include <string.h>

#include "write.h"

struct memory {
    cgw_writer *w;
    char **bufp;
    size_t *lenp;
    char *data;
    size_t len, cap;
};

static int reserve(struct memory *mem, size_t need)
{
    if (mem->cap - mem->len >= need)
        return 0;
    size_t cap = mem->cap ? mem->cap : 4096;
    while (cap - mem->len < need) {
        if (cap > SIZE_MAX / 2) {
            errno = ENOMEM;
            return -1;
        }
        cap *= 2;
    }
    char *grown = cgwp_realloc(&mem->w->alloc, mem->data, cap);
    if (grown == NULL) {
        errno = ENOMEM;
        return -1;
    }
    mem->data = grown;
    mem->cap = cap;
    return 0;
}

static int memory_write(void *ctx, const char *buf, size_t len)
{
    struct memory *mem = ctx;
    if (len == 0) /* mem->data may still be NULL: NULL + 0 is undefined */
        return 0;
    if (reserve(mem, len) != 0)
        return -1;
    memcpy(mem->data + mem->len, buf, len);
    mem->len += len;
    return 0;
}

static int memory_close(cgw_writer *w, void *ctx, int commit)
{
    struct memory *mem = ctx;
    int rc = 0;
    if (commit && reserve(mem, 1) == 0) {
        mem->data[mem->len] = '\0';
        *mem->bufp = mem->data;
        *mem->lenp = mem->len;
        mem->data = NULL;
    } else {
        rc = commit ? -1 : 0;
    }
    cgwp_free(&w->alloc, mem->data);
    cgwp_free(&w->alloc, mem);
    return rc;
}

cgw_writer *cgw_open_memory(char **bufp, size_t *lenp, const cgw_options *opts)
{
    if (bufp == NULL || lenp == NULL) {
        errno = EINVAL;
        return NULL;
    }
    *bufp = NULL;
    *lenp = 0;
    cgw_writer *w;
    struct memory *mem = cgwp_new_sink(1, opts, sizeof *mem, &w);
    if (mem == NULL)
        return NULL;
    mem->w = w;
    mem->bufp = bufp;
    mem->lenp = lenp;
    cgwp_bind_sink(w, memory_write, memory_close, mem);
    return w;
}
