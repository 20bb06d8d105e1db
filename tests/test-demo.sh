#!/bin/sh
# SPDX-License-Identifier: MIT
# test-demo: the steps of ./quickstart demo (examples/demo.sh): the
# profiled demo writes its profile, cgverify accepts it, and the reader
# example and callgrind_annotate show the demo's own functions with
# their file and call counts that the demo's work implies.
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
# CGWPROF_OUT=...gz: a gzip profile with the same calls
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    CGWPROF_OUT="$tmp/profile.gz" "$CGW_BUILDDIR/examples/demo" >/dev/null 2>&1 ||
        fail "the demo with CGWPROF_OUT=...gz failed"
    gzip -t "$tmp/profile.gz" || fail "CGWPROF_OUT=...gz is not gzip"
    gzip -dc "$tmp/profile.gz" | grep -q '^calls=200000 ' || fail "the gzip profile lost the calls"
    "$CGW_BUILDDIR/tools/cgverify" -q "$tmp/profile.gz" || fail "the gzip profile is not valid"
fi
cat "$tmp/out"
