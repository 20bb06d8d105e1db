#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgrecode: the tool's modes, output forms and exit codes.  (The
# preservation of totals, self costs and call edges over every real file
# is checked by test-real through cgw_recode.)
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CORPUS=${CGW_CORPUS:-}
totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\(\[[0-9,]*\]\).*/\1/'; }

"$CGGEN" --seed 5 --positions instr,line --jumps --events 4 -o "$tmp/in" || fail "cggen"
"$CGRECODE" "$tmp/in" -o "$tmp/portable" || fail "portable: exit $?"
strictly_valid "$tmp/portable" || fail "portable output is not strictly valid"
grep -q '^positions: line$' "$tmp/portable" || fail "portable output keeps instr positions"
grep -q '^jcnd=' "$tmp/portable" && fail "portable output keeps jumps"
[ "$(totals "$tmp/in")" = "$(totals "$tmp/portable")" ] || fail "portable totals differ"

"$CGRECODE" --compact --jumps "$tmp/in" >"$tmp/compact" || fail "compact to stdout: exit $?"
grep -q '^positions: instr line$' "$tmp/compact" || fail "compact output lost instr positions"
grep -q '^jcnd=' "$tmp/compact" || fail "--jumps dropped the jumps"
[ "$(totals "$tmp/in")" = "$(totals "$tmp/compact")" ] || fail "compact totals differ"
[ "$(wc -c <"$tmp/compact")" -lt "$(wc -c <"$tmp/in")" ] || fail "compact is not smaller"

"$CGRECODE" --positions line - <"$tmp/in" >"$tmp/stdin" || fail "stdin: exit $?"
cmp -s "$tmp/stdin" "$tmp/portable" || fail "stdin and a path give different output"

# A FIFO (as <(cmd) gives) is read once: the output is the path's.  A
# second read of it would find nothing, or wait: timeout makes that a
# failure rather than a hang.
mkfifo "$tmp/fifo" || fail "mkfifo"
cat "$tmp/in" >"$tmp/fifo" &
timeout 60 "$CGRECODE" --positions line "$tmp/fifo" -o "$tmp/from-fifo" ||
    fail "FIFO input: exit $?"
wait
cmp -s "$tmp/from-fifo" "$tmp/portable" || fail "a FIFO and a path give different output"
cat "$tmp/in" >"$tmp/fifo" &
timeout 60 "$CGRECODE" "$tmp/fifo" -o "$tmp/from-fifo2" || fail "FIFO, positions peeked: exit $?"
wait
cmp -s "$tmp/from-fifo2" "$tmp/portable" || fail "FIFO, positions peeked: different output"

# gzip input (by its bytes, whatever its name) and a .gz output name
gzip -c "$tmp/in" >"$tmp/in.gz"
cp "$tmp/in.gz" "$tmp/in-gz-named-plain"
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    "$CGRECODE" "$tmp/in.gz" -o "$tmp/portable.gz" || fail "gzip in and out: exit $?"
    gzip -dc "$tmp/portable.gz" | cmp -s - "$tmp/portable" || fail "gzip in and out differ"
    "$CGRECODE" "$tmp/in-gz-named-plain" -o "$tmp/p2" || fail "gzip input named plain: exit $?"
    cmp -s "$tmp/p2" "$tmp/portable" || fail "gzip input named plain differs"
    "$CGRECODE" - <"$tmp/in.gz" >"$tmp/p3" || fail "gzip on stdin: exit $?"
    cmp -s "$tmp/p3" "$tmp/portable" || fail "gzip on stdin differs"
else
    "$CGRECODE" "$tmp/in.gz" -o "$tmp/p2" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "gzip input without zlib: exit $rc"
    grep -q 'built without zlib' "$tmp/err" || fail "gzip input without zlib: $(cat "$tmp/err")"
    [ -e "$tmp/p2" ] && fail "gzip input without zlib left an output file"
fi

