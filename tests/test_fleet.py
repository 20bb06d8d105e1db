# SPDX-License-Identifier: MIT
"""tests/test_fleet.py: python3 -m cgw.fleet (a tree merge on Dask
distributed) against one cgmerge of the same files, byte for byte, on a
LocalCluster of 2 worker processes; its faults (a bad input, --skip-bad,
events that differ, a worker killed mid-run) and its diff gate against
cgdiff.  Run by tests/test-fleet.sh, which picks a Python that has Dask
distributed (CGW_LIBRARY, PYTHONPATH, CGGEN, CGMERGE, CGDIFF, SUBJECT
and VALGRIND come from there)."""
import concurrent.futures
import logging
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import cgw
import cgw.fleet as fleet
from dask.distributed import Client, LocalCluster

CGGEN = os.environ.get("CGGEN", "cggen")
CGMERGE = os.environ.get("CGMERGE", "cgmerge")
CGDIFF = os.environ.get("CGDIFF", "cgdiff")
SUBJECT = os.environ.get("SUBJECT", "")
VALGRIND = os.environ.get("VALGRIND", "valgrind")
DATA = os.environ.get("CGW_TEST_DATA", "")
FILES = int(os.environ.get("CGW_FLEET_FILES", "300"))

# cggen's shapes that share line positions (so that all merge together):
# events, parts, inlined code, jumps, several objects, the compact form
SHAPES = ["", "--events 1", "--events 3", "--parts 3", "--inline", "--jumps",
          "--positions instr,line", "--compact", "--objects 4 --files 7", "--events 2"]


