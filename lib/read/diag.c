/* SPDX-License-Identifier: MIT */
/* diag.c - the reader's diagnostics: stable codes, severities, the
 * per-code limit, and the sticky error that ends a read. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/message.h"
#include "read.h"

/* The readers a finding is about (cgw_diag_readers()): those that show
 * other numbers than the file says, refuse it or crash on it, as their
 * oracles show (tests/verdicts.py measures it); 0 for a note that names
 * no reader.  An error makes the file invalid, and is taken as a finding
 * for every reader unless the oracles show otherwise (an undefined ID:
 * every reader names it as libcgw does, unnamed). */
#define K CGW_READER_KCACHEGRIND
#define A CGW_READER_CALLGRIND_ANNOTATE
#define G CGW_READER_GPROF2DOT
#define S CGW_READER_SPEEDSCOPE
#define ALL (K | A | G | S)

static const struct {
    const char *name;
    cgw_severity severity;
    unsigned readers;
} codes[CGWR_NCODES] = {
    [CGWR_NUL_BYTE] = { "nul-byte", CGW_ERROR, ALL },
    [CGWR_UNKNOWN_LINE] = { "unknown-line", CGW_ERROR, ALL },
    [CGWR_BAD_NUMBER] = { "bad-number", CGW_ERROR, ALL },
    [CGWR_BAD_VERSION] = { "bad-version", CGW_ERROR, ALL },
    [CGWR_MISSING_EVENTS] = { "missing-events", CGW_ERROR, ALL },
    [CGWR_COST_BEFORE_EVENTS] = { "cost-before-events", CGW_ERROR, ALL },
    [CGWR_COST_BEFORE_FUNCTION] = { "cost-before-function", CGW_ERROR, ALL },
    [CGWR_SUMMARY_BEFORE_EVENTS] = { "summary-before-events", CGW_ERROR, ALL },
    [CGWR_POSITIONS_AFTER_EVENTS] = { "positions-after-events", CGW_ERROR, ALL },
    [CGWR_TOO_MANY_COSTS] = { "too-many-costs", CGW_ERROR, ALL },
    [CGWR_CALL_WITHOUT_COST] = { "call-without-cost", CGW_ERROR, ALL },
    [CGWR_UNDEFINED_ID] = { "undefined-id", CGW_ERROR, 0 },
    [CGWR_ID_REDEFINED] = { "id-redefined", CGW_ERROR, ALL },
    [CGWR_NEGATIVE_POSITION] = { "negative-position", CGW_ERROR, ALL },
    [CGWR_TOTALS_MISMATCH] = { "totals-mismatch", CGW_ERROR, ALL },
    [CGWR_OVERFLOW] = { "overflow", CGW_ERROR, ALL },
    [CGWR_SYNTAX] = { "syntax", CGW_ERROR, ALL },
    [CGWR_NO_CALLEE] = { "no-callee", CGW_ERROR, ALL },
    [CGWR_EVENTS_REDEFINED] = { "events-redefined", CGW_ERROR, ALL },
    [CGWR_CR] = { "carriage-return", CGW_WARNING, A|S },
    [CGWR_TAB] = { "tab", CGW_WARNING, K|G },
    [CGWR_BLANK] = { "blank", CGW_WARNING, S },
    [CGWR_NO_FINAL_NEWLINE] = { "no-final-newline", CGW_WARNING, 0 },
    [CGWR_NO_FORMAT_LINE] = { "no-format-line", CGW_WARNING, 0 },
    [CGWR_HEADER_ORDER] = { "header-order", CGW_WARNING, 0 },
    [CGWR_KEY_WITHOUT_SPACE] = { "key-without-space", CGW_WARNING, A },
    [CGWR_NONPORTABLE_HEADER] = { "nonportable-header", CGW_WARNING, 0 },
    [CGWR_NO_POSITIONS] = { "no-positions", CGW_WARNING, 0 },
    [CGWR_POSITIONS_NOT_LINE] = { "positions-not-line", CGW_WARNING, S },
    [CGWR_SEVERAL_PARTS] = { "several-parts", CGW_WARNING, A|S },
    [CGWR_FEW_COSTS] = { "few-costs", CGW_WARNING, S },
    [CGWR_HEX_COST] = { "hex-cost", CGW_WARNING, A|G },
    [CGWR_UPPERCASE_HEX] = { "uppercase-hex", CGW_WARNING, 0 },
    [CGWR_ID_SAME_REDEFINED] = { "id-defined-twice", CGW_WARNING, S },
    [CGWR_ID_LEADING_ZERO] = { "id-leading-zero", CGW_WARNING, 0 },
    [CGWR_PAREN_NAME] = { "paren-name", CGW_WARNING, 0 },
    [CGWR_NAME_BLANK] = { "name-blank", CGW_WARNING, K|A },
    [CGWR_RELATIVE_FIRST] = { "relative-first", CGW_WARNING, 0 },
    [CGWR_CALLS_ZERO] = { "calls-zero", CGW_WARNING, A },
    [CGWR_LINE_IN_CALL] = { "line-in-call", CGW_WARNING, G|S },
    [CGWR_CALL_WITHOUT_CFN] = { "call-without-cfn", CGW_WARNING, K },
    [CGWR_CALLEE_SPEC_AFTER_CFN] = { "callee-spec-after-cfn", CGW_WARNING, 0 },
    [CGWR_CALLEE_WITHOUT_BLOCK] = { "callee-without-block", CGW_WARNING, 0 },
    [CGWR_SPLIT_FUNCTION] = { "split-function", CGW_WARNING, 0 },
    [CGWR_UNCLOSED_INLINE] = { "unclosed-inline", CGW_WARNING, A },
    [CGWR_NONPORTABLE_LINE] = { "nonportable-line", CGW_WARNING, S },
    [CGWR_SUMMARY_MISMATCH] = { "summary-mismatch", CGW_WARNING, A },
    [CGWR_SUMMARY_LOW] = { "summary-low", CGW_WARNING, A },
    [CGWR_BIG_VALUE] = { "big-value", CGW_WARNING, G|S },
    [CGWR_NAME_CLASH] = { "name-clash", CGW_WARNING, 0 },
    [CGWR_MANY_EVENTS] = { "many-events", CGW_ERROR, ALL },
    [CGWR_INCLUSIVE_EXCESS] = { "inclusive-excess", CGW_WARNING, 0 },
    [CGWR_INLINE_BEFORE_FUNCTION] = { "inline-before-function", CGW_WARNING, A },
    [CGWR_INVALID_UTF8] = { "invalid-utf8", CGW_WARNING, G },
    [CGWR_UNKNOWN_HEADER] = { "unknown-header", CGW_WARNING, 0 },
    [CGWR_HEADER_IN_BODY] = { "header-in-body", CGW_WARNING, 0 },
    [CGWR_EMPTY_NAME] = { "empty-name", CGW_WARNING, A },
    [CGWR_JUMP_COSTS] = { "jump-costs", CGW_WARNING, 0 },
    [CGWR_DUPLICATE_EVENT] = { "duplicate-event", CGW_WARNING, 0 },
    [CGWR_BAD_FORMULA] = { "bad-formula", CGW_WARNING, 0 },
    [CGWR_EVENT_NAME] = { "event-name", CGW_WARNING, 0 },
    [CGWR_CR_IN_LINE] = { "cr-in-line", CGW_WARNING, 0 },
    [CGWR_JUMP_FOLLOWED] = { "jump-followed", CGW_ERROR, ALL },
    [CGWR_DESC_TYPE] = { "desc-type", CGW_WARNING, 0 },
    [CGWR_REPEATED_KEY] = { "repeated-key", CGW_WARNING, 0 },
    [CGWR_POSITIONS_ORDER] = { "positions-order", CGW_ERROR, ALL },
    [CGWR_EMPTY_FUNCTION] = { "empty-function", CGW_ERROR, ALL },
    [CGWR_HEX_ID] = { "hex-id", CGW_WARNING, A | G | S },
    [CGWR_INDENTED_COST] = { "indented-cost", CGW_ERROR, ALL },
    [CGWR_HEX_PREFIX] = { "hex-prefix", CGW_ERROR, ALL },
    [CGWR_OB_IN_FUNCTION] = { "ob-in-function", CGW_WARNING, K },
    [CGWR_HEX_STEP] = { "hex-step", CGW_WARNING, A | G },
    [CGWR_GZIP_INPUT] = { "gzip-input", CGW_WARNING, K | A | G | S },
    [CGWR_CHECK_EVENTS_CUT] = { "check-events-cut", CGW_WARNING, 0 },
    [CGWR_BIG_POSITION] = { "big-position", CGW_WARNING, 0 },
    [CGWR_CFI_SAME_FILE] = { "cfi-same-file", CGW_WARNING, A },
    [CGWR_LINE_TOO_LONG] = { "line-too-long", CGW_ERROR, ALL },
    [CGWR_NOT_PROFILE] = { "not-a-profile", CGW_ERROR, ALL },
    [CGWR_UNCLOSED_ID] = { "unclosed-id", CGW_ERROR, ALL },
    [CGWR_VERSION_TEXT] = { "version-text", CGW_WARNING, 0 },
    [CGWR_APPENDED_PROFILE] = { "appended-profile", CGW_WARNING, 0 },
    [CGWR_TRAILING_BLANK] = { "trailing-blank", CGW_WARNING, 0 },
    [CGWR_NO_POSITION_COLUMN] = { "no-position-column", CGW_WARNING, A | S },
    [CGWR_BB_POSITIONS] = { "bb-positions", CGW_WARNING, K },
    [CGWR_ID_NAME_BLANK] = { "id-name-blank", CGW_WARNING, 0 },
    [CGWR_SUMMARY_ZERO] = { "summary-zero", CGW_WARNING, 0 },
    [CGWR_SHORT_SUMMARY] = { "short-summary", CGW_WARNING, 0 },
    [CGWR_DEFINITION_ONLY] = { "definition-only", CGW_WARNING, K | A },
    [CGWR_ONE_POSITION_NOT_LINE] = { "instr-positions", CGW_WARNING, 0 },
    [CGWR_CFN_WITHOUT_CALL] = { "cfn-without-call", CGW_WARNING, K },
    [CGWR_CALL_ABOVE_TOTAL] = { "call-above-total", CGW_WARNING, 0 },
    [CGWR_FLAME_TOTAL] = { "flame-total", CGW_WARNING, S },
    [CGWR_EVENTS_BLANK] = { "events-blank", CGW_WARNING, S },
    [CGWR_BASENAME_CLASH] = { "basename-clash", CGW_WARNING, K },
    [CGWR_JUMP_TARGET] = { "jump-target", CGW_WARNING, G },
    [CGWR_ABSOLUTE_CFI] = { "absolute-cfi", CGW_WARNING, A },
    [CGWR_CONTROL_IN_NAME] = { "control-in-name", CGW_WARNING, 0 },
};

