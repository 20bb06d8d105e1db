/* SPDX-License-Identifier: MIT */
/* utf8.c - well-formed UTF-8, for the writer and the reader. */
#include "utf8.h"

int cgwp_utf8_valid(const unsigned char *bytes, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned lead = bytes[i];
        size_t ncont;
        if (lead < 0x80) {
            i++;
            continue;
        }
        if (lead >= 0xc2 && lead <= 0xdf)
            ncont = 1;
        else if (lead >= 0xe0 && lead <= 0xef)
            ncont = 2;
        else if (lead >= 0xf0 && lead <= 0xf4)
            ncont = 3;
        else
            return 0;
        if (len - i <= ncont)
            return 0;
        for (size_t j = 1; j <= ncont; j++)
            if ((bytes[i + j] & 0xc0) != 0x80)
                return 0;
        i += ncont + 1;
    }
    return 1;
}
