/* SPDX-License-Identifier: MIT */
/* toolutil.c - argument parsing, text and the SIGBUS handler shared by
 * the tools. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cgw.h>

#include "toolutil.h"

void tool_set_positions(cgw_options *wo, unsigned positions)
{
    wo->positions = positions;
    if (positions & (CGW_POS_BB | CGW_POS_NONE)) /* outside the portable subset */
        wo->flags |= CGW_EXTENDED;
}

int tool_positions(const char *s, cgw_options *wo)
{
    unsigned m = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        unsigned bit = cgw_pos_kind(s, n);
        if (bit == 0 || (m & bit))
            return -1;
        m |= bit;
        s += n;
        if (*s == ',' && *++s == '\0')
            return -1;
    }
    if (m == 0)
        return -1;
    tool_set_positions(wo, m);
    return 0;
}

int tool_info_option(const char *tool, const char *usage, const char *a)
{
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(a, "--version"))
        return tool_version(tool, NULL);
    return -1;
}

int tool_version(const char *tool, const char *more)
{
    const char *const *names;
    cgw_features(&names);
    printf("%s (libcgw) %s\nFeatures:", tool, cgw_version());
    for (size_t i = 0; names[i] != NULL; i++)
        printf(" %s", names[i]);
    printf("%s%s\n", more != NULL ? " " : "", more != NULL ? more : "");
    return 0;
}

int tool_usage_error(const char *tool, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", tool);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", tool);
    return 2;
}

/* Why getopt_long() (opterr 0, ':' leading its short options) refused
 * the argument it last read, c being its '?' or ':'. */
static void say_bad_option(const char *tool, int c, char **argv)
{
    const char *a = argv[optind - 1];
    int n = (int)strcspn(a, "=");
    if (a[0] != '-' || a[1] != '-') /* a short option, maybe one of -qx */
        fprintf(stderr, "%s: %s '-%c'\n", tool,
                c == ':' ? "a value is needed after" : "unknown option", optopt);
    else if (c == ':')
        fprintf(stderr, "%s: a value is needed after '%.*s'\n", tool, n, a);
    else if (a[n] == '=' && optopt != 0)
        fprintf(stderr, "%s: '%.*s' takes no value\n", tool, n, a);
    else
        fprintf(stderr, "%s: unknown or ambiguous option '%.*s'\n", tool, n, a);
}

const char *tool_option_name(const struct option *longopts, int c)
{
    for (; longopts->name != NULL; longopts++)
        if (longopts->val == c)
            return longopts->name;
    return "";
}

int tool_getopt(const char *tool, int argc, char **argv, const char *shortopts,
                const struct option *longopts)
{
    char so[64];
    size_t k = shortopts[0] == '-' || shortopts[0] == '+';
    /* -V is --version in every tool, -q --quiet in every tool that has it */
    int quiet = 0;
    for (const struct option *o = longopts; o->name != NULL && !strchr(shortopts, 'q'); o++)
        if (strcmp(o->name, "quiet") == 0)
            quiet = o->val;
    snprintf(so, sizeof so, "%.*s:%sV%s", (int)k, shortopts, shortopts + k, quiet ? "q" : "");
    opterr = 0;
    int c = getopt_long(argc, argv, so, longopts, NULL);
    if (c == 'q' && quiet)
        return quiet;
    if (c == '?' || c == ':') {
        say_bad_option(tool, c, argv);
        fprintf(stderr, "Try '%s --help' for more information.\n", tool);
        return '?';
    }
    if (c == 'V')
        for (const struct option *o = longopts; o->name != NULL; o++)
            if (strcmp(o->name, "version") == 0)
                return o->val;
    return c;
}

void tool_input_error(const char *tool, const char *path, const cgw_diagnostic *d)
{
    char line[32] = "";
    tool_progress_end(); /* its line off the terminal first */
    if (d->line > 0)
        snprintf(line, sizeof line, ":%" PRIu64, d->line);
    fprintf(stderr, "%s: %s%s: error: %s [%s]\n", tool, tool_esc(path), line,
            tool_esc(d->message), d->code);
}

