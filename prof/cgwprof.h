/* SPDX-License-Identifier: MIT */
/*
 * cgwprof.h - control of libcgwprof, the ready profiler for programs
 * compiled with -finstrument-functions.
 *
 * Linking is all it takes:
 *
 *   cc -finstrument-functions prog.c $(pkg-config --cflags --libs libcgwprof)
 *
 * and running the program writes a Callgrind profile (event ns, the time
 * spent in each function and each call edge, with exact call counts) to
 * callgrind.out.<pid> in the folder the program started in, or to
 * $CGWPROF_OUT (%p in it stands for the pid), when the program exits.
 * At the default name no symlink is followed and no file replaced but
 * the process's own earlier dump; a setuid or setgid program writes no
 * profile there at all (only cgwprof_dump() with a path).
 * This header is only needed to dump earlier.
 */
#ifndef CGWPROF_H
#define CGWPROF_H

#ifdef __cplusplus
extern "C" {
#endif

/** Write the profile so far to path, or to the default path when path is
 *  NULL (EPERM in a setuid or setgid program; EEXIST or ELOOP when a file
 *  or link that this process did not write is there), replacing the file
 *  atomically.  Each dump holds everything since
 *  the program (or, in a forked child, the fork) started, so the dump at
 *  exit makes earlier ones to the same path redundant.  Calls still in
 *  progress in the calling thread count as if returning now; other
 *  threads contribute the calls they have finished.  Safe to call from
 *  any thread.  Returns 0, or -1 with errno set (ENOMEM, EIO, or the
 *  error of creating the file). */
__attribute__((visibility("default"))) int cgwprof_dump(const char *path);

#ifdef __cplusplus
}
#endif

#endif
