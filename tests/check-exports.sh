#!/bin/sh
# SPDX-License-Identifier: MIT
# check-exports: the shared library exports exactly the calls that cgw.h
# declares with CGW_API, all prefixed cgw_; libcgw-pprof (when built)
# exactly those of cgw-pprof.h; libcgwprof exports only its hooks,
# cgwprof_dump() and dlclose().
set -u
lib="${CGW_LIBDIR:-.libs}/libcgw.so"
header="${CGW_HEADER:-include/cgw.h}"
pprof_header="${CGW_PPROF_HEADER:-$(dirname "$header")/cgw-pprof.h}"
# every call of cgw.h and cgw-pprof.h in the SYNOPSIS of a man page
for f in $(sed -n 's/.*CGW_API[^(]*[ *]\(cgw_[a-z0-9_]*\)(.*/\1/p' "$header" "$pprof_header" |
           sort -u); do
    grep -q "^\.BI \"[^\"]*[ *]$f(" "${CGW_SRCDIR:-.}"/man/*.3 ||
        { echo "$f is in no man page's SYNOPSIS"; exit 1; }
done
if [ ! -f "$lib" ]; then
    echo "no shared library at $lib (static-only build)"; exit 77
fi
nm_cmd="${NM:-nm}"
got=$($nm_cmd -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u)
want=$(sed -n 's/.*CGW_API[^(]*[ *]\(cgw_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u)
if [ -z "$want" ]; then
    echo "found no CGW_API declarations in $header"; exit 1
fi
if [ "$got" != "$want" ]; then
    echo "exported symbols differ from cgw.h:"
    printf '%s\n' "$got" > exports.got
    printf '%s\n' "$want" > exports.want
    diff exports.want exports.got
    rm -f exports.got exports.want
    exit 1
fi
echo "$(printf '%s\n' "$got" | wc -l) symbols exported, all declared in cgw.h"

# every one of them carries the version node of lib/libcgw.map, when
# configure used it (CGW_SYMVER: the node; empty without a version script)
readelf_cmd="${READELF:-readelf}"
if [ -n "${CGW_SYMVER:-}" ]; then
    if ! command -v "$readelf_cmd" >/dev/null 2>&1; then
        echo "no readelf: symbol versions not checked"
    else
        syms=$("$readelf_cmd" --dyn-syms -W "$lib" |
            awk '$5 != "LOCAL" && $7 != "UND" && $8 ~ /^cgw_/ { print $8 }')
        bad=$(printf '%s\n' "$syms" | grep -v "@@$CGW_SYMVER\$")
        if [ -n "$bad" ]; then
            echo "exported without the version $CGW_SYMVER:"
            printf '%s\n' "$bad"
            exit 1
        fi
        [ "$(printf '%s\n' "$syms" | wc -l)" -eq "$(printf '%s\n' "$want" | wc -l)" ] ||
            { echo "readelf and nm disagree on the exports"; exit 1; }
        echo "all $(printf '%s\n' "$syms" | wc -l) carry the version $CGW_SYMVER"
    fi
fi

# libcgw-pprof (built with protobuf-c only): the calls of cgw-pprof.h
pprof="${CGW_LIBDIR:-.libs}/../lib/pprof/.libs/libcgw-pprof.so"
if [ -f "$pprof" ]; then
    got=$($nm_cmd -D --defined-only "$pprof" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u)
    want=$(sed -n 's/.*CGW_API[^(]*[ *]\(cgw_[a-z0-9_]*\)(.*/\1/p' "$pprof_header" | sort -u)
    if [ -z "$want" ] || [ "$got" != "$want" ]; then
        echo "libcgw-pprof's exports differ from cgw-pprof.h:"
        printf '%s\n' "$want" > exports.want
        printf '%s\n' "$got" > exports.got
        diff exports.want exports.got
        rm -f exports.got exports.want
        exit 1
    fi
    echo "libcgw-pprof exports exactly: $(echo $got)"
    # versioned as libcgw's are (lib/pprof/libcgw-pprof.map)
    if [ -n "${CGW_SYMVER:-}" ] && command -v "$readelf_cmd" >/dev/null 2>&1; then
        vers=$("$readelf_cmd" --dyn-syms -W "$pprof" |
            awk '$5 != "LOCAL" && $7 != "UND" && $8 ~ /^cgw_/ { print $8 }' | sort)
        want=$(printf '%s@@LIBCGW_PPROF_0.1\n' $want | sort)
        if [ "$vers" != "$want" ]; then
            echo "libcgw-pprof's symbol versions differ:"
            printf '%s\n' "$vers"
            exit 1
        fi
        echo "libcgw-pprof: every call @@LIBCGW_PPROF_0.1"
    fi
else
    echo "no libcgw-pprof (built without protobuf-c): its exports not checked"
fi

# libcgwprof: cgwprof_dump(), the two hooks that -finstrument-functions
# calls, and dlclose(), which keeps the names of what it unloads
prof="${CGW_LIBDIR:-.libs}/../prof/.libs/libcgwprof.so"
got=$($nm_cmd -D --defined-only "$prof" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u)
want=$(printf '%s\n' __cyg_profile_func_enter __cyg_profile_func_exit cgwprof_dump dlclose |
    sort -u)
if [ "$got" != "$want" ]; then
    echo "libcgwprof exports differ:"
    printf '%s\n' "$got"
    exit 1
fi
echo "libcgwprof exports exactly: $(echo $got)"

# cgwprof_dump() is versioned; the hooks and dlclose() are not, or they
# would not stand in for glibc's own under LD_PRELOAD (prof/libcgwprof.map)
if [ -n "${CGW_SYMVER:-}" ] && command -v "$readelf_cmd" >/dev/null 2>&1; then
    vers=$("$readelf_cmd" --dyn-syms -W "$prof" |
        awk '$5 != "LOCAL" && $7 != "UND" { print $8 }' |
        grep -E '^(cgwprof_dump|__cyg_profile_func_enter|__cyg_profile_func_exit|dlclose)(@|$)' | sort)
    want=$(printf '%s\n' __cyg_profile_func_enter __cyg_profile_func_exit \
        cgwprof_dump@@LIBCGWPROF_0.1 dlclose | sort)
    if [ "$vers" != "$want" ]; then
        echo "libcgwprof's symbol versions differ:"
        printf '%s\n' "$vers"
        exit 1
    fi
    echo "libcgwprof: cgwprof_dump@@LIBCGWPROF_0.1, the hooks and dlclose unversioned"
fi
