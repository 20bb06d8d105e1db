#!/bin/sh
# SPDX-License-Identifier: MIT
# No path outside the tree in what is shipped and what the tests and
# benchmarks run: neither this machine's folders (the folder that holds
# the source tree, $HOME) nor a "../" that climbs out of it, except
# ../shared/..., which the tests that use it skip without (and not even
# that in README.md).
set -u
src=${CGW_SRCDIR:-.}
cd "$src" || exit 2
top=$(pwd -P)
parent=$(dirname "$top")
files="README.md NEWS BENCHMARKS.md HACKING.md Makefile.am configure.ac quickstart
    $(ls tests/*.sh tests/*.c tests/*.h tests/*.py tests/fuzz/*.c bench/* 2>/dev/null |
    grep -v '^tests/check-paths.sh$')"
status=0
# fixed strings: this machine's folders
for dir in "$parent" "${HOME:-/}"; do
    case $dir in /|'') continue ;; esac
    # shellcheck disable=SC2086
    if grep -nF "$dir/" $files; then
        echo "check-paths: the lines above name $dir/, a folder of this machine"
        status=1
    fi
done
# a ../ at the start of a path (not inside one, as .libs/../prof is):
# only ../shared/..., or ../X where X is a top folder of the tree (bench/
# including ../tests/x.h)
# shellcheck disable=SC2086
climbs=$(grep -noE '(^|[^/.A-Za-z0-9_])\.\./[A-Za-z0-9_.-]*' $files |
    while IFS= read -r hit; do
        name=${hit##*../}
        # README.md is read by users, who have no ../shared: no climb at all
        case $hit in README.md:*) echo "$hit"; continue ;; esac
        [ "$name" = shared ] || [ -e "$top/$name" ] || echo "$hit"
    done)
if [ -n "$climbs" ]; then
    printf '%s\n' "$climbs"
    echo "check-paths: the paths above climb out of the tree (only ../shared/... may, and not in README.md)"
    status=1
fi
[ $status -eq 0 ] && echo "no path outside the tree in $(echo $files | wc -w) files"
exit $status
