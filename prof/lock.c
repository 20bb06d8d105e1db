/* SPDX-License-Identifier: MIT */
/* lock.c - the dump lock, which every writer of the thread list's
 * records outside the hooks (a dump, a fold, an unload) holds, and
 * whether the calling thread is writing a profile.  It sits under all
 * of them, so that they need not call one another for it. */
#include <pthread.h>

#include "prof.h"

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int dumping; /* this thread is writing a profile */

/* A dump in another thread of the parent may have held the lock at the
 * fork; in the child that thread is gone. */
void prof_lock_after_fork(void)
{
    pthread_mutex_init(&dump_lock, NULL);
}

void prof_lock(void)
{
    pthread_mutex_lock(&dump_lock);
}

void prof_unlock(void)
{
    pthread_mutex_unlock(&dump_lock);
}

void prof_dump_begin(void)
{
    dumping++;
}

void prof_dump_end(void)
{
    dumping--;
}

int prof_dumping(void)
{
    return dumping != 0;
}
