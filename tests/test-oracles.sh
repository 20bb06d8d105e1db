#!/bin/sh
# SPDX-License-Identifier: MIT
# test-oracles: libcgw's reader against KCachegrind's own loader.
#
# Every file of the corpus (real files from other writers), the spec's
# examples and the other test data, profiles made now by cggen with each
# feature, and, with valgrind, a real Callgrind file made now, is read by
# libcgw (tests/cgnorm) and by kcgdump (KCachegrind's loader, built from
# ../shared/oracles); both print the totals, every function's self cost
# and every call edge (count and inclusive cost) in one normalised form,
# which must be the same.  Where KCachegrind reads a file otherwise than
# the spec, the file is listed below with the reason; a listed file that
# reads the same, or an unlisted one that differs, fails the test.
# Skips (77) without ../shared/oracles or Qt5Core.
set -u
build=${CGW_BUILDDIR:-.}
. "${CGW_SRCDIR:-.}/tests/kcgdump.sh"

# file name: why KCachegrind reads it otherwise than libcgw does
differences() {
    cat <<'EOF'
dialect-yappi.out: yappi defines every name first (fl= lines, then fn= lines with no block) and writes the blocks after; KCachegrind makes a function at each of those fn= lines, in the file of the last fl=, so every function is in that file; in libcgw a fn= is a function once a body line follows it, in the file of its own block
valgrind319-cachegrind.cachegrind: KCachegrind keys a function by its name and the base names of its file and object (TraceData::function), so sbrk in ./elf/../misc/sbrk.c and in ./misc/./misc/sbrk.c are one function there and two in libcgw
EOF
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-oracles.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Profiles made now: every feature of the writer that KCachegrind reads.
n=0
for opts in "" "--positions instr,line" "--positions instr" "--inline" "--jumps" \
    "--parts 3" "--compact" "--events 6 --functions 400" \
    "--positions instr,line --inline --jumps --parts 2 --compact"; do
    n=$((n + 1))
    "$build/tools/cggen" --seed "$n" $opts -o "$tmp/cggen-$n.out" ||
        { echo "cggen $opts failed"; exit 1; }
done
# libcgw's own output without a position column (CGW_POS_NONE)
"$build/tools/cgrecode" "$CGW_TEST_DATA/no-positions.out" -o "$tmp/recoded-no-positions.out" \
    2>/dev/null || { echo "cgrecode of no-positions.out failed"; exit 1; }
if [ -n "${VALGRIND:-}" ] && [ -x "$build/tests/subject" ]; then
    "$VALGRIND" -q --tool=callgrind --dump-instr=yes --collect-jumps=yes \
        --callgrind-out-file="$tmp/callgrind-real.out" "$build/tests/subject" >/dev/null 2>&1 ||
        rm -f "$tmp/callgrind-real.out"
fi

checked=0 failed=0
for f in "${CGW_CORPUS:-/nonexistent}"/*.callgrind "${CGW_CORPUS:-/nonexistent}"/*.cachegrind \
    "$CGW_TEST_DATA"/*.out "$tmp"/*.out; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    "$build/tests/cgnorm" "$f" >"$tmp/libcgw.txt" 2>"$tmp/libcgw.err"
    KCGNORM=1 "$kcgdump" "$f" 2>/dev/null | grep '^[TFC]	' >"$tmp/kcg.txt"
    why=$(differences | sed -n "s/^$name: //p")
    checked=$((checked + 1))
    if cmp -s "$tmp/libcgw.txt" "$tmp/kcg.txt"; then
        if [ -n "$why" ]; then
            echo "FAIL $name: listed as read otherwise by KCachegrind, but reads the same"
            failed=$((failed + 1))
        else
            echo "same  $name ($(grep -c '^F' "$tmp/kcg.txt") functions, $(grep -c '^C' "$tmp/kcg.txt") edges)"
        fi
    elif [ -n "$why" ]; then
        echo "known $name: $why"
    else
        echo "FAIL $name: libcgw (<) and KCachegrind (>) read it differently:"
        diff "$tmp/libcgw.txt" "$tmp/kcg.txt" | head -20
        failed=$((failed + 1))
    fi
done
echo "$checked files, $failed failed"
[ "$checked" -gt 20 ] || { echo "too few files were checked"; exit 1; }
[ "$failed" -eq 0 ]
