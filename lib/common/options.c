/* SPDX-License-Identifier: MIT */
/* options.c - options structs that can grow: the caller's struct_size
 * decides how many bytes are read or written. */
#include <string.h>

#include "options.h"

static size_t struct_size(const void *opts)
{
    size_t n;
    memcpy(&n, opts, sizeof n);
    return n;
}

int cgwp_options_take(void *dflt, size_t known, size_t oldest, const void *given)
{
    if (given == NULL)
        return 0;
    size_t n = struct_size(given);
    if (n < oldest)
        return -1;
    for (size_t i = known; i < n; i++)
        if (((const unsigned char *)given)[i] != 0)
            return -1;
    memcpy((char *)dflt + sizeof n, (const char *)given + sizeof n,
           (n < known ? n : known) - sizeof n);
    return 0;
}

int cgwp_options_give(void *out, const void *have, size_t known, size_t oldest)
{
    size_t n = struct_size(out);
    if (n < oldest)
        return -1;
    if (n > known)
        memset((char *)out + known, 0, n - known);
    memcpy((char *)out + sizeof n, (const char *)have + sizeof n,
           (n < known ? n : known) - sizeof n);
    return 0;
}
