#!/bin/sh
# SPDX-License-Identifier: MIT
# test-cgreport: the page of a profile (cggen's, and Callgrind's made now
# where valgrind is): written, self-contained (nothing loaded from
# elsewhere), its JSON holding the profile's totals, every function's
# self cost and every call edge as the reader reads them (tests/cgnorm);
# bounded by --top and --threshold, and saying so; 5000 functions'
# paths bounded; errors and usage.  In
# headless Chromium (where it is: ./quickstart installs it), the page
# runs without a console error, a click on a frame zooms, a search finds
# the top function, and a screenshot is kept beside the test's log.
. "${CGW_SRCDIR:-.}/tests/tools.sh"
CGREPORT=${CGREPORT:-./tools/cgreport}
CGDIFF=${CGDIFF:-./tools/cgdiff}
CGNORM=${CGNORM:-./tests/cgnorm}
command -v python3 >/dev/null 2>&1 || { echo "no python3 to read the page's JSON: skipped"; exit 77; }

"$CGGEN" --seed 7 --size 400K -o "$tmp/gen.out" || fail "cggen: exit $?"
set -- "$tmp/gen.out"
if [ -n "${VALGRIND:-}" ] && [ -x "${CGW_BUILDDIR:-.}/tests/subject" ] &&
    "$VALGRIND" -q --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
        "${CGW_BUILDDIR:-.}/tests/subject" >/dev/null 2>&1; then
    set -- "$@" "$tmp/cg.out"
else
    echo "no Callgrind file made (valgrind: ${VALGRIND:-none}): cggen's only"
fi
# a profile of time: python3 -m cgw.cprofile writes the event ns, which
# the page shows in human units (cgw_event_seconds()), exact on demand
lib=${CGW_BUILDDIR:-.}/.libs/libcgw.so ns=""
if [ -f "$lib" ]; then
    printf 'def spin(n):\n    return sum(i * i for i in range(n))\nfor k in range(20):\n    spin(20000)\n' \
        >"$tmp/busy.py"
    CGW_LIBRARY=$lib PYTHONPATH="${CGW_SRCDIR:-.}/python" python3 -m cgw.cprofile \
        -o "$tmp/ns.out" "$tmp/busy.py" >/dev/null || fail "python3 -m cgw.cprofile: exit $?"
    ns="$tmp/ns.out"
    "$CGREPORT" --quiet --top 0 --threshold 0 "$ns" -o "$tmp/ns.html" || fail "cgreport of ns: exit $?"
    python3 - "$tmp/ns.html" "$tmp/gen.out" <<'PY' || fail "the page's seconds a count are not ns's and Ir's"
import json, re, sys
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>',
                         open(sys.argv[1], encoding='utf-8').read(), re.S).group(1))
sys.exit(0 if p['events'] == ['ns'] and p['seconds'] == [1e-9] else 1)
PY
else
    echo "no shared libcgw for python3 -m cgw.cprofile: no profile of time"
fi
for f in "$@"; do
    "$CGREPORT" --top 0 --threshold 0 "$f" -o "$f.html" || fail "cgreport $f: exit $?"
    grep -qi -e 'https\?://' -e '<link' -e ' src=' "$f.html" &&
        fail "$f.html loads something from elsewhere: $(grep -oi -e 'https\?://[^"]*' -e '<link[^>]*' -e ' src=[^ >]*' "$f.html" | head -3)"
    "$CGNORM" "$f" >"$f.norm" || fail "cgnorm $f: exit $?"
    python3 - "$f.html" "$f.norm" <<'PY' || fail "$f: the page says other numbers than the profile"
import json, re, sys
page, norm = open(sys.argv[1], encoding='utf-8').read(), open(sys.argv[2], encoding='utf-8')
m = re.search(r'<script id="profile" type="application/json">(.*?)</script>', page, re.S)
p = json.loads(m.group(1))
want_f, want_c, total = {}, {}, None
def z(s):  # no object or file: '' in the page, '???' in cgnorm's lines
    return '' if s in ('', '???') else s
