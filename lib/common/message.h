/* SPDX-License-Identifier: MIT */
/* message.h - the text of a sticky error, for the writer and the reader
 * alike.  Never installed. */
#ifndef CGW_COMMON_MESSAGE_H
#define CGW_COMMON_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

#include <cgw.h>

/* "PREFIX: " then fmt with ap into msg[0..cap), cut to fit (prefix NULL:
 * no prefix).  Once per writer or reader, never per line: vsnprintf is
 * fine. */
void cgwp_format_message(char *msg, size_t cap, const char *prefix, const char *fmt,
                         va_list ap);

/* THE sticky-error rule of every handle (writer, reader, merger, stacks,
 * converters): the first error stays.  When *err is CGW_OK, st becomes
 * *err and its message goes into msg as cgwp_format_message() writes it;
 * returns *err either way. */
cgw_status cgwp_sticky(cgw_status *err, char *msg, size_t cap, cgw_status st, const char *prefix,
                       const char *fmt, va_list ap);
/* The same in a variadic setter whose last named argument is fmt: st
 * becomes what cgwp_sticky() returns. */
#define CGWP_STICKY(st, err, msg, cap, prefix, fmt)                            \
    do {                                                                       \
        va_list sticky_ap_;                                                    \
        va_start(sticky_ap_, fmt);                                             \
        (st) = cgwp_sticky(err, msg, cap, st, prefix, fmt, sticky_ap_);        \
        va_end(sticky_ap_);                                                    \
    } while (0)

#endif /* CGW_COMMON_MESSAGE_H */
