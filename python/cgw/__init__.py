# SPDX-License-Identifier: MIT
"""cgw: write and read Callgrind profiles with libcgw, through ctypes.

    import cgw
    with cgw.Writer("callgrind.out", events=["Ir"], cmd="./a.out") as w:
        w.function("main", file="a.c")
        w.cost(3, [10])
        w.call("f", 1, 4, [20])         # line 4 calls f (in a.c) once: 20 Ir
        w.function("f", file="a.c")
        w.cost(10, [20])
    s = cgw.summary("callgrind.out")    # events, totals, functions, edges
    p = cgw.Profile("callgrind.out")    # the call graph: inclusive costs, cycles, stacks

The library is the one named by CGW_LIBRARY (a path), else the libcgw of
the prefix this package was installed into, else ctypes.util's
find_library("cgw").  Every failure of the library raises cgw.Error
with its status and own message; values that C cannot take (an int
past 2**64-1 or below 0, a str with a NUL) raise OverflowError or
ValueError before reaching it.

Writer.function(), call(), jump() and cond_jump() take their arguments
in C's order, the function named first: name, then counts, the source
position and costs; where the callee is (file=, object=) and lands
(target_pos=) are keyword-only.

The constants of <cgw.h> are enum classes (Status, Position,
WriterFlag, ReadFlag, RecordKind, Severity...), their members equal to
the C values; the module-level names (cgw.EINVAL, cgw.POS_LINE,
cgw.COMPACT...) are aliases of the members.  Values from the library
come back as members: Error.status, Diagnostic.severity, Part.positions.
"""
import ctypes
from typing import List, Optional

#: The version of this package, libcgw's version (its pyproject.toml's).
__version__ = "0.1.0"

from ._lib import (Error, lib as _clib, text as _text, cstr as _cstr,
                   Status, Position, WriterFlag, ReadFlag, RecordKind, Severity,
                   DiffSide, RecodeFlag, MergeFlag, StackFlag, GenFlag, Feature, gzip_level,
                   OK, EIO, ENOMEM, EUSAGE, EINVAL, ERANGE,
                   POS_LINE, POS_INSTR, POS_BB, POS_NONE,
                   COMPACT, NO_NAME_COMPRESSION, NO_POS_COMPRESSION, EXTENDED, GZIP,
                   NOFOLLOW, EXCL, ZERO_COUNTS, ONE_PART, QUALIFY_NAMES, WARNING, ERROR,
                   GEN_INLINE, GEN_JUMPS, STACK_UNCOUNTED, STACK_LEAF_FIRST)
from .writer import NO_OBJECT, Writer
from .stacks import Stacks, Frame, generate
from .reader import (read, summary, verify, Summary, Diagnostic, Target, Event, Part,
                     Function, Inline, Cost, Call, Jump, CondJump, PartEnd)
from .tools import merge, diff, convert_folded, recode, DiffRow, Memory
from .profile import Profile, ProfileFunction, CallEdge, Cycle, Line, ProfileFlag, FunctionFlag

__all__ = [
    "Error", "Writer", "NO_OBJECT", "Stacks", "Frame", "generate", "read", "summary", "verify", "Summary",
    "Diagnostic", "Target", "Event", "Part", "Function", "Inline", "Cost", "Call", "Jump",
    "CondJump", "PartEnd", "merge", "diff", "convert_folded", "recode", "DiffRow", "Memory",
    "Profile", "ProfileFunction", "CallEdge", "Cycle", "Line",
    "version", "features", "event_seconds", "format_seconds", "__version__",
    "Status", "Position", "WriterFlag", "ReadFlag", "RecordKind", "Severity", "DiffSide",
    "RecodeFlag", "MergeFlag", "StackFlag", "GenFlag", "Feature", "ProfileFlag", "FunctionFlag",
    "gzip_level",
    "OK", "EIO", "ENOMEM", "EUSAGE", "EINVAL", "ERANGE",
    "POS_LINE", "POS_INSTR", "POS_BB", "POS_NONE",
    "COMPACT", "NO_NAME_COMPRESSION", "NO_POS_COMPRESSION", "EXTENDED", "GZIP",
    "NOFOLLOW", "EXCL", "ZERO_COUNTS", "ONE_PART", "QUALIFY_NAMES", "WARNING", "ERROR",
    "GEN_INLINE", "GEN_JUMPS", "STACK_UNCOUNTED", "STACK_LEAF_FIRST",
]


def version() -> str:
    """The version of the libcgw loaded ("0.1.0")."""
    return _text(_clib.cgw_version()) or ""


def features() -> List[str]:
    """What the loaded libcgw was built with: a list of names ("gzip")."""
    names = ctypes.POINTER(ctypes.c_char_p)()
    _clib.cgw_features(ctypes.byref(names))
    out = []
    i = 0
    while names and names[i] is not None:
        out.append(_text(names[i]))
        i += 1
    return out


def event_seconds(name: Optional[str], long_name: Optional[str] = None) -> float:
    """The seconds one count of an event stands for, 0.0 when it is not a
    time: 1e-9 for "ns" (what cgw.cprofile writes), 1e-8 for Xdebug's
    "Time_(10ns)", 0.0 for "Ir" or "Ticks".  The unit comes from the name,
    else from the long name (an Event's name and long_name); libcgw's
    cgw_event_seconds() (libcgw-reader(3)), as cgreport's page asks it."""
    return float(_clib.cgw_event_seconds(_cstr(name, "an event name"),
                                         _cstr(long_name, "a long name")))


def format_seconds(seconds: float) -> str:
    """seconds in human units, four significant digits: "105.7 ms",
    "3.000 s", "12.50 us" (ASCII "us"), "950 ns" (nanoseconds whole),
    "0 s"; as cgreport's page and cgannotate --units=human print a time.
    Multiply a count by event_seconds() to get the seconds."""
    buf = ctypes.create_string_buffer(64)
    n = _clib.cgw_format_seconds(buf, len(buf), float(seconds))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        _clib.cgw_format_seconds(buf, len(buf), float(seconds))
    return buf.value.decode("ascii")
