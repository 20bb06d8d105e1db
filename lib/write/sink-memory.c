/* sink-memory.c - write into a growing buffer handed over at finish. */
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

static int reserve(struct memory *m, size_t n)
{
    if (m->cap - m->len >= n)
        return 0;
    size_t cap = m->cap ? m->cap : 4096;
    while (cap - m->len < n) {
        if (cap > SIZE_MAX / 2) {
            errno = ENOMEM;
            return -1;
        }
        cap *= 2;
    }
    char *p = cgwp_realloc(&m->w->alloc, m->data, cap);
    if (p == NULL) {
        errno = ENOMEM;
        return -1;
    }
    m->data = p;
    m->cap = cap;
    return 0;
}

static int memory_write(void *ctx, const char *buf, size_t len)
{
    struct memory *m = ctx;
    if (reserve(m, len) != 0)
        return -1;
    memcpy(m->data + m->len, buf, len);
    m->len += len;
    return 0;
}

static int memory_close(cgw_writer *w, void *ctx, int commit)
{
    struct memory *m = ctx;
    int r = 0;
    if (commit && reserve(m, 1) == 0) {
        m->data[m->len] = '\0';
        *m->bufp = m->data;
        *m->lenp = m->len;
        m->data = NULL;
    } else {
        r = commit ? -1 : 0;
    }
    cgwp_free(&w->alloc, m->data);
    cgwp_free(&w->alloc, m);
    return r;
}

cgw_writer *cgw_open_memory(char **bufp, size_t *lenp, const cgw_options *opts)
{
    if (bufp == NULL || lenp == NULL) {
        errno = EINVAL;
        return NULL;
    }
    *bufp = NULL;
    *lenp = 0;
    cgw_writer *w = cgwp_new(opts);
    if (w == NULL)
        return NULL;
    struct memory *m = cgwp_alloc(&w->alloc, sizeof *m);
    if (m == NULL) {
        cgwp_destroy(w);
        errno = ENOMEM;
        return NULL;
    }
    memset(m, 0, sizeof *m);
    m->w = w;
    m->bufp = bufp;
    m->lenp = lenp;
    cgwp_bind_sink(w, memory_write, memory_close, m);
    return w;
}
