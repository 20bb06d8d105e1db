#!/bin/sh
# SPDX-License-Identifier: MIT
# so-links.sh OUTDIR PAGE.3...: a link page OUTDIR/NAME.3 holding
# ".so man3/PAGE.3" for every call declared in the SYNOPSIS of each
# section 3 page (a .BI line "TYPE NAME(...", TYPE ending in a blank or
# a *), so that "man NAME" opens the page that documents NAME, as
# libarchive and OpenSSL install theirs.  OUTDIR is emptied first; a
# call in two pages' SYNOPSIS is an error.
set -eu
out=$1
shift
mkdir -p "$out"
rm -f "$out"/*.3
for page in "$@"; do
    case $page in *.3) ;; *) continue ;; esac
    base=${page##*/}
    names=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /s/^\.BI "[^"(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' \
        "$page")
    for name in $names; do
        if [ -e "$out/$name.3" ]; then
            echo "so-links.sh: $name is in the SYNOPSIS of $base and of $(sed 's|.*/||' "$out/$name.3")" >&2
            exit 1
        fi
        echo ".so man3/$base" >"$out/$name.3"
    done
done