for line in norm:
    f = line.rstrip('\n').split('\t')
    if f[0] == 'T':
        total = [int(x) for x in f[1].split(',')]
    elif f[0] == 'F':
        want_f[(z(f[1]), z(f[2]), f[3])] = [int(x) for x in f[4].split(',')]
    elif f[0] == 'C':
        want_c[((z(f[1]), z(f[2]), f[3]), (z(f[5]), z(f[6]), f[7]))] = \
            (int(f[8]), [int(x) for x in f[9].split(',')])
bad = []
if p['totals'] != total:
    bad.append('totals %s, not %s' % (p['totals'], total))
fns = {(z(fn[2]), z(fn[1]), fn[0]): fn for fn in p['fns']}
for key, self in want_f.items():
    got = fns.get(key)
    if got is None:
        bad.append('no function %s' % (key,))
    elif got[3] != self:
        bad.append('%s: self %s, not %s' % (key, got[3], self))
if p['shown'] != p['functions'] or len(p['fns']) != p['functions']:
    bad.append('--top 0: %d of %d shown' % (p['shown'], p['functions']))
def name(i):
    f = p['fns'][i]
    return (z(f[2]), z(f[1]), f[0])
edges = {(name(e[0]), name(e[1])): (e[2], e[3]) for e in p['edges']}
for key, (count, incl) in want_c.items():
    got = edges.get(key)
    if got is None or got[0] != count or got[1] != incl:
        bad.append('edge %s: %s, not %s' % (key, got, (count, incl)))
# the flame graph: its root is the total of each event (the stacks'
# amounts add up to the self costs)
for e, tree in enumerate(p['flames']):
    if tree[1] != total[e]:
        bad.append('flame graph of %s: %d, not the total %d' % (p['events'][e], tree[1], total[e]))
for b in bad[:10]:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
PY
done

# bounded: --top and --threshold, and the page says what it left out
"$CGREPORT" --top 5 --threshold 5 "$tmp/gen.out" -o "$tmp/small.html" || fail "--top 5: exit $?"
python3 - "$tmp/small.html" <<'PY' || fail "--top 5 --threshold 5: not bounded"
import json, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>', page, re.S).group(1))
def frames(n):
    return 1 + sum(frames(c) for c in n[2])
def smallest(n):
    return min([c[1] for c in n[2]] + [min_c for c in n[2] for min_c in [smallest(c)]] or [n[1]])
ok = p['shown'] < p['functions'] and p['leftOut'] > 0
for e, t in enumerate(p['flames']):
    ok = ok and smallest(t) >= p['totals'][e] * 0.05 - 1
sys.exit(0 if ok else 1)
PY
[ "$(wc -c <"$tmp/small.html")" -lt "$(wc -c <"$tmp/gen.out.html")" ] || fail "--top 5 page not smaller"

# 5000 functions: more paths than stacks can be handed out for (issue
# 50); the callers' shares under 1/65536 of the total merged, a page
"$CGGEN" --seed 7 --size 2M --functions 5000 -o "$tmp/wide.out" || fail "cggen --functions 5000: exit $?"
"$CGREPORT" "$tmp/wide.out" -o "$tmp/wide.html" 2>"$tmp/wide.err" ||
    fail "cgreport of 5000 functions: exit $?: $(head -3 "$tmp/wide.err")"
grep -q '"cut":true' "$tmp/wide.html" || fail "cgreport of 5000 functions: no page, or not cut"

# cgdiff --html: the same page for a difference, OLD's numbers beside
"$CGGEN" --seed 7 --size 400K --functions 220 -o "$tmp/gen2.out" || fail "cggen: exit $?"
"$CGDIFF" --html "$tmp/diff.html" "$tmp/gen.out" "$tmp/gen2.out" >"$tmp/diff.txt" ||
    fail "cgdiff --html: exit $?"
grep -q '^Ir: ' "$tmp/diff.txt" || fail "cgdiff --html: no report: $(head -3 "$tmp/diff.txt")"
# --html -: the page alone on standard output, the report on standard error
"$CGDIFF" --quiet --html - "$tmp/gen.out" "$tmp/gen2.out" >"$tmp/diff-out.html" 2>"$tmp/diff-err.txt" ||
    fail "cgdiff --html -: exit $?"
