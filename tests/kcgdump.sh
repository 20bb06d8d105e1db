# SPDX-License-Identifier: MIT
# kcgdump.sh - sourced by the tests that ask KCachegrind's own loader:
# sets kcgdump to kcgdump built from ../shared/oracles (built once, or
# again when its sources change; ./quickstart shares one between its
# builds through CGW_KCGDUMP), or exits 77 (skipped) without
# ../shared/oracles, Qt5Core or g++; a test that goes on without it sets
# CGW_KCGDUMP_OPTIONAL to what it then leaves out, and gets kcgdump "".
oracles=${CGW_ORACLES:-${CGW_SRCDIR:-.}/../shared/oracles}
# ./quickstart asks the oracles once, in the plain build: its sanitized
# build says where (CGW_ORACLES_ELSEWHERE), and the tests that are about
# the oracles skip there; those that go on without one still run
if [ -n "${CGW_ORACLES_ELSEWHERE:-}" ] && [ -z "${CGW_KCGDUMP_OPTIONAL:-}" ]; then
    echo "the reference readers are asked $CGW_ORACLES_ELSEWHERE: skipped"
    exit 77
fi
kcg_why=""
if [ ! -f "$oracles/kcachegrind/build.sh" ]; then
    kcg_why="no ../shared/oracles"
elif ! pkg-config --exists Qt5Core 2>/dev/null || ! command -v g++ >/dev/null 2>&1; then
    kcg_why="no Qt5Core or g++ to build KCachegrind's loader (qtbase5-dev)"
fi
if [ -n "$kcg_why" ] && [ -z "${CGW_KCGDUMP_OPTIONAL:-}" ]; then
    echo "$kcg_why: skipped"; exit 77
fi
kcgdump=${CGW_KCGDUMP:-${CGW_BUILDDIR:-.}/tests/kcgdump}
if [ -n "$kcg_why" ]; then
    echo "$kcg_why: $CGW_KCGDUMP_OPTIONAL"
    kcgdump=""
fi
if [ -n "$kcgdump" ] && { [ ! -x "$kcgdump" ] ||
    [ -n "$(find "$oracles/kcachegrind" -newer "$kcgdump" -name '*.cpp' | head -1)" ]; }; then
    mkdir -p "$(dirname "$kcgdump")"
    # built aside and renamed: tests that build it at once never run a
    # half-written one
    sh "$oracles/kcachegrind/build.sh" "$kcgdump.$$" >/dev/null &&
        mv -f "$kcgdump.$$" "$kcgdump" ||
        { rm -f "$kcgdump.$$"; echo "building kcgdump failed"; exit 1; }
fi
