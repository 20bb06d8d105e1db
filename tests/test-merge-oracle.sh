#!/bin/sh
# SPDX-License-Identifier: MIT
# test-merge-oracle: KCachegrind's own loader (kcgdump, built from
# ../shared/oracles) reads in a cgmerge output the totals, every
# function's self cost and every call edge (count and inclusive cost) that
# it reads in the inputs, summed; and in a cgdiff -o output, the gains
# and losses.  Skips (77) without ../shared/oracles or Qt5Core.
set -u
build=${CGW_BUILDDIR:-.}
. "${CGW_SRCDIR:-.}/tests/kcgdump.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-merge-oracle.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# KCachegrind's T, F and C lines of the files, summed by key (a C line's
# count too), sorted.
kcg_sum() {
    for f in "$@"; do
        KCGNORM=1 "$kcgdump" "$f" 2>/dev/null | grep '^[TFC]	' || fail "kcgdump $f"
    done | awk -F'\t' '
        { last = $NF; key = $1; for (i = 2; i < NF; i++) if (!($1 == "C" && i == NF - 1)) key = key "\t" $i
          if ($1 == "C") count[key] += $(NF - 1)
          n = split(last, c, ","); for (i = 1; i <= n; i++) sum[key, i] += c[i]; width[key] = n }
        END { for (k in width) {
                  line = k; if (k ~ /^C/) line = line "\t" sprintf("%.0f", count[k])
                  s = ""; for (i = 1; i <= width[k]; i++) s = s (i > 1 ? "," : "") sprintf("%.0f", sum[k, i])
                  print line "\t" s } }' | LC_ALL=C sort
}

for s in 1 2 3; do
    "$build/tools/cggen" --seed $s --functions 40 --events 3 --parts $s \
        --positions instr,line -o "$tmp/g$s" || fail "cggen $s"
done
"$build/tools/cgmerge" "$tmp/g1" "$tmp/g2" "$tmp/g3" -o "$tmp/all" || fail "cgmerge: exit $?"
kcg_sum "$tmp/g1" "$tmp/g2" "$tmp/g3" >"$tmp/want"
kcg_sum "$tmp/all" >"$tmp/got"
if ! cmp -s "$tmp/want" "$tmp/got"; then
    diff "$tmp/want" "$tmp/got" | head -20
    fail "KCachegrind reads other sums in the merged profile (< inputs, > merged)"
fi
echo "merged: KCachegrind reads the inputs' sums ($(grep -c '^F' "$tmp/got") functions, $(grep -c '^C' "$tmp/got") edges)"

# the difference of g1 and its merge with g2 is g2, all in _plus
"$build/tools/cgmerge" "$tmp/g1" "$tmp/g2" -o "$tmp/g12" || fail "cgmerge g1 g2"
"$build/tools/cgdiff" -o "$tmp/d" "$tmp/g1" "$tmp/g12" >/dev/null || fail "cgdiff: exit $?"
KCGNORM=1 "$kcgdump" "$tmp/d" 2>/dev/null | grep '^T	' >"$tmp/dt"
want=$(kcg_sum "$tmp/g2" | sed -n 's/^T\t//p' | awk -F, '{ for (i = 1; i <= NF; i++) printf "%s%s,0", (i > 1 ? "," : ""), $i }')
[ "$(sed 's/^T\t//' "$tmp/dt")" = "$want" ] ||
    fail "KCachegrind reads the difference's totals as $(cat "$tmp/dt"), want $want"
echo "diff: KCachegrind reads the gains as the added profile's totals ($want)"

# old = g1 + g2, new = g1 + g3: gains and losses.  For every function
# KCachegrind reads, E_plus - E_minus in the difference is its self cost
# of E in NEW minus that in OLD.
"$build/tools/cgmerge" "$tmp/g1" "$tmp/g3" -o "$tmp/g13" || fail "cgmerge g1 g3"
"$build/tools/cgdiff" -o "$tmp/d2" "$tmp/g12" "$tmp/g13" >/dev/null || fail "cgdiff 2: exit $?"
for f in g12 g13 d2; do
    KCGNORM=1 "$kcgdump" "$tmp/$f" 2>/dev/null | grep '^F	' >"$tmp/$f.F" || fail "kcgdump $f"
