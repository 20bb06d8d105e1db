/*
 * cgw.h - write (and, later, read) profiles in the Callgrind format.
 *
 * The one installed header of libcgw.  Everything here is ordered as the
 * writer's lifecycle:
 *
 *   1. open a writer on a sink:   cgw_open_path(), cgw_open_fd(),
 *                                 cgw_open_callback(), cgw_open_memory()
 *   2. describe the run (header): cgw_set_creator(), cgw_set_cmd(),
 *                                 cgw_set_pid(), cgw_set_thread(),
 *                                 cgw_add_desc(), cgw_add_event(),
 *                                 cgw_add_derived_event(), cgw_set_summary()
 *   3. write the body:            cgw_object(), cgw_file(), cgw_function(),
 *                                 cgw_inline_file(), cgw_cost(), cgw_call(),
 *                                 cgw_jump(), cgw_cond_jump()
 *   4. optionally start a part:   cgw_new_part(), then back to 2 (thread,
 *                                 desc and summary only) and 3
 *   5. finish and release:        cgw_close(), or cgw_finish() + cgw_errmsg()
 *                                 + cgw_free()
 *
 * Errors are sticky: the first failing call records a status and a message;
 * every later call does nothing and returns that status; nothing reaches the
 * sink after it.  A caller may therefore ignore every status and check once,
 * at cgw_close() or cgw_finish().
 *
 * No call prints, aborts, or allocates per cost line.  Memory comes from the
 * allocator in cgw_options (libc's when NULL).  A writer is not thread-safe;
 * distinct writers are independent (the library has no global mutable state).
 */
#ifndef CGW_H
#define CGW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define CGW_API __attribute__((visibility("default")))
#else
#define CGW_API
#endif

#define CGW_VERSION_MAJOR 0
#define CGW_VERSION_MINOR 1
#define CGW_VERSION_PATCH 0
#define CGW_VERSION_STRING "0.1.0"
#define CGW_VERSION_HEX \
    ((CGW_VERSION_MAJOR << 16) | (CGW_VERSION_MINOR << 8) | CGW_VERSION_PATCH)

/** Version of the library linked at run time, e.g. "0.1.0". */
CGW_API const char *cgw_version(void);

/** Status of every call.  Values are stable and only ever appended to. */
typedef enum cgw_status {
    CGW_OK = 0,
    CGW_EIO,     /**< the sink failed (errno kept in the message)         */
    CGW_ENOMEM,  /**< the allocator returned NULL                         */
    CGW_EUSAGE,  /**< call made in the wrong state or on a NULL writer    */
    CGW_EINVAL,  /**< a bad argument: name, event, count, position array  */
    CGW_ERANGE   /**< a total would pass 2^64-1                           */
} cgw_status;

/** A short, static description of a status ("I/O error", ...). */
CGW_API const char *cgw_strerror(cgw_status status);

/* ---------------------------------------------------------------- options */

/** cgw_options.positions: which subpositions each position array holds.
 *  0 means CGW_POS_LINE.  With both, the instruction address comes first. */
enum { CGW_POS_LINE = 1u, CGW_POS_INSTR = 2u };

/** cgw_options.flags.
 *  CGW_COMPACT: smallest output for large profiles: trailing zero costs
 *      dropped, each subposition written relative or absolute, whichever is
 *      shorter, specs (fl=, cfi=, cob=) only when they change, no blank
 *      lines, calls= counts of 0 allowed.
 *  CGW_NO_NAME_COMPRESSION: names written in full every time, no "(id)".
 *  CGW_NO_POS_COMPRESSION: every subposition written absolute.
 *  Without flags the writer emits the portable subset that every known
 *  reader (KCachegrind, callgrind_annotate, gprof2dot, speedscope, Qt
 *  Creator) reads correctly. */
enum { CGW_COMPACT = 1u, CGW_NO_NAME_COMPRESSION = 2u, CGW_NO_POS_COMPRESSION = 4u };

/** A per-writer allocator; NULL members are not allowed.  ctx is passed back
 *  unchanged.  A NULL return is reported as CGW_ENOMEM, never aborts. */