printf 'events: Ir\nfn=a\n1 1\n2 2 3\n' >"$tmp/bad"
exits 1 "an input with errors" 'bad:4: error: .*\[too-many-costs\]' \
    "$CGRECODE" "$tmp/bad" -o "$tmp/out"
[ -e "$tmp/out" ] && fail "an input with errors left an output file"
"$CGRECODE" --force "$tmp/bad" -o "$tmp/out" 2>/dev/null || fail "--force: exit $?"
"$CGVERIFY" -q "$tmp/out" || fail "--force output is not valid"

# IDs used but never defined (valgrind --mangle-names=no, old Callgrind):
# cgverify says so, cgrecode writes them as KCachegrind shows them
printf 'events: Ir\nfl=(1) a.c\nfn=(1) a\n1 1\ncfn=(7)\ncalls=1 1\n1 5\nfn=(2)\n1 5\n' >"$tmp/undef"
"$CGVERIFY" -q "$tmp/undef" 2>/dev/null && fail "cgverify accepts an undefined ID"
"$CGRECODE" "$tmp/undef" -o "$tmp/out" 2>"$tmp/err" || fail "undefined IDs: exit $?"
grep -q 'undef:5: repaired: .*"???".*\[undefined-id\]' "$tmp/err" ||
    fail "no note of the repair: $(cat "$tmp/err")"
grep -q 'undef:8: repaired: ' "$tmp/err" || fail "no note of the second repair"
strictly_valid "$tmp/out" || fail "the repaired output is not strictly valid"
grep -q '^cfn=(2) ???$' "$tmp/out" || fail "the callee is not written as ???"
[ "$(totals "$tmp/undef")" = "$(totals "$tmp/out")" ] || fail "repaired totals differ"

# Cachegrind writes summary: last; Xdebug names events Time_(10ns)
printf 'events: Ir Dr\nfl=a.c\nfn=f\n1 3 1\n2 4 0\nsummary: 7 1\n' >"$tmp/cachegrind"
"$CGRECODE" "$tmp/cachegrind" -o "$tmp/out" || fail "trailing summary: exit $?"
tail -2 "$tmp/out" | tr '\n' '|' | grep -q '^summary: 7 1|totals: 7 1|$' ||
    fail "the summary is not kept before totals: $(tail -3 "$tmp/out")"
strictly_valid "$tmp/out" || fail "the output with a trailing summary is not valid"
printf 'version: 1\ncreator: xdebug 3.3.1\nevents: Time_(10ns) Memory_(bytes)\n\nfl=(1) a.php\nfn=(1) f\n1 5 100\n' >"$tmp/xdebug"
"$CGRECODE" "$tmp/xdebug" -o "$tmp/out" || fail "Xdebug event names: exit $?"
grep -q '^events: Time_(10ns) Memory_(bytes)$' "$tmp/out" || fail "Xdebug's event names changed"

# calls=0 (valgrind writes it for a call still running at a dump): kept as
# it is by default, with and without cost; --for=callgrind_annotate writes
# calls=1 where there is cost, leaves the others out, and says so
printf 'events: Ir\nfn=f\n1 1\ncfn=g\ncalls=0 9\n2 30\ncfn=h\ncalls=0 9\n3 0\nfn=g\n9 30\n' >"$tmp/zero"
"$CGRECODE" "$tmp/zero" -o "$tmp/out" 2>"$tmp/err" || fail "calls=0: exit $?"
[ "$(grep -c '^calls=0 9$' "$tmp/out")" = 2 ] || fail "calls=0 not kept: $(cat "$tmp/out")"
grep -q '^cfn=(3) h$' "$tmp/out" || fail "the edge of a calls=0 without cost is lost"
[ -s "$tmp/err" ] && fail "the default recode says something: $(cat "$tmp/err")"
"$CGVERIFY" -q "$tmp/out" || fail "the calls=0 output is not valid"
"$CGRECODE" --for=callgrind_annotate "$tmp/zero" -o "$tmp/out" 2>"$tmp/err" ||
    fail "--for=callgrind_annotate: exit $?"
