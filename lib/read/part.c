/* SPDX-License-Identifier: MIT */
/* part.c - the lifecycle of a part in one place: it starts (with the
 * input, or at a part: or other header line after a body), each line goes
 * to the header (header.c) or the body (body.c), and it ends (at the next
 * part or the end of the input) with the end of its last function block,
 * the part's record if none was given yet, the whole-part checks and the
 * comparison of totals: and summary: with the sums.  The fast path
 * (fast.c) takes the lines it can before any reaches cgwr_line(). */
#include <string.h>

#include "emit.h"
#include "scan.h"

/* Open the next part (the previous one has ended), which inherits the
 * header but not the descs, thread, summary, totals or names. */
void cgwr_part_start(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    cgwr_ids_reset(r);
    cgwr_body_reset(r);
    pt->pub.index++;
    pt->pub.number = pt->pub.index;
    pt->pub.ndescs = 0;
    pt->pub.has_thread = 0;
    pt->pub.summary = NULL;
    pt->has_summary = pt->has_totals_line = 0;
    pt->has_events = pt->has_positions = pt->body = pt->announced = 0;
    pt->first_line = pt->totals_line_no = 0;
    pt->cost_lines = pt->calls = pt->functions = 0;
    if (pt->totals)
        memset(pt->totals, 0, (r->nevents ? r->nevents : 1) * sizeof *pt->totals);
    if (pt->pub.index == 2)
        cgwr_diag(r, r->lineno, CGWR_SEVERAL_PARTS,
                  "a second part; speedscope rejects several parts and callgrind_annotate "
                  "merges them");
}


/* A line that is neither blank nor a comment, leading blanks removed. */
static void content_line(cgw_reader *r, const char *cur, size_t len)
{
    const char *end = cur + len;
    if (cgwr_starts_position(cur[0])) {
        cgwr_position_line(r, cur, end);
        return;
    }
    if (r->call.kind) {
        cgwr_diag(r, r->call.line, CGWR_CALL_WITHOUT_COST,
                  "%s is not followed by its cost line (line %llu is not one)",
                  r->call.kind == CGW_REC_CALL ? "calls=" : "a jump",
                  (unsigned long long)r->lineno);
        r->call.kind = 0;
    }
    const char *line = cur;
    while (cur < end && ((*cur >= 'a' && *cur <= 'z') || (*cur >= 'A' && *cur <= 'Z')))
        cur++;
    if (cur < end && *cur == '=' && cur > line) {
        r->part.body = 1;
        cgwr_spec_line(r, line, (size_t)(cur - line), cur + 1, end);
        return;
    }
    int header = cgwr_header_line(r, line, len);
    if (header == 2) {
        cgwr_part_end(r);
        r->replay = 1;
    }
    if (header == 0 && len >= 23 && memcmp(line, "==== NEW PROFILING FILE", 23) == 0)
        cgwr_diag(r, r->lineno, CGWR_APPENDED_PROFILE,
                  "Xdebug 2 appended another profile here: it is read as the next part "
                  "(KCachegrind reads it so, after an \"Invalid line\")");
    else if (header == 0)
        cgwr_diag(r, r->lineno, CGWR_UNKNOWN_LINE, "unknown line \"%.*s\"",
                  cgwr_clip(line, end, 40), line);
}

void cgwr_line(cgw_reader *r, const char *line, size_t len)
{
    if (len > 0 && line[0] != '#')
        r->saw_text = 1;
    if (len > 0 && cgwr_blank(line[len - 1]))
        cgwr_trailing_blank(r, line);
    if (len > 0 && cgwr_blank(line[0])) {
        const char *cur = line;
        while (len > 0 && cgwr_blank(*cur)) {
            cur++;
            len--;
        }
        line = cur;
        if (len > 0 && cgwr_starts_position(line[0])) {
            cgwr_diag(r, r->lineno, CGWR_INDENTED_COST,
                      "a cost line that starts with a blank; every known reader drops it, "
                      "and so does libcgw");
            return;
        }
        if (len > 0)
            cgwr_diag(r, r->lineno, CGWR_BLANK, "leading blank");
    }
    if (len == 0 || line[0] == '#') {
        if (r->lineno == 1 && len >= 18 && memcmp(line, "# callgrind format", 18) == 0)
            r->saw_format_line = 1;
        if (r->call.kind && !r->call.saw_blank) {
            r->call.saw_blank = 1;
            cgwr_diag(r, r->lineno, CGWR_LINE_IN_CALL,
                      "a blank or comment line between calls= and its cost line "
                      "(gprof2dot and speedscope lose the call)");
        }
        return;
    }
    content_line(r, line, len);
}

