#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgverify: the tool's exit codes, output forms and options.
. "${CGW_SRCDIR:-.}/tests/tools.sh"

printf '# callgrind format\nversion: 1\ncreator: t\npositions: line\nevents: Ir\nsummary: 3\n\nfl=(1) a.c\nfn=(1) main\n1 3\n\ntotals: 3\n' >"$tmp/good"
printf 'events: Ir\nfn=(1) a\nfn=(2)\n1 1\n' >"$tmp/bad"
# warnings: notes for no reader (no-format-line, no-positions) and a
# finding for speedscope (blank: a cost line's trailing blank)
printf 'events: Ir\nfn=a\n1 1 \n' >"$tmp/warn"
printf 'events: Ir\nfn=a\n1 1\n' >"$tmp/note"

"$CGVERIFY" "$tmp/good" >"$tmp/out" || fail "a valid file: exit $?"
grep -q 'good: valid: 1 part, 1 cost line, 0 calls, 1 function, 0 errors, 0 warnings; totals Ir=3' "$tmp/out" ||
    fail "summary line: $(cat "$tmp/out")"
"$CGVERIFY" --strict --roundtrip "$tmp/good" >/dev/null || fail "--strict --roundtrip on a valid file"

"$CGVERIFY" "$tmp/bad" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] || fail "an invalid file: exit $rc"
grep -q "bad:3: error: function ID (2) is used before any .* \[undefined-id\]" "$tmp/out" ||
    fail "error line: $(cat "$tmp/out")"

"$CGVERIFY" "$tmp/warn" >/dev/null || fail "warnings alone are valid"
"$CGVERIFY" --strict --all "$tmp/warn" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] || fail "--strict with a finding: exit $rc"
grep -q 'warn:3: error: .*\[blank\]' "$tmp/out" || fail "--strict prints errors: $(cat "$tmp/out")"
grep -q 'warn:1: warning: .*\[no-format-line\]' "$tmp/out" || fail "--strict: a note: $(cat "$tmp/out")"
grep -q 'warn: speedscope: shows other numbers than the file says: blank$' "$tmp/out" ||
    fail "--strict: speedscope's verdict: $(cat "$tmp/out")"
grep -q 'warn: kcachegrind: opens right$' "$tmp/out" || fail "--strict: kcachegrind's: $(cat "$tmp/out")"
"$CGVERIFY" --strict "$tmp/note" >/dev/null || fail "--strict with notes only: exit $?"
# --for: the readers named only; -q prints nothing
"$CGVERIFY" --for=kcachegrind,gprof2dot "$tmp/warn" >"$tmp/out" || fail "--for without speedscope: exit $?"
[ "$(grep -c ': opens right$' "$tmp/out")" = 2 ] || fail "--for's lines: $(cat "$tmp/out")"
grep -q ': speedscope: \|: callgrind_annotate: ' "$tmp/out" && fail "--for names a reader not asked for"
"$CGVERIFY" -q --for=speedscope "$tmp/warn" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] || fail "--for=speedscope with its finding: exit $rc"
[ -s "$tmp/out" ] && fail "-q --for printed: $(cat "$tmp/out")"
usage_error cgverify "$CGVERIFY" --for=qcachegrind "$tmp/warn"
# a reader's whole name, not a prefix of it
usage_error cgverify "$CGVERIFY" --for=kcache "$tmp/warn"
usage_error cgverify "$CGVERIFY" --for=gprof2dot,speed "$tmp/warn"
"$CGVERIFY" -q "$tmp/warn" >"$tmp/out" || fail "-q exit"
[ -s "$tmp/out" ] && fail "-q printed: $(cat "$tmp/out")"

"$CGVERIFY" - <"$tmp/good" >/dev/null || fail "stdin"

