/* SPDX-License-Identifier: MIT */
/* env.c - the profiler's environment variables, read the way a program
 * that may be setuid or setgid must: a user who runs a setuid program
 * built with libcgwprof must not choose where root's profile is written
 * (CGWPROF_OUT), so in a secure-execution process every variable reads
 * as unset and the defaults hold. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#if HAVE_GETAUXVAL
#include <sys/auxv.h>
#endif
#include "prof.h"

const char *prof_getenv(const char *name)
{
#if HAVE_SECURE_GETENV
    return secure_getenv(name);
#else
    if (getuid() != geteuid() || getgid() != getegid())
        return NULL;
    return getenv(name);
#endif
}

int prof_secure(void)
{
#if HAVE_GETAUXVAL
    return getauxval(AT_SECURE) != 0;
#else
    return getuid() != geteuid() || getgid() != getegid();
#endif
}

/* The process cgwprof started: its pid, which exec() keeps, from
 * $CGWPROF_LAUNCHED; read at start, since the program may change its
 * environment before it exits. */
static long launched = -1;

void prof_launched_init(void)
{
    const char *value = prof_getenv("CGWPROF_LAUNCHED");
    if (value == NULL || value[0] == '\0')
        return;
    char *end;
    errno = 0;
    long pid = strtol(value, &end, 10);
    if (errno == 0 && *end == '\0' && pid > 0)
        launched = pid;
}

int prof_launched(void)
{
    return launched == (long)getpid();
}
