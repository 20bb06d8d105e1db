# SPDX-License-Identifier: MIT
"""cgw.fleet: merge (and diff) many profiles on a Dask distributed
cluster, by a tree reduction whose result is the bytes one cgmerge of
the same files writes.

    python3 -m cgw.fleet merge (--scheduler ADDRESS | --local N) [-q] -o OUT INPUT...
    python3 -m cgw.fleet diff (--scheduler ADDRESS | --local N) [-q]
                             [--fail-above PCT] [--top N] [-o DIFF] OLD NEW
    python3 -m cgw.fleet --version

An INPUT is a path or a glob (quoted, so that the shell leaves it to
us: expanded with glob.glob and sorted); "@FILE" reads paths from FILE,
one a line.  In diff, OLD and NEW are one such set each.

The tree: the inputs are cut into batches of --batch files (default:
about four leaves a worker, at most 256 files a leaf); a leaf is a task
that merges the files of its batch with cgw.merge() into bytes; an
inner node merges the bytes of up to --fan-in children, read in memory
(cgw.Memory); the client writes the root's bytes to OUT through the
library's path sink, as cgmerge -o does (a file replaced atomically,
keeping its mode; a symlink followed; a device or FIFO written
through).  libcgw's merge is
associative and its output does not depend on the order of its inputs
(tests/test_fleet.py checks this against cgmerge, byte for byte), so the
tree gives cgmerge's bytes.

The workers read the inputs by their paths: with --scheduler, every
worker must see the same files at the same paths, and import this
package (cgw, with its libcgw) in its Python.  --local N starts a
LocalCluster of N worker processes of one thread each on this machine.

While it runs, a line on stderr says how many inputs the leaves have
merged ("merged 120 of 10000 files", rewritten in place and cleared at
the end), only when stderr is a terminal and without -q.

Faults: inputs that cannot be read, or that have errors (as cgmerge
refuses them), fail the run (exit 1), each named on a line of stderr
(its path, then why); with --skip-bad the run goes on without them and
lists each file skipped.  A worker that dies mid-run has its tasks run
again elsewhere by Dask's scheduler (up to
distributed.scheduler.allowed-failures times a task).  Without Dask
distributed the command exits 2 saying what to install.

From Python: merge_on(client, paths) -> (bytes, skipped), and
diff_on(client, old, new) -> (rows, skipped), rows as cgw.diff gives
them; skipped lists (path, message).
"""
import argparse
import glob
import logging
import math
import os
import re
import sys
import time
from typing import Any, Iterable, List, Optional, Sequence, TextIO, Tuple

from . import __version__, _lib, tools
from ._lib import Error
from .writer import Writer

PROG = "cgw.fleet"
MAX_BATCH = 256
FAN_IN = 8


class BadInput(Exception):
    """Inputs of the merge could not be read or have errors: bad is the
    list of (path, message), in the order of the inputs, each message
    with its path at its start; path and message are the first's."""

    def __init__(self, bad: Sequence[Tuple[str, str]]) -> None:
        super().__init__(bad)
        self.bad = list(bad)
        self.path, self.message = self.bad[0]

    def __str__(self) -> str:
        return "\n".join([m for _, m in self.bad] +
                         ["(%d bad input%s; skip_bad=True merges the others)"
                          % (len(self.bad), "" if len(self.bad) == 1 else "s")])


def _describe(path, e):
    """The message of an error reading path, the path first, in the
    words of this command (cgw.merge's own says force=True)."""
    if isinstance(e, OSError):
        return "%s: %s" % (path, e.strerror or e)
    d = getattr(e, "diagnostic", None)
    if d is not None:
        n = getattr(e, "errors", 1)
        return "%s:%d: error: %s [%s]%s" % (path, d.line, d.message, d.code,
                                             " (%d errors)" % n if n > 1 else "")
    m = str(e)
    if m.startswith("%s: " % path):
        m = m[len(str(path)) + 2:]
    elif m.startswith(str(path)):
        return m
    # as cgmerge says it: without the library call's name
    m = re.sub(r"^cgw_\w+: (reading: )?", "", m)
    return "%s: %s" % (path, m)


