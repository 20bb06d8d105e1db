/* toolutil.h - argument parsing, text and the SIGBUS handler shared by
 * the tools (not installed). */
#ifndef CGW_TOOLUTIL_H
#define CGW_TOOLUTIL_H

#include <stddef.h>
#include <stdint.h>

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

/* "line", "instr", "instr,line" (any order, "bb" too) into a CGW_POS_*
 * mask; -1 when s names something else. */
int tool_positions(const char *s, unsigned *mask);

/* A decimal count with an optional K, M or G (powers of 1024) suffix;
 * -1 when s is not one. */
int tool_size(const char *s, uint64_t *v);

/* --help (usage to stdout) and --version, the same in every tool: 0, the
 * exit status, when a is one of them; -1 otherwise. */
int tool_info_option(const char *tool, const char *usage, const char *a);

/* Files read mapped (CGW_READ_MAP) raise SIGBUS when they shrink while
 * they are read: after tool_catch_sigbus(), the tool then says so for the
 * path last given to tool_reading() and exits 2, as for an I/O error. */
void tool_catch_sigbus(const char *tool);
void tool_reading(const char *path);

/* A decimal number up to max; -1 when s is not one. */
int tool_uint(const char *s, uint64_t max, uint64_t *v);

/* A reader's diag callback (ctx: a tool_errors) that prints each error
 * as "PATH:LINE: error: MESSAGE [CODE]" and counts it; warnings are not
 * printed. */
typedef struct tool_errors {
    const char *path;
    uint64_t errors;
} tool_errors;
struct cgw_diagnostic;
void tool_print_error(void *ctx, const struct cgw_diagnostic *d);

#endif
