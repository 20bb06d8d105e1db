# SPDX-License-Identifier: MIT
# dask-python.sh - sourced by tests/test-fleet.sh and bench/bench-fleet.sh:
# dask_python MODULES... sets py to the first of $PYTHON (configure's),
# python3 and /usr/bin/python3 that imports MODULES (Debian's
# python3-distributed installs Dask for /usr/bin/python3 only), or to ""
# when none does.
dask_python() {
    py=""
    for p in "${PYTHON:-python3}" python3 /usr/bin/python3; do
        [ "$p" = : ] && continue
        if command -v "$p" >/dev/null 2>&1 && "$p" -c "import $*" 2>/dev/null; then
            py=$p
            return 0
        fi
    done
    return 1
}
