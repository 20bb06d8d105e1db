/* SPDX-License-Identifier: MIT */
/* alloc.h - memory from a cgw_allocator, for the writer, the reader and
 * everything built on them.  Nothing here aborts: a NULL return becomes
 * CGW_ENOMEM in the caller.  Never installed. */
#ifndef CGW_COMMON_ALLOC_H
#define CGW_COMMON_ALLOC_H

#include <stddef.h>

#include "cgw.h"

/* The allocator of a writer or reader into *out: given, or libc's when
 * given is NULL; -1 when given lacks a member. */
int cgwp_pick_allocator(const cgw_allocator *given, cgw_allocator *out);

/* A zeroed handle (a writer, a reader) of size bytes from the allocator
 * given (libc's when NULL), which is copied to *out; NULL with errno
 * EINVAL (options_ok is 0, or given lacks a member) or ENOMEM. */
void *cgwp_new_handle(int options_ok, const cgw_allocator *given, size_t size,
                      cgw_allocator *out);

/* malloc(0) and realloc(p, 0) ask for one byte, so that NULL always
 * means out of memory; realloc(NULL, n) is malloc(n); free(NULL) does
 * nothing. */
void *cgwp_alloc(const cgw_allocator *alloc, size_t size);
void *cgwp_realloc(const cgw_allocator *alloc, void *block, size_t size);
void cgwp_free(const cgw_allocator *alloc, void *block);
/* cgwp_free() of each of blocks[0..count) (a handle's arrays at its end). */
void cgwp_free_all(const cgw_allocator *alloc, void *const *blocks, size_t count);
char *cgwp_strdup(const cgw_allocator *alloc, const char *str);

#endif /* CGW_COMMON_ALLOC_H */
