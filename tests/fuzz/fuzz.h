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

#endif
