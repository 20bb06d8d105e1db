#!/bin/sh
# SPDX-License-Identifier: MIT
# test-reader-claims: every diagnostic that says what another reader does
# is checked here with that reader (../shared/oracles): cgverify gives
# the sentence for a shape, and the reader does what it says on the same
# shape.  Skips (77) without ../shared/oracles or Qt5Core; the claims
# about gprof2dot and speedscope skip, with a message, without python3
# or node.
set -u
build=${CGW_BUILDDIR:-.}
. "${CGW_SRCDIR:-.}/tests/kcgdump.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-claims.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
CGVERIFY=${CGVERIFY:-$build/tools/cgverify}

# shape NAME TEXT: the profile NAME (printf's escapes in TEXT)
shape() { printf "# callgrind format\n$2" >"$tmp/$1"; }
# says NAME CODE SENTENCE: cgverify's diagnostic CODE on NAME has SENTENCE
says() {
    "$CGVERIFY" --all "$tmp/$1" >"$tmp/$1.v" 2>&1
    grep "\[$2\]" "$tmp/$1.v" | grep -qF "$3" ||
        fail "$1: no [$2] saying \"$3\": $(cat "$tmp/$1.v")"
}
# kcg NAME: KCachegrind's normalised T/F/C lines of NAME, one a line
kcg() { KCGNORM=1 timeout 20 "$kcgdump" "$tmp/$1" 2>/dev/null | grep '^[TFC]	' | tr '\t' ' '; }

# nul-byte: KCachegrind hangs on a line with a NUL byte (killed by timeout)
shape nul 'events: Ir\nfl=a.c\nfn=ma\0in\n1 5\n'
says nul nul-byte "(KCachegrind hangs on the line)"
timeout 3 "$kcgdump" "$tmp/nul" >/dev/null 2>&1; rc=$?
[ $rc -eq 124 ] || fail "nul-byte: KCachegrind ended (exit $rc) within 3 s"
echo "nul-byte: KCachegrind still reading after 3 s"

# no-callee: calls= with no cfn= in the part crashes KCachegrind; a cfn=
# before the cost line makes it read the call (main 3, the call 40, 43)
shape nocfn 'events: Ir\nfl=a.c\nfn=main\n1 3\ncalls=1 2\n1 40\n'
says nocfn no-callee "(KCachegrind crashes, or reads the call when a cfn= comes before its cost line)"
timeout 20 "$kcgdump" "$tmp/nocfn" >/dev/null 2>&1; rc=$?
[ $rc -gt 128 ] && [ $rc -ne 124 ] || fail "no-callee: KCachegrind exits $rc, no crash"
shape latecfn 'events: Ir\nfl=a.c\nfn=main\n1 3\ncalls=1 2\ncfn=g\n1 40\nfn=g\n2 40\n'
says latecfn no-callee "reads the call when a cfn= comes before its cost line"
got=$(kcg latecfn | sort | tr '\n' ';')
want='C ??? a.c main -> ??? a.c g 1 40;F ??? a.c g 40;F ??? a.c main 3;T 43;'
[ "$got" = "$want" ] || fail "no-callee with a late cfn=: KCachegrind reads $got, want $want"
echo "no-callee: KCachegrind crashes (exit $rc), or reads the call: $got"

# tab: KCachegrind drops the costs of the line, gprof2dot stops
shape tab 'events: Ir\nfl=a.c\nfn=main\n1\t5\nfn=g\n2 7\n'
says tab tab "(KCachegrind drops the costs, gprof2dot stops)"
got=$(kcg tab | grep main)
[ "$got" = "F ??? a.c main 0" ] || fail "tab: KCachegrind reads $got"
echo "tab: KCachegrind reads main with no cost"

# cost-before-events, summary-before-events: KCachegrind rejects the file
shape cbe 'fl=a.c\nfn=main\n1 5\nevents: Ir\n'
says cbe cost-before-events "(KCachegrind rejects the file)"
shape sbe 'summary: 5\nevents: Ir\nfl=a.c\nfn=main\n1 5\n'
says sbe summary-before-events "before events: (KCachegrind rejects the file)"
for f in cbe sbe; do
    "$kcgdump" "$tmp/$f" 2>/dev/null | grep -qx 'loaded_parts 0' || fail "$f: KCachegrind loads a part"