int tool_uint(const char *s, uint64_t max, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || x > max)
        return -1;
    *v = x;
    return 0;
}

int tool_number(const char *s, double max, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(x >= 0) || x > max)
        return -1;
    *v = x;
    return 0;
}

int tool_size(const char *s, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (errno != 0 || *end != '\0' || x > (UINT64_MAX >> shift))
        return -1;
    *v = (uint64_t)x << shift;
    return 0;
}

void tool_add(tool_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (p == NULL) {
            fputs("out of memory\n", stderr);
            exit(2);
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

void tool_addf(tool_text *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tool_add(t, buf, n < 0 ? 0 : (size_t)n >= sizeof buf ? sizeof buf - 1 : (size_t)n);
}

int tool_slurp(int fd, tool_text *t)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            return 0;
        tool_add(t, buf, (size_t)n);
    }
}

int tool_temp_file(const char *prefix)
{
    const char *dir = getenv("TMPDIR");
    char name[4096];
    int n = snprintf(name, sizeof name, "%s/%s-XXXXXX", dir && *dir ? dir : "/tmp", prefix);
    int fd = n > 0 && (size_t)n < sizeof name ? mkstemp(name) : -1;
    if (fd >= 0)
        unlink(name);
    return fd;
}

/* Copy the rest of fd into out: 0, or -1 with errno set. */
static int copy_all(int fd, int out)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (int)n;
        for (ssize_t off = 0; off < n;) {
            ssize_t put = write(out, buf + off, (size_t)(n - off));
            if (put < 0 && errno == EINTR)
                continue;
            if (put <= 0)
                return -1;
            off += put;
        }
    }
}

int tool_seekable(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        return fd;
    int tmp = tool_temp_file("cgw-input");
    if (tmp >= 0 && (copy_all(fd, tmp) < 0 || lseek(tmp, 0, SEEK_SET) != 0)) {
        int saved = errno;
        close(tmp);
        errno = saved;
        tmp = -1;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return tmp;
}

static const char *volatile sigbus_tool = "", *volatile sigbus_path = "-";

/* write() only: this runs in a signal handler. */
static void say(const char *s)
{
    for (size_t n = strlen(s); n > 0;) {
        ssize_t k = write(STDERR_FILENO, s, n);
        if (k <= 0)
            return;
        s += k;
        n -= (size_t)k;
    }
}

static void on_sigbus(int sig)
{
    (void)sig;
    say(sigbus_tool);
    say(": ");
    say(sigbus_path);
    say(": bus error while reading: the file was truncated while it was read\n");
    _exit(2);
}

void tool_catch_sigbus(const char *tool)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigbus_tool = tool;
    sigaction(SIGBUS, &sa, NULL);
}

void tool_reading(const char *path)
{
    sigbus_path = path;
}

void tool_diag_errors(void *ctx, const cgw_diagnostic *d)
{
    tool_diag_ctx *c = ctx;
    if (d->severity != CGW_ERROR)
        return;
    (*c->errors)++;
    tool_input_error(c->tool, c->path, d);
}

int tool_inputs_option(tool_inputs *t, int c, const char *arg)
{
    switch (c) {
    case TOOL_O_MODFILE: t->mo.mod_filename = arg; return 0;
    case TOOL_O_MODFN: t->mo.mod_funcname = arg; return 0;
    case TOOL_O_FORCE: t->force = 1; return 0;
    case TOOL_O_QUIET: t->quiet = 1; return 0;
    case 'o': t->out = arg; return 0;
    case 'h': case TOOL_O_HELP: return 1 + tool_info_option(t->tool, t->usage, "--help");
    case TOOL_O_VERSION: return 1 + tool_info_option(t->tool, t->usage, "--version");
    default: return -1;
    }
}

/* A reader of path ('-': stdin, streamed) whose errors go through
 * tool_diag_errors(d), without function and inline records (the body
 * records name their function); NULL after saying why. */
