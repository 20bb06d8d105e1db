/* SPDX-License-Identifier: MIT */
/* message.h - the text of a sticky error, for the writer and the reader
 * alike.  Never installed. */
#ifndef CGW_COMMON_MESSAGE_H
#define CGW_COMMON_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

/* "PREFIX: " then fmt with ap into msg[0..cap), cut to fit (prefix NULL:
 * no prefix).  Once per writer or reader, never per line: vsnprintf is
 * fine. */
void cgwp_format_message(char *msg, size_t cap, const char *prefix, const char *fmt,
                         va_list ap);

#endif /* CGW_COMMON_MESSAGE_H */
