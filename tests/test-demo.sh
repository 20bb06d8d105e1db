#!/bin/sh
# SPDX-License-Identifier: MIT
# test-demo: the steps of ./quickstart demo (examples/demo.sh): the
# profiled demo writes its profile, cgverify accepts it, and the reader
# example and callgrind_annotate show the demo's own functions with
# their file and call counts that the demo's work implies; with a log
# (./quickstart demo), one line a step and the results under headings.
set -u
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }

sh "$CGW_SRCDIR/examples/demo.sh" "$CGW_BUILDDIR" "$tmp/profile" >"$tmp/out" 2>&1 ||
    fail "examples/demo.sh failed"
grep -q ': valid: 1 part' "$tmp/out" || fail "cgverify did not find the profile valid"
! grep -q 'inclusive-excess' "$tmp/out" || fail "calls carry more than their callee's time"
grep -q '^[0-9][0-9]*  *count_word$' "$tmp/out" || fail "the reader example does not list count_word"
grep -q '^calls=200000 ' "$tmp/profile" || fail "no call counted 200000 times (one count_word a word)"
if command -v callgrind_annotate >/dev/null 2>&1; then
    grep -q ':count_word \[' "$tmp/out" || fail "callgrind_annotate does not show count_word"
fi
if [ "${CGW_HAVE_LIBDW:-no}" = yes ]; then
    grep -q '^fl=(1) .*/examples/demo.c$' "$tmp/profile" || fail "no file name from the debug info"
fi
# with a log, as ./quickstart demo runs it: one line a step, the demo's
# own output in the log, then the results under their headings
sh "$CGW_SRCDIR/examples/demo.sh" "$CGW_BUILDDIR" "$tmp/profile2" "$tmp/log" >"$tmp/out2" 2>&1 ||
    { cat "$tmp/out2"; fail "examples/demo.sh with a log failed"; }
[ "$(sed -n 1,3p "$tmp/out2" | tr -s ' ')" = "profile ... ok
verify ... ok
report ... ok" ] || { cat "$tmp/out2"; fail "not one line a step"; }
grep -q 'distinct words' "$tmp/log" || fail "the demo's output is not in the log"
! grep -q 'distinct words' "$tmp/out2" || fail "the demo's output is not only in the log"
for h in 'Top functions' "cgverify's verdict" 'The profile'; do
    grep -q "^== $h" "$tmp/out2" || { cat "$tmp/out2"; fail "no heading $h"; }
done
# (its warnings first, where there are: without libdw, instr positions)
awk "/^== /{ on = /^== cgverify's verdict/; next } on" "$tmp/out2" | grep -q ': valid: 1 part' ||
    { cat "$tmp/out2"; fail "the verdict is not under its heading"; }
sed -n '/^== The profile/{n;p;}' "$tmp/out2" | grep -qx "$tmp/profile2" ||
    { cat "$tmp/out2"; fail "the profile's path is not under its heading"; }
[ ! -e "$tmp/profile2.verdict" ] || fail "demo.sh left its verdict file"
# it ends with cgreport's page and where it is
sed -n '/^== Its page/{n;p;}' "$tmp/out2" | grep -qx "$tmp/profile2.html" ||
    { cat "$tmp/out2"; fail "the page's path is not under its heading"; }
grep -q '<script id="profile" type="application/json">' "$tmp/profile2.html" ||
    fail "no cgreport page at $tmp/profile2.html"
# CGWPROF_OUT=...gz: a gzip profile with the same calls
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    CGWPROF_OUT="$tmp/profile.gz" "$CGW_BUILDDIR/examples/demo" >/dev/null 2>&1 ||
        fail "the demo with CGWPROF_OUT=...gz failed"
    gzip -t "$tmp/profile.gz" || fail "CGWPROF_OUT=...gz is not gzip"
    gzip -dc "$tmp/profile.gz" | grep -q '^calls=200000 ' || fail "the gzip profile lost the calls"
    "$CGW_BUILDDIR/tools/cgverify" -q "$tmp/profile.gz" || fail "the gzip profile is not valid"
fi
cat "$tmp/out"
