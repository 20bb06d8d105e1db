# SPDX-License-Identifier: MIT
"""cgw.pstats: Python profiles (pstats data, as cProfile and profile save
them) written as Callgrind profiles through cgw.Writer.

    python3 -m cgw.pstats prog.pstats -o callgrind.out.prog

or from Python, convert(stats, dest): stats is a pstats.Stats, its
.stats dict ({(file, line, func): (cc, nc, tt, ct, callers)}) or a
cProfile.Profile / profile.Profile that has run.  cgw.cprofile profiles
a program and writes through convert() too.

What is written, as pyprof2calltree writes it, save where noted:
  - one event, "ns" (nanoseconds; no "event:" line for its long name,
    which cgverify warns of): the times of pstats in seconds, times
    1e9, rounded to the nearest nanosecond (pyprof2calltree truncates:
    a time of pstats is a whole number of nanoseconds in a float, which
    may fall a hair short of it, as a sum of times of several files or
    callers can, and truncating then makes it a nanosecond less, where
    rounding gets it back); a negative time (profile's
    calibration can give one) is 0;
  - a function for each pstats entry, named "func file:line" (its first
    line), fl= its file ("~" for built-ins, which keep their pstats name
    alone), its self time tt at its first line;
  - a call for each entry of its callers dict, from the caller's first
    line to the callee's, calls= the count of calls made there (nc, the
    first member of cProfile's caller tuples, recursive calls included)
    with their inclusive time ct.  The profile module records only a
    count for each caller: its share of the callee's ct is the share of
    the calls;
  - the totals are the sum of the self times, written by the library
    (pyprof2calltree writes a summary: of the largest inclusive time
    instead, which leaves out what ran outside the outermost call, such
    as the profiler's own disable()).
"""
import argparse
import os
import re
import pstats as _pstats  # the standard library's (imports are absolute)
import sys
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _lib
from .writer import Writer

# the event, without pyprof2calltree's long name ("event: ns : Nanoseconds"):
# an event: line ends Qt Creator's header, so cgverify warns of one
EVENT = "ns"
#: A pstats entry's key: (file, first line, function).
Key = Tuple[str, int, str]


def ns(seconds: float) -> int:
    """A time of pstats (seconds, a float) in whole nanoseconds: rounded,
    and 0 for a negative time."""
    v = round(seconds * 1e9)
    return v if v > 0 else 0


_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def _text(s: str) -> str:
    """s as a name the writer takes: control characters (the profile
    module names its outermost entry by the statement run, line breaks
    and all) a blank, no blanks around."""
    return _CONTROL.sub(" ", s).strip() or "???"


def file_name(key: Key) -> str:
    """The fl= file of the pstats entry key (file, line, func): its file,
    "~" for a built-in (the profile module gives them "")."""
    return _text(key[0]) if key[0] else "~"


def function_name(key: Key) -> str:
    """The fn= name of the pstats entry key (file, line, func): "func
    file:line", or func alone for a built-in ("~" or "", line 0: "<built-in
    method ...>", "sum"): names are unique across files, since some
    readers (gprof2dot) merge functions by name alone."""
    file, line, func = key
    if file in ("~", "") and line == 0:
        return _text(func)
    return "%s %s:%d" % (_text(func), _text(file), line)


def stats_dict(stats: Any) -> Dict[Key, Any]:
    """The {(file, line, func): (cc, nc, tt, ct, callers)} dict of stats:
    a pstats.Stats, such a dict, or a profiler (cProfile.Profile,
    profile.Profile) that has run.  TypeError for anything else."""
    if isinstance(stats, dict):
        return stats
    if isinstance(stats, _pstats.Stats):
        return stats.stats
    if hasattr(stats, "create_stats"):
        stats.create_stats()
        return stats.stats
    raise TypeError("stats must be a pstats.Stats, its stats dict or a profiler, not %s"
                    % type(stats).__name__)


