/* merge-subst.c - names rewritten before they are merged, with the
 * s/RE/REPL/[gi] expressions of cg_annotate's --mod-filename and
 * --mod-funcname: RE is a POSIX extended regular expression, REPL may
 * hold & (the match) and \1..\9 (groups), g rewrites every match and i
 * ignores case.  Any character after 's' may serve as the delimiter. */
#include <regex.h>
#include <string.h>

#include "merge.h"

typedef struct subst {
    regex_t re;
    char *repl;
    int global;
} subst;

/* Copy the field of expr at *pos up to the unescaped delimiter d into
 * out (NUL-terminated; "\d" becomes "d", other escapes are kept). */
static int field(const char *expr, size_t *pos, char d, char *out)
{
    size_t i = *pos, k = 0;
    for (; expr[i] != '\0' && expr[i] != d; i++) {
        if (expr[i] == '\\' && expr[i + 1] == d)
            i++;
        else if (expr[i] == '\\' && expr[i + 1] != '\0')
            out[k++] = expr[i++];
        out[k++] = expr[i];
    }
    out[k] = '\0';
    if (expr[i] != d)
        return -1;
    *pos = i + 1;
    return 0;
}

static int parse(cgw_merger *m, subst *sb, const char *expr, const char *opt)
{
    size_t len = strlen(expr), pos = 2;
    char *re = cgwm_alloc(m, len + 1);
    sb->repl = cgwm_alloc(m, len + 1);
    if (re == NULL || sb->repl == NULL) {
        cgwm_free(m, re);
        return -1;
    }
    int cflags = REG_EXTENDED, bad = len < 2 || expr[0] != 's' || expr[1] == '\0' ||
                                     expr[1] == '\\' || field(expr, &pos, expr[1], re) < 0 ||
                                     field(expr, &pos, expr[1], sb->repl) < 0;
    for (; !bad && expr[pos] != '\0'; pos++) {
        if (expr[pos] == 'g')
            sb->global = 1;
        else if (expr[pos] == 'i')
            cflags |= REG_ICASE;
        else
            bad = 1;
    }
    int rc = bad ? 0 : regcomp(&sb->re, re, cflags);
    if (bad || rc != 0) {
        char why[128] = "expected s/RE/REPL/ with flags g and i";
        if (!bad)
            regerror(rc, &sb->re, why, sizeof why);
        cgwm_fail(m, CGW_EINVAL, "cgw_merge_new", "%s '%s': %s", opt, expr, why);
    }
    cgwm_free(m, re);
    return bad || rc != 0 ? -1 : 0;
}

int cgwm_subst_compile(cgw_merger *m, int which, const char *expr)
{
    static const char *const opt[2] = { "mod_filename", "mod_funcname" };
    subst *sb = cgwm_alloc(m, sizeof *sb);
    if (sb == NULL)
        return -1;
    memset(sb, 0, sizeof *sb);
    if (parse(m, sb, expr, opt[which]) < 0) {
        cgwm_free(m, sb->repl);
        cgwm_free(m, sb);
        return -1;
    }
    m->subst[which] = sb;
    return 0;
}

void cgwm_subst_free(cgw_merger *m, int which)
{
    subst *sb = m->subst[which];
    if (sb == NULL)
        return;
    regfree(&sb->re);
    cgwm_free(m, sb->repl);
    cgwm_free(m, sb);
    m->subst[which] = NULL;
}

/* Append n bytes to the growing output. */
static int put(cgw_merger *m, char **out, size_t *len, size_t *cap, const char *p, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 64;
        while (c < *len + n + 1)
            c *= 2;
        char *q = cgwm_grow(m, *out, c);
        if (q == NULL)
            return -1;
        *out = q;
        *cap = c;
    }
    memcpy(*out + *len, p, n);
    *len += n;
    (*out)[*len] = '\0';
    return 0;
}

/* The replacement of one match of s (groups g). */
static int replace(cgw_merger *m, const subst *sb, const char *s, const regmatch_t *g,
                   char **out, size_t *len, size_t *cap)
{
    int rc = 0;
    for (const char *r = sb->repl; rc == 0 && *r != '\0'; r++) {
        int k = -1;
        if (*r == '&')
            k = 0;
        else if (r[0] == '\\' && r[1] >= '0' && r[1] <= '9')
            k = *++r - '0';
        else if (r[0] == '\\' && r[1] != '\0') /* \& or \\: the next byte as is */
            r++;
        if (k < 0)
            rc = put(m, out, len, cap, r, 1);
        else if (g[k].rm_so >= 0)
            rc = put(m, out, len, cap, s + g[k].rm_so, (size_t)(g[k].rm_eo - g[k].rm_so));
    }
    return rc;
}

int cgwm_subst_apply(cgw_merger *m, int which, const char *s, char **out, size_t *len)
{
    const subst *sb = m->subst[which];
    regmatch_t g[10];
    size_t at = 0, cap = 0, n = strlen(s);
    *out = NULL;
    *len = 0;
    while (at <= n && regexec(&sb->re, s + at, 10, g, at > 0 ? REG_NOTBOL : 0) == 0) {
        if (put(m, out, len, &cap, s + at, (size_t)g[0].rm_so) < 0 ||
            replace(m, sb, s + at, g, out, len, &cap) < 0)
            return -1;
        size_t end = at + (size_t)g[0].rm_eo;
        if (g[0].rm_eo == g[0].rm_so) { /* an empty match moves on a byte */
            if (end < n && put(m, out, len, &cap, s + end, 1) < 0)
                return -1;
            end++;
        }
        at = end;
        if (!sb->global)
            break;
    }
    if (*out == NULL) {
        *out = (char *)s;
        *len = n;
        return 0;
    }
    return at < n ? put(m, out, len, &cap, s + at, n - at) : 0;
}
