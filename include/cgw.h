/* SPDX-License-Identifier: MIT */
/*
 * cgw.h - write and read profiles in the Callgrind format.
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
 *                                 cgw_jump(), cgw_cond_jump(); or, with
 *                                 names registered once, cgw_intern(),
 *                                 cgw_intern_function(), cgw_function_h(),
 *                                 cgw_inline_file_h(), cgw_call_h()
 *   4. optionally start a part:   cgw_new_part(), then back to 2 (thread,
 *                                 desc and summary only) and 3
 *   5. finish and release:        cgw_close(), or cgw_finish() + cgw_errmsg()
 *                                 + cgw_free()
 *   6. code that writes through a writer for its caller (the recoder, the
 *      generator, a profiler's wrappers) may ask its state and options and
 *      make its own failures sticky: cgw_get_state(), cgw_get_options(),
 *      cgw_bytes_written(), cgw_error(), cgw_set_error()
 *
 * Errors are sticky: the first failing call records a status and a message;
 * every later call does nothing and returns that status; nothing reaches the
 * sink after it.  A caller may therefore ignore every status and check once,
 * at cgw_close() or cgw_finish().
 *
 * (One installed header by design, so it is long: every call is documented
 * here, in the order of its lifecycle.)
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
 *  0 means CGW_POS_LINE.  Arrays hold them in Callgrind's order: the
 *  instruction address, the basic-block address (valgrind --dump-bb=yes),
 *  then the line; addresses are written in hex.
 *  CGW_POS_NONE, alone and only with CGW_EXTENDED: no position column
 *  (an empty "positions:" line, which the grammar allows): cost lines
 *  hold costs only, position arrays may be NULL, and there are no jumps
 *  (a jump's source line would be empty).  KCachegrind and gprof2dot read
 *  it; callgrind_annotate reads the first cost as the line and speedscope
 *  gives NaN.  The reader gives it for such a file. */
enum { CGW_POS_LINE = 1u, CGW_POS_INSTR = 2u, CGW_POS_BB = 4u, CGW_POS_NONE = 8u };

/** The most subpositions a position array holds. */
#define CGW_NPOS_MAX 3
/** The kinds of positions in position-array order (instr, bb, line) into
 *  kinds[0..n); returns n, 0 when positions holds an unknown bit. */
CGW_API size_t cgw_pos_kinds(unsigned positions, unsigned kinds[CGW_NPOS_MAX]);

/** The length (1 to 4) of the well-formed UTF-8 character that
 *  text[0..len) starts with (RFC 3629: no overlong forms, surrogates or
 *  code points past U+10FFFF).  0 when none starts there (or len is 0):
 *  then *cut, unless cut is NULL, is how many bytes start a character
 *  that stops early (the next byte continues none, or the text ends;
 *  Unicode's "maximal subpart"), 0 for a byte that starts none.  The
 *  writer refuses a name or header text that is not all UTF-8 (unless
 *  CGW_EXTENDED) and the reader warns of one [invalid-utf8] by this
 *  rule; cgw_stacks_add_folded() and cgverify --json use it too. */
CGW_API size_t cgw_utf8_char(const char *text, size_t len, size_t *cut);
/** The name of a kind as the positions: line writes it ("instr", "bb",
 *  "line"); NULL for anything else. */
CGW_API const char *cgw_pos_name(unsigned kind);
/** The kind named name[0..len) ("instr", "bb" or "line"); 0 for none. */
CGW_API unsigned cgw_pos_kind(const char *name, size_t len);

/** cgw_options.flags.
 *  CGW_COMPACT: smallest output for large profiles: trailing zero costs
 *      dropped, each subposition written relative or absolute, whichever is
 *      shorter, specs (fl=, cfi=, cob=) only when they change, no blank
 *      lines, calls= counts of 0 allowed.
 *  CGW_NO_NAME_COMPRESSION: names written in full every time, no "(id)".
 *  CGW_NO_POS_COMPRESSION: every subposition written absolute.
 *  CGW_EXTENDED: accept what the portable subset refuses because a main
 *      reader misreads it: CGW_POS_BB (KCachegrind misreads it,
 *      callgrind_annotate dies), more than 200 events (KCachegrind refuses
 *      the file), line numbers of 2^32 or more (KCachegrind reads 32 bits),
 *      names and header text with control characters, surrounding white
 *      space other than blanks (callgrind_annotate strips it) or invalid
 *      UTF-8 (gprof2dot rejects it).
 *  Without flags the writer emits the portable subset that every reader
 *  tested in tests/test-compat.sh (KCachegrind, callgrind_annotate,
 *  gprof2dot, speedscope) reads as written. */
enum { CGW_COMPACT = 1u, CGW_NO_NAME_COMPRESSION = 2u, CGW_NO_POS_COMPRESSION = 4u,
       CGW_EXTENDED = 8u };

/** cgw_options.flags: gzip output.
 *  CGW_GZIP: the profile is gzip-compressed (zlib, level 6 unless
 *      CGW_GZIP_LEVEL() says otherwise), as Xdebug writes it; a real
 *      profile shrinks 4 to 5 times.  Every sink gets the compressed
 *      bytes (the memory sink's buffer holds the .gz data); the path sink
 *      stays atomic.  cgw_bytes_written() still counts the profile's text.
 *      libcgw's reader reads it; QCachegrind, callgrind_annotate,
 *      gprof2dot and webgrind's call graph do not.  A libcgw built
 *      without zlib refuses it: cgw_open_*() return NULL with errno
 *      ENOTSUP.
 *  CGW_GZIP_LEVEL(n), n from 1 (fastest) to 9 (smallest), with CGW_GZIP:
 *      the compression level.  It is kept in bits 8-11 of flags, so
 *      cgw_options keeps its size and layout; the level without CGW_GZIP,
 *      or above 9, is refused (EINVAL). */
enum { CGW_GZIP = 16u };
#define CGW_GZIP_LEVEL(n) ((unsigned)(n) << 8)

/** cgw_options.flags for cgw_open_path() (other sinks ignore them).
 *  CGW_NOFOLLOW: a symlink at path is not followed (ELOOP) and nothing but
 *      a regular file is taken (a device or FIFO there: EEXIST); a regular
 *      file is replaced as without the flag.
 *  CGW_EXCL: path must be free: cgw_open_path() fails with EEXIST when
 *      anything is there (ELOOP for a symlink, dangling or not), and
 *      cgw_finish() puts the profile there only if the name is still free
 *      (CGW_EIO, errno EEXIST, otherwise); nothing at path is ever followed
 *      or replaced.  For a default name in a folder that others may write
 *      (a profiler's callgrind.out.<pid>).
 *  CGW_RAW: no Callgrind text: the writer writes only the bytes given to
 *      cgw_write_bytes() (gzip-compressed with CGW_GZIP), through the same
 *      sinks, so another format (folded stacks, pprof) gets the path sink's
 *      atomic replace; every other writing call returns CGW_EUSAGE. */
enum { CGW_NOFOLLOW = 32u, CGW_EXCL = 64u, CGW_RAW = 128u };

/** cgw_options.flags: CGW_ZERO_COUNTS writes a count of 0 (calls=,
 *  jump=, jcnd=) as given, outside CGW_COMPACT too.  Callgrind writes
 *  calls=0 for a call still running at a dump; KCachegrind reads it as
 *  written, callgrind_annotate adds the call's inclusive cost to the
 *  caller's self cost.  For a tool that keeps what a file says. */
enum { CGW_ZERO_COUNTS = 4096u };

/** cgw_options.flags: CGW_ONE_PART writes one part whatever the caller
 *  does: cgw_new_part() goes on in the current part, and the thread,
 *  descriptions and summary of the parts it would have started are not
 *  written.  The costs of all threads add up in one part, for readers
 *  that show only one (callgrind_annotate shows the last part's totals
 *  as the whole; speedscope, the first part).  A function met again
 *  after cgw_new_part() gets a second block, which readers add up. */
enum { CGW_ONE_PART = 8192u };

/** cgw_options.flags: CGW_QUALIFY_NAMES names each function that
 *  cgw_stacks_write() writes with an object or a file "NAME [OBJECT]
 *  (FILE)" (the parts it has), for readers that merge functions by name
 *  alone (gprof2dot).  The name depends on the function alone, so it is
 *  the same in every part and every run.  Without it a function keeps
 *  its own name, and its ob= and fl= tell it from another of that name.
 *  The writer's own calls ignore it. */
enum { CGW_QUALIFY_NAMES = 16384u };

/** A per-writer allocator; NULL members are not allowed.  ctx is passed back
 *  unchanged.  A NULL return is reported as CGW_ENOMEM, never aborts. */
typedef struct cgw_allocator {
    void *(*malloc)(void *ctx, size_t n);
    void *(*realloc)(void *ctx, void *p, size_t n);
    void (*free)(void *ctx, void *p);
    void *ctx;
} cgw_allocator;

/** Options structs (cgw_options, cgw_read_options, cgw_gen_options,
 *  cgw_merge_options) begin with struct_size, the size of the struct the
 *  caller was compiled with, so that a later libcgw can add members at
 *  their end without breaking compiled callers.  Start one from its _INIT
 *  macro, which sets struct_size and every default, then set members:
 *
 *      cgw_options o = CGW_OPTIONS_INIT;
 *      o.flags = CGW_COMPACT;
 *
 *  or name struct_size in a designated initializer:
 *
 *      cgw_options o = { .struct_size = sizeof o, .flags = CGW_COMPACT };
 *
 *  The library reads only the caller's struct_size bytes: members the
 *  caller's header did not have keep their defaults.  A struct_size
 *  smaller than that of libcgw 0.1, or larger than the library knows with
 *  a byte past what it knows that is not zero, is refused (CGW_EINVAL, or
 *  NULL with errno EINVAL from the opening calls). */
