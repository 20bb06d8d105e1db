#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgdiff: the report of two small profiles, worked out by hand, the
# --fail-above gate, the difference profile, and the exit codes.
. "${CGW_SRCDIR:-.}/tests/tools.sh"

cat >"$tmp/old" <<'END'
events: Ir Dr
fl=a.c
fn=main
1 10 2
cfl=b.c
cfn=f
calls=2 10
3 100 20
fl=b.c
fn=f
10 100 20
fn=gone
1 5
END
sed 's/^1 10 2$/1 12 2/; s/^calls=2 10$/calls=3 10/; s/^3 100 20$/3 150 20/;
     s/^10 100 20$/10 150 20/; s/^fn=gone$/fn=fresh/; s/^1 5$/1 7/' "$tmp/old" >"$tmp/new"
cat >"$tmp/want" <<'END'
Ir: 115 -> 169  +54 (+46.96%)
  inclusive            +52    +45.22%  a.c:main
  self                 +50    +43.48%  b.c:f
  inclusive            +50    +43.48%  b.c:f
  self                  +7     +6.09%  b.c:fresh
  inclusive             +7     +6.09%  b.c:fresh
  self                  -5     -4.35%  b.c:gone
  inclusive             -5     -4.35%  b.c:gone
  self                  +2     +1.74%  a.c:main
Dr: 22 -> 22  +0 (+0.00%)
END
"$CGDIFF" "$tmp/old" "$tmp/new" >"$tmp/got" || fail "cgdiff: exit $?"
diff "$tmp/want" "$tmp/got" >&2 || fail "the report differs from the one worked out by hand"

# the gate: the total moved 46.96%, a function 45.22% at most
"$CGDIFF" --fail-above 50 "$tmp/old" "$tmp/new" >/dev/null || fail "--fail-above 50: exit $?"
exits 1 "--fail-above 46" '^cgdiff: 1 change of more than 46%$' \
    "$CGDIFF" --fail-above 46 "$tmp/old" "$tmp/new"
exits 1 "--fail-above 4.5" '^cgdiff: 6 changes of more than 4.5%$' \
    "$CGDIFF" --fail-above 4.5 "$tmp/old" "$tmp/new"
"$CGDIFF" --fail-above 0 "$tmp/old" "$tmp/old" >"$tmp/same" || fail "no change: exit $?"
printf 'Ir: 115 -> 115  +0 (+0.00%%)\nDr: 22 -> 22  +0 (+0.00%%)\n' | cmp -s - "$tmp/same" ||
    fail "no change: $(cat "$tmp/same")"
"$CGDIFF" --top 1 "$tmp/old" "$tmp/new" | sed -n 2,3p >"$tmp/top"
printf '  inclusive            +52    +45.22%%  a.c:main\n  ...\n' | cmp -s - "$tmp/top" ||
    fail "--top 1: $(cat "$tmp/top")"

# the difference as a profile: gains and losses in events of their own
"$CGDIFF" -o "$tmp/d" "$tmp/old" "$tmp/new" >/dev/null || fail "-o: exit $?"
"$CGVERIFY" --strict -q "$tmp/d" || fail "the difference profile is not strictly valid"
grep -q '^events: Ir_plus Ir_minus Dr_plus Dr_minus$' "$tmp/d" || fail "events: $(cat "$tmp/d")"
grep -q '^totals: 59 5 0 0$' "$tmp/d" || fail "totals: $(cat "$tmp/d")"
if [ "${CGW_HAVE_ZLIB:-no}" = yes ]; then
    "$CGDIFF" -o "$tmp/d.gz" "$tmp/old" "$tmp/new" >/dev/null || fail "-o d.gz: exit $?"
    gzip -dc "$tmp/d.gz" | cmp -s - "$tmp/d" || fail "-o d.gz is not the difference gzipped"
fi
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
    got=$("$CALLGRIND_ANNOTATE" --inclusive=no "$tmp/d" | sed -n 's/ *PROGRAM TOTALS.*//p' |
          sed 's/ ([0-9.]*%)//g; s/,//g; s/  */ /g; s/^ //')
    [ "$got" = "59 5 0 0" ] || fail "callgrind_annotate reads the difference as '$got'"
fi

# errors and usage
printf 'events: Ir\nfn=(1) a\nfn=(2)\n1 1\n' >"$tmp/bad"
exits 1 "an input with errors" 'bad:3: error: .*\[undefined-id\]' "$CGDIFF" "$tmp/old" "$tmp/bad"
"$CGDIFF" --force "$tmp/old" "$tmp/bad" >/dev/null 2>&1 || fail "--force: exit $?"
refused "$CGDIFF" "$tmp/old" "$tmp/old $tmp/new $tmp/new" "--fail-above x $tmp/old $tmp/new" \
    "--fail-above -1 $tmp/old $tmp/new" "--top y $tmp/old $tmp/new" "$tmp/old $tmp/missing" \
    "--mod-funcname s/a $tmp/old $tmp/new" "--frobnicate $tmp/old $tmp/new"
help_fits cgdiff "$CGDIFF"
# a call whose count alone changed (the same costs) is in the difference
printf 'positions: line\nevents: Ir\nfl=a.c\nfn=f\n1 1\ncfn=g\ncalls=2 9\n2 10\nfn=g\n9 10\n' >"$tmp/c2"
printf 'positions: line\nevents: Ir\nfl=a.c\nfn=f\n1 1\ncfn=g\ncalls=3 9\n2 10\nfn=g\n9 10\n' >"$tmp/c3"
"$CGDIFF" -o "$tmp/cd" "$tmp/c2" "$tmp/c3" >/dev/null || fail "count-only change: exit $?"
grep -q '^calls=1 9$' "$tmp/cd" || fail "a call whose count alone changed is dropped: $(cat "$tmp/cd")"
# instruction-only profiles (valgrind --dump-line=no --dump-instr=yes):
# the difference has their positions, and a message names the call once
printf 'positions: instr\nevents: Ir\nfl=a.c\nfn=f\n0x10 5\n0x14 2\n' >"$tmp/i1"
printf 'positions: instr\nevents: Ir\nfl=a.c\nfn=f\n0x10 7\n0x14 2\n' >"$tmp/i2"
"$CGDIFF" -o "$tmp/id" "$tmp/i1" "$tmp/i2" >/dev/null 2>"$tmp/err" || fail "instr only: $(cat "$tmp/err")"
grep -q '^positions: instr$' "$tmp/id" || fail "instr only: $(head -6 "$tmp/id")"
grep -q '^0x10 2 0$' "$tmp/id" || fail "instr only: the change is not at 0x10: $(cat "$tmp/id")"
"$CGVERIFY" -q "$tmp/id" || fail "instr only: the difference is not valid"
echo "cgdiff: report, gate, difference profile and exit codes right"
