/* SPDX-License-Identifier: MIT */
/*
 * cgw-pprof.h - pprof profiles (the protobuf of github.com/google/pprof)
 * to and from libcgw's stacks: the header of libcgw-pprof.
 *
 * libcgw-pprof is a library of its own (pkg-config libcgw-pprof, -lcgw-pprof
 * -lcgw), built when configure finds protobuf-c, so that libcgw, which
 * profilers link and preload into every process, loads neither
 * libprotobuf-c nor this code.  It is built on libcgw's public calls
 * (cgw_stacks_add(), cgw_stacks_fail() and cgw_read_stacks() of <cgw.h>,
 * which it includes): a program that links it has pprof.  Its memory is
 * libc's; errors are the stacks' (cgw_stacks_errmsg()) or msg's, as in
 * <cgw.h>.
 */
#ifndef CGW_PPROF_H
#define CGW_PPROF_H

#include <cgw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Add a pprof profile data[0..len) (the protobuf of
 *  github.com/google/pprof, as Go's runtime/pprof and gperftools write
 *  it; gzip-compressed or not) to s: each sample type is an event (its
 *  type, and its unit unless that is a count: "samples",
 *  "cpu_nanoseconds"), each sample a stack of its locations, counted once
 *  for each of its values.  A location is its function (name, file, and
 *  the object of its mapping) at its line; one with several lines
 *  (inlined calls) is the function the others are inlined into, at the
 *  first line's line, its cost from code inlined from that line's file
 *  (fi=); one without lines is its address.  pprof has no call counts:
 *  calls= is 1 for every call.  name names the input in messages (NULL:
 *  "-").  OK; EINVAL for a profile that does not decode (truncated or
 *  damaged: the message says which field at which byte), a negative
 *  value, a sample or location that names something the profile lacks
 *  (the message says which), a profile whose protobuf would take more
 *  than 16 bytes of memory a byte of it and 16 MiB to decode (a real one
 *  takes about 10; one of empty strings, 36), or a gzip-compressed one
 *  when libcgw-pprof was built without zlib; ERANGE for a profile over
 *  the memory limit (CGW_PPROF_LIMIT, which
 *  cgw_stacks_add_pprof_limit() raises: the message names it); ENOMEM
 *  (out of memory, never said as damage), ERANGE, EUSAGE as
 *  cgw_stacks_add_folded(). */
CGW_API cgw_status cgw_stacks_add_pprof(cgw_stacks *s, const char *name, const void *data,
                                        size_t len);

/** The most memory, in bytes, that cgw_stacks_add_pprof() takes to
 *  decode a profile: its inflated protobuf (when gzip-compressed) and
 *  what protobuf-c builds of it, however big the profile says it is.
 *  256 MiB: a real profile of up to about 24 MiB of protobuf (a few MiB
 *  gzip-compressed). */
#define CGW_PPROF_LIMIT ((size_t)256 << 20)

/** cgw_stacks_add_pprof() within limit bytes of memory instead of
 *  CGW_PPROF_LIMIT (0: CGW_PPROF_LIMIT): a profile that would take more
 *  is refused with ERANGE, at the latest when it reaches the limit. */
CGW_API cgw_status cgw_stacks_add_pprof_limit(cgw_stacks *s, const char *name, const void *data,
                                              size_t len, uint64_t limit);

/** Write the profile read by r as a pprof profile (the protobuf of
 *  github.com/google/pprof, gzip-compressed when libcgw-pprof has zlib, as
 *  pprof's files are) through fn(ctx, bytes, len), once, at the end:
 *  every event is a sample type (its name, unit "count"), or only event
 *  when it is not NULL; the stacks of each, rebuilt as
 *  cgw_write_folded() rebuilds them (exact for a call tree, an estimate
 *  otherwise), are its samples (the other types 0); each function is a
 *  Function (name and file) and a Location without a line number (the
 *  call graph has none), each object a Mapping.  Every part must have
 *  the same events.  Memory grows with the stacks.  OK; EINVAL for parts
 *  with different events, and as cgw_write_folded() otherwise (ERANGE
 *  also for a stack's cost of 2^63 or more, pprof's largest); msg as
 *  there. */
CGW_API cgw_status cgw_write_pprof(cgw_reader *r, const char *event, cgw_write_fn fn,
                                   void *ctx, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CGW_PPROF_H */
