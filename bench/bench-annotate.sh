#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-annotate: cgannotate against callgrind_annotate on the same
# profile, in this run: a cggen file of BENCH_ANNOTATE_SIZE (20M) with
# Callgrind's positions and three events, read with the same options
# (the defaults; --inclusive=yes; --tree=both, whose calls of equal
# costs callgrind_annotate orders by its hash: compared sorted).  Each line
# gives the CPU time (user + sys of the child, GNU time, the least of
# BENCH_ANNOTATE_REPEAT runs, 3; callgrind_annotate once) and the ratio.
#   CGGEN=... CGANNOTATE=... [CALLGRIND_ANNOTATE=...] bench/bench-annotate.sh
set -u
CGGEN=${CGGEN:-./tools/cggen}
CGANNOTATE=${CGANNOTATE:-./tools/cgannotate}
CALLGRIND_ANNOTATE=${CALLGRIND_ANNOTATE:-}
SIZE=${BENCH_ANNOTATE_SIZE:-20M}
REPEAT=${BENCH_ANNOTATE_REPEAT:-3}
. "$(dirname "$0")/timing.sh"
bench_begin bench-annotate "CPU time of a child"
# cpu N CMD...: the least CPU seconds (user + sys) of N runs of CMD, in
# $cpu; its report in $tmp/out
cpu() {
    n=$1; shift
    cpu=""
    while [ "$n" -gt 0 ]; do
        "$TIME" -f '%U %S' -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" ||
            { echo "bench-annotate: $* failed: $(cat "$tmp/err")"; exit 1; }
        c=$(tail -1 "$tmp/t" | awk '{ printf "%.3f", $1 + $2 }')
        if [ -z "$cpu" ] || awk -v c="$c" -v b="$cpu" 'BEGIN { exit !(c < b) }'; then cpu=$c; fi
        n=$((n - 1))
    done
}

"$CGGEN" --seed 46 --size "$SIZE" --functions 5000 --events 3 --positions instr,line \
    -o "$tmp/big.out" || { echo "bench-annotate: cggen failed"; exit 1; }
bytes=$(wc -c <"$tmp/big.out")
echo "bench-annotate: a cggen profile of $bytes bytes (--size $SIZE, 5000 functions, 3 events)"
[ -n "$CALLGRIND_ANNOTATE" ] ||
    echo "bench-annotate: no callgrind_annotate: cgannotate alone, no ratio"
for opts in "" "--inclusive=yes" "--tree=both"; do
    # shellcheck disable=SC2086
    cpu "$REPEAT" "$CGANNOTATE" $opts "$tmp/big.out"
    mine=$cpu
    if [ -z "$CALLGRIND_ANNOTATE" ]; then
        printf '%-17s cgannotate %7.3f s CPU\n' "${opts:-(defaults)}" "$mine"
        continue
    fi
    cp "$tmp/out" "$tmp/mine"
    sort "$tmp/mine" >"$tmp/mine.sorted"
    # shellcheck disable=SC2086
    cpu 1 "$CALLGRIND_ANNOTATE" $opts "$tmp/big.out"
    theirs=$cpu
    same=differ
    cmp -s "$tmp/out" "$tmp/mine" && same="same report"
    [ "$same" = differ ] && [ "$opts" = --tree=both ] &&
        sort "$tmp/out" | cmp -s - "$tmp/mine.sorted" 2>/dev/null && same="same lines"
    awk -v o="${opts:-(defaults)}" -v m="$mine" -v t="$theirs" -v s="$same" 'BEGIN {
        printf "%-17s cgannotate %7.3f s CPU, callgrind_annotate %7.3f s CPU: %.0fx (%s)\n",
            o, m, t, (m > 0 ? t / m : 0), s }'
done
