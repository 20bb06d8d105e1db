/* compiler.h - hints to the compiler shared by the writer and the reader.
 * CGWP_COLD: a rare path kept out of its caller's body.  CGWP_HOT_INLINE:
 * a helper of a hot path that must be inlined into it. */
#ifndef CGW_COMPILER_H
#define CGW_COMPILER_H

#if defined(__GNUC__)
#define CGWP_COLD __attribute__((noinline, cold))
#define CGWP_HOT_INLINE inline __attribute__((always_inline))
#else
#define CGWP_COLD
#define CGWP_HOT_INLINE inline
#endif

#endif /* CGW_COMPILER_H */
