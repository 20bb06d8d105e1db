#!/bin/sh
# SPDX-License-Identifier: MIT
# test-profile-oracle: the profile model (tests/profile-dump) against
# KCachegrind's own loader (kcgdump, built from ../shared/oracles) and the
# files' totals, on the shapes of tests/test-profile.c, on Valgrind's
# files of recursive programs and a Python profile with imports made now
# (each skipped with a message where its writer is missing), and on the
# shared corpus: every function in no cycle has KCachegrind's inclusive
# cost, or (a function also entered from outside the profile's view, as
# a thread's start) KCachegrind's is the sum of its calls in and the
# model's the larger self plus calls out; none, in a cycle or not, has
# more than the total; the script's <module> is at the total in
# cgreport's table (to 0.5%: exec's own cost and the profiler's are
# outside it) and its flame graph (to 1%); and the folded stacks of every
# file add up to the totals.
# Skips (77) without ../shared/oracles or Qt5Core.
set -u
build=${CGW_BUILDDIR:-.}
src=${CGW_SRCDIR:-.}
. "$src/tests/kcgdump.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-profile-oracle.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; status=1; }
status=0
dump="$build/tests/profile-dump"
CGCONVERT=${CGCONVERT:-$build/tools/cgconvert}
CGREPORT=${CGREPORT:-$build/tools/cgreport}

# the shapes worked out by hand in test-profile.c
# issue 50's parser (tests/data/mutual-recursion.out: main -> expr <-> term)
cp "${CGW_TEST_DATA:-${CGW_SRCDIR:-.}/tests/data}/mutual-recursion.out" "$tmp/parser.out" || exit 99
printf '%s\n' 'events: Ir' 'fl=f.c' 'fn=main' '1 2' 'cfn=fact' 'calls=1 1' '2 10' \
    'fn=fact' '1 10' 'cfn=fact' 'calls=3 1' '2 8' >"$tmp/fact.out"
printf '%s\n' 'events: Ir' 'fl=f.c' 'fn=r1' '1 1' 'cfn=x' 'calls=1 1' '2 10' \
    'fn=r2' '1 2' 'cfn=y' 'calls=1 1' '2 20' 'fn=x' '1 12' 'cfn=y' 'calls=1 1' '2 4' \
    'fn=y' '1 18' 'cfn=x' 'calls=1 1' '2 6' >"$tmp/two-roots.out"
set -- "$tmp/parser.out" "$tmp/fact.out" "$tmp/two-roots.out"

