#!/bin/sh
# SPDX-License-Identifier: MIT
# check-repro.sh DISTDIR WORKDIR [CONFIGURE-ARGS...]: build the unpacked
# distribution DISTDIR twice, in two folders of different names and
# depths under WORKDIR, each with ../configure CONFIGURE-ARGS from a _b
# inside it as a packager would, install both (DESTDIR) and compare every
# installed file byte for byte: libraries, tools, headers, man pages,
# the Python package (byte-compiled under SOURCE_DATE_EPOCH).
# Nothing is stripped.  MAKE names make.
set -u
distdir=$1 work=$2
shift 2
make=${MAKE:-make}
# as a distribution's build does (Debian's sets it from the changelog):
# Python's byte-compiled files then check the source's hash, not its
# time, which install(1) sets anew in each build
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date -r "$distdir/ChangeLog" +%s)}
export SOURCE_DATE_EPOCH
rm -rf "$work"
one="$work/a/$(basename "$distdir")"
two="$work/bb/ccc/$(basename "$distdir")"
for tree in "$one" "$two"; do
    mkdir -p "$(dirname "$tree")" &&
    cp -pR "$distdir" "$tree" &&
    chmod -R u+w "$tree" &&
    mkdir "$tree/_b" &&
    (cd "$tree/_b" && ../configure "$@" >configure.out 2>&1 &&
        $make >make.out 2>&1 && $make install DESTDIR="$tree/_inst" >install.out 2>&1) ||
    { echo "check-repro: the build in $tree failed (see $tree/_b/*.out)"; exit 1; }
done
( cd "$one/_inst" && find . -type f ) | sort >"$work/files"
n=$(wc -l <"$work/files")
differ=0
while read -r f; do
    if ! cmp -s "$one/_inst/$f" "$two/_inst/$f"; then
        echo "check-repro: differs: $f"
        differ=1
    fi
done <"$work/files"
if ! ( cd "$two/_inst" && find . -type f ) | sort | cmp -s - "$work/files"; then
    echo "check-repro: the two installs hold different files"
    differ=1
fi
if [ $differ -ne 0 ]; then
    echo "check-repro: the builds in $one and $two differ (kept for a look)"
    exit 1
fi
echo "check-repro: $n installed files byte-identical from $one and $two"
rm -rf "$work"
