/* SPDX-License-Identifier: MIT */
/* emit.c - what a parsed body line does (emit.h): the out-of-line
 * part, the name lines (a function block, an inline file, a callee),
 * and the end and reset of the body state. */
#include <string.h>
#include <unistd.h>

#include "emit.h"

const char *const cgwr_key_text[CGWR_KEY_NONE] = { "ob", "cob", "fl", "fi", "fe", "cfi",
                                       "cfl", "cfe", "jfi", "fn", "cfn", "jfn" };

/* A total passed 2^64-1 while costs were added: it stays there. */
CGWP_COLD void cgwr_totals_overflow(cgw_reader *r, const uint64_t *costs)
{
    uint64_t *totals = r->part.totals;
    for (size_t i = 0; i < r->nevents; i++) {
        if (totals[i] < costs[i]) {
            cgwr_diag(r, r->lineno, CGWR_OVERFLOW,
                      "the total of %s passes 2^64-1", r->part.events[i].name);
            totals[i] = UINT64_MAX;
        }
    }
}

/* The record of the cost line of the pending call or jump, unless the
 * caller skips its kind; its checks either way. */
CGWP_COLD void cgwr_emit_call(cgw_reader *r, const uint64_t *pos, uint64_t *costs)
{
    cgwr_pending *call = &r->call;
    cgw_record_kind kind = call->kind;
    if (!(r->skip & CGW_SKIP(kind))) {
        cgw_record *rec = cgwr_position_record(r, kind, pos, costs);
        uint64_t *tp = r->tpos[rec - r->q];
        memcpy(tp, call->target_pos, sizeof call->target_pos);
        rec->target = (cgw_target){ call->ob ? call->ob->s : NULL, call->fl->s, call->fn->s };
        rec->target_pos = tp;
        rec->line = call->line;
        rec->count = call->count;
        rec->executed = call->executed;
        if (kind != CGW_REC_CALL)
            rec->costs = NULL;
    }
    if (kind == CGW_REC_CALL) {
        cgwr_count_call(r, call->ob, call->fl, call->fn, call->line, costs);
    } else {
        for (size_t i = 0; i < r->nevents; i++)
            if (costs[i] != 0) {
                cgwr_diag(r, r->lineno, CGWR_JUMP_COSTS,
                          "costs on the source line of a jump are ignored");
                break;
            }
    }
    call->kind = 0;
}

/* The record of a function or inline-file line, unless the caller
 * skips its kind: the fast path then goes on to the next line instead of
 * handing a record back to cgw_reader_next() to drop.  The part is
 * announced either way. */
static void name_record(cgw_reader *r, cgw_record_kind kind)
{
    if (!(r->skip & CGW_SKIP(kind)))
        cgwr_record(r, kind);
    else if (!r->part.announced)
        cgwr_announce_part(r);
}

/* What follows the last '/' of name ("" for none): KCachegrind's
 * short name of a file or object. */
static const char *base_name(const cgwr_str *name)
{
    if (name == NULL)
        return "";
    const char *slash = strrchr(name->s, '/');
    return slash ? slash + 1 : name->s;
}

/* A function block starts: the first body line after fn=, with the
 * object and file that were current at the fn= line, r->lineno that
 * line's. */
