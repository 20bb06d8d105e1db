#!/bin/sh
# SPDX-License-Identifier: MIT
# test-verdicts: cgverify's per-reader verdicts (--for, --strict) against
# what the readers' own code reads (tests/verdicts.py over
# tests/compat.py's oracles): every kind of finding shown on a made-up
# profile that the named readers misread and the others read right, its
# twin read right by all, and README.md's agreement table the one this
# run measures on those, the corpus, tests/data and Callgrind's and
# Cachegrind's files, Valgrind's of recursive programs and three Python
# writers' of a script with imports, made now (make verdict-table writes
# it).  Skips (77)
# without ../shared/oracles, Qt5Core, callgrind_annotate, python3 or node.
. "${CGW_SRCDIR:-.}/tests/oracles.sh"
mkdir "$tmp/real"
# Callgrind's and Cachegrind's own files, made now (names that are no
# prefix of another's: KCachegrind loads such files as parts of one)
if [ -n "${VALGRIND:-}" ] && [ -x "$build/tests/subject" ]; then
    n=0
    for opts in "" "--dump-instr=yes --collect-jumps=yes" "--dump-line=no --dump-instr=yes" \
        "--cache-sim=yes --branch-sim=yes" "--compress-strings=no --compress-pos=no"; do
        n=$((n + 1))
        "$VALGRIND" -q --tool=callgrind $opts --callgrind-out-file="$tmp/real/callgrind-$n.out" \
            "$build/tests/subject" >/dev/null 2>&1 || rm -f "$tmp/real/callgrind-$n.out"
    done
    "$VALGRIND" -q --tool=cachegrind --cachegrind-out-file="$tmp/real/cachegrind-1.out" \
        "$build/tests/subject" >/dev/null 2>&1 || rm -f "$tmp/real/cachegrind-1.out"
fi
# Valgrind's files of recursive programs with default options, and a
# Python profile with imports from cgw.cprofile, pyprof2calltree and yappi
# (made-profiles.sh): speedscope's flame graph is empty on the first two
fail() { echo "FAIL: $*"; exit 1; }
. "$src/tests/made-profiles.sh"
mkdir "$tmp/writers"
made_profiles "$tmp/writers"
# README's table counts all eleven; where they cannot all be made (no
# valgrind; a sanitized subject that valgrind cannot run; no Python
# writer) the verdicts are still checked, and the table is not compared
set -- "$tmp"/real/*.out
[ -e "$1" ] || set --
# shellcheck disable=SC2086
set -- "$@" $made
mode=${CGW_VERDICT_MODE:---check}
if [ "$#" -ne 11 ] && [ "$mode" = --check ]; then
    echo "$# of the 11 files of real writers made here (valgrind: ${VALGRIND:-none})"
    mode=--partial
fi
for f in "${CGW_CORPUS:-/nonexistent}"/*.callgrind "${CGW_CORPUS:-/nonexistent}"/*.cachegrind \
    "$CGW_TEST_DATA"/*.out; do
    [ -f "$f" ] && set -- "$@" "$f"
done
KCGDUMP=$kcgdump CGW_BUILDDIR=$build python3 "$src/tests/verdicts.py" \
    "$mode" "$src/README.md" "$tmp/made" "$@"