static cgw_reader *open_input(tool_diag_ctx *d)
{
    cgw_read_options ro = { .struct_size = sizeof ro, .flags = CGW_READ_MAP,
                            .diag = tool_diag_errors, .diag_ctx = d,
                            .skip = CGW_SKIP(CGW_REC_FUNCTION) | CGW_SKIP(CGW_REC_INLINE) };
    tool_reading(d->path);
    cgw_reader *r = tool_progress_open(d->path, &ro);
    if (r == NULL)
        fprintf(stderr, "%s: %s: %s\n", d->tool, d->path, strerror(errno));
    return r;
}

/* Whether list (" A B ") has the word w[0..n). */
static int has_word(const char *list, const char *w, size_t n)
{
    for (const char *p = list + 1; *p != '\0';) {
        size_t m = strcspn(p, " ");
        if (m == n && memcmp(p, w, n) == 0)
            return 1;
        p += m + 1;
    }
    return 0;
}

/* The first part's events of r, " A B ", into t's record of the events
 * every input has. */
static void note_events(tool_inputs *t, const char *path, cgw_reader *r)
{
    const cgw_record *rec;
    if (cgw_reader_peek(r, &rec) != CGW_OK || rec == NULL || rec->kind != CGW_REC_PART)
        return;
    tool_text mine = { 0 }, both = { 0 };
    tool_add(&mine, " ", 1);
    for (size_t i = 0; i < rec->part->nevents; i++)
        tool_addf(&mine, "%s ", rec->part->events[i].name);
    if (t->first == NULL) {
        t->first = path;
        t->common = mine;
        tool_addf(&t->first_events, "%s", mine.p);
        return;
    }
    if (t->apart == NULL && t->common.len > 1) {
        tool_add(&both, " ", 1);
        for (const char *p = t->common.p + 1; *p != '\0';) {
            size_t n = strcspn(p, " ");
            if (has_word(mine.p, p, n))
                tool_add(&both, p, n + 1);
            p += n + 1;
        }
        free(t->common.p);
        t->common = both;
        if (both.len <= 1) {
            t->apart = path;
            tool_addf(&t->apart_events, "%s", mine.p);
        }
    }
    free(mine.p);
}

const char *tool_no_common_events(const tool_inputs *t)
{
    static char text[1024];
    if (t->apart == NULL)
        return NULL;
    snprintf(text, sizeof text, "%s has%.*s, %s has%.*s", t->first,
             (int)t->first_events.len - 1, t->first_events.p, t->apart,
             (int)t->apart_events.len - 1, t->apart_events.p);
    return text;
}

void tool_inputs_free(tool_inputs *t)
{
    free(t->common.p);
    free(t->first_events.p);
    free(t->apart_events.p);
}

int tool_add_input(tool_inputs *t, const char *path, tool_add_fn add, void *ctx)
{
    uint64_t errors = 0;
    tool_diag_ctx d = { t->tool, path, &errors };
    const char *msg = "";
    cgw_reader *r = open_input(&d);
    if (r != NULL)
        note_events(t, path, r);
    cgw_status st = r != NULL ? add(ctx, r, &msg) : CGW_EIO;
    tool_progress_close(r);
    tool_progress_file_done(0);
    if (r != NULL && st != CGW_OK)
        fprintf(stderr, "%s: %s: %s\n", t->tool, path, tool_words(msg));
    return st == CGW_EIO || st == CGW_ENOMEM ? 2 : st != CGW_OK || errors > 0;
}


const struct tool_reader tool_readers[4] = {
    { "kcachegrind", CGW_READER_KCACHEGRIND },
    { "callgrind_annotate", CGW_READER_CALLGRIND_ANNOTATE },
    { "gprof2dot", CGW_READER_GPROF2DOT },
    { "speedscope", CGW_READER_SPEEDSCOPE },
};

