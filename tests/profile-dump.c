/* SPDX-License-Identifier: MIT */
/* profile-dump FILE...: what the profile model (cgw_profile_*) makes of
 * the files (summed), for tests/test-profile-oracle.sh to hold against
 * KCachegrind's loader and the folded stacks: "T" and the totals, then a
 * line a function, "F OBJECT FILE NAME INCLUSIVE CYCLE IN OWN"
 * (tab-separated, costs by ','; OBJECT "" when none) in the order the
 * functions came, IN the sum of the calls to it from others and OWN its
 * self cost plus its calls to others (of the first event): the two that
 * the inclusive cost of a function in no cycle is the larger of. */
#include <stdio.h>

#include <cgw.h>

static void costs(const uint64_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%s%llu", i ? "," : "", (unsigned long long)c[i]);
}

int main(int argc, char **argv)
{
    cgw_profile *p = cgw_profile_new(NULL);
    if (p == NULL)
        return 2;
    for (int i = 1; i < argc; i++)
        if (cgw_profile_add_path(p, argv[i], NULL) != CGW_OK)
            break;
    size_t n, nev = cgw_profile_events(p, NULL);
    const cgw_profile_fn *fns = cgw_profile_functions(p, &n);
    if (fns == NULL || nev == 0) {
        fprintf(stderr, "profile-dump: %s\n",
                fns == NULL ? cgw_profile_errmsg(p) : "the profile has no event");
        cgw_profile_free(p);
        return 1;
    }
    printf("T\t");
    costs(cgw_profile_totals(p), nev);
    printf("\n");
    size_t nedges;
    const cgw_profile_edge *edges = cgw_profile_edges(p, &nedges);
    for (size_t i = 0; i < n; i++) {
        unsigned long long in = 0, own = fns[i].self[0];
        const uint32_t *at = cgw_profile_callers(p, i, &nedges);
        for (size_t k = 0; k < nedges; k++)
            in += edges[at[k]].caller != i ? edges[at[k]].inclusive[0] : 0;
        at = cgw_profile_callees(p, i, &nedges);
        for (size_t k = 0; k < nedges; k++)
            own += edges[at[k]].callee != i ? edges[at[k]].inclusive[0] : 0;
        printf("F\t%s\t%s\t%s\t", fns[i].object ? fns[i].object : "", fns[i].file, fns[i].name);
        costs(fns[i].inclusive, nev);
        printf("\t%u\t%llu\t%llu\n", fns[i].cycle, in, own);
    }
    cgw_profile_free(p);
    return 0;
}
