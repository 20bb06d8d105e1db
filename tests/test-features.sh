#!/bin/sh
# SPDX-License-Identifier: MIT
# test-features: every tool's --version prints "TOOL (libcgw) VERSION"
# and a "Features:" line with what the build has: gzip when built with
# zlib (told by libcgw at run time, cgw_features()), pprof for cgconvert
# when it links libcgw-pprof (protobuf-c), and libdw for cgwprof when
# libcgwprof reads file and line numbers.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
B=${CGW_BUILDDIR:-.}
gzip=
[ "${CGW_HAVE_ZLIB:-no}" = yes ] && gzip=" gzip"
pprof=
[ "${CGW_HAVE_PROTOBUF_C:-no}" = yes ] && pprof=" pprof"
libdw=
[ "${CGW_HAVE_LIBDW:-no}" = yes ] && libdw=" libdw"
# expect TOOL FEATURES: TOOL --version says so, exit 0, nothing else
expect() {
    "$B/tools/$1" --version >"$tmp/out" 2>"$tmp/err" || fail "$1 --version: exit $?"
    [ -s "$tmp/err" ] && fail "$1 --version: wrote to stderr: $(cat "$tmp/err")"
    head -n 1 "$tmp/out" | grep -q "^$1 (libcgw) [0-9][0-9.]*\$" ||
        fail "$1 --version: first line $(head -n 1 "$tmp/out")"
    got=$(grep '^Features:' "$tmp/out")
    [ "$got" = "Features:$2" ] || fail "$1 --version: \"$got\", want \"Features:$2\""
    [ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "$1 --version: $(wc -l <"$tmp/out") lines"
}
for t in cgverify cggen cgrecode cgmerge cgdiff; do
    expect $t "$gzip"
done
expect cgconvert "$gzip$pprof"
# cgwprof is a script: its line is configure's
out=$("$B/prof/cgwprof" --version) || fail "cgwprof --version: exit $?"
got=$(printf '%s\n' "$out" | grep '^Features:')
[ "$got" = "Features:$gzip$libdw" ] || fail "cgwprof --version: \"$got\", want \"Features:$gzip$libdw\""
echo "every tool's --version says its features:$gzip$pprof$libdw"
