/* SPDX-License-Identifier: MIT */
/* callgrind.h - Callgrind's own files of the shapes users have, made at
 * bench time by valgrind ($VALGRIND), for bench-reader and bench-writer;
 * and the child set-up they start programs with.
 * Shapes:
 * - CGB_DEFAULT: Callgrind's default options (line positions, Ir), of a
 *   Python start-up (/usr/bin/python3 importing ten modules of its
 *   library);
 * - CGB_INSTR_JUMPS: --dump-instr=yes --collect-jumps=yes, the same run;
 * - CGB_CACHE_PY: --cache-sim=yes --branch-sim=yes --dump-instr=yes (13
 *   events, trailing zero costs dropped), the same run;
 * - CGB_CACHE_CC1: the same options, of gcc's cc1 ($CC1) compiling
 *   $CC1_INPUT with $CC1_FLAGS (about 20 MB). */
#ifndef CGW_BENCH_CALLGRIND_H
#define CGW_BENCH_CALLGRIND_H

enum { CGB_DEFAULT, CGB_INSTR_JUMPS, CGB_CACHE_PY, CGB_CACHE_CC1 };

/* Callgrind's file of shape at path: 1 when made, 0 when it cannot be
 * here (no valgrind in $VALGRIND, no python3, or for CGB_CACHE_CC1 no
 * cc1 or input), -1 when valgrind ran and failed. */
int cgb_make_callgrind(const char *path, int shape);

/* What cgb_make_callgrind() needs, for a message when it made nothing. */
const char *cgb_callgrind_needs(int shape);

/* In a child just forked: its output to /dev/null, its errors to fd
 * err (or /dev/null when err is negative), assign (when not NULL, a
 * NAME=VALUE) put into its environment, then argv run; never returns.
 * cgb_make_callgrind() starts valgrind so, and bench-reader every tool
 * it times. */
void cgb_exec_child(char *const argv[], char *assign, int err);

#endif /* CGW_BENCH_CALLGRIND_H */