static void function_line(cgw_reader *r, const cgwr_str *name, const cgwr_str *ob,
                          const cgwr_str *fl)
{
    if (r->pending_fi != NULL)
        cgwr_diag(r, r->pending_fi_line, CGWR_INLINE_BEFORE_FUNCTION,
                  "fi= before fn=: the function's file is the fl= one, %s, as KCachegrind "
                  "reads it (callgrind_annotate aborts, gprof2dot and speedscope ignore fi=)",
                  fl->s);
    r->pending_fi = NULL;
    int fn_index = cgwr_function(r, ob, fl, name, r->lineno);
    if (fn_index < 0)
        return;
    cgwr_fn *func = r->fns[fn_index];
    if (func->blocks == 0) {
        r->part.functions++;
        func->first_line = r->lineno;
    }
    if (fn_index != r->fn_index && func->blocks++ > 0)
        cgwr_diag(r, r->lineno, CGWR_SPLIT_FUNCTION,
                      "function %s has a second block (first at line %llu); "
                      "Xdebug-style readers keep only one", name->s,
                      (unsigned long long)func->first_line);
    r->fn = name;
    r->fn_index = fn_index;
    if ((r->flags & CGW_READ_CHECK) && r->nevents > 0)
        memcpy(r->block_start, r->part.totals, r->nevents * sizeof *r->block_start);
    r->cur_ob = ob;
    r->cur_fl = r->fi = fl;
    r->first_in_block = 1;
    if (name->fn_part != r->part.pub.index) {
        ((cgwr_str *)name)->fn_part = r->part.pub.index;
        ((cgwr_str *)name)->fn_index = (uint32_t)fn_index;
    } else if (name->fn_index != (uint32_t)fn_index) {
        const cgwr_fn *other = r->fns[name->fn_index];
        if (other->ob != func->ob || other->fl != func->fl)
            cgwr_diag(r, r->lineno, CGWR_NAME_CLASH,
                      "function %s also exists in another file or object (line %llu); "
                      "gprof2dot merges them", name->s, (unsigned long long)other->first_line);
        if ((other->ob != func->ob || other->fl != func->fl) &&
            strcmp(base_name(other->ob), base_name(func->ob)) == 0 &&
            strcmp(base_name(other->fl), base_name(func->fl)) == 0)
            cgwr_diag(r, r->lineno, CGWR_BASENAME_CLASH,
                      "function %s is also in %s (line %llu), a file of the same base name: "
                      "KCachegrind takes them for one function (it tells functions by name "
                      "and the base names of their file and object)", name->s, other->fl->s,
                      (unsigned long long)other->first_line);
    }
    name_record(r, CGW_REC_FUNCTION);
}

/* fn=: the previous block ends; this one starts at its first body line
 * (cgwr_open_function()), so that a name defined alone is no function. */
static void defer_function(cgw_reader *r, const cgwr_str *name)
{
    cgwr_body_end(r);
    cgwr_definition_only(r);
    r->fn = NULL;
    r->pending_fn = name;
    r->pending_fn_ob = r->ob;
    r->pending_fn_fl = r->fl;
    r->pending_fn_line = r->lineno;
    r->pending_ob_line = 0;
}

/* ob= between fn= and the first body line of its block */
static void ob_in_function(cgw_reader *r, uint64_t line)
{
    cgwr_diag(r, line, CGWR_OB_IN_FUNCTION,
              "ob= between fn= and its costs (KCachegrind drops the function there, "
              "and gives its costs to one with no name; write ob= before fn=)");
}

/* A pending fn= that no body line followed: a name defined alone. */
void cgwr_definition_only(cgw_reader *r)
{
    if (r->fn == NULL && r->pending_fn != NULL &&
        !cgwr_warning_counted(r, CGWR_DEFINITION_ONLY))
        cgwr_diag(r, r->pending_fn_line, CGWR_DEFINITION_ONLY,
                  "fn= %s has no block: a name defined alone, no function (KCachegrind makes "
                  "a function of it, in the file of the last fl=, and puts there the "
                  "later blocks that name it by its ID)", r->pending_fn->s);
}

CGWP_COLD int cgwr_open_function(cgw_reader *r)
{
    if (r->pending_fn == NULL)
        return 0;
    const cgwr_str *name = r->pending_fn;
    uint64_t line = r->lineno;
    r->pending_fn = NULL;
    r->lineno = r->pending_fn_line;
    function_line(r, name, r->pending_fn_ob, r->pending_fn_fl);
    r->lineno = line;
    if (r->pending_ob_line != 0 && r->fn != NULL)
        ob_in_function(r, r->pending_ob_line);
    return r->fn != NULL;
}

