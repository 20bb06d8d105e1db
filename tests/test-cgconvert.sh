#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgconvert: the tool's directions, inputs, events, exit codes and
# messages, on inputs with known answers; every profile it writes passes
# cgverify --strict, and callgrind_annotate and speedscope (when present)
# read the same totals.  (The conversions' details are in test-convert.)
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CORPUS=${CGW_CORPUS:-}
ORACLES=${CGW_SRCDIR:-.}/../shared/oracles
totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\(\[[0-9,]*\]\).*/\1/'; }
# the first event's totals of every part, added up; the counts of folded stacks
first_total() {
    "$CGVERIFY" --json "$1" | tr '{' '\n' | sed -n 's/.*"totals":\[\([0-9]*\).*/\1/p' |
        awk '{ s += $1 } END { printf "%.0f\n", s }'
}
folded_total() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }

printf 'main;parse;lex 40\nmain;parse 10\nmain;eval;apply 25\nmain;eval 5\nmain 1\n' >"$tmp/a.folded"
printf 'main;parse;lex 4\nmain;eval;gc 6\n' >"$tmp/b.folded"

# one input: a tree, so the way back is exact
"$CGCONVERT" --from folded "$tmp/a.folded" -o "$tmp/a.out" || fail "from folded: exit $?"
strictly_valid "$tmp/a.out" || fail "the profile is not strictly valid"
[ "$(totals "$tmp/a.out")" = "[81]" ] || fail "totals $(totals "$tmp/a.out"), want [81]"
grep -q '^events: Samples$' "$tmp/a.out" || fail "default event"
"$CGCONVERT" --to folded "$tmp/a.out" -o "$tmp/a.back" || fail "to folded: exit $?"
sort "$tmp/a.folded" >"$tmp/want"
sort "$tmp/a.back" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "the stacks of a tree came back different: $(cat "$tmp/got")"

# several inputs, stdin, and events
"$CGCONVERT" --from folded --event cycles "$tmp/a.folded" - --event allocs "$tmp/b.folded" \
    <"$tmp/b.folded" >"$tmp/ab.out" || fail "several inputs: exit $?"
strictly_valid "$tmp/ab.out" || fail "the merged profile is not strictly valid"
grep -q '^events: cycles allocs$' "$tmp/ab.out" || fail "events: $(grep '^events' "$tmp/ab.out")"
[ "$(totals "$tmp/ab.out")" = "[91,10]" ] || fail "merged totals $(totals "$tmp/ab.out")"
"$CGCONVERT" --to folded --event allocs "$tmp/ab.out" | sort >"$tmp/got" || fail "--event"
sort "$tmp/b.folded" | cmp -s - "$tmp/got" || fail "allocs stacks: $(cat "$tmp/got")"

# bad input: exit 1, the place and what was expected, no output file
printf 'main;a 3\nmain;b\n' >"$tmp/bad.folded"
exits 1 "a line without a count" "bad.folded:2:7: no count at the end of the line" \
    "$CGCONVERT" --from folded "$tmp/bad.folded" -o "$tmp/bad.out"
[ -e "$tmp/bad.out" ] && fail "a refused input left an output file"
printf 'main;f (a.py:4294967296) 3\n' >"$tmp/big.folded"
exits 1 "a line of 2^32" "big.folded:1:14: a line number of 2^32 or more" \
    "$CGCONVERT" --from folded "$tmp/big.folded" -o "$tmp/big.out"
exits 1 "an unknown event" "no event nope" \
    "$CGCONVERT" --to folded --event nope "$tmp/a.out" -o "$tmp/x"
[ -e "$tmp/x" ] && fail "a refused conversion left an output file"
printf 'events: Ir\nfn=(1) a\nfn=(2)\n1 1\n' >"$tmp/badcg"
exits 1 "a profile with errors" 'badcg:3: error: .*\[undefined-id\]' \
    "$CGCONVERT" --to folded "$tmp/badcg" -o "$tmp/x"
exits 1 "a folded file read as pprof" 'a.folded: .*pprof' \
    "$CGCONVERT" --from pprof "$tmp/a.folded" -o "$tmp/x"
refused "$CGCONVERT" "--from folded" "--from perf $tmp/a.folded" "--to folded $tmp/a.out $tmp/a.out" \
    "--frobnicate" "--from folded $tmp/missing" "--from folded --to folded $tmp/a.folded"
help_fits cgconvert "$CGCONVERT"

# a profile with cycles, recursion and several callers (an estimate),
# and real files: the stacks add up to the totals, and back again the
# profile is strictly valid with the same totals
"$CGGEN" --seed 3 -o "$tmp/gen.out" || fail "cggen"
files="$tmp/gen.out"
if [ -n "$CORPUS" ] && [ -d "$CORPUS" ]; then
    files="$files $(ls "$CORPUS"/*.callgrind "$CORPUS"/*.cachegrind 2>/dev/null)"
