/* SPDX-License-Identifier: MIT */
/* prof-plug: a plugin that prof-subject's dlclose mode loads and
 * unloads, compiled with -finstrument-functions.  Built twice, as
 * libprofplug-a and libprofplug-b, from the same code under other names
 * (PLUG_ENTRY, PLUG_WORK), so that b is likely to be loaded where a was:
 * the case where names taken at the dump would be b's for a's calls. */
#define NOINLINE __attribute__((noinline))

static volatile unsigned long plug_sink;

__attribute__((visibility("default"))) void PLUG_ENTRY(void);

NOINLINE static void PLUG_WORK(void)
{
    for (int i = 0; i < 100; i++)
        plug_sink += (unsigned long)i;
}

void PLUG_ENTRY(void)
{
    PLUG_WORK();
}
