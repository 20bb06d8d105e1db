# SPDX-License-Identifier: MIT
"""bench-python-stacks: a Python sampler on the package against one
written by hand, in one run, CPU time of this process for each.

    python3 bench/bench-python-stacks.py [SAMPLES [DISTINCT]]
        (default 200000 of 20000; PYTHONPATH and CGW_LIBRARY as for
        the package)

Both see the same samples: DISTINCT call paths of depth 8 to 40 over 500
functions in 40 files, their frames built once per path (a tuple of
cgw.Frame, as a sampler keeps them), seen in a fixed pseudo-random order.

- cgw: cgw.Stacks().add(frames, 1) once a sample, then write() into
  memory;
- by hand: a collections.Counter of the frame tuples, then the Callgrind
  text written in pure Python (each leaf's self cost at its line; each
  distinct caller/callee pair of a stack once, at the line of its
  outermost call, with the samples as its count and inclusive cost), as
  a profiler without the package writes it.

The two profiles are read back with cgw.summary() and must say the same
(functions, self costs, call edges with counts and inclusive costs,
totals), or the bench fails.  Target (issue 52): the package at least 2x
faster than the hand-written sampler."""
import collections
import os
import sys
import time

import cgw

NFUNCS, MAXDEPTH = 500, 40


def paths(ndistinct):
    """The distinct stacks: tuples of cgw.Frame, root first."""
    x = 88172645463325252
    names = ["module.function_%d" % i for i in range(NFUNCS)]
    files = ["src/f%d.py" % i for i in range(40)]
    frames = {}

    def rnd():
        nonlocal x
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        return x

    out = []
    for _ in range(ndistinct):
        depth = 8 + rnd() % (MAXDEPTH - 8)
        stack = []
        for _ in range(depth):
            fn, line = rnd() % NFUNCS, 1 + rnd() % 400
            key = (fn, line)
            if key not in frames:
                frames[key] = cgw.Frame(names[fn], files[fn % 40], None, line)
            stack.append(frames[key])
        out.append(tuple(stack))
    return out


def samples(stacks, n):
    """The order the samples come in: indexes into stacks."""
    y, out = 1, []
    for _ in range(n):
        y ^= (y << 13) & 0xFFFFFFFFFFFFFFFF
        y ^= y >> 7
        y ^= (y << 17) & 0xFFFFFFFFFFFFFFFF
        out.append(stacks[y % len(stacks)])
    return out


def by_package(seen):
    s = cgw.Stacks()
    add = s.add
    for frames in seen:
        add(frames, 1)
    return s.write(None)


def by_hand(seen):
    """What a profiler author writes without the package."""
    counts = collections.Counter()
    for frames in seen:
        counts[frames] += 1
    fns = {}      # (file, name) -> index, in order first seen
    selfc = {}    # (fn, line) -> samples
    calls = {}    # (caller, line, callee) -> [count, inclusive]
    for frames, n in counts.items():
        ids = []
        for f in frames:
            k = (f.file, f.name)
            if k not in fns:
                fns[k] = len(fns)
            ids.append(fns[k])
        leaf = (ids[-1], frames[-1].line)
        selfc[leaf] = selfc.get(leaf, 0) + n
        seen_pairs = set()
        for i in range(1, len(ids)):
            pair = (ids[i - 1], ids[i])
            if pair in seen_pairs:
                continue
            seen_pairs.add(pair)
            key = (ids[i - 1], frames[i - 1].line, ids[i])
            c = calls.setdefault(key, [0, 0])
            c[0] += n
            c[1] += n
    names = list(fns)
    out = ["# callgrind format\nversion: 1\npositions: line\nevents: Samples\n"]
    by_fn = collections.defaultdict(list)
    for (fn, line), n in selfc.items():
        by_fn[fn].append("%d %d\n" % (line, n))
    for (fn, line, callee), (count, incl) in calls.items():
        file, name = names[callee]
        by_fn[fn].append("cfi=%s\ncfn=%s\ncalls=%d 0\n%d %d\n" % (file, name, count, line, incl))
    for fn, (file, name) in enumerate(names):
        out.append("fl=%s\nfn=%s\n" % (file, name))
        out.extend(by_fn.get(fn, ()))
    out.append("totals: %d\n" % sum(counts.values()))
    return "".join(out).encode()


def timed(fn, *args):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn(*args)
    return out, time.process_time() - c0, time.perf_counter() - w0


def main():
    nsamples = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    ndistinct = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    seen = samples(paths(ndistinct), nsamples)
    # each twice, alternating, the least CPU of each kept
    best = {}
    outs = {}
    for _ in range(2):
        for name, fn in (("cgw.Stacks.add + write", by_package), ("Counter + text by hand", by_hand)):
            out, cpu, wall = timed(fn, seen)
            outs[name] = out
            if name not in best or cpu < best[name][0]:
                best[name] = (cpu, wall)
    tmp = os.environ.get("TMPDIR", "/tmp")
    sums = []
    for name, out in outs.items():
        path = os.path.join(tmp, "bench-python-stacks-%d.out" % len(sums))
        with open(path, "wb") as f:
            f.write(out)
        s = cgw.summary(path)
        os.unlink(path)
        sums.append((s.totals, s.functions, s.edges))
    if sums[0] != sums[1]:
        print("bench-python-stacks: the two profiles differ", file=sys.stderr)
        return 1
    print("bench-python-stacks: %d samples of %d distinct stacks (depth 8-39, %d functions); "
          "the two profiles read back the same" % (nsamples, ndistinct, NFUNCS))
    print("  %-28s %9s %9s %14s" % ("", "CPU s", "wall s", "samples/s CPU"))
    for name, (cpu, wall) in best.items():
        print("  %-28s %9.3f %9.3f %14.0f" % (name, cpu, wall, nsamples / cpu))
    a, b = best["cgw.Stacks.add + write"][0], best["Counter + text by hand"][0]
    print("  the package takes %.2fx the CPU of the hand-written sampler (%.2fx faster; "
          "target 2x)" % (a / b, b / a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
