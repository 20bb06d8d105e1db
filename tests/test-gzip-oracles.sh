#!/bin/sh
# SPDX-License-Identifier: MIT
# test-gzip-oracles: what cgverify's gzip-input warning says of other
# readers, asked of them: callgrind_annotate, gprof2dot's CallgrindParser
# and KCachegrind's loader opening a file by its name, as QCachegrind does
# (kcgdump, built from ../shared/oracles by tests/kcgdump.sh) read a
# profile, and fail on the same profile gzipped.
# Skips (77) when none of them is there.
set -u
CGGEN=${CGGEN:-./tools/cggen}
ORACLES=${CGW_ORACLES:-}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$CGGEN" --seed 28 -o "$tmp/p.out" || fail "cggen"
gzip -c "$tmp/p.out" >"$tmp/p.out.gz" || fail "gzip"
asked=0

if [ -n "${CALLGRIND_ANNOTATE:-}" ] && [ -x "$CALLGRIND_ANNOTATE" ]; then
    "$CALLGRIND_ANNOTATE" "$tmp/p.out" >"$tmp/ca" 2>&1 || fail "callgrind_annotate on the text"
    grep -q 'PROGRAM TOTALS' "$tmp/ca" || fail "callgrind_annotate printed no totals"
    "$CALLGRIND_ANNOTATE" "$tmp/p.out.gz" >"$tmp/ca" 2>&1 && fail "callgrind_annotate read gzip"
    grep -q 'header line 1 malformed' "$tmp/ca" || fail "callgrind_annotate on gzip: $(head -c 300 "$tmp/ca")"
    echo "callgrind_annotate: reads the text, fails on the gzip"
    asked=$((asked + 1))
fi

dump=$ORACLES/gprof2dot/dump.py
if [ -n "$ORACLES" ] && [ -f "$dump" ] && command -v python3 >/dev/null 2>&1; then
    python3 "$dump" "$tmp/p.out" >"$tmp/g" 2>&1 || fail "gprof2dot on the text: $(tail -3 "$tmp/g")"
    grep -q '"total": [1-9]' "$tmp/g" || fail "gprof2dot read no total"
    python3 "$dump" "$tmp/p.out.gz" >"$tmp/g" 2>&1; rc=$?
    [ $rc -eq 1 ] || fail "gprof2dot on gzip: exit $rc"
    echo "gprof2dot: reads the text, fails on the gzip"
    asked=$((asked + 1))
fi

# kcgdump.sh builds it once, or exits 77 without its oracle: in a subshell
kcgdump=$(. "${CGW_SRCDIR:-.}/tests/kcgdump.sh" >/dev/null 2>&1 && echo "$kcgdump")
if [ -n "$kcgdump" ] && [ -x "$kcgdump" ]; then
    "$kcgdump" "$tmp/p.out" >"$tmp/k" 2>&1 || fail "kcgdump on the text: $(tail -3 "$tmp/k")"
    grep -q '^loaded_parts 1$' "$tmp/k" || fail "kcgdump loaded no part of the text"
    "$kcgdump" "$tmp/p.out.gz" >"$tmp/k" 2>&1 && fail "kcgdump read gzip"
    grep -q '^loaded_parts 0$' "$tmp/k" && grep -q 'Unknown file format' "$tmp/k" ||
        fail "kcgdump on gzip: $(cat "$tmp/k")"
    echo "KCachegrind's loader, by file name (QCachegrind): reads the text, fails on the gzip"
    asked=$((asked + 1))
fi

[ $asked -gt 0 ] || { echo "SKIP: no callgrind_annotate, gprof2dot oracle or kcgdump"; exit 77; }
