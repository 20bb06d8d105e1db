#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cggen: the tool's determinism, size, output forms and exit codes;
# its output passes cgverify --strict.
. "${CGW_SRCDIR:-.}/tests/tools.sh"

"$CGGEN" --seed 7 >"$tmp/a" || fail "to stdout: exit $?"
"$CGGEN" --seed 7 -o "$tmp/b" || fail "to a file: exit $?"
cmp -s "$tmp/a" "$tmp/b" || fail "the same arguments give different bytes"
"$CGGEN" --seed 8 -o "$tmp/c" || fail "seed 8"
cmp -s "$tmp/a" "$tmp/c" && fail "seeds 7 and 8 give the same bytes"
strictly_valid "$tmp/a" --roundtrip || fail "default output is not strictly valid"

"$CGGEN" --seed 3 --functions 500 --files 40 --objects 5 --events 6 --calls-per-fn 5 \
    --inline --size 3M -o "$tmp/d" || fail "portable options"
size=$(wc -c <"$tmp/d")
[ "$size" -gt 3082813 ] && [ "$size" -lt 3208642 ] || fail "--size 3M wrote $size bytes"
strictly_valid "$tmp/d" || fail "portable options are not strictly valid"
grep -q '^fi=' "$tmp/d" || fail "--inline wrote no fi= line"

"$CGGEN" --positions instr,line --jumps --parts 3 --compact --size 200K -o "$tmp/e" ||
    fail "non-portable options"
"$CGVERIFY" --roundtrip -q "$tmp/e" || fail "non-portable options are not valid"
grep -q '^positions: instr line' "$tmp/e" || fail "--positions instr,line"
grep -q '^jcnd=' "$tmp/e" || fail "--jumps wrote no jcnd= line"
[ "$(grep -c '^part:' "$tmp/e")" -eq 3 ] || fail "--parts 3"

for bad in "--events 0" "--events 65" "--functions x" "--size 12Q" "--positions lines" \
           "--seed" "--frobnicate"; do
    # shellcheck disable=SC2086
    "$CGGEN" $bad -o "$tmp/f" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "'$bad': exit $rc"
    [ -s "$tmp/err" ] || fail "'$bad': no message"
    [ -e "$tmp/f" ] && fail "'$bad' left an output file"
done
# a .gz output name asks for gzip: gzip -d gives the plain output's bytes
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    "$CGGEN" --seed 7 -o "$tmp/a.gz" || fail ".gz output: exit $?"
    gzip -dc "$tmp/a.gz" | cmp -s - "$tmp/a" || fail "-o a.gz is not the plain output gzipped"
    [ "$(wc -c <"$tmp/a.gz")" -lt "$(($(wc -c <"$tmp/a") / 2))" ] || fail "-o a.gz is not smaller"
    "$CGVERIFY" --roundtrip -q "$tmp/a.gz" || fail "the .gz output is not valid"
else
    "$CGGEN" --seed 7 -o "$tmp/a.gz" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail ".gz output without zlib: exit $rc"
    grep -q 'a.gz: gzip output (a .gz name) needs a libcgw built with zlib' "$tmp/err" ||
        fail ".gz output without zlib: $(cat "$tmp/err")"
    [ -e "$tmp/a.gz" ] && fail ".gz output without zlib left a file"
fi
"$CGGEN" -o "$tmp/no/such/dir/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "an unwritable path: exit $rc"
echo "cggen: deterministic, sized, strictly valid, exit codes right"

# getopt_long: --opt=value, options in any order, "--", one wording for
# usage errors
"$CGGEN" --seed=7 --output="$tmp/g1" || fail "--seed=7 --output=: exit $?"
cmp -s "$tmp/a" "$tmp/g1" || fail "--seed=7 differs from --seed 7"
"$CGGEN" -o "$tmp/g2" --seed 7 -- || fail "-o first, then --seed, then --: exit $?"
cmp -s "$tmp/a" "$tmp/g2" || fail "-o before --seed gives other bytes"
"$CGGEN" --see=7 -o "$tmp/g3" && cmp -s "$tmp/a" "$tmp/g3" || fail "an unambiguous prefix (--see)"
usage_error cggen "$CGGEN" --seed=x
usage_error cggen "$CGGEN" --seed
usage_error cggen "$CGGEN" --frobnicate
usage_error cggen "$CGGEN" --inline=1
usage_error cggen "$CGGEN" -Z
usage_error cggen "$CGGEN" --seed 1 -- extra
usage_error cggen "$CGGEN" extra
"$CGGEN" --seed=x 2>&1 | grep -q "^cggen: bad value for --seed: 'x'$" || fail "--seed=x message"
"$CGGEN" --seed 2>&1 | grep -q "^cggen: a value is needed after '--seed'$" || fail "--seed message"
help_fits cggen "$CGGEN"
"$CGGEN" --version | grep -q '^cggen (libcgw) [0-9]' || fail "--version"
exit 0
