/* arena.c - chunks of memory freed together. */
#include <string.h>

#include "alloc.h"
#include "arena.h"

void *cgwp_arena_alloc(cgwp_arena *arena, const cgw_allocator *alloc, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    cgwp_chunk *chunk = arena->head;
    if (chunk == NULL || chunk->cap - chunk->used < size) {
        size_t cap = size > arena->chunk_size ? size : arena->chunk_size;
        chunk = cgwp_alloc(alloc, sizeof *chunk + cap);
        if (chunk == NULL)
            return NULL;
        chunk->cap = cap;
        chunk->used = 0;
        chunk->next = arena->head;
        arena->head = chunk;
    }
    void *mem = (char *)chunk->data + chunk->used;
    chunk->used += size;
    return mem;
}

char *cgwp_arena_strdup(cgwp_arena *arena, const cgw_allocator *alloc, const char *str,
                        size_t len)
{
    char *copy = cgwp_arena_alloc(arena, alloc, len + 1);
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
