/* SPDX-License-Identifier: MIT */
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

/* Copy the field of expr at *pos up to the unescaped delimiter delim
 * into out (NUL-terminated; a backslash before delim is dropped, other
 * escapes are kept). */
static int field(const char *expr, size_t *pos, char delim, char *out)
{
    size_t i = *pos, k = 0;
    for (; expr[i] != '\0' && expr[i] != delim; i++) {
        if (expr[i] == '\\' && expr[i + 1] == delim)
            i++;
        else if (expr[i] == '\\' && expr[i + 1] != '\0')
            out[k++] = expr[i++];
        out[k++] = expr[i];
    }
    out[k] = '\0';
    if (expr[i] != delim)
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

/* Append count bytes from src to the growing output. */
static int put(cgw_merger *m, char **out, size_t *len, size_t *cap, const char *src, size_t count)
{
    if (*len + count + 1 > *cap) {
        size_t want = *cap ? *cap : 64;
        while (want < *len + count + 1)
            want *= 2;
        char *grown = cgwm_grow(m, *out, want);
        if (grown == NULL)
            return -1;
        *out = grown;
        *cap = want;
    }
    memcpy(*out + *len, src, count);
    *len += count;
    (*out)[*len] = '\0';
    return 0;
}

/* The replacement of one match of str (its groups in match). */
static int replace(cgw_merger *m, const subst *sb, const char *str, const regmatch_t *match,
                   char **out, size_t *len, size_t *cap)
{
    int rc = 0;
    for (const char *cursor = sb->repl; rc == 0 && *cursor != '\0'; cursor++) {
        int group = -1;
        if (*cursor == '&')
            group = 0;
        else if (cursor[0] == '\\' && cursor[1] >= '0' && cursor[1] <= '9')
            group = *++cursor - '0';
        else if (cursor[0] == '\\' && cursor[1] != '\0') /* \& or \\: the next byte as is */
            cursor++;
        if (group < 0)
            rc = put(m, out, len, cap, cursor, 1);
        else if (match[group].rm_so >= 0)
            rc = put(m, out, len, cap, str + match[group].rm_so,
                     (size_t)(match[group].rm_eo - match[group].rm_so));
    }
    return rc;
}

int cgwm_subst_apply(cgw_merger *m, int which, const char *str, char **out, size_t *len)
{
    const subst *sb = m->subst[which];
    regmatch_t match[10];
    size_t at = 0, cap = 0, str_len = strlen(str);
    *out = NULL;
    *len = 0;
    while (at <= str_len && regexec(&sb->re, str + at, 10, match, at > 0 ? REG_NOTBOL : 0) == 0) {
        if (put(m, out, len, &cap, str + at, (size_t)match[0].rm_so) < 0 ||
            replace(m, sb, str + at, match, out, len, &cap) < 0)
            return -1;
        size_t end = at + (size_t)match[0].rm_eo;
        if (match[0].rm_eo == match[0].rm_so) { /* an empty match moves on a byte */
            if (end < str_len && put(m, out, len, &cap, str + end, 1) < 0)
                return -1;
            end++;
        }
        at = end;
        if (!sb->global)
            break;
    }
    if (*out == NULL) {
        *out = (char *)str;
        *len = str_len;
        return 0;
    }
    return at < str_len ? put(m, out, len, &cap, str + at, str_len - at) : 0;
}