fi
for f in $files; do
    "$CGCONVERT" --to folded --force "$f" -o "$tmp/f.folded" 2>/dev/null || fail "$f: to folded: exit $?"
    want=$(first_total "$f")
    [ "$(folded_total "$tmp/f.folded")" = "$want" ] ||
        fail "$f: the stacks add up to $(folded_total "$tmp/f.folded"), the profile to $want"
    [ -s "$tmp/f.folded" ] || continue
    "$CGCONVERT" --from folded "$tmp/f.folded" -o "$tmp/f.out" || fail "$f: back: exit $?"
    strictly_valid "$tmp/f.out" || fail "$f: back, not strictly valid"
    [ "$(first_total "$tmp/f.out")" = "$want" ] || fail "$f: back, totals differ"
done
echo "stacks of $(echo $files | wc -w) profiles add up to their totals"

# other readers
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
    "$CALLGRIND_ANNOTATE" "$tmp/ab.out" >"$tmp/ann" 2>&1 || fail "callgrind_annotate failed"
    grep -q '^91 (100.0%) *10 (100.0%) *PROGRAM TOTALS' "$tmp/ann" ||
        fail "callgrind_annotate totals: $(grep TOTALS "$tmp/ann")"
fi
if [ -f "$ORACLES/speedscope/speedscope-callgrind.js" ] && command -v node >/dev/null 2>&1; then
    node "$ORACLES/speedscope/speedscope-callgrind.js" "$tmp/ab.out" 3 >"$tmp/ss" ||
        fail "speedscope failed"
    w=$(sed -n 's/.*"totalWeight": *\([0-9]*\).*/\1/p' "$tmp/ss" | tr '\n' ' ')
    [ "$w" = "91 10 " ] || fail "speedscope total weights: $w"
    # a tree: speedscope's flame graph has every function's self and total
    node "$ORACLES/speedscope/speedscope-callgrind.js" "$tmp/a.out" 10 >"$tmp/ss" ||
        fail "speedscope failed"
    for want in "lex \[???\] self=40 total=40" "apply \[???\] self=25 total=25" \
        "parse \[???\] self=10 total=50" "eval \[???\] self=5 total=30" \
        "main \[???\] self=1 total=81"; do
        grep -q "\"$want\"" "$tmp/ss" || fail "speedscope: no '$want' in $(cat "$tmp/ss")"
    done
    echo "speedscope reads the totals: $w"
else
    echo "speedscope oracle or node missing: not compared"
fi
# a function keeps its own name whatever else was sampled (issue 52):
# run b is run a and one sample of a <module> in another file; the two
# profiles name every function alike, so cgdiff sees a 1% change, no
# function added or removed, and a --fail-above 5 gate passes
printf 'main (s.py:1);<module> (s.py:2) 50\nmain (s.py:1);<module> (s.py:2);g (s.py:5) 49\n' \
    >"$tmp/run1.folded"
{ cat "$tmp/run1.folded"; printf 'main (s.py:1);<module> (json.py:7) 1\n'; } >"$tmp/run2.folded"
for q in "" --qualify-names; do
    for r in 1 2; do
        "$CGCONVERT" --from folded $q "$tmp/run$r.folded" -o "$tmp/run$r.out" ||
            fail "run $r $q: exit $?"
        "$CGVERIFY" -q "$tmp/run$r.out" || fail "run $r $q: not valid"
        sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$tmp/run$r.out" | sort -u >"$tmp/names$r"
    done
    comm -23 "$tmp/names1" "$tmp/names2" | grep . &&
        fail "$q: one more sample renamed $(comm -23 "$tmp/names1" "$tmp/names2")"
    "$CGDIFF" --fail-above 5 "$tmp/run1.out" "$tmp/run2.out" >"$tmp/rundiff" ||
        fail "$q: cgdiff --fail-above 5 of a 1% change: exit $?: $(cat "$tmp/rundiff")"
    grep -q 's.py:<module>\|100%' "$tmp/rundiff" && fail "$q: cgdiff: $(cat "$tmp/rundiff")"
    grep -q '+1 .*json.py:<module>' "$tmp/rundiff" || fail "$q: cgdiff: $(cat "$tmp/rundiff")"
done
[ "$(tr '\n' '|' <"$tmp/names1")" = "<module> (s.py)|g (s.py)|main (s.py)|" ] ||
    fail "--qualify-names: $(cat "$tmp/names1")"
refused "$CGCONVERT" "--to folded --qualify-names $tmp/a.out"
# malloc in two objects: two functions of one name, told apart by ob= as
# KCachegrind's loader tells them apart; gprof2dot merges them by name
# (cgverify warns of it) unless --qualify-names names them apart
printf 'main;libc`malloc 3\nmain;libjemalloc`malloc 5\nmain 1\nmain;f (a.c:1) 2\nmain;f (b.c:2) 4\n' \
    >"$tmp/m.folded"
