#!/bin/sh
# SPDX-License-Identifier: MIT
# test-compat: one profile for each writer feature and option
# (tests/compat-profiles) and libcgwprof's with one and with several
# threads, read by KCachegrind's loader, callgrind_annotate, gprof2dot and
# speedscope (tests/compat.py): the portable default must read right in
# all of them, and README.md's compatibility table must be the one this
# run measures (make compat-table writes it).  Skips (77) without
# ../shared/oracles, Qt5Core, callgrind_annotate, python3 or node.
. "${CGW_SRCDIR:-.}/tests/oracles.sh"

"$build/tests/compat-profiles" "$tmp" >"$tmp/names" || { echo "compat-profiles failed"; exit 1; }
while IFS="$(printf '\t')" read -r name what totals; do
    printf '%s\t%s\t%s\t%s\n' "$name" "$tmp/$name.out" "$what" "$totals"
done <"$tmp/names" >"$tmp/list"
subject=${CGW_PROF_SUBJECT:-$build/tests/prof-subject}
if [ -x "$subject" ]; then
    CGWPROF_OUT="$tmp/prof-one.out" "$subject" graph >/dev/null &&
        printf 'prof-one\t%s\t%s\n' "$tmp/prof-one.out" "libcgwprof, one thread" >>"$tmp/list"
    CGWPROF_OUT="$tmp/prof-threads.out" "$subject" threads >/dev/null &&
        printf 'prof-threads\t%s\t%s\n' "$tmp/prof-threads.out" \
            "libcgwprof, several threads" >>"$tmp/list"
fi
KCGDUMP=$kcgdump CGW_BUILDDIR=$build CGW_ORACLES=$oracles \
    python3 "$src/tests/compat.py" "${CGW_COMPAT_MODE:---check}" "$src/README.md" "$tmp/list"