int tool_parse_readers(const char *list, unsigned *mask, const char **bad)
{
    for (const char *p = list; *p != '\0';) {
        size_t n = strcspn(p, ","), i = 0;
        while (i < 4 && (strlen(tool_readers[i].name) != n || strncmp(tool_readers[i].name, p, n)))
            i++;
        if (i == 4) {
            *bad = p;
            return -1;
        }
        *mask |= tool_readers[i].bit;
        p += n + (p[n] == ',');
    }
    return *mask != 0 ? 0 : (*bad = list, -1);
}

int tool_note_finding(tool_text findings[4], unsigned mask, const char *code)
{
    unsigned bits = cgw_diag_readers(code) & mask;
    size_t len = strlen(code);
    for (size_t i = 0; i < 4; i++) {
        tool_text *t = &findings[i];
        if (!(bits & tool_readers[i].bit))
            continue;
        int seen = 0; /* the whole code, not a part of a longer one */
        for (const char *p = t->p; p != NULL && (p = strstr(p, code)) != NULL; p += len)
            seen |= (p == t->p || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0');
        if (!seen)
            tool_addf(t, "%s%s", t->len ? ", " : "", code);
    }
    return bits != 0;
}

const char *tool_plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

const char *tool_words(const char *msg)
{
    for (;;) {
        size_t n = strspn(msg, "abcdefghijklmnopqrstuvwxyz_0123456789");
        if (strncmp(msg, "cgw", 3) == 0 && n > 3 && strncmp(msg + n, ": ", 2) == 0)
            msg += n + 2;
        else if (strncmp(msg, "reading: ", 9) == 0)
            msg += 9;
        else
            return tool_esc(msg);
    }
}

/* Four buffers in turn, so that one message may hold four names. */
const char *tool_esc(const char *s)
{
    static char *buf[4];
    static size_t cap[4], turn;
    size_t n = 0, extra = 0;
    int plain = 1;
    if (s == NULL)
        return s;
    for (; s[n] != '\0'; n++) {
        unsigned char c = (unsigned char)s[n];
        plain &= c >= 0x20 && c != 0x7f;
        extra += c < 0x20 || c == 0x7f ? 3 : c == '\\';
    }
    if (plain)
        return s;
    turn = (turn + 1) % 4;
    buf[turn] = tool_grow(buf[turn], &cap[turn], n + extra + 1, 1);
    char *o = buf[turn];
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            o += sprintf(o, "\\x%02x", c);
        else if (c == '\\')
            *o++ = '\\', *o++ = '\\';
        else
            *o++ = (char)c;
    }
    *o = '\0';
    return buf[turn];
}

void *tool_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (q == NULL) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    memset((char *)q + *cap * size, 0, (n - *cap) * size);
    *cap = n;
    return q;
}

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = a * 0x9e3779b97f4a7c15u ^ (b + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u ^
                 (c + 0x2545f4914f6cdd1du) * 0x94d049bb133111ebu;
    h ^= h >> 31;
    h *= 0xd6e8feb86659fd93u;
    return h ^ (h >> 32);
}

uint32_t *tool_map_get(tool_map *m, uint64_t a, uint64_t b, uint64_t c, int *fresh)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        tool_map_slot *s = calloc(cap, sizeof *s);
        if (s == NULL) {
            fputs("out of memory\n", stderr);
            exit(2);
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->s[i].used)
                continue;
            size_t j = mix(m->s[i].a, m->s[i].b, m->s[i].c) & (cap - 1);
            while (s[j].used)
                j = (j + 1) & (cap - 1);
            s[j] = m->s[i];
        }
        free(m->s);
        m->s = s;
        m->cap = cap;
    }
    size_t j = mix(a, b, c) & (m->cap - 1);
    for (;; j = (j + 1) & (m->cap - 1)) {
        tool_map_slot *s = &m->s[j];
        if (!s->used) {
            *s = (tool_map_slot){ a, b, c, 0, 1 };
            m->n++;
            *fresh = 1;
            return &s->v;
        }
        if (s->a == a && s->b == b && s->c == c) {
            *fresh = 0;
            return &s->v;
        }
    }
}
