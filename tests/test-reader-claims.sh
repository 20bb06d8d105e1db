#!/bin/sh
# SPDX-License-Identifier: MIT
# test-reader-claims: every diagnostic that says what another reader does
# is checked here with that reader (../shared/oracles): cgverify gives
# the sentence for a shape, and the reader does what it says on the same
# shape.  Skips (77) without ../shared/oracles or Qt5Core; the claims
# about gprof2dot and speedscope skip, with a message, without python3
# or node.
#
# The sentences of lib/read that name KCachegrind (K), callgrind_annotate
# (A), gprof2dot (G) or speedscope (S), and whether this file checks them
# (yes: with every reader named; "no": not yet):
#
# code                    readers  claim                                   checked
# nul-byte                K        hangs on the line                       yes
# no-callee               K        crashes, or reads a late cfn=           yes
# tab                     K G      drops the costs; stops                  yes
# cost-before-events      K        rejects the file                        yes
# summary-before-events   K        rejects the file                        yes
# many-events             K        refuses more than 200                   yes
# empty-function          K        shows "(unknown)"                       yes
# hex-id                  K S      reads 0; part of the name               yes
# unclosed-id             K        reads "???"                             yes
# basename-clash          K        one function                            yes
# jump-target             G (K)    throws on jfn=; K reads it              yes, G K
# nonportable-line        S (K)    line after jump= a cost line; K reads   yes, S K
# hex-step                A G      drop the line                           yes
# cfi-same-file           A        loses the callers in the folder         yes
# absolute-cfi            A        loses the calls in the folder           yes
# flame-total (2)         S        empty; shows N, not the total           yes
# events-blank            S        an event "", NaN                        yes
# big-position (line)     K        line numbers as 32 bits                 yes
# big-position (step)     K        steps in 32 bits, an address misplaced  yes (corrected)
# hex-prefix (position)   K A      read 0                                  yes
# hex-prefix (cost)       K A      read 0                                  yes
# hex-cost                A (Qt)   reads 0                                 yes, A
# calls-zero              A        call into self cost                     yes
# callee-without-block    A S (Qt) show a phantom                          yes, A S
# several-parts           A S      merges; rejects                         yes
# summary-low             A        more than 100%                          yes
# carriage-return         A S      keeps \r in names; rejects              yes
# no-format-line          K S      look for events: near the start         yes (corrected), K; S detects
# call-without-cfn        S (Qt)   loses the callee                        yes, S
# id-defined-twice        S        rejects                                 yes
# blank                   S        rejects                                 yes
# few-costs               S        NaN                                     yes
# line-in-call            G S      lose the call                           yes
# big-value               G S      lose precision                          yes
# invalid-utf8            G        rejects                                 yes
# inline-before-function  K A G S  fl= file; aborts; ignore fi=            yes
# name-clash              G        merges                                  yes
# ob-in-function          K        drops it, costs to one with no name     yes (corrected)
# definition-only         K        a function in the last fl= (by ID)      yes (corrected)
# callee-spec-after-cfn   K A      bind the callee at cfn=                 yes
# cfn-without-call        K        makes a function                        yes
# unclosed-inline         A        keeps fi= for the next function         yes
# gzip-input              K A G    cannot read it (and webgrind)           yes
# nonportable-header      A (Qt)   ignores event: lines                    yes, A
# positions-after-events  K A      new part, rejected; ignores (header)    yes (corrected)
# positions-after-events  K A      new part, rejected; ignores (body)      yes (corrected)
# no-position-column      A        first cost as the line                  yes
# bb-positions            K A S    misplaces; with instr dies; 2nd column  yes (corrected)
# positions-not-line      S        second column as first event            yes (corrected)
# instr-positions         all (Qt) take one column                         yes (K A G S)
# positions-order         A K      dies; address first                     yes
# header-order            G        stops at version: not 1st, creator: not 2nd  yes (corrected)
# key-without-space       A (Qt)   needs ": "                              yes, A
# header-in-body          A        warns                                   yes
# name-blank (after ID)   S G K A  keep (all)                              yes (corrected)
# name-blank (around)     S G A    S G strip before; all keep after        yes (corrected)
# id-name-blank           all      strip                                   yes (K A G S)
# appended-profile        K        next part after "Invalid line"          yes
# summary-zero            all      take the sum                            yes (K A G S)
# missing-events          K        forgets the events, crashes             yes
# trailing-blank          all      takes it                                yes (K A G S)
#
# 63 sentences: 63 checked (11 corrected; KCachegrind's jumps show in
# kcgdump's plain output, but for a jump to the next line, which it
# drops).  Qt Creator or webgrind only, no oracle here, not checkable:
# uppercase-hex, nonportable-header (thread:), no-positions,
# no-final-newline, paren-name, and the Qt Creator and webgrind parts of
# the sentences above.
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
    grep -a "\[$2\]" "$tmp/$1.v" | grep -aqF "$3" ||
        fail "$1: no [$2] saying \"$3\": $(cat "$tmp/$1.v")"
}
# kcg NAME: KCachegrind's normalised T/F/C lines of NAME, one a line
kcg() { KCGNORM=1 timeout 20 "$kcgdump" "$tmp/$1" 2>/dev/null | grep '^[TFC]	' | tr '\t' ' '; }
# kcg_reads NAME WANT WHAT: KCachegrind's lines of NAME, sorted and
# joined by ';' (in $got), are WANT
kcg_reads() {
    got=$(kcg "$1" | sort | tr '\n' ';')
    [ "$got" = "$2" ] || fail "$3: KCachegrind reads $got, want $2"
}

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
kcg_reads latecfn 'C ??? a.c main -> ??? a.c g 1 40;F ??? a.c g 40;F ??? a.c main 3;T 43;' "no-callee with a late cfn="
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
kcg_reads cut 'C ??? a.c main -> ??? a.c ??? 1 4;F ??? a.c ??? 0;F ??? a.c main 3;T 3;' "unclosed-id"
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
# cfi-same-file, absolute-cfi: a cfi= of a file by its absolute path in
# the working folder ($tmp/src): callgrind_annotate run there loses g's
# caller main, run elsewhere (/) it keeps it, and cgverify says so only
# there.  in_folder FILE CODE SENTENCE checks it on $tmp/src/FILE.
in_folder() {
    (cd "$tmp/src" && "$CGVERIFY" --all "$1") | grep -qF "$3" ||
        fail "$2: not said in the folder: $(cd "$tmp/src" && "$CGVERIFY" --all "$1")"
    (cd / && "$CGVERIFY" --all "$tmp/src/$1") | grep -q "$2" && fail "$2: said outside the folder"
    command -v "$annotate" >/dev/null 2>&1 || return 0
    (cd "$tmp/src" && "$annotate" --inclusive=no --tree=caller "$1") | grep -q '< .*main' &&
        fail "$2: callgrind_annotate keeps main's call in the folder"
    (cd / && "$annotate" --inclusive=no --tree=caller "$tmp/src/$1") |
        grep -q "< $tmp/src/a.c:main (1x)" || fail "$2: callgrind_annotate loses main's call in /"
    echo "$2: callgrind_annotate loses g's caller in the folder, keeps it in /"
}
mkdir "$tmp/src"
printf '# callgrind format\nevents: Ir\nfl=(1) %s/a.c\nfn=(1) main\n1 5\ncfi=(1)\ncfn=(2) g\ncalls=1 1\n1 7\nfn=(2)\n2 7\n' \
    "$tmp/src" >"$tmp/src/same.out"