[ "$(tail -c 8 "$tmp/diff-out.html")" = "</html>" ] || [ "$(tail -n 1 "$tmp/diff-out.html")" = "</html>" ] ||
    fail "cgdiff --html -: the page does not end its output: $(tail -n 2 "$tmp/diff-out.html")"
grep -q '^Ir: ' "$tmp/diff-out.html" && fail "cgdiff --html -: the report is in the page's output"
grep -q '^Ir: ' "$tmp/diff-err.txt" || fail "cgdiff --html -: no report on standard error"
"$CGDIFF" --quiet --html - -o - "$tmp/gen.out" "$tmp/gen2.out" >/dev/null 2>"$tmp/both.err" &&
    fail "cgdiff --html - -o -: both on standard output, accepted"
grep -q 'both write to standard output' "$tmp/both.err" || fail "cgdiff --html - -o -: $(cat "$tmp/both.err")"
"$CGNORM" "$tmp/gen2.out" >"$tmp/gen2.norm" || fail "cgnorm: exit $?"
python3 - "$tmp/diff.html" "$tmp/gen.out.norm" "$tmp/gen2.norm" <<'PY' || fail "cgdiff --html: other numbers"
import json, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>', page, re.S).group(1))
def facts(path):
    t, f = None, {}
    for line in open(path, encoding='utf-8'):
        x = line.rstrip('\n').split('\t')
        if x[0] == 'T':
            t = [int(c) for c in x[1].split(',')]
        elif x[0] == 'F':
            f[x[3]] = f.get(x[3], 0) + int(x[4].split(',')[0])
    return t, f
(ot, of), (nt, nf) = facts(sys.argv[2]), facts(sys.argv[3])
bad = []
if p['oldTotals'] != ot or p['totals'] != nt:
    bad.append('totals %s -> %s, not %s -> %s' % (p['oldTotals'], p['totals'], ot, nt))
old_self, new_self = {}, {}
for fn in p['fns']:
    old_self[fn[0]] = old_self.get(fn[0], 0) + fn[6][0]
    new_self[fn[0]] = new_self.get(fn[0], 0) + fn[3][0]
for name, v in of.items():
    if name in old_self and old_self[name] != v:
        bad.append('%s: old self %d, not %d' % (name, old_self[name], v))
for name, v in nf.items():
    if name in new_self and new_self[name] != v:
        bad.append('%s: self %d, not %d' % (name, new_self[name], v))
gone = [n for n in of if n not in nf]
if any(n not in old_self for n in gone[:50]):
    bad.append('functions of OLD alone missing')
for b in bad[:10]:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
PY

# names that are not UTF-8 (issue 54): the page is UTF-8 all the same,
# its JSON parses, and bad\xff and bad\xfe are two names, each invalid
# byte the text \xNN (a backslash then \\, as tool_esc() writes)
printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 1\ncfn=bad\377\ncalls=1 1\n1 5\ncfn=bad\376\ncalls=1 1\n1 7\ncfn=a\\b\377\ncalls=1 1\n1 3\nfn=bad\377\n1 5\nfn=bad\376\n1 7\nfn=a\\b\377\n1 3\n' \
    >"$tmp/utf.out"
"$CGREPORT" --quiet --top 0 --threshold 0 "$tmp/utf.out" -o "$tmp/utf.html" ||
    fail "cgreport of names not UTF-8: exit $?"
python3 - "$tmp/utf.html" <<'PY' || fail "names not UTF-8: the page is not UTF-8, or they are lost"
import json, re, sys
page = open(sys.argv[1], encoding='utf-8', errors='strict').read()
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>',
                         page, re.S).group(1))
