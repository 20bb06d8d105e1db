#!/bin/sh
# SPDX-License-Identifier: MIT
# mutate.sh: how strong the suite is, measured.  Plants each bug of a
# list (tests/mutants.list) in a copy of the tree, one at a time, builds
# it and runs the tests that exercise the file; a bug that no test fails
# on survives.  Prints each bug's fate and the count; exits 1 when one
# survives that the list does not mark as known ("harmless" or
# "survives", with the reason in HACKING.md's "The suite's strength").
#
#   tests/mutate.sh [-k] [LIST] [ID...]
#     LIST: the bugs (default tests/mutants.list); ID: only those
#     -k: keep the copy (its path is printed)
#
# A line of the list is tab-separated:
#   ID  FILE  OLD  NEW  TESTS  [KNOWN]
# OLD is text of FILE that must occur exactly once, NEW what replaces it
# ("\n" and "\t" in either are a line feed and a tab); TESTS the tests
# to run (make check TESTS=...); KNOWN "harmless" or "survives" for a
# bug that no test is expected to catch.  Lines starting with # and blank
# lines are skipped.  Needs git, python3 and the tools a build needs;
# takes minutes (one incremental build and the tests a bug).
set -u
keep=0
[ "${1:-}" = -k ] && { keep=1; shift; }
src=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$src/tests/mutants.list}
[ $# -gt 0 ] && shift
[ -f "$list" ] || { echo "mutate: no list $list" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-mutate.XXXXXX") || exit 2
cleanup() { [ $keep -eq 1 ] && echo "mutate: the copy is $tmp" || rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
# the copy: HEAD's tree in $tmp/libcgw, ../shared beside it as beside src
mkdir "$tmp/libcgw" && git -C "$src" archive --format=tar HEAD | tar -x -C "$tmp/libcgw" || exit 2
[ -d "$src/../shared" ] && ln -s "$(cd "$src/../shared" && pwd)" "$tmp/shared"
top=$tmp/libcgw
echo "mutate: building the copy of $(git -C "$src" log -1 --format=%h) in $top"
(cd "$top" && autoreconf -fi && mkdir _b && cd _b && ../configure --enable-werror &&
    make -j"$(nproc 2>/dev/null || echo 2)") >"$tmp/build.log" 2>&1 ||
    { tail -20 "$tmp/build.log"; echo "mutate: the copy does not build"; exit 2; }

# plant FILE OLD NEW: replace the one occurrence of OLD in FILE (0), or
# say why not (1)
plant() {
    python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1], *(a.replace("\\n", "\n").replace("\\t", "\t")
                                 for a in sys.argv[2:4])
text = open(path, encoding="utf-8", errors="surrogateescape").read()
n = text.count(old)
if n != 1:
    sys.exit("mutate: %s: the text occurs %d times, not once: %r" % (path, n, old))
open(path, "w", encoding="utf-8", errors="surrogateescape").write(text.replace(old, new))
PY
}

caught=0 survived=0 known=0 broken=0 unexpected=""
tab=$(printf '\t')
while IFS="$tab" read -r id file old new tests known_as; do
    case $id in ''|'#'*) continue ;; esac
    if [ $# -gt 0 ]; then
        want=0
        for only in "$@"; do [ "$only" = "$id" ] && want=1; done
        [ $want -eq 1 ] || continue
    fi
    cp "$top/$file" "$tmp/orig" || { echo "$id: no file $file"; broken=$((broken + 1)); continue; }
    if ! plant "$top/$file" "$old" "$new"; then
        broken=$((broken + 1))
        continue
    fi
    if ! (cd "$top/_b" && make -j2) >"$tmp/make.log" 2>&1; then
        fate="caught (does not build)"
        caught=$((caught + 1))
    elif (cd "$top/_b" && make check TESTS="$tests") >"$tmp/check.log" 2>&1; then
        if [ -n "${known_as:-}" ]; then
            fate="survives, known ($known_as)"
            known=$((known + 1))
        else
            fate="SURVIVES"
            survived=$((survived + 1))
            unexpected="$unexpected $id"
        fi
    else
        fate="caught by $(sed -n 's/^FAIL: //p' "$tmp/check.log" | tr '\n' ' ')"
        caught=$((caught + 1))
    fi
    cp "$tmp/orig" "$top/$file"
    touch "$top/$file"
    echo "$id: $fate"
done <"$list"
echo "mutate: $caught caught, $survived survive unexpectedly, $known known survivors," \
    "$broken not planted (the text moved: update the list)"
[ -n "$unexpected" ] && echo "mutate: survivors:$unexpected"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