# gzip: read (with a warning that --strict counts), or one clear error
gzip -c "$tmp/good" >"$tmp/good.gz"
head -c 30 "$tmp/good.gz" >"$tmp/cut.gz"
cp "$tmp/good" "$tmp/text-named.gz" # told by its bytes, not its name
"$CGVERIFY" --strict "$tmp/text-named.gz" >"$tmp/out" || fail "text named .gz: exit $?"
grep -q 'text-named.gz: valid: .* 0 errors, 0 warnings' "$tmp/out" || fail "text named .gz: $(cat "$tmp/out")"
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    "$CGVERIFY" --all "$tmp/good.gz" >"$tmp/out" || fail "gzip: exit $?"
    grep -q "good.gz: warning: the input is gzip-compressed: QCachegrind, callgrind_annotate, gprof2dot and webgrind's call graph cannot read it .*\[gzip-input\]" "$tmp/out" ||
        fail "gzip warning: $(cat "$tmp/out")"
    grep -q 'good.gz: valid: 1 part, 1 cost line, 0 calls, 1 function, 0 errors, 1 warning; totals Ir=3' "$tmp/out" ||
        fail "gzip summary: $(cat "$tmp/out")"
    "$CGVERIFY" --strict "$tmp/good.gz" >"$tmp/out"; rc=$?
    [ $rc -eq 1 ] || fail "--strict on gzip: exit $rc"
    grep -q 'good.gz: error: the input is gzip-compressed.*\[gzip-input\]' "$tmp/out" ||
        fail "--strict on gzip: $(cat "$tmp/out")"
    "$CGVERIFY" --roundtrip - <"$tmp/good.gz" >/dev/null || fail "gzip on stdin"
    "$CGVERIFY" "$tmp/cut.gz" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "truncated gzip: exit $rc"
    grep -q 'cut.gz: gzip input: the compressed stream ends after 30 bytes, inside gzip member 1' "$tmp/err" ||
        fail "truncated gzip: $(cat "$tmp/err")"
else
    "$CGVERIFY" "$tmp/good.gz" >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "gzip without zlib: exit $rc"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] || fail "gzip without zlib: more than one error"
    grep -q 'good.gz: the input is gzip-compressed .*built without zlib' "$tmp/err" ||
        fail "gzip without zlib: $(cat "$tmp/err")"
fi
"$CGVERIFY" --roundtrip - <"$tmp/good" >/dev/null || fail "stdin with --roundtrip"
# --roundtrip reads a FIFO once (a temporary copy for the passes after
# the first): it waited for ever on a second open before; a pipe on stdin
# gives the same verdict as the file
mkfifo "$tmp/rt-fifo" || fail "mkfifo"
cat "$tmp/good" >"$tmp/rt-fifo" &
timeout 60 "$CGVERIFY" --json --roundtrip "$tmp/rt-fifo" >"$tmp/rt-fifo.json" ||
    fail "--roundtrip on a FIFO: exit $?"
wait
"$CGVERIFY" --json --roundtrip "$tmp/good" >"$tmp/rt-file.json" || fail "--roundtrip on the file"
sed 's/"path":"[^"]*"//' "$tmp/rt-fifo.json" >"$tmp/rt-a"
sed 's/"path":"[^"]*"//' "$tmp/rt-file.json" >"$tmp/rt-b"
cmp -s "$tmp/rt-a" "$tmp/rt-b" || fail "--roundtrip: a FIFO and the file differ"
cat "$tmp/good" | "$CGVERIFY" --json --roundtrip - | sed 's/"path":"[^"]*"//' >"$tmp/rt-c"
cmp -s "$tmp/rt-c" "$tmp/rt-b" || fail "--roundtrip: a pipe and the file differ"
"$CGVERIFY" "$tmp/missing" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "a missing file: exit $rc"
"$CGVERIFY" --frobnicate "$tmp/good" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "an unknown option: exit $rc"
"$CGVERIFY" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "no file: exit $rc"
"$CGVERIFY" "$tmp/good" "$tmp/bad" >/dev/null; rc=$?
[ $rc -eq 1 ] || fail "one bad file of two: exit $rc"

# --json: the documented shape, exact 64-bit numbers
printf 'events: Ir\nfn=a\n1 18446744073709551615\ntotals: 18446744073709551615\n' >"$tmp/big"
"$CGVERIFY" --json "$tmp/good" "$tmp/bad" "$tmp/big" >"$tmp/json"; rc=$?
[ $rc -eq 1 ] || fail "--json exit $rc"
want_good='{"path":"'"$tmp"'/good","valid":true,"read_error":null,"errors":0,"warnings":0,"parts":[{"part":1,"events":["Ir"],"totals":[3],"summary":[3],"totals_line":[3],"cost_lines":1,"calls":0,"functions":1}],"diagnostics":[],"readers":{}}'
grep -qF "$want_good" "$tmp/json" || fail "--json good: $(cat "$tmp/json")"
grep -qF '"summary":null,"totals_line":null' "$tmp/json" || fail "--json nulls: $(cat "$tmp/json")"
grep -qF '{"line":3,"severity":"error","fails":true,"code":"undefined-id","message":"function ID (2) is used' "$tmp/json" ||
    fail "--json diagnostic: $(cat "$tmp/json")"
