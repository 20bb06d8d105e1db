#!/bin/sh
# SPDX-License-Identifier: MIT
# test-progress: the progress line of cgverify, cgrecode, cgmerge, cgdiff
# and cgconvert: on a terminal (script(1) gives them one) it says the
# files and bytes read, the rate and the time left, and is cleared before
# anything else is said; with --quiet, or where stderr is no terminal,
# there is none; the output is the same bytes either way.
# CGW_PROGRESS_DELAY=0 draws it at every read.  Skips (77) without script.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
command -v script >/dev/null 2>&1 || { echo "no script(1) (util-linux): skipped"; exit 77; }
CGW_PROGRESS_DELAY=0
export CGW_PROGRESS_DELAY
for i in 1 2 3; do
    "$CGGEN" --seed "$i" --size 300K -o "$tmp/p$i.out" || fail "cggen: exit $?"
done
# on_tty NAME COMMAND: COMMAND's stdout and stderr, as a terminal shows
# them, into $tmp/NAME.tty (script's own output: its log)
on_tty() {
    script -qec "$2" /dev/null >"$tmp/$1.tty" 2>&1 </dev/null || fail "$1 on a terminal: exit $?: $(cat "$tmp/$1.tty")"
}
on_tty merge "$CGMERGE $tmp/p1.out $tmp/p2.out $tmp/p3.out -o $tmp/m-tty.out"
grep -q 'cgmerge: [0-2] of 3 files, [0-9.]* [KM]i\{0,1\}B of [0-9.]* [KM]iB, [0-9.]* [KMG]\{0,1\}i\{0,1\}B/s' "$tmp/merge.tty" ||
    fail "cgmerge: no progress line on a terminal: $(cat -v "$tmp/merge.tty" | head -5)"
grep -q 's left' "$tmp/merge.tty" || fail "cgmerge: no time left: $(cat -v "$tmp/merge.tty" | head -3)"
# cleared at the end: the last thing on the terminal erases the line
[ "$(tail -c 4 "$tmp/merge.tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
    fail "cgmerge: the line is not cleared: $(tail -c 40 "$tmp/merge.tty" | od -c | tail -3)"
"$CGMERGE" "$tmp/p1.out" "$tmp/p2.out" "$tmp/p3.out" -o "$tmp/m.out" 2>"$tmp/err" || fail "cgmerge: exit $?"
[ -s "$tmp/err" ] && fail "cgmerge without a terminal said: $(cat -v "$tmp/err")"
cmp -s "$tmp/m.out" "$tmp/m-tty.out" || fail "cgmerge wrote other bytes with its progress line"
on_tty quiet "$CGMERGE --quiet $tmp/p1.out $tmp/p2.out -o $tmp/q.out"
grep -q 'files' "$tmp/quiet.tty" && fail "cgmerge --quiet: $(cat -v "$tmp/quiet.tty")"

# the other tools, one line each on a terminal, none with --quiet (-q)
on_tty verify "$CGVERIFY $tmp/p1.out $tmp/p2.out"
grep -q 'cgverify: [01] of 2 files, ' "$tmp/verify.tty" || fail "cgverify: $(cat -v "$tmp/verify.tty")"
# each file's lines (flame-total's, then its verdict) on lines of their
# own, the progress line erased first
cat -v "$tmp/verify.tty" | grep -q "\^M^\[\[K$tmp/p2.out: " ||
    fail "cgverify: the verdict is not after an erased line: $(cat -v "$tmp/verify.tty")"
on_tty verifyq "$CGVERIFY -q $tmp/p1.out"
grep -q 'cgverify: ' "$tmp/verifyq.tty" && fail "cgverify -q: $(cat -v "$tmp/verifyq.tty")"
on_tty recode "$CGRECODE $tmp/p1.out -o $tmp/r.out"
grep -q 'cgrecode: [0-9.]* [KM]i\{0,1\}B of ' "$tmp/recode.tty" || fail "cgrecode: $(cat -v "$tmp/recode.tty")"
on_tty diff "$CGDIFF $tmp/p1.out $tmp/p2.out"
grep -q 'cgdiff: [01] of 2 files, ' "$tmp/diff.tty" || fail "cgdiff: $(cat -v "$tmp/diff.tty")"
on_tty convert "$CGCONVERT --to folded $tmp/p1.out -o $tmp/f.folded"
grep -q 'cgconvert: [0-9.]* [KM]i\{0,1\}B of ' "$tmp/convert.tty" || fail "cgconvert: $(cat -v "$tmp/convert.tty")"
on_tty convertq "$CGCONVERT --quiet --to folded $tmp/p1.out -o $tmp/f.folded"
grep -q 'cgconvert: ' "$tmp/convertq.tty" && fail "cgconvert --quiet: $(cat -v "$tmp/convertq.tty")"
# -q is --quiet in every tool that has --quiet (NEWS says so)
for t in "$CGRECODE $tmp/p1.out -o $tmp/r.out" "$CGMERGE $tmp/p1.out -o $tmp/m.out" \
    "$CGDIFF $tmp/p1.out $tmp/p2.out" "$CGCONVERT --to folded $tmp/p1.out -o $tmp/f.folded" \
    "$CGREPORT $tmp/p1.out -o $tmp/r.html" "$CGANNOTATE $tmp/p1.out"; do
    name=${t%% *}
    name=${name##*/}
    on_tty "${name}q" "$t -q"
    grep -q "$name: [0-9.]* [KM]i\{0,1\}B of \|unknown option\|$name: [01] of " "$tmp/${name}q.tty" &&
        fail "$name -q: $(cat -v "$tmp/${name}q.tty" | head -3)"
done
# an error of the input erases the line first
printf 'events: Ir\nfn=a\n1 x\n' >"$tmp/bad.out"
script -qec "$CGMERGE $tmp/p1.out $tmp/bad.out -o $tmp/b.out" /dev/null >"$tmp/bad.tty" 2>&1 </dev/null
cat -v "$tmp/bad.tty" | grep -q "\^M^\[\[Kcgmerge: $tmp/bad.out:3: error: " ||
    fail "the error is not after an erased line: $(cat -v "$tmp/bad.tty")"
echo "progress: on a terminal, cleared, none with --quiet or without a terminal, same bytes"
