#!/bin/sh
# SPDX-License-Identifier: MIT
# check-dist.sh DISTDIR SRCDIR: every file git tracks in SRCDIR is in the
# unpacked distribution DISTDIR (EXTRA_DIST and the sources say so), but
# for git's own files.  ./quickstart runs it (make check-dist-files), so
# that distcheck can run a few tests from the tarball instead of the whole
# suite again: a file left out of the tarball is found here.  Skips (77)
# outside a git checkout.
set -u
distdir=$1 srcdir=$2
if ! command -v git >/dev/null 2>&1 || ! git -C "$srcdir" rev-parse --git-dir >/dev/null 2>&1; then
    echo "check-dist: $srcdir is no git checkout: skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
git -C "$srcdir" ls-files | grep -v -e '^\.gitignore$' -e '^\.gitattributes$' -e '/\.keep$' |
    LC_ALL=C sort >"$tmp/tracked"
(cd "$distdir" && find . -type f | sed 's|^\./||') | LC_ALL=C sort >"$tmp/dist"
missing=$(LC_ALL=C comm -23 "$tmp/tracked" "$tmp/dist")
if [ -n "$missing" ]; then
    echo "check-dist: tracked, but not in the distribution (add them to EXTRA_DIST):"
    printf '  %s\n' $missing
    exit 1
fi
echo "check-dist: all $(wc -l <"$tmp/tracked") tracked files are in $(basename "$distdir")"