in_folder same.out cfi-same-file "callgrind_annotate run here strips this folder from fl= names but not from cfi= ones, and loses these callers"
# g in another file of the folder, b.c
printf '# callgrind format\nevents: Ir\nfl=(1) %s/a.c\nfn=(1) main\n1 5\ncfi=(2) %s/b.c\ncfn=(2) g\ncalls=1 1\n1 7\nfl=(2)\nfn=(2)\n2 7\n' \
    "$tmp/src" "$tmp/src" >"$tmp/src/other.out"
in_folder other.out absolute-cfi "in the working folder, by its absolute path: callgrind_annotate run here strips this folder from fl= names but not from cfi= ones, and loses the calls into its functions [absolute-cfi]"
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
# "read by KCachegrind only": its loader keeps the jump, into another
# function (jfn=) and within one (it drops a jump to the next line)
shape kjfn 'events: Ir\nfl=a.c\nfn=main\n1 5\njfn=g\njump=3 20\n2\nfn=g\n20 4\n'
shape kjump 'events: Ir\nfl=a.c\nfn=main\n1 5\njump=3 4\n2\n4 7\n'
timeout 20 "$kcgdump" "$tmp/kjfn" 2>/dev/null | grep -q '^  line a.c:2 .*| jump->20 exec 3 ' ||
    fail "jump-target: KCachegrind does not read the jump into g: $(timeout 20 "$kcgdump" "$tmp/kjfn" 2>&1)"
timeout 20 "$kcgdump" "$tmp/kjump" 2>/dev/null | grep -q '^  line a.c:2 .*| jump->4 exec 3 ' ||
    fail "nonportable-line: KCachegrind does not read the jump: $(timeout 20 "$kcgdump" "$tmp/kjump" 2>&1)"
echo "jump-target, nonportable-line: KCachegrind reads the jumps (jump->20, jump->4, 3 times)"
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

# big-position: KCachegrind keeps 32 bits of a line (4294967297 is line
# 1), and adds steps in 32 bits: +2^31 from address 0x300000000 lands at
# 0x280000000
shape bigline 'events: Ir\nfl=a.c\nfn=main\n4294967297 5\n'
says bigline big-position "KCachegrind reads line numbers as 32 bits"
"$kcgdump" "$tmp/bigline" 2>/dev/null | grep -q '^  line a.c:1 5 ' ||
    fail "big-position: KCachegrind reads line 4294967297 right: $("$kcgdump" "$tmp/bigline" 2>&1)"
shape bigstep 'positions: instr\nevents: Ir\nfl=a.c\nfn=main\n0x300000000 5\n+2147483648 7\n'
says bigstep big-position "KCachegrind adds steps in 32 bits and misplaces an address's costs"
"$kcgdump" "$tmp/bigstep" 2>/dev/null | grep -q '^  instr 0x380000000 ' &&
    fail "big-position: KCachegrind places the step of 2^31 right"
"$kcgdump" "$tmp/bigstep" 2>/dev/null | grep -q '^  instr 0x280000000 line 0 7 ' ||
    fail "big-position: KCachegrind: $("$kcgdump" "$tmp/bigstep" 2>&1)"
