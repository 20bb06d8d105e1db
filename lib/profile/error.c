/* SPDX-License-Identifier: MIT */
/* error.c - the profile model's sticky error (lib/common's rule), under
 * every other file of lib/profile. */
#include <stdarg.h>

#include "message.h"
#include "profile.h"

cgw_status cgwpm_fail(cgw_profile *p, cgw_status st, const char *call, const char *fmt, ...)
{
    CGWP_STICKY(st, &p->err, p->msg, sizeof p->msg, call, fmt);
    return st;
}
