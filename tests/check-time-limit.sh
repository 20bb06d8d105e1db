#!/bin/sh
# SPDX-License-Identifier: MIT
# check-time-limit: tests/time-limit.sh, which runs every test of make
# check, fails a test that never ends within its limit, kills what that
# test started, and passes any other exit status through (0, 1, 77,
# 99, a signal).
set -u
wrap="${CGW_SRCDIR:-.}/tests/time-limit.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-time-limit.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v timeout >/dev/null 2>&1 || { echo "no timeout(1) here"; exit 77; }
status=0
fail() { echo "check-time-limit: $*"; status=1; }

# run LIMIT GRACE COMMAND...: the wrapper's exit status in $rc, its
# time in $took, its output in $tmp/out
run() {
    limit=$1 grace=$2
    shift 2
    t0=$(date +%s)
    CGW_TEST_TIMEOUT=$limit CGW_TEST_KILL_AFTER=$grace sh "$wrap" "$@" >"$tmp/out" 2>&1
    rc=$?
    took=$(($(date +%s) - t0))
}

# a test that sleeps for ever, in a child of its own: FAIL within the
# limit, and the child is gone too
for ignore in "" "trap '' TERM;"; do
    rm -f "$tmp/pid"
    run 1 2 sh -c "$ignore sleep 1000 & echo \$! >'$tmp/pid'; wait; sleep 1000"
    [ $rc -eq 1 ] || fail "a test that hangs (${ignore:-TERM heeded}): exit $rc, not 1 (FAIL)"
    [ $took -le 6 ] || fail "a test that hangs (${ignore:-TERM heeded}): ended after $took s, limit 1 + 2"
    grep -q '^time-limit: killed after 1 s: time limit' "$tmp/out" ||
        fail "no time-limit line in the log: $(cat "$tmp/out")"
    [ -s "$tmp/pid" ] || fail "the hung test did not start its child"
    child=$(cat "$tmp/pid")
    for _ in 1 2 3; do # a moment for its reaper
        kill -0 "$child" 2>/dev/null || break
        sleep 1
    done
    if kill -0 "$child" 2>/dev/null; then
        fail "the hung test's child $child outlived it"
        kill -KILL "$child"
    fi
done

# within the limit, the test's own status
for want in 0 1 77 99; do
    run 5 2 sh -c "echo ran; exit $want"
    [ $rc -eq $want ] || fail "exit $want came out as $rc"
    grep -q '^ran$' "$tmp/out" || fail "the test's output is not in the log: $(cat "$tmp/out")"
    grep -q '^time-limit: [0-9]* s of 5 s, [0-9]*\.[0-9] s CPU$' "$tmp/out" || fail "no time line: $(cat "$tmp/out")"
done
# the CPU time of what the test ran (a busy grandchild) is counted
run 20 2 sh -c 'sh -c "i=0; while [ \$i -lt 1000000 ]; do i=\$((i + 1)); done"'
grep -q '^time-limit: [0-9]* s of 20 s, 0\.0 s CPU$' "$tmp/out" && fail "no CPU time counted: $(cat "$tmp/out")"
run 5 2 sh -c 'kill -SEGV $$'
[ $rc -ne 0 ] && [ $rc -ne 77 ] && [ $rc -ne 99 ] || fail "a crash came out as $rc"
run 0 2 true
[ $rc -eq 0 ] || fail "CGW_TEST_TIMEOUT=0 (no limit): exit $rc"
run 1x 2 true
[ $rc -eq 99 ] || fail "CGW_TEST_TIMEOUT=1x: exit $rc, not 99 (hard error)"
[ $status -eq 0 ] && echo "a hung test fails at its limit, its child killed; exit statuses pass through"
exit $status
