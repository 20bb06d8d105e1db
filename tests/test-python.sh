#!/bin/sh
# SPDX-License-Identifier: MIT
# test-python: the Python package cgw (python/cgw, ctypes over libcgw)
# on the library of this build: tests/test_cgw.py writes profiles through
# cgw.Writer and cgw.Stacks and reads them back through cgw.summary() and
# the built cgverify, checks the errors the library raises and the ones
# Python raises first, merges as cgmerge does, and adds a million stacks
# in bounded memory; tests/test_pstats.py converts Python profiles
# (python3 -m cgw.pstats, compared with pyprof2calltree where it is
# found; python3 -m cgw.cprofile; examples/sampler.py).  Skipped without
# python3, or without a shared libcgw (a static-only build: ctypes loads
# shared libraries only).
set -u
PYTHON=${PYTHON:-python3}
if [ "$PYTHON" = : ] || ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "no python3 (configure found none): skipped"; exit 77
fi
lib=$CGW_BUILDDIR/.libs/libcgw.so
if [ ! -f "$lib" ]; then
    echo "no $lib (a static-only build: --disable-shared): skipped"; exit 77
fi
# the package of the source tree, no byte code left in it
CGW_LIBRARY=$lib PYTHONPATH=$CGW_SRCDIR/python PYTHONDONTWRITEBYTECODE=1
CGVERIFY=$CGW_BUILDDIR/tools/cgverify CGMERGE=$CGW_BUILDDIR/tools/cgmerge
export CGW_LIBRARY PYTHONPATH PYTHONDONTWRITEBYTECODE CGVERIFY CGMERGE
status=0
for t in test_cgw.py test_pstats.py; do
    echo "== tests/$t"
    "$PYTHON" "$CGW_SRCDIR/tests/$t" -v || status=1
done
exit $status