names = sorted(f[0] for f in p['fns'])
print('names:', names)
sys.exit(0 if names == ['a\\\\b\\xff', 'bad\\xfe', 'bad\\xff', 'main'] else 1)
PY
# a chain of 10,000 calls (issue 54: the page went blank at about 6,000,
# its script's stack exhausted): every frame in the page's tree
python3 - "$tmp/deep.out" <<'PY' || fail "python3 could not write the deep profile"
import sys
n = 10000
out = ['# callgrind format', 'events: Ir', 'fl=deep.c']
for i in range(n - 1):
    out += ['fn=f%d' % i, '1 1', 'cfn=f%d' % (i + 1), 'calls=1 1', '1 %d' % (10 ** 6 + n - 2 - i)]
out += ['fn=f%d' % (n - 1), '1 %d' % 10 ** 6]
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
PY
"$CGREPORT" --quiet --threshold 0 "$tmp/deep.out" -o "$tmp/deep.html" ||
    fail "cgreport of a chain of 10,000 calls: exit $?"

# the page's JSON of PAGE: KEY=VALUE lines, for the checks below
page_json() {
    python3 - "$1" <<'PY'
import json, re, sys
p = json.loads(re.search(r'<script id="profile" type="application/json">(.*?)</script>',
                         open(sys.argv[1], encoding='utf-8').read(), re.S).group(1))
print('estimate=%s' % ('true' if p['estimate'] else 'false'))
print('names=%s' % ' '.join(f[0] for f in p['fns']))
print('cyc=%d' % len(p['cyc']))
PY
}
# a root that calls itself (main -> main, main -> leaf): the stacks are
# an estimate and the page says so; the same without the recursion is a
# tree, exact
printf '%s\n' '# callgrind format' 'events: Ir' 'fl=r.c' 'fn=main' '1 10' 'cfn=main' 'calls=3 1' \
    '1 6' 'cfn=leaf' 'calls=1 1' '2 4' 'fn=leaf' '2 4' >"$tmp/selfrec.out"
grep -v -e '^cfn=main' -e '^calls=3' -e '^1 6$' "$tmp/selfrec.out" >"$tmp/tree.out"
for f in selfrec tree; do
    "$CGREPORT" --quiet --top 0 --threshold 0 "$tmp/$f.out" -o "$tmp/$f.html" || fail "cgreport $f: exit $?"
    page_json "$tmp/$f.html" >"$tmp/$f.json" || fail "$f: the page's JSON"
done
grep -q '^estimate=true$' "$tmp/selfrec.json" || fail "a recursive root: the page is not marked an estimate"
grep -q '^estimate=false$' "$tmp/tree.json" || fail "a call tree: the page is marked an estimate"
# functions of equal weight: in the order the profile first names them
# (b, a, c here: neither by name nor the other way round), also in what
# --top keeps
printf '%s\n' '# callgrind format' 'events: Ir' 'fl=e.c' 'fn=b' '1 5' 'fn=a' '2 5' 'fn=c' '3 5' \
    >"$tmp/equal.out"
"$CGREPORT" --quiet --top 0 --threshold 0 "$tmp/equal.out" -o "$tmp/equal.html" || fail "cgreport equal: exit $?"
page_json "$tmp/equal.html" >"$tmp/equal.json" || fail "equal weights: the page's JSON"
grep -q '^names=b a c$' "$tmp/equal.json" || fail "equal weights: $(grep names= "$tmp/equal.json"), not b a c"
"$CGREPORT" --quiet --top 2 --threshold 50 "$tmp/equal.out" -o "$tmp/equal2.html" || fail "--top 2: exit $?"
page_json "$tmp/equal2.html" >"$tmp/equal2.json" || fail "--top 2: the page's JSON"
grep -q '^names=b a$' "$tmp/equal2.json" || fail "equal weights, --top 2: $(grep names= "$tmp/equal2.json"), not b a"
# a later part with other events: refused (the page shows the file's
# own columns), no page written
printf '%s\n' '# callgrind format' 'events: Ir' 'part: 1' 'fl=a.c' 'fn=main' '1 5' \
    'part: 2' 'events: Dr' 'fl=a.c' 'fn=main' '1 7' >"$tmp/otherev.out"
"$CGREPORT" --quiet "$tmp/otherev.out" -o "$tmp/otherev.html" 2>"$tmp/err" &&
    fail "a later part with other events: read, exit 0"
