# SPDX-License-Identifier: MIT
"""tests/test_cgw.py: the Python package cgw on the library of the build
(run by tests/test-python.sh: CGW_LIBRARY, PYTHONPATH, CGVERIFY and
CGMERGE come from there)."""
import os
import resource
import subprocess
import sys
import tempfile
import threading
import unittest
from unittest import mock

import cgw

CGVERIFY = os.environ.get("CGVERIFY", "cgverify")
CGMERGE = os.environ.get("CGMERGE", "cgmerge")


def cgverify(path, *args):
    """cgverify's exit status and output on path."""
    p = subprocess.run([CGVERIFY, *args, path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def write_two(w):
    """main (3: 10,1; calls f twice from 4: 20,2 inclusive; 5: 7,0), f (10: 20,2)."""
    w.function(file="a.c", name="main", object="prog")
    w.cost(3, [10, 1])
    w.call("f", 2, 4, [20, 2], file="b.c")
    w.cost(5, [7, 0])
    w.function(file="b.c", name="f")
    w.cost(10, [20, 2])


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-cgw-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertValid(self, path):
        rc, out = cgverify(path)
        self.assertEqual(rc, 0, "cgverify %s: exit %d\n%s" % (path, rc, out))


class TestWriter(Base):
    def test_write_read_back(self):
        out = self.path("two.out")
        with cgw.Writer(out, events=["Ir", "Dr"], cmd="./prog 1") as w:
            write_two(w)
        self.assertValid(out)
        s = cgw.summary(out)
        self.assertEqual(s.events, ["Ir", "Dr"])
        self.assertEqual(s.totals, [37, 3])
        self.assertEqual(s.parts, 1)
        self.assertEqual(s.functions, {("prog", "a.c", "main"): [17, 1],
                                       ("prog", "b.c", "f"): [20, 2]})
        self.assertEqual(s.edges, {(("prog", "a.c", "main"), ("prog", "b.c", "f")): (2, [20, 2])})
        self.assertEqual(s.diagnostics, [])
        recs = list(cgw.read(out))
        self.assertIsInstance(recs[0], cgw.Part)
        self.assertEqual(recs[0].cmd, "./prog 1")
        self.assertEqual([e.name for e in recs[0].events], ["Ir", "Dr"])
        calls = [r for r in recs if isinstance(r, cgw.Call)]
        self.assertEqual(len(calls), 1)
        self.assertEqual((calls[0].pos, calls[0].count, calls[0].costs), ((4,), 2, (20, 2)))
        self.assertEqual(calls[0].target, cgw.Target("prog", "b.c", "f"))
        end = recs[-1]
        self.assertIsInstance(end, cgw.PartEnd)
        self.assertEqual((end.totals, end.totals_line, end.cost_lines, end.calls, end.functions),
                         ((37, 3), (37, 3), 3, 1, 2))
        self.assertEqual(cgw.verify(out, roundtrip=True), [])

    def test_no_object_again(self):
        # main in prog calls g in no object (NO_OBJECT), then g's block
        # in no object by object(None); every reader used to give them prog
        out = self.path("noobj.out")
        with cgw.Writer(out, events=["Ir"]) as w:
            w.function("main", file="a.c", object="prog")
            w.cost(1, [5])
            w.call("g", 1, 2, [3], object=cgw.NO_OBJECT)
            w.object(None)
            w.function("g")
            w.cost(2, [3])
            w.function("h", object="prog")
            w.cost(3, [1])
            w.function("k", object=cgw.NO_OBJECT)
            w.cost(4, [2])
        self.assertValid(out)
        s = cgw.summary(out)
        self.assertEqual(s.functions, {("prog", "a.c", "main"): [5], (None, "a.c", "g"): [3],
                                       ("prog", "a.c", "h"): [1], (None, "a.c", "k"): [2]})
        self.assertEqual(s.edges, {(("prog", "a.c", "main"), (None, "a.c", "g")): (1, [3])})

    def test_memory_and_fd_give_the_same_bytes(self):
        mem = cgw.Writer(None, events=["Ir", "Dr"])
        with mem:
            write_two(mem)
        out = self.path("fd.out")
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            with cgw.Writer(fd, events=["Ir", "Dr"]) as w:
                write_two(w)
        finally:
            os.close(fd)
        with open(out, "rb") as f:
            self.assertEqual(f.read(), mem.getvalue())
        self.assertEqual(cgw.Writer.to_bytes(write_two, events=["Ir", "Dr"]), mem.getvalue())
        self.assertTrue(mem.getvalue().startswith(b"# callgrind format\n"))

    def test_parts_and_positions(self):
        out = self.path("parts.out")
        with cgw.Writer(out, events=[("Ir", "Instructions")], positions="instr line") as w:
            w.function("main", file="a.c")
            w.cost((0x1000, 3), [5])
            w.new_part()
            w.set_thread(2)
            w.function("main", file="a.c")
            w.cost((0x1004, 4), [6])
        self.assertValid(out)
        s = cgw.summary(out)
        self.assertEqual((s.parts, s.totals, s.functions), (2, [11], {(None, "a.c", "main"): [11]}))
        recs = list(cgw.read(out))
        self.assertEqual(recs[0].events, (cgw.Event("Ir", "Instructions", None),))
        self.assertEqual([r.thread for r in recs if isinstance(r, cgw.Part)], [None, 2])
        costs = [r.pos for r in recs if isinstance(r, cgw.Cost)]
        self.assertEqual(costs, [(0x1000, 3), (0x1004, 4)])

    def test_position_shape(self):
        # issue 52: cost(5, [1]) on an "instr line" writer wrote "0x5 0 1"
        # (the library read a second subposition past the one given)
        out = self.path("shape.out")
        with cgw.Writer(out, events=["Ir"], positions="instr line") as w:
            w.function("main", file="a.c")
            for bad in (5, [5], (0x1000, 3, 4)):
                with self.assertRaises(ValueError) as cm:
                    w.cost(bad, [1])
                self.assertIn("'instr line'", str(cm.exception))
            with self.assertRaises(ValueError):
                w.call("f", 1, 5, [1], file="a.c")
            w.cost((0x1000, 5), [1])
        self.assertValid(out)
        self.assertEqual([r.pos for r in cgw.read(out) if isinstance(r, cgw.Cost)],
                         [(0x1000, 5)])
        with cgw.Writer(None, events=["Ir"]) as w:  # a line writer: an int or one value
            w.function("main", file="a.c")
            w.cost(5, [1])
            w.cost([6], [1])
            with self.assertRaises(ValueError):
                w.cost((0x1000, 7), [1])

    def test_library_errors(self):
        with self.assertRaises(cgw.Error) as cm:
            cgw.Writer(self.path("bad.out"), events=["I r"])
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        self.assertTrue(str(cm.exception).startswith("cgw_add_event: "), str(cm.exception))
        self.assertIn('"I r"', str(cm.exception))
        self.assertFalse(os.path.exists(self.path("bad.out")))
        # the library counts the costs, not Python
        with self.assertRaises(cgw.Error) as cm:
            with cgw.Writer(self.path("bad.out"), events=["Ir"]) as w:
                w.function("main", file="a.c")
                w.cost(1, [1, 2])
        self.assertEqual(str(cm.exception), "cgw_cost: 2 self costs for 1 events")
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        self.assertFalse(os.path.exists(self.path("bad.out")))
        # and the names
        with self.assertRaises(cgw.Error) as cm:
            cgw.Writer(None, events=["Ir"]).function(" main")
        self.assertTrue(str(cm.exception).startswith("cgw_function: "), str(cm.exception))
        # a total past 2^64-1
        with self.assertRaises(cgw.Error) as cm:
            with cgw.Writer(None, events=["Ir"]) as w:
                w.function("main")
                w.cost(1, [2**64 - 1])
                w.cost(2, [1])
        self.assertEqual(cm.exception.status, cgw.ERANGE)
        # an exception in the block leaves nothing behind
        with self.assertRaises(KeyError):
            with cgw.Writer(self.path("gone.out"), events=["Ir"]) as w:
                w.function("main")
                raise KeyError("x")
        self.assertEqual(os.listdir(self.dir), [])
        with self.assertRaises(FileNotFoundError):
            cgw.Writer(self.path("no/such/folder/x.out"), events=["Ir"])

    def test_python_refuses_first(self):
        w = cgw.Writer(None, events=["Ir"])
        w.function("main", file="a.c")
        w.cost(1, [2**64 - 1])
        with self.assertRaises(OverflowError):
            w.cost(2, [2**64])
        with self.assertRaises(OverflowError):
            w.cost(2**64, [1])
        with self.assertRaises(ValueError):
            w.cost(2, [-1])
        with self.assertRaises(ValueError):
            w.function("a\0b")
        with self.assertRaises(ValueError):
            w.call("f\0", 1, 1, [1], file="a.c")
        with self.assertRaises(TypeError):
            w.cost(2, [1.5])
        # none of these reached the writer: it is still good
        w.close()
        self.assertIn(b"totals: 18446744073709551615\n", w.getvalue())
        with self.assertRaises(ValueError):
            cgw.Writer(None, events=["I\0r"])
        with self.assertRaises(ValueError):
            cgw.Stacks().add(["a", "b\0"], 1)
        with self.assertRaises(OverflowError):
            cgw.Stacks().add(["a"], 2**64)
        with self.assertRaises(ValueError):
            cgw.Writer(self.path("a\0b"), events=["Ir"])

    def test_utf8(self):
        out = self.path("utf8.out")
        with cgw.Writer(out, events=["Ir"]) as w:
            w.function("größe<π>", file="ä.c")
            w.cost(1, [3])
        self.assertValid(out)
        self.assertEqual(cgw.summary(out).functions, {(None, "ä.c", "größe<π>"): [3]})


class TestStacks(Base):
    def test_counted_first_is_added_alone(self):
        # issue 52: the binding counts a stack it has seen (by the tuple
        # itself, or an equal one, or a list) and hands each distinct
        # stack to the library once; the profile is the one of adding
        # each sample alone through the C call
        a, b = cgw.Frame("main", "m.c", None, 3), cgw.Frame("f", "m.c", None, 7)
        c = cgw.Frame("g", "n.c", None, 9)
        st1, st2 = (a, b, c), (a, c)
        s = cgw.Stacks()
        for i in range(50):
            s.add(st1, 2)                       # the same tuple
            s.add((a, b, c), 1)                 # an equal one
            s.add([a, c], 1)                    # a list
            s.add(["main", ["f", "m.c", None, 7]], 1)  # lists inside
        s.add(st2, 5, event="ns")
        s.add(st1, 4, uncounted=True)
        s.add((c, b, a), 3, leaf_first=True)   # st1, leaf first
        out = self.path("counted.out")
        s.write(out)
        self.assertValid(out)
        ref = cgw.Stacks()
        h = {f: ref.intern(f) for f in (a, b, c)}
        hm, hf = ref.intern("main"), ref.intern(("f", "m.c"))
        for i in range(50):
            ref.add_h([h[a], h[b], h[c]], 2, lines=[3, 7, 9])
            ref.add_h([h[a], h[b], h[c]], 1, lines=[3, 7, 9])
            ref.add_h([h[a], h[c]], 1, lines=[3, 9])
            ref.add_h([hm, hf], 1, lines=[0, 7])
        ref.add_h([h[a], h[c]], 5, lines=[3, 9], event="ns")
        ref.add_h([h[a], h[b], h[c]], 4, lines=[3, 7, 9], uncounted=True)
        ref.add_h([h[c], h[b], h[a]], 3, lines=[9, 7, 3], leaf_first=True)
        want = self.path("counted-ref.out")
        ref.write(want)
        with open(out, "rb") as f1, open(want, "rb") as f2:
            self.assertEqual(f1.read(), f2.read())
        sm = cgw.summary(out)
        self.assertEqual(sm.totals, [50 * 5 + 4 + 3, 5])
        # calls= counts adds: a -> b 50 + 50 + 1 (leaf first); uncounted: 0
        self.assertEqual(sm.edges[((None, "m.c", "main"), (None, "m.c", "f"))][0], 101)

    def test_addresses_and_generate(self):
        s = cgw.Stacks()
        ha, hb = s.intern(cgw.Frame("a", "m.c")), s.intern(cgw.Frame("b", "m.c"))
        self.assertEqual(s.intern(("a", "m.c")), ha)
        s.add_h([ha, hb], 5, lines=[7, 9], addresses=[0x1010, 0x2000])
        s.add_h([hb, ha], 3, lines=[9, 7], addresses=[0x2000, 0x1014], leaf_first=True)
        with self.assertRaises(ValueError):
            s.add_h([ha, hb], 1, lines=[1])
        out = self.path("instr.out")
        s.write(out, positions="instr line")
        self.assertValid(out)
        calls = [r for r in cgw.read(out) if isinstance(r, cgw.Call)]
        self.assertEqual(sorted((c.pos, c.count, c.costs) for c in calls),
                         [((0x1010, 7), 1, (5,)), ((0x1014, 7), 1, (3,))])
        t = cgw.Stacks()
        t.add(["a", "b"], 1)   # no addresses: an instr writer is refused
        with self.assertRaises(cgw.Error) as cm:
            t.write(None, positions="instr line")
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        g = cgw.generate(None, seed=3, functions=20, events=2, flags=cgw.GenFlag.INLINE)
        self.assertEqual(g, cgw.generate(None, seed=3, functions=20, events=2,
                                         flags=cgw.GEN_INLINE))
        p = self.path("gen.out")
        with open(p, "wb") as f:
            f.write(g)
        self.assertValid(p)
        self.assertEqual(len(cgw.summary(p).events), 2)
        with self.assertRaises(cgw.Error):
            cgw.generate(None, functions=0)

    def test_recursion(self):
        # <cgw.h>: a;b;a;b;c 5 gives a -> b, b -> a and b -> c 5 each;
        # a;a;a 5 gives a -> a 5; calls= counts the stacks through a call
        for how in ("add", "folded"):
            s = cgw.Stacks()
            if how == "add":
                s.add([cgw.Frame("a"), cgw.Frame("b"), ("a",), "b", "c"], 5)
                s.add(["a", "a", "a"], 5)
            else:
                s.add_folded("a;b;a;b;c 5\na;a;a 5\n")
            out = self.path(how + ".out")
            s.write(out, cmd="stacks")
            s.close()
            self.assertValid(out)
            sm = cgw.summary(out)
            a, b, c = ((None, "???", n) for n in "abc")
            self.assertEqual(sm.totals, [10], how)
            self.assertEqual(sm.events, ["Samples"], how)
            self.assertEqual(sm.functions, {a: [5], b: [0], c: [5]}, how)
            self.assertEqual(sm.edges, {(a, b): (1, [5]), (b, a): (1, [5]), (b, c): (1, [5]),
                                        (a, a): (1, [5])}, how)

    def test_frames_and_events(self):
        s = cgw.Stacks()
        s.add([cgw.Frame("main", "m.c", "prog", 10), cgw.Frame("f", "f.c", "prog", 20)], 3,
              event="cycles")
        s.add([cgw.Frame("main", "m.c", "prog", 11)], 2, event="cycles")
        s.add([cgw.Frame("main", "m.c", "prog", 12)], 7, event="allocs")
        w = cgw.Writer(None, creator="test")
        with w:
            s.write(w)
        out = self.path("ev.out")
        with open(out, "wb") as f:
            f.write(w.getvalue())
        self.assertValid(out)
        sm = cgw.summary(out)
        main, f = ("prog", "m.c", "main"), ("prog", "f.c", "f")
        self.assertEqual(sm.events, ["cycles", "allocs"])
        self.assertEqual(sm.totals, [5, 7])
        self.assertEqual(sm.functions, {main: [2, 7], f: [3, 0]})
        self.assertEqual(sm.edges, {(main, f): (1, [3, 0])})
        calls = [r for r in cgw.read(out) if isinstance(r, cgw.Call)]
        self.assertEqual([r.pos for r in calls], [(10,)])

    def test_names_stable(self):
        # issue 52: one sample of json.py's <module> renamed the script's
        # <module>, and cgdiff said -100% and +100%.  A function keeps
        # its name whatever else was sampled; with QUALIFY_NAMES every
        # function with a file is "NAME (FILE)", in every run alike
        main = cgw.Frame("main", "s.py", None, 1)
        mod, json = cgw.Frame("<module>", "s.py", None, 2), cgw.Frame("<module>", "json.py")
        for flags, want in ((0, {"<module>", "main", "g"}),
                            (cgw.QUALIFY_NAMES, {"<module> (s.py)", "main (s.py)", "g"})):
            outs = []
            for run in (1, 2):
                s = cgw.Stacks()
                s.add([main, mod], 50)
                s.add([main, mod, "g"], 49)
                if run == 2:
                    s.add([main, json], 1)
                outs.append(self.path("run%d-%d.out" % (run, flags)))
                s.write(outs[-1], flags=flags)
                s.close()
                self.assertValid(outs[-1])
            one, two = (cgw.summary(o).functions for o in outs)
            self.assertEqual({name for _, _, name in one}, want)
            self.assertEqual(set(one) - set(two), set())  # nothing renamed
            self.assertEqual(len(two), 4)  # a <module> a file, read back
            rows = [r for r in cgw.diff(outs[0], outs[1]) if r.function is not None]
            self.assertTrue(rows)
            for r in rows:
                self.assertNotEqual(r.new_cost, 0, r)  # none removed
                self.assertTrue(r.old_cost != 0 or r.file == "json.py", r)

    def test_errors(self):
        s = cgw.Stacks()
        with self.assertRaises(cgw.Error) as cm:
            s.add_folded("a;b 1\na;;b 2\n", name="in.folded")
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        self.assertTrue(str(cm.exception).startswith("in.folded:2:"), str(cm.exception))
        with self.assertRaises(cgw.Error):
            cgw.Stacks().add(["a"], 1, event="bad event")

    def test_frame_types(self):
        # issue 52: a dict was unpacked as a tuple of its keys, a function
        # "name" in file "file"
        s = cgw.Stacks()
        for bad in ({"name": "f", "file": "a.c"}, 7, None):
            with self.assertRaises(TypeError) as cm:
                s.add(["main", bad], 1)
            self.assertIn("frame 1", str(cm.exception))
        s.add(["main", ["f", "a.c", None, 3], b"g"], 2)
        out = self.path("types.out")
        s.write(out)
        self.assertValid(out)
        self.assertEqual(cgw.summary(out).functions,
                         {(None, "???", "main"): [0], (None, "a.c", "f"): [0],
                          (None, "???", "g"): [2]})
        # a name the writer would refuse: refused when added, frame named
        with self.assertRaises(cgw.Error) as cm:
            s = cgw.Stacks()
            s.add(["main", "le\naf"], 1)
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        self.assertIn("frame 1: the name", str(cm.exception))

    def test_many_stacks_in_bounded_memory(self):
        # 300,000 adds of 1000 distinct stacks through add() (its Frame
        # path); past the first 30,000, maxrss may grow by at most 15 MiB:
        # about 58 bytes an add, the bound a million adds had at 50 MiB
        # over 900,000 (a leak of an add's frames or names still fails)
        n, warm = 300000, 30000
        s = cgw.Stacks()
        names = ["fn%d" % i for i in range(50)]
        frames = [[cgw.Frame("main", "m.c", None, 1 + i % 7),
                   cgw.Frame(names[i % 50], "f.c", None, 2),
                   cgw.Frame(names[(i * 7) % 50], "g.c", None, 3)] for i in range(1000)]

        def maxrss_kib():
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

        for i in range(warm):
            s.add(frames[i % 1000], 1)
        before = maxrss_kib()
        for i in range(warm, n):
            s.add(frames[i % 1000], 1)
        grown = maxrss_kib() - before
        self.assertLess(grown, 15 * 1024, "maxrss grew by %d KiB over %d stacks" % (grown, n - warm))
        out = self.path("many.out")
        s.write(out)
        sm = cgw.summary(out)
        self.assertEqual(sm.totals, [n])
        # main, fn0..fn49 in f.c and again in g.c
        self.assertEqual(len(sm.functions), 101)
        self.assertEqual(sum(c[0] for c in sm.functions.values()), n)


class TestTools(Base):
    def make(self, name, scale):
        out = self.path(name)
        with cgw.Writer(out, events=["Ir", "Dr"], cmd="./prog") as w:
            w.function(file="a.c", name="main")
            w.cost(3, [10 * scale, 1])
            w.call("f", scale, 4, [20 * scale, 2], file="b.c")
            w.function(file="b.c", name="f")
            w.cost(10, [20 * scale, 2])
            if scale > 1:
                w.function(file="c.c", name="only%d" % scale)
                w.cost(1, [scale, 0])
        return out

    def test_merge_equals_cgmerge(self):
        a, b = self.make("a.out", 1), self.make("b.out", 3)
        want = self.path("want.out")
        p = subprocess.run([CGMERGE, a, b, "-o", want], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        got = self.path("got.out")
        cgw.merge([a, b], got)
        with open(want, "rb") as f1, open(got, "rb") as f2:
            self.assertEqual(f2.read(), f1.read())
        with open(want, "rb") as f1:
            self.assertEqual(cgw.merge([a, b]), f1.read())
        sm = cgw.summary(got)
        self.assertEqual(sm.totals, [10 + 20 + 30 + 60 + 3, 6])
        self.assertEqual(sm.edges, {((None, "a.c", "main"), (None, "b.c", "f")): (4, [80, 4])})

    def test_merge_memory(self):
        # cgw.Memory: profiles in memory merged (and compared) as paths are
        a, b = self.make("a.out", 1), self.make("b.out", 3)
        want = cgw.merge([a, b])
        with open(a, "rb") as f:
            ma = cgw.Memory(f.read(), "a in memory")
        self.assertEqual(cgw.merge([ma, b]), want)
        self.assertEqual(cgw.merge([cgw.Memory(cgw.merge(a)), cgw.Memory(cgw.merge(b))]), want)
        self.assertEqual(cgw.diff(ma, b), cgw.diff(a, b))
        with self.assertRaises(cgw.Error) as c:
            cgw.merge([cgw.Memory(b"nonsense\n", "junk")])
        self.assertTrue(str(c.exception).startswith("junk:1: "), str(c.exception))

    def test_diff(self):
        a, b = self.make("a.out", 1), self.make("b.out", 3)
        rows = cgw.diff(a, b, output=self.path("d.out"))
        self.assertEqual(rows[0], cgw.DiffRow(None, None, None, "Ir", 0, False, 30, 93,
                                              rows[0].change))
        self.assertAlmostEqual(rows[0].change, 210.0)
        self.assertEqual(rows[1][3:8], ("Dr", 1, False, 3, 3))
        self.assertValid(self.path("d.out"))
        self.assertEqual(cgw.summary(self.path("d.out")).events,
                         ["Ir_plus", "Ir_minus", "Dr_plus", "Dr_minus"])

    def test_convert_folded_and_verify(self):
        a = self.make("a.out", 1)
        self.assertEqual(cgw.convert_folded(a), "main 10\nmain;f 20\n")
        self.assertEqual(cgw.convert_folded(a, event="Dr"), "main 1\nmain;f 2\n")
        with self.assertRaises(cgw.Error) as cm:
            cgw.convert_folded(a, event="nope")
        self.assertEqual(cm.exception.status, cgw.EINVAL)
        bad = self.path("bad.out")
        with open(bad, "w") as f:
            f.write("events: Ir\nfn=main\n1 5\ntotals: 6\n")
        diags = cgw.verify(bad)
        self.assertIn("totals-mismatch", [d.code for d in diags])
        self.assertEqual(cgverify(bad)[0], 1)
        self.assertEqual(cgw.verify(a), [])

    def test_recode(self):
        a = self.make("a.out", 2)
        compact = cgw.recode(a, flags=cgw.COMPACT)
        out = self.path("compact.out")
        with open(out, "wb") as f:
            f.write(compact)
        self.assertValid(out)
        self.assertEqual(cgw.summary(out).functions, cgw.summary(a).functions)

    def test_readme(self):
        # README.md's ```python block runs and says what it says
        srcdir = os.environ.get("CGW_SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
        with open(os.path.join(srcdir, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        block = readme.split("```python\n", 1)[1].split("```\n", 1)[0]
        here = os.getcwd()
        os.chdir(self.dir)
        try:
            env = {}
            exec(compile(block, "README.md", "exec"), env)
        finally:
            os.chdir(here)
        s = env["s"]
        self.assertEqual(s.totals, [30])
        self.assertEqual(s.functions[(None, "a.c", "f")], [20])
        self.assertEqual(s.edges[((None, "a.c", "main"), (None, "a.c", "f"))], (2, [20]))
        self.assertEqual(s.inclusive[(None, "a.c", "main")], [30])
        p = env["p"]  # closed by the block's with: its Python data stays
        self.assertEqual({f.name: f.inclusive for f in p.functions}, {"main": [30], "f": [20]})
        self.assertValid(self.path("callgrind.out"))
        self.assertValid(self.path("stacks.out"))
        self.assertEqual(cgw.summary(self.path("stacks.out")).totals, [8])

    def test_version(self):
        self.assertRegex(cgw.version(), r"^\d+\.\d+\.\d+$")
        self.assertIsInstance(cgw.features(), list)


# Issue 50's parser (tests/test-profile.c works its numbers out): main
# 2 self, 47 inclusive; the cycle {expr, term} 45; expr at most 45, term 30.
PARSER = """# callgrind format
version: 1
cmd: ./parser
positions: line
events: Samples
fl=parse.c
fn=main
10 2
cfn=expr
calls=1 20
11 45
fn=expr
20 20
cfn=term
calls=2 30
21 30
fn=term
30 25
cfn=expr
calls=1 20
31 5
"""


class TestProfile(Base):
    def parser(self):
        path = self.path("parser.out")
        with open(path, "w") as f:
            f.write(PARSER)
        return path

    def test_cycles_and_inclusive(self):
        with cgw.Profile(self.parser()) as p:
            self.assertEqual(p.events, ["Samples"])
            self.assertEqual(p.totals, [47])
            self.assertEqual(p.cmd, "./parser")
            got = {f.name: (f.self, f.inclusive, f.calls, f.cycle, f.bound) for f in p.functions}
            self.assertEqual(got, {"main": ([2], [47], 0, 0, False),
                                   "expr": ([20], [45], 2, 1, True),
                                   "term": ([25], [30], 2, 1, True)})
            self.assertEqual(len(p.cycles), 1)
            self.assertEqual((p.cycles[0].self, p.cycles[0].inclusive), ([45], [45]))
            self.assertEqual(sorted(p.functions[i].name for i in p.cycles[0].members),
                             ["expr", "term"])
            expr = p.find("expr", "parse.c")
            self.assertEqual(sorted(p.functions[e.caller].name for e in p.callers(expr)),
                             ["main", "term"])
            self.assertEqual([e.count for e in p.callees(p.find("main", "parse.c"))], [1])
            self.assertEqual(p.find("nosuch"), -1)
            self.assertFalse(p.stacks_exact)
            self.assertEqual(sorted(p.stacks()), [(("main",), 2), (("main", "expr"), 20),
                                                  (("main", "expr", "term"), 25)])
            self.assertEqual(p.stacks("Samples"), p.stacks(0))
            with self.assertRaises(ValueError):
                p.stacks("Ir")
            with self.assertRaises(ValueError):
                p.stacks(1)

    def test_summary_is_the_model(self):
        s = cgw.summary(self.parser())
        self.assertEqual(s.totals, [47])
        self.assertEqual(s.functions[(None, "parse.c", "main")], [2])
        self.assertEqual(s.inclusive[(None, "parse.c", "main")], [47])
        self.assertEqual(s.inclusive[(None, "parse.c", "expr")], [45])
        self.assertEqual(s.edges[((None, "parse.c", "term"), (None, "parse.c", "expr"))],
                         (1, [5]))
        self.assertEqual(s.parts, 1)

    def test_lines_and_several_inputs(self):
        path = self.parser()
        with cgw.Profile([path, path], lines=True) as p:
            self.assertEqual(p.totals, [94])
            lines = p.lines(p.find("term", "parse.c"))
            self.assertEqual([(l.source_file, l.line, l.self) for l in lines],
                             [("parse.c", 30, [50])])
        p.close()
        with self.assertRaises(ValueError):
            p.lines(0)

    def test_errors(self):
        with self.assertRaises(OSError):
            cgw.Profile(self.path("missing.out"))
        bad = self.path("bad.out")
        with open(bad, "w") as f:
            f.write("events: A\nfn=main\n1 5\npart: 2\nevents: B\nfn=main\n1 1\n")
        p = cgw.Profile(bad)  # parts with other events: matched by name
        self.assertEqual(p.events, ["A", "B"])
        p.close()
        seen = []
        cgw.Profile(self.parser(), diagnostics=seen.append).close()
        self.assertEqual(seen, [])
        # the reader's errors reach diagnostics; its refusal is raised
        seen = []
        with open(bad, "w") as f:
            f.write("events: A\nfn=(1)\n1 5\n")
        cgw.Profile(bad, diagnostics=seen.append).close()
        self.assertTrue(any(d.severity == cgw.Severity.ERROR for d in seen), seen)


class TestApi(Base):
    """Issue 53 item 3: the constants are enums equal to <cgw.h>'s, the
    writer's calls take one order, every public call is typed and
    documented."""

    HEADER_GROUPS = {
        # class: (prefix in cgw.h, prefix of the Python alias)
        "Status": ("CGW_", ""), "Position": ("CGW_POS_", "POS_"),
        "WriterFlag": ("CGW_", ""), "ReadFlag": ("CGW_READ_", "READ_"),
        "RecordKind": ("CGW_REC_", "REC_"), "Severity": ("CGW_", ""),
        "DiffSide": ("CGW_DIFF_", "DIFF_"), "RecodeFlag": ("CGW_RECODE_", "RECODE_"),
        "MergeFlag": ("CGW_MERGE_", "MERGE_"), "StackFlag": ("CGW_STACK_", "STACK_"),
        "Feature": ("CGW_FEATURE_", "FEATURE_"), "GenFlag": ("CGW_GEN_", "GEN_"),
        "ProfileFlag": ("CGW_PROFILE_", None),
        "FunctionFlag": ("CGW_PROFILE_", None),
    }

    @staticmethod
    def header_values():
        """{CGW_NAME: value} of <cgw.h>'s enum constants and #define'd
        integers, an enum's implicit values counted as C counts them."""
        import re
        srcdir = os.environ.get("CGW_SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
        with open(os.path.join(srcdir, "include", "cgw.h"), encoding="utf-8") as f:
            h = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        vals = {}
        for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", h):
            nxt = 0
            for item in body.split(","):
                m = re.match(r"\s*(CGW_[A-Z0-9_]+)\s*(?:=\s*([0-9]+)u?)?\s*$", item)
                if not m:
                    continue
                nxt = int(m.group(2)) if m.group(2) else nxt
                vals[m.group(1)] = nxt
                nxt += 1
        for name, v in re.findall(r"#define (CGW_[A-Z0-9_]+) (0x[0-9a-fA-F]+|[0-9]+)u?\b", h):
            vals[name] = int(v, 0)
        return vals

    def test_enums_equal_c(self):
        import enum
        vals = self.header_values()
        self.assertEqual(vals["CGW_QUALIFY_NAMES"], 16384)   # the regex reads the header
        for cls_name, (cpre, pypre) in self.HEADER_GROUPS.items():
            cls = getattr(cgw, cls_name)
            self.assertTrue(issubclass(cls, (enum.IntEnum, enum.IntFlag)), cls_name)
            for m in cls.__members__.values():   # aliases and multi-bit too
                self.assertIsInstance(m, cls)
                cname = cpre + m.name
                self.assertIn(cname, vals, "%s.%s has no %s in cgw.h" % (cls_name, m.name, cname))
                self.assertEqual(int(m), vals[cname], "%s.%s" % (cls_name, m.name))
                if pypre is not None:
                    alias = getattr(cgw._lib, pypre + m.name)
                    self.assertIs(alias, m, pypre + m.name)
        self.assertIs(cgw.QUALIFY_NAMES, cgw.WriterFlag.QUALIFY_NAMES)
        self.assertIs(cgw.EINVAL, cgw.Status.EINVAL)
        self.assertIs(cgw.POS_LINE, cgw.Position.LINE)
        self.assertEqual(cgw.gzip_level(9), 9 << 8)

    def test_values_come_back_as_members(self):
        with self.assertRaises(cgw.Error) as cm:
            with cgw.Writer(None, events=["Ir"]) as w:
                w.function("")
        self.assertIs(type(cm.exception.status), cgw.Status)
        p = self.path("p.out")
        with cgw.Writer(p, events=["Ir"], positions="instr line") as w:
            w.function("main", file="a.c")
            w.cost((1, 2), [3])
        part = next(cgw.read(p))
        self.assertIs(part.kind, cgw.RecordKind.PART)
        self.assertEqual(part.positions, cgw.POS_INSTR | cgw.POS_LINE)
        self.assertIsInstance(part.positions, cgw.Position)
        with open(p, "ab") as f:
            f.write(b"fn=(9\n")
        diags = cgw.verify(p)
        self.assertTrue(diags, "no diagnostic for a bad line")
        for d in diags:
            self.assertIsInstance(d.severity, cgw.Severity)
        self.assertIn("error", ["%s" % d.severity for d in diags])

    def test_one_order(self):
        import inspect
        for meth, req in (("function", ["name"]), ("call", ["name", "count", "pos", "inclusive"]),
                          ("jump", ["name", "count", "pos"]),
                          ("cond_jump", ["name", "followed", "executed", "pos"])):
            ps = list(inspect.signature(getattr(cgw.Writer, meth)).parameters.values())[1:]
            self.assertEqual([q.name for q in ps if q.kind is q.POSITIONAL_OR_KEYWORD], req, meth)
            kw = {q.name for q in ps if q.kind is q.KEYWORD_ONLY}
            self.assertEqual(kw, {"file", "object"} | ({"target_pos"} if meth != "function"
                                                     else set()), meth)
        p = self.path("order.out")
        with cgw.Writer(p, events=["Ir"], positions="instr") as w:
            w.function("main", file="a.c", object="prog")
            w.cost(16, [5])
            w.call("f", 3, 17, [30], file="b.c", object="lib", target_pos=32)
            w.jump("main", 2, 18, target_pos=16)
            w.cond_jump("main", 1, 4, 19, target_pos=20)
            w.function("f", file="b.c", object="lib")
            w.cost(32, [30])
        self.assertValid(p)
        calls = [r for r in cgw.read(p) if isinstance(r, cgw.Call)]
        self.assertEqual(len(calls), 1)
        c = calls[0]
        self.assertEqual((c.target, c.count, c.pos, c.target_pos, c.costs),
                         (("lib", "b.c", "f"), 3, (17,), (32,), (30,)))
        jumps = [r for r in cgw.read(p) if isinstance(r, (cgw.Jump, cgw.CondJump))]
        self.assertEqual([(j.target.function, j.count, j.pos, j.target_pos) for j in jumps],
                         [("main", 2, (18,), (16,)), ("main", 1, (19,), (20,))])
        with self.assertRaises(TypeError):
            with cgw.Writer(None, events=["Ir"]) as w:
                w.function("main", "a.c")       # file is keyword-only

    def test_times(self):
        # the library's rule, not one of Python's own: the names real
        # writers give, and cgw.cprofile's event read back
        self.assertEqual(cgw.event_seconds("ns"), 1e-9)
        self.assertAlmostEqual(cgw.event_seconds("Time_(10ns)"), 1e-8, delta=1e-20)
        self.assertEqual(cgw.event_seconds("T", "nanoseconds"), 1e-9)
        self.assertEqual(cgw.event_seconds("cpu_microseconds"), 1e-6)
        for name in ("Ticks", "Ir", "Samples", "Time"):
            self.assertEqual(cgw.event_seconds(name), 0.0, name)
        self.assertEqual(cgw.format_seconds(105735525e-9), "105.7 ms")
        self.assertEqual(cgw.format_seconds(0.99995), "1.000 s")
        self.assertEqual(cgw.format_seconds(950e-9), "950 ns")
        self.assertEqual(cgw.format_seconds(12.5e-6), "12.50 us")   # ASCII
        self.assertEqual(cgw.format_seconds(0), "0 s")
        big = cgw.format_seconds(1e30)     # longer than the first buffer
        self.assertTrue(big.startswith("1000000000000000") and big.endswith(" s"), big)
        p = os.path.join(self.dir, "cprof.out")
        script = os.path.join(self.dir, "busy.py")
        with open(script, "w") as f:
            f.write("print(sum(range(1000)))\n")
        subprocess.run([sys.executable, "-m", "cgw.cprofile", "-o", p, script],
                       check=True, stdout=subprocess.DEVNULL)
        ev = [r for r in cgw.read(p) if isinstance(r, cgw.Part)][0].events[0]
        self.assertEqual(cgw.event_seconds(ev.name, ev.long_name), 1e-9)

    def test_typed_and_documented(self):
        import importlib
        import inspect
        missing = []
        for modname in ("cgw", "cgw.writer", "cgw.reader", "cgw.tools", "cgw.stacks",
                        "cgw.profile", "cgw.pstats", "cgw.cprofile", "cgw.fleet"):
            mod = importlib.import_module(modname)
            for name, obj in vars(mod).items():
                if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                    continue
                calls = []
                if inspect.isfunction(obj):
                    calls.append((name, obj))
                elif inspect.isclass(obj) and not issubclass(obj, tuple):
                    if not (obj.__doc__ or "").strip():
                        missing.append("%s.%s: no docstring" % (modname, name))
                    for mname, m in vars(obj).items():
                        if isinstance(m, (classmethod, staticmethod)):
                            m = m.__func__
                        if isinstance(m, property):
                            m = m.fget
                        if inspect.isfunction(m) and (not mname.startswith("_")
                                                      or mname == "__init__"):
                            calls.append(("%s.%s" % (name, mname), m))
                for qual, f in calls:
                    where = "%s.%s" % (modname, qual)
                    if not qual.endswith("__init__") and not (f.__doc__ or "").strip():
                        missing.append(where + ": no docstring")
                    sig = inspect.signature(f)
                    if sig.return_annotation is inspect.Signature.empty:
                        missing.append(where + ": no return annotation")
                    for q in sig.parameters.values():
                        if q.name not in ("self", "cls") and q.annotation is q.empty:
                            missing.append("%s: parameter %s not annotated" % (where, q.name))
        self.assertEqual(missing, [])


def in_threads(n, fn):
    """Run fn(i) in n threads at once; the exceptions they raised, by i."""
    errors = {}
    start = threading.Barrier(n)

    def one(i):
        start.wait()
        try:
            fn(i)
        except BaseException as e:
            errors[i] = e
    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


class TestThreads(Base):
    """Objects shared between threads (issue 54): ctypes lets other
    threads run during each call, so each object serialises its own."""
    N = 20000

    def test_writer_shared(self):
        # unserialised: a close() that succeeded on a file cgverify
        # called invalid
        out = self.path("threads.out")
        w = cgw.Writer(out, events=["Ir", "Dr"])
        w.function("main", file="a.c")

        def work(i):
            for k in range(self.N):
                w.cost(k % 50 + 1, (1, i))
        self.assertEqual(in_threads(8, work), {})
        w.close()
        self.assertValid(out)
        self.assertEqual(cgw.summary(out).totals, [8 * self.N, self.N * sum(range(8))])

    def test_close_racing_calls(self):
        # unserialised: "double free or corruption", the interpreter gone
        for _ in range(20):
            w = cgw.Writer(None, events=["Ir"])
            w.function("main")

            def work(i):
                if i == 0:
                    w.close()
                    return
                while True:
                    w.cost(1, [1])
            errors = in_threads(4, work)
            self.assertEqual(sorted(errors), [1, 2, 3])
            for e in errors.values():
                self.assertIsInstance(e, ValueError)
            data = w.getvalue()
            self.assertTrue(data.endswith(b"\n"), data[-40:])
            with self.assertRaises(ValueError):
                w.cost(1, [1])
            w.close()  # a second close does nothing
            w.discard()

    def test_stacks_shared(self):
        # unserialised: 342 of 160,000 counts lost (add() reuses one frames array)
        s = cgw.Stacks()

        def work(i):
            for k in range(self.N):
                # stacks of 1 to 20 frames: the array is grown meanwhile
                s.add(["main"] + ["f%d" % j for j in range(k % 20)], 1)
        self.assertEqual(in_threads(8, work), {})
        out = self.path("stacks.out")
        s.write(out)
        s.close()
        with self.assertRaises(ValueError):
            s.add(["main"], 1)
        self.assertValid(out)
        sm = cgw.summary(out)
        self.assertEqual(sm.totals, [8 * self.N])
        self.assertEqual(sm.inclusive[(None, "???", "main")], [8 * self.N])

    def test_profile_close_racing_stacks(self):
        out = self.path("p.out")
        with cgw.Writer(out, events=["Ir", "Dr"]) as w:
            write_two(w)
        p = cgw.Profile(out)

        def work(i):
            if i == 0:
                p.close()
                return
            for _ in range(200):
                self.assertEqual(sum(a for _, a in p.stacks()), 37)
        for e in in_threads(4, work).values():
            self.assertIsInstance(e, ValueError)


class TestCallbacks(Base):
    """A Python callback that raises (issue 54): the exception comes out
    of the call that ran it, and the C side stops where it can."""

    def bad_profile(self):
        # one unknown line after 2 functions; 3 more after it
        out = self.path("bad.out")
        with open(out, "w") as f:
            f.write("# callgrind format\nevents: Ir\npositions: line\n"
                    "fn=a\n1 1\nfn=b\n2 2\nnonsense\nfn=c\n3 3\nfn=d\n4 4\nfn=e\n5 5\n")
        return out

    def test_read_diagnostics_raises(self):
        out = self.bad_profile()
        seen = []

        def diag(d):
            if d.code == "unknown-line":
                raise KeyError("stop at line %d" % d.line)
        with self.assertRaises(KeyError):
            for r in cgw.read(out, diagnostics=diag):
                seen.append(r)
        # the records before the line, none after it
        self.assertEqual([r.function for r in seen if isinstance(r, cgw.Function)],
                         ["a", "b"])
        self.assertEqual(len([r for r in cgw.read(out) if isinstance(r, cgw.Function)]), 5)

    def test_profile_diagnostics_raises(self):
        out = self.bad_profile()
        calls = []

        def diag(d):
            calls.append(d)
            raise KeyError(d.code)
        with self.assertRaises(KeyError):
            cgw.Profile(out, diagnostics=diag)
        self.assertEqual(len(calls), 1)  # no more diagnostics once it raised

    def test_folded_write_raises(self):
        # cgw_write_folded()'s sink: -1 stops it, the exception raised;
        # unwrapped, a short text came back as success
        s = cgw.Stacks()
        for k in range(200):
            s.add(["main", "f%d" % k], 1)
        out = self.path("s.out")
        s.write(out)
        s.close()
        self.assertEqual(len(cgw.convert_folded(out).splitlines()), 200)
        with mock.patch("ctypes.string_at", side_effect=OSError(28, "no space")) as m:
            with self.assertRaises(OSError):
                cgw.convert_folded(out)
        self.assertEqual(m.call_count, 1)


if __name__ == "__main__":
    unittest.main()
