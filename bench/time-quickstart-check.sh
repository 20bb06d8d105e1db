#!/bin/sh
# SPDX-License-Identifier: MIT
# time-quickstart-check: how long ./quickstart check takes from a fresh
# clone on a machine that is busy: the tree at HEAD cloned into a
# temporary folder (SHARED, the folder of oracles and corpus, linked
# beside it as ../shared), one process spinning a core all along, then
# ./quickstart check there; prints its wall and CPU time (user+sys of
# all it ran) and removes the clone.  The target: 6 minutes of wall time
# on two cores.
#   bench/time-quickstart-check.sh SHARED
# Exits with quickstart's status; its output is in the clone's
# quickstart.log, shown at the end when it fails.
set -u
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: bench/time-quickstart-check.sh SHARED" >&2; exit 2; }
shared=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-quickstart.XXXXXX") || exit 2
spinner=""
cleanup() {
    [ -n "$spinner" ] && kill "$spinner" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
git clone -q "$src" "$tmp/libcgw" || exit 2
ln -s "$shared" "$tmp/shared"
echo "time-quickstart-check: $(git -C "$tmp/libcgw" log -1 --format='%h %s'), $(nproc) cores, one spun"
sh -c 'while :; do :; done' &
spinner=$!
# times' second line: user and system time of the children waited for
# (quickstart and all it ran; not the spinner, which is killed later),
# into a file: in $(...) it would run in a subshell
start=$(date +%s)
(cd "$tmp/libcgw" && ./quickstart check) >"$tmp/quickstart.log" 2>&1
rc=$?
wall=$(($(date +%s) - start))
times >"$tmp/times"
cpu=$(sed -n 2p "$tmp/times" | awk '{ n = 0
    for (i = 1; i <= 2; i++) { split($i, t, "m"); sub("s", "", t[2]); n += t[1] * 60 + t[2] }
    printf "%.0f", n }')
kill "$spinner" 2>/dev/null
wait "$spinner" 2>/dev/null
spinner=""
if [ $rc -ne 0 ]; then
    tail -n 60 "$tmp/quickstart.log"
    echo "time-quickstart-check: ./quickstart check failed (exit $rc)"
else
    sed -n '/^quickstart: the slowest tests/,$p' "$tmp/quickstart.log"
fi
echo "time-quickstart-check: wall $wall s, CPU $cpu s (user+sys), target 360 s wall"
exit $rc
