# SPDX-License-Identifier: MIT
# oracles.sh - sourced by the tests that ask every reference reader
# (tests/compat.py): KCachegrind's loader (kcgdump.sh), python3 for
# gprof2dot's parser, node for speedscope's importer, and
# callgrind_annotate; exits 77 (skipped) when one is missing.
. "${CGW_SRCDIR:-.}/tests/kcgdump.sh"
for tool in python3 node "${CALLGRIND_ANNOTATE:-callgrind_annotate}"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "no $tool: skipped"; exit 77; }
done