echo "big-position: KCachegrind reads line 2^32+1 as 1, +2^31 from 0x300000000 as 0x280000000"

# hex-prefix: KCachegrind and callgrind_annotate read 0 for a 0X cost
# and drop the line of a 0X position (main 3, not 13 or 8)
shape hexpfx 'events: Ir\nfl=a.c\nfn=main\n1 0Xa\n2 3\n'
says hexpfx hex-prefix "a cost with a 0X prefix (KCachegrind and callgrind_annotate read 0)"
shape posx 'positions: instr\nevents: Ir\nfl=a.c\nfn=main\n0X10 5\n0x20 3\n'
says posx hex-prefix "position with a 0X prefix (KCachegrind and callgrind_annotate read 0)"
for f in hexpfx posx; do
    got=$(kcg $f | grep '^F')
    [ "$got" = "F ??? a.c main 3" ] || fail "hex-prefix: KCachegrind reads $got in $f"
done
# hex-cost: callgrind_annotate reads 0xa as 0 (main 3, not 13)
shape hexcost 'events: Ir\nfl=a.c\nfn=main\n1 0xa\n2 3\n'
says hexcost hex-cost "callgrind_annotate and Qt Creator read it as 0"
# calls-zero: callgrind_annotate counts the call's 7 in main's self (12)
shape calls0 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncalls=0 2\n1 7\nfn=g\n2 7\n'
says calls0 calls-zero "callgrind_annotate turns the call into self cost"
# callee-without-block: callgrind_annotate shows g, which has no block,
# with the call's 7; speedscope draws main with 12 of the file's 5
shape noblock 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncalls=1 2\n1 7\n'
says noblock callee-without-block "speedscope and callgrind_annotate show a phantom"
# several-parts: callgrind_annotate adds the parts (main 12), speedscope
# rejects the file
shape parts 'events: Ir\nfl=a.c\nfn=main\n1 5\n\npart: 2\nevents: Ir\nfl=a.c\nfn=main\n1 7\n'
says parts several-parts "speedscope rejects several parts and callgrind_annotate merges them"
# summary-low: callgrind_annotate shows 125%
shape slow 'events: Ir\nsummary: 4\nfl=a.c\nfn=main\n1 5\n'
says slow summary-low "callgrind_annotate shows more than 100%"
# carriage-return: callgrind_annotate keeps \r in names, speedscope rejects
printf '# callgrind format\r\nevents: Ir\r\nfl=a.c\r\nfn=main\r\n1 5\r\n' >"$tmp/cr"
says cr carriage-return "line ends in CR LF; speedscope rejects"
says cr carriage-return "and callgrind_annotate keeps it in names"
if command -v "$annotate" >/dev/null 2>&1; then
    for f in hexpfx posx hexcost; do
        "$annotate" --inclusive=no "$tmp/$f" 2>&1 | grep -q '^3 (100.0%)  a.c:main$' ||
            fail "hex-prefix, hex-cost: callgrind_annotate reads more than 0 in $f"
    done
    "$annotate" --inclusive=no "$tmp/calls0" | grep -q '^12 (.*)  a.c:main$' ||
        fail "calls-zero: callgrind_annotate keeps the call out of main's self"
    "$annotate" --inclusive=yes --tree=calling "$tmp/noblock" | grep -q '^ *7 (.*)  \*  a.c:g$' ||
        fail "callee-without-block: callgrind_annotate shows no g"
    "$annotate" --inclusive=no "$tmp/parts" 2>/dev/null | grep -q '^12 (100.0%)  a.c:main$' ||
        fail "several-parts: callgrind_annotate does not add the parts"
    "$annotate" --inclusive=no "$tmp/slow" | grep -q '^5 (125.0%)  a.c:main$' ||
        fail "summary-low: callgrind_annotate: $("$annotate" --inclusive=no "$tmp/slow")"
    "$annotate" --inclusive=no "$tmp/cr" | grep -q "$(printf 'a.c\r:main\r')" ||
        fail "carriage-return: callgrind_annotate strips \\r"
    echo "hex-prefix, hex-cost: callgrind_annotate reads 0; calls-zero: main's self 12; callee-without-block: g shown; several-parts: added; summary-low: 125%; CR kept"
fi

# no-format-line: without it, KCachegrind and speedscope look for an
# events: line (KCachegrind in the first 2047 bytes), and read the file
shape fmt0 'events: Ir\nfl=a.c\nfn=main\n1 5\n'
sed 1d "$tmp/fmt0" >"$tmp/fmt1"
says fmt1 no-format-line "KCachegrind and speedscope then look for events: near the start"
awk 'BEGIN { printf "# x"; for (i = 0; i < 2100; i++) printf "x"; print "" }' >"$tmp/fmt2"
cat "$tmp/fmt1" >>"$tmp/fmt2"
"$kcgdump" "$tmp/fmt1" 2>/dev/null | grep -qx 'loaded_parts 1' || fail "no-format-line: KCachegrind does not read it"
"$kcgdump" "$tmp/fmt2" 2>/dev/null | grep -qx 'loaded_parts 1' && fail "no-format-line: KCachegrind reads events: after 2047 bytes"
echo "no-format-line: KCachegrind reads events: in the first 2047 bytes only"

