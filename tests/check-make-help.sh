#!/bin/sh
# SPDX-License-Identifier: MIT
# check-make-help: every target that `make help` lists is one the build's
# Makefile has, and the targets HACKING.md's checks name are listed.
set -u
build=${CGW_BUILDDIR:-.}
src=${CGW_SRCDIR:-.}
fail() { echo "FAIL: $*"; exit 1; }
out=$(cd "$build" && ${MAKE:-make} -s help) || fail "make help: exit $?"
targets=$(printf '%s\n' "$out" | sed -n 's/^make \([a-z][a-z-]*\) .*/\1/p')
[ -n "$targets" ] || fail "make help lists no target: $out"
n=0
for t in $targets; do
    grep -q "^$t:" "$build/Makefile" || fail "make help lists $t, which the Makefile lacks"
    n=$((n + 1))
done
for t in $(sed -n 's/^ *make -C [^ ]* \([a-z-]*\).*/\1/p' "$src/HACKING.md"); do
    printf '%s\n' "$targets" | grep -qx "$t" || fail "HACKING.md runs make $t, which make help does not list"
done
echo "check-make-help: $n targets listed, each in the Makefile"
