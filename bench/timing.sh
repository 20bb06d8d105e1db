# SPDX-License-Identifier: MIT
# timing.sh, sourced by the benchmarks: GNU time for a child's CPU time
# (user + sys), wall time and peak RSS, and a scratch folder.
#   bench_begin NAME WHAT: TIME, tmp (removed at exit); without GNU time,
#       "NAME: no GNU time at TIME (WHAT): not run" and exit 0
#   timed OUT CMD...: CMD (stdout to OUT, stderr to $tmp/err) REPEAT
#       times (default 3); sets cpu and wall of the run of least CPU time
#       (least wall time with pick=wall), rss (KiB) the largest and rc
#       the worst status
bench_begin() {
    TIME=/usr/bin/time
    tmp=$(mktemp -d) || exit 2
    trap 'rm -rf "$tmp"' EXIT
    if ! "$TIME" -f '%U' -o "$tmp/t" true 2>/dev/null; then
        echo "$1: no GNU time at $TIME ($2): not run"
        exit 0
    fi
}

timed() {
    out=$1
    shift
    cpu="" wall="" rss=0 rc=0 k=0
    while [ $k -lt "${REPEAT:-3}" ]; do
        "$TIME" -f '%U %S %e %M' -o "$tmp/t" "$@" >"$out" 2>"$tmp/err"
        r=$?
        [ $r -gt $rc ] && rc=$r
        tail -1 "$tmp/t" >"$tmp/t1"
        read -r u s w m <"$tmp/t1"
        c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
        if [ "${pick:-cpu}" = wall ]; then
            better=$(awk -v a="$w" -v b="${wall:-}" 'BEGIN { print (b == "" || a < b) }')
        else
            better=$(awk -v a="$c" -v b="${cpu:-}" 'BEGIN { print (b == "" || a < b) }')
        fi
        [ "$better" = 1 ] && cpu=$c wall=$w
        [ "$m" -gt "$rss" ] && rss=$m
        k=$((k + 1))
    done
}