typedef struct cgw_allocator {
    void *(*malloc)(void *ctx, size_t n);
    void *(*realloc)(void *ctx, void *p, size_t n);
    void (*free)(void *ctx, void *p);
    void *ctx;
} cgw_allocator;

/** Options of a writer; a NULL cgw_options pointer means all zero.
 *  buffer_size: bytes buffered before the sink is called (0: 64 KiB). */
typedef struct cgw_options {
    unsigned positions;
    unsigned flags;
    size_t buffer_size;
    const cgw_allocator *allocator;
} cgw_options;

/* ------------------------------------------------------------ 1. opening */

typedef struct cgw_writer cgw_writer;

/** Sink callback: write all len bytes; return 0, or -1 with errno set. */
typedef int (*cgw_write_fn)(void *ctx, const char *buf, size_t len);

/** Write to a file, atomically: the profile goes to a temporary file in the
 *  same folder, renamed over path only when cgw_finish() succeeds; on any
 *  failure path is left untouched and the temporary file removed.
 *  Returns NULL with errno set (EINVAL, ENOMEM, or open()'s) on failure. */
CGW_API cgw_writer *cgw_open_path(const char *path, const cgw_options *opts);

/** Write to an open descriptor, retrying short writes and EINTR.  The
 *  descriptor stays open.  NULL with errno set (EINVAL, ENOMEM) on failure. */
CGW_API cgw_writer *cgw_open_fd(int fd, const cgw_options *opts);

/** Write through fn(ctx, bytes, len).  NULL with errno set on failure. */
CGW_API cgw_writer *cgw_open_callback(cgw_write_fn fn, void *ctx,
                                      const cgw_options *opts);

/** Write to a growing memory buffer.  After a successful cgw_finish(),
 *  *bufp holds the profile, NUL-terminated, and *lenp its length without
 *  the NUL; the buffer comes from the writer's allocator and is the
 *  caller's to free.  On failure *bufp is NULL and *lenp 0.  NULL with
 *  errno set on failure to open. */
CGW_API cgw_writer *cgw_open_memory(char **bufp, size_t *lenp,
                                    const cgw_options *opts);

/* ------------------------------------------------------------- 2. header */
/* Header calls are accepted until the first body call (or cgw_finish());
 * later they return CGW_EUSAGE.  After cgw_new_part() only cgw_set_thread(),
 * cgw_add_desc() and cgw_set_summary() are accepted, for the new part.
 * Strings are copied.  Text must not contain '\n' or '\r' (CGW_EINVAL). */

/** creator: line (default "libcgw-<version>").  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_set_creator(cgw_writer *w, const char *creator);
/** cmd: line (the profiled command).  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_set_cmd(cgw_writer *w, const char *cmd);
/** pid: line.  OK, EUSAGE. */
CGW_API cgw_status cgw_set_pid(cgw_writer *w, uint64_t pid);
/** thread: line of the current part.  OK, EUSAGE. */
CGW_API cgw_status cgw_set_thread(cgw_writer *w, uint64_t thread);
/** desc: TYPE: VALUE line; TYPE is non-empty without ':'.
 *  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_add_desc(cgw_writer *w, const char *type, const char *value);
/** Append an event to the events: line, with an optional long name
 *  (event: NAME : LONG).  NAME matches [A-Za-z_][A-Za-z0-9_]* and is not
 *  already defined.  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_add_event(cgw_writer *w, const char *name,
                                 const char *long_name);
/** Define a derived event (event: NAME = FORMULA [: LONG]), computed by
 *  readers from other events: FORMULA is a sum of terms "[N [*]] EVENT",
 *  each EVENT already defined.  Derived events take no cost columns.
 *  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_add_derived_event(cgw_writer *w, const char *name,
                                         const char *formula,
                                         const char *long_name);
/** summary: line of the current part: costs[0..n), n <= number of events,
 *  the rest zero.  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_set_summary(cgw_writer *w, const uint64_t *costs, size_t n);

/* --------------------------------------------------------------- 3. body */
/* The first body call writes the header; at least one event must have been
 * added (CGW_EUSAGE otherwise).  Names are non-empty, without '\n', '\r' or
 * leading or trailing blanks (CGW_EINVAL).  A function is identified by
 * (object, file, name): cgw_object() and cgw_file() choose the object and
 * file of the next cgw_function(), which must follow before more costs. */