/* fi= / fe=: later costs come from another file.  Before any cost of a
 * block, KCachegrind-style, fi= names the file of the next fn=. */
static void inline_line(cgw_reader *r, const cgwr_str *name, int is_fe)
{
    if (r->fn == NULL)
        cgwr_open_function(r); /* the block of a pending fn= starts here */
    r->pending_fi = is_fe ? NULL : name;
    r->pending_fi_line = r->lineno;
    r->inline_costs = 0;
    if (r->fn == NULL)
        return;
    r->fi = name;
    name_record(r, CGW_REC_INLINE);
}

/* Whether the absolute path is inside the process's working folder,
 * kept in the name (cgwr_in_cwd()): callgrind_annotate strips that
 * folder from fl= names only, so that a cfi= of it names another file
 * where it is run there, and the same file anywhere else (ruby-prof's
 * and Xdebug's files of /usr/lib/ruby or /var/www, looked at from a home
 * folder). */
CGWP_COLD int cgwr_note_cwd(cgwr_str *name)
{
    char here[4096];
    size_t len = getcwd(here, sizeof here) ? strlen(here) : 0;
    /* in the root folder it strips nothing ("//" is no prefix) */
    int in = len > 1 && strncmp(name->s, here, len) == 0 && name->s[len] == '/';
    name->in_cwd = in ? 2 : 1;
    return in;
}

/* cob= or cfi=: the object or file of the callee named next.  After
 * cfn= it is too late: KCachegrind and callgrind_annotate bind the
 * callee at cfn= (KCachegrind then drops the line at the call), and so
 * does libcgw. */
static void callee_spec(cgw_reader *r, const cgwr_str **slot, const cgwr_str *name)
{
    if (r->cfn_fresh) {
        cgwr_diag(r, r->lineno, CGWR_CALLEE_SPEC_AFTER_CFN,
                  "cob=/cfi= after cfn= is ignored: KCachegrind and callgrind_annotate bind "
                  "the callee at cfn=");
        return;
    }
    /* inside an fi= file the readers disagree on the current one: there
     * a cfi= of it is needed */
    if (slot == &r->cfi && cgwr_in_cwd(name)) {
        if (r->fn == NULL && r->pending_fn != NULL ? name == r->pending_fn_fl
                                                   : cgwr_cfi_same_file(r, slot, name))
            cgwr_diag(r, r->lineno, CGWR_CFI_SAME_FILE,
                      "cfi= names the caller's own file, in the working folder: "
                      "callgrind_annotate run here strips this folder from fl= names but not "
                      "from cfi= ones, and loses these callers; leave cfi= out");
        else
            cgwr_diag(r, r->lineno, CGWR_ABSOLUTE_CFI,
                      "cfi= names %s, in the working folder, by its absolute path: "
                      "callgrind_annotate run here strips this folder from fl= names but not "
                      "from cfi= ones, and loses the calls into its functions", name->s);
    }
    *slot = name;
}

