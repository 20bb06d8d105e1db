#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of HACKING.md, as includes: lib/common includes nothing of
# lib/read, lib/write or the modules over <cgw.h> (lib/merge,
# lib/convert, lib/gen, lib/profile); a module includes <cgw.h>,
# config.h, its own headers and lib/common's (by name: the modules are
# built with -I lib/common, without -I lib), and nothing of lib/read,
# lib/write or another module.
# A planted bad include is checked first, so that the check is seen to
# fail when it should.
set -u
src=${CGW_SRCDIR:-.}

# The includes of the files that match the patterns given, as
# FILE:LINE:NAME.
includes() {
    for file in "$@"; do
        [ -f "$file" ] || continue
        grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*[">]' "$file" |
            sed -E "s|^([0-9]*):[^\"<]*[\"<]([^\">]*)[\">].*|$file:\\1:\\2|"
    done
}

# The header names of the folders given, one a line.
headers() {
    for dir in "$@"; do
        for h in "$dir"/*.h; do
            [ -f "$h" ] && basename "$h"
        done
    done
    return 0
}

# Whether the include name crosses into one of the layers (folder names,
# "read write"): by a path through one of them or out of lib/ (../), or
# by the name of one of their headers (theirs) that no allowed folder
# has (ours).
crosses() {
    name=$1 layers=$2 theirs=$3 ours=$4
    case $name in ../*) return 0 ;; esac
    for layer in $layers; do
        case $name in $layer/* | */$layer/*) return 0 ;; esac
    done
    case $name in */*) return 1 ;; esac
    printf '%s\n' $theirs | grep -qxF "$name" && ! printf '%s\n' $ours | grep -qxF "$name"
}

# Check the tree at $1: print each include that crosses a layer, and
# return 1 when there is one.
check_tree() {
    lib=$1/lib
    bad=0
    private=$(headers "$lib/read" "$lib/write")
    common=$(headers "$lib/common")
    modules=$(headers "$lib/merge" "$lib/convert" "$lib/gen" "$lib/profile")
    for module in merge convert gen profile; do
        mine=$(headers "$lib/$module")
        others=$(for m in merge convert gen profile; do [ "$m" = "$module" ] || headers "$lib/$m"; done)
        others_dirs=$(echo merge convert gen profile | tr ' ' '\n' | grep -vx "$module" | tr '\n' ' ')
        for hit in $(includes "$lib/$module"/*.[ch]); do
            if crosses "${hit##*:}" "read write $others_dirs" "$private $others" "$common $mine"; then
                echo "$hit: lib/$module includes a header of lib/read, lib/write or another module"
                bad=1
            fi
        done
    done
    for hit in $(includes "$lib"/common/*.[ch]); do
        if crosses "${hit##*:}" "read write merge convert gen profile" "$private $modules" "$common"; then
            echo "$hit: lib/common includes a header of lib/read, lib/write or a module"
            bad=1
        fi
    done
    return $bad
}

# the check itself must catch a planted include
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
for planted in '"read.h"' '"read/read.h"' '"../lib/write/write.h"' '<write/write.h>'; do
    mkdir -p "$tmp/lib/common" "$tmp/lib/read" "$tmp/lib/write" "$tmp/lib/merge" "$tmp/lib/gen"
    : >"$tmp/lib/read/read.h"
    : >"$tmp/lib/write/write.h"
    echo '#include "cgw.h"' >"$tmp/lib/common/hash.h"
    printf '#include "hash.h"\n#include %s\n' "$planted" >"$tmp/lib/merge/x.c"
    if check_tree "$tmp" >/dev/null; then
        echo "check-layers: a planted #include $planted in lib/merge was not caught"
        exit 99
    fi
    rm -f "$tmp/lib/merge/x.c"
    printf '#include %s\n' "$planted" >"$tmp/lib/common/y.c"
    if check_tree "$tmp" >/dev/null; then
        echo "check-layers: a planted #include $planted in lib/common was not caught"
        exit 99
    fi
    rm -rf "$tmp/lib"
done
# and one module's header in another
mkdir -p "$tmp/lib/common" "$tmp/lib/read" "$tmp/lib/write" "$tmp/lib/merge" "$tmp/lib/gen"
: >"$tmp/lib/merge/merge.h"
printf '#include "merge.h"\n' >"$tmp/lib/gen/x.c"
if check_tree "$tmp" >/dev/null; then
    echo "check-layers: a planted #include \"merge.h\" in lib/gen was not caught"
    exit 99
fi
rm -rf "$tmp/lib"

if check_tree "$src"; then
    echo "no include across the layers in lib/common and the modules"
    exit 0
fi
echo "check-layers: the includes above cross the layers of HACKING.md"
exit 1