static void compare_totals(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    const cgw_event *ev = pt->events;
    for (size_t i = 0; pt->has_totals_line && i < r->nevents; i++) {
        if (pt->totals_line[i] != pt->totals[i]) {
            cgwr_diag(r, pt->totals_line_no, CGWR_TOTALS_MISMATCH,
                      "totals: gives %llu %s but the cost lines of part %u sum to %llu",
                      (unsigned long long)pt->totals_line[i], ev[i].name, pt->pub.index,
                      (unsigned long long)pt->totals[i]);
            break;
        }
    }
    int zero = pt->has_summary;
    for (size_t i = 0; zero && i < r->nevents; i++)
        zero = pt->summary[i] == 0;
    if (zero) { /* callgrind_annotate then takes totals: or the sum */
        for (size_t i = 0; i < r->nevents; i++)
            if (pt->totals[i] != 0) {
                cgwr_diag(r, pt->first_line, CGWR_SUMMARY_ZERO,
                          "summary: 0, the cost lines sum to more (every reader takes the "
                          "sum)");
                break;
            }
        return;
    }
    for (size_t i = 0; pt->has_summary && i < r->nevents; i++) {
        if (pt->summary[i] < pt->totals[i]) {
            cgwr_diag(r, pt->first_line, CGWR_SUMMARY_LOW,
                      "summary: gives %llu %s, less than the %llu the cost lines sum to "
                      "(callgrind_annotate shows more than 100%%)",
                      (unsigned long long)pt->summary[i], ev[i].name,
                      (unsigned long long)pt->totals[i]);
            return;
        }
    }
    for (size_t i = 0; pt->has_summary && i < r->nevents; i++) {
        if (pt->summary[i] != pt->totals[i]) {
            cgwr_diag(r, pt->first_line, CGWR_SUMMARY_MISMATCH,
                      "summary: gives %llu %s, the cost lines sum to %llu",
                      (unsigned long long)pt->summary[i], ev[i].name,
                      (unsigned long long)pt->totals[i]);
            return;
        }
    }
}

void cgwr_part_end(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    cgwr_body_end(r);
    cgwr_definition_only(r);
    if (r->nevents == 0)
        cgwr_diag(r, pt->first_line ? pt->first_line : r->lineno, CGWR_MISSING_EVENTS,
                  "part %u has no events: line", pt->pub.index);
    else if (!pt->has_events && pt->body)
        cgwr_diag(r, pt->first_line ? pt->first_line : r->lineno, CGWR_MISSING_EVENTS,
                  "part %u has no events: line of its own (KCachegrind forgets the events "
                  "at a new part and crashes on its costs)", pt->pub.index);
    cgwr_announce_part(r);
    if (r->flags & CGW_READ_CHECK)
        cgwr_check_part(r);
    compare_totals(r);
    cgw_record *rec = cgwr_push(r, CGW_REC_PART_END,
                                pt->has_totals_line ? pt->totals_line_no : r->lineno);
    rec->costs = pt->totals;
    rec->totals_line = pt->has_totals_line ? pt->totals_line : NULL;
    rec->summary = pt->has_summary ? pt->summary : NULL;
    rec->cost_lines = pt->cost_lines;
    rec->calls = pt->calls;
    rec->functions = pt->functions;
}

void cgwr_part_free(cgw_reader *r)
{
    cgwr_part *pt = &r->part;
    void *blocks[] = { pt->descs, pt->events, pt->derived, pt->summary, pt->totals_line,
                       pt->totals, pt->scratch, r->block_start, r->run_start, r->costs[0],
                       r->costs[1], r->costs[2] };
    cgwp_free_all(&r->alloc, blocks, sizeof blocks / sizeof *blocks);
}
