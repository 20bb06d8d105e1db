/* SPDX-License-Identifier: MIT */
/* subject.h - an inline helper, so the profile has fi=/fe= lines. */
static inline unsigned mix(unsigned x)
{
    x ^= x >> 3;
    return x * 2654435761u;
}
