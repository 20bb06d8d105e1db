/* SPDX-License-Identifier: MIT */
/* test-version: the header, the library and configure agree. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

int main(void)
{
    char hex[32];
    CHECK_STR(cgw_version(), CGW_VERSION_STRING);
    CHECK_STR(cgw_version(), EXPECTED_VERSION);
    snprintf(hex, sizeof hex, "%d.%d.%d", CGW_VERSION_HEX >> 16, (CGW_VERSION_HEX >> 8) & 255,
             CGW_VERSION_HEX & 255);
    CHECK_STR(hex, CGW_VERSION_STRING);
    CHECK(strcmp(cgw_strerror(CGW_OK), "success") == 0);
    for (int s = CGW_EIO; s <= CGW_ERANGE; s++)
        CHECK(strcmp(cgw_strerror((cgw_status)s), "unknown status") != 0);
    printf("version %s\n", cgw_version());
    return 0;
}
