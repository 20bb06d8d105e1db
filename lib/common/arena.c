/* SPDX-License-Identifier: MIT */
/* arena.c - chunks of memory freed together. */
#include <string.h>

#include "alloc.h"
#include "arena.h"

/* size bytes at a multiple of align (1 or 8) from the newest chunk, or
 * from a new one, whose data is 8-aligned. */
static void *take(cgwp_arena *arena, const cgw_allocator *alloc, size_t size, size_t align)
{
    cgwp_chunk *chunk = arena->head;
    size_t at = chunk ? (chunk->used + align - 1) & ~(align - 1) : 0;
    if (chunk == NULL || at > chunk->cap || chunk->cap - at < size) {
        size_t cap = size > arena->chunk_size ? size : arena->chunk_size;
        chunk = cgwp_alloc(alloc, sizeof *chunk + cap);
        if (chunk == NULL)
            return NULL;
        chunk->cap = cap;
        chunk->next = arena->head;
        arena->head = chunk;
        at = 0;
    }
    chunk->used = at + size;
    return (char *)chunk->data + at;
}

void *cgwp_arena_alloc(cgwp_arena *arena, const cgw_allocator *alloc, size_t size)
{
    return take(arena, alloc, size, 8);
}

/* Strings need no alignment: packed, as the writer's names always were. */
char *cgwp_arena_strdup(cgwp_arena *arena, const cgw_allocator *alloc, const char *str,
                        size_t len)
{
    char *copy = take(arena, alloc, len + 1, 1);
    if (copy != NULL) {
        memcpy(copy, str, len);
        copy[len] = '\0';
    }
    return copy;
}

void cgwp_arena_free(cgwp_arena *arena, const cgw_allocator *alloc)
{
    while (arena->head != NULL) {
        cgwp_chunk *next = arena->head->next;
        cgwp_free(alloc, arena->head);
        arena->head = next;
    }
}