grep -qF '"totals":[18446744073709551615]' "$tmp/json" || fail "--json 64-bit: $(cat "$tmp/json")"
case $(head -c 45 "$tmp/json") in '{"format":3,"strict":false,"for":[],"files":[') ;; *) fail "--json start";; esac

# --json is valid UTF-8 JSON whatever the bytes: a name with invalid
# UTF-8 (each bad byte U+FFFD), a file name with one, an excerpt cut in
# the middle of a character (left out), a file that cannot be read (in
# the output with its error); a warning stays "warning" under --strict,
# with "fails" saying it fails the run
jsoncheck() {
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' <"$1" ||
        fail "$2: not valid UTF-8 JSON: $(cat "$1")"
}
e19=$(printf '\303\251%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19)
bad8=$(printf '\377')
printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\nfl=(1) a\377\376b.c\nfn=(1) m\303\n1 3\nx%s%s 5\n' "$e19" "$e19" >"$tmp/u8-$bad8"
"$CGVERIFY" --json --strict "$tmp/u8-$bad8" "$tmp/warn" "$tmp/missing" >"$tmp/json8" 2>"$tmp/err8"; rc=$?
[ $rc -eq 2 ] || fail "--json with a missing file: exit $rc"
jsoncheck "$tmp/json8" "--json on crafted bytes"
grep -qF '"path":"'"$tmp"'/u8-\ufffd"' "$tmp/json8" || fail "invalid file name: $(cat "$tmp/json8")"
grep -qF 'name \"a\ufffd\ufffdb.c\" is not valid UTF-8' "$tmp/json8" || fail "invalid name: $(cat "$tmp/json8")"
grep -qF 'name \"m\ufffd\" is not valid' "$tmp/json8" || fail "a name's cut character: $(cat "$tmp/json8")"
grep -qF '"message":"unknown line \"x'"$e19"'\""' "$tmp/json8" ||
    fail "an excerpt cut in a character: $(cat "$tmp/json8")"
grep -qF '"severity":"warning","fails":true,"code":"blank"' "$tmp/json8" ||
    fail "--strict warning: $(cat "$tmp/json8")"
grep -qF '"severity":"warning","fails":false,"code":"no-positions"' "$tmp/json8" ||
    fail "--strict note: $(cat "$tmp/json8")"
grep -q '"severity":"error","fails":[a-z]*,"code":"blank"' "$tmp/json8" &&
    fail "--strict made a warning an error"
grep -qF '"readers":{"kcachegrind":{"opens_right":true,"findings":[]},"callgrind_annotate":{"opens_right":true,"findings":[]},"gprof2dot":{"opens_right":true,"findings":[]},"speedscope":{"opens_right":false,"findings":["blank"]}}' "$tmp/json8" ||
    fail "--json readers: $(cat "$tmp/json8")"
grep -qF '{"path":"'"$tmp"'/missing","valid":false,"read_error":"No such file or directory","errors":0,"warnings":0,"parts":[],"diagnostics":[],"readers":{' "$tmp/json8" ||
    fail "missing file: $(cat "$tmp/json8")"
grep -qF "cgverify: $tmp/missing: No such file or directory" "$tmp/err8" || fail "missing file on stderr"
"$CGVERIFY" --json "$tmp/warn" >"$tmp/json9" || fail "--json warnings alone: exit $?"
grep -qF '"severity":"warning","fails":false' "$tmp/json9" || fail "a warning without --strict: $(cat "$tmp/json9")"
jsoncheck "$tmp/json9" "--json warnings"
jsoncheck "$tmp/json" "--json"
# A file that shrinks under its mapping raises SIGBUS: cgverify names the
# file it was reading and exits 2, as for an I/O error.  The signal is sent
# while it waits on a FIFO (read, not mapped), past its start.
mkfifo "$tmp/fifo" || fail "mkfifo"
sleep 5 >"$tmp/fifo" &
writer=$!
"$CGVERIFY" "$tmp/good" "$tmp/fifo" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1
kill -BUS $pid
wait $pid; rc=$?
kill $writer 2>/dev/null
[ $rc -eq 2 ] || fail "SIGBUS: exit $rc"
grep -qF "cgverify: $tmp/fifo: bus error while reading: the file was truncated" "$tmp/err" ||
    fail "SIGBUS message: $(cat "$tmp/err")"

echo "cgverify: exit codes, plain, strict, quiet, stdin, JSON output and SIGBUS as documented"

# getopt_long: options after files, "--", one wording for usage errors in
# all six tools
"$CGVERIFY" "$tmp/warn" --strict >/dev/null; rc=$?
[ $rc -eq 1 ] || fail "--strict after FILE: exit $rc"
"$CGVERIFY" "$tmp/good" -q >"$tmp/out" || fail "-q after FILE: exit $?"
[ -s "$tmp/out" ] && fail "-q after FILE printed $(cat "$tmp/out")"
cp "$tmp/good" "$tmp/--strict"
in_tmp "$CGVERIFY" -q -- --strict good || fail "-- --strict (a file): exit $?"
usage_error cgverify "$CGVERIFY"
usage_error cgverify "$CGVERIFY" --frobnicate "$tmp/good"
usage_error cgverify "$CGVERIFY" "$tmp/good" --json=yes
usage_error cgverify "$CGVERIFY" -qZ "$tmp/good"
grep -q "^cgverify: unknown option '-Z'" "$tmp/usage.err" || fail "-qZ: $(cat "$tmp/usage.err")"
usage_error cgmerge "$CGMERGE" --frobnicate "$tmp/good"
usage_error cgmerge "$CGMERGE" --positions=nope "$tmp/good"
usage_error cgdiff "$CGDIFF" --top=x "$tmp/good" "$tmp/good"
usage_error cgdiff "$CGDIFF" "$tmp/good" "$tmp/good" --top
usage_error cgconvert "$CGCONVERT" --frobnicate
help_fits cgverify "$CGVERIFY"
"$CGVERIFY" --version | grep -q '^cgverify (libcgw) [0-9]' || fail "--version"
# -V is --version in every tool
for t in "$CGVERIFY" "$CGGEN" "$CGRECODE" "$CGMERGE" "$CGDIFF" "$CGCONVERT"; do
    name=${t##*/}
    "$t" -V | grep -q "^$name (libcgw) [0-9]" || fail "$name -V: $("$t" -V 2>&1 | head -2)"
done
# yappi's definition block (fn= lines with no block, then the blocks): a
# definition is no function until its block, so no phantom function, no
# second block and no name clash
"$CGVERIFY" --all "$CGW_TEST_DATA/dialect-yappi.out" >"$tmp/yappi" 2>&1 || fail "yappi: $(cat "$tmp/yappi")"
grep -q 'split-function\|name-clash\|callee-without-block' "$tmp/yappi" &&
    fail "yappi's definitions read as functions: $(cat "$tmp/yappi")"
grep -q ' 3 functions' "$tmp/yappi" || fail "yappi: $(tail -1 "$tmp/yappi")"
# calls into a function carrying more than it has: said, but not for a
# directly recursive function, whose calls of itself count its time again
printf 'events: Ir\nfn=main\n1 1\ncfn=f\ncalls=1 1\n1 20\nfn=f\n1 3\n' >"$tmp/excess"
"$CGVERIFY" --all "$tmp/excess" 2>&1 | grep -q 'inclusive-excess' || fail "inclusive excess not said"
printf 'events: Ir\nfn=main\n1 1\ncfn=f\ncalls=1 1\n1 20\nfn=f\n1 3\ncfn=f\ncalls=2 1\n1 10\n' >"$tmp/selfrec"
if "$CGVERIFY" --all "$tmp/selfrec" 2>&1 | grep -q 'inclusive-excess'; then
    fail "a directly recursive function's calls are said to carry too much"
fi
# a call above the part's total (issue 51, item 3: "148%"): main 2
# calls g, on a cycle of its own, with 100 Samples in a part of 52,
# which inclusive-excess lets be; g -> g may carry more (Callgrind's
# calls on one cycle do)
printf 'events: Samples\nfn=main\n1 2\ncfn=g\ncalls=1 1\n1 100\nfn=g\n1 50\ncfn=g\ncalls=1 1\n1 60\n' >"$tmp/above"
"$CGVERIFY" --all "$tmp/above" >"$tmp/out" 2>&1 || fail "call above the total: $(cat "$tmp/out")"
grep -qF 'above:5: warning: the call to g carries 100 Samples inclusive, more than the total of part 1 (52, the sum of its cost lines) [call-above-total]' "$tmp/out" ||
    fail "call above the total not said: $(cat "$tmp/out")"
[ "$(grep -c 'call-above-total' "$tmp/out")" = 1 ] || fail "g -> g said above the total: $(cat "$tmp/out")"

# The default output (issue 51, item 4): a real writer's file in at most
# 6 lines, not every diagnostic.  30 calls= lines with a trailing blank,
# which every reader takes (Valgrind writes them), and a cost line with
# fewer costs than events, which speedscope misreads (the calls carry
# b's whole cost, so that its flame graph has the total): one line for
# speedscope, one counting the rest, the summary; --all (-v) lists each
# diagnostic as before; --json is the same with or without it.
{
    printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir Dr\nfl=a.c\nfn=b\n1 30 0\nfn=main\n2 5\n'
    for i in $(seq 30); do printf 'cfn=b\ncalls=1 1 \n%d 1 0\n' "$i"; done
} >"$tmp/blanks"
"$CGVERIFY" "$tmp/blanks" >"$tmp/out" || fail "blanks: exit $?: $(cat "$tmp/out")"
[ "$(wc -l <"$tmp/out")" -le 6 ] || fail "blanks: more than 6 lines: $(cat "$tmp/out")"
grep -qxF "$tmp/blanks: 30 trailing-blank: every reader takes them (--all lists them)" "$tmp/out" ||
    fail "blanks: the harmless warnings' line: $(cat "$tmp/out")"
grep -qxF "$tmp/blanks: speedscope would show other numbers: few-costs (line 9)" "$tmp/out" ||
    fail "blanks: speedscope's line: $(cat "$tmp/out")"
grep -qxF "$tmp/blanks: valid: 1 part, 2 cost lines, 30 calls, 2 functions, 0 errors, 31 warnings; totals Ir=35 Dr=0" "$tmp/out" ||
    fail "blanks: the summary: $(cat "$tmp/out")"
grep -q 'warning:\|kcachegrind\|gprof2dot\|callgrind_annotate' "$tmp/out" &&
    fail "blanks: a warning listed, or a reader that reads it right named: $(cat "$tmp/out")"
"$CGVERIFY" --all "$tmp/blanks" >"$tmp/all" || fail "blanks --all: exit $?"
[ "$(grep -c ': warning: trailing blank (every reader takes it here.*\[trailing-blank\]$' "$tmp/all")" = 20 ] &&
    grep -qxF "$tmp/blanks: warning: 10 more like this not shown [trailing-blank]" "$tmp/all" &&
    grep -q '^[^ ]*blanks:9: warning: .*\[few-costs\]$' "$tmp/all" &&
    [ "$(wc -l <"$tmp/all")" = 23 ] && [ "$(tail -n 1 "$tmp/all")" = "$(tail -n 1 "$tmp/out")" ] ||
    fail "blanks --all: not every diagnostic: $(cat "$tmp/all")"
"$CGVERIFY" -v "$tmp/blanks" | cmp -s - "$tmp/all" || fail "-v is not --all"
"$CGVERIFY" --json "$tmp/blanks" >"$tmp/j1"
"$CGVERIFY" --json --all "$tmp/blanks" | cmp -s - "$tmp/j1" || fail "--all changed --json"
[ "$(grep -o '"code":"trailing-blank"' "$tmp/j1" | wc -l)" = 21 ] || fail "blanks --json: $(cat "$tmp/j1")"
"$CGVERIFY" --for=speedscope "$tmp/blanks" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] && grep -q '^[^ ]*blanks:9: error: .*\[few-costs\]$' "$tmp/out" &&
    grep -qxF "$tmp/blanks: speedscope: shows other numbers than the file says: few-costs" "$tmp/out" ||
    fail "blanks --for=speedscope: exit $rc: $(cat "$tmp/out")"
# an invalid file: the first error of its kind, with how many more are
# like it, exit 1; --all and -q list all 8
{
    printf 'events: Ir\nfn=a\n1 1\n'
    for i in 2 3 4 5 6 7 8 9; do printf 'fn=(%d)\n1 1\n' "$i"; done
} >"$tmp/errors"
"$CGVERIFY" "$tmp/errors" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] || fail "8 errors: exit $rc"
grep -qxF "$tmp/errors:4: error: function ID (2) is used before any \"(2) name\" defines it in this part [undefined-id] (7 more like it: --all lists them)" "$tmp/out" &&
    [ "$(grep -c ': error: ' "$tmp/out")" = 1 ] &&
    grep -q "^$tmp/errors: INVALID: .* 8 errors" "$tmp/out" && [ "$(wc -l <"$tmp/out")" -le 4 ] ||
    fail "8 errors: not the first of its kind: $(cat "$tmp/out")"
