/* SPDX-License-Identifier: MIT */
/* pos.c - subpositions.  Relative forms (+N, -N, *) count from the
 * previous cost line, call and jump source lines included; a call or jump
 * target never moves that base.  The first line after fn= is absolute.
 * By default targets are absolute (they point into another function);
 * CGW_COMPACT writes whichever form is shorter, preferring relative on a
 * tie, as the spec's own example does.  A step of 2^31 or more either way
 * is written absolute in every mode: KCachegrind reads steps as 32 bits.
 * cgwp_pos() in write.h writes every case but the steps it gives up
 * (cgwp_pos_steps(), here), with compact mode's choice cgwp_shortest(). */
#include "write.h"

/* Whether the step from base to value is below 2^31 either way:
 * KCachegrind reads a step as a signed 32-bit number, so a larger one is
 * written absolute. */
static int step_fits(uint64_t value, uint64_t base)
{
    uint64_t step = value >= base ? value - base : base - value;
    return step < (uint64_t)1 << 31;
}

/* A cost or source line's subpositions from a valid base, with
 * positions compressed, when cgwp_pos() gives them up: a step of 2^31 or
 * more, or in compact mode one that is not plainly the shorter.  Each is
 * written as the mode wants, and the line becomes the base. */
char *cgwp_pos_steps(cgw_writer *w, char *out, const uint64_t *pos)
{
    int compact = (w->flags & CGW_COMPACT) != 0;
    for (int i = 0; i < w->npos; i++) {
        /* instruction and basic-block addresses are hex, as Callgrind writes them */
        int hex = i < w->nhex;
        if (i > 0)
            *out++ = ' ';
        if (compact)
            out = cgwp_shortest(out, pos[i], w->base[i], hex);
        else if (!step_fits(pos[i], w->base[i]))
            out = cgwp_pos_abs(out, pos[i], hex);
        else
            out = cgwp_pos_step(out, pos[i], w->base[i]);
    }
    for (int i = 0; i < w->npos; i++)
        w->base[i] = pos[i];
    return out;
}
