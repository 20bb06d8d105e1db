#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh BUILD PROFILE - the steps of ./quickstart demo, also run by
# tests/test-demo.sh: run the profiled demo (built in BUILD with
# -finstrument-functions and libcgwprof) so that it writes PROFILE, check
# the profile with cgverify, and show its top functions with the reader
# example and, when installed, callgrind_annotate.
set -eu
build=$1
profile=$2
rm -f "$profile"
CGWPROF_OUT=$profile "$build/examples/demo"
test -s "$profile" || { echo "demo.sh: no profile at $profile" >&2; exit 1; }
echo
"$build/tools/cgverify" "$profile"
echo
"$build/examples/reader" "$profile"
if command -v callgrind_annotate >/dev/null 2>&1; then
    echo
    callgrind_annotate --auto=no --threshold=99 "$profile" | sed -n '/file:function/,$p'
fi
