/* SPDX-License-Identifier: MIT */
/* compiler.h - hints to the compiler shared by the writer and the reader.
 * CGWP_COLD: a rare path kept out of its caller's body.  CGWP_HOT_INLINE:
 * a helper of a hot path that must be inlined into it.  CGWP_NOINLINE: a
 * path kept out of line so that its caller stays small.  CGWP_PREFETCH(p):
 * start fetching the cache line at p, to be read soon.  CGWP_BYTES(b):
 * byte b in each of the eight bytes of a word, for word-at-a-time scans. */
#ifndef CGW_COMPILER_H
#define CGW_COMPILER_H

#if defined(__GNUC__)
#define CGWP_COLD __attribute__((noinline, cold))
#define CGWP_HOT_INLINE inline __attribute__((always_inline))
#define CGWP_NOINLINE __attribute__((noinline))
#define CGWP_PREFETCH(p) __builtin_prefetch(p)
#else
#define CGWP_COLD
#define CGWP_HOT_INLINE inline
#define CGWP_NOINLINE
#define CGWP_PREFETCH(p) ((void)(p))
#endif

#define CGWP_BYTES(b) ((uint64_t)(b) * 0x0101010101010101u)

#endif /* CGW_COMPILER_H */
