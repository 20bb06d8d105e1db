/* SPDX-License-Identifier: MIT */
/* test-version: the header, the library and configure agree: the
 * version, and cgw_features() (its mask, its names, and configure's
 * zlib). */
#include <config.h> /* HAVE_ZLIB */
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
    const char *const *names = NULL;
    unsigned mask = cgw_features(&names);
    CHECK(names != NULL);
    CHECK(cgw_features(NULL) == mask);
#ifdef HAVE_ZLIB
    CHECK(mask == CGW_FEATURE_GZIP);
    CHECK(names[0] != NULL && strcmp(names[0], "gzip") == 0 && names[1] == NULL);
#else
    CHECK(mask == 0);
    CHECK(names[0] == NULL);
#endif
    printf("version %s, features:", cgw_version());
    for (size_t i = 0; names[i] != NULL; i++)
        printf(" %s", names[i]);
    printf("\n");
    return 0;
}