/** Options of a writer; a NULL cgw_options pointer means the defaults
 *  (CGW_OPTIONS_INIT).  positions: CGW_POS_* (0: CGW_POS_LINE); flags:
 *  CGW_COMPACT, CGW_GZIP...; buffer_size: bytes buffered before the sink
 *  is called (0: 64 KiB); allocator: NULL for libc's. */
typedef struct cgw_options {
    size_t struct_size;
    unsigned positions;
    unsigned flags;
    size_t buffer_size;
    const cgw_allocator *allocator;
} cgw_options;

#define CGW_OPTIONS_INIT { sizeof(cgw_options), 0, 0, 0, NULL }

/* ------------------------------------------------------------ 1. opening */

typedef struct cgw_writer cgw_writer;

/** Sink callback: write all len bytes; return 0, or -1 with errno set. */
typedef int (*cgw_write_fn)(void *ctx, const char *buf, size_t len);

/** Write to a file.  A regular file (or none yet) is replaced atomically:
 *  the profile goes to a temporary file in the file's folder (a short
 *  name, ".cgw-" and 12 random letters, created exclusively so it cannot
 *  be guessed in advance), given the old file's permission bits (a new
 *  file gets 0666 & ~umask, as with fopen()), fsynced and renamed over
 *  the file only when cgw_finish() succeeds, then the folder is fsynced; on any
 *  failure the file is left untouched and the temporary file removed
 *  (except a failed fsync of the folder, reported with the new file
 *  already in place).  A symlink is followed to the file it names, which
 *  is replaced in its own folder; the link stays.  Anything else at path
 *  (a device such as /dev/null, a FIFO, a pipe as /dev/fd/N) is written
 *  through as fopen(path, "w") would, never replaced: there a failure
 *  cannot take back what was written.  The owner of a replaced file is
 *  the caller, and a hard link to it keeps the old contents.  Returns
 *  NULL with errno set (EINVAL, ENOMEM, ELOOP, or stat()'s, open()'s,
 *  readlink()'s) on failure. */
CGW_API cgw_writer *cgw_open_path(const char *path, const cgw_options *opts);

/** The name of the temporary file that cgw_open_path() is writing, while
 *  it has one: NULL for an anonymous one (O_TMPFILE, which a killed
 *  process leaves no trace of), a path written through, another sink, or
 *  after cgw_finish() or cgw_free().  A program's handler of SIGINT,
 *  SIGTERM or SIGHUP may unlink() a copy of it before it dies, so that
 *  no temporary file is left behind (the string itself is freed with the
 *  writer). */
CGW_API const char *cgw_temp_path(const cgw_writer *w);

/** Write to an open descriptor, retrying short writes and EINTR, and
 *  waiting when a non-blocking one says EAGAIN.  The descriptor stays open.  NULL with errno set (EINVAL, ENOMEM) on failure. */
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

/** A writer opened with CGW_RAW: append len bytes to the output.
 *  CGW_OK; CGW_EUSAGE on a writer without CGW_RAW; CGW_EINVAL when bytes is
 *  NULL and len is not 0; CGW_EIO, CGW_ENOMEM from the sink. */
