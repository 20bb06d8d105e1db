#!/bin/sh
# SPDX-License-Identifier: MIT
# time-limit.sh COMMAND [ARG...]: run one test of make check (the
# harness's LOG_COMPILER) under time limits, so that a test that hangs
# (a reader looping on a truncated stream, a wait that never ends) fails
# instead of holding up make check for ever, while a test that is only
# slow, on a loaded machine, still passes.
#
# Two limits, both set for the test's own process and every process it
# starts:
#  - CPU time, the main guard: CGW_TEST_TIMEOUT seconds of CPU for each
#    process (360 by default: about ten times the most any test uses,
#    test-compat.sh's 33 s in all; 0: no limit of either kind).  It is
#    ulimit -t, which children inherit: a process that spins for that
#    long gets SIGXCPU, and SIGKILL CGW_TEST_KILL_AFTER seconds (10 by
#    default) later if it ignores it.  A machine that is slow or busy
#    stretches a test's wall time, not its CPU time, so this limit does
#    not fire there.
#  - wall time, for a test that hangs without computing (a sleep, a
#    read or a wait that never returns): CGW_TEST_WALL_TIMEOUT seconds,
#    five times CGW_TEST_TIMEOUT by default (1800 s), far above any
#    test's time even on a loaded machine.  The test and all it started
#    get SIGTERM there and SIGKILL CGW_TEST_KILL_AFTER seconds later.
# Either way the test FAILs with "killed after N s: time limit" and why
# in its log.  Any other exit status is the test's own, so 0, 77 (skip)
# and 99 (hard error) keep their meaning.  The last line of each log
# gives the test's time, wall and CPU (user+sys of the test and all it
# waited for; tests/time-table.sh adds them up).
set -u
limit=${CGW_TEST_TIMEOUT-360}
grace=${CGW_TEST_KILL_AFTER-10}
case $limit$grace in
'' | *[!0-9]*)
    echo "time-limit: CGW_TEST_TIMEOUT ($limit) and CGW_TEST_KILL_AFTER ($grace) are whole seconds"
    exit 99 ;;
esac
wall=${CGW_TEST_WALL_TIMEOUT-$((limit * 5))}
case $wall in
'' | *[!0-9]*)
    echo "time-limit: CGW_TEST_WALL_TIMEOUT ($wall) is whole seconds"
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
# ends it: the trap passes the signal on.  The CPU limit is set in the
# shell that then becomes the test (exec), not in this one: the soft
# limit sends SIGXCPU, the hard one, grace seconds later, SIGKILL.
exec 3<&0
timeout --kill-after="$grace" "$wall" sh -c '
    ulimit -t "$(($1 + $2))" 2>/dev/null && ulimit -S -t "$1" 2>/dev/null ||
        echo "time-limit: could not set a CPU time limit (ulimit -t): only the wall limit holds"
    shift 2
    exec "$@"' time-limit "$limit" "$grace" "$@" <&3 3<&- &
pid=$!
exec 3<&-
trap 'kill -TERM $pid 2>/dev/null' HUP INT TERM
while :; do
    wait $pid
    rc=$?
    kill -0 $pid 2>/dev/null || break # else a signal cut the wait short
done
took=$(($(date +%s) - start))
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
times="$took s of $wall s, ${cpu:-?} s CPU (limit $limit s a process)"
if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $took -ge "$wall" ]; then
    echo "time-limit: killed after $wall s: time limit (wall time: the test waited or slept, it did not compute; CGW_TEST_WALL_TIMEOUT=$wall)"
    echo "time-limit: $times"
    exit 1
fi
# SIGXCPU: the test itself, or a process whose status it passed on,
# spun for CGW_TEST_TIMEOUT seconds of CPU
# spun for CGW_TEST_TIMEOUT seconds of CPU; SIGKILL before the wall
# limit, after that much CPU: one that ignored SIGXCPU
xcpu=no
if [ $rc -gt 128 ] && [ "$(kill -l $((rc - 128)) 2>/dev/null)" = XCPU ]; then
    xcpu=yes
elif [ $rc -eq 137 ] && [ -n "$cpu" ] && awk -v c="$cpu" -v l="$limit" 'BEGIN { exit !(c >= l) }'; then
    xcpu=yes
fi
if [ $xcpu = yes ]; then
    echo "time-limit: killed after $limit s: time limit (CPU time: a process computed for $limit s, a loop that never ends; CGW_TEST_TIMEOUT=$limit)"
    echo "time-limit: $times"
    exit 1
fi
# a test that fails on its own status after using the CPU limit may
# have had a process killed by it: say so, the status stays the test's
case $rc in
0 | 77) ;;
*)
    if [ -n "$cpu" ] && awk -v c="$cpu" -v l="$limit" 'BEGIN { exit !(c >= l) }'; then
        echo "time-limit: the test used $cpu s of CPU, the limit of one process is $limit s: one may have been killed by it (SIGXCPU, CGW_TEST_TIMEOUT)"
    fi ;;
esac
echo "time-limit: $times"
exit $rc
