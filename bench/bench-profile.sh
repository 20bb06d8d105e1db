#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-profile: the profile model (issue 50), measured in this run.
#  1. Its load (profile-load: cgw_profile_add_path() and the graph of
#     cgw_profile_functions()) against cgverify reading the same file
#     (the baseline; target: at most 2x its CPU), on a Callgrind file
#     with the cache simulation (valgrind --tool=callgrind
#     --cache-sim=yes --dump-instr=yes of a loop program written and
#     compiled now, BENCH_PROFILE_LOOP functions, 2500: about 4 MB) and
#     on a cggen file of BENCH_PROFILE_SIZE (200M).
#  2. cgreport's page of that cggen file and of one of BENCH_PROFILE_BIG
#     (1G; the largest power-of-two fraction that fits the disk when it
#     does not) with the same functions (BENCH_PROFILE_REPORT_FUNCTIONS,
#     5000: cgreport's stacks follow the callers' shares of at least
#     1/65536 of the total, not the paths of the graph, since cggen's
#     graphs of 5000 functions passed its limit of 2^26 frames):
#     its memory must follow the distinct functions and edges, not the
#     size, so the peak RSS should barely grow.
#  3. cgannotate against callgrind_annotate on the Callgrind file
#     (target: at least 100x; bench-annotate.sh does the same on cggen's).
# Each line gives CPU time (user + sys of the child, GNU time; the least
# of BENCH_PROFILE_REPEAT runs, 3), wall time of that run, the ratio of
# CPU times to the baseline and peak RSS (ru_maxrss, the largest run);
# on the Callgrind file each run is BENCH_PROFILE_INNER (20) in a row.
#   PROFILELOAD=... CGGEN=... CGVERIFY=... CGREPORT=... CGANNOTATE=...
#   [VALGRIND=...] [CC=...] [CALLGRIND_ANNOTATE=...] bench/bench-profile.sh
set -u
PROFILELOAD=${PROFILELOAD:-./bench/profile-load}
CGGEN=${CGGEN:-./tools/cggen}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CGREPORT=${CGREPORT:-./tools/cgreport}
CGANNOTATE=${CGANNOTATE:-./tools/cgannotate}
VALGRIND=${VALGRIND:-valgrind}
CC=${CC:-cc}
CALLGRIND_ANNOTATE=${CALLGRIND_ANNOTATE:-}
LOOP=${BENCH_PROFILE_LOOP:-2500}
SIZE=${BENCH_PROFILE_SIZE:-200M}
BIG=${BENCH_PROFILE_BIG:-1G}
FUNCTIONS=${BENCH_PROFILE_FUNCTIONS:-5000}
REPEAT=${BENCH_PROFILE_REPEAT:-3}
INNER=${BENCH_PROFILE_INNER:-20}
RFUNCTIONS=${BENCH_PROFILE_REPORT_FUNCTIONS:-5000}
TIME=/usr/bin/time
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
missing=""

if ! "$TIME" -f '%U' -o "$tmp/t" true 2>/dev/null; then
    echo "bench-profile: no GNU time at $TIME (CPU time and peak RSS of a child): not run"
    exit 0
fi

# timed N OUT CMD...: run CMD (stdout to OUT) N times; sets cpu, wall
# of the run of least CPU, rss (KiB) the largest, rc the worst status.
# With inner=K, each run is K runs of CMD in a row, timed together and
# divided by K (GNU time gives hundredths of a second: a small file's
# read takes a few)
inner=1
timed() {
    n=$1 out=$2
    shift 2
    cpu="" wall="" rss=0 rc=0
    while [ "$n" -gt 0 ]; do
        # shellcheck disable=SC2016
        "$TIME" -f '%U %S %e %M' -o "$tmp/t" sh -c 'k=$1; shift
            while [ "$k" -gt 0 ]; do "$@" || exit $?; k=$((k - 1)); done' sh "$inner" "$@" \
            >"$out" 2>"$tmp/err"
        r=$?
        [ $r -gt $rc ] && rc=$r
        tail -1 "$tmp/t" >"$tmp/t1"
        read -r u s w m <"$tmp/t1"
        c=$(awk -v u="$u" -v s="$s" -v k="$inner" 'BEGIN { printf "%.4f", (u + s) / k }')
        w=$(awk -v w="$w" -v k="$inner" 'BEGIN { printf "%.4f", w / k }')
        if [ -z "$cpu" ] || awk -v c="$c" -v b="$cpu" 'BEGIN { exit !(c < b) }'; then
            cpu=$c wall=$w
        fi
        [ "$m" -gt "$rss" ] && rss=$m
        n=$((n - 1))
    done
}