done
echo "cost-before-events, summary-before-events: KCachegrind loads no part"

# many-events: KCachegrind refuses more than 200 events
awk 'BEGIN { printf "# callgrind format\nevents:"; for (i = 0; i < 201; i++) printf " E%d", i
             printf "\nfl=a.c\nfn=main\n1"; for (i = 0; i < 201; i++) printf " 1"; print "" }' >"$tmp/many"
says many many-events "KCachegrind refuses a file with more than 200"
"$kcgdump" "$tmp/many" 2>/dev/null | grep -qx 'loaded_parts 0' || fail "many-events: KCachegrind loads a part"
echo "many-events: KCachegrind loads no part of 201 events"

# empty-function: KCachegrind shows "(unknown)"
shape emptyfn 'events: Ir\nfl=a.c\nfn=\n1 5\n'
says emptyfn empty-function 'KCachegrind shows "(unknown)"'
timeout 20 "$kcgdump" "$tmp/emptyfn" 2>/dev/null | grep -q '^fn (unknown) .* self 5 ' ||
    fail "empty-function: KCachegrind: $(timeout 20 "$kcgdump" "$tmp/emptyfn" 2>&1)"
echo "empty-function: KCachegrind shows (unknown) with its cost"

# hex-id: KCachegrind reads a hex ID as 0
shape hexid 'events: Ir\nfl=a.c\nfn=(0x1f) main\n1 5\nfn=(0)\n2 4\n'
says hexid hex-id "KCachegrind reads it as 0"
got=$(kcg hexid | grep '^F')
[ "$got" = "F ??? a.c main 9" ] || fail "hex-id: KCachegrind reads $got, not fn=(0) as main"
echo "hex-id: KCachegrind reads (0x1f) as (0)"

# unclosed-id: KCachegrind reads a compressed name cut off as "???"
shape cut 'events: Ir\nfl=a.c\nfn=(1) main\n1 3\ncfn=(2\ncalls=1 1\n1 4\nfn=(2'
says cut unclosed-id 'function ID "(2" has no '"')': cut off (KCachegrind reads \"???\")"
got=$(kcg cut | sort | tr '\n' ';')
want='C ??? a.c main -> ??? a.c ??? 1 4;F ??? a.c ??? 0;F ??? a.c main 3;T 3;'
[ "$got" = "$want" ] || fail "unclosed-id: KCachegrind reads $got, want $want"
echo "unclosed-id: KCachegrind reads (2 as ???: $got"

# basename-clash: KCachegrind takes main of a.c and of lib/a.c for one
shape base 'events: Ir\nfl=a.c\nfn=main\n1 5\nfl=lib/a.c\nfn=main\n2 7\n'
says base basename-clash "KCachegrind takes them for one function"
got=$(kcg base | grep '^F')
[ "$got" = "F ??? a.c main 12" ] || fail "basename-clash: KCachegrind reads $got"
echo "basename-clash: KCachegrind reads one main of 12"

# jump-target: gprof2dot throws on jfn=; nonportable-line: speedscope
# reads the line after jump= as a cost line (NaN when it has no cost);
# hex-step: callgrind_annotate and gprof2dot drop a line with "+0x10"
shape jfn 'events: Ir\nfl=a.c\nfn=main\n1 5\njfn=g\njump=1 2\n2\nfn=g\n2 4\n'
says jfn jump-target "jfn= (a jump into another function) is read by KCachegrind only: gprof2dot throws on it"
says jfn nonportable-line "speedscope reads the line after jump= as a cost line"
shape hexstep 'events: Ir\nfl=a.c\nfn=main\n16 5\n+0x10 7\n'
says hexstep hex-step "callgrind_annotate and gprof2dot drop the line"
annotate=${CALLGRIND_ANNOTATE:-callgrind_annotate}
# cfi-same-file: a cfi= of the caller's own file by an absolute path in
# the working folder; callgrind_annotate run there loses g's caller main,
# run elsewhere (/) it keeps it, and cgverify says so only there
mkdir "$tmp/src"
printf '# callgrind format\nevents: Ir\nfl=(1) %s/a.c\nfn=(1) main\n1 5\ncfi=(1)\ncfn=(2) g\ncalls=1 1\n1 7\nfn=(2)\n2 7\n' \
    "$tmp/src" >"$tmp/src/same.out"