# ------------------------------------------------------------------ tasks
# Each task returns (bytes or None, [(path, message) skipped]).

def _leaf(paths, skip_bad=False, delay=0.0):
    """Merge the files of one batch (delay: seconds to sleep first, for
    the tests that kill a worker while tasks run)."""
    if delay:
        time.sleep(delay)
    try:
        return tools.merge(paths), []
    except (Error, OSError) as e:
        failed = e
    # which files?  Each alone, in order: every bad one is named (the
    # run fails without --skip-bad) or left out
    skipped = []
    good = []
    for p in paths:
        try:
            tools.merge([p])
        except (Error, OSError) as e:
            skipped.append((p, _describe(p, e)))
        else:
            good.append(p)
    if not skipped:
        # each file alone is fine, not together (positions they do not
        # share): not one file's fault
        raise failed
    if not skip_bad:
        # the run fails: the good ones are not worth merging
        return None, skipped
    return (tools.merge(good) if good else None), skipped


def _inner(*children, skip_bad=False):
    """Merge the bytes of the children (results of _leaf or _inner)."""
    blobs = [b for b, _ in children if b is not None]
    skipped = [s for _, sk in children for s in sk]
    if skipped and not skip_bad:
        return None, skipped
    if len(blobs) > 1:
        merged = tools.merge([tools.Memory(b, "a merge of %d bytes" % len(b)) for b in blobs])
    else:
        # merging one merged profile again gives its bytes (checked by
        # tests/test_fleet.py)
        merged = blobs[0] if blobs else None
    return merged, skipped


# --------------------------------------------------------------- the tree

def _workers(client):
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:
        return 1


def default_batch(n: int, workers: int) -> int:
    """Files a leaf for n files on workers workers: about four leaves a
    worker, 1 to MAX_BATCH."""
    return max(1, min(MAX_BATCH, math.ceil(n / (4 * max(1, workers)))))


def submit_tree(client: Any, paths: Iterable[str], batch: Optional[int] = None,
                fan_in: int = FAN_IN, skip_bad: bool = False, delay: float = 0.0) -> Any:
    """Submit the reduction of paths to client (a dask.distributed
    Client); the future of its root, whose result is (bytes or None,
    skipped).  batch: files a leaf (None: default_batch()); delay:
    seconds each leaf sleeps first.  ValueError for no paths or fan_in
    below 2."""
    return _submit(client, paths, batch, fan_in, skip_bad, delay)[0]


def _submit(client: Any, paths: Iterable[str], batch: Optional[int] = None,
            fan_in: int = FAN_IN, skip_bad: bool = False, delay: float = 0.0) -> Any:
    """Submit the reduction of paths: (the future of its root, a list of
    (the future of a leaf, the number of its files))."""
    paths = list(paths)
    if not paths:
        raise ValueError("no input")
    if fan_in < 2:
        raise ValueError("fan_in must be 2 or more")
    if batch is None:
        batch = default_batch(len(paths), _workers(client))
    leaves = [(client.submit(_leaf, paths[i:i + batch], skip_bad, delay, pure=False),
               len(paths[i:i + batch]))
              for i in range(0, len(paths), batch)]
    level = [f for f, _ in leaves]
    while len(level) > 1:
        level = [client.submit(_inner, *level[i:i + fan_in], skip_bad=skip_bad, pure=False)
                 if len(level[i:i + fan_in]) > 1 else level[i]
                 for i in range(0, len(level), fan_in)]
    return level[0], leaves


def _finish(result, skip_bad=True):
    data, skipped = result
    if skipped and not skip_bad:
        raise BadInput(skipped)
    if data is None:
        raise Error(1, "every input was skipped: nothing merged")
    return data, skipped