grep -q 'part 2 has other events than the first part' "$tmp/err" ||
    fail "a later part with other events: $(cat "$tmp/err")"
[ -e "$tmp/otherev.html" ] && fail "a later part with other events: a page written"
# cgdiff --html: the page's functions of OLD alone are bounded by its
# --top (cgreport's 2000) as NEW's are: of 2005 gone, the first 2000
python3 - "$tmp/many.out" <<'PY' || fail "python3 could not write the profile of 2005 functions"
import sys
out = ['# callgrind format', 'events: Ir', 'fl=g.c', 'fn=main', '1 1']
for i in range(2005):
    out += ['fn=g%d' % i, '1 1']
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
PY
printf '%s\n' '# callgrind format' 'events: Ir' 'fl=g.c' 'fn=main' '1 1' >"$tmp/one.out"
"$CGDIFF" --quiet --html "$tmp/gone.html" "$tmp/many.out" "$tmp/one.out" >/dev/null ||
    fail "cgdiff --html of 2005 functions gone: exit $?"
page_json "$tmp/gone.html" >"$tmp/gone.json" || fail "the page of 2005 functions gone: its JSON"
[ "$(sed -n 's/^names=//p' "$tmp/gone.json" | wc -w)" -eq 2001 ] ||
    fail "cgdiff --html: $(sed -n 's/^names=//p' "$tmp/gone.json" | wc -w) functions, not main and 2000 gone"
sed -n 's/^names=//p' "$tmp/gone.json" | grep -q '^main g0 .* g1999$' ||
    fail "cgdiff --html: the functions gone are not g0 to g1999"
grep -q '^cyc=2001$' "$tmp/gone.json" || fail "cgdiff --html: $(grep cyc= "$tmp/gone.json") cycle marks, not 2001"

# errors: no profile, usage
printf '\177ELF\2\1\1\0\0\0\0\n' >"$tmp/prog"
exits 1 "binary input" "not a Callgrind profile" "$CGREPORT" "$tmp/prog" -o "$tmp/bad.html"
[ -e "$tmp/bad.html" ] && fail "a page written for an input with errors"
exits 2 "stdin" "reads its input twice" "$CGREPORT" -
usage_error cgreport "$CGREPORT" --threshold 200 "$tmp/gen.out"
usage_error cgreport "$CGREPORT"
help_fits cgreport "$CGREPORT"

# in a real browser
browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
    echo "no chromium: the page is not run in a browser (./quickstart installs chromium)"
    echo "cgreport: pages self-contained, numbers the profile's, bounded"
    exit 0
fi
page="$tmp/gen.out.html"
run_browser() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --no-first-run --user-data-dir="$tmp/chrome" "$@"
}
run_browser --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
    "file://$page#selftest" >"$tmp/dom.html" 2>"$tmp/console.log" || fail "$browser: exit $?: $(tail -5 "$tmp/console.log")"
grep -i 'CONSOLE.*\(error\|uncaught\)\|Uncaught' "$tmp/console.log" &&
    fail "console errors in the page"
python3 - "$tmp/dom.html" <<'PY' || fail "the page in $browser: $(grep -o '<pre id="selftest"[^<]*' "$tmp/dom.html")"
import html, json, re, sys
dom = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', dom, re.S)
s = json.loads(html.unescape(m.group(1)))
print('selftest:', s)
ok = (s['frames'] > 1 and s['rows'] > 1 and s['zoomedOn'] and s['found'] >= 1
      and s['foundName'] == s['top'] and 'Total Ir' in s['totals'] and not s['exactShown']
      and s['exactTotals'] == s['totals'] and s['totalsTitle'] == '')
sys.exit(0 if ok else 1)
PY
# the profile of time: its total in human units, the exact count in the
# title and behind the box "exact counts"; the page's human() gives
# cgw_format_seconds()'s strings (Python's cgw.format_seconds)
if [ -n "$ns" ]; then
    run_browser --virtual-time-budget=5000 --dump-dom "file://$tmp/ns.html#selftest" \
        >"$tmp/ns-self.html" 2>/dev/null || fail "$browser on ns.html: exit $?"
    CGW_LIBRARY=$lib PYTHONPATH="${CGW_SRCDIR:-.}/python" python3 - "$tmp/ns-self.html" "$ns" <<'PY' ||
