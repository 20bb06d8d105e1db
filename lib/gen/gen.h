/* SPDX-License-Identifier: MIT */
/* gen.h - what gen.c (cgw_generate()) takes from gen-names.c. */
#ifndef CGW_TOOLS_GEN_H
#define CGW_TOOLS_GEN_H

#include <stddef.h>
#include <stdint.h>

/* Callgrind's events in its order (Ir, Dr, Dw, I1mr, ...): how many */
#define CGWG_KNOWN_EVENTS 13
/* per mille of Ir that each of them costs on average, as in real runs */
extern const unsigned cgwg_event_share[CGWG_KNOWN_EVENTS];

/* The name of event number event (Ev<N+1> past the known ones), of
 * function func (0 is main), of file and of object, into out. */
void cgwg_event_name(unsigned event, char *out, size_t size);
void cgwg_function_name(char *out, size_t size, uint32_t func);
void cgwg_file_name(char *out, size_t size, uint32_t file);
void cgwg_object_name(char *out, size_t size, uint32_t object);

#endif /* CGW_TOOLS_GEN_H */
