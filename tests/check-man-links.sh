#!/bin/sh
# SPDX-License-Identifier: MIT
# check-man-links: man/so-links.sh, run on the man pages as make does
# for make install, gives every call that cgw.h declares with CGW_API,
# cgw-pprof.h (libcgw-pprof's), and cgwprof_dump(), a link page NAME.3 whose ".so man3/PAGE.3" names a
# page that has NAME in its SYNOPSIS; and it gives link pages to those
# calls only.  (check-exports.sh checks that each call is in a SYNOPSIS;
# make installcheck, that the link pages are installed.)
set -u
src=${CGW_SRCDIR:-.}
header=${CGW_HEADER:-$src/include/cgw.h}
pprof_header=$(dirname "$header")/cgw-pprof.h
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
sh "$src/man/so-links.sh" "$tmp/links" "$src"/man/*.3 "$src"/man/*.1 || exit 1
want=$( (sed -n 's/.*CGW_API[^(]*[ *]\(cgw_[a-z0-9_]*\)(.*/\1/p' "$header" "$pprof_header"
    echo cgwprof_dump) |
    sort -u)
[ "$(echo "$want" | wc -l)" -gt 1 ] || { echo "found no CGW_API declarations in $header"; exit 1; }
status=0
for name in $want; do
    link="$tmp/links/$name.3"
    if [ ! -f "$link" ]; then
        echo "$name: no link page"; status=1; continue
    fi
    page=$(sed -n 's|^\.so man3/\([^/]*\.3\)$|\1|p' "$link")
    if [ -z "$page" ] || [ ! -f "$src/man/$page" ]; then
        echo "$name.3: \"$(cat "$link")\" names no page of man/"; status=1; continue
    fi
    sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$src/man/$page" | grep -q "^\.BI \"[^\"]*[ *]$name(" ||
        { echo "$name.3: $page has no $name in its SYNOPSIS"; status=1; }
done
got=$(ls "$tmp/links" | sed 's/\.3$//' | sort)
if [ "$got" != "$want" ]; then
    echo "link pages for other names than the public calls:"
    echo "$want" >"$tmp/want"
    echo "$got" >"$tmp/got"
    diff "$tmp/want" "$tmp/got"
    status=1
fi
[ $status -eq 0 ] && echo "$(echo "$want" | wc -l) calls, each with its link page"
exit $status
