/* pos.c - subpositions.  Relative forms (+N, -N, *) count from the
 * previous cost line, call and jump source lines included; a call or jump
 * target never moves that base.  The first line after fn= is absolute.
 * By default targets are absolute (they point into another function);
 * CGW_COMPACT writes whichever form is shorter, preferring relative on a
 * tie, as the spec's own example does.  The portable relative case is
 * cgwp_pos() in write.h; this file does every case. */
#include "write.h"

static char *absolute(char *p, uint64_t v, int hex)
{
    return hex ? cgwp_fmt_hex(p, v) : cgwp_fmt_dec(p, v);
}

static char *shortest(char *p, uint64_t v, uint64_t base, int hex)
{
    unsigned rel = v == base ? 1 : 1 + cgwp_dec_len(v > base ? v - base : base - v);
    unsigned abs = hex ? cgwp_hex_len(v) : cgwp_dec_len(v);
    return rel <= abs ? cgwp_pos_step(p, v, base) : absolute(p, v, hex);
}

char *cgwp_pos_any(cgw_writer *w, char *p, const uint64_t *pos, int is_target)
{
    int compact = (w->flags & CGW_COMPACT) != 0;
    int rel = w->base_valid && !(w->flags & CGW_NO_POS_COMPRESSION) && (compact || !is_target);
    for (int i = 0; i < w->npos; i++) {
        /* instruction and basic-block addresses are hex, as Callgrind writes them */
        int hex = i < w->npos - ((w->positions & CGW_POS_LINE) != 0);
        if (i > 0)
            *p++ = ' ';
        if (!rel)
            p = absolute(p, pos[i], hex);
        else if (compact)
            p = shortest(p, pos[i], w->base[i], hex);
        else
            p = cgwp_pos_step(p, pos[i], w->base[i]);
    }
    if (!is_target) {
        for (int i = 0; i < w->npos; i++)
            w->base[i] = pos[i];
        w->base_valid = 1;
    }
    return p;
}