# line LABEL [BASE_CPU] [EXTRA]
line() {
    awk -v l="$1" -v c="$cpu" -v w="$wall" -v r="$rss" -v b="${2:-}" -v x="${3:-}" 'BEGIN {
        ratio = b != "" && b > 0 ? sprintf("%7.2fx", c / b) : "       -"
        printf "  %-26s cpu %8.4f s  wall %8.4f s  %s  peak %8.1f MiB%s\n",
            l, c, w, ratio, r / 1024, x }'
}

# load NAME FILE: the model's load against cgverify's read of FILE
load() {
    echo "profile: load: $1: $(wc -c <"$2") bytes"
    timed "$REPEAT" /dev/null "$CGVERIFY" -q "$2"
    [ "$rc" -eq 0 ] || { echo "  cgverify failed: $(head -1 "$tmp/err")"; status=1; return; }
    base=$cpu
    line "cgverify (baseline)" "$base"
    timed "$REPEAT" /dev/null "$PROFILELOAD" "$2"
    [ "$rc" -eq 0 ] || { echo "  profile-load failed: $(head -1 "$tmp/err")"; status=1; return; }
    verdict=$(awk -v c="$cpu" -v b="$base" 'BEGIN { print (c <= 2 * b ? "met" : "missed") }')
    line "model load + graph" "$base" "  (target <= 2x: $verdict)"
}

# report NAME FILE: cgreport's page of FILE; sets report_rss
report() {
    timed "$REPEAT" "$tmp/page.html" "$CGREPORT" --quiet "$2"
    [ "$rc" -le 1 ] || { echo "  cgreport failed: $(head -1 "$tmp/err")"; status=1; return; }
    report_rss=$rss
    line "cgreport, $1" "" "  page $(wc -c <"$tmp/page.html") bytes"
}

# bytes SIZE: SIZE (N, NK, NM, NG) in bytes
bytes() {
    awk -v s="$1" 'BEGIN {
        n = s + 0; u = substr(s, length(s))
        if (u == "K") n *= 1024; else if (u == "M") n *= 1048576; else if (u == "G") n *= 1073741824
        printf "%.0f", n }'
}

# 1. the model on a Callgrind file of the cache simulation
if ! command -v "$VALGRIND" >/dev/null 2>&1; then
    missing="$missing; Callgrind's file (no $VALGRIND): its load and cgannotate's ratio"
elif ! command -v "$CC" >/dev/null 2>&1; then
    missing="$missing; Callgrind's file (no C compiler $CC for its program)"
else
    # LOOP functions, each a loop of 16 lines and two calls into a
    # permutation of the others (cycles of every length), -O0 so that
    # every line is code: Callgrind writes about 1.6 KB a function
    awk -v n="$LOOP" 'BEGIN {
        print "static volatile unsigned sink;"
        for (i = 0; i < n; i++) printf "unsigned f%d(unsigned d);\n", i
        for (i = 0; i < n; i++) {
            printf "__attribute__((noinline)) unsigned f%d(unsigned d)\n{\n", i
            printf "    unsigned s = %d, t = d;\n", i
            printf "    for (unsigned k = 0; k < %d; k++) {\n", 4 + i % 13
            for (j = 0; j < 8; j++)
                printf "        s = s * %d + (k ^ t);\n        t += s >> %d;\n", 31 + 2 * j, 1 + j
            printf "    }\n    if (d == 0)\n        return s;\n"
            printf "    if (s & 1)\n        s += f%d(d - 1);\n", (i * 31 + 7) % n
            printf "    return s + f%d(d - 1);\n}\n", (i * 17 + 3) % n
        }
        print "int main(void)\n{\n    unsigned s = 0;"
        for (i = 0; i < n; i++) printf "    s += f%d(2);\n", i
        print "    sink = s;\n    return 0;\n}"
    }' >"$tmp/loop.c"
    if ! (cd "$tmp" && $CC -O0 -g -o loop loop.c) >"$tmp/err" 2>&1; then
        echo "bench-profile: $CC of the loop program failed: $(head -1 "$tmp/err")"
        status=1
    elif ! "$VALGRIND" -q --tool=callgrind --cache-sim=yes --dump-instr=yes \
        --callgrind-out-file="$tmp/cg.out" "$tmp/loop" >/dev/null 2>"$tmp/err"; then
        echo "bench-profile: valgrind of the loop program failed: $(tail -1 "$tmp/err")"
        status=1
    else
        rm -f "$tmp/loop" "$tmp/loop.c"
        inner=$INNER
        load "Callgrind, --cache-sim=yes --dump-instr=yes, $LOOP functions (each run $INNER in a row)" "$tmp/cg.out"
        inner=1
    fi
