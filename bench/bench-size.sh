#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-size: the bytes libcgw writes (cgrecode, portable and --compact
# --jumps) against Callgrind's own file for the same data.  The Callgrind
# files are made now with valgrind (a Python start-up, in the shapes of
# Callgrind's options); with CGW_CORPUS, the corpus's Callgrind and
# Cachegrind files too.  Portable output has line positions only (the
# portable subset), --compact keeps every position and jump.  Every output
# must read back with no error and the input's totals.  Each row also
# gives the time of cgrecode --compact --jumps on the file: CPU (user +
# system of the child, GNU time at /usr/bin/time) and wall; the ratios
# are of bytes, none of time.  What cannot run here says so on a line
# ("<what>: not run: <why>").
#   VALGRIND=... CGRECODE=... CGVERIFY=... bench/bench-size.sh
set -u
VALGRIND=${VALGRIND:-valgrind}
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
PY=/usr/bin/python3
TIME=/usr/bin/time
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
timing=1
if ! "$TIME" -f '%U' -o /dev/null true 2>/dev/null; then
    echo "timing of cgrecode: not run: no GNU time at $TIME (the CPU time of a child)"
    timing=0
fi

totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\(\[[0-9,]*\]\).*/\1/'; }

# size LABEL FILE [CGRECODE OPTIONS]: one table row
size() {
    label=$1 in=$2
    shift 2
    "$CGRECODE" "$@" "$in" -o "$tmp/portable" 2>/dev/null || { echo "$label: cgrecode failed"; status=1; return; }
    if [ $timing = 1 ]; then
        "$TIME" -f '%U %S %e' -o "$tmp/time" "$CGRECODE" --compact --jumps "$in" -o "$tmp/compact" 2>/dev/null || { echo "$label: cgrecode --compact failed"; status=1; return; }
        read -r tu ts tw <"$tmp/time"
    else
        "$CGRECODE" --compact --jumps "$in" -o "$tmp/compact" 2>/dev/null || { echo "$label: cgrecode --compact failed"; status=1; return; }
        tu=-1 ts=0 tw=-1
    fi
    t=$(totals "$in")
    for out in portable compact; do
        "$CGVERIFY" -q "$tmp/$out" >/dev/null || { echo "$label: $out output invalid"; status=1; }
        [ "$t" = "$(totals "$tmp/$out")" ] || { echo "$label: $out totals differ"; status=1; }
    done
    o=$(wc -c <"$in") p=$(wc -c <"$tmp/portable") c=$(wc -c <"$tmp/compact")
    awk -v l="$label" -v o="$o" -v p="$p" -v c="$c" -v tu="$tu" -v ts="$ts" -v tw="$tw" 'BEGIN {
        printf "%-50s %11d %11d %6.2f %11d %6.2f %7.2f %7.2f\n", l, o, p, p / o, c, c / o, tu + ts, tw }'
}

printf '%-50s %11s %11s %6s %11s %6s %7s %7s\n' "file" "Callgrind" "portable" "ratio" "--compact" "ratio" "cpu s" "wall s"
printf '%-50s %11s %11s %6s %11s %6s %7s %7s\n' "" "bytes" "(line)" "" "--jumps" "" "(cmp)" "(cmp)"
if command -v "$VALGRIND" >/dev/null 2>&1 && [ -x "$PY" ]; then
    prog="import json, email.parser, decimal, argparse, csv, logging"
    for opts in "" "--dump-instr=yes" "--dump-instr=yes --collect-jumps=yes" \
                "--cache-sim=yes --branch-sim=yes" "--compress-strings=no --compress-pos=no"; do
        # shellcheck disable=SC2086 # the options are words
        "$VALGRIND" --tool=callgrind $opts --callgrind-out-file="$tmp/cg" "$PY" -c "$prog" \
            >/dev/null 2>&1 || { echo "valgrind $opts failed"; status=1; continue; }
        size "callgrind ${opts:-(defaults)}" "$tmp/cg"
    done
elif ! command -v "$VALGRIND" >/dev/null 2>&1; then
    echo "Callgrind's files: not run: no valgrind at $VALGRIND"
else
    echo "Callgrind's files: not run: no $PY (the program Callgrind profiles)"
fi
if [ -n "${CGW_CORPUS:-}" ] && [ -d "$CGW_CORPUS" ]; then
    for f in "$CGW_CORPUS"/valgrind*; do
        [ -f "$f" ] && size "corpus $(basename "$f")" "$f"
    done
else
    echo "corpus files: not run: CGW_CORPUS is not set to a folder"
fi
exit $status
