# SPDX-License-Identifier: MIT
"""tests/test_pstats.py: Python profiles as Callgrind ones (cgw.pstats,
cgw.cprofile, examples/sampler.py) on the library of the build (run by
tests/test-python.sh: CGW_LIBRARY, PYTHONPATH, CGVERIFY, CGW_SRCDIR come
from there).  cgw.pstats is compared with pyprof2calltree, the converter
KCachegrind users know, on a pstats file made here."""
import glob
import importlib
import marshal
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import cgw
import cgw.pstats

CGVERIFY = os.path.abspath(os.environ.get("CGVERIFY", "cgverify"))
SRCDIR = os.path.abspath(os.environ.get("CGW_SRCDIR",
                                        os.path.join(os.path.dirname(__file__), "..")))
# the children find the same package and library from any folder
ENV = dict(os.environ,
           PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(cgw.__file__))),
           CGW_LIBRARY=os.path.abspath(cgw._lib.lib._name))

# A small program of fixed shape: recursion (fib calls itself 464
# times), two functions of one name in one file (A.__init__, B.__init__),
# a lambda called by a built-in, a list comprehension.
PROG = """\
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


class A:
    def __init__(self):
        self.x = [i * i for i in range(100)]


class B:
    def __init__(self):
        self.y = sorted(range(50), key=lambda v: -v)


def main():
    for _ in range(3):
        A()
        B()
    return fib(12)


if __name__ == "__main__":
    print(sys.argv[1:], main())
    sys.exit(int(sys.argv[1]) if sys.argv[1:] else 0)
"""


def run(args, **kw):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=ENV, **kw)
    return p.returncode, p.stdout, p.stderr