"$CGVERIFY" --all "$tmp/errors" >"$tmp/all"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c ': error: .*\[undefined-id\]$' "$tmp/all")" = 8 ] ||
    fail "8 errors --all: exit $rc: $(cat "$tmp/all")"
"$CGVERIFY" -q "$tmp/errors" >"$tmp/out"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/out")" = 8 ] || fail "8 errors -q: exit $rc: $(cat "$tmp/out")"

# A block of a cfn= with no calls= after it (issue 54, item 11): main
# names a callee but makes no call.  cgverify, its round trip, cgrecode
# and cgmerge read it alike: main and foo are no functions (warned), bar
# is; before, the reader handed out main, which the rewrite then lost
# (--roundtrip: INVALID) and cgmerge dropped.
printf '# callgrind format\npositions: line\nevents: Ir\n\nfl=a.c\nfn=main\ncfn=foo\n\nfl=a.c\nfn=bar\n1 5\n' >"$tmp/cfn-alone"
"$CGVERIFY" --all --roundtrip "$tmp/cfn-alone" >"$tmp/out" || fail "cfn= alone, --roundtrip: $(cat "$tmp/out")"
grep -q 'cfn-alone: valid: 1 part, 1 cost line, 0 calls, 1 function, 0 errors, 2 warnings' "$tmp/out" ||
    fail "cfn= alone: the summary: $(cat "$tmp/out")"