def _progress(trees: Any, out: TextIO) -> None:
    """Until every leaf of trees (as _submit returns them) is done, keep
    a line "merged K of N files" on out, rewritten in place (at most
    ten times a second); then clear it."""
    from dask.distributed import as_completed
    files = {f.key: n for _, leaves in trees for f, n in leaves}
    total, done, shown, last = sum(files.values()), 0, "", 0.0
    try:
        for f in as_completed([f for _, leaves in trees for f, _ in leaves]):
            done += files[f.key]
            now = time.monotonic()
            if now - last >= 0.1 or done == total:
                line = "%s: merged %d of %d files" % (PROG, done, total)
                out.write("\r" + line.ljust(len(shown)))
                out.flush()
                shown, last = line, now
    finally:
        if shown:
            out.write("\r" + " " * len(shown) + "\r")
            out.flush()


def _results(trees: Any, skip_bad: bool, progress: bool) -> List[Any]:
    """The (bytes, skipped) of each tree's root; BadInput (without
    skip_bad) naming the bad inputs of every tree."""
    if progress:
        _progress(trees, sys.stderr)
    results = [root.result() for root, _ in trees]
    bad = [s for _, sk in results for s in sk]
    if bad and not skip_bad:
        raise BadInput(bad)
    return [_finish(r) for r in results]


def merge_on(client: Any, paths: Iterable[str], batch: Optional[int] = None,
             fan_in: int = FAN_IN, skip_bad: bool = False, delay: float = 0.0,
             progress: bool = False) -> Tuple[bytes, List[Tuple[str, str]]]:
    """Merge paths on the cluster of client: (the merged bytes, the list
    of (path, message) skipped).  Raises BadInput (without skip_bad)
    naming every bad input, cgw.Error when the inputs cannot be merged
    together (or every one was skipped).  progress: the line "merged K
    of N files" on stderr while it runs."""
    tree = _submit(client, paths, batch, fan_in, skip_bad, delay)
    return _results([tree], skip_bad, progress)[0]


def merge_pair_on(client: Any, old: Iterable[str], new: Iterable[str],
                  batch: Optional[int] = None, fan_in: int = FAN_IN,
                  skip_bad: bool = False,
                  progress: bool = False) -> Tuple[bytes, bytes, List[Tuple[str, str]]]:
    """Merge two sets on the cluster, both at once: (the merge of old,
    the merge of new, the list skipped).  Raises as merge_on()."""
    trees = [_submit(client, old, batch, fan_in, skip_bad),
             _submit(client, new, batch, fan_in, skip_bad)]
    (a, sa), (b, sb) = _results(trees, skip_bad, progress)
    return a, b, sa + sb


def diff_on(client: Any, old: Iterable[str], new: Iterable[str], batch: Optional[int] = None,
            fan_in: int = FAN_IN, skip_bad: bool = False,
            output: Optional[str] = None) -> Tuple[List[Any], List[Tuple[str, str]]]:
    """Merge each side on the cluster, then compare the two merges with
    cgw.diff here: (rows, skipped), rows as cgw.diff gives them (output:
    a path for the profile of the difference).  Raises as merge_on()."""
    a, b, skipped = merge_pair_on(client, old, new, batch, fan_in, skip_bad)
    return _diff(a, b, output), skipped


def _diff(a, b, output=None):
    return tools.diff(tools.Memory(a, "the merge of OLD"), tools.Memory(b, "the merge of NEW"),
                      output=output)


def _events(data):
    """The event names of a merged profile (its one events: line)."""
    for line in data.split(b"\n", 200)[:200]:
        if line.startswith(b"events:"):
            return line[7:].decode("utf-8", "surrogateescape").split()
    return []


# ------------------------------------------------------------ the command

