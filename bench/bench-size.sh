#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-size: the bytes libcgw writes (cgrecode, portable and --compact
# --jumps) against Callgrind's own file for the same data.  The Callgrind
# files are made now with valgrind (a Python start-up, in the shapes of
# Callgrind's options); with CGW_CORPUS, the corpus's Callgrind and
# Cachegrind files too.  Portable output has line positions only (the
# portable subset), --compact keeps every position and jump.  Every output
# must read back with no error and the input's totals.
#   VALGRIND=... CGRECODE=... CGVERIFY=... bench/bench-size.sh
set -u
VALGRIND=${VALGRIND:-valgrind}
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
PY=/usr/bin/python3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0

totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\(\[[0-9,]*\]\).*/\1/'; }

# size LABEL FILE [CGRECODE OPTIONS]: one table row
size() {
    label=$1 in=$2
    shift 2
    "$CGRECODE" "$@" "$in" -o "$tmp/portable" 2>/dev/null || { echo "$label: cgrecode failed"; status=1; return; }
    "$CGRECODE" --compact --jumps "$in" -o "$tmp/compact" 2>/dev/null || { echo "$label: cgrecode --compact failed"; status=1; return; }
    t=$(totals "$in")
    for out in portable compact; do
        "$CGVERIFY" -q "$tmp/$out" >/dev/null || { echo "$label: $out output invalid"; status=1; }
        [ "$t" = "$(totals "$tmp/$out")" ] || { echo "$label: $out totals differ"; status=1; }
    done
    o=$(wc -c <"$in") p=$(wc -c <"$tmp/portable") c=$(wc -c <"$tmp/compact")
    awk -v l="$label" -v o="$o" -v p="$p" -v c="$c" 'BEGIN {
        printf "%-50s %11d %11d %6.2f %11d %6.2f\n", l, o, p, p / o, c, c / o }'
}

printf '%-50s %11s %11s %6s %11s %6s\n' "file" "Callgrind" "portable" "ratio" "--compact" "ratio"
printf '%-50s %11s %11s %6s %11s %6s\n' "" "bytes" "(line)" "" "--jumps" ""
if command -v "$VALGRIND" >/dev/null 2>&1 && [ -x "$PY" ]; then
    prog="import json, email.parser, decimal, argparse, csv, logging"
    for opts in "" "--dump-instr=yes" "--dump-instr=yes --collect-jumps=yes" \
                "--cache-sim=yes --branch-sim=yes" "--compress-strings=no --compress-pos=no"; do
        # shellcheck disable=SC2086 # the options are words
        "$VALGRIND" --tool=callgrind $opts --callgrind-out-file="$tmp/cg" "$PY" -c "$prog" \
            >/dev/null 2>&1 || { echo "valgrind $opts failed"; status=1; continue; }
        size "callgrind ${opts:-(defaults)}" "$tmp/cg"
    done
else
    echo "(no valgrind or no $PY: no Callgrind files made)"
fi
if [ -n "${CGW_CORPUS:-}" ] && [ -d "$CGW_CORPUS" ]; then
    for f in "$CGW_CORPUS"/valgrind*; do
        [ -f "$f" ] && size "corpus $(basename "$f")" "$f"
    done
fi
exit $status