grep -q 'cfn-alone:10: warning: cfn=foo has no calls= after it.*\[cfn-without-call\]' "$tmp/out" ||
    fail "cfn= alone: not warned: $(cat "$tmp/out")"
grep -q 'cfn-alone:6: warning: fn= main has no block.*\[definition-only\]' "$tmp/out" ||
    fail "cfn= alone: main not said to be no function: $(cat "$tmp/out")"
"$CGRECODE" -o "$tmp/cfn-recoded" "$tmp/cfn-alone" || fail "cfn= alone: cgrecode"
"$CGMERGE" -o "$tmp/cfn-merged" "$tmp/cfn-alone" "$tmp/cfn-alone" || fail "cfn= alone: cgmerge"
for f in cfn-recoded cfn-merged; do
    "$CGVERIFY" --strict --roundtrip "$tmp/$f" >"$tmp/out" || fail "$f: $(cat "$tmp/out")"
    grep -q "$f: valid: 1 part, 1 cost line, 0 calls, 1 function, 0 errors, 0 warnings" "$tmp/out" ||
        fail "$f: not the functions of the input: $(cat "$tmp/out")"
done

# -j N (issue 55, item 2): files checked in N worker processes print the
# bytes that -j 1 prints, on stdout and stderr, and exit alike, in every
# mode: 20 cggen files (the first the largest, so that the workers end
# out of order), 3 of them made invalid, one missing, stdin (always
# checked by the parent), and a gzip file where gzip is at hand.
mkdir "$tmp/j" || fail "mkdir"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    size=8K
    [ $i = 1 ] && size=400K
    "$CGGEN" --seed "$i" --size $size -o "$tmp/j/f$i.out" || fail "cggen $i: exit $?"
