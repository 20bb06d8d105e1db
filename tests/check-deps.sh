#!/bin/sh
# SPDX-License-Identifier: MIT
# check-deps: what each shared library loads (its DT_NEEDED, read with
# readelf -d, else objdump -p).  libcgw is linked into profilers and
# preloaded into every process, so it needs libc only (and libz when
# built with zlib); libcgw-pprof adds libprotobuf-c (and libcgw, libz);
# libcgwprof needs libcgw and libc (libdw and libelf when built with
# libdw; libpthread, libdl and the dynamic loader where the libc needs
# them).  Any other library fails.  Skipped in a static-only build.
set -u
libs=${CGW_LIBDIR:-.libs}
core=$libs/libcgw.so
pprof=$libs/../lib/pprof/.libs/libcgw-pprof.so
prof=$libs/../prof/.libs/libcgwprof.so
if [ ! -f "$core" ]; then
    echo "no shared library at $core (static-only build)"; exit 77
fi
needed() {
    if command -v readelf >/dev/null 2>&1; then
        readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'
    elif command -v objdump >/dev/null 2>&1; then
        objdump -p "$1" | awk '$1 == "NEEDED" { print $2 }'
    else
        echo "check-deps: neither readelf nor objdump" >&2; exit 77
    fi
}
# what the C library may bring along, on any system
libc='libc\.so.*|libc\.musl.*|ld-linux.*|ld-musl.*|libpthread\.so.*|libdl\.so.*'
status=0
# check LIB ALLOWED-REGEX: each DT_NEEDED of LIB matches ALLOWED
check() {
    deps=$(needed "$1") || exit $?
    bad=$(printf '%s\n' "$deps" | grep -Ev "^($2)\$" | grep -v '^$')
    if [ -n "$bad" ]; then
        echo "FAIL: ${1##*/} needs $(echo $bad) (allowed: $2)"; status=1
    else
        echo "${1##*/} needs: $(echo $deps)"
    fi
    printf '%s\n' "$deps" | grep -Eq '^(libc\.so|libc\.musl)' ||
        { echo "FAIL: ${1##*/} has no libc among its DT_NEEDED: read wrong?"; status=1; }
}
z=
[ "${CGW_HAVE_ZLIB:-no}" = yes ] && z='|libz\.so.*'
check "$core" "$libc$z"
if [ -f "$pprof" ]; then
    check "$pprof" "$libc$z|libcgw\.so.*|libprotobuf-c\.so.*"
else
    echo "no libcgw-pprof (built without protobuf-c)"
fi
dw=
[ "${CGW_HAVE_LIBDW:-no}" = yes ] && dw='|libdw\.so.*|libelf\.so.*'
check "$prof" "$libc|libcgw\.so.*$dw"
# the heavy libraries stay out of the core whatever the build
for heavy in libprotobuf-c libdw libelf libstdc++; do
    needed "$core" | grep -q "^$heavy\." &&
        { echo "FAIL: libcgw.so needs $heavy"; status=1; }
done
exit $status
