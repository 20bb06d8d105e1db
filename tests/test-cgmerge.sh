#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgmerge: the tool's sums, its order-free output, 1,000 inputs on
# one command line, stdin, parts, rewrites, and its exit codes.  (The sums
# at each position and call are checked by test-merge.)
. "${CGW_SRCDIR:-.}/tests/tools.sh"
# the totals of every part of a file, summed: "a b c"
totals() {
    "$CGVERIFY" --json "$1" | tr '{' '\n' | sed -n 's/.*"totals":\[\([0-9,]*\)\].*/\1/p' |
        awk -F, '{ for (i = 1; i <= NF; i++) t[i] += $i; n = NF }
                 END { for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? " " : ""), t[i] }'
}
# the totals of several files, summed
sum_totals() {
    for f in "$@"; do totals "$f"; echo; done |
        awk '{ for (i = 1; i <= NF; i++) t[i] += $i; n = NF }
             END { for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? " " : ""), t[i] }'
}
annotate_totals() {
    [ -n "${CALLGRIND_ANNOTATE:-}" ] || return 0
    "$CALLGRIND_ANNOTATE" --inclusive=no "$1" | sed -n 's/ *PROGRAM TOTALS.*//p' |
        sed 's/ ([0-9.]*%)//g; s/,//g; s/  */ /g; s/^ //'
}

for s in 1 2 3; do
    "$CGGEN" --seed $s --functions 30 --events 3 --parts $s --positions instr,line \
        -o "$tmp/g$s" || fail "cggen $s"
done
"$CGMERGE" "$tmp/g1" "$tmp/g2" "$tmp/g3" -o "$tmp/all" || fail "merge: exit $?"
"$CGVERIFY" -q "$tmp/all" || fail "the merged profile is not valid"
[ "$(grep -c '^part:' "$tmp/all")" -eq 1 ] || fail "the merged profile has more than one part"
grep -q '^positions: instr line$' "$tmp/all" || fail "instr positions lost"
want=$(sum_totals "$tmp/g1" "$tmp/g2" "$tmp/g3")
[ "$(totals "$tmp/all")" = "$want" ] || fail "totals $(totals "$tmp/all"), want $want"
got=$(annotate_totals "$tmp/all")
[ -z "$got" ] || [ "$got" = "$want" ] || fail "callgrind_annotate totals $got, want $want"

# gzip in (by the bytes) and out (by the name): the same merge
gzip -c "$tmp/g2" >"$tmp/g2.gz"
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    "$CGMERGE" "$tmp/g1" "$tmp/g2.gz" "$tmp/g3" -o "$tmp/all.gz" || fail "gzip merge: exit $?"
    gzip -dc "$tmp/all.gz" | cmp -s - "$tmp/all" || fail "gzip in and out merge otherwise"
else
    "$CGMERGE" "$tmp/g1" -o "$tmp/all.gz" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && grep -q 'needs a libcgw built with zlib' "$tmp/err" ||
        fail ".gz output without zlib: exit $rc, $(cat "$tmp/err")"
fi

# associative and commutative, byte for byte
"$CGMERGE" "$tmp/g1" "$tmp/g2" -o "$tmp/ab" && "$CGMERGE" "$tmp/ab" "$tmp/g3" -o "$tmp/ab_c" &&
"$CGMERGE" "$tmp/g2" "$tmp/g3" -o "$tmp/bc" && "$CGMERGE" "$tmp/g1" "$tmp/bc" -o "$tmp/a_bc" ||
    fail "nested merges"
cmp -s "$tmp/ab_c" "$tmp/a_bc" || fail "merge(merge(a,b),c) and merge(a,merge(b,c)) differ"
cmp -s "$tmp/ab_c" "$tmp/all" || fail "merge(merge(a,b),c) and merge(a,b,c) differ"
"$CGMERGE" "$tmp/g3" "$tmp/g1" "$tmp/g2" >"$tmp/cab" || fail "to stdout: exit $?"
cmp -s "$tmp/cab" "$tmp/all" || fail "the order of the inputs changed the output"
"$CGMERGE" - "$tmp/g2" "$tmp/g3" <"$tmp/g1" >"$tmp/stdin" || fail "stdin: exit $?"
cmp -s "$tmp/stdin" "$tmp/all" || fail "stdin and a path give different output"
mkfifo "$tmp/fifo" || fail "mkfifo"
cat "$tmp/g1" >"$tmp/fifo" &
timeout 60 "$CGMERGE" "$tmp/fifo" "$tmp/g2" "$tmp/g3" >"$tmp/from-fifo" || fail "FIFO: exit $?"
wait
cmp -s "$tmp/from-fifo" "$tmp/all" || fail "a FIFO and a path give different output"

# 1,000 inputs: ten profiles a hundred times each
files=""
for s in 0 1 2 3 4 5 6 7 8 9; do
    "$CGGEN" --seed $((s + 10)) --functions 8 -o "$tmp/s$s" || fail "cggen s$s"
done
for i in $(seq 100); do
    for s in 0 1 2 3 4 5 6 7 8 9; do files="$files $tmp/s$s"; done