done
sed 's/^calls=.*/calls=x/' "$tmp/j/f3.out" >"$tmp/j/f3.bad" && mv "$tmp/j/f3.bad" "$tmp/j/f3.out"
sed '6s/^fn=.*/fn=(9999)/' "$tmp/j/f9.out" >"$tmp/j/f9.bad" && mv "$tmp/j/f9.bad" "$tmp/j/f9.out"
printf 'events: Ir\nfn=a\n1 1 \n' >>"$tmp/j/f14.out" # a second part with a finding
set -- "$tmp/j/f1.out" "$tmp/j/f2.out" "$tmp/j/f3.out" "$tmp/j/missing" -
for i in 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    set -- "$@" "$tmp/j/f$i.out"
done
if command -v gzip >/dev/null 2>&1; then
    gzip -c "$tmp/j/f2.out" >"$tmp/j/f2.out.gz" && set -- "$@" "$tmp/j/f2.out.gz"
fi
for mode in "" --all --json --strict -q; do
    for j in 1 2 7 default; do
        opt="-j $j"
        [ $j = default ] && opt=
        "$CGVERIFY" $mode $opt "$@" <"$tmp/j/f4.out" >"$tmp/j/out.$j" 2>"$tmp/j/err.$j"
        echo "exit $?" >>"$tmp/j/err.$j"
    done
    grep -q 'exit 2$' "$tmp/j/err.1" || fail "-j 1 $mode: not exit 2 with a file missing"
    [ -s "$tmp/j/out.1" ] || [ "$mode" = -q ] || fail "-j 1 $mode: no output"
    for j in 2 7 default; do
        cmp -s "$tmp/j/out.1" "$tmp/j/out.$j" ||
            fail "-j $j $mode: other stdout than -j 1: $(diff "$tmp/j/out.1" "$tmp/j/out.$j" | head -5)"
        cmp -s "$tmp/j/err.1" "$tmp/j/err.$j" ||
            fail "-j $j $mode: other stderr or exit than -j 1: $(diff "$tmp/j/err.1" "$tmp/j/err.$j" | head -5)"
    done
