#!/bin/sh
# SPDX-License-Identifier: MIT
# test-messages: what the tools say about inputs that are not what they
# expect, in their own words: one error for a file that is no profile at
# all (binary, ELF, gzip of binary data, empty), no library call names
# and no "after line 0", counts in the singular, profiles with no event
# in common, an --event that the profile does not have.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGCONVERT=${CGCONVERT:-./tools/cgconvert}

# one_error TOOL FILE WORDS: TOOL on FILE fails (exit 1) with exactly one
# error line, naming FILE and WORDS, and no library call name anywhere
one_error() {
    tool=$1 file=$2 words=$3
    "$tool" "$file" >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] || fail "$tool $file: exit $rc: $(cat "$tmp/err")"
    n=$(grep -c ': error: ' "$tmp/out" "$tmp/err" | awk -F: '{ s += $NF } END { print s }')
    [ "$n" -eq 1 ] || fail "$tool $file: $n error lines, not 1: $(cat "$tmp/out" "$tmp/err")"
    grep -q "$file.*$words" "$tmp/out" "$tmp/err" ||
        fail "$tool $file: no \"$words\": $(cat "$tmp/err")"
    grep -q 'cgw_[a-z_]*:' "$tmp/out" "$tmp/err" && fail "$tool $file: a call's name: $(cat "$tmp/err")"
    return 0
}