# speedscope: call-without-cfn (the second call's callee "(unknown)"),
# callee-without-block (main 12 of 5), several-parts, id-defined-twice,
# blank, carriage-return (it throws), few-costs (NaN), line-in-call (no
# edge), big-value (2^53 + 1 read as 2^53)
shape cwc 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncalls=1 2\n1 7\ncalls=1 3\n2 9\nfn=g\n2 16\n'
says cwc call-without-cfn "calls= reuses the callee of the previous call (speedscope and Qt Creator lose it)"
shape twiceid 'events: Ir\nfl=(1) a.c\nfn=(1) main\n1 5\nfn=(1) main\n2 5\n'
says twiceid id-defined-twice "speedscope rejects this"
shape blank 'events: Ir\nfl=a.c\nfn=main\n1 5 \n'
says blank blank "trailing blank on a cost line (speedscope rejects the file)"
shape few 'events: Ir Dr\nfl=a.c\nfn=main\n1 5\n'
says few few-costs "speedscope reads the missing ones as NaN"
shape lic 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncalls=1 2\n\n1 7\nfn=g\n2 7\n'
says lic line-in-call "gprof2dot and speedscope lose the call"
shape big 'events: Ir\nfl=a.c\nfn=main\n1 9007199254740993\n'
says big big-value "gprof2dot and speedscope lose precision"
if command -v node >/dev/null 2>&1; then
    ss() { node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/$1" 1000 parse 2>&1 | tr -d '\n '; }
    ss cwc | grep -qF '"a.c:main->a.c:(unknown)":9' || fail "call-without-cfn: speedscope: $(ss cwc)"
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/noblock" 10 | grep -q '"totalWeight": 12,' ||
        fail "callee-without-block: speedscope draws no 12 of 5"
    for f in parts twiceid blank cr; do
        ss $f | grep -q '"error"' || fail "$f: speedscope reads it: $(ss $f)"
    done
    ss few | grep -qF '"event":"Dr","selfSum":null,"nan":true' || fail "few-costs: speedscope: $(ss few)"
    ss lic | grep -qF '"edges":{}' || fail "line-in-call: speedscope keeps the call: $(ss lic)"
    ss big | grep -qF '"selfSum":9007199254740992,' || fail "big-value: speedscope: $(ss big)"
    ss fmt1 | grep -qF '"detected":true' || fail "no-format-line: speedscope does not detect it"
    echo "speedscope: loses the reused callee, rejects parts, a defined-twice ID, a blank, CR; NaN; no call; 2^53"
fi
# gprof2dot: invalid-utf8 (it throws), line-in-call (no call), big-value
shape utf 'events: Ir\nfl=a.c\nfn=ma\377in\n1 5\n'
says utf invalid-utf8 "gprof2dot rejects it"
if command -v python3 >/dev/null 2>&1; then
    g2d() { python3 "$oracles/gprof2dot/dump.py" "$tmp/$1" 2>&1 | tr -d '\n '; }
    g2d utf | grep -q '"exception":"UnicodeDecodeError' || fail "invalid-utf8: gprof2dot: $(g2d utf)"
    g2d lic | grep -qF '{"name":"main","self":12.0,"calls":[]}' || fail "line-in-call: gprof2dot: $(g2d lic)"
    g2d big | grep -qF '"self":9007199254740992.0,' || fail "big-value: gprof2dot: $(g2d big)"
    echo "gprof2dot: throws on bad UTF-8, loses the call after a blank line, reads 2^53"
fi

# inline-before-function: fi= before fn= (main of a.c for KCachegrind,
# speedscope and gprof2dot; callgrind_annotate aborts)
shape ibf 'events: Ir\nfl=a.c\nfi=b.h\nfn=main\n1 5\nfe=a.c\n2 3\n'
says ibf inline-before-function "the function's file is the fl= one, a.c, as KCachegrind reads it (callgrind_annotate aborts, gprof2dot and speedscope ignore fi=)"
got=$(kcg ibf | grep '^F')
[ "$got" = "F ??? a.c main 8" ] || fail "inline-before-function: KCachegrind reads $got"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no "$tmp/ibf" >"$tmp/ibf.a" 2>&1 && fail "inline-before-function: callgrind_annotate reads it"
    grep -q 'Unexpected fi/fe line' "$tmp/ibf.a" || fail "inline-before-function: callgrind_annotate: $(cat "$tmp/ibf.a")"
fi
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/ibf" | tr -d ' \n' |
        grep -qF '"functions":[{"name":"main","self":8.0,' || fail "inline-before-function: gprof2dot"
fi
if command -v node >/dev/null 2>&1; then
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/ibf" 10 | grep -qF '"main [a.c] self=8 total=8"' ||
        fail "inline-before-function: speedscope does not read main of a.c"
fi
echo "inline-before-function: main of a.c, 8 (KCachegrind, gprof2dot, speedscope); callgrind_annotate aborts"

# name-clash: gprof2dot merges main of a.c and of b.c (12)
shape clash 'events: Ir\nfl=a.c\nfn=main\n1 5\nfl=b.c\nfn=main\n2 7\n'
says clash name-clash "function main also exists in another file or object (line 4); gprof2dot merges them"
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/clash" | tr -d ' \n' |
        grep -qF '"functions":[{"name":"main","self":12.0,"calls":[]}]' || fail "name-clash: gprof2dot keeps two"
    echo "name-clash: gprof2dot reads one main of 12"
fi

# ob-in-function: KCachegrind drops main and gives its 5 to a function
# with no name in x.so
shape obfn 'events: Ir\nfl=a.c\nfn=main\nob=x.so\n1 5\nfn=g\n2 7\n'
says obfn ob-in-function "KCachegrind drops the function there, and gives its costs to one with no name"
kcg_reads obfn 'F ??? a.c main 0;F x.so a.c ??? 5;F x.so a.c g 7;T 12;' "ob-in-function"
echo "ob-in-function: KCachegrind reads $got"

# definition-only: KCachegrind makes g a function of a.c, the last fl=,
# and puts there the block fn=(1) of c.c (7); a block that names g by
# its name stays in its own file
shape defo 'events: Ir\nfl=(1) a.c\nfn=(1) g\nfl=(2) b.c\nfn=(2) main\n1 5\nfl=(3) c.c\nfn=(1)\n2 7\n'
says defo definition-only "fn= g has no block: a name defined alone, no function (KCachegrind makes a function of it, in the file of the last fl=, and puts there the later blocks that name it by its ID)"
kcg_reads defo 'F ??? a.c g 7;F ??? b.c main 5;T 12;' "definition-only"
shape defoname 'events: Ir\nfl=a.c\nfn=g\nfl=b.c\nfn=main\n1 5\nfl=c.c\nfn=g\n2 7\n'
says defoname definition-only "KCachegrind makes a function of it, in the file of the last fl="
kcg_reads defoname 'F ??? a.c g 0;F ??? b.c main 5;F ??? c.c g 7;T 12;' "definition-only by name"
echo "definition-only: KCachegrind makes g of a.c, with fn=(1)'s 7 of c.c; fn=g of c.c stays there"

# callee-spec-after-cfn: cfi=b.c after cfn=g: KCachegrind and
# callgrind_annotate take main's call to be to g of a.c, not of b.c
shape csac 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\ncfi=b.c\ncalls=1 2\n1 7\nfl=b.c\nfn=g\n2 7\n'
says csac callee-spec-after-cfn "cob=/cfi= after cfn= is ignored: KCachegrind and callgrind_annotate bind the callee at cfn="
kcg csac | grep -qx 'C ??? a.c main -> ??? a.c g 1 7' || fail "callee-spec-after-cfn: KCachegrind: $(kcg csac)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=yes --tree=calling "$tmp/csac" | grep -A1 ' a.c:main$' | grep -q '>   a.c:g (1x)$' ||
        fail "callee-spec-after-cfn: callgrind_annotate: $("$annotate" --inclusive=yes --tree=calling "$tmp/csac")"
fi
echo "callee-spec-after-cfn: main calls g of a.c (KCachegrind, callgrind_annotate)"

# cfn-without-call: KCachegrind makes functions of cfn=g and cfn=k, and
# of h, whose block has only a cfn= line, all with no cost
shape cwoc 'events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=g\nfn=h\ncfn=k\nfn=z\n2 3\n'
says cwoc cfn-without-call "cfn=g has no calls= after it: no call and no function (KCachegrind makes a function of it, and of an fn= whose block has only cfn= lines, with no cost)"
kcg_reads cwoc 'F ??? a.c g 0;F ??? a.c h 0;F ??? a.c k 0;F ??? a.c main 5;F ??? a.c z 3;T 8;' "cfn-without-call"
echo "cfn-without-call: KCachegrind reads $got"

# unclosed-inline: callgrind_annotate reads g (7) as a function of b.h
shape uncl 'events: Ir\nfl=a.c\nfn=main\n1 5\nfi=b.h\n2 3\nfn=g\n3 7\n'
says uncl unclosed-inline "function main ends inside the inlined file b.h; close it with fe= (callgrind_annotate keeps it for the next function)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no "$tmp/uncl" | grep -q '^7 (.*)  b.h:g$' ||
        fail "unclosed-inline: callgrind_annotate: $("$annotate" --inclusive=no "$tmp/uncl")"
    echo "unclosed-inline: callgrind_annotate reads g in b.h"
fi

# gzip-input: KCachegrind's loader, callgrind_annotate and gprof2dot
# read nothing of a gzip-compressed profile
printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 5\n' | gzip >"$tmp/gz"
says gz gzip-input "the input is gzip-compressed: QCachegrind, callgrind_annotate, gprof2dot and webgrind's call graph cannot read it"
"$kcgdump" "$tmp/gz" 2>/dev/null | grep -qx 'loaded_parts 0' || fail "gzip-input: KCachegrind loads a part"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no "$tmp/gz" 2>&1 | grep -q 'main' && fail "gzip-input: callgrind_annotate reads main"
fi
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/gz" >"$tmp/gz.g" 2>&1 && fail "gzip-input: gprof2dot reads it"
    grep -q '"exception": "UnicodeDecodeError' "$tmp/gz.g" || fail "gzip-input: gprof2dot: $(cat "$tmp/gz.g")"
fi
echo "gzip-input: KCachegrind loads no part, callgrind_annotate no function, gprof2dot throws"

# nonportable-header (event:): callgrind_annotate warns and ignores the
# event: lines, and reads main's 5
shape evline 'events: Ir\nevent: Ir : Instruction Fetch\nfl=a.c\nfn=main\n1 5\n'
says evline nonportable-header "event: lines end Qt Creator's header; callgrind_annotate ignores them"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no "$tmp/evline" >"$tmp/evline.a" 2>&1 || fail "nonportable-header: callgrind_annotate dies"
    grep -q "WARNING: line 3 malformed, ignoring" "$tmp/evline.a" && grep -q '^5 (100.0%)  a.c:main$' "$tmp/evline.a" ||
        fail "nonportable-header: callgrind_annotate: $(cat "$tmp/evline.a")"
    echo "nonportable-header: callgrind_annotate ignores event: (main 5)"
fi

# positions-after-events: KCachegrind starts a new part with no events
# ("data found before 'events' line. Skipping file"); callgrind_annotate
# ignores the line, so that it dies on cost lines of two positions
shape pahead 'events: Ir\npositions: instr line\nfl=a.c\nfn=main\n0x10 1 5\n'
says pahead positions-after-events "positions: after events: in part 1 (KCachegrind starts a new part, with no events, and rejects the file; callgrind_annotate ignores the line)"
shape pabody 'events: Ir\nfl=a.c\nfn=main\n1 5\npositions: instr line\nfn=g\n0x10 2 7\n'
says pabody positions-after-events "positions: after the body of part 1 began (KCachegrind starts a new part here, with no events, and rejects the file; callgrind_annotate ignores the line)"
for f in pahead pabody; do
    timeout 20 "$kcgdump" "$tmp/$f" >/dev/null 2>"$tmp/$f.k"
    grep -q "data found before 'events' line. Skipping file" "$tmp/$f.k" ||
        fail "positions-after-events: KCachegrind on $f: $(cat "$tmp/$f.k")"
    if command -v "$annotate" >/dev/null 2>&1; then
        "$annotate" --inclusive=no "$tmp/$f" >"$tmp/$f.a" 2>&1 && fail "positions-after-events: callgrind_annotate reads $f"
        grep -q 'malformed, ignoring' "$tmp/$f.a" && grep -q 'too many event counts' "$tmp/$f.a" ||
            fail "positions-after-events: callgrind_annotate on $f: $(cat "$tmp/$f.a")"
    fi
done
echo "positions-after-events: KCachegrind skips the file; callgrind_annotate ignores positions: and dies on 0x10 1 5"

# no-position-column: callgrind_annotate reads "5 7" of Ir Dr as line 5,
# Ir 7 and no Dr
shape npc 'positions:\nevents: Ir Dr\nfl=a.c\nfn=main\n5 7\n'
says npc no-position-column "positions: names no position, so cost lines have no position column (callgrind_annotate reads the first cost as the line)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no --auto=no "$tmp/npc" | grep -q '^7 (100.0%) \. *a.c:main$' ||
        fail "no-position-column: callgrind_annotate: $("$annotate" --inclusive=no --auto=no "$tmp/npc")"
    echo "no-position-column: callgrind_annotate reads Ir 7, no Dr"
fi

# bb-positions: of 12, KCachegrind reads 16 (bb alone) and 7 (instr
# bb); with instr bb callgrind_annotate dies and speedscope reads the bb
# column as Ir (7)
shape bbonly 'positions: bb\nevents: Ir\nfl=a.c\nfn=main\n0x10 5\n+4 7\n'
says bbonly bb-positions "bb positions (KCachegrind misplaces the costs; with another position, callgrind_annotate dies and speedscope reads the second as the first event)"
shape instrbb 'positions: instr bb\nevents: Ir\nfl=a.c\nfn=main\n0x10 3 5\n+4 4 7\n'
says instrbb bb-positions "bb positions (KCachegrind misplaces the costs"
[ "$(kcg bbonly | grep '^T')" = "T 16" ] && [ "$(kcg instrbb | grep '^T')" = "T 7" ] ||
    fail "bb-positions: KCachegrind reads $(kcg bbonly | grep '^T'), $(kcg instrbb | grep '^T')"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no --auto=no "$tmp/instrbb" >"$tmp/instrbb.a" 2>&1 && fail "bb-positions: callgrind_annotate reads instr bb"
    grep -q 'too many event counts' "$tmp/instrbb.a" || fail "bb-positions: callgrind_annotate: $(cat "$tmp/instrbb.a")"
fi
# positions-not-line: speedscope reads the line column as Ir (3 + 4)
shape instrline 'positions: instr line\nevents: Ir\nfl=a.c\nfn=main\n0x10 3 5\n+4 4 7\n'
says instrline positions-not-line "positions other than line (speedscope reads the second column as the first event)"
if command -v node >/dev/null 2>&1; then
    for f in instrbb instrline; do
        node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/$f" 1000 parse | tr -d '\n ' |
            grep -qF '"self":{"a.c:main":7}' || fail "bb-positions, positions-not-line: speedscope on $f"
    done
fi
echo "bb-positions: KCachegrind reads 16 and 7 of 12; callgrind_annotate dies on instr bb; positions-not-line: speedscope reads 7 of 12"

# main_reads NAME N WHAT: callgrind_annotate and gprof2dot read main of
# a.c, the whole program, as N in NAME (each where it is installed)
main_reads() {
    if command -v "$annotate" >/dev/null 2>&1; then
        "$annotate" --inclusive=no --auto=no "$tmp/$1" | grep -q "^$2 (100.0%)  a.c:main\$" ||
            fail "$3: callgrind_annotate"
    fi
    if command -v python3 >/dev/null 2>&1; then
        python3 "$oracles/gprof2dot/dump.py" "$tmp/$1" | tr -d ' \n' | grep -qF "\"total\":$2.0," ||
            fail "$3: gprof2dot"
    fi
}

# instr-positions: every reader reads 12 of positions: instr
shape ionly 'positions: instr\nevents: Ir\nfl=a.c\nfn=main\n0x10 5\n+4 7\n'
says ionly instr-positions "positions: instr without line (every reader takes one column"
[ "$(kcg ionly | tr '\n' ';')" = "F ??? a.c main 12;T 12;" ] || fail "instr-positions: KCachegrind: $(kcg ionly)"
main_reads ionly 12 instr-positions
if command -v node >/dev/null 2>&1; then
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/ionly" 10 | grep -qF '"main [a.c] self=12 total=12"' ||
        fail "instr-positions: speedscope"
fi
echo "instr-positions: every reader here reads 12"

# positions-order: positions: line instr: callgrind_annotate dies,
# KCachegrind reads 3 0x10 as address 0x3, line 16
shape lineinstr 'positions: line instr\nevents: Ir\nfl=a.c\nfn=main\n3 0x10 5\n'
says lineinstr positions-order "positions: not in the order instr, bb, line (callgrind_annotate dies, KCachegrind reads the address first whatever the order)"
"$kcgdump" "$tmp/lineinstr" 2>/dev/null | grep -q '^  instr 0x3 line 16 5 ' ||
    fail "positions-order: KCachegrind: $("$kcgdump" "$tmp/lineinstr" 2>&1)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no --auto=no "$tmp/lineinstr" >/dev/null 2>&1 && fail "positions-order: callgrind_annotate reads it"
fi
echo "positions-order: KCachegrind reads address 0x3 line 16; callgrind_annotate dies"

# header-order: creator: before version: stops gprof2dot at version:
# ("unexpected line"), with no function read
shape horder 'creator: me\nversion: 1\nevents: Ir\nfl=a.c\nfn=main\n1 5\n'
says horder header-order "version: is header line 2; gprof2dot stops there (it takes version: only first and creator: only second)"
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/horder" | tr -d '\n ' |
        grep -qF '"functions":[],"stderr":["warning:line3:unexpectedline","version:1"]' ||
        fail "header-order: gprof2dot: $(python3 "$oracles/gprof2dot/dump.py" "$tmp/horder")"
    echo "header-order: gprof2dot stops at version: on line 2, no function"
fi

# key-without-space: callgrind_annotate ignores events:Ir and dies with
# no events; header-in-body: it warns at desc: in the body and reads on
shape nospace 'events:Ir\nfl=a.c\nfn=main\n1 5\n'
says nospace key-without-space "no space after \"events:\" (callgrind_annotate and Qt Creator need \": \")"
shape hinbody 'events: Ir\nfl=a.c\nfn=main\n1 5\ndesc: x\nfn=g\n2 7\n'
says hinbody header-in-body "header line \"desc:\" inside the body (callgrind_annotate warns)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no --auto=no "$tmp/nospace" >"$tmp/nospace.a" 2>&1 && fail "key-without-space: callgrind_annotate reads it"
    grep -q "line: 'events:Ir'" "$tmp/nospace.a" && grep -q 'missing events line' "$tmp/nospace.a" ||
        fail "key-without-space: callgrind_annotate: $(cat "$tmp/nospace.a")"
    "$annotate" --inclusive=no --auto=no "$tmp/hinbody" >"$tmp/hinbody.a" 2>&1 || fail "header-in-body: callgrind_annotate dies"
    grep -q 'WARNING: line 6 malformed, ignoring' "$tmp/hinbody.a" && grep -q '^7 (.*)  a.c:g$' "$tmp/hinbody.a" ||
        fail "header-in-body: callgrind_annotate: $(cat "$tmp/hinbody.a")"
    echo "key-without-space: callgrind_annotate finds no events; header-in-body: it warns and reads g's 7"
fi

# name-blank, trailing-blank: blanks after a name with an ID, and white
# space after a name, are kept by every reader ("main  ", "g ", "g\f");
# white space before it (" main", "\vg") is stripped by speedscope and
# gprof2dot only; id-name-blank: every reader strips "(3)  h" to h
shape nbid 'events: Ir\nfl=a.c\nfn=(1) main  \n1 5\ncfn=(2) g \ncalls=1 2\n1 7\nfn=(2)\n2 7\n'
says nbid name-blank "blanks after the name of function ID (1); every reader keeps them"
says nbid trailing-blank "trailing blank (every reader takes it here"
shape nbaround 'events: Ir\nfl=a.c\nfn= main \n1 5\nfn=\vg\f\n2 7\nfn=(3)  h\n3 1\n'
says nbaround name-blank "white space around the function name; speedscope and gprof2dot strip it before the name, every reader keeps it after"
says nbaround id-name-blank "more than one blank between function ID (3) and its name (every reader strips them)"
[ "$(kcg nbid | sort | tr '\n' ';')" = 'C ??? a.c main   -> ??? a.c g  1 7;F ??? a.c g  7;F ??? a.c main   5;T 12;' ] ||
    fail "name-blank: KCachegrind reads $(kcg nbid)"
[ "$(kcg nbaround | grep '^F' | sort | tr '\n' ';')" = "$(printf 'F ??? a.c \vg\f 7;F ??? a.c  main  5;F ??? a.c h 1;')" ] ||
    fail "name-blank, id-name-blank: KCachegrind reads $(kcg nbaround)"
if command -v "$annotate" >/dev/null 2>&1; then
    "$annotate" --inclusive=no --auto=no "$tmp/nbid" >"$tmp/nbid.a"
    grep -q '^7 (.*)  a.c:g $' "$tmp/nbid.a" && grep -q '^5 (.*)  a.c:main  $' "$tmp/nbid.a" ||
        fail "name-blank: callgrind_annotate: $(cat "$tmp/nbid.a")"
    "$annotate" --inclusive=no --auto=no "$tmp/nbaround" >"$tmp/nbaround.a"
    grep -q "$(printf '^7 (.*)  a.c:\vg\f$')" "$tmp/nbaround.a" && grep -q '^5 (.*)  a.c: main $' "$tmp/nbaround.a" &&
        grep -q '^1 (.*)  a.c:h$' "$tmp/nbaround.a" || fail "name-blank: callgrind_annotate: $(cat "$tmp/nbaround.a")"
fi
if command -v python3 >/dev/null 2>&1; then
    python3 "$oracles/gprof2dot/dump.py" "$tmp/nbid" | tr -d '\n' | grep -qF '"name": "main  ",' ||
        fail "name-blank: gprof2dot strips main's blanks"
    python3 "$oracles/gprof2dot/dump.py" "$tmp/nbaround" | tr -d '\n' >"$tmp/nbaround.g"
    grep -qF '"name": "g\f",' "$tmp/nbaround.g" && grep -qF '"name": "main ",' "$tmp/nbaround.g" &&
        grep -qF '"name": "h",' "$tmp/nbaround.g" || fail "name-blank: gprof2dot: $(cat "$tmp/nbaround.g")"
fi
if command -v node >/dev/null 2>&1; then
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/nbid" 1000 parse | tr -d '\n' |
        grep -qF '"a.c:main  ": 5,    "a.c:g ": 7' || fail "name-blank: speedscope strips the blanks"
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/nbaround" 1000 parse | tr -d '\n' |
        grep -qF '"a.c:main ": 5,    "a.c:g\f": 7,    "a.c:h": 1' || fail "name-blank: speedscope: around"
fi
echo "name-blank: every reader keeps blanks after a name; speedscope and gprof2dot strip those before; id-name-blank: h"

# appended-profile: KCachegrind reads Xdebug 2's second profile as part
# 2 after "Invalid line '==== NEW PROFILING FILE ...'"
printf 'version: 1\ncreator: xdebug 2.9\ncmd: a.php\npart: 1\npositions: line\n\nevents: Time\n\nfl=a.php\nfn=main\n1 5\n\nsummary: 5\n\n==== NEW PROFILING FILE ====\nversion: 1\ncreator: xdebug 2.9\ncmd: b.php\npart: 1\npositions: line\n\nevents: Time\n\nfl=b.php\nfn=other\n1 7\n\nsummary: 7\n' >"$tmp/xdebug"
says xdebug appended-profile "it is read as the next part (KCachegrind reads it so, after an \"Invalid line\")"
"$kcgdump" "$tmp/xdebug" >"$tmp/xdebug.k" 2>&1
grep -q "Invalid line '==== NEW PROFILING FILE" "$tmp/xdebug.k" && grep -qx 'loaded_parts 2' "$tmp/xdebug.k" &&
    grep -q '^part number=1 thread=0 totals 7$' "$tmp/xdebug.k" || fail "appended-profile: KCachegrind: $(cat "$tmp/xdebug.k")"
echo "appended-profile: KCachegrind reads two parts, 5 and 7, after an Invalid line"

# summary-zero: every reader takes 5, the sum, for summary: 0
shape szero 'events: Ir\nsummary: 0\nfl=a.c\nfn=main\n1 5\n'
says szero summary-zero "summary: 0, the cost lines sum to more (every reader takes the sum)"
[ "$(kcg szero | grep '^T')" = "T 5" ] || fail "summary-zero: KCachegrind: $(kcg szero)"
main_reads szero 5 summary-zero
if command -v node >/dev/null 2>&1; then
    node "$oracles/speedscope/speedscope-callgrind.js" "$tmp/szero" 10 | grep -qF '"totalWeight": 5,' || fail "summary-zero: speedscope"
fi
echo "summary-zero: every reader here reads 5"

# missing-events: part 2 with no events: line: KCachegrind finds data
# "before 'events' line" there, and crashes
shape noev 'events: Ir\nfl=a.c\nfn=main\n1 5\n\npart: 2\nfl=a.c\nfn=g\n2 7\n'
says noev missing-events "part 2 has no events: line of its own (KCachegrind forgets the events at a new part and crashes on its costs)"
timeout 20 "$kcgdump" "$tmp/noev" >/dev/null 2>"$tmp/noev.k"; rc=$?
grep -q "line 10 : \"Invalid format: data found before 'events' line" "$tmp/noev.k" && [ $rc -gt 128 ] && [ $rc -ne 124 ] ||
    fail "missing-events: KCachegrind exits $rc: $(cat "$tmp/noev.k")"
echo "missing-events: KCachegrind finds no events at part 2's costs and crashes (exit $rc)"