done
# shellcheck disable=SC2086
"$CGMERGE" $files -o "$tmp/k" || fail "1,000 inputs: exit $?"
"$CGMERGE" "$tmp"/s? -o "$tmp/ten" || fail "ten inputs"
want=$(totals "$tmp/ten" | awk '{ for (i = 1; i <= NF; i++) printf "%s%.0f", (i > 1 ? " " : ""), $i * 100 }')
[ "$(totals "$tmp/k")" = "$want" ] || fail "1,000 inputs: totals $(totals "$tmp/k"), want $want"

# one part per input
"$CGMERGE" --keep-parts "$tmp/g1" "$tmp/g3" -o "$tmp/parts" || fail "--keep-parts: exit $?"
[ "$(grep -c '^part:' "$tmp/parts")" -eq 2 ] || fail "--keep-parts: not two parts"
[ "$(totals "$tmp/parts")" = "$(sum_totals "$tmp/g1" "$tmp/g3")" ] || fail "--keep-parts: totals"

# paths from two machines line up
printf 'events: Ir\nfl=/home/ann/p/x.c\nfn=f\n1 5\n' >"$tmp/m1"
printf 'events: Ir\nfl=/home/bob/p/x.c\nfn=f\n1 7\n' >"$tmp/m2"
"$CGMERGE" --mod-filename 's|^/home/[^/]*/||' "$tmp/m1" "$tmp/m2" -o "$tmp/mod" ||
    fail "--mod-filename: exit $?"
grep -q '^fl=(1) p/x.c$' "$tmp/mod" || fail "--mod-filename: $(cat "$tmp/mod")"
grep -q '^1 12$' "$tmp/mod" || fail "--mod-filename: the costs were not summed"
"$CGMERGE" --mod-funcname 's/f/g/' "$tmp/m1" | grep -q '^fn=(1) g$' || fail "--mod-funcname"

# errors: an invalid input, a sum past 2^64-1, usage
printf 'events: Ir\nfn=(1) a\nfn=(2)\n1 1\n' >"$tmp/bad"
exits 1 "an input with errors" 'bad:3: error: .*\[undefined-id\]' \
    "$CGMERGE" "$tmp/g1" "$tmp/bad" -o "$tmp/out"
[ -e "$tmp/out" ] && fail "an input with errors left an output file"
"$CGMERGE" --force "$tmp/g1" "$tmp/bad" -o "$tmp/out" 2>/dev/null || fail "--force: exit $?"
printf 'events: Ir\nfn=a\n1 18446744073709551615\n' >"$tmp/big"
printf 'events: Ir\nfn=a\n2 1\n' >"$tmp/one"
exits 1 "totals past 2^64-1" 'the total of Ir passes 2^64-1' \
    "$CGMERGE" "$tmp/big" "$tmp/one" -o "$tmp/out2"
[ -e "$tmp/out2" ] && fail "an overflow left an output file"
"$CGMERGE" --positions bb "$tmp/g1" -o "$tmp/out2" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "positions the inputs lack: exit $rc"
refused "$CGMERGE" "--mod-filename x/a/b/ $tmp/g1" "--frobnicate $tmp/g1" "" "$tmp/missing" \
    "--positions nope $tmp/g1"
help_fits cgmerge "$CGMERGE"

# every dialect of the corpus: a file merged with itself has twice its totals
n=0
for f in "${CGW_CORPUS:-/nonexistent}"/*.callgrind "${CGW_CORPUS:-/nonexistent}"/*.cachegrind; do
    [ -f "$f" ] || continue
    "$CGMERGE" --force "$f" "$f" -o "$tmp/twice" 2>/dev/null || fail "$f: exit $?"
    "$CGVERIFY" -q "$tmp/twice" || fail "$f: the merged profile is not valid"
    want=$(totals "$f" | awk '{ for (i = 1; i <= NF; i++) printf "%s%.0f", (i > 1 ? " " : ""), 2 * $i }')
    [ "$(totals "$tmp/twice")" = "$want" ] || fail "$f: totals $(totals "$tmp/twice"), want $want"
    n=$((n + 1))
done
[ $n -eq 0 ] || echo "corpus: $n files merged with themselves, totals doubled"
# calls=0 with cost (valgrind writes it for a call still running at a
# dump): the counts summed as they are (0 + 0 stays 0), the costs summed
printf 'events: Ir\nfn=f\n1 1\ncfn=g\ncalls=0 9\n2 30\nfn=g\n9 30\n' >"$tmp/zero"
"$CGMERGE" "$tmp/zero" "$tmp/zero" -o "$tmp/out" || fail "calls=0 with cost: exit $?"
grep -q '^calls=0 9$' "$tmp/out" || fail "calls=0 changed: $(cat "$tmp/out")"
grep -q '^+1 60$' "$tmp/out" || fail "the call's cost is not summed: $(cat "$tmp/out")"
"$CGVERIFY" -q "$tmp/out" || fail "the calls=0 merge is not valid"
printf 'events: Ir\nfn=f\n1 1\ncfn=g\ncalls=4 9\n2 30\nfn=g\n9 30\n' >"$tmp/four"
"$CGMERGE" "$tmp/zero" "$tmp/four" -o "$tmp/out" || fail "calls=0 + calls=4: exit $?"
grep -q '^calls=4 9$' "$tmp/out" || fail "calls=0 + calls=4 is not calls=4: $(cat "$tmp/out")"
echo "cgmerge: sums, order-free output, 1,000 inputs, parts, rewrites and exit codes right"
