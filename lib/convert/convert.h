/* SPDX-License-Identifier: MIT */
/* convert.h - what the converters of lib/convert share (folded stacks in
 * and out) beyond lib/common's util.h: the callbacks of the stacks that
 * cgw_read_stacks() hands out.  Not installed. */
#ifndef CGW_CONVERT_H
#define CGW_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* A function of a profile, as its reader names it (object, file, name;
 * line 0, inlined NULL), and the callbacks of cgwc_profile_stacks():
 * the public cgw_read_stacks()'s. */
typedef cgw_frame cgwc_names;
typedef cgw_stack_fn cgwc_stack_fn;
typedef cgw_events_fn cgwc_events_fn;

/* Read r to its end, keeping the call graph of event (NULL: the first),
 * or of every event (all: the parts must have the same), and hand each
 * stack rebuilt from it (see folded-out.c), event by event, to each,
 * which may fail (its status is returned; it says why in msg itself),
 * after the events to events (NULL: not told).  OK, EINVAL (no such
 * event, parts with different events), ERANGE, ENOMEM, EIO (the reader
 * failed, or the stacks pass 2^26 frames), EUSAGE; msg[0..len) (may be
 * NULL) gets "CALL: " and the reason. */
cgw_status cgwc_profile_stacks(cgw_reader *r, const char *call, const char *event, int all,
                               cgwc_events_fn events, cgwc_stack_fn each, void *ctx,
                               char *msg, size_t len);


#endif