unsigned cgw_diag_readers(const char *code)
{
    for (size_t i = 0; code != NULL && i < CGWR_NCODES; i++)
        if (codes[i].name != NULL && strcmp(codes[i].name, code) == 0)
            return codes[i].readers;
    return 0;
}

static void emit(cgw_reader *r, uint64_t line, int code, const char *msg)
{
    if (r->diag == NULL)
        return;
    cgw_diagnostic diagnostic = { line, codes[code].severity, codes[code].name, msg };
    r->diag(r->diag_ctx, &diagnostic);
}

/* vsnprintf is fine here: diagnostics are rare and capped per code. */
void cgwr_diag(cgw_reader *r, uint64_t line, int code, const char *fmt, ...)
{
    if (codes[code].severity == CGW_ERROR)
        r->nerrors++;
    else
        r->nwarnings++;
    if (++r->count[code] > CGWR_SHOWN_PER_CODE || r->diag == NULL)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emit(r, line, code, msg);
}

/* At the end of the input: one line per code that hit the limit. */
void cgwr_diag_flush(cgw_reader *r)
{
    for (int code = 0; code < CGWR_NCODES; code++) {
        if (r->count[code] <= CGWR_SHOWN_PER_CODE)
            continue;
        char msg[96];
        snprintf(msg, sizeof msg, "%llu more like this not shown",
                 (unsigned long long)(r->count[code] - CGWR_SHOWN_PER_CODE));
        emit(r, 0, code, msg);
    }
}

cgw_status cgwr_fail(cgw_reader *r, cgw_status st, const char *fmt, ...)
{
    CGWP_STICKY(st, &r->err, r->msg, sizeof r->msg, NULL, fmt);
    return st;
}

void cgw_reader_counts(const cgw_reader *r, uint64_t *errors, uint64_t *warnings)
{
    if (errors)
        *errors = r ? r->nerrors : 0;
    if (warnings)
        *warnings = r ? r->nwarnings : 0;
}

const char *cgw_reader_errmsg(const cgw_reader *r)
{
    return r == NULL ? "no reader (NULL)" : r->msg;
}
