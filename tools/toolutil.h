/* SPDX-License-Identifier: MIT */
/* toolutil.h - argument parsing, text and the SIGBUS handler shared by
 * the tools (not installed). */
#ifndef CGW_TOOLUTIL_H
#define CGW_TOOLUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cgw.h>

/* A growable NUL-terminated string; the tool exits (2) when out of memory. */
typedef struct tool_text {
    char *p;
    size_t len, cap;
} tool_text;
void tool_add(tool_text *t, const char *s, size_t n);
void tool_addf(tool_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* All of fd (stdin kept in memory); 0, or -1 with errno. */
int tool_slurp(int fd, tool_text *t);
/* fd if it is a regular file (to be read again from its start); else a
 * descriptor of an unlinked temporary file in $TMPDIR (else /tmp) with
 * all that fd gives, fd closed: so that a pipe is read once.  -1 with
 * errno set (fd closed). */
int tool_seekable(int fd);
/* A descriptor of an unlinked temporary file in $TMPDIR (else /tmp),
 * named PREFIX-XXXXXX while it was made; -1 with errno set. */
int tool_temp_file(const char *prefix);

/* A writer's positions; bb ones need CGW_EXTENDED (KCachegrind and
 * callgrind_annotate misread them), which a tool asked for them sets. */
void tool_set_positions(cgw_options *wo, unsigned positions);
/* "line", "instr", "instr,line" (any order, "bb" too) into wo's
 * positions (tool_set_positions()); -1 when s names something else. */
int tool_positions(const char *s, cgw_options *wo);

/* A decimal count with an optional K, M or G (powers of 1024) suffix;
 * -1 when s is not one. */
int tool_size(const char *s, uint64_t *v);

/* --help (usage to stdout) and --version, the same in every tool: 0, the
 * exit status, when a is one of them; -1 otherwise. */
int tool_info_option(const char *tool, const char *usage, const char *a);

/* --version: "TOOL (libcgw) VERSION", then "Features:" and the names of
 * what the libcgw linked has (cgw_features(), at run time: "gzip"), and
 * more (NULL: nothing) for what the tool links beside it ("pprof":
 * libcgw-pprof); 0. */
int tool_version(const char *tool, const char *more);

/* getopt_long() for every tool: options may follow file names and "--"
 * ends them; -V is the long option "version"; a bad option is said as
 * tool_usage_error() says it (and '?' returned), never with getopt's own
 * wording. */
struct option;
int tool_getopt(const char *tool, int argc, char **argv, const char *shortopts,
                const struct option *longopts);
/* The long name of the option whose value is c in longopts ("" if none). */
const char *tool_option_name(const struct option *longopts, int c);
/* "TOOL: MESSAGE" and "Try 'TOOL --help' for more information." on
 * stderr: the wording of every usage error; returns 2, the exit status. */
int tool_usage_error(const char *tool, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Files read mapped (CGW_READ_MAP) raise SIGBUS when they shrink while
 * they are read: after tool_catch_sigbus(), the tool then says so for the
 * path last given to tool_reading() and exits 2, as for an I/O error. */
void tool_catch_sigbus(const char *tool);
void tool_reading(const char *path);

/* A reader's diagnostic callback (ctx a tool_diag_ctx) that prints its
 * errors as "TOOL: PATH:LINE: error: MESSAGE [CODE]" (no LINE where one
 * is about the whole file) and counts them; warnings are not printed. */
typedef struct tool_diag_ctx {
    const char *tool, *path;
    uint64_t *errors;
} tool_diag_ctx;
void tool_diag_errors(void *ctx, const cgw_diagnostic *d);
/* One error of the input so: "TOOL: PATH:LINE: error: MESSAGE [CODE]". */
void tool_input_error(const char *tool, const char *path, const cgw_diagnostic *d);

/* What cgmerge and cgdiff share: the options that choose how inputs are
 * read and named (getopt_long() entries TOOL_INPUT_OPTIONS, ending the
 * table), and reading each input into a merger or differ. */
enum { TOOL_O_MODFILE = 256, TOOL_O_MODFN, TOOL_O_FORCE, TOOL_O_HELP, TOOL_O_VERSION,
       TOOL_O_QUIET, TOOL_O_NEXT };
/* the end of every tool's getopt_long() table: --help, --version */
#define TOOL_HELP_OPTIONS                                                     \
    { "help", no_argument, NULL, TOOL_O_HELP },                               \
    { "version", no_argument, NULL, TOOL_O_VERSION }, { NULL, 0, NULL, 0 }
/* the end of the table of a tool that writes -o OUT with a progress
 * line: --quiet, -o/--output, --help, --version */
#define TOOL_OUTPUT_OPTIONS                                                   \
    { "quiet", no_argument, NULL, TOOL_O_QUIET },                             \
    { "output", required_argument, NULL, 'o' }, TOOL_HELP_OPTIONS
#define TOOL_INPUT_OPTIONS                                                    \
    { "mod-filename", required_argument, NULL, TOOL_O_MODFILE },              \
    { "mod-funcname", required_argument, NULL, TOOL_O_MODFN },                \
    { "force", no_argument, NULL, TOOL_O_FORCE }, TOOL_OUTPUT_OPTIONS
typedef struct tool_inputs {
    const char *tool, *usage;
    cgw_merge_options mo;
    const char *out;
    int force, quiet;
    /* the events of every input read so far (" A B "), and where there
     * are none: the first input and the first that had none of them */
    tool_text common;
    const char *first, *apart;
    tool_text first_events, apart_events;
} tool_inputs;
/* getopt_long()'s c (argument arg) when it is one of those options, or -h:
 * 0 when taken, 1 + the exit status after --help and --version, -1 when
 * c is another. */
int tool_inputs_option(tool_inputs *t, int c, const char *arg);
/* Read path ('-': stdin) through add(ctx, r), which returns a status and
 * its message in *msg; errors of the input are printed.  0, 1 (the input
 * has errors or add() refused it), or 2 (I/O or memory). */
typedef cgw_status (*tool_add_fn)(void *ctx, cgw_reader *r, const char **msg);
int tool_add_input(tool_inputs *t, const char *path, tool_add_fn add, void *ctx);
/* When no event is in every input read: "FIRST has A B, OTHER has C"
 * (static storage), else NULL. */
const char *tool_no_common_events(const tool_inputs *t);
/* Release what tool_add_input() kept. */
void tool_inputs_free(tool_inputs *t);


/* progress.c: a line on stderr, where it is a terminal and quiet is 0,
 * with the files and bytes read of the n inputs at paths (NULL: their
 * sizes unknown), the rate and the time left; nothing otherwise.  Open each input with
 * tool_progress_open() (a reader of path, "-": stdin, with ro) and close
 * it with tool_progress_close(); an input read otherwise counts its
 * size at tool_progress_file_done() (0 for one read through a reader);
 * tool_progress_end() clears the line before the tool says more. */
void tool_progress_begin(const char *tool, char *const *paths, size_t n, int quiet);
cgw_reader *tool_progress_open(const char *path, const cgw_read_options *ro);
void tool_progress_close(cgw_reader *r);
void tool_progress_file_done(uint64_t size);
void tool_progress_end(void);
/* In a worker process (jobs.c): no line drawn or cleared from now on,
 * since the parent draws it. */
void tool_progress_quiet(void);

/* output.c: the output an -o argument names: NULL, standard output, for
 * "-" (as "-" is standard input on the input side), else arg. */
const char *tool_output_arg(const char *arg);
/* A writer on out (stdout when NULL or "-"; gzip for a .gz
 * name unless wo asks for CGW_RAW) with wo, or NULL after saying why on
 * stderr.  Until tool_close_output(), SIGINT, SIGTERM and SIGHUP remove
 * its temporary file before the tool dies of them. */
cgw_writer *tool_open_output(const char *tool, const char *out, cgw_options *wo);
/* Finish w when st, the status of writing into it, is CGW_OK; say why on
 * stderr when that failed; free w.  The tool's exit code: 0; 1 when the
 * writer refused the data; 2 for I/O or memory. */
int tool_close_output(const char *tool, const char *out, cgw_writer *w, cgw_status st);

/* A decimal number up to max; -1 when s is not one. */
int tool_uint(const char *s, uint64_t max, uint64_t *v);
/* A number (strtod()'s forms, all of s) from 0 to max; -1 when s is not
 * one. */
int tool_number(const char *s, double max, double *v);

/* A library message in a tool's words: without the names of the calls
 * ("cgw_recode: ") and the "reading: " that the tool's own words (the
 * file's name) already say. */
const char *tool_words(const char *msg);

/* s as it may reach a terminal or a message: when it has a control byte
 * (below 0x20, or 0x7f), a copy with each as \xNN and each backslash
 * as \\; else s itself, so that names without one print as they are
 * (callgrind_annotate's output).  A copy lives until the fourth call
 * after (messages quote up to four names); tool_words() returns its
 * message so. */
const char *tool_esc(const char *s);

/* source.c: a file a tool reads because a profile names it (a source
 * file to annotate).  Only a regular file is read: opened without
 * blocking (a FIFO) or taking a terminal, then read in lines of at most
 * TOOL_LINE_MAX bytes (longer ones cut, with a note on stderr). */
#define TOOL_LINE_MAX 65536
typedef struct tool_source {
    const char *tool, *path;
    FILE *in;
    char *line; /* the last line read, its newline kept; len bytes */
    size_t len;
    uint64_t dot; /* lines read */
    int failed;   /* a read error was said */
} tool_source;
/* Open path into s: 0; -1 when it is not there or not to be read, said
 * on stderr as "TOOL: PATH: WHY" (not a regular file, an open error but
 * a missing file) unless tool is NULL. */
int tool_source_open(tool_source *s, const char *tool, const char *path);
/* The next line into s->line: 1; 0 at the end; -1 after a read error
 * (said, with the file's name; s->failed set), never taken as the end. */
int tool_source_line(tool_source *s);
void tool_source_close(tool_source *s);

/* p, an array of *cap items of size bytes, with room for need: grown
 * (doubling) and the new items zeroed; out of memory is said and ends
 * the tool (exit 2). */
void *tool_grow(void *p, size_t *cap, size_t need, size_t size);

/* A map of keys of three words to a 32-bit value, open addressing (the
 * tools' one; cgannotate keys names by the reader's pointers, cgreport
 * call edges by their functions). */
typedef struct tool_map_slot {
    uint64_t a, b, c;
    uint32_t v, used;
} tool_map_slot;
typedef struct tool_map {
    tool_map_slot *s;
    size_t cap, n;
} tool_map;
/* The value of key (a, b, c), or the slot for it: *fresh is 1 then and
 * the caller sets it.  Valid until the next call on m. */
uint32_t *tool_map_get(tool_map *m, uint64_t a, uint64_t b, uint64_t c, int *fresh);

/* "s" when n is not 1: "%" PRIu64 " error%s", n, tool_plural(n). */
const char *tool_plural(uint64_t n);


/* The main readers, as cgw_diag_readers() bits and by the names that
 * --for takes. */
extern const struct tool_reader {
    const char *name;
    unsigned bit;
} tool_readers[4];
/* --for's comma-separated list into *mask: 0, or -1 with *bad at a name
 * it does not know (or at list when it names none). */
int tool_parse_readers(const char *list, unsigned *mask, const char **bad);
/* code as a finding of each reader in mask that cgw_diag_readers() says
 * it is one for: added once to findings[i] (", "-separated codes) of
 * tool_readers[i]; whether it is a finding for any of them. */
int tool_note_finding(tool_text findings[4], unsigned mask, const char *code);

#endif