def expand(args: Iterable[str]) -> List[str]:
    """The paths of the INPUT arguments: a glob, sorted; @FILE, its
    lines; else the path itself.  A glob matching nothing: ValueError."""
    out: List[str] = []
    for a in args:
        if a.startswith("@") and len(a) > 1:
            with open(a[1:], encoding="utf-8", errors="surrogateescape") as f:
                out.extend(line.rstrip("\n") for line in f if line.strip())
        elif glob.has_magic(a):
            m = sorted(glob.glob(a))
            if not m:
                raise ValueError("%s: no file matches" % a)
            out.extend(m)
        else:
            out.append(a)
    return out


def write_atomic(path: str, data: bytes) -> None:
    """Write data to path through the library's path sink (a cgw.RAW
    writer), as cgmerge -o writes: a regular file is replaced atomically
    (a temporary file of its folder, renamed) and keeps its permission
    bits; a symlink is followed and stays; a device or a FIFO is written
    through, never replaced.  OSError when path cannot be opened,
    cgw.Error when it cannot be written (a file replaced is then left as
    it was)."""
    w = Writer(path, flags=_lib.RAW)
    with w:
        w.write_bytes(data)


class _NoDask(Exception):
    pass


def _client(args):
    """A Client of --scheduler's cluster or a new LocalCluster (_NoDask
    when Dask distributed cannot be imported)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:
        raise _NoDask("Dask distributed is not installed for %s (%s): install Debian's "
                      "python3-distributed, or pip install \"dask[distributed]\""
                      % (sys.executable, e)) from None
    # On a busy machine the engine's own connections may time out while
    # it shuts down; asyncio then prints "Future exception was never
    # retrieved" on stderr, after the command's own output and status.
    # The command reports its failures itself: the engine's stray ones
    # are not shown.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    if args.scheduler:
        return Client(args.scheduler), None
    cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.ERROR)
    return Client(cluster), cluster


def _say_skipped(skipped):
    for p, m in skipped:
        print("%s: skipped %s" % (PROG, m), file=sys.stderr)
    if skipped:
        print("%s: %d input%s skipped" % (PROG, len(skipped), "" if len(skipped) == 1 else "s"),
              file=sys.stderr)


def _print_row(r, out):
    d = ("+%d" % (r.new_cost - r.old_cost) if r.new_cost >= r.old_cost
         else "-%d" % (r.old_cost - r.new_cost))
    if r.function is None:
        out.write("%s: %d -> %d  %s (%+.2f%%)\n" % (r.event, r.old_cost, r.new_cost, d, r.change))
        return
    s = "  %-9s %14s %+9.2f%%  %s:%s" % ("inclusive" if r.inclusive else "self", d, r.change,
                                         r.file, r.function)
    if r.object is not None:
        s += " [%s]" % r.object
    out.write(s + "\n")


def report(rows: Sequence[Any], top: int = 20, fail_above: Optional[float] = None,
           out: TextIO = sys.stdout) -> int:
    """Print rows (cgw.DiffRow) to out as cgdiff does, at most top
    changes; the number of changes past fail_above (in percent, as
    DiffRow.change)."""
    past = sum(1 for r in rows if fail_above is not None and abs(r.change) > fail_above)
    for t in rows:
        if t.function is not None:
            break
        _print_row(t, out)
        shown = 0
        for r in rows:
            if r.function is None or r.column != t.column:
                continue
            if top != 0 and shown == top:
                out.write("  ...\n")
                break
            shown += 1
            _print_row(r, out)
    return past


def _parser():
    ap = argparse.ArgumentParser(prog="python3 -m cgw.fleet",
                                 description="Merge or diff profiles on a Dask cluster, "
                                 "the bytes of cgmerge.")
    ap.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p):
        g = p.add_mutually_exclusive_group(required=True)
        g.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler")
        g.add_argument("--local", metavar="N", type=int,
                       help="a LocalCluster of N worker processes, one thread each")
        p.add_argument("--batch", type=int, metavar="K", help="files a leaf task merges")
        p.add_argument("--fan-in", type=int, default=FAN_IN, metavar="F",
                       help="children an inner task merges (default %d)" % FAN_IN)
        p.add_argument("--skip-bad", action="store_true",
                       help="leave out inputs that cannot be read or have errors "
                       "(listed on stderr) instead of failing")
        p.add_argument("-q", "--quiet", action="store_true",
                       help="no progress line on stderr (shown only on a terminal)")

    m = sub.add_parser("merge", help="sum profiles as cgmerge does")
    common(m)
    m.add_argument("-o", dest="out", metavar="OUT", help="output (default: stdout)")
    m.add_argument("inputs", nargs="+", metavar="INPUT", help="a path, a glob or @LIST")
    d = sub.add_parser("diff", help="merge two sets, then compare them as cgdiff does")
    common(d)
    d.add_argument("--fail-above", type=float, metavar="PCT",
                   help="exit 1 when a total or a function moved by more than PCT "
                   "percent of the event's old total")
    d.add_argument("--top", type=int, default=20, metavar="N",
                   help="at most N functions an event (default 20, 0: all)")
    d.add_argument("-o", dest="out", metavar="DIFF",
                   help="also write the difference as a profile")
    d.add_argument("old", metavar="OLD", help="a path, a glob or @LIST")
    d.add_argument("new", metavar="NEW", help="a path, a glob or @LIST")
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    """python3 -m cgw.fleet with arguments argv (None: sys.argv's): the
    exit status: 0; 1 for a bad input, a failure or (diff) a change
    past --fail-above, said on stderr; 2 for an INPUT that names no
    file."""
    args = _parser().parse_args(argv)
    if args.local is not None and args.local < 1:
        _parser().error("--local needs 1 worker or more")
    if args.batch is not None and args.batch < 1:
        _parser().error("--batch needs 1 or more")
    if args.fan_in < 2:
        _parser().error("--fan-in needs 2 or more")
    if args.command == "diff" and args.fail_above is not None and not args.fail_above >= 0:
        _parser().error("bad value for --fail-above: %s" % args.fail_above)
    try:
        if args.command == "merge":
            sets = [expand(args.inputs)]
        else:
            sets = [expand([args.old]), expand([args.new])]
    except (ValueError, OSError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    try:
        client, cluster = _client(args)
    except _NoDask as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    try:
        kw = dict(batch=args.batch, fan_in=args.fan_in, skip_bad=args.skip_bad,
                  progress=not args.quiet and sys.stderr.isatty())
        if args.command == "merge":
            data, skipped = merge_on(client, sets[0], **kw)
            _say_skipped(skipped)
            if args.out is None or args.out == "-":
                sys.stdout.buffer.write(data)
                sys.stdout.flush()
            else:
                write_atomic(args.out, data)
            return 0
        a, b, skipped = merge_pair_on(client, sets[0], sets[1], **kw)
        _say_skipped(skipped)
        ea, eb = _events(a), _events(b)
        if not set(ea) & set(eb):
            print("%s: the profiles have no event in common (OLD has %s, NEW has %s): "
                  "nothing to compare" % (PROG, " ".join(ea), " ".join(eb)), file=sys.stderr)
            return 1
        rows = _diff(a, b, args.out)
        past = report(rows, args.top, args.fail_above)
        sys.stdout.flush()
        if past:
            print("%s: %d change%s of more than %g%%" % (PROG, past, "" if past == 1 else "s",
                                                         args.fail_above), file=sys.stderr)
            return 1
        return 0
    except BadInput as e:
        # each on its line, path first; then what the command can do
        for _, m in e.bad:
            print(m, file=sys.stderr)
        print("%s: %d bad input%s: nothing written (--skip-bad merges the others)"
              % (PROG, len(e.bad), "" if len(e.bad) == 1 else "s"), file=sys.stderr)
        return 1
    except (Error, OSError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    # through the module cgw.fleet, not __main__: the tasks are pickled
    # by reference to cgw.fleet, which the workers import
    from cgw.fleet import main as _main
    sys.exit(_main())