import html, json, re, sys
import cgw
dom = open(sys.argv[1], encoding='utf-8').read()
s = json.loads(html.unescape(re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', dom, re.S).group(1)))
total = cgw.Profile(sys.argv[2]).totals[0]
exact = '{:,}'.format(total)
bad = []
if not re.fullmatch(r'Total ns: -?[0-9.]+ (ns|us|ms|s)', s['totals']):
    bad.append('total %r not in human units' % s['totals'])
if s['totals'] != 'Total ns: ' + cgw.format_seconds(total * 1e-9):
    bad.append('total %r, not %s' % (s['totals'], cgw.format_seconds(total * 1e-9)))
if exact not in s['totalsTitle']:
    bad.append('title %r without the exact count %s' % (s['totalsTitle'], exact))
if s['exactTotals'] != 'Total ns: ' + exact or not s['exactShown']:
    bad.append('exact counts: %r, not %s' % (s['exactTotals'], exact))
for v, text in s['human']:
    if text != cgw.format_seconds(v):
        bad.append('the page gives %r for %r, cgw_format_seconds %r' % (text, v, cgw.format_seconds(v)))
print('ns page:', s['totals'], '|', s['totalsTitle'])
for b in bad:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
PY
        fail "the page of ns in $browser does not show times in human units"
fi
# the table in the browser shows the profile model's numbers (as
# tests/profile-dump prints them), on issue 50's parser (a cycle: its
# members marked as at most) and on the cggen page
# issue 50's parser (tests/data/mutual-recursion.out: main -> expr <-> term)
cp "${CGW_TEST_DATA:-${CGW_SRCDIR:-.}/tests/data}/mutual-recursion.out" "$tmp/parser.out" || exit 99
"$CGREPORT" --quiet --top 0 --threshold 0 "$tmp/parser.out" -o "$tmp/parser.html" ||
    fail "cgreport of the parser: exit $?"
for f in parser gen.out ${ns:+ns.out}; do
    [ "$f" = ns.out ] && cp "$tmp/ns.html" "$tmp/ns.out.html"
    run_browser --virtual-time-budget=3000 --dump-dom "file://$tmp/$f.html" \
        >"$tmp/$f.dom" 2>/dev/null || fail "$browser on $f.html: exit $?"
    "${CGW_BUILDDIR:-.}/tests/profile-dump" "$tmp/${f%.out}.out" >"$tmp/$f.model" ||
        fail "profile-dump $f"
    python3 - "$tmp/$f.dom" "$tmp/$f.model" <<'PY' || fail "the table of $f.html in $browser is not the model's"
import html, re, sys
dom, model = sys.argv[1:]
want = {}
for line in open(model, encoding='utf-8'):
    x = line.rstrip('\n').split('\t')
    if x[0] == 'F':
        want[(x[3], '' if x[2] == '???' else x[2])] = (int(x[4].split(',')[0]), int(x[5]))
rows = re.findall(r'<tr data-f="\d+"[^>]*>(.*?)</tr>', open(dom, encoding='utf-8').read())
bad, seen = [], 0
for r in rows:
    # a time's cell shows human units, its exact count in the title
    cells = []
    for attrs, text in re.findall(r'<td([^>]*)>(.*?)</td>', r):
        t = re.search(r'title="([^"]*)"', attrs)
        text = html.unescape(text)
        cells.append(('\u2264' if text.startswith('\u2264') else '') + html.unescape(t.group(1))
                     if t else text)
    incl, name, file = cells[2], cells[5], re.sub(r' \[.*\]$', '', cells[6])
    got = (int(incl.lstrip('\u2264').replace(',', '')), incl.startswith('\u2264'))
    w = want.get((name, file))
    if w is None or got != (w[0], w[1] != 0):
        bad.append('%s: %s in the table, the model %s' % (name, incl, w))
    seen += 1
if seen == 0:
    bad.append('no row in the table')
if 'parser' in dom and [re.findall(r'<td class="n">(.*?)</td>', r)[0] for r in rows][:1] != ['main']:
    bad.append('main is not the first row')
for b in bad[:8]:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
PY
done
run_browser --virtual-time-budget=5000 --dump-dom "file://$tmp/diff.html#selftest" \
    >"$tmp/ddom.html" 2>/dev/null || fail "$browser on the difference: exit $?"
grep -q '<pre id="selftest"[^>]*>{[^<]*&quot;zoomedOn&quot;:&quot;[^&]' "$tmp/ddom.html" ||
    grep -q '<pre id="selftest"[^>]*>{[^<]*"zoomedOn":"[^"]' "$tmp/ddom.html" ||
    fail "the difference page in $browser: $(grep -o '<pre id="selftest"[^<]*' "$tmp/ddom.html")"
# the chain of 10,000 calls: no script error, its 10,000 frames drawn
run_browser --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom \
    "file://$tmp/deep.html#selftest" >"$tmp/deep.dom" 2>"$tmp/deep.log" ||
    fail "$browser on the deep page: exit $?"
grep -i 'CONSOLE.*\(error\|uncaught\)\|Uncaught\|call stack' "$tmp/deep.log" &&
    fail "console errors in the page of a chain of 10,000 calls"
python3 - "$tmp/deep.dom" <<'PY' || fail "the page of a chain of 10,000 calls: $(grep -o '<pre id="selftest"[^<]*' "$tmp/deep.dom")"
import html, json, re, sys
m = re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', open(sys.argv[1], encoding='utf-8').read(), re.S)
s = json.loads(html.unescape(m.group(1))) if m and m.group(1) else {}
print('deep page: %s frames, zoomed on %s' % (s.get('frames'), s.get('zoomedOn')))
sys.exit(0 if s.get('frames', 0) >= 10000 and s.get('zoomedOn') == 'f0' else 1)
PY
# names not UTF-8, as the browser shows them: bad\xff and bad\xfe
run_browser --virtual-time-budget=3000 --dump-dom "file://$tmp/utf.html" >"$tmp/utf.dom" \
    2>/dev/null || fail "$browser on utf.html: exit $?"
python3 - "$tmp/utf.dom" <<'PY' || fail "names not UTF-8 in $browser: not shown apart"
import html, re, sys
dom = open(sys.argv[1], encoding='utf-8', errors='strict').read()
cells = [html.unescape(c) for c in re.findall(r'<tr data-f="\d+"[^>]*>.*?<td class="n">(.*?)</td>', dom)]
print('shown:', cells)
sys.exit(0 if sorted(cells) == ['a\\\\b\\xff', 'bad\\xfe', 'bad\\xff', 'main'] else 1)
PY
# functions of equal weight: the table keeps the page's order (b a c),
# sorted down as up
run_browser --virtual-time-budget=3000 --dump-dom "file://$tmp/equal.html" >"$tmp/equal.dom" \
    2>/dev/null || fail "$browser on equal.html: exit $?"
python3 - "$tmp/equal.dom" <<'PY' || fail "equal weights in $browser: not in the page's order"
import re, sys
cells = re.findall(r'<tr data-f="\d+"[^>]*>.*?<td class="n">(.*?)</td>', open(sys.argv[1], encoding='utf-8').read())
print('equal weights shown:', cells)
sys.exit(0 if cells == ['b', 'a', 'c'] else 1)
PY
run_browser --screenshot="${CGW_BUILDDIR:-.}/tests/cgdiff-html-screenshot.png" \
    --window-size=1280,1000 --virtual-time-budget=3000 "file://$tmp/diff.html" >/dev/null 2>&1
shot="${CGW_BUILDDIR:-.}/tests/cgreport-screenshot.png"
run_browser --screenshot="$shot" --window-size=1280,1000 --virtual-time-budget=3000 \
    "file://$page" >/dev/null 2>&1 || fail "$browser --screenshot: exit $?"
[ -s "$shot" ] || fail "no screenshot"
echo "screenshot of the page: $shot"
echo "cgreport: pages self-contained, numbers the profile's, bounded, and run in $browser"
