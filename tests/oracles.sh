# SPDX-License-Identifier: MIT
# oracles.sh - sourced by the tests that ask every reference reader
# (tests/compat.py): KCachegrind's loader (kcgdump.sh), python3 for
# gprof2dot's parser, node for speedscope's importer, and
# callgrind_annotate; exits 77 (skipped) when one is missing.  Then sets
# build and src (the build and source folders) and tmp, a scratch folder
# named after the test (cgw-compat.XXXXXX for test-compat.sh) and removed
# at exit.
set -u
build=${CGW_BUILDDIR:-.}
src=${CGW_SRCDIR:-.}
. "$src/tests/kcgdump.sh"
for tool in python3 node "${CALLGRIND_ANNOTATE:-callgrind_annotate}"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "no $tool: skipped"; exit 77; }
done
oracles_test=${0##*/}
oracles_test=${oracles_test%.sh}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-${oracles_test#test-}.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