(cd "$tmp/src" && "$CGVERIFY" --all same.out) | grep -qF "callgrind_annotate run here strips this folder from fl= names but not from cfi= ones, and loses these callers" ||
    fail "cfi-same-file: not said in the folder: $(cd "$tmp/src" && "$CGVERIFY" --all same.out)"
(cd / && "$CGVERIFY" --all "$tmp/src/same.out") | grep -q 'cfi-same-file' &&
    fail "cfi-same-file: said outside the folder"
if command -v "$annotate" >/dev/null 2>&1; then
    (cd "$tmp/src" && "$annotate" --inclusive=no --tree=caller same.out) | grep -q '< .*main' &&
        fail "cfi-same-file: callgrind_annotate keeps main's call in the folder"
    (cd / && "$annotate" --inclusive=no --tree=caller "$tmp/src/same.out") |
        grep -q "< $tmp/src/a.c:main (1x)" || fail "cfi-same-file: callgrind_annotate loses main's call in /"
    echo "cfi-same-file: callgrind_annotate loses g's caller in the folder, keeps it in /"
fi
# absolute-cfi: the same with g in another file of the folder, b.c
printf '# callgrind format\nevents: Ir\nfl=(1) %s/a.c\nfn=(1) main\n1 5\ncfi=(2) %s/b.c\ncfn=(2) g\ncalls=1 1\n1 7\nfl=(2)\nfn=(2)\n2 7\n' \
    "$tmp/src" "$tmp/src" >"$tmp/src/other.out"
(cd "$tmp/src" && "$CGVERIFY" --all other.out) | grep -qF "in the working folder, by its absolute path: callgrind_annotate run here strips this folder from fl= names but not from cfi= ones, and loses the calls into its functions [absolute-cfi]" ||
    fail "absolute-cfi: not said in the folder: $(cd "$tmp/src" && "$CGVERIFY" --all other.out)"
(cd / && "$CGVERIFY" --all "$tmp/src/other.out") | grep -q 'absolute-cfi' &&
    fail "absolute-cfi: said outside the folder"
if command -v "$annotate" >/dev/null 2>&1; then
    (cd "$tmp/src" && "$annotate" --inclusive=no --tree=caller other.out) | grep -q '< .*main' &&
        fail "absolute-cfi: callgrind_annotate keeps main's call in the folder"
    (cd / && "$annotate" --inclusive=no --tree=caller "$tmp/src/other.out") |
        grep -q "< $tmp/src/a.c:main (1x)" || fail "absolute-cfi: callgrind_annotate loses main's call in /"
    echo "absolute-cfi: callgrind_annotate loses g's caller in the folder, keeps it in /"
fi
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no "$tmp/hexstep" 2>&1 | grep -q '^5 (100.0%)  a.c:main$' ||
        fail "hex-step: callgrind_annotate reads +0x10 7"
else
    echo "no callgrind_annotate: its claims not checked"
fi
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/jfn" >"$tmp/g.out" 2>&1 &&
        fail "jump-target: gprof2dot reads jfn="
    grep -q "KeyError: 'jfn'" "$tmp/g.out" || fail "jump-target: gprof2dot: $(cat "$tmp/g.out")"
    python3 "$oracles/gprof2dot/dump.py" "$tmp/hexstep" | tr -d ' \n' | grep -q '"total":5.0,' ||
        fail "hex-step: gprof2dot reads +0x10 7"
    echo "jump-target: gprof2dot throws KeyError: 'jfn'; hex-step: it and callgrind_annotate read 5 of 12"
else
    echo "no python3: gprof2dot's claims not checked"
