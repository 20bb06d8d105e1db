/* SPDX-License-Identifier: MIT */
/* options.c - the caller's options struct over the defaults, for the
 * merger and the generator: lib/common/options.c's rule again, as
 * lib/tools is built on <cgw.h> alone. */
#include <string.h>

#include "util.h"

int cgwu_options_take(void *dflt, size_t known, const void *given)
{
    size_t n;
    if (given == NULL)
        return 0;
    memcpy(&n, given, sizeof n);
    if (n < known) /* every struct of lib/tools is as it was in 0.1 */
        return -1;
    for (size_t i = known; i < n; i++)
        if (((const unsigned char *)given)[i] != 0)
            return -1;
    memcpy((char *)dflt + sizeof n, (const char *)given + sizeof n, known - sizeof n);
    return 0;
}
