#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-jobs: cgverify -j 2 against -j 1 (the baseline, one process) on
# the same files (issue 55, item 2): BENCH_JOBS_FILES cggen files of
# BENCH_JOBS_SIZE (seeds 1, 2, ...), made now.  Each line gives CPU time
# (user + sys of cgverify and its workers, GNU time), wall time, each of
# the run of least wall time of BENCH_JOBS_REPEAT runs (3), and the wall
# time's speedup over -j 1; then the load average, since a busy machine
# gives the workers less than 2 cores.  The outputs of -j 1 and -j 2 must
# be the same bytes.
#   CGGEN=... CGVERIFY=... bench/bench-jobs.sh
set -u
CGGEN=${CGGEN:-./tools/cggen}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
FILES=${BENCH_JOBS_FILES:-200}
SIZE=${BENCH_JOBS_SIZE:-1M}
REPEAT=${BENCH_JOBS_REPEAT:-3}
. "$(dirname "$0")/timing.sh"
bench_begin bench-jobs "CPU time of a child and its workers"
pick=wall

i=1
while [ $i -le "$FILES" ]; do
    "$CGGEN" --seed "$i" --size "$SIZE" -o "$tmp/f$i.out" || { echo "bench-jobs: cggen failed"; exit 1; }
    i=$((i + 1))
done
bytes=$(cat "$tmp"/f*.out | wc -c)
echo "bench-jobs: cgverify on $FILES cggen files of $SIZE ($bytes bytes), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs online, least wall of $REPEAT runs"
status=0
for j in 1 2; do
    timed "$tmp/out.$j" "$CGVERIFY" -j $j "$tmp"/f*.out
    [ "$rc" -le 1 ] || { echo "  -j $j failed: $(head -1 "$tmp/err")"; status=1; }
    [ $j = 1 ] && base=$wall
    awk -v j="$j" -v c="$cpu" -v w="$wall" -v b="$base" 'BEGIN {
        printf "  cgverify -j %s  cpu %8.3f s  wall %8.3f s  %6.2fx wall of -j 1\n", j, c, w, (w > 0 ? b / w : 0) }'
done
cmp -s "$tmp/out.1" "$tmp/out.2" || { echo "  -j 2 printed other bytes than -j 1"; status=1; }
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
exit $status
