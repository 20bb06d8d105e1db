/* SPDX-License-Identifier: MIT */
/* profile-load: every FILE loaded into one profile model
 * (cgw_profile_add_path(), files mapped and inline and jump records
 * skipped, as cgreport reads them), then cgw_profile_functions(), which
 * builds the graph (callers, callees, cycles, inclusive costs): what
 * every view of the model pays before it shows anything, for
 * bench-profile.sh.  Prints nothing; exit 1 when a file does not load.
 *
 *   profile-load FILE... */
#include <stdio.h>

#include <cgw.h>

int main(int argc, char **argv)
{
    cgw_read_options ro = CGW_READ_OPTIONS_INIT;
    ro.flags = CGW_READ_MAP;
    ro.skip = CGW_SKIP(CGW_REC_INLINE) | CGW_SKIP(CGW_REC_JUMP) | CGW_SKIP(CGW_REC_COND_JUMP);
    cgw_profile *p = cgw_profile_new(NULL);
    if (p == NULL) {
        perror("profile-load");
        return 1;
    }
    for (int i = 1; i < argc; i++)
        cgw_profile_add_path(p, argv[i], &ro);
    size_t n = 0;
    int rc = 0;
    if (cgw_profile_functions(p, &n) == NULL && cgw_profile_error(p) != CGW_OK) {
        fprintf(stderr, "profile-load: %s\n", cgw_profile_errmsg(p));
        rc = 1;
    }
    cgw_profile_free(p);
    return rc;
}
