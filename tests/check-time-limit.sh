#!/bin/sh
# SPDX-License-Identifier: MIT
# check-time-limit: tests/time-limit.sh, which runs every test of make
# check, fails a test that spins (its CPU limit) or sleeps (its wall
# limit) for ever, kills what that test started, and passes any other
# exit status through (0, 1, 77, 99, a signal).
set -u
wrap="${CGW_SRCDIR:-.}/tests/time-limit.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-time-limit.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v timeout >/dev/null 2>&1 || { echo "no timeout(1) here"; exit 77; }
status=0
fail() { echo "check-time-limit: $*"; status=1; }

# run LIMIT GRACE WALL COMMAND...: the wrapper's exit status in $rc, its
# time in $took, its output in $tmp/out (WALL empty: the default)
run() {
    limit=$1 grace=$2 wall=$3
    shift 3
    t0=$(date +%s)
    if [ -n "$wall" ]; then
        CGW_TEST_WALL_TIMEOUT=$wall CGW_TEST_TIMEOUT=$limit CGW_TEST_KILL_AFTER=$grace \
            sh "$wrap" "$@" >"$tmp/out" 2>&1
    else
        (unset CGW_TEST_WALL_TIMEOUT
            CGW_TEST_TIMEOUT=$limit CGW_TEST_KILL_AFTER=$grace sh "$wrap" "$@" >"$tmp/out" 2>&1)
    fi
    rc=$?
    took=$(($(date +%s) - t0))
}

# gone PIDFILE WHAT: the process in PIDFILE has ended (a moment for its
# reaper)
gone() {
    [ -s "$1" ] || { fail "$2: the test did not start its child"; return; }
    child=$(cat "$1")
    for _ in 1 2 3; do
        kill -0 "$child" 2>/dev/null || return
        sleep 1
    done
    fail "$2: the test's child $child outlived it"
    kill -KILL "$child"
}

# a test that spins for ever in a child of its own, and one that
# spins itself: FAIL at the CPU limit (1 s), with a wall limit far
# away; a child that ignores SIGXCPU is killed at the hard limit
for how in "" "trap '' XCPU;"; do
    rm -f "$tmp/pid"
    run 1 1 60 sh -c "sh -c \"$how while :; do :; done\" & c=\$!; echo \$c >'$tmp/pid'; wait \$c"
    what="a test whose child spins (${how:-SIGXCPU heeded})"
    [ $rc -eq 1 ] || fail "$what: exit $rc, not 1 (FAIL)"
    [ $took -le 10 ] || fail "$what: ended after $took s, CPU limit 1 + 1"
    gone "$tmp/pid" "$what"
done
run 1 1 60 sh -c 'while :; do :; done'
[ $rc -eq 1 ] || fail "a test that spins: exit $rc, not 1 (FAIL)"
[ $took -le 10 ] || fail "a test that spins: ended after $took s, CPU limit 1 + 1"
grep -q '^time-limit: killed after 1 s: time limit (CPU time' "$tmp/out" ||
    fail "a test that spins: no time-limit line in the log: $(cat "$tmp/out")"

# a test that sleeps for ever, in a child of its own: FAIL at the wall
# limit (1 s, CPU limit 30 s), and the child is gone too
for ignore in "" "trap '' TERM;"; do
    rm -f "$tmp/pid"
    run 30 2 1 sh -c "$ignore sleep 1000 & echo \$! >'$tmp/pid'; wait; sleep 1000"
    what="a test that sleeps (${ignore:-TERM heeded})"
    [ $rc -eq 1 ] || fail "$what: exit $rc, not 1 (FAIL)"
    [ $took -le 6 ] || fail "$what: ended after $took s, wall limit 1 + 2"
    grep -q '^time-limit: killed after 1 s: time limit (wall time' "$tmp/out" ||
        fail "$what: no time-limit line in the log: $(cat "$tmp/out")"
    gone "$tmp/pid" "$what"
done
# the wall limit is five times the CPU limit unless given
run 1 2 "" true
grep -q '^time-limit: 0 s of 5 s, ' "$tmp/out" || fail "the wall limit is not 5 x 1 s: $(cat "$tmp/out")"

# within the limit, the test's own status
for want in 0 1 77 99; do
    run 5 2 "" sh -c "echo ran; exit $want"
    [ $rc -eq $want ] || fail "exit $want came out as $rc"
    grep -q '^ran$' "$tmp/out" || fail "the test's output is not in the log: $(cat "$tmp/out")"
    grep -q '^time-limit: [0-9]* s of 25 s, [0-9]*\.[0-9] s CPU (limit 5 s a process)$' "$tmp/out" || fail "no time line: $(cat "$tmp/out")"
done
# the CPU time of what the test ran (a busy grandchild) is counted
run 20 2 "" sh -c 'sh -c "i=0; while [ \$i -lt 1000000 ]; do i=\$((i + 1)); done"'
grep -q '^time-limit: [0-9]* s of 100 s, 0\.0 s CPU' "$tmp/out" && fail "no CPU time counted: $(cat "$tmp/out")"
run 5 2 "" sh -c 'kill -SEGV $$'
[ $rc -ne 0 ] && [ $rc -ne 77 ] && [ $rc -ne 99 ] || fail "a crash came out as $rc"
run 0 2 "" true
[ $rc -eq 0 ] || fail "CGW_TEST_TIMEOUT=0 (no limit): exit $rc"
run 1x 2 "" true
[ $rc -eq 99 ] || fail "CGW_TEST_TIMEOUT=1x: exit $rc, not 99 (hard error)"
run 1 2 1x true
[ $rc -eq 99 ] || fail "CGW_TEST_WALL_TIMEOUT=1x: exit $rc, not 99 (hard error)"
[ $status -eq 0 ] && echo "a test that spins fails at its CPU limit, one that sleeps at its wall limit, its child killed; exit statuses pass through"
exit $status