/** Object (ob=) of the functions that follow.  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_object(cgw_writer *w, const char *name);
/** Source file (fl=) of the functions that follow ("???" until set).
 *  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_file(cgw_writer *w, const char *name);
/** Start the block of a function (fn=).  The first position after it is
 *  written absolute.  OK, EUSAGE, EINVAL, ENOMEM, EIO. */
CGW_API cgw_status cgw_function(cgw_writer *w, const char *name);
/** Following costs come from code inlined from file name (fi=), or from the
 *  function's own file again (fe=).  OK, EUSAGE, EINVAL, ENOMEM, EIO. */
CGW_API cgw_status cgw_inline_file(cgw_writer *w, const char *name);

/** A self-cost line: pos holds one value per enabled position (instruction
 *  address first); costs[0..n), n <= number of events, the rest zero.
 *  The costs are added to the part's totals.
 *  OK, EUSAGE, EINVAL, ERANGE, EIO. */
CGW_API cgw_status cgw_cost(cgw_writer *w, const uint64_t *pos,
                            const uint64_t *costs, size_t n);

/** Callee of a call or target of a jump.  function is required; a NULL
 *  object or file means the caller's (its object, its fl= file). */
typedef struct cgw_target {
    const char *object, *file, *function;
} cgw_target;

/** A call from source_pos to callee at target_pos (NULL: position 0),
 *  made count times, with inclusive cost inclusive[0..n).  count 0 is
 *  refused unless CGW_COMPACT.  Inclusive costs do not enter the totals.
 *  OK, EUSAGE, EINVAL, ENOMEM, EIO. */
CGW_API cgw_status cgw_call(cgw_writer *w, const cgw_target *callee, uint64_t count,
                            const uint64_t *target_pos, const uint64_t *source_pos,
                            const uint64_t *inclusive, size_t n);
/** An unconditional jump (jump=) taken count times from source_pos to
 *  target_pos (NULL: position 0) inside the same object.
 *  OK, EUSAGE, EINVAL, ENOMEM, EIO. */
CGW_API cgw_status cgw_jump(cgw_writer *w, const cgw_target *to, uint64_t count,
                            const uint64_t *target_pos, const uint64_t *source_pos);
/** A conditional jump (jcnd=followed/executed), followed <= executed.
 *  OK, EUSAGE, EINVAL, ENOMEM, EIO. */
CGW_API cgw_status cgw_cond_jump(cgw_writer *w, const cgw_target *to,
                                 uint64_t followed, uint64_t executed,
                                 const uint64_t *target_pos,
                                 const uint64_t *source_pos);

/* -------------------------------------------------------------- 4. parts */

/** End the current part with its totals: line and start part N+1 with
 *  fresh name tables, totals and summary.  OK, EUSAGE, EIO. */
CGW_API cgw_status cgw_new_part(cgw_writer *w);

/* ---------------------------------------------------------- 5. finishing */

/** Write totals:, flush, and commit the sink (rename the path sink's
 *  temporary file, hand over the memory buffer).  Returns the first error
 *  of the writer's life; on error nothing is committed.  The writer stays
 *  valid for cgw_errmsg() until cgw_free().  A second call returns
 *  CGW_EUSAGE unless the writer had already failed. */
CGW_API cgw_status cgw_finish(cgw_writer *w);
/** Release the writer; an unfinished writer is discarded (nothing
 *  committed, the path sink's temporary file removed).  NULL is a no-op. */
CGW_API void cgw_free(cgw_writer *w);
/** cgw_finish() then cgw_free(); returns cgw_finish()'s status. */
CGW_API cgw_status cgw_close(cgw_writer *w);
/** The message of the first error, naming the call that failed and why
 *  ("cgw_cost: 3 costs for 2 events"); "" when there was none. */
CGW_API const char *cgw_errmsg(const cgw_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* CGW_H */