fi
# speedscope: the line after jump= read as a cost line, so that main's
# self is 5 + 7 where the file says 5 (jfn7), and NaN (null) where that
# line has no cost (jfn); each result read from its own file
shape jfn7 'events: Ir\nfl=a.c\nfn=main\n1 5\njfn=g\njump=1 2\n2 7\nfn=g\n2 4\n'
if command -v node >/dev/null 2>&1; then
    for f in jfn jfn7; do
        node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/$f" 1000 >"$tmp/$f.s" 2>&1 ||
            fail "nonportable-line: speedscope on $f: $(cat "$tmp/$f.s")"
        grep -q '"error"' "$tmp/$f.s" && fail "nonportable-line: speedscope throws on $f: $(cat "$tmp/$f.s")"
    done
    grep -q '"a.c:main": 12,' "$tmp/jfn7.s" ||
        fail "nonportable-line: speedscope does not add the line after jump= to main (5 + 7): $(cat "$tmp/jfn7.s")"
    grep -q '"a.c:main": null,' "$tmp/jfn.s" ||
        fail "nonportable-line: speedscope reads main's self as a number, no NaN: $(cat "$tmp/jfn.s")"
    echo "nonportable-line: speedscope reads the line after jump= as a cost (main 5 + 7; NaN with no cost)"
else
    echo "no node: speedscope's claims not checked"
fi
# flame-total: speedscope draws its flame graph from the functions that
# no call reaches, each with its self cost and calls: nothing when every
# function is called (loop), main's 2 + 100 where its call to g counts
# g's 50 twice (twice), and a callee that it names by a cfi= after cfn=
# (which this reader ignores) as another frame, so that g is drawn again
shape loop 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncalls=1 2\n1 9\nfn=g\n2 4\ncfn=main\ncalls=1 1\n2 9\n'
says loop flame-total "speedscope's flame graph of Ir is empty: it draws from the functions that no call reaches"
shape twice 'events: Ir\nfl=a.c\nfn=main\n1 2\ncfn=g\ncalls=1 2\n1 100\nfn=g\n2 50\n'
says twice flame-total "speedscope's flame graph of Ir shows 102, not part 1's total 52: it draws from the 1 function that no call reaches"
shape late 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncfi=b.c\ncalls=1 2\n1 7\nfn=g\n2 7\n'
says late flame-total "speedscope's flame graph of Ir shows 19, not part 1's total 12: it draws from the 2 functions"
shape hexss 'events: Ir\nfl=a.c\nfn=(1) main\n1 5\ncfn=(0x2) g\ncalls=1 2\n1 7\nfn=(0x2)\n2 7\n'
says hexss hex-id "speedscope as part of the name"
if command -v node >/dev/null 2>&1; then
    for f in loop:0 twice:102 late:19 hexss:19; do
        node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/${f%:*}" 10 >"$tmp/${f%:*}.s" 2>&1 ||
            fail "flame-total: speedscope on ${f%:*}: $(cat "$tmp/${f%:*}.s")"
        grep -q "\"totalWeight\": ${f#*:}," "$tmp/${f%:*}.s" ||
            fail "flame-total: speedscope's flame graph of ${f%:*} is not ${f#*:}: $(cat "$tmp/${f%:*}.s")"
    done
    grep -q '"(0x2) \[a.c\] self=7 ' "$tmp/hexss.s" ||
        fail "hex-id: speedscope does not name g's block (0x2): $(cat "$tmp/hexss.s")"
    # events-blank: an event "" with NaN costs
    shape evblank 'events: Ir \nfl=a.c\nfn=main\n1 5\n'
    says evblank events-blank "speedscope makes an event of the empty name there, whose costs are NaN"
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/evblank" 1 parse >"$tmp/evblank.s" 2>&1
    tr -d '\n ' <"$tmp/evblank.s" | grep -q '"event":"","selfSum":null,"nan":true' ||
        fail "events-blank: speedscope: $(cat "$tmp/evblank.s")"
    echo "flame-total: speedscope's flame graphs show 0 of 14, 102 of 52, 19 of 12; hex-id: a frame '(0x2)'"
fi
# gprof2dot stops at a tab
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/tab" >"$tmp/g.out" 2>&1
    grep -q '"functions": \[\]' "$tmp/g.out" || fail "tab: gprof2dot reads on: $(cat "$tmp/g.out")"
    echo "tab: gprof2dot reads no function"
fi
