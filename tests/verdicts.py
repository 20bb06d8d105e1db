#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""verdicts.py: how often cgverify --strict's per-reader verdicts agree
with what the readers' own code reads (tests/compat.py's oracles:
KCachegrind's loader, callgrind_annotate, gprof2dot's parser, speedscope's
importer).

Usage: verdicts.py --check|--update|--partial README DIR FILE...

DIR receives one made-up profile for each kind of finding: a small
profile with one thing changed (FINDING.out), beside the unchanged one
(base.out, the near twin of all of them).  For each, the readers that
cgw_diag_readers() names for the finding must be exactly those that the
oracles show misreading it, and the twin must read right in all four.
Each made-up profile a reader misreads is then recoded for it
(cgrecode --for=READER): the reader must read the output right, or
cgrecode must say that it cannot be repaired (or refuse it, as the
writer does a name that reader rejects).
Then every file (those and FILE..., real writers' files) is judged by
cgverify --strict --json and by the oracles; the share of (file, reader)
pairs that agree goes into README's table (--update), which must be the
one measured (--check: exit 1 when it is stale; --partial: not compared,
where not every file it counts could be made).  Paths come from the
environment, as for compat.py.
"""
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compat  # noqa: E402  (the oracles)

BEGIN = '<!-- verdict-table: written by tests/verdicts.py (make verdict-table); do not edit -->'
END = '<!-- end of verdict-table -->'
READERS = ['kcachegrind', 'callgrind_annotate', 'gprof2dot', 'speedscope']


def made_up(folder):
    """The made-up profiles: {finding: text} ('base': the twin)."""
    HEAD = "# callgrind format\nversion: 1\ncreator: verdicts\npositions: line\nevents: Ir Dr\n\n"
    BODY = ("fl=(1) a.c\nfn=(1) main\n1 10 2\n2 5 1\ncfn=(2) work\ncalls=3 20\n3 30 6\n"
            "cfl=(2) b.c\ncfn=(3) helper\ncalls=1 40\n4 8 2\n\nfl=(1)\nfn=(2)\n20 30 6\n\n"
            "fl=(2)\nfn=(3)\n40 8 2\n\n")
    TAIL = "totals: 53 11\n"
    base = HEAD + BODY + TAIL
    def sub(old, new, text=base, count=1):
        assert old in text, old
        return text.replace(old, new, count)
    v = {}
    v['base'] = base
    v['carriage-return'] = base.replace('\n', '\r\n')
    v['tab'] = sub('1 10 2\n', '1\t10 2\n')
    v['blank'] = sub('1 10 2\n', '1 10 2 \n')
    v['key-without-space'] = sub('events: Ir Dr', 'events:Ir Dr')
    def repositioned(header, lines):
        # base with the positions: line header and the lines with a
        # position (its eight, in order) given in another form
        text = base.replace('positions: line', header)
        for a, b in zip(['1 10 2\n', '2 5 1\n', 'calls=3 20\n', '3 30 6\n', 'calls=1 40\n',
                         '4 8 2\n', '20 30 6\n', '40 8 2\n'], lines):
            text = text.replace(a, b)
        return text
    v['positions-not-line'] = repositioned('positions: instr line', [
        '0x10 1 10 2\n', '0x14 2 5 1\n', 'calls=3 0x40 20\n', '0x18 3 30 6\n',
        'calls=1 0x80 40\n', '0x1c 4 8 2\n', '0x40 20 30 6\n', '0x80 40 8 2\n'])
    v['no-position-column'] = repositioned('positions:', [
        '10 2\n', '5 1\n', 'calls=3\n', '30 6\n', 'calls=1\n', '8 2\n', '30 6\n', '8 2\n'])
    v['bb-positions'] = base.replace('positions: line', 'positions: bb')
    v['several-parts'] = HEAD + BODY + TAIL + "\npart: 2\npositions: line\nevents: Ir Dr\n\n" + BODY + TAIL
    v['few-costs'] = sub('2 5 1\n', '2 5\n').replace('totals: 53 11', 'totals: 53 10')
    v['hex-cost'] = sub('1 10 2\n', '1 0xa 2\n')
    v['id-defined-twice'] = sub('fl=(1)\nfn=(2)\n', 'fl=(1)\nfn=(2) work\n')
    v['name-blank'] = sub('fl=(2) b.c', 'fl=(2) b.c ')
    v['id-name-blank'] = sub('cfn=(2) work', 'cfn=(2)  work')
    v['calls-zero'] = sub('calls=3 20', 'calls=0 20')
    v['line-in-call'] = sub('calls=3 20\n', 'calls=3 20\n\n')
    v['call-without-cfn'] = sub('cfl=(2) b.c\ncfn=(3) helper\ncalls=1 40\n4 8 2\n', 'cfl=(2) b.c\ncfn=(3) helper\ncalls=1 40\n4 8 2\ncalls=1 40\n5 8 2\n').replace('40 8 2\n', '40 16 4\n').replace('totals: 53 11', 'totals: 61 13')
    v['unclosed-inline'] = sub('4 8 2\n\nfl=(1)\nfn=(2)', '4 8 2\nfi=(3) c.h\n5 1 1\n\nfn=(2)').replace('totals: 53 11', 'totals: 54 12')
    v['nonportable-line'] = sub('2 5 1\n', '2 5 1\njump=1 1\n2\n')
    v['summary-mismatch'] = sub('events: Ir Dr\n', 'events: Ir Dr\nsummary: 99 11\n')
    v['summary-low'] = sub('events: Ir Dr\n', 'events: Ir Dr\nsummary: 50 11\n')
    v['big-value'] = sub('1 10 2\n', '1 9007199254740993 2\n').replace('totals: 53 11', 'totals: 9007199254741036 11')
    v['inline-before-function'] = sub('fl=(1) a.c\nfn=(1) main\n', 'fl=(1) a.c\nfi=(3) c.h\nfn=(1) main\n')
    v['invalid-utf8'] = sub('fn=(1) main', 'fn=(1) ma\xffin')
    v['empty-name'] = base.replace('cfl=(2) b.c', 'cfl=').replace('fl=(2)\nfn=(3)', 'fl=\nfn=(3)')
    v['hex-id'] = sub('cfn=(2) work', 'cfn=(0x2) work').replace('fl=(1)\nfn=(2)\n', 'fl=(1)\nfn=(0x2)\n')
    v['ob-in-function'] = sub('fl=(1)\nfn=(2)\n20 30 6\n', 'fl=(1)\nfn=(2)\nob=x.so\n20 30 6\n')
    v['big-position'] = sub('2 5 1\n', '4294967297 5 1\n')
    v['cfi-same-file'] = sub('cfn=(2) work', 'cfl=(1)\ncfn=(2) work')
    v['definition-only'] = sub('fl=(1) a.c\nfn=(1) main\n', 'fl=(1) a.c\nfl=(2) b.c\nfn=(1) main\n\nfl=(1)\nfn=(1)\n').replace('cfl=(2) b.c\n', 'cfl=(2)\n')
    v['hex-step'] = sub('2 5 1\n', '+0x1 5 1\n')
    v['jump-target'] = sub('2 5 1\n', '2 5 1\njfn=(2)\njump=1 20\n2\n')
    # Cachegrind ends events: in a space: speedscope adds an event ""
    v['events-blank'] = sub('events: Ir Dr\n', 'events: Ir Dr \n')
    # main again, in another folder's a.c: KCachegrind takes both for one
    v['basename-clash'] = sub('fl=(2)\nfn=(3)\n40 8 2\n', 'fl=(2)\nfn=(3)\n40 8 2\n\n'
                              'fl=(3) lib/a.c\nfn=(1)\n50 1 1\n').replace('totals: 53 11',
                                                                         'totals: 54 12')
    # work calls main back: every function is called, and speedscope,
    # which draws from the functions that no call reaches, draws nothing
    v['flame-total'] = sub('fl=(1)\nfn=(2)\n20 30 6\n', 'fl=(1)\nfn=(2)\n20 30 6\ncfn=(1)\n'
                           'calls=1 1\n21 5 1\n')
    # cfi= of the caller's own file: callgrind_annotate, run in the
    # source folder, strips that folder from fl= names only
    here = os.path.abspath(folder)
    v['cfi-same-file'] = base.replace('fl=(1) a.c', 'fl=(1) %s/a.c' % here, 1).replace(
        'cfn=(2) work', 'cfi=(1)\ncfn=(2) work', 1)
    # helper is in b.c, named by its absolute path in the folder
    v['absolute-cfi'] = base.replace('cfl=(2) b.c', 'cfl=(2) %s/b.c' % here, 1)
    return v


def write_made_up(folder):
    os.makedirs(folder, exist_ok=True)
    names = []
    for name, text in made_up(folder).items():
        path = os.path.join(folder, name + '.out')
        with open(path, 'wb') as f:
            f.write(text.encode('latin-1'))
        names.append((name, path))
    path = os.path.join(folder, 'gzip-input.out')
    with open(path, 'wb') as f:
        f.write(gzip.compress(made_up(folder)['base'].encode(), mtime=0))
    names.append(('gzip-input', path))
    return names


# what verdict() and judge() found, by path: the three passes over the
# made-up profiles ask again of files that do not change
_verdicts, _judged = {}, {}


def verdict(path):
    """cgverify --strict's verdict per reader (True: opens right), and
    the codes of its diagnostics."""
    if path not in _verdicts:
        _verdicts[path] = verdict_now(path)
    return _verdicts[path]


def verdict_now(path):
    tool = os.path.join(os.environ['CGW_BUILDDIR'], 'tools', 'cgverify')
    # where the oracles run callgrind_annotate (cfi-same-file)
    _, out, _ = compat.run([tool, '--strict', '--json', os.path.abspath(path)],
                           cwd=os.path.dirname(os.path.abspath(path)))
    got = json.loads(out)['files'][0]
    return ([got['readers'][r]['opens_right'] for r in READERS],
            sorted({d['code'] for d in got['diagnostics']}))


def judge(path):
    """[(reader, oracle's word or None, verdict opens right)]."""
    if path not in _judged:
        _judged[path] = judge_now(path)
    return _judged[path]


def judge_now(path):
    try:
        row = compat.row(path)
    except Exception as e:  # an oracle that cannot say: a misreading
        row = ['fails (%s)' % e] * len(READERS)
    right, _ = verdict(path)
    return list(zip(READERS, row, right))


def main():
    mode, readme, folder, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    failed = []
    made = write_made_up(folder)
    for name, path in made:
        _, codes = verdict(path)
        if name != 'base' and name not in codes:
            failed.append('%s.out does not give %s (it gives %s)' % (name, name, codes))
        for reader, word, right in judge(path):
            if (word is None) != right:
                failed.append('%s.out: %s %s, cgverify says it %s' % (
                    name, reader, 'reads it right' if word is None else word,
                    'opens right' if right else 'does not'))
    repaired = cannot = refused = 0
    recoded = folder + '-recoded'
    os.makedirs(recoded, exist_ok=True)
    for name, path in made:
        for reader, word, _ in judge(path):
            if word is None:
                continue
            # aside: KCachegrind would load NAME.out.* beside NAME.out
            # as more parts of it
            out = os.path.join(recoded, '%s-%s.out' % (name, reader))
            tool = os.path.join(os.environ['CGW_BUILDDIR'], 'tools', 'cgrecode')
            rc, _, err = compat.run([tool, '--for=' + reader, path, '-o', out])
            if 'cannot be repaired for ' + reader in err:
                cannot += 1
            elif rc != 0:
                refused += 1
            else:
                after = compat.row(out)[READERS.index(reader)]
                if after is None:
                    repaired += 1
                else:
                    failed.append('cgrecode --for=%s %s.out: %s %s after it, and no word of it'
                                  % (reader, name, reader, after))
    rows, agree, total = [], 0, 0
    for path in [p for _, p in made] + files:
        cells = judge(path)
        ok = sum((w is None) == r for _, w, r in cells)
        agree, total = agree + ok, total + len(cells)
        if ok < len(cells):
            rows.append('| %s | %s |' % (os.path.basename(path), ' | '.join(
                ('✔' if w is None else '✗ ' + w) + ('' if (w is None) == r else
                 ' (cgverify: %s)' % ('opens right' if r else 'misread'))
                for _, w, r in cells)))
    text = '\n'.join([BEGIN, '',
        'Measured by `tests/test-verdicts.sh` with %s, on %d files (the made-up '
        'profile of each kind of finding, its twin, the corpus, tests/data and '
        'Callgrind\'s and Cachegrind\'s files, Valgrind\'s of recursive programs and cgw.cprofile\'s, '
        'pyprof2calltree\'s and yappi\'s of a script with imports, made at test time): '
        '`cgverify --strict` agrees with what the '
        'reader shows in **%d of %d** (file, reader) pairs (%.0f%%).  Where it does not:'
        % (compat.versions(), len(made) + len(files), agree, total, 100.0 * agree / total),
        '', '| file | ' + ' | '.join(READERS) + ' |', '|---|' + '---|' * len(READERS)]
        + rows + ['', END]) + '\n'
    sys.stdout.write(text)
    print('cgrecode --for: %d misreadings repaired (read right after), %d said to be beyond '
          'repair, %d refused by the writer' % (repaired, cannot, refused))
    for f in failed:
        print('FAIL: %s' % f)
    with open(readme, encoding='utf-8') as f:
        doc = f.read()
    start, stop = doc.find(BEGIN), doc.find(END)
    if start < 0 or stop < 0:
        sys.exit('verdicts.py: no verdict-table markers in %s' % readme)
    if mode == '--update':
        with open(readme, 'w', encoding='utf-8') as f:
            f.write(doc[:start] + text + doc[stop + len(END) + 1:])
    elif mode == '--partial':
        print('the table in %s not compared: not every file it counts could be made here' % readme)
    elif doc[start:stop + len(END) + 1] != text:
        print('FAIL: the table in %s is stale; run make verdict-table' % readme)
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