def cgverify(path):
    """cgverify's exit status on path and the codes of its findings."""
    p = subprocess.run([CGVERIFY, "--all", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, re.findall(r"\[([a-z0-9-]+)\]$", p.stdout, re.M), p.stdout


def pyprof2calltree():
    """How to run pyprof2calltree: ("module", convert) when this Python
    imports it, ("command", path) when only its command is found (its
    own Python reads the pstats file), else None."""
    try:
        mod = importlib.import_module("pyprof2calltree")
        return "module", mod.convert
    except ImportError:
        pass
    path = shutil.which("pyprof2calltree")
    return ("command", path) if path else None


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-pstats-")
        self.dir = self.tmp.name
        self.prog = self.path("prog.py")
        with open(self.prog, "w") as f:
            f.write(PROG)

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def cprofile(self, name="prog.pstats"):
        """The pstats file of PROG run by python3 -m cProfile -o."""
        out = self.path(name)
        rc, _, err = run([sys.executable, "-m", "cProfile", "-o", out, self.prog], cwd=self.dir)
        self.assertEqual(rc, 0, err)
        return out


def ns_round(x):
    return round(x * 1e9)


def ns_trunc(x):
    return int(x * 1e9)


class TestPyprof2calltree(Base):
    def expected(self, st, name, ns):
        """The functions {(None, file, name): [self]} and edges {(caller,
        callee): (count, [inclusive])} that the pstats dict st gives,
        names by name(key), times by ns(seconds)."""
        fn = {k: (None, k[0], name(k)) for k in st}
        functions = {fn[k]: [ns(v[2])] for k, v in st.items()}
        edges = {}
        for callee, v in st.items():
            for caller, (nc, cc, tt, ct) in v[4].items():
                edges[(fn[caller], fn[callee])] = (nc, [ns(ct)])
        return functions, edges

    def convert_both(self, src):
        """src converted by python3 -m cgw.pstats and by pyprof2calltree:
        the two profiles' paths and how pyprof2calltree ran; skipped
        without pyprof2calltree."""
        how = pyprof2calltree()
        if how is None:
            self.skipTest("pyprof2calltree is neither importable by %s nor a command"
                          % sys.executable)
        mine, theirs = src + ".cgw", src + ".pyprof2calltree"
        rc, _, err = run([sys.executable, "-m", "cgw.pstats", src, "-o", mine])
        self.assertEqual((rc, err), (0, ""))
        if how[0] == "module":
            how[1](pstats.Stats(src), theirs)
        else:
            rc, _, err = run([how[1], "-i", src, "-o", theirs])
            if rc != 0:
                self.skipTest("the pyprof2calltree command (%s) cannot read the pstats file "
                              "of %s: %s" % (how[1], sys.executable, err.strip()[-300:]))
        return mine, theirs, how[0]

    def test_rounding(self):
        # Times that a float holds a little short of their nanoseconds:
        # 15e-9 as 15 / 1e9 is 14.999999999999998 ns.  A pstats file is
        # the marshal of its stats dict.
        t = {n: n / 1e9 for n in (15, 60, 75)}
        self.assertEqual([int(x * 1e9) for x in t.values()], [14, 59, 75])
        main, f = ("s.py", 1, "main"), ("s.py", 5, "f")
        st = {main: (1, 1, t[15], t[75], {}),
              f: (2, 2, t[60], t[60], {main: (2, 2, t[60], t[60])})}
        src = self.path("s.pstats")
        with open(src, "wb") as fp:
            marshal.dump(st, fp)
        mine, theirs, _ = self.convert_both(src)
        s_mine, s_theirs = cgw.summary(mine), cgw.summary(theirs)
        m, g = (None, "s.py", "main s.py:1"), (None, "s.py", "f s.py:5")
        self.assertEqual(s_mine.functions, {m: [15], g: [60]})
        self.assertEqual(s_mine.edges, {(m, g): (2, [60])})
        self.assertEqual(s_mine.totals, [75])
        # pyprof2calltree truncates: a nanosecond short in each of f's
        # and main's self times, the call's inclusive time, the totals
        # (its summary: is the largest inclusive time, main's 75 ns)
        m, g = (None, "s.py", "main"), (None, "s.py", "f")
        self.assertEqual(s_theirs.functions, {m: [14], g: [59]})
        self.assertEqual(s_theirs.edges, {(m, g): (2, [59])})
        self.assertEqual(s_theirs.totals, [73])
        self.assertEqual([r.summary for r in cgw.read(theirs) if isinstance(r, cgw.PartEnd)],
                         [(75,)])

    def test_same_as_pyprof2calltree(self):
        src = self.cprofile()
        mine, theirs, how = self.convert_both(src)
        st = pstats.Stats(src).stats

        # cProfile's times are whole nanoseconds (its perf counter's)
        # times 1e-9 in a float: each time of the file is a whole number
        # of ns but for the float's error.  So rounding, as cgw.pstats
        # does, gives the ns measured, and truncating, as pyprof2calltree
        # does (int(t * 1e9)), gives a nanosecond less where the float
        # falls short (n * 1e-9 never does, but a sum of them, or n / 1e9,
        # can: test_rounding).  cgw.pstats is right.
        times = [v[2] for v in st.values()] + [v[3] for v in st.values()]
        times += [c[3] for v in st.values() for c in v[4].values()]
        for t in times:
            self.assertLess(abs(t * 1e9 - round(t * 1e9)), 1e-3, t)

        # pyprof2calltree's names: func, or "func:line" where a file has
        # two functions of that name; cgw.pstats's: "func file:line"
        # (built-ins: their pstats name), unique across files too
        def their_name(k):
            same = [o for o in st if (o[0], o[2]) == (k[0], k[2])]
            return k[2] if len(same) == 1 else "%s:%d" % (k[2], k[1])

        s_mine, s_theirs = cgw.summary(mine), cgw.summary(theirs)
        self.assertEqual(s_mine.events, ["ns"])
        self.assertEqual(s_theirs.events, ["ns"])
        self.assertEqual(s_mine.diagnostics, [])

        # the same functions with the same self costs, and
        # the same call edges with the same counts and inclusive costs,
        # each as pstats gives it: rounded in cgw.pstats's, truncated in
        # pyprof2calltree's
        want_f, want_e = self.expected(st, cgw.pstats.function_name, ns_round)
        self.assertEqual(s_mine.functions, want_f)
        self.assertEqual(s_mine.edges, want_e)
        their_f, their_e = self.expected(st, their_name, ns_trunc)
        self.assertEqual(s_theirs.functions, their_f)
        self.assertEqual(s_theirs.edges, their_e)
        names = sorted(k[2] for k in s_theirs.functions)
        self.assertIn("__init__:9", names)
        self.assertIn("__init__:14", names)
        fib = (None, self.prog, "fib %s:4" % self.prog)
        self.assertEqual(s_mine.edges[(fib, fib)][0], 464)

        # the totals: the sum of the self costs in both
        self.assertEqual(s_mine.totals, [sum(ns_round(v[2]) for v in st.values())])
        self.assertEqual(s_theirs.totals, [sum(ns_trunc(v[2]) for v in st.values())])
        # pyprof2calltree also writes a summary: line, of the largest
        # inclusive time (builtins.exec's), which leaves out the time
        # outside it (the self time of the profiler's disable() at least):
        # wrong, the summary of a run is its total.  cgw.pstats writes
        # none (the totals: line is the library's).
        end = [r for r in cgw.read(theirs) if isinstance(r, cgw.PartEnd)][0]
        self.assertEqual(end.summary, (max(ns_trunc(v[3]) for v in st.values()),))
        self.assertLess(end.summary[0], s_theirs.totals[0])
        self.assertEqual([r.summary for r in cgw.read(mine) if isinstance(r, cgw.PartEnd)],
                         [None])

        # every difference is the rounding: at most 1 ns a cost
        f_diff = [s_mine.functions[want][0] - s_theirs.functions[got][0]
                  for want, got in zip(want_f, their_f)]
        e_diff = [s_mine.edges[want][1][0] - s_theirs.edges[got][1][0]
                  for want, got in zip(want_e, their_e)]
        self.assertTrue(set(f_diff + e_diff) <= {0, 1}, (f_diff, e_diff))
        self.assertEqual(s_mine.totals[0] - s_theirs.totals[0], sum(f_diff))

        # cgverify: cgw.pstats's profile is clean; pyprof2calltree's is
        # valid, with warnings of its header (no "# callgrind format"
        # line, no positions: line, an event: line), of its summary and
        # of its calls
        rc, codes, out = cgverify(mine)
        self.assertEqual((rc, codes), (0, []), out)
        rc, codes, out = cgverify(theirs)
        self.assertEqual(rc, 0, out)
        # (its cfl= names the caller's own file by an absolute path,
        # outside the working folder, where callgrind_annotate reads it)
        self.assertEqual(set(codes), {"no-format-line", "no-positions", "nonportable-header",
                                      "summary-low"}, out)
        sys.stderr.write(
            "\n  cgw.pstats vs pyprof2calltree (%s): %d functions, %d edges; totals %d ns "
            "vs %d ns (pyprof2calltree's summary: %d ns); %d of %d self costs and %d of %d "
            "inclusive costs 1 ns apart (truncated by pyprof2calltree) ... "
            % (how, len(want_f), len(want_e), s_mine.totals[0], s_theirs.totals[0],
               end.summary[0], sum(f_diff), len(f_diff), sum(e_diff), len(e_diff)))


class TestCommands(Base):
    def test_pstats_command(self):
        src = self.cprofile()
        # no -o: callgrind.out.NAME beside, in the current folder
        rc, out, err = run([sys.executable, "-m", "cgw.pstats", src], cwd=self.dir)
        self.assertEqual((rc, out, err), (0, "", ""))
        got = self.path("callgrind.out.prog")
        self.assertEqual(cgverify(got)[:2], (0, []))
        # the same as convert() on the Stats, and on the stats dict
        with open(got, "rb") as f:
            data = f.read()
        self.assertEqual(cgw.pstats.convert(pstats.Stats(src)), data)
        self.assertEqual(cgw.pstats.convert(pstats.Stats(src).stats), data)
        # two files add up, as pstats.Stats adds them
        two = self.path("two.out")
        rc, _, err = run([sys.executable, "-m", "cgw.pstats", src, src, "-o", two])
        self.assertEqual(rc, 0, err)
        self.assertEqual(cgw.summary(two).totals, [2 * cgw.summary(got).totals[0]])
        # not a pstats file; a folder that does not exist
        rc, _, err = run([sys.executable, "-m", "cgw.pstats", self.prog, "-o", two])
        self.assertEqual(rc, 1)
        self.assertIn("cannot read %s as pstats" % self.prog, err)
        rc, _, err = run([sys.executable, "-m", "cgw.pstats", src, "-o", "/nonexistent/x"])
        self.assertEqual(rc, 1)
        self.assertIn("cannot write /nonexistent/x: No such file or directory", err)

    def test_negative_times(self):
        # the profile module's calibration can leave a time below 0: it
        # is written as 0 ns (f's self time and the call's inclusive
        # time here), the others as they are
        self.assertEqual([cgw.pstats.ns(x) for x in (-1e-9, -0.4e-9, -0.0, 0.6e-9, 2e-9)],
                         [0, 0, 0, 1, 2])
        main, f = ("s.py", 1, "main"), ("s.py", 5, "f")
        st = {main: (1, 1, 15e-9, 11e-9, {}),
              f: (2, 2, -2e-9, -4e-9, {main: (2, 2, -2e-9, -4e-9)})}
        out = self.path("neg.out")
        with open(out, "wb") as fp:
            fp.write(cgw.pstats.convert(st))
        s = cgw.summary(out)
        m, g = (None, "s.py", "main s.py:1"), (None, "s.py", "f s.py:5")
        self.assertEqual(s.functions, {m: [15], g: [0]})
        self.assertEqual(s.edges, {(m, g): (2, [0])})
        self.assertEqual(s.totals, [15])

    def test_profile_module(self):
        # the profile module's pstats: a count alone for each caller; the
        # callee's inclusive time is shared out by the counts
        import profile
        p = profile.Profile()
        p.runctx("def g():\n    return sum(range(100))\n"
                 "def f(n):\n    return [g() for _ in range(n)]\n"
                 "f(3)\ng()\n", {}, None)
        st = cgw.pstats.stats_dict(p)
        out = self.path("profile.out")
        cgw.pstats.convert(st, out)
        # the shares are an estimate (g's first call is the slow one):
        # a call's inclusive cost may pass its callee's self cost plus its
        # calls, which cgverify says
        rc, codes, text = cgverify(out)
        self.assertEqual(rc, 0, text)
        self.assertTrue(set(codes) <= {"inclusive-excess"}, text)
        s = cgw.summary(out)
        g = ("<string>", 1, "g")
        ct = st[g][3]
        to_g = {k[0][2]: v for k, v in s.edges.items() if k[1][2] == "g <string>:1"}
        self.assertEqual(to_g, {"<listcomp> <string>:4": (3, [cgw.pstats.ns(ct * 3 / 4)]),
                                "<module> <string>:1": (1, [cgw.pstats.ns(ct / 4)])})

    def test_cprofile_command(self):
        # run as python3 -m cProfile runs it: argv, __main__, exit status
        out = self.path("run.out")
        sub = os.path.join(self.dir, "sub")
        os.mkdir(sub)
        rc, stdout, err = run([sys.executable, "-m", "cgw.cprofile", "-o", "run.out",
                               self.prog, "3", "-o", "x"], cwd=self.dir)
        self.assertEqual(rc, 3, err)
        self.assertEqual(stdout, "['3', '-o', 'x'] 144\n")
        rc, codes, text = cgverify(out)
        self.assertEqual((rc, codes), (0, []), text)
        recs = list(cgw.read(out))
        self.assertEqual(recs[0].cmd, "%s 3 -o x" % self.prog)
        s = cgw.summary(out)
        name = cgw.pstats.function_name
        main = (None, self.prog, name((self.prog, 18, "main")))
        fib = (None, self.prog, name((self.prog, 4, "fib")))
        self.assertEqual(s.edges[(main, fib)][0], 1)
        self.assertEqual(s.edges[(fib, fib)][0], 464)
        # the same functions and calls as python3 -m cProfile's pstats
        # converted by cgw.pstats (other times)
        ref = self.path("ref.out")
        src = self.path("ref.pstats")
        rc, _, err = run([sys.executable, "-m", "cProfile", "-o", src, self.prog, "3",
                          "-o", "x"], cwd=self.dir)
        self.assertEqual(rc, 0, err)  # cProfile loses the exit status
        cgw.pstats.convert(pstats.Stats(src), ref)
        r = cgw.summary(ref)
        self.assertEqual(sorted(s.functions), sorted(r.functions))
        self.assertEqual({k: c for k, (c, _) in s.edges.items()},
                         {k: c for k, (c, _) in r.edges.items()})
        # the default name, callgrind.out.<pid> of the pid: line; -m
        rc, _, err = run([sys.executable, "-m", "cgw.cprofile", "-m", "prog"], cwd=self.dir)
        self.assertEqual(rc, 0, err)
        made = glob.glob(self.path("callgrind.out.*"))
        self.assertEqual(len(made), 1, made)
        self.assertEqual(made[0], self.path("callgrind.out.%d" % next(cgw.read(made[0])).pid))
        # valid; speedscope's flame graph is empty (runpy's exec cycle)
        rc, codes, out = cgverify(made[0])
        self.assertEqual((rc, set(codes) - {"flame-total"}), (0, set()), out)
        # an exception: the profile is written, the traceback goes on
        bad = self.path("bad.py")
        with open(bad, "w") as f:
            f.write("def boom():\n    raise KeyError('x')\nboom()\n")
        rc, _, err = run([sys.executable, "-m", "cgw.cprofile", "-o", "bad.out", bad],
                         cwd=self.dir)
        self.assertEqual(rc, 1)
        self.assertIn("KeyError: 'x'", err)
        self.assertIn((None, bad, "boom %s:1" % bad), cgw.summary(self.path("bad.out")).functions)


class TestSampler(Base):
    def test_sampler(self):
        busy = self.path("busy.py")
        with open(busy, "w") as f:
            f.write("import sys\n"
                    "def busy(n):\n"
                    "    t = 0\n"
                    "    for i in range(n):\n"
                    "        t += i * i % 7\n"
                    "    return t\n"
                    "def light(n):\n"
                    "    return [i for i in range(n)]\n"
                    "def main():\n"
                    "    for _ in range(int(sys.argv[1])):\n"
                    "        busy(200000)\n"
                    "        light(20000)\n"
                    "main()\n")
        out = self.path("sampled.out")
        rc, _, err = run([sys.executable, os.path.join(SRCDIR, "examples", "sampler.py"),
                          "-o", out, busy, "20"], cwd=self.dir)
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, r"^sampler: \d+ samples of \d+ stacks in ")
        rc, codes, text = cgverify(out)
        self.assertEqual((rc, codes), (0, []), text)
        s = cgw.summary(out)
        self.assertEqual(s.events, ["Samples"])
        self.assertGreater(s.totals[0], 10, err)
        top = max(s.functions, key=lambda k: s.functions[k][0])
        self.assertEqual(top, (None, busy, "busy"), s.functions)
        # the stacks are the script's, root first: <module> -> main -> busy
        # (calls= counts the distinct stacks through a call: a stack a
        # line the frames were at)
        main, b = (None, busy, "main"), (None, busy, "busy")
        self.assertIn(((None, busy, "<module>"), main), s.edges)
        self.assertGreaterEqual(s.edges[(main, b)][1][0], s.functions[b][0])


if __name__ == "__main__":
    unittest.main()
