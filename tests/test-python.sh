#!/bin/sh
# SPDX-License-Identifier: MIT
# test-python: the Python package cgw (python/cgw, ctypes over libcgw)
# on the library of this build: tests/test_cgw.py writes profiles through
# cgw.Writer and cgw.Stacks and reads them back through cgw.summary() and
# the built cgverify, checks the errors the library raises and the ones
# Python raises first, merges as cgmerge does, adds 300,000 stacks in
# bounded memory, shares a Writer, Stacks and Profile between 8 threads
# and raises from callbacks; tests/test_pstats.py converts Python profiles
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

# the package the usual way: pip install of a copy of python/ (the source
# tree stays as it is), offline (--no-build-isolation: setuptools as
# installed), into a folder of its own; its metadata and __version__ are
# libcgw's, and it loads the library given by CGW_LIBRARY
echo "== pip install ./python"
# a Python with pip, setuptools and wheel (what an offline build needs):
# configure's, else Debian's
pip_python=""
for py in "$PYTHON" /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -m pip --version >/dev/null 2>&1 &&
        "$py" -c 'import setuptools, wheel' 2>/dev/null; then
        pip_python=$py
        break
    fi
done
if [ -z "$pip_python" ]; then
    echo "no Python with pip, setuptools and wheel (python3-pip python3-setuptools python3-wheel): pip install not tried"
else
    PYTHON=$pip_python
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-pip.XXXXXX") || exit 99
    cp -R "$CGW_SRCDIR/python" "$tmp/src"
    rm -f "$tmp/src/cgw/_config.py"
    if ! PYTHONPATH= "$PYTHON" -m pip install --quiet --no-build-isolation --no-deps \
        --no-index --target "$tmp/site" "$tmp/src" >"$tmp/pip.log" 2>&1; then
        cat "$tmp/pip.log"
        echo "FAIL: pip install ./python"
        status=1
    elif ! (cd "$tmp" && PYTHONPATH="$tmp/site" "$PYTHON" - "$tmp/site" "${CGW_PACKAGE_VERSION:-}" <<'PY'
import importlib.metadata, sys
import cgw
site, want = sys.argv[1:]
assert cgw.__file__.startswith(site), cgw.__file__
got = importlib.metadata.version("cgw")
assert got == cgw.__version__ == cgw.version(), (got, cgw.__version__, cgw.version())
assert not want or got == want, (got, want)
import os
assert os.path.exists(os.path.join(os.path.dirname(cgw.__file__), "py.typed"))
print("pip install ./python: cgw", got, "from", cgw.__file__)
PY
    ); then
        echo "FAIL: the package pip installed"
        status=1
    fi
    # without the library: one message that says what to install
    if (cd "$tmp" && PYTHONPATH="$tmp/site" CGW_LIBRARY="$tmp/nolib.so" "$PYTHON" -c 'import cgw' \
        >"$tmp/nolib.err" 2>&1); then
        echo "FAIL: cgw imported without its library"
        status=1
    elif ! grep -q 'install it (./configure && make && make install' "$tmp/nolib.err"; then
        cat "$tmp/nolib.err"
        echo "FAIL: no word of what to install"
        status=1
    fi
    rm -rf "$tmp"
fi
exit $status