grep -q '^calls=1 9$' "$tmp/out" || fail "--for=callgrind_annotate: calls=0 with cost is not calls=1"
grep -q '^cfn=(3) h$' "$tmp/out" && fail "--for=callgrind_annotate: calls=0 without cost is kept"
grep -q 'for callgrind_annotate, 2 calls=0 lines written as calls=1' "$tmp/err" ||
    fail "--for=callgrind_annotate does not say what it changed: $(cat "$tmp/err")"
strictly_valid "$tmp/out" || fail "the repaired calls=0 output is not valid"
usage_error cgrecode "$CGRECODE" --for=qcachegrind "$tmp/zero"
usage_error cgrecode "$CGRECODE" --for=speedscope --jumps "$tmp/zero"
usage_error cgrecode "$CGRECODE" --for=callgrind_annotate --compact "$tmp/zero"
"$CGRECODE" --compact "$tmp/zero" -o "$tmp/out" || fail "calls=0 compact: exit $?"
grep -q '^calls=0 9$' "$tmp/out" || fail "compact output changes calls=0"

# cost lines at one position are summed only within one inlined file (fi=),
# and a sum that would pass 2^64-1 is refused, even with --force
printf 'events: Ir\nfl=a.c\nfn=f\n1 1\nfi=b.h\n1 2\n1 3\nfe=a.c\n1 4\n' >"$tmp/fi"
"$CGRECODE" "$tmp/fi" -o "$tmp/out" || fail "fi=: exit $?"
[ "$(sed -n '/^fn=/,/^$/p' "$tmp/out" | tr '\n' '|')" = 'fn=(1) f|1 1|fi=(2) b.h|* 5|fe=(1)|* 4||' ] ||
    fail "cost lines of different inlined files merged: $(cat "$tmp/out")"
printf 'events: Ir\nfl=a.c\nfn=f\n1 18446744073709551615\n1 1\n' >"$tmp/over"
"$CGRECODE" --force "$tmp/over" -o "$tmp/out" 2>"$tmp/err" && fail "a sum past 2^64-1 was written"
if [ -e "$tmp/out" ] && grep -q '^1 0$' "$tmp/out"; then fail "a sum past 2^64-1 wrapped to 0"; fi
grep -q '2^64-1' "$tmp/err" || fail "a sum past 2^64-1: $(cat "$tmp/err")"

# no position column (an empty positions: line): kept, with CGW_EXTENDED,
# and said on stderr
"$CGRECODE" "$CGW_TEST_DATA/no-positions.out" -o "$tmp/out" 2>"$tmp/err" ||
    fail "no position column: exit $?"
grep -q 'no position column' "$tmp/err" || fail "no note of the missing position column"
grep -q '^positions:$' "$tmp/out" || fail "the output has a position column"
[ "$(totals "$CGW_TEST_DATA/no-positions.out")" = "$(totals "$tmp/out")" ] ||
    fail "no position column: totals differ"
"$CGVERIFY" -q "$tmp/out" || fail "the output without positions is not valid"
"$CGVERIFY" -q --roundtrip "$CGW_TEST_DATA/no-positions.out" ||
    fail "no position column: the round trip fails"

"$CGRECODE" --positions instr "$tmp/portable" -o "$tmp/out2" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "positions the input lacks: exit $rc"
[ -e "$tmp/out2" ] && fail "a refused recode left an output file"
refused "$CGRECODE" "--positions nope $tmp/in" "--frobnicate $tmp/in" "" "$tmp/missing"

if [ -n "$CORPUS" ] && [ -f "$CORPUS/valgrind319-line.callgrind" ]; then
    f="$CORPUS/valgrind319-line.callgrind"
    "$CGRECODE" --compact "$f" -o "$tmp/vg" || fail "compact corpus file"
    [ "$(totals "$f")" = "$(totals "$tmp/vg")" ] || fail "corpus totals differ"
    echo "valgrind319-line: $(wc -c <"$f") bytes, --compact $(wc -c <"$tmp/vg")"