fi

# 1 and 2 on cggen files
"$CGGEN" --seed 50 --size "$SIZE" --functions "$FUNCTIONS" -o "$tmp/small.out" ||
    { echo "bench-profile: cggen failed"; exit 1; }
load "cggen --size $SIZE --functions $FUNCTIONS" "$tmp/small.out"
rm -f "$tmp/small.out"

echo "profile: cgreport: cggen files of --functions $RFUNCTIONS"
"$CGGEN" --seed 50 --size "$SIZE" --functions "$RFUNCTIONS" -o "$tmp/small.out" ||
    { echo "bench-profile: cggen failed"; exit 1; }
report "--size $SIZE" "$tmp/small.out"
small_rss=${report_rss:-0}
rm -f "$tmp/small.out"
# the file and the page, less what is free now: halve BIG until it fits
free=$(df -Pk "$tmp" | awk 'NR == 2 { printf "%.0f", $4 * 1024 }')
want=$(bytes "$BIG")
big=$BIG
while [ "$(awk -v w="$want" -v f="$free" 'BEGIN { print (w * 1.1 + 268435456 > f) }')" = 1 ] &&
      [ "$want" -gt 1048576 ]; do
    want=$((want / 2))
    big="$((want / 1048576))M"
done
[ "$big" = "$BIG" ] || echo "  ($BIG does not fit the disk's free $(awk -v f="$free" 'BEGIN { printf "%.1f GB", f / 1e9 }'): --size $big instead)"
"$CGGEN" --seed 50 --size "$big" --functions "$RFUNCTIONS" -o "$tmp/big.out" ||
    { echo "bench-profile: cggen --size $big failed"; exit 1; }
report "--size $big" "$tmp/big.out"
awk -v a="$small_rss" -v b="${report_rss:-0}" -v s="$(bytes "$SIZE")" -v g="$(bytes "$big")" 'BEGIN {
    if (a > 0)
        printf "  peak RSS %.2fx for %.1fx the bytes (bounded: %s)\n", b / a, g / s,
            b / a < 1.5 ? "yes" : "NO, it grows with the input"
}'
rm -f "$tmp/big.out"

# 3. cgannotate against callgrind_annotate on Callgrind's file
if [ ! -f "$tmp/cg.out" ]; then
    :
elif [ -z "$CALLGRIND_ANNOTATE" ]; then
    missing="$missing; callgrind_annotate (cgannotate's ratio)"
else
    echo "profile: cgannotate: Callgrind's file above"
    timed 1 "$tmp/theirs" "$CALLGRIND_ANNOTATE" "$tmp/cg.out"
    theirs=$cpu
    if [ "$rc" -ne 0 ]; then
        echo "  callgrind_annotate failed: $(head -1 "$tmp/err")"; status=1
    else
        line "callgrind_annotate" "$theirs"
        inner=$INNER
        timed "$REPEAT" "$tmp/mine" "$CGANNOTATE" "$tmp/cg.out"
        inner=1
        "$CGANNOTATE" "$tmp/cg.out" >"$tmp/mine" 2>/dev/null
        [ "$rc" -eq 0 ] || { echo "  cgannotate failed: $(head -1 "$tmp/err")"; status=1; }
        same=differ
        cmp -s "$tmp/mine" "$tmp/theirs" && same="same report"
        line "cgannotate" "$theirs" "$(awk -v m="$cpu" -v t="$theirs" -v s="$same" 'BEGIN {
            printf "  %.0fx faster (each run '"$INNER"' in a row; target >= 100x: %s; %s)", (m > 0 ? t / m : 0),
                (m > 0 && t / m >= 100 ? "met" : "missed"), s }')"
    fi
fi

[ -z "$missing" ] || echo "profile: baselines not run: ${missing#; }"
exit $status
