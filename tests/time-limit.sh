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
# meaning.  The last line of each log gives the test's time.
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
echo "time-limit: $took s of $limit s"
exit $rc
