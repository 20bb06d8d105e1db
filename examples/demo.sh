#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh BUILD PROFILE [LOG] - the steps of ./quickstart demo, also run
# by tests/test-demo.sh: run the profiled demo (built in BUILD with
# -finstrument-functions and libcgwprof) so that it writes PROFILE, check
# the profile with cgverify, then show under a heading each its top
# functions (the reader example and, when installed, callgrind_annotate),
# cgverify's verdict and where the profile is.  With LOG, each step is
# one line ("profile ... ok") and what it prints goes to LOG.
set -eu
build=$1
profile=$2
log=${3:-}

# step NAME COMMAND...: run a step; with LOG, say it in one line and
# send its output there, and on failure show the end of LOG.
step() {
    name=$1
    shift
    if [ -z "$log" ]; then
        "$@"
        return
    fi
    printf '%-10s ... ' "$name"
    if "$@" >>"$log" 2>&1; then
        echo ok
    else
        echo "failed (the end of $log:)"
        tail -n 20 "$log" | sed 's/^/  /'
        exit 1
    fi
}

profile_demo() {
    rm -f "$profile"
    CGWPROF_OUT=$profile "$build/examples/demo" || return 1
    test -s "$profile" || { echo "demo.sh: no profile at $profile" >&2; return 1; }
}

# cgverify's verdict is kept for its heading below; its status is the step's
verify() {
    "$build/tools/cgverify" "$profile" >"$profile.verdict" 2>&1 && rc=0 || rc=$?
    cat "$profile.verdict"
    return $rc
}

# cgreport's page: the one view that needs no other program
page="$profile.html"
report() {
    "$build/tools/cgreport" --quiet "$profile" -o "$page"
}

step profile profile_demo
step verify verify
step report report
echo
echo "== Top functions by self time (examples/reader) =="
"$build/examples/reader" "$profile"
if command -v callgrind_annotate >/dev/null 2>&1; then
    echo
    echo "== The same with their files (callgrind_annotate) =="
    callgrind_annotate --auto=no --threshold=99 "$profile" | sed -n '/file:function/,$p' |
        sed '/^$/d'
fi
echo
echo "== cgverify's verdict =="
cat "$profile.verdict"
rm -f "$profile.verdict"
echo
echo "== The profile =="
echo "$profile"
echo "Open it with: kcachegrind $profile   (or qcachegrind)"
echo
echo "== Its page (cgreport: table, flame graph, callers and callees) =="
echo "$page"
echo "Open it in a browser: file://$page"
