#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compat.py: what the reference readers read in each profile libcgw writes.

Usage: compat.py --check README | --update README  LIST
LIST has a line "NAME<TAB>PATH<TAB>WHAT[<TAB>TOTALS]" a profile, TOTALS
the written totals ("c1,c2"), which libcgw's reader must read.  For each profile,
libcgw's reader (tests/cgnorm) says what was written; KCachegrind's loader
(kcgdump), callgrind_annotate, gprof2dot's parser and speedscope's importer
(../shared/oracles) read it, and a cell is a check mark only where their
totals, self costs and call edges are the numbers written:
  KCachegrind         totals, self cost of each (object, file, function),
                      call edges with counts and inclusive costs, all events
  callgrind_annotate  PROGRAM TOTALS and the self cost of each
                      file:function (the source file of the cost), all events
  gprof2dot           its total, each function's self cost and calls (count,
                      inclusive), the first event (the one it reads)
  speedscope          each event's sum of self weights, no NaN, no error, and
                      the total of its flame graph within 0.1% of the file's
The table goes between the markers in README (--update), or must already
be there (--check: exit 1 when it is stale).  Paths come from the
environment: CGW_BUILDDIR, CGW_ORACLES, KCGDUMP, CALLGRIND_ANNOTATE.
"""
import atexit
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import threading

BEGIN = '<!-- compat-table: written by tests/compat.py (make compat-table); do not edit -->'
END = '<!-- end of compat-table -->'
READERS = ['KCachegrind', 'callgrind_annotate', 'gprof2dot', 'speedscope']


def run(args, cwd=None):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors='replace')
    return proc.returncode, proc.stdout, proc.stderr


_dump = {}


def gprof2dot_dump(path):
    """What `python3 dump.py PATH` (gprof2dot's parser, ../shared/oracles)
    prints, run here: gprof2dot imported once, not in a process a file.
    In a thread of its own, for a stack as deep as a new process's; where
    it still runs out of stack here, in a process of its own."""
    dump = os.path.join(os.environ['CGW_ORACLES'], 'gprof2dot', 'dump.py')
    if dump not in _dump:
        with open(dump, encoding='utf-8') as f:
            _dump[dump] = compile(f.read(), dump, 'exec')
    out = io.StringIO()
    def main():
        argv, path0 = sys.argv, list(sys.path)
        sys.argv = [dump, path]
        try:
            with contextlib.redirect_stdout(out):
                exec(_dump[dump], {'__name__': '__main__', '__file__': dump})
        except SystemExit:
            pass
        except BaseException as e:  # dump.py would die: its stack on stderr
            print('gprof2dot_dump %s: %r' % (path, e), file=sys.stderr)
        finally:
            sys.argv = argv
            sys.path[:] = path0
    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if 'RecursionError' in out.getvalue():
        return run([sys.executable, dump, path])[1]
    return out.getvalue()


_speedscope = []


def speedscope_run(args):
    """What `node speedscope-callgrind.js ARGS...` (speedscope's importer,
    ../shared/oracles) prints, from one node kept for all the files
    (tests/speedscope-server.js); where that node dies, from a node of its
    own."""
    script = os.path.join(os.environ['CGW_ORACLES'], 'speedscope', 'speedscope-callgrind.js')
    if not _speedscope or _speedscope[0].poll() is not None:
        server = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'speedscope-server.js')
        _speedscope[:] = [subprocess.Popen(['node', server, script], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)]
    proc = _speedscope[0]
    out = b''
    try:
        proc.stdin.write((json.dumps(args) + '\n').encode())
        proc.stdin.flush()
        while not out.endswith(b'\0'):
            got = proc.stdout.read1(1 << 16)
            if not got:
                break
            out += got
    except OSError:
        pass
    if not out.endswith(b'\0'):
        proc.kill()
        proc.wait()
        return run(['node', script] + list(args))[1]
    return out[:-1].decode(errors='replace')


@atexit.register
def _speedscope_end():
    for proc in _speedscope:
        proc.stdin.close()
        proc.wait()


def costs(text):
    return [int(c) for c in text.split(',')] if text else []


_truth = {}


def truth(path):
    """What libcgw's reader reads: T, F, C lines, and S by source file
    (read once a path: table() and row() both ask)."""
    if path not in _truth:
        _truth[path] = _truth_read(path)
    return _truth[path]


def _truth_read(path):
    cgnorm = os.path.join(os.environ['CGW_BUILDDIR'], 'tests', 'cgnorm')
    _, norm, _ = run([cgnorm, path])
    _, by_source, _ = run([cgnorm, '--source', path])
    return norm, by_source


def kcachegrind(path, norm):
    env = dict(os.environ, KCGNORM='1')
    proc = subprocess.run([os.environ['KCGDUMP'], path], capture_output=True, text=True,
                          errors='replace', env=env)
    lines = [l for l in proc.stdout.splitlines() if l[:2] in ('T\t', 'F\t', 'C\t')]
    if proc.returncode != 0 or not lines:
        return 'refuses the file'
    return None if '\n'.join(lines) + '\n' == norm else 'other numbers'


def annotate_numbers(out):
    """PROGRAM TOTALS and {file:function: costs} from callgrind_annotate."""
    shown = re.search(r'^Events shown:\s+(.*)$', out, re.M)
    nev = len(shown.group(1).split()) if shown else 1
    cell = r'(?:[\d,]+|\.)(?:\s*\(\s*[\d.]+%\))?\s+'
    line = re.compile(r'^\s*((?:%s){%d})(\S.*)$' % (cell, nev))
    totals, fns = None, {}
    for text in out.split('file:function', 1)[-1].split('\n\n', 1)[0].splitlines() + \
            [l for l in out.splitlines() if 'PROGRAM TOTALS' in l]:
        m = line.match(text)
        if not m:
            continue
        values = [0 if v == '.' else int(v.replace(',', ''))
                  for v in re.findall(r'([\d,]+|\.)(?:\s*\(\s*[\d.]+%\))?', m.group(1))]
        name = re.sub(r'\s+\[.*\]$', '', m.group(2)).strip()
        if name.startswith('PROGRAM TOTALS'):
            totals = values
        elif ':' in name:
            fns[name] = [a + b for a, b in zip(fns.get(name, [0] * nev), values)]
    return totals, fns


def callgrind_annotate(path, norm, by_source):
    tool = os.environ.get('CALLGRIND_ANNOTATE') or 'callgrind_annotate'
    rc, out, _ = run([tool, '--inclusive=no', '--threshold=100', '--auto=no', path],
                     cwd=os.path.dirname(path))
    if rc != 0:
        return 'dies'
    totals, fns = annotate_numbers(out)
    want_totals = costs(re.search(r'^T\t(.*)$', norm, re.M).group(1))
    want = {}
    # it runs in the file's folder, which it strips from the cost's file
    # names, as it does wherever it runs
    here = os.path.dirname(path) + '/'
    for m in re.finditer(r'^S\t(.*)\t(.*)\t(.*)$', by_source, re.M):
        source = m.group(1)[len(here):] if m.group(1).startswith(here) else m.group(1)
        key = '%s:%s' % (source, m.group(2))
        want[key] = [a + b for a, b in zip(want.get(key, [0] * len(want_totals)),
                                           costs(m.group(3)))]
    want = {k: v for k, v in want.items() if any(v)}
    if totals != want_totals:
        return 'other totals'
    if fns != want:
        return 'other self costs'
    return callers_lost(tool, path, norm)


def callers_lost(tool, path, norm):
    """'lost callers' when callgrind_annotate's caller tree shows no caller
    for a function of a cost that the file has calls into (a cfi= of a
    file in the folder it runs in, which it strips from fl= names only);
    else None."""
    rc, out, _ = run([tool, '--inclusive=no', '--threshold=100', '--auto=no',
                      '--tree=caller', path], cwd=os.path.dirname(path))
    if rc != 0:
        return 'dies'
    with_callers, seen_caller = set(), False
    for line in out.split('file:function', 1)[-1].splitlines():
        if re.match(r'^\s*[\d,.]+.*\s<\s', line):
            seen_caller = True
        elif re.match(r'^\s*[\d,.]+.*\s\*\s', line):
            if seen_caller:
                with_callers.add(re.sub(r'\s+\[.*\]$', '', line.split('*', 1)[1]).strip())
            seen_caller = False
        elif not line.strip():
            seen_caller = False
    here = os.path.dirname(path) + '/'
    def shown(fields):
        source = fields[1][len(here):] if fields[1].startswith(here) else fields[1]
        return '%s:%s' % (source, fields[2])
    costly = {shown(l.split('\t')[1:4]) for l in norm.splitlines()
              if l.startswith('F\t') and any(costs(l.split('\t')[4]))}
    called = {shown(l.split('\t')[5:8]) for l in norm.splitlines() if l.startswith('C\t')}
    return 'lost callers' if (called & costly) - with_callers else None


def gprof2dot(path, norm):
    out = gprof2dot_dump(path)
    try:
        got = json.loads(out)
    except ValueError:
        return 'fails'
    if 'exception' in got:
        return 'throws (%s)' % got['exception'].split(':')[0]
    total = costs(re.search(r'^T\t(.*)$', norm, re.M).group(1))[0]
    selfs, calls = {}, {}
    for m in re.finditer(r'^F\t.*\t.*\t(.*)\t(.*)$', norm, re.M):
        selfs[m.group(1)] = selfs.get(m.group(1), 0) + costs(m.group(2))[0]
    for m in re.finditer(r'^C\t.*\t.*\t(.*)\t->\t.*\t.*\t(.*)\t(\d+)\t(.*)$', norm, re.M):
        key = (m.group(1), m.group(2))
        count, incl = calls.get(key, (0, 0))
        calls[key] = (count + int(m.group(3)), incl + costs(m.group(4))[0])
    got_selfs = {f['name']: f['self'] for f in got['functions']}
    got_calls = {(f['name'], c[0]): (c[1], c[2]) for f in got['functions'] for c in f['calls']}
    if got['total'] != total:
        return 'other total'
    if got_selfs != selfs:
        return 'other self costs'
    return None if got_calls == calls else 'other calls'


def speedscope(path, norm):
    out = speedscope_run([path, '1000', 'parse'])
    try:
        got = json.loads(out)
    except ValueError:
        return 'fails'
    if 'error' in got or 'parsed' not in got:
        return 'throws'
    total = costs(re.search(r'^T\t(.*)$', norm, re.M).group(1))
    if any(p['nan'] for p in got['parsed']):
        return 'NaN costs'
    sums = [p['selfSum'] for p in got['parsed']]
    if sums != total:
        return 'other numbers'
    # the flame graph it draws, from the functions no call reaches
    out = speedscope_run([path, '1'])
    try:
        shown = [p['totalWeight'] for p in json.loads(out).get('profiles', [])]
    except ValueError:
        return 'fails'
    if len(shown) != len(total) or any(s is None or abs(s - t) > t // 1000
                                       for s, t in zip(shown, total)):
        return 'other flame graph total'
    return None


def row(path):
    norm, by_source = truth(path)
    return [kcachegrind(path, norm), callgrind_annotate(path, norm, by_source),
            gprof2dot(path, norm), speedscope(path, norm)]


def versions():
    tool = os.environ.get('CALLGRIND_ANNOTATE') or 'callgrind_annotate'
    _, ca_out, ca_err = run([tool, '--version'])
    ca = (ca_out + ca_err).strip()
    with open(os.path.join(os.environ['CGW_ORACLES'], 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    kcg = re.search(r'kcachegrind (v[\d.]+)', readme)
    ss = re.search(r'speedscope ([\d.]+)', readme)
    g2d = re.search(r'gprof2dot \(([\d-]+)\)', readme)
    return ('KCachegrind %s (its loader), callgrind_annotate %s, gprof2dot %s, speedscope %s'
            % (kcg.group(1) if kcg else '?', ca.strip().split('-')[-1] or '?',
               g2d.group(1) if g2d else '?', ss.group(1) if ss else '?'))


def table(profiles):
    out = [BEGIN, '',
           'Measured by `tests/test-compat.sh` with %s: a check mark where the reader '
           'reads the totals, self costs and call edges that were written, else what '
           'it does.' % versions(), '',
           '| profile | ' + ' | '.join(READERS) + ' |',
           '|---|' + '---|' * len(READERS)]
    broken = []
    for name, path, what, *written in profiles:
        if written and truth(path)[0].find('T\t%s\n' % written[0]) < 0:
            broken.append(name + " (libcgw's reader)")
        cells = row(path)
        out.append('| %s | %s |' % (what, ' | '.join('✔' if c is None else '✗ ' + c
                                                     for c in cells)))
        if name == 'default' and any(cells):
            broken.append(name)
    out += ['', END]
    return '\n'.join(out) + '\n', broken


def main():
    mode, readme, listing = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(listing, encoding='utf-8') as f:
        profiles = [l.rstrip('\n').split('\t') for l in f if l.strip()]
    text, broken = table(profiles)
    with open(readme, encoding='utf-8') as f:
        doc = f.read()
    start, stop = doc.find(BEGIN), doc.find(END)
    if start < 0 or stop < 0:
        sys.exit('compat.py: no compat-table markers in %s' % readme)
    current = doc[start:stop + len(END) + 1]
    sys.stdout.write(text)
    if broken:
        print('FAIL: misread: %s' % ', '.join(broken))
        return 1
    if mode == '--update':
        with open(readme, 'w', encoding='utf-8') as f:
            f.write(doc[:start] + text + doc[stop + len(END) + 1:])
        return 0
    if current != text:
        print('FAIL: the table in %s is stale; run make compat-table' % readme)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