done
# and the exit status 1 with no file missing, from the workers alone
"$CGVERIFY" -q -j 1 "$tmp/j/f2.out" "$tmp/j/f3.out" "$tmp/j/f5.out" >/dev/null 2>&1; rc1=$?
"$CGVERIFY" -q -j 3 "$tmp/j/f2.out" "$tmp/j/f3.out" "$tmp/j/f5.out" >/dev/null 2>&1; rc3=$?
[ $rc1 = 1 ] && [ $rc3 = 1 ] || fail "-q, one invalid file: exit $rc1 with -j 1, $rc3 with -j 3"
usage_error cgverify "$CGVERIFY" -j 0 "$tmp/j/f2.out"
usage_error cgverify "$CGVERIFY" --jobs=many "$tmp/j/f2.out"

# A worker killed: cgverify says which file and exits 2, never hangs.
# The last file is a FIFO nobody writes, whose worker waits in open();
# once the files before it are out, that worker is cgverify's only child.
if mkfifo "$tmp/j/fifo" 2>/dev/null && command -v pgrep >/dev/null 2>&1; then
    "$CGVERIFY" -j 2 "$tmp/j/f2.out" "$tmp/j/f5.out" "$tmp/j/fifo" >"$tmp/j/kout" 2>"$tmp/j/kerr" &
    pid=$!
    n=0
    while [ $n -lt 100 ] && ! grep -q 'f5.out: valid' "$tmp/j/kout" 2>/dev/null; do
        sleep 0.1
        n=$((n + 1))
    done
    n=0
    kids=$(pgrep -P $pid)
    while [ $n -lt 50 ] && [ "$(echo $kids | wc -w)" != 1 ]; do
        sleep 0.1
        n=$((n + 1))
        kids=$(pgrep -P $pid)
    done
    if [ "$(echo $kids | wc -w)" = 1 ]; then
        kill -9 $kids
        wait $pid; rc=$?
        [ $rc = 2 ] || fail "a worker killed: exit $rc"
        grep -q "^cgverify: $tmp/j/fifo: its worker died of signal 9 " "$tmp/j/kerr" ||
            fail "a worker killed: $(cat "$tmp/j/kerr")"
        grep -q 'f5.out: valid' "$tmp/j/kout" || fail "a worker killed: the files before: $(cat "$tmp/j/kout")"
    else
        echo "the FIFO's worker not found: the kill not tested"
        sh -c ': >"$1"' sh "$tmp/j/fifo" # let it go
        wait $pid
    fi
fi
