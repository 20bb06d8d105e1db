#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-merge: cgmerge and cgdiff against cgverify reading the same
# inputs (the baseline), and KCachegrind's loader (kcgdump) loading them,
# all measured in this run, and the least any merge must do (when
# READRECORDS and CGRECODE are given): read every record of the inputs
# (read-records) and write the merged output (cgrecode of it, less
# read-records of it).  The inputs are made now: cggen files
# (BENCH_MERGE_FILES files of BENCH_MERGE_SIZE, seeds 1, 2, ...), and
# Callgrind's own files of tests/subject (valgrind, two shapes of
# options, four runs, each file given BENCH_MERGE_COPIES times).  Each
# line gives CPU time (user + sys of the child, GNU time), wall time,
# the ratio of CPU times (each the least of BENCH_MERGE_REPEAT runs, 3) to the baseline and peak RSS (ru_maxrss); the
# merge, the bytes of peak RSS per distinct key of its output (functions
# + call edges) and per output record (cost and call lines).
#   CGGEN=... CGVERIFY=... CGMERGE=... CGDIFF=... [VALGRIND=...]
#   [SUBJECT=tests/subject] [KCGDUMP=...] [READRECORDS=... CGRECODE=...]
#   bench/bench-merge.sh
set -u
CGGEN=${CGGEN:-./tools/cggen}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CGMERGE=${CGMERGE:-./tools/cgmerge}
CGDIFF=${CGDIFF:-./tools/cgdiff}
VALGRIND=${VALGRIND:-valgrind}
SUBJECT=${SUBJECT:-./tests/subject}
KCGDUMP=${KCGDUMP:-}
READRECORDS=${READRECORDS:-}
CGRECODE=${CGRECODE:-}
FILES=${BENCH_MERGE_FILES:-1000}
SIZE=${BENCH_MERGE_SIZE:-100K}
COPIES=${BENCH_MERGE_COPIES:-50}
REPEAT=${BENCH_MERGE_REPEAT:-3}
. "$(dirname "$0")/timing.sh"
bench_begin bench-merge "CPU time and peak RSS of a child"
status=0
missing=""

# line LABEL [BASE_CPU] [EXTRA]
line() {
    awk -v l="$1" -v c="$cpu" -v w="$wall" -v r="$rss" -v b="${2:-}" -v x="${3:-}" 'BEGIN {
        ratio = b != "" && b > 0 ? sprintf("%7.2fx", c / b) : "       -"
        printf "  %-24s cpu %8.3f s  wall %8.3f s  %s  peak %8.1f MiB%s\n",
            l, c, w, ratio, r / 1024, x }'
}

# floor FILE...: what any merge of FILE... into $tmp/merged must do at
# the least, against the baseline: read every record of the inputs, and
# write the output (cgrecode of it, less reading it)
floor() {
    [ -n "$READRECORDS" ] && [ -n "$CGRECODE" ] || return 0
    timed /dev/null "$READRECORDS" "$@"
    [ "$rc" -eq 0 ] || { echo "  read-records failed: $(head -1 "$tmp/err")"; status=1; return; }
    read_cpu=$cpu
    line "every record read" "$base"
    timed /dev/null "$READRECORDS" "$tmp/merged"
    [ "$rc" -eq 0 ] || { echo "  read-records of the merge failed: $(head -1 "$tmp/err")"; status=1; return; }
    merged_cpu=$cpu
    timed /dev/null "$CGRECODE" -o "$tmp/recoded" "$tmp/merged"
    [ "$rc" -eq 0 ] || { echo "  cgrecode failed: $(head -1 "$tmp/err")"; status=1; return; }
    line "cgrecode of the merge" "$base"
    cpu=$(awk -v a="$read_cpu" -v r="$cpu" -v m="$merged_cpu" 'BEGIN {
        w = r - m; printf "%.3f", a + (w > 0 ? w : 0) }')
    awk -v c="$cpu" -v b="$base" 'BEGIN {
        ratio = b > 0 ? sprintf("%7.2fx", c / b) : "       -"
        printf "  %-24s cpu %8.3f s                  %s  (read every record + cgrecode less its read)\n",
            "floor of any merge", c, ratio }'
}