/* What a name line does once its name is read (cgwr_key_text[key]= ...). */
void cgwr_spec_apply(cgw_reader *r, enum cgwr_spec_key key, const cgwr_str *name)
{
    /* a line of the block opens a pending fn= (ob=, fl= and fn= do not:
     * they may start the next block; fi= and fe= open it themselves; nor
     * do cob=, cfi= and cfn=: they name the callee of a calls= to come,
     * which opens it, and without one they make no block, so that a
     * block of "cfn=" alone is a name defined alone, as the tools that
     * write what they read keep it, not a function they would drop) */
    if (r->fn == NULL && r->pending_fn != NULL && key != CGWR_KEY_OB && key != CGWR_KEY_FL &&
        key != CGWR_KEY_FN && key != CGWR_KEY_FI && key != CGWR_KEY_FE &&
        key != CGWR_KEY_COB && key != CGWR_KEY_CFI && key != CGWR_KEY_CFL &&
        key != CGWR_KEY_CFE && key != CGWR_KEY_CFN)
        cgwr_open_function(r);
    switch (key) {
    case CGWR_KEY_OB:
        if (r->fn == NULL && r->pending_fn != NULL && r->pending_ob_line == 0)
            r->pending_ob_line = r->lineno; /* said if a body line follows */
        else if (r->fn != NULL && r->first_in_block)
            ob_in_function(r, r->lineno);
        r->ob = name == r->no_object ? NULL : name;
        break;
    case CGWR_KEY_FL:
        r->fl = name;
        break;
    case CGWR_KEY_FN:
        defer_function(r, name);
        break;
    case CGWR_KEY_FI:
    case CGWR_KEY_FE:
        inline_line(r, name, key == CGWR_KEY_FE);
        break;
    case CGWR_KEY_COB:
        callee_spec(r, &r->cob, name);
        break;
    case CGWR_KEY_CFE:
        cgwr_diag(r, r->lineno, CGWR_NONPORTABLE_LINE, "cfe= is read as cfi=");
        /* fall through */
    case CGWR_KEY_CFI:
    case CGWR_KEY_CFL:
        if (key != CGWR_KEY_CFE)
            r->ss_cfi = r->empty_line == r->lineno ? NULL : name;
        callee_spec(r, &r->cfi, name);
        break;
    case CGWR_KEY_CFN:
        r->cfn = name;
        r->cfn_fresh = 1;
        break;
    case CGWR_KEY_JFI:
    case CGWR_KEY_JFN:
        if (key == CGWR_KEY_JFI)
            cgwr_kcachegrind_only(r, cgwr_key_text[key], strlen(cgwr_key_text[key]));
        else if (!cgwr_warning_counted(r, CGWR_JUMP_TARGET))
            cgwr_diag(r, r->lineno, CGWR_JUMP_TARGET,
                      "jfn= (a jump into another function) is read by KCachegrind only: "
                      "gprof2dot throws on it");
        if (key == CGWR_KEY_JFI)
            r->jfi = name;
        else
            r->jfn = name;
        break;
    case CGWR_KEY_NONE:
        break;
    }
}

/* The end of a function block (fn= or the end of the part). */
void cgwr_body_end(cgw_reader *r)
{
    if (r->flags & CGW_READ_CHECK)
        cgwr_check_block(r);
    if (r->cfn_fresh && r->cfn != NULL) { /* this block's: a call clears it */
        cgwr_diag(r, r->lineno, CGWR_CFN_WITHOUT_CALL,
                  "cfn=%s has no calls= after it: no call and no function (KCachegrind "
                  "makes a function of it, and of an fn= whose block has only cfn= lines, "
                  "with no cost)",
                  r->cfn->s);
        r->cfn_fresh = 0;
    }
    if (r->call.kind) {
        cgwr_diag(r, r->call.line, CGWR_CALL_WITHOUT_COST,
                  "%s is not followed by its cost line",
                  r->call.kind == CGW_REC_CALL ? "calls=" : "a jump");
        r->call.kind = 0;
    }
    if (r->fn != NULL && r->fi != r->cur_fl && r->inline_costs)
        cgwr_diag(r, r->lineno, CGWR_UNCLOSED_INLINE,
                  "function %s ends inside the inlined file %s; close it with fe= "
                  "(callgrind_annotate keeps it for the next function)", r->fn->s, r->fi->s);
}

void cgwr_body_reset(cgw_reader *r)
{
    r->ob = r->cur_ob = NULL;
    r->fl = r->cur_fl = r->fi = r->unknown;
    r->fn = NULL;
    r->fn_index = -1;
    r->cob = r->cfi = r->cfn = r->jfi = r->jfn = r->ss_cfi = NULL;
    r->cfn_fresh = 0;
    r->pending_fi = NULL;
    r->pending_fn = NULL;
    r->inline_costs = 0;
    memset(r->base, 0, sizeof r->base);
    r->first_in_block = 1;
    r->seen_cost = 0;
    memset(&r->call, 0, sizeof r->call);
}
