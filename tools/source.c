/* SPDX-License-Identifier: MIT */
/* source.c - the one way a tool reads a file because a profile names it
 * (fl=/dev/zero, a FIFO, /dev/urandom): regular files only, opened
 * without blocking, read in lines of bounded length, and a read error
 * said as one, never taken for the end of the file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolutil.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static void note(const tool_source *s, const char *why)
{
    if (s->tool != NULL)
        fprintf(stderr, "%s: %s: %s\n", s->tool, tool_esc(s->path), why);
}

int tool_source_open(tool_source *s, const char *tool, const char *path)
{
    *s = (tool_source){ .tool = tool, .path = path };
    /* O_NONBLOCK: opening a FIFO for reading waits for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            note(s, strerror(errno));
        return -1;
    }
    int ok = fstat(fd, &st) == 0;
    if (!ok || !S_ISREG(st.st_mode)) {
        note(s, ok ? "not a regular file, not read" : strerror(errno));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || (s->in = fdopen(fd, "r")) == NULL ||
        (s->line = malloc(TOOL_LINE_MAX + 2)) == NULL) {
        note(s, strerror(errno));
        if (s->in != NULL)
            fclose(s->in);
        else
            close(fd);
        s->in = NULL;
        return -1;
    }
    return 0;
}

int tool_source_line(tool_source *s)
{
    int c = EOF;
    size_t n = 0, cut = 0;
    if (s->failed)
        return -1;
    while ((c = getc(s->in)) != EOF) {
        if (n < TOOL_LINE_MAX || c == '\n')
            s->line[n++] = (char)c;
        else
            cut++;
        if (c == '\n')
            break;
    }
    if (c == EOF && ferror(s->in)) {
        int e = errno;
        if (s->tool != NULL)
            fprintf(stderr, "%s: %s: reading: %s\n", s->tool, tool_esc(s->path), strerror(e));
        s->failed = 1;
        return -1;
    }
    if (n == 0 && c == EOF)
        return 0;
    s->len = n;
    s->dot++;
    if (cut > 0 && s->tool != NULL)
        fprintf(stderr, "%s: %s:%llu: a line of more than %d bytes, cut there\n", s->tool,
                tool_esc(s->path), (unsigned long long)s->dot, TOOL_LINE_MAX);
    return 1;
}

void tool_source_close(tool_source *s)
{
    if (s->in != NULL)
        fclose(s->in);
    free(s->line);
    s->in = NULL;
    s->line = NULL;
}