# an ELF file (a program of the system: NUL bytes in its first line)
for prog in /bin/true /usr/bin/true /bin/sh; do
    [ "$(head -c 4 "$prog" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] && break
done
cp "$prog" "$tmp/prog" || fail "no ELF program to read"
one_error "$CGVERIFY" "$tmp/prog" 'an ELF file (a program or library), not a Callgrind profile'
one_error "$CGRECODE" "$tmp/prog" 'not a Callgrind profile'
: >"$tmp/empty"
one_error "$CGVERIFY" "$tmp/empty" 'empty, not a Callgrind profile'
grep -q "$tmp/empty: error" "$tmp/err" "$tmp/out" || fail "empty: a line number: $(cat "$tmp/out")"
grep -q "$tmp/empty:0" "$tmp/err" "$tmp/out" && fail "empty: line 0 named: $(cat "$tmp/out")"
printf '\0\1\2\3binary\n' >"$tmp/data"
one_error "$CGVERIFY" "$tmp/data" 'binary data, not a Callgrind profile'
if [ "${CGW_HAVE_ZLIB:-yes}" = yes ] && command -v gzip >/dev/null 2>&1; then
    gzip -c "$tmp/data" >"$tmp/data.gz"
    one_error "$CGVERIFY" "$tmp/data.gz" 'gzip-compressed binary data, not a Callgrind profile'
    # a pprof profile: gzip of a protobuf whose first byte is a newline
    printf '\n\002\010\001\022\000' | gzip -c >"$tmp/pprof.gz"
    one_error "$CGVERIFY" "$tmp/pprof.gz" 'a pprof profile? cgconvert --from pprof'
fi
# a PNG image: lines of bytes that are not text ("\211PNG\r", "\032")
# before its first NUL byte: one not-a-profile error in every tool, no
# unknown line
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\020\0\0\0\020\010\006\0\0\0\037\363\377a' >"$tmp/image.png"
for tool in "$CGVERIFY" "$CGRECODE" "$CGANNOTATE" "$CGCONVERT --to folded" \
    "$CGREPORT -o $tmp/png.html" "$CGMERGE -o $tmp/png.out $tmp/image.png" \
    "$CGDIFF $tmp/image.png"; do
    $tool "$tmp/image.png" >"$tmp/out" 2>&1 && fail "$tool on a PNG: exit 0"
    [ "$(grep -c 'binary data, not a Callgrind profile \[not-a-profile\]' "$tmp/out")" -ge 1 ] ||
        fail "$tool on a PNG: no not-a-profile line: $(cat "$tmp/out")"
    grep -v 'not-a-profile' "$tmp/out" | grep -q ': error: ' &&
        fail "$tool on a PNG: another error: $(cat "$tmp/out")"
done
[ -e "$tmp/png.html" ] || [ -e "$tmp/png.out" ] && fail "a page or merge written from a PNG"
"$CGVERIFY" "$tmp/empty" | grep -q 'INVALID: 0 parts, 0 cost lines, 0 calls, 0 functions, 1 error, 0 warnings' ||
    fail "summary line: $("$CGVERIFY" "$tmp/empty")"
# the same in cgmerge, cgdiff and cgconvert: one line each, then why
# nothing was written
"$CGMERGE" "$tmp/prog" "$tmp/empty" -o "$tmp/m.out" 2>"$tmp/err" && fail "cgmerge of an ELF file: exit 0"
[ "$(grep -c 'not-a-profile' "$tmp/err")" -eq 2 ] || fail "cgmerge: $(cat "$tmp/err")"
[ -e "$tmp/m.out" ] && fail "cgmerge wrote a merge of no profile"
"$CGCONVERT" --to folded "$tmp/prog" >"$tmp/out" 2>"$tmp/err" && fail "cgconvert of an ELF file: exit 0"
grep -q "^cgconvert: $tmp/prog: 1 error in the input; nothing written$" "$tmp/err" ||
    fail "cgconvert --to folded: $(cat "$tmp/err")"
grep -q 'no part' "$tmp/err" && fail "cgconvert --to folded: $(cat "$tmp/err")"

# empty folded input: an error, nothing written
"$CGCONVERT" --from folded "$tmp/empty" -o "$tmp/e.out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "cgconvert --from folded of an empty file: exit $rc"
grep -q "^cgconvert: $tmp/empty: empty, no stacks in it$" "$tmp/err" || fail "empty folded: $(cat "$tmp/err")"
[ -e "$tmp/e.out" ] && fail "empty folded: a profile written"
printf '\n\n' | "$CGCONVERT" --from folded - >/dev/null 2>"$tmp/err" && fail "blank folded: exit 0"
grep -q 'blank lines only' "$tmp/err" || fail "blank folded: $(cat "$tmp/err")"

# a folder as input: the system's words, no call name, no "line 0"
mkdir "$tmp/dir"
"$CGRECODE" "$tmp/dir" -o "$tmp/r.out" 2>"$tmp/err" && fail "cgrecode of a folder: exit 0"
grep -q "^cgrecode: $tmp/dir: cannot read: Is a directory$" "$tmp/err" || fail "cgrecode of a folder: $(cat "$tmp/err")"
"$CGVERIFY" "$tmp/dir" 2>"$tmp/err"
grep -q "^cgverify: $tmp/dir: cannot read: Is a directory$" "$tmp/err" || fail "cgverify of a folder: $(cat "$tmp/err")"

# no event in common: cgmerge says so and merges, cgdiff refuses
printf 'events: Ir\nfl=a.c\nfn=main\n1 5\n' >"$tmp/ir"
printf 'events: Cycles\nfl=a.c\nfn=main\n1 7\n' >"$tmp/cy"
"$CGMERGE" "$tmp/ir" "$tmp/cy" -o "$tmp/m.out" 2>"$tmp/err" || fail "cgmerge of other events: exit $?"
grep -q "^cgmerge: note: no event is in every input ($tmp/ir has Ir, $tmp/cy has Cycles)" "$tmp/err" ||
    fail "cgmerge of other events: $(cat "$tmp/err")"
grep -q '^totals: 5 7$' "$tmp/m.out" || fail "cgmerge of other events: $(cat "$tmp/m.out")"
"$CGMERGE" "$tmp/ir" "$tmp/ir" -o "$tmp/m.out" 2>"$tmp/err" || fail "cgmerge: exit $?"
[ -s "$tmp/err" ] && fail "cgmerge of the same events: $(cat "$tmp/err")"
"$CGDIFF" "$tmp/ir" "$tmp/cy" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "cgdiff of other events: exit $rc"
grep -q "^cgdiff: the profiles have no event in common ($tmp/ir has Ir, $tmp/cy has Cycles)" "$tmp/err" ||
    fail "cgdiff of other events: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "cgdiff of other events compared: $(cat "$tmp/out")"
"$CGDIFF" --force "$tmp/ir" "$tmp/cy" >"$tmp/out" 2>&1 || fail "cgdiff --force: exit $?"
grep -q '^Cycles: 0 -> 7' "$tmp/out" || fail "cgdiff --force: $(cat "$tmp/out")"

# an event the profile does not have: the ones it has
"$CGCONVERT" --to folded --event Foo "$tmp/ir" 2>"$tmp/err" && fail "--event Foo: exit 0"
grep -q "^cgconvert: $tmp/ir: the profile has no event Foo (it has Ir)$" "$tmp/err" ||
    fail "--event Foo: $(cat "$tmp/err")"
echo "messages: binary, empty, folders, events, in the tools' words"
