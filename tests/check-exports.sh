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
got=$($nm_cmd -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u)
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

# libcgw-pprof (built with protobuf-c only): the calls of cgw-pprof.h
pprof="${CGW_LIBDIR:-.libs}/../lib/pprof/.libs/libcgw-pprof.so"
if [ -f "$pprof" ]; then
    got=$($nm_cmd -D --defined-only "$pprof" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u)
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
else
    echo "no libcgw-pprof (built without protobuf-c): its exports not checked"
fi

# libcgwprof: cgwprof_dump(), the two hooks that -finstrument-functions
# calls, and dlclose(), which keeps the names of what it unloads
prof="${CGW_LIBDIR:-.libs}/../prof/.libs/libcgwprof.so"
got=$($nm_cmd -D --defined-only "$prof" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u)
want=$(printf '%s\n' __cyg_profile_func_enter __cyg_profile_func_exit cgwprof_dump dlclose |
    sort -u)
if [ "$got" != "$want" ]; then
    echo "libcgwprof exports differ:"
    printf '%s\n' "$got"
    exit 1
fi
echo "libcgwprof exports exactly: $(echo $got)"
