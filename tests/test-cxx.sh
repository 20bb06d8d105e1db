#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cxx: <cgw.h> from C++.  examples/example-cxx (built with
# -Wall -Wextra -pedantic -Werror) writes README's profile and reads it
# back itself; cgverify --strict accepts it; and README's C++ lines
# compile with the same flags.  Skipped without a C++ compiler.
set -u
if [ "${CGW_HAVE_CXX:-no}" != yes ]; then
    echo "no C++ compiler: skipped"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }

"$CGW_BUILDDIR/examples/example-cxx" "$tmp/profile" >"$tmp/out" 2>&1 ||
    fail "examples/example-cxx failed"
"$CGW_BUILDDIR/tools/cgverify" --strict "$tmp/profile" >"$tmp/out" 2>&1 ||
    fail "cgverify --strict refuses example-cxx's profile"

# README's ```cpp block, in a function that has the writer w
{
    printf '#include <cgw.h>\nvoid readme(cgw_writer *w);\nvoid readme(cgw_writer *w)\n{\n'
    sed -n '/^```cpp$/,/^```$/{/^```/d;p;}' "$CGW_SRCDIR/README.md"
    printf '}\n'
} >"$tmp/readme.cc"
grep -q cgw_call "$tmp/readme.cc" || fail "README.md has no \`\`\`cpp block with cgw_call"
${CXX:-c++} -Wall -Wextra -pedantic -Werror -I"$CGW_SRCDIR/include" -c "$tmp/readme.cc" \
    -o "$tmp/readme.o" >"$tmp/out" 2>&1 || fail "README.md's C++ lines do not compile"
echo "example-cxx wrote and read back its profile; README's C++ lines compile"
