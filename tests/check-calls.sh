#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of HACKING.md, as calls: the call graph between the files
# of lib/common, lib/write, lib/read, the modules over <cgw.h> (lib/merge,
# lib/convert, lib/gen, lib/profile), prof, tools and bench (when make
# bench has built it), read with nm
# from the objects of the build (a file uses what it leaves undefined
# and another file defines).  It fails on a loop between two or more
# files of one folder and on a use that goes up or across the layers:
# lib/common uses nothing of the others; lib/write and lib/read use
# lib/common only; a module uses the public cgw_* and lib/common's
# cgwp_* (another module's calls only through cgw_*); prof and tools use
# the public cgw_* only (and their own folder's); bench the public cgw_*
# and lib/common's cgwp_* (its baselines time the library's parts).  A planted loop and planted
# uses across the layers are checked first, so that the check is seen
# to fail when it should.
set -u
build=${CGW_BUILDDIR:-.}
nm=${NM:-nm}
folders="lib/common lib/write lib/read lib/merge lib/convert lib/gen lib/profile prof tools bench"
optional="bench" # built by make bench only

# The objects of a folder: the PIC ones where libtool made both.
objects() {
    set -- "$1"/.libs/*.o
    [ -f "$1" ] || set -- "${1%/.libs/*}"/*.o
    for o in "$@"; do
        case ${o##*/} in tests_* | *.pb-c.o) ;; *) [ -f "$o" ] && echo "$o" ;; esac
    done
    return 0
}

