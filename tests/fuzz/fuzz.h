/* SPDX-License-Identifier: MIT */
/* fuzz.h - the entry point every fuzz target defines: libFuzzer's, so
 * that one source builds both with -fsanitize=fuzzer (configure
 * --enable-fuzzers) and with driver.c, which make check uses to run the
 * target over its seeds and their mutations.  A target aborts (through
 * fuzz_fail) on any property it finds broken. */
#ifndef CGW_FUZZ_H
#define CGW_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void fuzz_fail(const char *what, const char *detail) __attribute__((noreturn));

/* records.c, for the targets that read an input twice */
struct cgw_reader;
struct cgw_record;
const struct cgw_record *fuzz_next(struct cgw_reader *r);
/* a and b (either may be NULL: the end of a read) must be the same
 * record on the same line; how says which two reads. */
void fuzz_same_record(const struct cgw_record *a, const struct cgw_record *b, const char *how);

/* records.c: the stacks written through a writer into memory (the
 * buffer to free(), its length in *len), then freed; the writer must
 * take them whole. */
struct cgw_stacks;
char *fuzz_write_stacks(struct cgw_stacks *s, size_t *len);

#endif