# Valgrind's files of recursive programs with default options, and a
# Python profile with imports from three writers (made-profiles.sh)
. "$src/tests/made-profiles.sh"
made_profiles "$tmp"
# shellcheck disable=SC2086
set -- "$@" $made
for f in "${CGW_CORPUS:-$src/../shared/corpus}"/*; do
    case $f in *.md) continue ;; esac
    [ -f "$f" ] && set -- "$@" "$f"
done

n=0
for f in "$@"; do
    "$dump" "$f" >"$tmp/model" 2>"$tmp/model.err" || {
        grep -q "no event" "$tmp/model.err" || fail "profile-dump $f: $(cat "$tmp/model.err")"
        continue
    }
    "$kcgdump" "$f" >"$tmp/kcg" 2>/dev/null || continue # KCachegrind refuses it: nothing to hold
    "$CGCONVERT" --quiet --force --to folded "$f" -o "$tmp/folded" 2>"$tmp/conv.err" ||
        fail "cgconvert --to folded $f: $(head -1 "$tmp/conv.err")"
    python3 - "$f" "$tmp/model" "$tmp/kcg" "$tmp/folded" <<'PY' || status=1
import sys
path, model, kcg, folded = sys.argv[1:]
total, fns = None, {}
for line in open(model, encoding='utf-8', errors='surrogateescape'):
    x = line.rstrip('\n').split('\t')
    if x[0] == 'T':
        total = [int(c) for c in x[1].split(',')]
    elif x[0] == 'F':
        fns[(x[3], x[2], x[1])] = ([int(c) for c in x[4].split(',')], int(x[5]), int(x[6]), int(x[7]))
bad = []
names = {}
for (name, file, obj) in fns:
    names[name] = names.get(name, 0) + 1
for (name, file, obj), (incl, cycle, _, _) in fns.items():
    for e, c in enumerate(incl):
        if c > total[e]:
            bad.append('%s: inclusive %d above the total %d' % (name, c, total[e]))
kcg_incl = {}
for line in open(kcg, encoding='utf-8', errors='surrogateescape'):
    if not line.startswith('fn '):
        continue
    parts = line.rstrip('\n')[3:].split(' | ')
    f = {p.split(' ', 1)[0]: (p.split(' ', 1) + [''])[1] for p in parts[1:]}
    incl = [int(c) for c in f['incl'].split() if '=' not in c]
    kcg_incl.setdefault((parts[0], f['fl']), []).append(incl)
checked = entered = 0
for (name, file, obj), (incl, cycle, calls_in, own) in fns.items():
    got = kcg_incl.get((name, file))
    if cycle or got is None or len(got) != 1 or names[name] != 1:
        continue  # in a cycle, or a name KCachegrind identifies otherwise
    checked += 1
    if got[0] == incl[:len(got[0])]:
        continue
    if got[0][0] == calls_in and incl[0] == own and own > calls_in:
        entered += 1  # entered from outside too: KCachegrind takes the calls in
        continue
    bad.append('%s: inclusive %s, KCachegrind %s (calls in %d, self and calls out %d)'
               % (name, incl, got[0], calls_in, own))
fsum = sum(int(l.rsplit(' ', 1)[1]) for l in open(folded, encoding='utf-8', errors='surrogateescape') if l.strip())
if fsum != total[0]:
    bad.append('folded stacks add up to %d, not the total %d' % (fsum, total[0]))
for b in bad[:8]:
    print('FAIL: %s: %s' % (path, b))
print('%s: %d functions, %d in no cycle as KCachegrind (%d entered from outside too), total %s'
      % (path.rsplit('/', 1)[-1], len(fns), checked, entered, total[0]))
sys.exit(1 if bad else 0)
PY
    n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n files compared"

# the parser: the model's numbers, and the views' (table, flame graph,
# folded) as KCachegrind's and as worked out by hand
grep -q '^fn main | ob  | fl parse.c | self 2 | incl 47 ' <"$("$kcgdump" "$tmp/parser.out" >"$tmp/k" 2>/dev/null; echo "$tmp/k")" ||
    fail "KCachegrind's main is not 2 self, 47 inclusive: $(grep '^fn main' "$tmp/k")"
"$CGCONVERT" --quiet --to folded "$tmp/parser.out" -o - | sort >"$tmp/pf"
printf '%s\n' 'main 2' 'main;expr 20' 'main;expr;term 25' | diff - "$tmp/pf" >/dev/null ||
    fail "folded stacks of the parser: $(tr '\n' '|' <"$tmp/pf")"

# cgreport's table and flame graph: the model's inclusive costs; the
# script's <module> at the total in the table and the flames
for f in "$tmp/parser.out" $python_file; do
    "$CGREPORT" --quiet --top 0 --threshold 0 "$f" -o "$tmp/page.html" || { fail "cgreport $f"; continue; }
    "$dump" "$f" >"$tmp/model"
    python3 - "$tmp/page.html" "$tmp/model" "$f" <<'PY' || status=1
import json, re, sys
page, model, path = sys.argv[1:]
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>',
                         open(page, encoding='utf-8').read(), re.S).group(1))
want = {}
for line in open(model, encoding='utf-8'):
    x = line.rstrip('\n').split('\t')
    if x[0] == 'F':
        want[(x[3], '' if x[2] == '???' else x[2], x[1])] = [int(c) for c in x[4].split(',')]
bad = []
for fn in p['fns']:
    if want.get((fn[0], fn[1], fn[2])) != fn[4]:
        bad.append('%s: inclusive %s in the page, %s in the model' % (fn[0], fn[4], want.get((fn[0], fn[1], fn[2]))))
total = p['totals'][0]
def through(node, name, under):
    here = under or (node[0] >= 0 and p['fns'][node[0]][0] == name)
    if here:
        return node[1]
    return sum(through(c, name, False) for c in node[2])
if 'parser' in path:
    main = [fn for fn in p['fns'] if fn[0] == 'main'][0]
    if main[4][0] != 47 or through(p['flames'][0], 'main', False) != 47:
        bad.append('main: %s in the table, %d in the flame graph, not 47' % (main[4], through(p['flames'][0], 'main', False)))
    roots = [p['fns'][c[0]][0] for c in p['flames'][0][2]]
    if roots != ['main']:
        bad.append('roots of the flame graph: %s, not main alone' % roots)
else:
    mod = [fn for fn in p['fns'] if fn[0].startswith('<module>') and
           (fn[1].endswith('script.py') or 'script.py' in fn[0])]
    if len(mod) != 1 or mod[0][4][0] < 0.995 * total:
        bad.append("the script's <module>: %s of %d in the table" % (mod and mod[0][4], total))
    # the flame graph: what runs under the script's <module> (the imports'
    # modules run by exec again inside it; the exec's own and the profiler's
    # cost outside it)
    flame = through(p['flames'][0], mod[0][0] if mod else '', False)
    if flame < 0.99 * total:
        bad.append("the script's <module>: %d of %d in the flame graph" % (flame, total))
for b in bad[:8]:
    print('FAIL: cgreport %s: %s' % (path, b))
sys.exit(1 if bad else 0)
PY
done
# yappi's files name every function before its block (cgreport refuses
# them), and their program starts at runpy.run_path, which compiles the
# script before its <module> runs: in the model, the entry holds the
# total and the script's <module> what the file says of it (its self and
# calls out, or its calls in when larger)
if [ -n "$yappi_file" ]; then
    "$dump" "$yappi_file" 2>/dev/null | awk -F'\t' '
        $1 == "T" { total = $2 + 0 }
        $1 == "F" { if ($5 + 0 > top) top = $5 + 0 }
        $1 == "F" && $4 ~ /^<module>/ && $4 ~ /script\.py/ {
            mod = $5 + 0; want = $7 + 0 > $8 + 0 ? $7 + 0 : $8 + 0 }
        END { if (total == 0 || top != total || mod != want) {
                  print "FAIL: yappi: entry " top ", <module> " mod " (its calls say " want "), total " total; exit 1 }
              print "yappi: the entry at the total " total ", the script'"'"'s <module> " mod }' || status=1
fi
[ "$status" -eq 0 ] && echo "profile model: $n files, inclusive costs as KCachegrind's outside cycles, none above the total"
exit "$status"
