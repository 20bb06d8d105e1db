#!/bin/sh
# SPDX-License-Identifier: MIT
# check-abi.sh dump|check NAME LIBRARY HEADERS-DIR
#   dump:  write abi/NAME.abi, the ABI description of LIBRARY (the
#          functions it exports and the types they reach, as declared in
#          HEADERS-DIR) that libabigail's abidw gives
#   check: compare LIBRARY with abi/NAME.abi through abidiff; fail on a
#          change that can break a program built against the description
#          (a call removed, a public type changed), print the additions
# ABIDW, ABIDIFF name the tools, CGW_SRCDIR the source tree.
set -u
mode=$1 name=$2 lib=$3 headers=$4
srcdir=${CGW_SRCDIR:-.}
abidw=${ABIDW:-abidw} abidiff=${ABIDIFF:-abidiff}
desc="$srcdir/abi/$name.abi"
# no paths (corpus, compilation folder, source locations), type ids from
# the types themselves: the file is the same from any build folder
dump() {
    "$abidw" --no-corpus-path --no-comp-dir-path --no-show-locs \
        --type-id-style hash --headers-dir "$headers" --drop-private-types \
        --out-file "$1" "$lib"
}
if [ ! -f "$lib" ]; then
    echo "check-abi: no shared library at $lib (static-only build): skipped"
    exit 0
fi
case $mode in
dump)
    dump "$desc" || exit 1
    echo "check-abi: wrote $desc"
    exit 0
    ;;
check) ;;
*) echo "usage: check-abi.sh dump|check NAME LIBRARY HEADERS-DIR" >&2; exit 2 ;;
esac
if ! command -v "$abidiff" >/dev/null 2>&1 || ! command -v "$abidw" >/dev/null 2>&1; then
    echo "check-abi: no abidw/abidiff (Debian: abigail-tools): $name not checked"
    exit 0
fi
fresh=$(mktemp "${TMPDIR:-/tmp}/cgw-abi.XXXXXX") || exit 1
trap 'rm -f "$fresh" "$fresh.out"' EXIT
dump "$fresh" || exit 1
if ! grep -q '<function-decl' "$fresh"; then
    echo "check-abi: $lib has no debug information (build with -g): $name not checked"
    exit 0
fi
# abidiff's status is a set of bits: 1 error, 2 usage error, 4 an ABI
# change, 8 an incompatible one.  Added calls alone are a change that
# no program can notice: the status without them decides.
"$abidiff" --no-added-syms "$desc" "$fresh" >/dev/null 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    "$abidiff" "$desc" "$fresh"
    if [ $((rc & 3)) -ne 0 ]; then
        echo "check-abi: abidiff failed (status $rc)"
    elif [ $((rc & 8)) -ne 0 ]; then
        echo "check-abi: $name: ABI-incompatible change against $desc"
    else
        echo "check-abi: $name: ABI change against $desc (a public type or call changed)"
    fi
    echo "check-abi: if the change is meant, bump the libtool version (configure.ac) and run make abi-dump (HACKING.md)"
    exit 1
fi
if ! "$abidiff" "$desc" "$fresh" >"$fresh.out" 2>&1; then
    cat "$fresh.out"
    echo "check-abi: $name: additions only (compatible); make abi-dump records them"
else
    echo "check-abi: $name: the ABI is the one in $desc"
fi
rm -f "$fresh.out"