done
bad=$(awk -F'\t' '
    { key = $2 "\t" $3 "\t" $4; n = split($5, c, ",") }
    FILENAME ~ /g12.F$/ { for (i = 1; i <= n; i++) old[key, i] = c[i]; keys[key] = 1; ne = n }
    FILENAME ~ /g13.F$/ { for (i = 1; i <= n; i++) new[key, i] = c[i]; keys[key] = 1; ne = n }
    FILENAME ~ /d2.F$/  { for (i = 1; i <= n / 2; i++) moved[key, i] = c[2 * i - 1] - c[2 * i]; seen[key] = 1 }
    END { for (k in keys) for (i = 1; i <= ne; i++)
              if (new[k, i] - old[k, i] != moved[k, i] + 0) { print k " event " i; bad++ }
          for (k in seen) if (!(k in keys)) print "unknown " k
          printf "checked %d functions\n", length(keys) > "/dev/stderr" }
    ' "$tmp/g12.F" "$tmp/g13.F" "$tmp/d2.F" 2>"$tmp/count")
[ -z "$bad" ] || fail "KCachegrind reads differences that are not NEW - OLD: $(echo "$bad" | head -5)"
awk -F'\t' '{ split($5, c, ","); gain += c[1] > 0; loss += c[2] > 0 }
    END { exit !(gain > 10 && loss > 10) }' "$tmp/d2.F" || fail "too few gains and losses to say much"
echo "diff: KCachegrind reads E_plus - E_minus = NEW - OLD for every function ($(cat "$tmp/count"))"

# calls=0 (a call still running at a Callgrind dump): KCachegrind reads the
# same counts, costs and edges in cgrecode's and cgmerge's outputs as in
# the input (doubled for the merge of the file with itself); names that
# share no start, as KCachegrind loads such files together as parts
printf 'events: Ir\nfl=a.c\nfn=f\n1 1\ncfl=a.c\ncfn=g\ncalls=0 9\n2 30\ncfl=a.c\ncfn=h\ncalls=0 9\n3 0\nfn=g\n9 30\nfn=h\n9 0\n' >"$tmp/input0"
"$build/tools/cgrecode" "$tmp/input0" -o "$tmp/recoded0" || fail "cgrecode calls=0: exit $?"
"$build/tools/cgmerge" "$tmp/input0" "$tmp/input0" -o "$tmp/merged0" || fail "cgmerge calls=0: exit $?"
kcg_sum "$tmp/input0" >"$tmp/want"
kcg_sum "$tmp/recoded0" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "KCachegrind reads other calls after cgrecode: $(diff "$tmp/want" "$tmp/got")"
grep -q '	g	0	30$' "$tmp/got" || fail "KCachegrind does not read f -> g as calls=0: $(cat "$tmp/got")"
kcg_sum "$tmp/input0" "$tmp/input0" >"$tmp/want"
kcg_sum "$tmp/merged0" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "KCachegrind reads other calls after cgmerge: $(diff "$tmp/want" "$tmp/got")"
echo "calls=0: KCachegrind reads cgrecode's and cgmerge's outputs as the input"

# no object after an object: f in libc.so calls g in no object (an empty
# cob=), and g's block is in no object (an empty ob=); cgrecode and
# cgmerge keep them apart from libc.so's g, as KCachegrind reads them
# (they used to give g libc.so, the object written before it); names
# that are no prefix of another's, as for calls=0 above
printf 'events: Ir\nob=libc.so\nfl=a.c\nfn=f\n1 5\ncob=\ncfn=g\ncalls=1 1\n1 3\ncfn=g\ncalls=2 1\n1 4\nob=\nfl=a.c\nfn=g\n1 3\n' >"$tmp/a-obj"
printf 'events: Ir\nfl=a.c\nfn=h\n1 1\ncfn=g\ncalls=1 1\n1 2\nfn=g\n1 2\n' >"$tmp/b-obj"
"$build/tools/cgrecode" "$tmp/a-obj" -o "$tmp/r-obj" || fail "cgrecode a-obj: exit $?"
kcg_sum "$tmp/a-obj" >"$tmp/want"
kcg_sum "$tmp/r-obj" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "KCachegrind reads other objects after cgrecode: $(diff "$tmp/want" "$tmp/got")"
grep -q '^F	???	a.c	g	3$' "$tmp/want" || fail "KCachegrind does not read g in no object (kcgdump's ???): $(cat "$tmp/want")"
for order in "b-obj a-obj" "a-obj b-obj"; do
    # shellcheck disable=SC2086
    (cd "$tmp" && "$build/tools/cgmerge" $order -o "$tmp/m-obj") || fail "cgmerge $order: exit $?"
    kcg_sum "$tmp/a-obj" "$tmp/b-obj" >"$tmp/want"
    kcg_sum "$tmp/m-obj" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" ||
        fail "KCachegrind reads other objects after cgmerge $order: $(diff "$tmp/want" "$tmp/got")"
done
if command -v callgrind_annotate >/dev/null 2>&1; then
    # callgrind_annotate shows g with no [object], f with [libc.so]
    callgrind_annotate "$tmp/r-obj" >"$tmp/ca" 2>&1 || fail "callgrind_annotate: $(cat "$tmp/ca")"
    grep -q ' a\.c:g$' "$tmp/ca" && grep -q ' a\.c:f \[libc\.so\]$' "$tmp/ca" ||
        fail "callgrind_annotate reads other objects: $(cat "$tmp/ca")"
fi
echo "no object after an object: KCachegrind reads cgrecode's and cgmerge's outputs as the inputs"

# stacks with instruction addresses (cgw_stacks_add_at(), through the
# Python binding): KCachegrind reads each cost at the address and line it
# was added at, and the call's inclusive cost and count (issue 52)
pylib=$build/.libs/libcgw.so
if command -v python3 >/dev/null 2>&1 && [ -f "$pylib" ]; then
    CGW_LIBRARY=$pylib PYTHONPATH="${CGW_SRCDIR:-.}/python" PYTHONDONTWRITEBYTECODE=1 python3 - "$tmp/st-instr" <<'PY' || fail "stacks with addresses: python3 exit $?"
import sys, cgw
s = cgw.Stacks()
a, b = s.intern(cgw.Frame("a", "m.c")), s.intern(cgw.Frame("b", "m.c"))
for _ in range(5):
    s.add_h([a, b], 1, lines=[7, 9], addresses=[0x1010, 0x2000])
s.add_h([a, b], 3, lines=[7, 9], addresses=[0x1014, 0x2004])
s.write(sys.argv[1], positions="instr line")
PY
    "$kcgdump" "$tmp/st-instr" 2>/dev/null >"$tmp/st-kcg" || fail "kcgdump st-instr"
    for want in 'instr 0x2000 line 9 5' 'instr 0x2004 line 9 3' 'call -> b \[m.c\] count 6 incl 8' \
        'fn b | ob  | fl m.c | self 8 | incl 8 | called 6'; do
        grep -q "$want" "$tmp/st-kcg" || fail "KCachegrind does not read \"$want\" in: $(cat "$tmp/st-kcg")"
    done
    echo "stacks with addresses: KCachegrind reads each cost at its address and line"
else
    echo "stacks with addresses: no python3 or no shared libcgw: not asked"
fi
