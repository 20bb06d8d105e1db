#!/bin/sh
# SPDX-License-Identifier: MIT
# test-dialects: hand-made files in the dialects of real writers
# (tests/data/dialect-*.out), each beside what KCachegrind's loader reads
# from it (dialect-*.kcg: kcgdump's KCGNORM lines, T/F/C).  libcgw reads
# each as KCachegrind does, or, where KCachegrind misreads the file, as
# dialect-*.libcgw says (the reason is in tests/test-oracles.sh); cgrecode
# (portable and compact) writes a file that both read so; cgmerge of the
# file with itself reads twice; cgdiff of it with itself finds no change.
# With KCachegrind's loader (../shared/oracles), the stored .kcg files
# are checked against it too, and so are the recoded files.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGNORM=${CGNORM:-./tests/cgnorm}
CGW_KCGDUMP_OPTIONAL="the stored .kcg files are not checked against it" \
    . "${CGW_SRCDIR:-.}/tests/kcgdump.sh"

n=0
for f in "$CGW_TEST_DATA"/dialect-*.out; do
    name=$(basename "$f" .out)
    want="$CGW_TEST_DATA/$name.kcg"
    [ -f "$want" ] || fail "$name: no $name.kcg beside it"
    if [ -n "$kcgdump" ]; then
        KCGNORM=1 "$kcgdump" "$f" 2>/dev/null | grep '^[TFC]	' >"$tmp/kcg" || fail "$name: kcgdump"
        cmp -s "$tmp/kcg" "$want" ||
            fail "$name: KCachegrind reads otherwise than $name.kcg says: $(diff "$want" "$tmp/kcg")"
    fi
    if [ -f "$CGW_TEST_DATA/$name.libcgw" ]; then
        cmp -s "$CGW_TEST_DATA/$name.libcgw" "$want" &&
            fail "$name: $name.libcgw says libcgw reads it as KCachegrind does"
        want="$CGW_TEST_DATA/$name.libcgw"
    fi
    "$CGNORM" "$f" >"$tmp/got" 2>/dev/null || fail "$name: cgnorm exit $?"
    cmp -s "$tmp/got" "$want" || fail "$name: libcgw reads otherwise: $(diff "$want" "$tmp/got")"
    for mode in "" --compact; do
        "$CGRECODE" $mode "$f" -o "$tmp/re" 2>"$tmp/err" || fail "$name: cgrecode $mode: $(cat "$tmp/err")"
        "$CGNORM" "$tmp/re" >"$tmp/got" 2>/dev/null || fail "$name: cgnorm of the recode"
        cmp -s "$tmp/got" "$want" ||
            fail "$name: cgrecode $mode changed it: $(diff "$want" "$tmp/got")"
        if [ -n "$kcgdump" ]; then
            KCGNORM=1 "$kcgdump" "$tmp/re" 2>/dev/null | grep '^[TFC]	' >"$tmp/kcg"
            cmp -s "$tmp/kcg" "$want" ||
                fail "$name: KCachegrind reads cgrecode $mode otherwise: $(diff "$want" "$tmp/kcg")"
        fi
    done
    "$CGMERGE" "$f" "$f" -o "$tmp/m" 2>"$tmp/err" || fail "$name: cgmerge: $(cat "$tmp/err")"
    "$CGNORM" "$tmp/m" >"$tmp/got" 2>/dev/null || fail "$name: cgnorm of the merge"
    twice "$want" >"$tmp/want2"
    LC_ALL=C sort "$tmp/got" | cmp -s - "$tmp/want2" ||
        fail "$name: cgmerge of it with itself is not twice it: $(LC_ALL=C sort "$tmp/got" | diff "$tmp/want2" -)"
    "$CGDIFF" --fail-above 0 "$f" "$f" >"$tmp/diff" 2>"$tmp/err" ||
        fail "$name: cgdiff with itself: $(cat "$tmp/err")"
    n=$((n + 1))
done
[ $n -gt 0 ] || fail "no tests/data/dialect-*.out"
echo "$n dialects read as KCachegrind reads them, recoded, merged and compared whole"
