#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgwprof: the cgwprof launcher preloads libcgwprof into a program
# built with -finstrument-functions and not linked with it
# (tests/prof-preload): without it the C library's hooks do nothing and
# no profile is written; with it the profile has the program's exact
# call counts, cgverify finds it valid and callgrind_annotate reads it.
# A shell that runs no instrumented code writes no profile; the program
# cgwprof ran says so.  An -o folder that is missing fails at once.
set -u
lib="$CGW_BUILDDIR/prof/.libs/libcgwprof.so"
[ -r "$lib" ] || { echo "SKIP: no shared libcgwprof (--disable-shared)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
subject="$CGW_BUILDDIR/tests/prof-preload"
launcher="$CGW_BUILDDIR/prof/cgwprof"

CGWPROF_OUT="$tmp/plain.out" "$subject" graph >/dev/null || fail "prof-preload graph failed"
[ ! -e "$tmp/plain.out" ] || fail "a profile without libcgwprof"

CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/p.%p" "$subject" graph >/dev/null ||
    fail "cgwprof prof-preload graph failed"
set -- "$tmp"/p.*
[ $# -eq 1 ] && [ -s "$1" ] || fail "not one profile: $*"
profile=$1
"$CGW_BUILDDIR/tools/cgverify" --roundtrip "$profile" >"$tmp/verify" 2>&1 ||
    { cat "$tmp/verify"; fail "cgverify rejects the profile"; }
grep -q 'inclusive-excess' "$tmp/verify" && fail "calls carry more than their callee's time"
# main -> outer x3, outer -> inner x6 (two call sites, three each)
# (names are compressed: "fn=(5) main" first, then "fn=(5)")
awk 'function name(s,  id) { id = s; sub(/^c?fn=/, "", id); sub(/ .*/, "", id)
                             if (index(s, " ")) names[id] = substr(s, index(s, " ") + 1)
                             return names[id] }
     /^fn=/ { fn = name($0) } /^cfn=/ { cfn = name($0) }
     /^calls=/ { split($1, c, "="); n[fn "|" cfn] += c[2] }
     END { for (k in n) print n[k], k }' "$profile" >"$tmp/calls"
grep -q '^3 main|outer$' "$tmp/calls" ||
    { cat "$tmp/calls"; fail "main does not call outer 3 times"; }
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
    # every function, however little its time (the default hides those
    # under 0.1% of it, which a busy machine can make outer)
    "$CALLGRIND_ANNOTATE" --threshold=100 "$profile" >"$tmp/annotate" 2>&1 ||
        fail "callgrind_annotate failed"
    grep -q 'PROGRAM TOTALS' "$tmp/annotate" || fail "callgrind_annotate shows no totals"
    grep -q ':outer' "$tmp/annotate" || fail "callgrind_annotate does not show outer"
fi

cd "$tmp" && CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/sh.out" sh -c true ||
    fail "cgwprof sh failed"
[ ! -e "$tmp/sh.out" ] || fail "a profile of a shell that made no instrumented call"

# A program built without -finstrument-functions: one line on stderr
# says why there is no profile and how to build for one, from the
# program cgwprof ran only (not the shell it runs), and its exit status
# is kept.  (The shell runs two programs, then becomes false, which
# exits through exit(): dash itself leaves through _exit(), which runs
# no destructor.)  An instrumented program says nothing of the kind.
CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/plain.%p" sh -c 'true; true; exec false' \
    2>"$tmp/plain.err"
[ $? -eq 1 ] || fail "the exit status of a program without instrumentation is not kept"
cat "$tmp/plain.err"
[ "$(grep -c 'no instrumented function was called, so no profile was written' \
    "$tmp/plain.err")" -eq 1 ] || fail "not one line about no instrumented call"
grep -q 'build the program with -finstrument-functions' "$tmp/plain.err" ||
    fail "no word of -finstrument-functions"
grep -q 'cgwprof' "$tmp/plain.err" || fail "no word of cgwprof or libcgwprof"
set -- "$tmp"/plain.[0-9]*
[ ! -e "$1" ] || fail "a profile of a program without instrumentation: $*"
CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/q.out" "$subject" graph >/dev/null 2>"$tmp/q.err" ||
    fail "cgwprof prof-preload graph failed"
! grep -q 'no instrumented' "$tmp/q.err" || fail "an instrumented program is told it is not"

# -o into a folder that does not exist (or is no folder): a clear error
# (status 2, as the tools' I/O errors) before the program runs
for out in "$tmp/missing/p.out" "$tmp/q.out/p.out"; do
    CGWPROF_LIBRARY=$lib sh "$launcher" -o "$out" sh -c ": >'$tmp/ran'" 2>"$tmp/o.err"
    [ $? -eq 2 ] || fail "cgwprof -o $out: not status 2"
    cat "$tmp/o.err"
    [ ! -e "$tmp/ran" ] || fail "cgwprof -o $out ran the program"
    grep -q "${out%/*}" "$tmp/o.err" || fail "cgwprof -o $out does not name the folder"
done
grep -q "is not a folder" "$tmp/o.err" || fail "a file taken for a folder is not said so"
CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/missing/p.out" sh -c true 2>&1 |
    grep -q "the folder $tmp/missing does not exist" || fail "a missing folder is not said so"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
    CGWPROF_LIBRARY=$lib sh "$launcher" -o "$tmp/ro/p.out" sh -c ": >'$tmp/ran'" 2>"$tmp/o.err"
    [ $? -eq 2 ] && [ ! -e "$tmp/ran" ] && grep -q "$tmp/ro is not writable" "$tmp/o.err" ||
        { cat "$tmp/o.err"; fail "a folder that is not writable is not refused"; }
fi
sh "$launcher" --bogus true 2>/dev/null; [ $? -eq 2 ] || fail "an unknown option is not a usage error"
# a program that cannot be run: said in cgwprof's own words, with the
# shell's statuses (127 not found, 126 not runnable)
for prog in ./nosuchprog nosuchprog-in-path "$tmp"; do
    CGWPROF_LIBRARY=$lib sh "$launcher" "$prog" 2>"$tmp/p.err"
    rc=$?
    { [ $rc -eq 127 ] || [ $rc -eq 126 ]; } && grep -q "^cgwprof: $prog: " "$tmp/p.err" &&
        ! grep -q '[0-9]: exec' "$tmp/p.err" ||
        fail "cgwprof $prog: exit $rc: $(cat "$tmp/p.err")"
done
echo "cgwprof: preloaded, exact counts, valid profile; nothing from uninstrumented programs but a line; a missing -o folder refused"
