#!/bin/sh
# SPDX-License-Identifier: MIT
# test-hostile-names: files a profile names that are no source files (a
# FIFO, /dev/zero, /dev/urandom at line 4,000,000,000) and names with
# terminal escapes (issue 54): cgannotate finishes at once under CPU and
# memory limits, and no raw ESC byte reaches a terminal from any tool.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
esc=$(printf '\033')

# annotate FILE: cgannotate under 10 s of CPU and 256 MiB (under ASan,
# whose shadow memory needs more, the CPU limit alone), stdout and
# stderr in $tmp/out and $tmp/err; its exit status in rc
vlimit=262144
sanitized "$CGANNOTATE" && vlimit=unlimited
annotate() {
    (ulimit -t 10; ulimit -v $vlimit; exec "$CGANNOTATE" "$@") >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    ( sleep 20; kill -9 $pid 2>/dev/null ) &
    watch=$!
    wait $pid; rc=$?
    kill $watch 2>/dev/null
}
mkfifo "$tmp/fifo" || exit 77
for src in "$tmp/fifo" /dev/zero /dev/urandom; do
    [ -e "$src" ] || continue
    printf 'events: Ir\nfl=%s\nfn=f\n1 10\n4000000000 5\n' "$src" >"$tmp/p.out"
    annotate "$tmp/p.out"
    [ $rc -eq 0 ] || fail "$src: exit $rc: $(cat "$tmp/err")"
    grep -q "^cgannotate: $src: not a regular file" "$tmp/err" || fail "$src: no note: $(cat "$tmp/err")"
    grep -q "could not be found" "$tmp/out" || fail "$src: not listed as unfound"
done
# a regular file at line 4,000,000,000: read to its end, once
printf 'int x;\n' >"$tmp/small.c"
printf 'events: Ir\nfl=%s\nfn=f\n1 10\n4000000000 5\n' "$tmp/small.c" >"$tmp/p.out"
annotate "$tmp/p.out"
[ $rc -eq 0 ] || fail "small.c: exit $rc"
grep -q '<bogus line 4000000000>' "$tmp/out" || fail "small.c: no bogus line"
# a line of 100,000 bytes: cut at 65536 with a note
awk 'BEGIN { s = "x"; while (length(s) < 100000) s = s s; print substr(s, 1, 100000) }' >"$tmp/long.c"
printf 'events: Ir\nfl=%s\nfn=f\n1 10\n' "$tmp/long.c" >"$tmp/p.out"
annotate "$tmp/p.out"
[ $rc -eq 0 ] || fail "long.c: exit $rc"
grep -q "long.c:1: a line of more than 65536 bytes" "$tmp/err" || fail "long.c: no note"
n=$(grep -c 'xxxxxxxxxx' "$tmp/out")
[ "$(grep 'xxxxxxxxxx' "$tmp/out" | awk '{ print length($0) }' | sort -n | tail -n 1)" -le 65600 ] ||
    fail "long.c: line not cut ($n)"
# a folder in place of a source file is no source file either
mkdir "$tmp/dir.c"
printf 'events: Ir\nfl=%s\nfn=f\n1 10\n' "$tmp/dir.c" >"$tmp/p.out"
annotate "$tmp/p.out"
grep -q "dir.c: not a regular file" "$tmp/err" || fail "dir.c: no note"
# a read error is said and exits 2, never taken as the end of the file
# (/proc/self/mem: a regular file whose first page gives EIO)
if [ -r /proc/self/mem ]; then
    printf 'events: Ir\nfl=/proc/self/mem\nfn=f\n1 10\n' >"$tmp/p.out"
    annotate "$tmp/p.out"
    [ $rc -eq 2 ] || fail "/proc/self/mem: exit $rc"
    grep -q '^cgannotate: /proc/self/mem: reading: ' "$tmp/err" || fail "/proc/self/mem: $(cat "$tmp/err")"
fi

# names with escapes
printf 'events: Ir\nfl=a.c\nfn=ma\033]0;pwned\007in\033[2J\n1 10\ncfn=b\033x\ncalls=1 1\n1 5\nfn=b\033x\n1 5\n' >"$tmp/esc.out"
printf 'events: Ir\nfl=a.c\nfn=ma\033]0;pwned\007in\033[2J\n1 40\nfn=b\033x\n1 5\n' >"$tmp/esc2.out"
printf 'events: Ir\nfl=a.c\nfn=(1) x\033[2Jy\n1 10\nfn=(1) other\033]0;t\007\n1 5\n' >"$tmp/bad.out"
noesc() {
    name=$1; shift
    "$@" >"$tmp/o" 2>&1
    [ "$(grep -c "$esc" "$tmp/o")" -eq 0 ] || fail "$name: a raw ESC reached the output"
    grep -q 'x1b' "$tmp/o" || fail "$name: no \\x1b in: $(cat "$tmp/o")"
}
noesc cgannotate "$CGANNOTATE" "$tmp/esc.out"
grep -q 'a.c:ma\\x1b\]0;pwned\\x07in\\x1b\[2J' "$tmp/o" || fail "cgannotate: name not escaped as \\xNN"
noesc cgdiff "$CGDIFF" "$tmp/esc.out" "$tmp/esc2.out"
noesc cgmerge "$CGMERGE" -o "$tmp/m.out" "$tmp/bad.out"
noesc cgrecode "$CGRECODE" -o "$tmp/r.out" "$tmp/bad.out"
noesc cgverify "$CGVERIFY" --all "$tmp/esc.out"
grep -q 'control-in-name' "$tmp/o" || fail "cgverify: no control-in-name warning"
"$CGVERIFY" "$tmp/esc.out" >/dev/null || fail "cgverify: control-in-name made the file invalid"
# a name without control bytes prints as it is (backslashes too)
printf 'events: Ir\nfl=a.c\nfn=C:\\\\dir\\\\f\n1 10\n' >"$tmp/bs.out"
"$CGANNOTATE" "$tmp/bs.out" | grep -q 'a.c:C:\\\\dir\\\\f$' || fail "cgannotate: backslash name changed"
exit 0