fi

# a bad input past the writer's first flush: a regular file as stdout is
# cut back to where it was (">>" keeps what was there), a pipe is told
# the truth; -o writes nothing
"$CGGEN" --seed 1 --size 1M -o "$tmp/big" || fail "cggen 1M"
{ cat "$tmp/big"; printf 'fn=(99999)\n1 1\n'; } >"$tmp/badbig"
"$CGRECODE" "$tmp/badbig" >"$tmp/so" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "bad input to stdout: exit $rc"
[ -s "$tmp/so" ] && fail "bad input: $(wc -c <"$tmp/so") bytes left on stdout"
grep -q '^cgrecode: nothing written (stdout cut back to where it was)$' "$tmp/err" || fail "stdout file: $(cat "$tmp/err")"
echo kept >"$tmp/so"
"$CGRECODE" "$tmp/badbig" >>"$tmp/so" 2>/dev/null
[ "$(cat "$tmp/so")" = kept ] || fail ">> stdout: $(wc -c <"$tmp/so") bytes, not the line kept"
"$CGRECODE" "$tmp/badbig" 2>"$tmp/err" | wc -c >"$tmp/n"
[ "$(cat "$tmp/n")" -gt 0 ] || fail "the pipe case needs a flush to test the message"
grep -q '^cgrecode: what went to stdout is an incomplete profile: discard it' "$tmp/err" ||
    fail "pipe: $(cat "$tmp/err")"
grep -q 'nothing written' "$tmp/err" && fail "pipe: says nothing written"
"$CGRECODE" "$tmp/badbig" -o "$tmp/bo" 2>"$tmp/err"
[ -e "$tmp/bo" ] && fail "-o left a file"
grep -q '^cgrecode: nothing written$' "$tmp/err" || fail "-o: $(cat "$tmp/err")"
"$CGRECODE" "$tmp/badbig" >"$tmp/so2" 2>&1
grep -q '^cgrecode: what went to stdout is an incomplete profile' "$tmp/so2" ||
    fail "stdout and stderr one file: the messages must stay"

# getopt_long: --opt=value, options after the file, "--", one wording for
# usage errors
"$CGRECODE" "$tmp/in" --positions=line --output="$tmp/g1" || fail "--positions=line after FILE: exit $?"
cmp -s "$tmp/g1" "$tmp/portable" || fail "--positions=line after FILE differs"
"$CGRECODE" "$tmp/in" --jumps --compact >"$tmp/g2" || fail "--jumps --compact after FILE: exit $?"
cmp -s "$tmp/g2" "$tmp/compact" || fail "options after FILE differ from before it"
cp "$tmp/in" "$tmp/-x"
in_tmp "$CGRECODE" --compact --jumps -- -x >"$tmp/g3" || fail "-- -x: exit $?"
cmp -s "$tmp/g3" "$tmp/compact" || fail "-- -x differs"
usage_error cgrecode "$CGRECODE" --positions=nope "$tmp/in"
usage_error cgrecode "$CGRECODE" --positions
usage_error cgrecode "$CGRECODE" --frobnicate "$tmp/in"
usage_error cgrecode "$CGRECODE" "$tmp/in" --compact=1
usage_error cgrecode "$CGRECODE" "$tmp/in" -Z
usage_error cgrecode "$CGRECODE" "$tmp/in" "$tmp/in"
usage_error cgrecode "$CGRECODE" --mod-filename s/a/b/ "$tmp/in"
usage_error cgrecode "$CGRECODE"
in_tmp "$CGRECODE" -x >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^cgrecode: unknown option '-x'" "$tmp/err" || fail "-x without --: $rc $(cat "$tmp/err")"
help_fits cgrecode "$CGRECODE"
"$CGRECODE" --version | grep -q '^cgrecode (libcgw) [0-9]' || fail "--version"
echo "cgrecode: modes, stdin, errors and exit codes right"