"$CGCONVERT" --from folded "$tmp/m.folded" -o "$tmp/m.out" || fail "malloc twice: exit $?"
"$CGVERIFY" -q "$tmp/m.out" || fail "malloc twice: not valid"
"$CGVERIFY" --all "$tmp/m.out" 2>&1 | grep -q 'name-clash' || fail "malloc twice: no name-clash"
grep -q ' #\|\[libc\]\|(a.c)' "$tmp/m.out" && fail "malloc twice: renamed: $(grep fn= "$tmp/m.out")"
"$CGCONVERT" --from folded --qualify-names "$tmp/m.folded" -o "$tmp/mq.out" ||
    fail "--qualify-names: exit $?"
strictly_valid "$tmp/mq.out" || fail "--qualify-names: not strictly valid"
CGW_KCGDUMP_OPTIONAL="KCachegrind's loader is not asked" . "${CGW_SRCDIR:-.}/tests/kcgdump.sh"
if [ -n "$kcgdump" ]; then
    for f in m mq run2; do
        KCGNORM=1 "$kcgdump" "$tmp/$f.out" 2>/dev/null | grep '^F	' >"$tmp/$f.F" ||
            fail "kcgdump $f"
    done
    for want in 'libc	???	malloc	3' 'libjemalloc	???	malloc	5' '???	a.c	f	2' \
        '???	b.c	f	4'; do
        grep -qF "$want" "$tmp/m.F" || fail "KCachegrind: no '$want' in $(cat "$tmp/m.F")"
    done
    for want in 'libc	???	malloc [libc]	3' 'libjemalloc	???	malloc [libjemalloc]	5' \
        '???	a.c	f (a.c)	2' '???	b.c	f (b.c)	4' '???	???	main	1'; do
        grep -qF "$want" "$tmp/mq.F" || fail "KCachegrind: no '$want' in $(cat "$tmp/mq.F")"
    done
    [ "$(grep -c '<module>' "$tmp/run2.F")" = 2 ] || fail "KCachegrind: $(cat "$tmp/run2.F")"
    echo "KCachegrind reads a function a file and object"
fi
if [ -f "$ORACLES/gprof2dot/dump.py" ] && command -v python3 >/dev/null 2>&1; then
    python3 "$ORACLES/gprof2dot/dump.py" "$tmp/mq.out" 2>/dev/null | tr -d ' \n' >"$tmp/g2d" ||
        fail "gprof2dot failed"
    for want in '"total":15.0' '"name":"malloc[libc]","self":3.0' \
        '"name":"malloc[libjemalloc]","self":5.0' '"name":"main","self":1.0' \
        '"name":"f(a.c)","self":2.0' '"name":"f(b.c)","self":4.0'; do
        grep -qF "$want" "$tmp/g2d" || fail "gprof2dot: no '$want' in $(cat "$tmp/g2d")"
    done
    echo "gprof2dot reads both mallocs apart with --qualify-names"
else
    echo "gprof2dot oracle or python3 missing: not compared"
fi
# recursion kept: r -> r and, through b, a -> b and b -> a, each once a
# stack; calls into a function on a cycle may carry more than it has in
# all, which cgverify's inclusive check allows for (but not elsewhere)
printf 'main;r;r;r 4\nmain;a;b;a;b;c 5\n' >"$tmp/rec.folded"
"$CGCONVERT" --from folded "$tmp/rec.folded" -o "$tmp/rec.out" || fail "recursion: exit $?"
"${CGNORM:-./tests/cgnorm}" "$tmp/rec.out" >"$tmp/rec.norm" || fail "recursion: cgnorm"
for edge in 'r	->	.*	r	1	4' 'a	->	.*	b	1	5' 'b	->	.*	a	1	5' 'b	->	.*	c	1	5' \
    'main	->	.*	r	1	4'; do
    grep -q "^C	.*	$edge$" "$tmp/rec.norm" || fail "recursion: no edge $edge: $(cat "$tmp/rec.norm")"
done
"$CGVERIFY" "$tmp/rec.out" >"$tmp/rec.err" 2>&1 || fail "recursion: $(cat "$tmp/rec.err")"
grep -q 'inclusive-excess' "$tmp/rec.err" && fail "recursion: $(cat "$tmp/rec.err")"
printf 'events: Ir\nfn=a\n1 1\ncfn=b\ncalls=1 1\n1 9\nfn=b\n1 2\n' >"$tmp/excess.out"
"$CGVERIFY" "$tmp/excess.out" 2>&1 | grep -q 'inclusive-excess' ||
    fail "calls carrying more than the callee has, outside a cycle, are not said"
echo "cgconvert: directions, events, inputs, errors and exit codes right"