# bench NAME FILE...: the measurements over one set of inputs
bench() {
    name=$1
    shift
    bytes=$(cat "$@" | wc -c)
    half=$(($# / 2))
    echo "merge: $name: $# files, $bytes bytes"
    timed /dev/null "$CGVERIFY" -q -j 1 "$@"
    [ "$rc" -eq 0 ] || { echo "  cgverify failed: $(head -1 "$tmp/err")"; status=1; return; }
    base=$cpu
    line "cgverify (baseline)" "$base"
    timed /dev/null "$CGMERGE" -o "$tmp/merged" "$@"
    [ "$rc" -eq 0 ] || { echo "  cgmerge failed: $(head -1 "$tmp/err")"; status=1; return; }
    fns=$(grep -c '^fn=' "$tmp/merged")
    calls=$(grep -c '^calls=' "$tmp/merged")
    recs=$(grep -c '^[0-9+*-]' "$tmp/merged")
    line "cgmerge" "$base" "$(awk -v r="$rss" -v f="$fns" -v c="$calls" -v n="$recs" 'BEGIN {
        printf "  %d functions + %d edges: %.0f B/key; %d records: %.0f B/record",
            f, c, r * 1024 / (f + c), n, r * 1024 / n }')"
    floor "$@"
    # cgdiff of the merges of the two halves, against cgverify of them
    "$CGMERGE" -o "$tmp/old" $(i=0; for f in "$@"; do i=$((i + 1)); [ $i -le $half ] && echo "$f"; done) &&
        "$CGMERGE" -o "$tmp/new" $(i=0; for f in "$@"; do i=$((i + 1)); [ $i -gt $half ] && echo "$f"; done) ||
        { echo "  cgmerge of the halves failed"; status=1; return; }
    timed /dev/null "$CGVERIFY" -q -j 1 "$tmp/old" "$tmp/new"
    hbase=$cpu
    line "cgverify of the halves" "$hbase"
    timed /dev/null "$CGDIFF" "$tmp/old" "$tmp/new"
    [ "$rc" -le 1 ] || { echo "  cgdiff failed: $(head -1 "$tmp/err")"; status=1; return; }
    line "cgdiff of the halves" "$hbase"
    if [ -n "$KCGDUMP" ]; then
        timed /dev/null "$KCGDUMP" "$@"
        if [ "$rc" -eq 0 ]; then
            line "kcgdump (its load+dump)" "$base"
        else
            echo "  kcgdump failed (exit $rc)"
        fi
    fi
}

[ -n "$KCGDUMP" ] && [ -x "$KCGDUMP" ] || { KCGDUMP=; missing="$missing; KCachegrind's loader (no kcgdump: ../shared/oracles, Qt5Core)"; }
[ -n "$READRECORDS" ] && [ -n "$CGRECODE" ] || missing="$missing; the floor of any merge (READRECORDS and CGRECODE not given)"

mkdir "$tmp/gen"
i=1
while [ $i -le "$FILES" ]; do
    "$CGGEN" --seed $i --size "$SIZE" -o "$tmp/gen/g$i.out" || { echo "cggen failed"; exit 1; }
    i=$((i + 1))
done
bench "cggen, $FILES files of $SIZE" $(i=1; while [ $i -le "$FILES" ]; do echo "$tmp/gen/g$i.out"; i=$((i + 1)); done)
rm -rf "$tmp/gen"

if command -v "$VALGRIND" >/dev/null 2>&1 && [ -x "$SUBJECT" ]; then
    mkdir "$tmp/cg"
    k=0
    for opts in "" "--dump-instr=yes --collect-jumps=yes"; do
        for run in 1 2; do
            k=$((k + 1))
            "$VALGRIND" -q --tool=callgrind $opts --callgrind-out-file="$tmp/cg/c$k.0" \
                "$SUBJECT" >/dev/null 2>&1 || { echo "valgrind of $SUBJECT failed"; status=1; }
        done
    done
    set --
    for c in $(seq 1 "$COPIES"); do
        for f in "$tmp"/cg/c*.0; do
            cp "$f" "${f%.0}.$c"
            set -- "$@" "${f%.0}.$c"
        done
    done
    bench "Callgrind's files of tests/subject (4 runs, $COPIES copies each)" "$@"
else
    missing="$missing; Callgrind's own files (no $VALGRIND or no $SUBJECT)"
fi

[ -z "$missing" ] || echo "merge: baselines not run: ${missing#; }"
exit $status
