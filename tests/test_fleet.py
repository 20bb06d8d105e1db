# SPDX-License-Identifier: MIT
"""tests/test_fleet.py: python3 -m cgw.fleet (a tree merge on Dask
distributed) against one cgmerge of the same files, byte for byte, on a
LocalCluster of 2 worker processes; its faults (bad inputs, --skip-bad,
events that differ, a worker killed mid-run, no Dask), its progress
line, --version and its diff gate against cgdiff.  Run by tests/test-fleet.sh, which picks a Python that has Dask
distributed (CGW_LIBRARY, PYTHONPATH, CGGEN, CGMERGE, CGDIFF, SUBJECT
and VALGRIND come from there)."""
import concurrent.futures
import logging
import os
import pty
import random
import shutil
import signal
import stat
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
# 80: enough for every case (the diff gate's two globs, g000* and
# g001*, and its 100-file slice; 50 and 60 files for the faults and the
# progress line; a tree of 1-file leaves 7 levels deep; 9 leaves of
# 10 on both workers while one is killed); CGW_FLEET_FILES=300 for more
FILES = int(os.environ.get("CGW_FLEET_FILES", "80"))

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
        # three bad inputs in two leaves of 10: each named, on its own
        # line, its path first, in the command's words (--skip-bad, not
        # the Python API's force=True); one run for all three
        good = self.paths[:50]
        bad = self.bad_inputs()
        paths = good[:15] + bad[:2] + good[15:35] + bad[2:] + good[35:]
        with self.assertRaises(fleet.BadInput) as c:
            fleet.merge_on(self.client, paths, batch=10)
        self.assertEqual(c.exception.path, bad[0])
        self.assertEqual([b for b, _ in c.exception.bad], bad)
        self.assertTrue(str(c.exception).startswith(bad[0]), str(c.exception))
        p = self.fleet("merge", "-o", self.path("never.out"), *paths)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 1, err)
        lines = err.splitlines()
        self.assertEqual([ln.split(":")[0] for ln in lines[:3]], bad, err)
        self.assertIn("unknown line", lines[0])
        self.assertIn("No such file or directory", lines[1])
        self.assertIn("Is a directory", lines[2])
        self.assertNotIn("cgw_", err)
        self.assertNotIn("force", err)
        self.assertIn("3 bad inputs", lines[3])
        self.assertIn("--skip-bad", lines[3])
        self.assertEqual(len(lines), 4, err)
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
        # stderr not a terminal: no progress line
        self.assertNotIn("merged", err)
        # every input bad: nothing to write, exit 1
        p = self.fleet("merge", "--skip-bad", "-o", self.path("none.out"), *bad)
        self.assertEqual(p.returncode, 1)
        self.assertIn("every input was skipped", p.stderr.decode())

    def test_worker_killed(self):
        # leaves that sleep 0.5 s first; once both workers run some, one
        # worker process is killed: the scheduler runs its tasks again on
        # the other (and on the one its nanny starts), same bytes
        before = self.client.run(os.getpid)
        fut = fleet.submit_tree(self.client, self.all, batch=10, fan_in=4, delay=0.5)
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

    def test_progress_on_terminal(self):
        # stderr a terminal (a pty): "merged K of N files" rewritten with
        # \r as the leaves finish, cleared at the end; -q: nothing
        paths = self.paths[:60]
        for quiet in ([], ["-q"]):
            out = self.path("tty.out")
            master, slave = pty.openpty()
            try:
                p = subprocess.Popen([sys.executable, "-m", "cgw.fleet", "merge", "--scheduler",
                                      self.cluster.scheduler_address, "--batch", "10", *quiet,
                                      "-o", out, *paths], stdout=subprocess.DEVNULL, stderr=slave)
            finally:
                os.close(slave)
            err = b""
            while True:
                try:
                    b = os.read(master, 4096)
                except OSError:
                    break
                if not b:
                    break
                err += b
            os.close(master)
            self.assertEqual(p.wait(), 0, err)
            err = err.decode()
            if quiet:
                self.assertEqual(err, "")
                continue
            self.assertIn("\rcgw.fleet: merged 60 of 60 files", err)
            self.assertRegex(err, r"^\rcgw\.fleet: merged [0-9]+ of 60 files")
            last = err.rsplit("\r", 2)
            self.assertEqual((last[1].strip(), last[2]), ("", ""), repr(err))

    def test_version_and_no_dask(self):
        # a dask package that cannot be imported ahead on PYTHONPATH:
        # --version needs no Dask and no other argument; a merge exits 2
        # (not 1, an invalid input) saying what to install
        shadow = self.path("no-dask")
        os.makedirs(os.path.join(shadow, "dask"), exist_ok=True)
        with open(os.path.join(shadow, "dask", "__init__.py"), "w") as f:
            f.write("raise ImportError('dask shadowed by test_fleet.py')\n")
        env = dict(os.environ, PYTHONPATH=shadow + os.pathsep + os.environ.get("PYTHONPATH", ""))
        p = run(sys.executable, "-m", "cgw.fleet", "--version", env=env)
        self.assertEqual((p.returncode, p.stdout.decode(), p.stderr.decode()),
                         (0, "cgw.fleet %s\n" % cgw.__version__, ""))
        out = self.path("no-dask.out")
        p = run(sys.executable, "-m", "cgw.fleet", "merge", "--local", "1", "-o", out,
                self.paths[0], env=env)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 2, err)
        self.assertIn("Dask distributed is not installed", err)
        self.assertIn("python3-distributed", err)
        self.assertIn('"dask[distributed]"', err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertFalse(os.path.exists(out))

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


class Gate(unittest.TestCase):
    """--fail-above as cgdiff's: a change past the bound fails, one of
    exactly the bound passes; fleet.report() on cgw.diff()'s rows,
    without a cluster, beside cgdiff on the same two files."""

    def test_fail_above_bound(self):
        with tempfile.TemporaryDirectory(prefix="test-fleet-gate-") as d:
            old, new = os.path.join(d, "old.out"), os.path.join(d, "new.out")
            for path, cost in ((old, 200), (new, 220)):
                with cgw.Writer(path, events=["Ir"]) as w:
                    w.function("main", file="a.c")
                    w.cost(1, [cost])
            rows = cgw.diff(old, new)
            # 20 more of 200: +10% for the total, main's self and inclusive cost
            self.assertEqual(sorted(set(r.change for r in rows)), [10.0])
            for pct, past in (("10", 0), ("9.99", len(rows)), ("10.01", 0)):
                with open(os.devnull, "w") as null:
                    self.assertEqual(fleet.report(rows, fail_above=float(pct), out=null), past,
                                     "--fail-above %s" % pct)
                q = run(CGDIFF, "--quiet", "--fail-above", pct, old, new, timeout=20)
                self.assertEqual(q.returncode, 1 if past else 0,
                                 "cgdiff --fail-above %s: %s" % (pct, q.stderr.decode()))


class Output(unittest.TestCase):
    """-o OUT as cgmerge -o writes it (issue 54: the fleet replaced what
    was there): fleet.write_atomic(), the client's last step, without a
    cluster, beside cgmerge -o on the same kinds of target."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test-fleet-out-")
        self.dir = self.tmp.name
        self.src = os.path.join(self.dir, "in.out")
        with cgw.Writer(self.src, events=["Ir"]) as w:
            w.function("main", file="a.c")
            w.cost(1, [5])
        self.data = cgmerge([self.src])

    def tearDown(self):
        self.tmp.cleanup()

    def writers(self):
        """(name, write(path)) for cgmerge -o and the fleet's writer."""
        def tool(path):
            p = run(CGMERGE, "-o", path, self.src, timeout=20)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
        return [("cgmerge", tool), ("fleet", lambda path: fleet.write_atomic(path, self.data))]

    def test_symlink_followed_and_kept(self):
        for name, write in self.writers():
            target = os.path.join(self.dir, name + ".target")
            with open(target, "w") as f:
                f.write("old\n")
            link = os.path.join(self.dir, name + ".link")
            os.symlink(os.path.basename(target), link)
            write(link)
            self.assertTrue(os.path.islink(link), name)
            with open(target, "rb") as f:
                self.assertEqual(f.read(), self.data, name)

    def test_mode_kept(self):
        for name, write in self.writers():
            out = os.path.join(self.dir, name + ".out")
            with open(out, "w") as f:
                f.write("old\n")
            os.chmod(out, 0o600)
            write(out)
            self.assertEqual(os.stat(out).st_mode & 0o777, 0o600, name)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), self.data, name)

    def test_fifo_written_through(self):
        # a FIFO is opened and written as fopen(path, "w") would: it
        # blocks until a reader comes (here cat), and stays a FIFO
        for name, write in self.writers():
            fifo = os.path.join(self.dir, name + ".fifo")
            os.mkfifo(fifo)
            got = os.path.join(self.dir, name + ".got")
            with open(got, "wb") as f:
                cat = subprocess.Popen(["cat", fifo], stdout=f)
            try:
                write(fifo)
                cat.wait(timeout=20)
            finally:
                if cat.poll() is None:
                    cat.kill()
                    cat.wait()
            self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), name)
            with open(got, "rb") as f:
                self.assertEqual(f.read(), self.data, name)


if __name__ == "__main__":
    unittest.main()
