/* SPDX-License-Identifier: MIT */
/* fail.c - how a fuzz target reports a broken property: a message and
 * abort(), which both libFuzzer and driver.c treat as a crash. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}