def run(*cmd, **kw):
    return subprocess.run(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def cgmerge(paths):
    p = run(CGMERGE, *paths)
    if p.returncode != 0:
        raise AssertionError("cgmerge failed: %s" % p.stderr.decode())
    return p.stdout


class Fleet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-fleet-")
        cls.dir = cls.tmp.name
        t = time.monotonic()
        cls.paths = [os.path.join(cls.dir, "g%04d.out" % i) for i in range(1, FILES + 1)]

        def gen(i):
            shape = SHAPES[i % len(SHAPES)].split()
            return run(CGGEN, "--seed", str(i), "--size", "20K", *shape, "-o", cls.paths[i - 1])

        # two cggen at a time (the machine's 2 cores)
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            for r in ex.map(gen, range(1, FILES + 1)):
                if r.returncode != 0:
                    raise AssertionError("cggen failed: %s" % r.stderr.decode())
        cls.real = []
        if SUBJECT and os.access(SUBJECT, os.X_OK) and shutil.which(VALGRIND):
            for k, opts in enumerate([[], [], ["--dump-instr=yes"]]):
                p = os.path.join(cls.dir, "callgrind.out.%d" % k)
                r = run(VALGRIND, "-q", "--tool=callgrind", *opts,
                        "--callgrind-out-file=" + p, SUBJECT)
                if r.returncode == 0 and os.path.exists(p):
                    cls.real.append(p)
        print("\n%d cggen files%s made in %.1f s" % (
            len(cls.paths), ", %d of Callgrind" % len(cls.real) if cls.real
            else " (no valgrind or no tests/subject: no Callgrind files)",
            time.monotonic() - t), file=sys.stderr)
        cls.all = sorted(cls.paths + cls.real)
        cls.want = cgmerge(cls.all)
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR,
                                   local_directory=cls.dir)
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def fleet(self, *args):
        """python3 -m cgw.fleet on the cluster of the class."""
        return run(sys.executable, "-m", "cgw.fleet", args[0], "--scheduler",
                   self.cluster.scheduler_address, *args[1:])

    # ---------------------------------------------------- the same bytes

    def test_merge_properties(self):
        # what the tree relies on, on cgmerge itself: A+B merged whole,
        # or each merged first then together, in any order, the same
        # bytes; a merged profile merged again, its own bytes
        rng = random.Random(45)
        sample = rng.sample(self.all, 30)
        whole = cgmerge(sample)
        for trial in range(3):
            rng.shuffle(sample)
            k = rng.randint(1, len(sample) - 1)
            a, b = self.path("a.tmp"), self.path("b.tmp")
            with open(a, "wb") as f:
                f.write(cgmerge(sample[:k]))
            with open(b, "wb") as f:
                f.write(cgmerge(sample[k:]))
            self.assertEqual(cgmerge([b, a]), whole, "split at %d" % k)
            self.assertEqual(cgmerge(sample), whole, "a shuffled order")
            self.assertEqual(cgmerge([a]), cgmerge(sample[:k]), "a merge merged again")

    def test_tree_equals_cgmerge(self):
        for batch, fan_in in ((None, 8), (7, 3), (1, 2), (len(self.all), 8)):
            got, skipped = fleet.merge_on(self.client, self.all, batch=batch, fan_in=fan_in)
            self.assertEqual(skipped, [])
            self.assertTrue(got == self.want, "batch %s fan-in %d: %d bytes, cgmerge %d"
                            % (batch, fan_in, len(got), len(self.want)))
        shuffled = self.all[:]
        random.Random(1).shuffle(shuffled)
        got, _ = fleet.merge_on(self.client, shuffled, batch=11, fan_in=4)
        self.assertTrue(got == self.want, "shuffled inputs")

    def test_command_local_glob(self):
        # --local 2: its own LocalCluster; a quoted glob, sorted
        out = self.path("local.out")
        p = run(sys.executable, "-m", "cgw.fleet", "merge", "--local", "2", "-o", out,
                os.path.join(self.dir, "g*.out"), *self.real)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        with open(out, "rb") as f:
            self.assertTrue(f.read() == self.want)
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(".cgw-fleet-")], [])

    def test_events_by_name(self):
        # profiles of other events (other names, another order) are
        # summed by event name, as cgmerge sums them
        extra = []
        for i, events in enumerate((["Dr", "Ir"], ["Bc"], ["Ir"])):
            p = self.path("ev%d.out" % i)
            with cgw.Writer(p, events=events, cmd="ev") as w:
                w.function(file="a.c", name="main")
                w.cost(3, [i + 1] * len(events))
                w.call("f", 2, 4, [10 * (i + 1)] * len(events), file="a.c")
                w.function(file="a.c", name="f")
                w.cost(5, [10 * (i + 1)] * len(events))
            extra.append(p)
        paths = self.paths[:40] + extra
        want = cgmerge(paths)
        got, _ = fleet.merge_on(self.client, paths, batch=5, fan_in=3)
        self.assertTrue(got == want)
        self.assertIn("Bc", fleet._events(got))

    # ------------------------------------------------------------- faults

    def bad_inputs(self):
        """an invalid file, a missing one, a folder (unreadable as a
        file, even for root)"""
        bad = self.path("bad-garbage.out")
        with open(bad, "wb") as f:
            f.write(b"# callgrind format\nevents: Ir\nfn=main\nthis is not a cost line\n")
        return [bad, self.path("missing.out"), self.dir]

    def test_bad_input_fails_naming_it(self):
        good = self.paths[:50]
        for bad in self.bad_inputs():
            paths = good[:25] + [bad] + good[25:]
            with self.assertRaises(fleet.BadInput) as c:
                fleet.merge_on(self.client, paths, batch=10)
            self.assertEqual(c.exception.path, bad)
            self.assertTrue(str(c.exception).startswith(bad), str(c.exception))
            p = self.fleet("merge", "-o", self.path("never.out"), *paths)
            err = p.stderr.decode()
            self.assertEqual(p.returncode, 1, err)
            self.assertIn(bad, err)
            self.assertFalse(os.path.exists(self.path("never.out")))

    def test_skip_bad(self):
        good = self.paths[:60]
        bad = self.bad_inputs()
        paths = sorted(good + bad)
        out = self.path("skip.out")
        p = self.fleet("merge", "--skip-bad", "--batch", "8", "-o", out, *paths)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 0, err)
        with open(out, "rb") as f:
            self.assertTrue(f.read() == cgmerge(good))
        for b in bad:
            self.assertIn("skipped " + b, err)
        self.assertIn("3 inputs skipped", err)
        # every input bad: nothing to write, exit 1
        p = self.fleet("merge", "--skip-bad", "-o", self.path("none.out"), *bad)
        self.assertEqual(p.returncode, 1)
        self.assertIn("every input was skipped", p.stderr.decode())

    def test_worker_killed(self):
        # leaves that sleep 0.5 s first; once both workers run some, one
        # worker process is killed: the scheduler runs its tasks again on
        # the other (and on the one its nanny starts), same bytes
        before = self.client.run(os.getpid)
        fut = fleet.submit_tree(self.client, self.all, batch=25, fan_in=4, delay=0.5)
        victim = None
        deadline = time.monotonic() + 20
        while victim is None and time.monotonic() < deadline:
            busy = {w: ts for w, ts in self.client.processing().items() if ts}
            for w in busy:
                if w in before:
                    victim = w
                    break
            time.sleep(0.05)
        self.assertIsNotNone(victim, "no worker ran a task")
        self.assertFalse(fut.done())
        os.kill(before[victim], signal.SIGKILL)
        got, skipped = fleet._finish(fut.result(timeout=60))
        self.assertTrue(got == self.want, "after a worker was killed")
        self.assertEqual(skipped, [])
        self.assertNotIn(victim, self.client.run(os.getpid),
                         "the killed worker is still there")

    # ---------------------------------------------------------- the gate

    def test_diff_gate(self):
        old, new = self.paths[0:100:2], self.paths[1:100:2]
        for a, b in ((old, new), (old, old)):
            for pct in ("5", "200"):
                lists = []
                for name, side in (("old", a), ("new", b)):
                    lists.append(self.path(name + ".list"))
                    with open(lists[-1], "w") as f:
                        f.write("\n".join(side) + "\n")
                p = self.fleet("diff", "--fail-above", pct, "--top", "5",
                               "@" + lists[0], "@" + lists[1])
                with open(self.path("o.m"), "wb") as f:
                    f.write(cgmerge(a))
                with open(self.path("n.m"), "wb") as f:
                    f.write(cgmerge(b))
                q = run(CGDIFF, "--quiet", "--fail-above", pct, "--top", "5",
                        self.path("o.m"), self.path("n.m"))
                self.assertEqual(p.returncode, q.returncode,
                                 "--fail-above %s: %s" % (pct, p.stderr.decode()))
                self.assertEqual(p.stdout, q.stdout)
                self.assertEqual(p.stderr.decode().replace("cgw.fleet:", "cgdiff:"),
                                 q.stderr.decode())
        # globs on each side, the difference profile written
        d = self.path("d.out")
        p = self.fleet("diff", "-o", d, os.path.join(self.dir, "g000*.out"),
                       os.path.join(self.dir, "g001*.out"))
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertIn("Ir_plus", cgw.summary(d).events)


if __name__ == "__main__":
    unittest.main()