def calls(stats: Dict[Key, Any]) -> Dict[Key, List[Tuple[Key, int, float]]]:
    """{caller key: [(callee key, count, inclusive seconds)]} from the
    callers dicts of stats (a stats dict), callers in the order met."""
    out: Dict[Key, List[Tuple[Key, int, float]]] = {}
    for callee, (cc, nc, tt, ct, callers) in stats.items():
        for caller, info in callers.items():
            if isinstance(info, tuple):       # cProfile: (nc, cc, tt, ct)
                count, incl = info[0], info[3]
            else:                             # profile: a count alone
                count = info
                incl = ct * info / nc if nc else 0.0
            out.setdefault(caller, []).append((callee, count, incl))
    return out


def write(stats: Any, w: Writer) -> None:
    """Write the functions and calls of stats (see stats_dict()) through
    the cgw.Writer w, which has the event "ns" first (times in
    nanoseconds).  cgw.Error as the writer's calls."""
    st = stats_dict(stats)
    edges = calls(st)
    # a caller without an entry of its own (a Stats filtered by hand)
    # still gets its function, with no self cost
    keys = list(st) + [k for k in edges if k not in st]
    for key in keys:
        line = key[1]
        w.function(function_name(key), file=file_name(key))
        w.cost(line, [ns(st[key][2]) if key in st else 0])
        for callee, count, incl in edges.get(key, ()):
            w.call(function_name(callee), count, line, [ns(incl)], file=file_name(callee),
                   target_pos=callee[1])


def convert(stats: Any, dest: Any = None, cmd: Optional[str] = None, pid: Optional[int] = None,
            creator: Optional[str] = None, flags: int = 0) -> Optional[bytes]:
    """Write stats (see stats_dict()) as a Callgrind profile to dest (a
    path, a descriptor, or None: the profile's bytes are returned); cmd,
    pid, creator and flags (cgw.EXCL...) go to the cgw.Writer.  A count
    of 0 is written as given (cgw.ZERO_COUNTS).  OSError when dest
    cannot be opened (exists, with cgw.EXCL); cgw.Error as the writer's
    calls; TypeError as stats_dict()."""
    w = Writer(dest, events=[EVENT], cmd=cmd, pid=pid, creator=creator,
               flags=flags | _lib.ZERO_COUNTS)
    with w:
        write(stats, w)
    return w.getvalue() if dest is None else None


def why(e: BaseException) -> str:
    """What went wrong in e, an exception of writing: for an OSError its
    strerror alone (the writer's already names the call and the path)."""
    if isinstance(e, OSError) and e.errno is not None:
        return os.strerror(e.errno)
    return str(e)


def default_output(path: str) -> str:
    """callgrind.out.NAME for the pstats file path (NAME: its file name
    without .pstats, .prof or .profile)."""
    name = os.path.basename(path)
    for ext in (".pstats", ".prof", ".profile"):
        if name.endswith(ext) and len(name) > len(ext):
            name = name[:-len(ext)]
            break
    return "callgrind.out." + name


def main(argv: Optional[List[str]] = None) -> int:
    """python3 -m cgw.pstats with arguments argv (None: sys.argv's):
    the exit status, 0 or 1 (a file unreadable or unwritable, said on
    stderr); argparse's SystemExit for bad arguments."""
    p = argparse.ArgumentParser(
        prog="python3 -m cgw.pstats",
        description="Write saved Python profiles (pstats files: python3 -m cProfile -o, "
        "pstats.Stats.dump_stats) as one Callgrind profile (event ns).")
    p.add_argument("files", nargs="+", metavar="FILE.pstats",
                   help="pstats files (several are added up, as pstats.Stats adds them)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the profile to write (default: callgrind.out.NAME, NAME the "
                   "first file's name without .pstats or .prof)")
    args = p.parse_args(argv)
    out = args.output or default_output(args.files[0])
    try:
        stats = _pstats.Stats(*args.files)
    except Exception as e:  # OSError, marshal's ValueError or EOFError, TypeError
        sys.stderr.write("%s: cannot read %s as pstats: %s\n"
                         % (p.prog, " ".join(args.files), e))
        return 1
    try:
        convert(stats, out)
    except (OSError, _lib.Error, ValueError) as e:
        sys.stderr.write("%s: cannot write %s: %s\n" % (p.prog, out, why(e)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
