#!/bin/sh
# SPDX-License-Identifier: MIT
# test-fleet: python3 -m cgw.fleet (python/cgw/fleet.py), the merge of
# many profiles on Dask distributed, by tests/test_fleet.py: a LocalCluster
# of 2 workers over 80 cggen files (and Callgrind's own files
# of tests/subject when valgrind is there), byte for byte against
# cgmerge; bad inputs (every one named), --skip-bad, events that differ,
# a worker killed mid-run; -o onto a symlink, a FIFO and a 0600 file as
# cgmerge -o writes them; the progress line on a pty and -q; --version
# and exit 2 with Dask shadowed; the diff gate against cgdiff.  Run with the Python that has
# Dask distributed: configure's ($PYTHON), else /usr/bin/python3 (where
# Debian's python3-distributed installs it); skipped when neither has it,
# or without a shared libcgw.
set -u
lib=$CGW_BUILDDIR/.libs/libcgw.so
if [ ! -f "$lib" ]; then
    echo "no $lib (a static-only build: --disable-shared): skipped"; exit 77
fi
. "${CGW_SRCDIR:-.}/tests/dask-python.sh"
if ! dask_python distributed; then
    echo "no Python with Dask distributed (tried ${PYTHON:-python3}, python3, /usr/bin/python3;" \
         "apt-get install python3-distributed or pip install distributed): skipped"
    exit 77
fi
echo "Python: $py ($("$py" -c 'import sys, distributed; print(sys.version.split()[0], "distributed", distributed.__version__)'))"
CGW_LIBRARY=$lib PYTHONPATH=$CGW_SRCDIR/python PYTHONDONTWRITEBYTECODE=1
CGGEN=$CGW_BUILDDIR/tools/cggen CGMERGE=$CGW_BUILDDIR/tools/cgmerge
CGDIFF=$CGW_BUILDDIR/tools/cgdiff SUBJECT=$CGW_BUILDDIR/tests/subject
VALGRIND=${VALGRIND:-valgrind}
export CGW_LIBRARY PYTHONPATH PYTHONDONTWRITEBYTECODE CGGEN CGMERGE CGDIFF SUBJECT VALGRIND
exec "$py" "$CGW_SRCDIR/tests/test_fleet.py" -v
