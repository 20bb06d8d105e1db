#!/bin/sh
# SPDX-License-Identifier: MIT
# time-limit.sh COMMAND [ARG...]: run one test of make check (the
# harness's LOG_COMPILER) under a time limit, so that a test that hangs
# (a reader looping on a truncated stream) fails instead of holding up
# make check for ever.
#
# The limit is CGW_TEST_TIMEOUT seconds (360 by default: about ten times
# the slowest test, test-compat.sh, at about 33 s; 0: no limit).  The
# test and every process it started get SIGTERM at the limit and SIGKILL
# CGW_TEST_KILL_AFTER seconds later (10 by default); the test then FAILs
# with "killed after N s: time limit" in its log.  Any other exit status
# is the test's own, so 0, 77 (skip) and 99 (hard error) keep their
# meaning.  The last line of each log gives the test's time, wall and
# CPU (user+sys of the test and all it waited for; tests/time-table.sh
# adds them up).
set -u
limit=${CGW_TEST_TIMEOUT-360}
grace=${CGW_TEST_KILL_AFTER-10}
case $limit$grace in
'' | *[!0-9]*)
    echo "time-limit: CGW_TEST_TIMEOUT ($limit) and CGW_TEST_KILL_AFTER ($grace) are whole seconds"
    exit 99 ;;
esac
if [ "$limit" -eq 0 ]; then
    exec "$@"
fi
if ! command -v timeout >/dev/null 2>&1; then
    echo "time-limit: no timeout(1) (coreutils) here: running without a time limit"
    exec "$@"
fi

start=$(date +%s)
# timeout runs the test in a process group of its own, so that the
# signals reach what the test started too.  In the background, so that
# an interrupted make (^C, which no longer reaches that group) still
# ends it: the trap passes the signal on.
exec 3<&0
timeout --kill-after="$grace" "$limit" "$@" <&3 3<&- &
pid=$!
exec 3<&-
trap 'kill -TERM $pid 2>/dev/null' HUP INT TERM
while :; do
    wait $pid
    rc=$?
    kill -0 $pid 2>/dev/null || break # else a signal cut the wait short
done
took=$(($(date +%s) - start))
if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $took -ge "$limit" ]; then
    echo "time-limit: killed after $limit s: time limit (CGW_TEST_TIMEOUT=$limit)"
    exit 1
fi
# times' second line: the user and system time of the children waited
# for, as "1m2.345s 0m0.678s"; into a file, since in a pipe or $(...)
# it would run in a subshell, which has waited for no one
cpu=""
if tf=$(mktemp "${TMPDIR:-/tmp}/cgw-times.XXXXXX" 2>/dev/null); then
    times >"$tf"
    cpu=$(sed -n 2p "$tf" | awk '{ n = 0
        for (i = 1; i <= 2; i++) { split($i, t, "m"); sub("s", "", t[2]); n += t[1] * 60 + t[2] }
        printf "%.1f", n }')
    rm -f "$tf"
fi
echo "time-limit: $took s of $limit s, ${cpu:-?} s CPU"
exit $rc
