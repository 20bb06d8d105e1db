/* SPDX-License-Identifier: MIT */
/* arena.h - memory handed out in chunks and freed all at once: the
 * writer's names of a part, the reader's names and a part's functions.
 * Never installed. */
#ifndef CGW_COMMON_ARENA_H
#define CGW_COMMON_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "cgw.h"

typedef struct cgwp_chunk {
    struct cgwp_chunk *next;
    size_t used, cap;
    uint64_t data[]; /* 8-aligned for what is stored in it */
} cgwp_chunk;

/* chunk_size: the size of a chunk (a larger request gets its own). */
typedef struct cgwp_arena {
    cgwp_chunk *head;
    size_t chunk_size;
} cgwp_arena;

/* size bytes, 8-aligned, valid until cgwp_arena_free(); NULL when the
 * allocator fails. */
void *cgwp_arena_alloc(cgwp_arena *arena, const cgw_allocator *alloc, size_t size);
/* A NUL-terminated copy of str[0..len), not aligned. */
char *cgwp_arena_strdup(cgwp_arena *arena, const cgw_allocator *alloc, const char *str,
                        size_t len);
void cgwp_arena_free(cgwp_arena *arena, const cgw_allocator *alloc);

#endif /* CGW_COMMON_ARENA_H */