CGW_API cgw_status cgw_write_bytes(cgw_writer *w, const void *bytes, size_t len);

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
 *  (event: NAME : LONG).  NAME is printable ASCII without blanks, ':' or
 *  '=' ("Ir", Xdebug's "Time_(10ns)"), and is not already defined; only a
 *  NAME matching [A-Za-z_][A-Za-z0-9_]* can be used in formulas.
 *  OK, EUSAGE, EINVAL, ENOMEM. */
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
 *  the rest zero.  Also accepted in the part's body, when its header had
 *  none: it is then written at the part's end, before totals:, where
 *  Cachegrind writes it and every known reader reads it.
 *  OK, EUSAGE, EINVAL, ENOMEM. */
CGW_API cgw_status cgw_set_summary(cgw_writer *w, const uint64_t *costs, size_t n);

/* --------------------------------------------------------------- 3. body */
/* The first body call writes the header; at least one event must have been
 * added (CGW_EUSAGE otherwise).  Names are non-empty, without '\n', '\r' or
 * leading or trailing blanks (CGW_EINVAL).  A function is identified by
 * (object, file, name): cgw_object() and cgw_file() choose the object and
 * file of the next cgw_function(), which must follow before more costs. */

/** Object (ob=) of the functions that follow; NULL (or CGW_NO_OBJECT):
 *  none again, written as an empty ob= when an object came before, which
 *  KCachegrind and callgrind_annotate read as no object.
 *  OK, EUSAGE, EINVAL, ENOMEM. */
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
 *  object or file means the caller's (its object, its fl= file);
 *  object CGW_NO_OBJECT means none (an empty cob= when the caller has
 *  one). */
#define CGW_NO_OBJECT ""
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

/* ------------------------------------------- 3b. names registered once */
/* A profiler that names the same functions again and again can register
 * each name once per part and pass the handle: the string calls look
 * every name up (a hash, or a strcmp() when the same pointer comes back),
 * the handle calls only check the handle.  Both kinds of call mix freely
 * and write the same bytes.  A handle belongs to one writer and one part
 * (cgw_new_part() starts fresh tables): one of another writer, of another
 * part, of the wrong kind, or CGW_NO_NAME where a name is required, is
 * CGW_EINVAL. */

/** A registered object, file or function; copy it freely, never look
 *  inside.  {0} (CGW_NO_NAME) is no name. */
typedef struct cgw_name_id {
    uint64_t bits;
} cgw_name_id;
#ifdef __cplusplus
#define CGW_NO_NAME (cgw_name_id{ 0 })
#else
#define CGW_NO_NAME ((cgw_name_id){ 0 })
#endif

typedef enum cgw_name_kind {
    CGW_NAME_OBJECT = 1, /**< ob=, cob= */
    CGW_NAME_FILE = 2    /**< fl=, fi=, fe=, cfi= */
} cgw_name_kind;

/** Register an object or file name (checked as the string calls check
 *  it) in the current part; CGW_NO_NAME on error, which is sticky as
 *  every writer error.  Writes nothing: the name goes out on first use. */
CGW_API cgw_name_id cgw_intern(cgw_writer *w, cgw_name_kind kind, const char *name);
/** Register a function: its name in object (CGW_NO_NAME: none) and file
 *  (CGW_NO_NAME: "???"), the identity cgw_object(), cgw_file() and
 *  cgw_function() give it; CGW_NO_NAME on error. */
CGW_API cgw_name_id cgw_intern_function(cgw_writer *w, cgw_name_id object, cgw_name_id file,
                                        const char *name);
/** cgw_function() of a registered function; its object and file become
 *  those of the next cgw_function(), as if cgw_object() and cgw_file() had
 *  chosen them.  OK, EUSAGE, EINVAL, EIO. */
CGW_API cgw_status cgw_function_h(cgw_writer *w, cgw_name_id fn);
/** cgw_inline_file() of a registered file.  OK, EUSAGE, EINVAL, EIO. */
CGW_API cgw_status cgw_inline_file_h(cgw_writer *w, cgw_name_id file);
/** cgw_call() to a registered function (its own object and file).
 *  OK, EUSAGE, EINVAL, EIO. */
CGW_API cgw_status cgw_call_h(cgw_writer *w, cgw_name_id callee, uint64_t count,
                              const uint64_t *target_pos, const uint64_t *source_pos,
                              const uint64_t *inclusive, size_t n);

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

/* ------------------------------------------ 6. building on the writer */
/* For code that writes through the writer on its caller's behalf (the
 * recoder and the generator below, or a profiler's own wrappers): it can
 * see what the writer was opened with and make its own failures sticky,
 * so that the caller still checks once, at cgw_finish(). */

/** Where the writer is in its lifecycle. */
typedef enum cgw_state {
    CGW_STATE_HEADER = 1,  /**< before the first body call                */
    CGW_STATE_PART_HEADER, /**< after cgw_new_part(), before its body     */
    CGW_STATE_BODY,        /**< after the first body call of the part     */
    CGW_STATE_FINISHED     /**< after cgw_finish()                        */
} cgw_state;

/** The cost column (0, 1, ...) of the raw event name, as cgw_add_event()
 *  defined it; -1 when the writer has no such event (or w or name is
 *  NULL).  For code that writes costs of named events through a writer
 *  whose header has ended (cgw_stacks_write()). */
CGW_API long cgw_event_column(const cgw_writer *w, const char *name);

/** The writer's state; 0 for NULL. */
CGW_API cgw_state cgw_get_state(const cgw_writer *w);
/** The options in effect: positions (never 0), flags, buffer size, and the
 *  writer's allocator (libc's when none was given; valid until
 *  cgw_free()), written into the first out->struct_size bytes of out
 *  (set it first: CGW_OPTIONS_INIT); members this library does not know
 *  are zeroed.  OK, EUSAGE when w or out is NULL, EINVAL for a bad
 *  struct_size. */
CGW_API cgw_status cgw_get_options(const cgw_writer *w, cgw_options *out);
/** Bytes of profile produced so far: taken by the sink plus buffered. */
CGW_API uint64_t cgw_bytes_written(const cgw_writer *w);
/** The first error of the writer's life (CGW_OK while there is none). */
CGW_API cgw_status cgw_error(const cgw_writer *w);
/** Record st as the writer's first error, with the message
 *  "CALL: FMT..." (call names the public function that failed), unless an
 *  error is already recorded; from then on the writer behaves as after any
 *  error.  Returns the writer's first error; EUSAGE when w is NULL or st
 *  is CGW_OK. */
CGW_API cgw_status cgw_set_error(cgw_writer *w, cgw_status st, const char *call,
                                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;


/* =================================================================
 * The reader.  A streaming parser of every Callgrind and Cachegrind
 * dialect that real writers produce; it hands out resolved records in
 * file order and reports problems as diagnostics.  Its lifecycle:
 *
 *   1. open a reader on an input:  cgw_reader_open_path(),
 *                                  cgw_reader_open_fd(),
 *                                  cgw_reader_open_callback(),
 *                                  cgw_reader_open_memory()
 *   2. pull records until the end: cgw_reader_next()
 *   3. release:                    cgw_reader_close()
 *
 * Memory grows with the number of distinct names and functions, never with
 * the size of the input nor a line's length (a line over 4 MiB is an
 * error, line-too-long, and is skipped as it comes).  A reader never prints, aborts or stops at bad
 * input: each problem becomes a diagnostic, the offending line is skipped
 * (or read the way KCachegrind reads it, as the diagnostic says) and
 * reading goes on.  Only I/O and allocation failures end a read.
 *
 * gzip input is read on every kind of input: it is told by its first two
 * bytes (1f 8b), never by a name, and inflated in blocks (members that
 * follow one another read as one text), with a "gzip-input" warning.  A
 * truncated or corrupt stream ends the read with CGW_EIO and a message
 * naming the compressed offset; a libcgw built without zlib refuses gzip
 * input so, with one message.
 * ================================================================= */

typedef struct cgw_reader cgw_reader;

/** cgw_diagnostic.severity.  An error means the file breaks the format
 *  or a reader (KCachegrind, callgrind_annotate) misreads or rejects it;
 *  a warning means some known reader handles it badly (portability). */
typedef enum cgw_severity { CGW_WARNING = 1, CGW_ERROR = 2 } cgw_severity;

/** One problem found in the input.  code is stable ("undefined-id",
 *  "totals-mismatch", ...: the list is in libcgw(3)); message says what
 *  was found and what was expected.  line is 1-based, 0 for the input as
 *  a whole.  Strings are valid during the callback only. */
typedef struct cgw_diagnostic {
    uint64_t line;
    cgw_severity severity;
    const char *code;
    const char *message;
} cgw_diagnostic;

typedef void (*cgw_diag_fn)(void *ctx, const cgw_diagnostic *d);

/** The main readers of the format, as bits. */
enum { CGW_READER_KCACHEGRIND = 1u, CGW_READER_CALLGRIND_ANNOTATE = 2u,
       CGW_READER_GPROF2DOT = 4u, CGW_READER_SPEEDSCOPE = 8u };
/** The readers that a diagnostic of code is a finding for: a file with it
 *  makes them show other totals, self or inclusive costs, call counts or
 *  edges than it says, or they refuse it or crash (KCachegrind 22.12's
 *  loader, callgrind_annotate 3.19, gprof2dot and speedscope 1.25, as
 *  their own code reads the test files of tests/verdicts/).  Every
 *  reader for an error; 0 for a note that names no reader, and for a code
 *  this library does not know. */
CGW_API unsigned cgw_diag_readers(const char *code);

/** cgw_read_options.flags.
 *  CGW_READ_CHECK: also run the checks that need a whole part (callees
 *      without a block, functions split over blocks, one name under
 *      several files or objects, inclusive costs larger than possible);
 *      their diagnostics come before the part's CGW_REC_PART_END.  Costs
 *      a few counters per function.
 *  CGW_READ_MAP: cgw_reader_open_path() maps a regular file instead of
 *      reading it in blocks, which spares copying it (5% faster on
 *      Callgrind's files); the records are the same, and the pages behind
 *      the reader are given back, so memory stays flat.  The file must
 *      not shrink while it is read: the process then gets SIGBUS, as with
 *      any mapped file.  Other inputs, and files that cannot be mapped
 *      (pipes, devices), are read as without it.
 *  CGW_READ_SUM_COSTS: cost lines that follow one another in a function
 *      block (no other line between them: no call, fn=, fi= or fe=) may
 *      come as one CGW_REC_COST record whose costs are their sums, with
 *      the positions and line of the last of them.  For a caller that
 *      sums self costs by function and needs no position (a profile
 *      model without lines): 2 to 3 times fewer records, read in the
 *      reader's fastest loop.  Sums are exact; a run that would pass
 *      2^64-1 is handed out line by line.  Ignored when CGW_REC_COST is
 *      skipped. */
enum { CGW_READ_CHECK = 1u, CGW_READ_MAP = 2u, CGW_READ_SUM_COSTS = 4u };

/** Options of a reader; a NULL pointer means the defaults
 *  (CGW_READ_OPTIONS_INIT, all zero; struct_size: see cgw_options).  diag
 *  receives every diagnostic (each code at most 20 times a file, then one
 *  line saying how many more were found); NULL drops them,
 *  cgw_reader_counts() still counts them.  skip is a mask of CGW_SKIP(kind)
 *  bits: records of those kinds are read, checked and counted (in the
 *  totals and counts of CGW_REC_PART_END) as usual but not handed out,
 *  which saves building them; a checker that needs only the totals skips
 *  CGW_REC_COST and the calls and jumps. */
typedef struct cgw_read_options {
    size_t struct_size; /**< sizeof(cgw_read_options): see cgw_options */
    unsigned flags;
    cgw_diag_fn diag;
    void *diag_ctx;
    const cgw_allocator *allocator;
    unsigned skip;
} cgw_read_options;

#define CGW_READ_OPTIONS_INIT { sizeof(cgw_read_options), 0, NULL, NULL, NULL, 0 }

/** Read the file at path.  NULL with errno set (EINVAL, ENOMEM, or
 *  open()'s) on failure. */
CGW_API cgw_reader *cgw_reader_open_path(const char *path, const cgw_read_options *opts);
/** Read from a descriptor (a pipe or stdin too) until end of file,
 *  waiting when a non-blocking one says EAGAIN; the descriptor stays open.  NULL with errno set on failure. */
CGW_API cgw_reader *cgw_reader_open_fd(int fd, const cgw_read_options *opts);
/** Read source callback: up to len bytes into buf; return how many (0 at
 *  the end of the input), or -1 with errno set.  -1 with EINTR is retried;
 *  any other error ends the read with CGW_EIO. */
typedef long (*cgw_read_fn)(void *ctx, char *buf, size_t len);

/** Read through fn(ctx, buf, len) until it returns 0.  NULL with errno
 *  set (EINVAL, ENOMEM) on failure. */
CGW_API cgw_reader *cgw_reader_open_callback(cgw_read_fn fn, void *ctx,
                                             const cgw_read_options *opts);
/** Read len bytes at buf, which must stay valid and unchanged until
 *  cgw_reader_close().  NULL with errno set on failure. */
CGW_API cgw_reader *cgw_reader_open_memory(const void *buf, size_t len,
                                           const cgw_read_options *opts);

/** Kinds of record, in the order they can come within a part. */
typedef enum cgw_record_kind {
    CGW_REC_PART = 1,  /**< a part's header, before its first body record */
    CGW_REC_FUNCTION,  /**< fn=: a block of a function starts             */
    CGW_REC_INLINE,    /**< fi=/fe=: later costs come from source_file    */
    CGW_REC_COST,      /**< a self-cost line                              */
    CGW_REC_CALL,      /**< calls= and its cost line (inclusive costs)    */
    CGW_REC_JUMP,      /**< jump= and its source line                     */
    CGW_REC_COND_JUMP, /**< jcnd= and its source line                     */
    CGW_REC_PART_END   /**< the end of a part: its totals                 */
} cgw_record_kind;

/** The bit of cgw_read_options.skip for records of kind k. */
#define CGW_SKIP(k) (1u << (k))

/** A desc: line, "desc: TYPE: VALUE" (VALUE "" when there is no ':'). */
typedef struct cgw_desc {
    const char *type, *value;
} cgw_desc;

/** An event.  long_name is NULL unless an event: line gave one; formula
 *  is NULL for events with a cost column and "2 A + B" for derived ones. */
typedef struct cgw_event {
    const char *name, *long_name, *formula;
} cgw_event;

/** The seconds one count of an event stands for, when the event is a
 *  time; 0 when it is not (Ir, Ticks, Samples: a tick has no known
 *  length).  It reads the unit from the name, else from the long name
 *  (either may be NULL): a unit alone ("ns" as cgw.cprofile writes, "us",
 *  "usec", "ms", "msec", "s", "sec", "seconds"), with a multiplier in
 *  parentheses (Xdebug's "Time_(10ns)": 1e-8), or a long unit word last
 *  ("cpu_nanoseconds", "wall_microseconds", "time in milliseconds").
 *  cgreport's page, cgannotate --units=human and Python's
 *  cgw.event_seconds() all ask this. */
CGW_API double cgw_event_seconds(const char *name, const char *long_name);
/** Write seconds into buf[0..cap) in human units, NUL-terminated (cut to
 *  fit): four significant digits in ns, us, ms or s ("105.7 ms",
 *  "3.000 s", "12.50 us"), nanoseconds whole ("950 ns"), rounded half up
 *  so that 0.99995 is "1.000 s"; "0 s" for 0, a '-' before a negative,
 *  whole seconds past 1000 s.  "us" is ASCII for terminals and scripts.
 *  Returns the length of the whole text, as snprintf does; 32 bytes
 *  always hold it below 1e20 s.  buf may be NULL when cap is 0. */
CGW_API size_t cgw_format_seconds(char *buf, size_t cap, double seconds);

/** A part's header.  Fields a part does not set are inherited from the
 *  part before (Callgrind repeats them anyway); text is NULL when absent.
 *  positions is a CGW_POS_* mask: position arrays hold npos values in
 *  the order instruction address, basic block, line, whatever order the
 *  positions: line gave.  summary is NULL when no summary: line came
 *  before the body (CGW_REC_PART_END has the one found at the end). */
typedef struct cgw_part {
    unsigned index;                 /**< 1, 2, ... in file order          */
    uint64_t number;                /**< the part: line, else index       */
    uint64_t version;               /**< 1 unless a version: line says    */
    const char *creator, *cmd;
    uint64_t pid, thread;
    int has_pid, has_thread;
    const cgw_desc *descs;
    size_t ndescs;
    unsigned positions;
    size_t npos;
    const cgw_event *events;        /**< cost columns, events: order      */
    size_t nevents;
    const cgw_event *derived;       /**< event: NAME = FORMULA lines      */
    size_t nderived;
    const uint64_t *summary;
} cgw_part;

/** A record.  Pointers stay valid until the next cgw_reader_next();
 *  names (every const char * below) until cgw_reader_close(), and equal
 *  names have equal pointers, so callers may compare and hash them as
 *  pointers.  Names are resolved: never "(id)".
 *
 *  Every body record carries its context: object (NULL before any ob=),
 *  file (the function's fl= file, "???" before any), function, and
 *  source_file (file, or the inlined file after fi=).
 *  - COST: pos (absolute), costs[part->nevents] (missing ones zero).
 *  - CALL: target is the callee (object, file, function: cob=/cfi=/cfn=
 *    resolved, object NULL only when the caller has none), count calls,
 *    target_pos, pos the source position, costs the inclusive costs.
 *  - JUMP / COND_JUMP: target, target_pos, pos (source), count (jump=
 *    count, or the followed count of jcnd=), executed (jcnd= only).
 *  - PART_END: costs are the totals computed from the self-cost lines;
 *    totals_line and summary the file's own (NULL when absent);
 *    cost_lines, calls and functions (distinct ones) count the part.
 *  line is the input line of the record (CALL and jumps: the calls=,
 *  jump= or jcnd= line; PART: its first header line; PART_END: its
 *  totals: line or its last line). */
typedef struct cgw_record {
    cgw_record_kind kind;
    uint64_t line;
    const cgw_part *part;
    const char *object, *file, *function, *source_file;
    const uint64_t *pos;
    const uint64_t *costs;
    cgw_target target;
    const uint64_t *target_pos;
    uint64_t count, executed;
    const uint64_t *totals_line, *summary;
    uint64_t cost_lines, calls, functions;
} cgw_record;

/** The next record in *rec, or NULL at the end of the input.
 *  OK (also at the end), EIO (read failed), ENOMEM, EUSAGE (NULL
 *  arguments).  Errors are sticky, with cgw_reader_errmsg(). */
CGW_API cgw_status cgw_reader_next(cgw_reader *r, const cgw_record **rec);
/** The record that the next cgw_reader_next() hands out, without taking
 *  it: to look at the first part's header (its positions, events) before
 *  opening a writer, say; the input is still read once.  Returns as
 *  cgw_reader_next(). */
CGW_API cgw_status cgw_reader_peek(cgw_reader *r, const cgw_record **rec);
/** Bytes of input read so far (for progress reports); of the text, for
 *  gzip input. */
CGW_API uint64_t cgw_reader_offset(const cgw_reader *r);
/** Number of error and warning diagnostics so far (either may be NULL). */
CGW_API void cgw_reader_counts(const cgw_reader *r, uint64_t *errors, uint64_t *warnings);
/** The message of the reader's sticky error; "" when there was none. */
CGW_API const char *cgw_reader_errmsg(const cgw_reader *r);
/** Release the reader and every name it handed out.  NULL is a no-op. */
CGW_API void cgw_reader_close(cgw_reader *r);

/* ---------------------------------------------- records through a writer */

/** Write one record through w: PART sets the header (a later part starts
 *  with cgw_new_part()), FUNCTION, INLINE, COST, CALL and the jumps make
 *  the matching calls, PART_END writes nothing.  A NULL object is no
 *  object, as the reader gives it (not the caller's, as in cgw_target).  The writer must have been
 *  opened with the part's positions.  Returns the writer's status; its
 *  message names the call that refused the record. */
CGW_API cgw_status cgw_write_record(cgw_writer *w, const cgw_record *rec);

/** cgw_recode() flags.  CGW_RECODE_JUMPS: keep jump= and jcnd= records
 *  (dropped by default: only KCachegrind reads them). */
enum { CGW_RECODE_JUMPS = 1u };

/** Read every record of r and write it through w, which must be fresh
 *  (no call made yet) and is left open for cgw_close().  Positions are
 *  narrowed to the writer's (instr,line input into a line writer keeps the
 *  lines; a writer that wants a subposition the input lacks is refused
 *  with CGW_EINVAL), adjacent cost lines that land on one position of a
 *  block are merged, and where the writer refuses a count of 0 (without
 *  CGW_COMPACT) a calls=0 is dropped when it has no inclusive cost and
 *  written as calls=1 when it has.  A summary: that comes after a part's
 *  body (as Cachegrind writes it) is written at the part's end.  Totals,
 *  every function's self cost and every call edge with its inclusive
 *  cost are preserved.  The
 *  reader's diagnostics go to its own callback.  Returns the writer's
 *  status; a read failure (EIO, ENOMEM) becomes the writer's error. */
CGW_API cgw_status cgw_recode(cgw_reader *r, cgw_writer *w, unsigned flags);

/** Compare two records as the data they carry: kind, context names,
 *  positions, costs, counts, and for parts the events, positions and the
 *  text the writer can carry; the line numbers are not compared.  Returns
 *  0 when equal, else 1 with a description of the first difference in
 *  msg (NUL-terminated, at most len bytes; msg may be NULL). */
CGW_API int cgw_record_compare(const cgw_record *a, const cgw_record *b,
                               char *msg, size_t len);

/** Round trip: read the input, write every record through a writer
 *  into an unlinked temporary file in $TMPDIR (else /tmp) (with
 *  CGW_EXTENDED, and with CGW_COMPACT when the first refuses a record, as
 *  it does calls=0, which Callgrind writes after zeroing), read that back
 *  and compare the two record streams (CGW_REC_INLINE excepted: its effect
 *  is in source_file) and the totals.  Memory does not grow with the
 *  input.  The input is the file at path, or buf/len when path is NULL; it
 *  is read up to three times, so path must name a regular file (EINVAL for
 *  a pipe or FIFO: copy it to a file first, as cgverify --roundtrip does).
 *  Each difference, or a record the writer refuses, becomes an error
 *  diagnostic (code "roundtrip", the line of the original record) through
 *  opts->diag; *differences counts them (may be NULL).  Diagnostics of the
 *  input itself are not repeated.  OK, EIO, ENOMEM, EINVAL. */
CGW_API cgw_status cgw_roundtrip(const char *path, const void *buf, size_t len,
                                 const cgw_read_options *opts, uint64_t *differences);
/** cgw_roundtrip() of the regular file open at fd, read from its start
 *  (its offset is moved; it stays open).  EINVAL when fd is not a regular
 *  file. */
CGW_API cgw_status cgw_roundtrip_fd(int fd, const cgw_read_options *opts, uint64_t *differences);

/* ================================================================
 * Synthetic profiles (cggen, test suites, benchmarks)
 * ================================================================ */

/** cgw_gen_options.flags: CGW_GEN_INLINE adds fi=/fe= runs of inlined
 *  code, CGW_GEN_JUMPS adds jump= and jcnd= lines. */
enum { CGW_GEN_INLINE = 1u, CGW_GEN_JUMPS = 2u };

/** What cgw_generate() writes; CGW_GEN_OPTIONS_INIT holds the defaults
 *  given in brackets (struct_size: see cgw_options).  size: approximate
 *  bytes of output, reached by making every function longer (0: the
 *  natural size of the plan, about 30 cost lines a function). */
typedef struct cgw_gen_options {
    size_t struct_size;    /**< sizeof(cgw_gen_options)               */
    uint64_t seed;         /**< [0] same options, same bytes          */
    uint64_t size;         /**< [0] target size in bytes              */
    unsigned functions;    /**< [200] 1..2^24; function 0 is main     */
    unsigned files;        /**< [20]                                  */
    unsigned objects;      /**< [3]                                   */
    unsigned events;       /**< [2] 1..64: Ir, Dr, Dw, I1mr, ...      */
    unsigned calls_per_fn; /**< [3] average call edges of a function  */
    unsigned parts;        /**< [1] several: one part per thread      */
    unsigned flags;        /**< [0] CGW_GEN_*                         */
} cgw_gen_options;

#define CGW_GEN_OPTIONS_INIT { sizeof(cgw_gen_options), 0, 0, 200, 20, 3, 2, 3, 1, 0 }

/** Write a realistic profile through w, which must be fresh (no call made
 *  yet) and is left open for cgw_close(): skewed costs, a call graph with
 *  recursion and cycles, inclusive costs that add up, names with blanks,
 *  "::", "<...>", "(" and UTF-8, and a summary: equal to the totals.  The
 *  positions are the writer's.  Memory grows with functions and calls,
 *  never with size.  Returns the writer's status: OK, EUSAGE, EINVAL
 *  (options out of range), ENOMEM, EIO. */
CGW_API cgw_status cgw_generate(cgw_writer *w, const cgw_gen_options *o);


/* ================================================================
 * Merging profiles (cgmerge).  A merger sums any number of profiles into
 * one: its lifecycle is
 *
 *   1. cgw_merge_new()
 *   2. cgw_merge_add() once per input (a reader, read to its end)
 *   3. cgw_merge_write() through a fresh writer, then cgw_close() it
 *   4. cgw_merge_free()
 *
 * Functions are identified by (object, file, name); the self cost at
 * each (function, source file, position), each call (caller, position,
 * callee, target position: count and inclusive costs) and each jump
 * (counts) are summed over every part of every input, exactly: a sum that
 * would pass 2^64-1 is CGW_ERANGE.  Events are matched by name (an input
 * without one counts zero for it) and kept in the inputs' order when all
 * inputs have the same events, else in one that does not depend on the
 * inputs' order (Callgrind's events first, then by name); derived events
 * (one formula a name, else CGW_EINVAL) likewise, by name.  Positions are
 * those that every input has.  cmd: is kept when every input has the same
 * one, else written "(several)".  The output is sorted by names and
 * positions, never by arrival, so merging is associative and commutative:
 * merge(merge(a,b),c) and merge(a,merge(b,c)) are the same bytes.  Memory
 * grows with the distinct functions, positions, calls and jumps, not with
 * the number or size of the inputs.  Errors are sticky: after the first,
 * every call returns it, and cgw_merge_errmsg() names the call and line.
 * ================================================================ */

typedef struct cgw_merger cgw_merger;

/** cgw_merge_options.flags.  CGW_MERGE_KEEP_PARTS: one part per input
 *  (the sum of that input's parts), in the order added, instead of one
 *  part for all; the output then depends on that order. */
enum { CGW_MERGE_KEEP_PARTS = 1u };

/** Options of a merger; a NULL pointer means the defaults
 *  (CGW_MERGE_OPTIONS_INIT, all zero; struct_size: see cgw_options).
 *  mod_filename and mod_funcname (NULL: none) rewrite every file name and
 *  function name before it is merged, as cg_annotate's --mod-filename and
 *  --mod-funcname do, so that paths from different machines line up:
 *  "s/RE/REPL/" with a POSIX extended regular expression RE, & and \1..\9
 *  in REPL, and flags g (every match) and i (ignore case); any character
 *  after 's' may be the delimiter.  Merging is associative when the rewrites
 *  give the same names again on their own output. */
typedef struct cgw_merge_options {
    size_t struct_size; /**< sizeof(cgw_merge_options): see cgw_options */
    unsigned flags;
    const char *mod_filename, *mod_funcname;
    const cgw_allocator *allocator;
} cgw_merge_options;

#define CGW_MERGE_OPTIONS_INIT { sizeof(cgw_merge_options), 0, NULL, NULL, NULL }

/** A new merger.  Bad options (flags, a rewrite that does not compile)
 *  become its sticky error (CGW_EINVAL), returned by every later call.
 *  NULL with errno ENOMEM (or EINVAL for an allocator with NULL members). */
CGW_API cgw_merger *cgw_merge_new(const cgw_merge_options *o);
/** Read every record of r (to its end) into the sums; r stays the
 *  caller's to close.  Its diagnostics go to its own callback: a caller
 *  that wants only valid inputs checks cgw_reader_counts() itself.
 *  OK, EUSAGE (NULL arguments, after cgw_merge_write()), ERANGE, EINVAL,
 *  ENOMEM, EIO (the reader failed). */
CGW_API cgw_status cgw_merge_add(cgw_merger *m, cgw_reader *r);
/** The positions (CGW_POS_* mask) every input added so far has; 0 before
 *  the first.  A writer for cgw_merge_write() may have these or fewer. */
CGW_API unsigned cgw_merge_positions(const cgw_merger *m);
/** Write the merged profile through w, which must be fresh (no call made
 *  yet) and is left open for cgw_close().  Every sum is checked before
 *  the first byte is written.  Calls never made without cost are dropped
 *  unless the writer is CGW_COMPACT.  Once only.  Returns the writer's
 *  status; the merger's error (EUSAGE no input or a second call, EINVAL
 *  positions the inputs lack, ERANGE, ENOMEM) is made the writer's. */
CGW_API cgw_status cgw_merge_write(cgw_merger *m, cgw_writer *w);
/** The merger's first error (CGW_EUSAGE for NULL). */
CGW_API cgw_status cgw_merge_error(const cgw_merger *m);
/** Its message, naming the call that failed; "" when there is none. */
CGW_API const char *cgw_merge_errmsg(const cgw_merger *m);
/** Release the merger.  NULL is a no-op. */
CGW_API void cgw_merge_free(cgw_merger *m);


/* ================================================================
 * Comparing two profiles (cgdiff).  A differ merges each side as
 * cgw_merge_add() does (every part summed), then compares them:
 *
 *   1. cgw_diff_new()
 *   2. cgw_diff_add(d, CGW_DIFF_OLD, r) and cgw_diff_add(d, CGW_DIFF_NEW, r)
 *      (several readers a side are summed)
 *   3. cgw_diff_rows(): what changed; and/or cgw_diff_write(): a profile
 *      of the difference
 *   4. cgw_diff_free()
 *
 * Errors are sticky, as in the merger.
 * ================================================================ */

typedef struct cgw_differ cgw_differ;

/** The sides of cgw_diff_add(). */
enum { CGW_DIFF_OLD = 0, CGW_DIFF_NEW = 1 };

/** One change.  function is NULL in the totals row of an event (there is
 *  one for each event, first, changed or not); otherwise the row is a
 *  function whose self cost (inclusive 0) or inclusive cost (inclusive 1:
 *  the profile model's, cycles taken whole, never above the total: see
 *  "The profile model") of event differs between the sides.  column is the event's index
 *  in the totals rows; change is new minus old in percent of the event's
 *  old total (+-HUGE_VAL when that total is 0 and the cost moved). */
typedef struct cgw_diff_row {
    const char *object, *file, *function;
    const char *event;
    size_t column;
    int inclusive;
    uint64_t old_cost, new_cost;
    double change;
} cgw_diff_row;

/** A new differ; o as for cgw_merge_new() (name rewrites apply to both
 *  sides), flags must be 0 (CGW_EINVAL).  NULL with errno ENOMEM. */
CGW_API cgw_differ *cgw_diff_new(const cgw_merge_options *o);
/** Add every record of r to side CGW_DIFF_OLD or CGW_DIFF_NEW.
 *  OK, EUSAGE (NULL, after cgw_diff_rows()), EINVAL (bad side), ERANGE,
 *  ENOMEM, EIO. */
CGW_API cgw_status cgw_diff_add(cgw_differ *d, int side, cgw_reader *r);
/** The rows (valid until cgw_diff_free()): the totals, then each change,
 *  the largest (in absolute value) first, ties in a fixed order.
 *  Functions whose costs are equal on both sides have no row.
 *  OK, EUSAGE (nothing added, NULL arguments), ERANGE, ENOMEM. */
CGW_API cgw_status cgw_diff_rows(cgw_differ *d, const cgw_diff_row **rows, size_t *n);
/** Write a profile of the difference through w (fresh, left open for
 *  cgw_close()).  Readers clamp negative costs, so each event E becomes
 *  two: E_plus, what NEW has above OLD, and E_minus, what it has below
 *  (the writer's event names take no '+' or '-'), at each
 *  position and call of both sides.  Positions and calls that did not
 *  change are left out, and so are jumps.  A call's count is the change
 *  in its count, or 1 when only its inclusive cost changed.  Once only.
 *  Returns the writer's status, with the differ's error made its own. */
CGW_API cgw_status cgw_diff_write(cgw_differ *d, cgw_writer *w);
/** The positions that every profile added to either side has (its
 *  writer's may be those or fewer), as cgw_merge_positions(); 0 before
 *  any was added. */
CGW_API unsigned cgw_diff_positions(const cgw_differ *d);
/** The differ's first error (CGW_EUSAGE for NULL) and its message. */
CGW_API cgw_status cgw_diff_error(const cgw_differ *d);
CGW_API const char *cgw_diff_errmsg(const cgw_differ *d);
/** Release the differ.  NULL is a no-op. */
CGW_API void cgw_diff_free(cgw_differ *d);

/* ================================================================
 * The profile model: a profile as a call graph, the one that every view
 * (cgreport, cgdiff --html, folded and pprof output, the Python package)
 * is built on.  Its lifecycle:
 *
 *   1. cgw_profile_new()
 *   2. cgw_profile_add() once per reader (or cgw_profile_add_path(),
 *      cgw_profile_add_fd(), cgw_profile_add_memory()), read to its end
 *   3. the queries: cgw_profile_events(), cgw_profile_totals(),
 *      cgw_profile_functions(), cgw_profile_edges(), cgw_profile_callers(),
 *      cgw_profile_callees(), cgw_profile_cycles(), cgw_profile_lines(),
 *      cgw_profile_find(), cgw_profile_stacks()
 *   4. cgw_profile_free()
 *
 * A function is (object, file, name).  Its self cost is the sum of its
 * cost lines; a call edge (caller, callee) sums the counts and inclusive
 * costs of every calls= between them; both over every part (or one part:
 * cgw_profile_options.part) of every input, exactly (a sum past 2^64-1
 * is CGW_ERANGE), events matched by name.  The totals are the sums of the
 * self costs.
 *
 * Cycles.  Functions that call each other in a loop (mutual recursion;
 * every Python profile with imports, through exec and import) form a
 * cycle: a strongly connected component of the call graph of two or more
 * functions, found once, numbered from 1.  A call's inclusive cost counts
 * the cycle's inner calls again, so summing call costs around a cycle
 * counts time twice; the model never does:
 *   - a function in no cycle: inclusive = self + its calls to others, or
 *     the sum of the calls to it when that is larger (a function also
 *     called from outside the profile's view, as KCachegrind takes it);
 *     exact, and the same as KCachegrind's loader;
 *   - a cycle as a whole: its members' self costs plus its calls out of
 *     the cycle (or the calls into it, when larger); exact;
 *   - a member of a cycle: self + its calls to others, but at most its
 *     cycle's inclusive cost: an upper bound (CGW_PROFILE_BOUND), never
 *     above the cycle's, so a program's entry in a cycle shows the total;
 *   - a function calling itself (direct recursion) is no cycle: its calls
 *     to itself add nothing;
 *   - no inclusive cost passes the total (a profile whose calls claim
 *     more, as some converters write, is cut to the total).
 * Stacks (cgw_profile_stacks()) are rebuilt from the edges with every
 * cost under a root that reached it; see there.
 *
 * Memory grows with the distinct functions, edges, names and (with
 * CGW_PROFILE_LINES) source lines, never with the size of the inputs.
 * Errors are sticky: after the first, every call returns it and the
 * queries return NULL (and 0); cgw_profile_errmsg() names the call.  A
 * profile is not thread-safe; distinct ones are independent.  Arrays and
 * names the queries hand out are the profile's, valid until the next
 * cgw_profile_add*() or cgw_profile_free().
 * ================================================================ */

typedef struct cgw_profile cgw_profile;

/** cgw_profile_options.flags.
 *  CGW_PROFILE_LINES: keep each function's self cost by source line and
 *      instruction address (cgw_profile_lines()); costs memory a line.
 *  CGW_PROFILE_SAME_EVENTS: refuse (CGW_EINVAL) a part whose events are
 *      not the first part's, in the same order, instead of matching them
 *      by name; for a view that shows the file's own columns.
 *  CGW_PROFILE_READER_NAMES: the names the queries hand out are the
 *      reader's own, not copies: valid until that reader is closed, and
 *      one reader only (a second add is CGW_EUSAGE); for a caller that
 *      keeps names past cgw_profile_free() (cgw_read_stacks()). */
enum { CGW_PROFILE_LINES = 1u, CGW_PROFILE_SAME_EVENTS = 2u, CGW_PROFILE_READER_NAMES = 4u };

/** Options of a profile; a NULL pointer means the defaults
 *  (CGW_PROFILE_OPTIONS_INIT, all zero; struct_size: see cgw_options).
 *  part: 0 sums every part of every input; N keeps only the part of
 *  index N (cgw_part.index: 1, 2, ... in each input), to look at parts
 *  one at a time. */
typedef struct cgw_profile_options {
    size_t struct_size; /**< sizeof(cgw_profile_options): see cgw_options */
    unsigned flags;
    uint64_t part;
    const cgw_allocator *allocator;
} cgw_profile_options;

#define CGW_PROFILE_OPTIONS_INIT { sizeof(cgw_profile_options), 0, 0, NULL }

/** A new, empty profile.  Bad options become its sticky error
 *  (CGW_EINVAL).  NULL with errno ENOMEM (or EINVAL for an allocator with
 *  NULL members). */
CGW_API cgw_profile *cgw_profile_new(const cgw_profile_options *o);
/** Read every record of r (to its end) into the profile; r stays the
 *  caller's to close.  Its diagnostics go to its own callback: a caller
 *  that wants only valid inputs checks cgw_reader_counts() itself.  OK,
 *  EUSAGE (NULL arguments), EINVAL (CGW_PROFILE_SAME_EVENTS), ERANGE,
 *  ENOMEM, EIO (the reader failed: its message). */
CGW_API cgw_status cgw_profile_add(cgw_profile *p, cgw_reader *r);
/** cgw_profile_add() of a reader opened on the file at path (ro: its
 *  options, NULL for the defaults), closed again.  EIO with open()'s
 *  reason when it cannot be opened. */
CGW_API cgw_status cgw_profile_add_path(cgw_profile *p, const char *path,
                                        const cgw_read_options *ro);
/** The same from a descriptor (read to its end, left open). */
CGW_API cgw_status cgw_profile_add_fd(cgw_profile *p, int fd, const cgw_read_options *ro);
/** The same from len bytes at buf. */
CGW_API cgw_status cgw_profile_add_memory(cgw_profile *p, const void *buf, size_t len,
                                          const cgw_read_options *ro);
/** The profile's first error (CGW_EUSAGE for NULL). */
CGW_API cgw_status cgw_profile_error(const cgw_profile *p);
/** Its message, naming the call that failed; "" when there is none. */
CGW_API const char *cgw_profile_errmsg(const cgw_profile *p);
/** Release the profile and everything its queries handed out.  NULL is
 *  a no-op. */
CGW_API void cgw_profile_free(cgw_profile *p);

/** The events, events[0..n) (names and long names; derived events are
 *  not cost columns and are not here), in the order first seen; every
 *  cost array of the profile has n entries in this order.  0 before any
 *  part. */
CGW_API size_t cgw_profile_events(const cgw_profile *p, const cgw_event **events);
/** The totals, one an event: the sums of every self cost.  NULL before
 *  any part or after an error. */
CGW_API const uint64_t *cgw_profile_totals(const cgw_profile *p);
/** Parts read (those kept, with cgw_profile_options.part). */
CGW_API uint64_t cgw_profile_parts(const cgw_profile *p);
/** The cmd: and creator: of the first part that had one; NULL when none. */
CGW_API const char *cgw_profile_cmd(const cgw_profile *p);
CGW_API const char *cgw_profile_creator(const cgw_profile *p);

/** cgw_profile_fn.flags.  CGW_PROFILE_BOUND: inclusive is an upper bound
 *  (the function is a member of a cycle), not the exact cost. */
enum { CGW_PROFILE_BOUND = 1u };

/** A function: its names (object NULL when the profile names none; file
 *  "???" when none), self and inclusive costs (one an event), the calls
 *  made to it by other functions (calls= counts; its calls to itself
 *  not counted), and cycle: 0, or the number of the cycle it belongs to
 *  (cgw_profile_cycles()[cycle - 1]). */
typedef struct cgw_profile_fn {
    const char *object, *file, *name;
    const uint64_t *self, *inclusive;
    uint64_t calls;
    uint32_t cycle;
    unsigned flags;
} cgw_profile_fn;

/** The functions, fns[0..*n), in the order first seen (a function's
 *  index is its number in every other query).  Computes the call graph
 *  (cycles, inclusive costs) on the first query after an add: NULL with
 *  *n 0 after an error (ENOMEM). */
CGW_API const cgw_profile_fn *cgw_profile_functions(cgw_profile *p, size_t *n);
/** The index of function (object, file, name) (object NULL: none), or -1
 *  when the profile has none such. */
CGW_API long cgw_profile_find(cgw_profile *p, const char *object, const char *file,
                              const char *name);

/** A call edge: caller and callee (function indexes), the calls made
 *  (calls= summed) and their inclusive costs (one an event), as the file
 *  gives them.  A function's calls to itself are an edge too. */
typedef struct cgw_profile_edge {
    uint32_t caller, callee;
    uint64_t count;
    const uint64_t *inclusive;
} cgw_profile_edge;

/** The call edges, edges[0..*n), in the order first seen; NULL with *n 0
 *  after an error. */
CGW_API const cgw_profile_edge *cgw_profile_edges(cgw_profile *p, size_t *n);
/** The edges into function fn (its callers), as indexes into
 *  cgw_profile_edges(), [0..*n); NULL with *n 0 for a bad fn or after an
 *  error. */
CGW_API const uint32_t *cgw_profile_callers(cgw_profile *p, size_t fn, size_t *n);
/** The edges out of function fn (its callees), likewise. */
CGW_API const uint32_t *cgw_profile_callees(cgw_profile *p, size_t fn, size_t *n);

/** A cycle: its members (function indexes, ascending), their self costs
 *  summed, and its inclusive cost (exact: see above), one an event. */
typedef struct cgw_profile_cycle {
    const uint32_t *members;
    size_t nmembers;
    const uint64_t *self, *inclusive;
} cgw_profile_cycle;

/** The cycles, cycles[0..*n) (cycle number k is cycles[k - 1]), ordered by
 *  their smallest member; NULL with *n 0 when there is none or after an
 *  error. */
CGW_API const cgw_profile_cycle *cgw_profile_cycles(cgw_profile *p, size_t *n);

/** A function's self cost at one source line (and instruction address):
 *  source_file is the file of the code (fl=, or fi=/fe= for inlined
 *  code); line and address are 0 when the profile has none. */
typedef struct cgw_profile_line {
    const char *source_file;
    uint64_t line, address;
    const uint64_t *self;
} cgw_profile_line;

/** Function fn's costs by line, lines[0..*n), sorted by source file (as
 *  bytes), line and address; only with CGW_PROFILE_LINES (else NULL, *n
 *  0, and no error). */
CGW_API const cgw_profile_line *cgw_profile_lines(cgw_profile *p, size_t fn, size_t *n);

/** Whether the stacks cgw_profile_stacks() rebuilds are exact: 1 when
 *  every function has at most one caller, no function calls itself and
 *  there is no cycle (a tree); 0 when they are an estimate; -1 after an
 *  error. */
CGW_API int cgw_profile_stacks_exact(cgw_profile *p);

/** What cgw_profile_stacks() hands each(ctx, fns, depth, amount) for each
 *  stack: fns[0] (the leaf) .. fns[depth - 1] (the root), function
 *  indexes, and the amount of the event spent with exactly that stack.
 *  fns is valid during the call.  Not OK stops cgw_profile_stacks(),
 *  which returns it. */
typedef cgw_status (*cgw_profile_stack_fn)(void *ctx, const uint32_t *fns, size_t depth,
                                           uint64_t amount);

/** The stacks of event (an index of cgw_profile_events()), rebuilt from
 *  the call graph for a flame graph or folded text.  The profile keeps
 *  self costs and call edges, not stacks: each function's self cost is
 *  split among its callers in proportion to the inclusive costs of their
 *  calls to it, and to no caller (the stack starts there) in proportion
 *  to what its inclusive cost has beyond those calls; then on up the
 *  same way (amounts rounded down, the remainder a unit at a time).  A
 *  cycle is taken whole: its cost is split among the calls into it from
 *  outside (never among its inner calls, which count it again), so every
 *  cost stays under a root that reached it and a function reached only
 *  inside a cycle is never a root; within the cycle each stack goes from
 *  the member that was called (its entry) to the member that spent the
 *  cost along the shortest chain of the cycle's own calls, and an
 *  entry's calls beyond its own inclusive cost (a profiler that counts
 *  them at every depth, as cProfile does exec's) are taken as made by
 *  the entry called again from inside the cycle.  Direct
 *  recursion adds no frame.  What is estimated is the split of a shared
 *  callee among its callers (and the chain within a cycle); the amounts
 *  always sum to the event's total, and every stack's root is a function
 *  no other function reaches (or the entry of a cycle that none
 *  reaches).  Exact when cgw_profile_stacks_exact() says so.  Time grows
 *  with the stacks handed out: at most 2^26 frames in all (a chain of n
 *  diamonds has 2^n paths), else ERANGE.  OK, EINVAL (no such event),
 *  ERANGE, ENOMEM, EUSAGE (NULL arguments), or each's status. */
CGW_API cgw_status cgw_profile_stacks(cgw_profile *p, size_t event, cgw_profile_stack_fn each,
                                      void *ctx);

/** cgw_profile_stacks() with a bound on the split, for graphs of more
 *  paths than can be handed out (a function called from hundreds of
 *  sites, or 5000 of cggen's): when a frame's amount is split among its
 *  shares, each share under min_amount (units of the event) is not
 *  followed on its own but added to the share of largest weight (the
 *  first of equals), so no stack is handed out for it and a function's
 *  stacks are at most about twice its self cost over min_amount.  Only
 *  the split among callers, an estimate anyway, is coarser: each function's
 *  self cost in the stacks (their leaves), the amounts' sum (the
 *  event's total) and the roots (every cost under a real root) stay
 *  exact.  min_amount 0 is cgw_profile_stacks().  Statuses as
 *  cgw_profile_stacks() (ERANGE still past 2^26 frames). */
CGW_API cgw_status cgw_profile_stacks_min(cgw_profile *p, size_t event, uint64_t min_amount,
                                          cgw_profile_stack_fn each, void *ctx);

/** A node of a call tree: the function (CGW_PROFILE_ROOT at the tree's
 *  root, node 0), its parent node (CGW_PROFILE_ROOT for the root; always
 *  a smaller index), and the event's cost of the stacks through the node
 *  (inclusive) and of those that end there (self). */
typedef struct cgw_profile_node {
    uint32_t fn, parent;
    uint64_t inclusive, self;
} cgw_profile_node;

#define CGW_PROFILE_ROOT UINT32_MAX

/** The stacks of event (as cgw_profile_stacks_min() rebuilds them with
 *  min_amount the event's total >> 16: cgw_profile_stacks()' for a
 *  total under 65536) merged into a call tree, the data of a flame
 *  graph: nodes[0..*n), node 0 the root (its inclusive the event's
 *  total), children after their parents in the order the stacks first
 *  reached them.  At most max_nodes nodes (0: 2^24): a stack that would
 *  pass it ends at the deepest node it has, where its cost is counted
 *  as self.  *cut (may be NULL) is set to 1 when that happened or a
 *  caller's share under total >> 16 was merged into its frame's
 *  heaviest (else 0).  The nodes are the profile's, valid until the next
 *  cgw_profile_tree(), add or free.  Memory grows with the nodes.  OK, or
 *  as cgw_profile_stacks(). */
CGW_API cgw_status cgw_profile_tree(cgw_profile *p, size_t event, size_t max_nodes,
                                    const cgw_profile_node **nodes, size_t *n, int *cut);

/* ================================================================
 * Conversions: folded stacks, the flame-graph format ("a;b;c 42": a
 * stack, root first, and how often it was seen), to and from the
 * Callgrind format (cgconvert).  Stacks to a profile:
 *
 *   1. cgw_stacks_new()
 *   2. cgw_stacks_add_folded() for each input (several events, merged)
 *   3. cgw_stacks_write() through a writer still in its header
 *   4. cgw_stacks_free()
 *
 * A profile to stacks: cgw_write_folded().
 * ================================================================ */

/** Stacks with their counts, kept as a call graph: self costs on the
 *  leaves, and one call edge per caller/callee pair (and call line) with
 *  the inclusive cost of the stacks through it.  Every pair that occurs
 *  in a stack is an edge, recursive ones too (a;b;a;b;c 5 gives a -> b,
 *  b -> a and b -> c 5 each; a;a;a 5 gives a -> a 5), and a stack adds
 *  its count to each distinct pair once, at the line of its outermost
 *  call, as pprof counts cumulative costs.  Memory grows with the
 *  distinct names, functions and edges, never with the number of stacks
 *  or lines. */
typedef struct cgw_stacks cgw_stacks;

/** New, empty stacks, memory from a (libc's when NULL).  NULL when out of
 *  memory. */
CGW_API cgw_stacks *cgw_stacks_new(const cgw_allocator *alloc);

/** Add folded stacks text[0..len) as counts of event (NULL: "Samples";
 *  each new name is a new event column, up to 64; the same name again
 *  adds up).  One stack a line, "FRAME;FRAME;...;LEAF COUNT": frames
 *  split at ';', the count after the last blank; blank lines and a CR
 *  before the LF are skipped, lines with count 0 add nothing.  Frame
 *  annotations: "NAME_[k]" is NAME in object [kernel.kallsyms];
 *  "_[j]", "_[i]", "_[0]" and "_[1]" are dropped (async-profiler's JIT,
 *  inlined, interpreted and C1 forms of a method are one function);
 *  "MODULE`NAME" is NAME in object MODULE; "NAME (FILE:LINE)" (py-spy)
 *  is NAME in FILE, its cost and calls at LINE (line 0 otherwise).
 *  name names the input in error messages (NULL: "-").  OK; EINVAL for a
 *  bad line (the message says "NAME:LINE:COLUMN: " what is wrong and what
 *  was expected: no count, an empty frame, a control byte or invalid
 *  UTF-8 in a frame, a LINE of 2^32 or more) or a bad event name; ERANGE when an event's total
 *  would pass 2^64-1; ENOMEM; EUSAGE when s is NULL or after
 *  cgw_stacks_write().  Errors are sticky: later calls return the first;
 *  the stacks of the lines before the bad one are kept. */
CGW_API cgw_status cgw_stacks_add_folded(cgw_stacks *s, const char *event,
                                         const char *name, const char *text,
                                         size_t len);

/** One frame of a stack for cgw_stacks_add(), and a function of a
 *  profile as cgw_read_stacks() hands it out (line 0, inlined NULL).
 *  NULL or blank names are none (blanks around a name are dropped, as
 *  readers drop them); a frame with no name is "???".  Names are UTF-8
 *  without a control byte (no line feed, tab or DEL), as the writer's
 *  portable subset takes them. */
typedef struct cgw_frame {
    const char *object;  /**< ob=: its object (binary, library)        */
    const char *file;    /**< fl=: the function's file                 */
    const char *name;    /**< fn=: the function                        */
    const char *inlined; /**< fi=: the file of code inlined at line    */
    uint64_t line;       /**< the line of the frame's cost or call; 0: none */
} cgw_frame;

/** Flags of cgw_stacks_add(). */
enum {
    /** The stack adds nothing to its calls' counts (a format without call
     *  counts, such as pprof: calls= is 1 where no stack counted one). */
    CGW_STACK_UNCOUNTED = 1,
    /** frames[0] is the leaf and frames[nframes - 1] the root, as most
     *  unwinders and interpreters hand them out. */
    CGW_STACK_LEAF_FIRST = 2
};

/** Add one stack frames[0..nframes) (root first, or leaf first with
 *  CGW_STACK_LEAF_FIRST) of structured frames,
 *  seen count times for event (NULL: "Samples"; a new name is a new
 *  column, as in cgw_stacks_add_folded()); count goes to the leaf's self
 *  cost at its line and once to each distinct caller/callee pair, at the
 *  caller's line.  This is how a parser of another format (pprof:
 *  <cgw-pprof.h>) fills stacks.  nframes 0 or count 0 adds no cost: a
 *  named event still becomes a column (so a parser sets the order of its
 *  events), and with event NULL the call only returns the stacks'
 *  status.  OK; EINVAL (a bad event name, more
 *  than 64 events, a name of a frame with a control byte or invalid
 *  UTF-8, which the writer would refuse: the message names the call,
 *  the frame's index in frames and which of its names), ERANGE (an event's total would pass 2^64-1), ENOMEM;
 *  EUSAGE when s is NULL, frames is NULL with nframes > 0, or after
 *  cgw_stacks_write().  Errors are sticky. */
CGW_API cgw_status cgw_stacks_add(cgw_stacks *s, const char *event, const cgw_frame *frames,
                                  size_t nframes, uint64_t count, unsigned flags);

/** Register once the function of frame (its object, file and name) and
 *  the file of code inlined at its line, for cgw_stacks_add_h(): its
 *  handle in *handle (frame->line is not part of it).  The same frame
 *  again gives the same handle; handles are the stacks' own.  OK, or as
 *  cgw_stacks_add() (EUSAGE also when frame or handle is NULL). */
CGW_API cgw_status cgw_stacks_intern(cgw_stacks *s, const cgw_frame *frame, uint64_t *handle);

/** cgw_stacks_add() with frames registered once: handles[0..nframes) from
 *  cgw_stacks_intern() and their lines in lines[0..nframes) (NULL: 0),
 *  the same order and flags.  No name is looked up: for a sampler that
 *  keeps its symbols' handles.  OK, or as cgw_stacks_add(); EINVAL for
 *  a handle that is not one of these stacks'. */
CGW_API cgw_status cgw_stacks_add_h(cgw_stacks *s, const char *event, const uint64_t *handles,
                                    const uint64_t *lines, size_t nframes, uint64_t count,
                                    unsigned flags);
/** cgw_stacks_add_h() with each frame's instruction address, and the
 *  stack seen stacks times with count in all: addresses[0..nframes)
 *  (NULL: none; the leaf's where its cost was spent, a caller's at its
 *  call), for a native sampler; stacks, what the stack adds to its
 *  calls' counts (1 is cgw_stacks_add_h()'s, 0 CGW_STACK_UNCOUNTED's),
 *  for a sampler or binding that counts a stack's samples first and
 *  wants calls= to count them as if each were added alone.  Addresses
 *  written into a writer with instruction positions (CGW_POS_INSTR, with
 *  CGW_POS_LINE or not) are the cost lines' and calls' addresses; a
 *  writer of lines only sums the costs of a line's addresses.  OK, or as
 *  cgw_stacks_add_h(). */
CGW_API cgw_status cgw_stacks_add_at(cgw_stacks *s, const char *event, const uint64_t *handles,
                                     const uint64_t *addresses, const uint64_t *lines,
                                     size_t nframes, uint64_t count, uint64_t stacks,
                                     unsigned flags);

/** Make st (not CGW_OK) the stacks' sticky error with message msg,
 *  unless they have one already: a parser of another format built on
 *  cgw_stacks_add() says so what is wrong with its input.  Returns the
 *  stacks' error (EUSAGE when s is NULL or st is CGW_OK). */
CGW_API cgw_status cgw_stacks_fail(cgw_stacks *s, cgw_status st, const char *msg);

/** Write the stacks through w into its current part, and leave w open
 *  for more (cgw_new_part() and another thread's stacks) and cgw_close().
 *  w's positions are filled from the frames' lines and addresses: line
 *  positions (CGW_POS_LINE, the default) take the lines; instruction
 *  positions (CGW_POS_INSTR, alone or with CGW_POS_LINE) take the
 *  addresses, and only stacks of cgw_stacks_add_at() have them; none
 *  (CGW_POS_NONE) drops both.  A writer whose positions the stacks cannot
 *  fill (instruction positions when some stacks came without addresses,
 *  basic-block positions always) is refused (EINVAL, nothing written),
 *  never given lines as addresses.
 *  In the writer's header (set the creator or command first if wanted)
 *  the events the writer lacks are added; in a later part (after
 *  cgw_new_part(): one part a thread, cgw_set_thread() naming it) the
 *  writer must have every event of the stacks already (EINVAL), and each
 *  is written in the writer's column of its name (cgw_event_column()).
 *  Written: one block a function in the order the functions came, its
 *  self costs by line and its calls by callee and line.  calls= counts
 *  the stacks added (cgw_stacks_add() calls, folded lines) through the
 *  call, once a stack however often the pair recurs in it: a stack has
 *  no call counts of its own.  Each function is written under its own
 *  name, object and file, never renamed: a name that several functions
 *  share (one per object or file) is told apart by ob= and fl=, as
 *  KCachegrind and this reader tell them apart, and a function's name
 *  does not depend on what else was sampled.  With CGW_QUALIFY_NAMES in
 *  the writer's flags, every function with an object or a file is named
 *  "NAME [OBJECT] (FILE)" instead (the same in every part and run), for
 *  readers that merge functions by name alone.  A function with an
 *  object gets ob=; when some have one, the others get ob=???; a function
 *  without a file gets fl=???.  The totals are the sums of the counts.
 *  Returns the writer's status; an error of the stacks becomes the writer's (EINVAL, ERANGE,
 *  ENOMEM, with the stacks' message), EINVAL for a writer of instruction
 *  or basic-block positions, and EUSAGE when s is NULL or the writer is
 *  finished.  No stacks may be added afterwards. */
CGW_API cgw_status cgw_stacks_write(cgw_stacks *s, cgw_writer *w);

/** The message of the stacks' first error; "" when there was none. */
CGW_API const char *cgw_stacks_errmsg(const cgw_stacks *s);

/** Release the stacks.  NULL is a no-op. */
CGW_API void cgw_stacks_free(cgw_stacks *s);

/** Write the profile read by r (every part added up) as folded stacks of
 *  event (NULL: the first event), one line a stack, through fn(ctx, ...).
 *  The profile has self costs and call edges, not stacks: they are
 *  rebuilt from the leaves up.  A function's cost is split among its
 *  callers in proportion to the inclusive cost of their calls to it, and
 *  the stack that starts at the function, in proportion to what its
 *  inclusive cost (self plus the calls it makes) has beyond the calls to
 *  it (rounded down, the remainder a unit at a time in that order); then
 *  on up in the same way, by the profile model (cgw_profile_stacks():
 *  a cycle is taken whole, every cost under the root that reached it).
 *  Exact when every function has one caller (a tree); an estimate
 *  otherwise, always with
 *  the profile's total.  Frames are function names (';' in a name
 *  becomes ':'; a function of object [kernel.kallsyms] gets "_[k]").
 *  Memory grows with functions and call edges; time with the stacks
 *  written, at most 2^26 frames in all (a chain of n diamonds has 2^n
 *  paths).  The reader's diagnostics go to its own callback.  OK; EINVAL
 *  (no such event), EIO (fn failed, or reading failed), ENOMEM, ERANGE (a
 *  cost passes 2^64-1, or the stacks would pass 2^26 frames), EUSAGE (r
 *  or fn NULL); msg[0..len) (may be NULL) gets the message. */
CGW_API cgw_status cgw_write_folded(cgw_reader *r, const char *event, cgw_write_fn fn,
                                    void *ctx, char *msg, size_t len);

/** What cgw_read_stacks() hands each(ctx, fns, ids, depth, event, amount)
 *  for each stack: fns[ids[0]] (the leaf) .. fns[ids[depth - 1]] (the
 *  root), with amount of event (an index of the events told), ids being
 *  the functions' numbers (the same function, the same number, from 0).
 *  Not OK stops cgw_read_stacks(), which returns it. */
typedef cgw_status (*cgw_stack_fn)(void *ctx, const cgw_frame *fns, const uint32_t *ids,
                                   size_t depth, unsigned event, uint64_t amount);
/** The events the stacks are of, names[0..n), told once before the
 *  first stack; not OK stops cgw_read_stacks(), which returns it. */
typedef cgw_status (*cgw_events_fn)(void *ctx, const char *const *names, size_t n);

/** The stacks of the profile read by r, rebuilt as cgw_write_folded()
 *  rebuilds them, of event, or of every event when event is NULL (every
 *  part must then have the same events): the events to events (may be
 *  NULL), then each stack, event by event, to each.  This is how a
 *  writer of another format (pprof: <cgw-pprof.h>) gets them.  OK, or as
 *  cgw_write_folded() (EINVAL also for parts with different events), or
 *  a callback's status; msg as there ("cgw_read_stacks: " and why). */
CGW_API cgw_status cgw_read_stacks(cgw_reader *r, const char *event, cgw_events_fn events,
                                   cgw_stack_fn each, void *ctx, char *msg, size_t len);

/* ================================================================
 * Features: what this libcgw was built with, as curl_version_info()
 * tells a program which codecs its libcurl has.
 * ================================================================ */

/** gzip-compressed profiles read and written (zlib): CGW_GZIP works. */
#define CGW_FEATURE_GZIP 0x1u

/** The features of the libcgw linked at run time: a mask of
 *  CGW_FEATURE_* bits, and their names in *names (may be NULL), a
 *  NULL-terminated list in the order of the bits ("gzip").  Only what is
 *  in libcgw itself: pprof is libcgw-pprof's (<cgw-pprof.h>), which a
 *  program that links it has; libcgwprof's file and line numbers
 *  (libdw) are told by cgwprof --version. */
CGW_API unsigned cgw_features(const char *const **names);

#ifdef __cplusplus
}
#endif

#endif /* CGW_H */
