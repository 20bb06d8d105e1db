#!/bin/sh
# SPDX-License-Identifier: MIT
# test-verdicts: cgverify's per-reader verdicts (--for, --strict) against
# what the readers' own code reads (tests/verdicts.py over
# tests/compat.py's oracles): every kind of finding shown on a made-up
# profile that the named readers misread and the others read right, its
# twin read right by all, and README.md's agreement table the one this
# run measures on those, the corpus, tests/data and Callgrind's and
# Cachegrind's files made now (make verdict-table writes it).  Skips (77)
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
# README's table counts all six; where they cannot all be made (no
# valgrind; a sanitized subject that valgrind cannot run) the verdicts
# are still checked, and the table is not compared
made=$(ls "$tmp/real" | wc -l)
mode=${CGW_VERDICT_MODE:---check}
if [ "$made" -ne 6 ] && [ "$mode" = --check ]; then
    echo "$made of Callgrind's and Cachegrind's 6 files made here (valgrind: ${VALGRIND:-none})"
    mode=--partial
fi
set -- "$tmp"/real/*.out
[ -e "$1" ] || set --
for f in "${CGW_CORPUS:-/nonexistent}"/*.callgrind "${CGW_CORPUS:-/nonexistent}"/*.cachegrind \
    "$CGW_TEST_DATA"/*.out; do
    [ -f "$f" ] && set -- "$@" "$f"
done
KCGDUMP=$kcgdump CGW_BUILDDIR=$build python3 "$src/tests/verdicts.py" \
    "$mode" "$src/README.md" "$tmp/made" "$@"
