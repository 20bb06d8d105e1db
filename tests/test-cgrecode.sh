#!/bin/sh
# test-cgrecode: the tool's modes, output forms and exit codes.  (The
# preservation of totals, self costs and call edges over every real file
# is checked by test-real through cgw_recode.)
set -u
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGGEN=${CGGEN:-./tools/cggen}
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CORPUS=${CGW_CORPUS:-}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
totals() { "$CGVERIFY" --json "$1" | sed 's/.*"totals":\(\[[0-9,]*\]\).*/\1/'; }

"$CGGEN" --seed 5 --positions instr,line --jumps --events 4 -o "$tmp/in" || fail "cggen"
"$CGRECODE" "$tmp/in" -o "$tmp/portable" || fail "portable: exit $?"
"$CGVERIFY" --strict -q "$tmp/portable" || fail "portable output is not strictly valid"
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

printf 'events: Ir\nfn=(1) a\nfn=(2)\n1 1\n' >"$tmp/bad"
"$CGRECODE" "$tmp/bad" -o "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "an input with errors: exit $rc"
grep -q 'bad:3: error: .*\[undefined-id\]' "$tmp/err" || fail "error message: $(cat "$tmp/err")"
[ -e "$tmp/out" ] && fail "an input with errors left an output file"
"$CGRECODE" --force "$tmp/bad" -o "$tmp/out" 2>/dev/null || fail "--force: exit $?"
"$CGVERIFY" -q "$tmp/out" || fail "--force output is not valid"

"$CGRECODE" --positions instr "$tmp/portable" -o "$tmp/out2" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "positions the input lacks: exit $rc"
[ -e "$tmp/out2" ] && fail "a refused recode left an output file"
for bad in "--positions nope $tmp/in" "--frobnicate $tmp/in" "" "$tmp/missing"; do
    # shellcheck disable=SC2086
    "$CGRECODE" $bad >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "'$bad': exit $rc"
    [ -s "$tmp/err" ] || fail "'$bad': no message"
done

if [ -n "$CORPUS" ] && [ -f "$CORPUS/valgrind319-line.callgrind" ]; then
    f="$CORPUS/valgrind319-line.callgrind"
    "$CGRECODE" --compact "$f" -o "$tmp/vg" || fail "compact corpus file"
    [ "$(totals "$f")" = "$(totals "$tmp/vg")" ] || fail "corpus totals differ"
    echo "valgrind319-line: $(wc -c <"$f") bytes, --compact $(wc -c <"$tmp/vg")"
fi
echo "cgrecode: modes, stdin, errors and exit codes right"
