# SPDX-License-Identifier: MIT
"""examples/sampler.py: a sampling profiler for Python in 80 lines, on cgw.

    python3 examples/sampler.py [-o OUT] [-i MS] script.py [args...]

Every MS milliseconds of CPU time (ITIMER_PROF: user plus system time of
the process; the kernel's tick may make it longer) the kernel sends
SIGPROF; the handler walks the frames of
the code it interrupted, from that frame out to the script's, and counts
the stack.  (Python runs the handler between two bytecodes, at its
next check for signals, a call or a loop's jump back: the lines are
those places, near where the time went.)  At the end the stacks go to cgw.Stacks, which writes them as
a call graph: self samples at the line each leaf was running, calls at
the line of each call (event "Samples").  Only the main thread is
sampled (signal handlers run there); sys._current_frames() has the
frames of the other threads, for a sampler that wants them too.
"""
import argparse
import collections
import os
import signal
import sys

import cgw


def run(code, globs):
    # the frame of this function is where a stack stops: what is above
    # it is the profiled program, what is below it the sampler
    exec(code, globs)


def main():
    p = argparse.ArgumentParser(description="A sampling profiler on cgw.Stacks.")
    p.add_argument("-o", "--output", default="callgrind.out.%d" % os.getpid())
    p.add_argument("-i", "--interval", type=float, default=1.0, metavar="MS",
                   help="milliseconds of CPU time between samples (default 1)")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    out = os.path.abspath(a.output)           # the script may chdir

    # The handler only counts: a tuple of (name, file, line) a frame,
    # root first, as a key.  It must be quick, since the program stops
    # while it runs; cgw.Stacks gets the stacks once, at the end.
    counts = collections.Counter()

    def on_sigprof(signum, frame):
        stack = []
        while frame is not None and frame.f_code is not run.__code__:
            code = frame.f_code
            # co_qualname (3.11) tells C.f from D.f; f_lineno is the line
            # running now: the cost's line for the leaf, the call's line
            # for the others
            name = getattr(code, "co_qualname", code.co_name)
            stack.append((name, code.co_filename, frame.f_lineno or 0))
            frame = frame.f_back
        if frame is not None:                 # a sample outside run(): none
            stack.reverse()
            counts[tuple(stack)] += 1

    # run the script as python3 script.py would: its argv, its folder
    # first on sys.path, fresh __main__ globals
    sys.argv[:] = [a.script] + a.args
    sys.path.insert(0, os.path.dirname(a.script))
    with open(a.script, "rb") as f:
        code = compile(f.read(), a.script, "exec")
    globs = {"__name__": "__main__", "__file__": a.script, "__builtins__": __builtins__}

    signal.signal(signal.SIGPROF, on_sigprof)
    signal.setitimer(signal.ITIMER_PROF, a.interval / 1000, a.interval / 1000)
    status = 0
    try:
        run(code, globs)
    except SystemExit as e:
        status = e.code
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)  # no more samples
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        # Each frame becomes a cgw.Frame(name, file, line=...): Stacks
        # keeps a function once per (name, file), told apart from another
        # of its name by its fl= file, never renamed.  Each distinct stack
        # is added once with its samples as the count, so calls= counts
        # the distinct stacks through a call (costs are samples either
        # way); adding each sample with count 1 would make calls= count
        # the samples through it (libcgw-stacks(3), "For profiler
        # authors").
        with cgw.Stacks() as s:
            for stack, n in counts.items():
                s.add([cgw.Frame(name, file, line=line) for name, file, line in stack], n)
            s.write(out, cmd=" ".join(sys.argv).replace("\n", " "), pid=os.getpid())
        sys.stderr.write("sampler: %d samples of %d stacks in %s\n"
                         % (sum(counts.values()), len(counts), out))
    return status


if __name__ == "__main__":
    sys.exit(main())