# The symbols of the tree at $1, one a line: FOLDER FILE D|U SYMBOL
# (defined or undefined); FILE is the source's name (libtool's prefix
# "libcgw_la-" gone).
symbols() {
    for folder in $folders; do
        for o in $(objects "$1/$folder"); do
            file=${o##*/}
            file=${file##*_la-}
            $nm -P "$o" | awk -v folder="$folder" -v file="${file%.o}" '
                $2 == "U" { print folder, file, "U", $1; next }
                $2 ~ /^[TDBRGSVWC]$/ { print folder, file, "D", $1 }'
        done
    done
}

# Check the tree built at $1: print each use across the layers and each
# loop, and return 1 when there is one.
check_tree() {
    symbols "$1" | awk '
    $3 == "D" { def[$4] = $1 " " $2; next }
    { use[++n] = $0 }
    END {
        bad = 0
        for (u = 1; u <= n; u++) {
            split(use[u], f, " ")
            if (!(f[4] in def)) continue
            split(def[f[4]], d, " ")
            from = f[1]; to = d[1]; sym = f[4]
            if (from == to) {
                if (f[2] != d[2]) {
                    key = from "/" f[2] SUBSEP from "/" d[2]
                    if (!(key in edge)) {
                        edge[key] = sym
                        node[from "/" f[2]] = from; node[from "/" d[2]] = from
                    }
                }
                continue
            }
            ok = 0
            if (from ~ /^lib\/(merge|convert|gen|profile)$/)
                ok = sym ~ /^cgw_/ || (to == "lib/common" && sym ~ /^cgwp_/)
            else if (from == "prof" || from == "tools")
                ok = sym ~ /^cgw_/ && to != "prof" && to != "tools" && to != "bench"
            else if (from == "bench")
                ok = (sym ~ /^cgw_/ && to != "prof" && to != "tools") ||
                     (to == "lib/common" && sym ~ /^cgwp_/)
            else if (from == "lib/write" || from == "lib/read")
                ok = to == "lib/common"
            if (!ok) {
                print from "/" f[2] ".c uses " sym " of " to "/" d[2] ".c: across the layers"
                bad = 1
            }
        }
        # loops: two files of a folder that reach each other
        for (a in node) for (b in node) reach[a, b] = ((a, b) in edge)
        for (k in node) for (a in node) if (reach[a, k])
            for (b in node) if (reach[k, b]) reach[a, b] = 1
        for (a in node) {
            if (done[a]) continue
            loop = ""
            for (b in node)
                if (a != b && reach[a, b] && reach[b, a]) {
                    loop = loop " " b; done[b] = 1
                }
            if (loop != "") {
                print "a loop of calls between " a loop ":"
                for (x in edge) {
                    split(x, e, SUBSEP)
                    if ((e[1] == a || index(loop " ", " " e[1] " ")) &&
                        (e[2] == a || index(loop " ", " " e[2] " ")))
                        print "    " e[1] ".c uses " edge[x] " of " e[2] ".c"
                }
                bad = 1
            }
        }
        exit bad
    }'
}

# the check itself must catch a planted loop and planted uses across
# the layers, and pass a tree without them
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-calls.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
plant() { # FOLDER FILE C-SOURCE
    mkdir -p "$tmp/$1"
    printf '%s\n' "$3" >"$tmp/$1/$2.c"
    $cc -c -o "$tmp/$1/$2.o" "$tmp/$1/$2.c" || exit 99
}
expect() { # 0|1 WHAT
    check_tree "$tmp" >"$tmp/out" 2>&1
    if [ $? -ne "$1" ]; then
        echo "check-calls: $2"
        cat "$tmp/out"
        exit 99
    fi
}
plant lib/read a 'int cgwr_b(void); int cgwr_a(void) { return 1; } int cgwr_a2(void) { return cgwr_b(); }'
plant lib/read b 'int cgwr_a(void); int cgwr_b(void) { return 2; } int cgwr_b2(void) { return 0; }'
plant lib/common c 'int cgwp_c(void) { return 3; }'
plant lib/merge t 'int cgwp_c(void); int cgw_t(void) { return cgwp_c(); }'
expect 0 "a tree without a loop or a use across the layers was not passed"
plant lib/read b 'int cgwr_a(void); int cgwr_b(void) { return cgwr_a(); }'
expect 1 "a planted loop between lib/read/a.c and b.c was not caught"
plant lib/read b 'int cgwr_c(void); int cgwr_b(void) { return cgwr_c(); }'
plant lib/read c 'int cgwr_a(void); int cgwr_c(void) { return cgwr_a(); }'
expect 1 "a planted loop of lib/read/a.c, b.c and c.c was not caught"
rm -f "$tmp"/lib/read/[bc].*
plant lib/read b 'int cgwr_b(void) { return 0; }'
expect 0 "a tree without a loop was not passed"
plant lib/common c 'int cgwr_b(void); int cgwp_c(void) { return cgwr_b(); }'
expect 1 "a planted use of lib/read in lib/common was not caught"
plant lib/common c 'int cgwp_c(void) { return 3; }'
plant lib/write w 'int cgwr_b(void); int cgwp_w(void) { return cgwr_b(); }'
expect 1 "a planted use of lib/read in lib/write was not caught"
rm -f "$tmp"/lib/write/w.*
plant lib/merge t 'int cgwr_b(void); int cgw_t(void) { return cgwr_b(); }'
expect 1 "a planted use of lib/read internals in lib/merge was not caught"
plant lib/merge t 'int cgw_t(void) { return 0; }'
plant prof p 'int cgwp_c(void); int cgwprof_p(void) { return cgwp_c(); }'
expect 1 "a planted use of lib/common internals in prof was not caught"
rm -f "$tmp"/prof/p.*
plant tools a 'int tool_b(void); int tool_a(void) { return tool_b(); }'
plant tools b 'int tool_a(void); int tool_b(void) { return tool_a(); }'
expect 1 "a planted loop between tools/a.c and b.c was not caught"

# the objects are there
for folder in $folders; do
    case " $optional " in *" $folder "*) continue ;; esac
    if [ -z "$(objects "$build/$folder")" ]; then
        echo "check-calls: no object in $build/$folder"
        exit 99
    fi
done
if check_tree "$build"; then
    echo "no loop of calls in a folder, no call across the layers"
    exit 0
fi
echo "check-calls: the calls above break the layers of HACKING.md"
exit 1
