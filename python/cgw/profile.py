# SPDX-License-Identifier: MIT
"""The profile model in Python: cgw.Profile is a profile as a call graph
(libcgw's cgw_profile_*, libcgw-profile(3)): functions with self and
inclusive costs, call edges, cycles, the stacks of a flame graph.  The
one place where a profile becomes a call graph, so that Python sees the
numbers cgreport, cgconvert and the C API see."""
import ctypes
import enum
import os
import threading
from ctypes import POINTER, Structure, c_char_p, c_int, c_size_t, c_uint, c_uint32
from ctypes import c_uint64, c_void_p
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import lib, text, Error

PathLike = Union[str, bytes, "os.PathLike[str]"]

_U64P = POINTER(c_uint64)


class _Options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint), ("part", c_uint64),
                ("allocator", c_void_p)]


class _Fn(Structure):
    _fields_ = [("object", c_char_p), ("file", c_char_p), ("name", c_char_p),
                ("self", _U64P), ("inclusive", _U64P), ("calls", c_uint64),
                ("cycle", c_uint32), ("flags", c_uint)]


class _Edge(Structure):
    _fields_ = [("caller", c_uint32), ("callee", c_uint32), ("count", c_uint64),
                ("inclusive", _U64P)]


class _Cycle(Structure):
    _fields_ = [("members", POINTER(c_uint32)), ("nmembers", c_size_t),
                ("self", _U64P), ("inclusive", _U64P)]


class _Line(Structure):
    _fields_ = [("source_file", c_char_p), ("line", c_uint64), ("address", c_uint64),
                ("self", _U64P)]


_P = c_void_p
_SZP = POINTER(c_size_t)
_STACK_FN = ctypes.CFUNCTYPE(c_int, c_void_p, POINTER(c_uint32), c_size_t, c_uint64)
_PROTOS = {
    "cgw_profile_new": (_P, [POINTER(_Options)]),
    "cgw_profile_add": (c_int, [_P, _P]),
    "cgw_profile_error": (c_int, [_P]),
    "cgw_profile_errmsg": (c_char_p, [_P]),
    "cgw_profile_free": (None, [_P]),
    "cgw_profile_events": (c_size_t, [_P, POINTER(POINTER(_lib.Event))]),
    "cgw_profile_totals": (_U64P, [_P]),
    "cgw_profile_parts": (c_uint64, [_P]),
    "cgw_profile_cmd": (c_char_p, [_P]),
    "cgw_profile_creator": (c_char_p, [_P]),
    "cgw_profile_functions": (POINTER(_Fn), [_P, _SZP]),
    "cgw_profile_edges": (POINTER(_Edge), [_P, _SZP]),
    "cgw_profile_cycles": (POINTER(_Cycle), [_P, _SZP]),
    "cgw_profile_lines": (POINTER(_Line), [_P, c_size_t, _SZP]),
    "cgw_profile_stacks_exact": (c_int, [_P]),
    "cgw_profile_stacks": (c_int, [_P, c_size_t, _STACK_FN, c_void_p]),
    "cgw_profile_stacks_min": (c_int, [_P, c_size_t, c_uint64, _STACK_FN, c_void_p]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args



class ProfileFlag(enum.IntFlag):
    """cgw_profile_options.flags (CGW_PROFILE_*)."""
    LINES = 1
    SAME_EVENTS = 2
    READER_NAMES = 4


class FunctionFlag(enum.IntFlag):
    """cgw_profile_function.flags (CGW_PROFILE_BOUND)."""
    BOUND = 1


LINES = ProfileFlag.LINES
SAME_EVENTS = ProfileFlag.SAME_EVENTS
READER_NAMES = ProfileFlag.READER_NAMES
BOUND = FunctionFlag.BOUND


class ProfileFunction(NamedTuple):
    """A function: object (None when the profile names none), file ("???"
    when none), name; self and inclusive costs (one an event, in
    Profile.events' order; inclusive is exact unless bound, when the
    function is a member of a cycle and it is an upper bound); calls made
    to it by other functions (calls= counts); cycle, 0 or its cycle's
    number (Profile.cycles[cycle - 1])."""
    object: Optional[str]
    file: str
    name: str
    self: List[int]
    inclusive: List[int]
    calls: int
    cycle: int
    bound: bool


class CallEdge(NamedTuple):
    """A call edge: caller and callee (indexes into Profile.functions), the
    calls made (calls= summed) and their inclusive costs, one an event."""
    caller: int
    callee: int
    count: int
    inclusive: List[int]


class Cycle(NamedTuple):
    """Functions that call each other in a loop: members (indexes, ascending),
    their self costs summed and the cycle's inclusive cost (exact), one an
    event."""
    members: List[int]
    self: List[int]
    inclusive: List[int]


class Line(NamedTuple):
    """A function's self cost at one source line: source_file (fl=, or the
    inlined file), line and address (0 when the profile has none), self."""
    source_file: str
    line: int
    address: int
    self: List[int]


def _costs(p: Any, n: int) -> List[int]:
    return [p[i] for i in range(n)]


class Profile:
    """A profile as a call graph, every part of every input summed by event
    name (or one part: part=N), read with libcgw's reader.

        with cgw.Profile("callgrind.out.1234") as p:
            for f in p.functions:
                print(f.name, f.inclusive[0], "(at most)" if f.bound else "")

    sources: a path or several (their profiles summed).  lines=True keeps
    each function's costs by line (Profile.lines()).  diagnostics: a
    callable given each reader Diagnostic (as cgw.read() gives them).
    Functions, edges, cycles, events, totals, parts, cmd and creator are
    plain Python data, read once; stacks() and lines() ask the library.
    Raises OSError when a file cannot be opened and cgw.Error (with the
    library's status and message) when the reader or the model fails: a
    profile the reader refuses is refused with its message; an exception
    diagnostics raises is raised once its input is read (it gets no more
    diagnostics).  Safe to share between threads; calls are serialised
    (stacks(), lines() and close() hold the profile's lock; the rest is
    Python data).  A call of the library after close() raises
    ValueError."""

    def __init__(self, sources: Union[PathLike, Sequence[PathLike]], lines: bool = False,
                 part: int = 0, diagnostics: Optional[Callable[[Any], Any]] = None) -> None:
        from .reader import _read_options, _open
        if isinstance(sources, (str, bytes, os.PathLike)):
            sources = [sources]
        self._lock = threading.Lock()
        o = _Options(ctypes.sizeof(_Options), LINES if lines else 0, part, None)
        self._p = lib.cgw_profile_new(ctypes.byref(o))
        if not self._p:
            raise MemoryError("cgw_profile_new: out of memory")
        try:
            for src in sources:
                opts, cb = _read_options(0, diagnostics)
                r = _open(src, opts)
                try:
                    st = lib.cgw_profile_add(self._p, r)
                finally:
                    lib.cgw_reader_close(r)
                cb.reraise()
                if st != _lib.OK:
                    raise Error(st, text(lib.cgw_profile_errmsg(self._p)))
            self._take()
        except BaseException:
            self.close()
            raise

    def _fail(self) -> None:
        raise Error(lib.cgw_profile_error(self._p), text(lib.cgw_profile_errmsg(self._p)))

    def _take(self) -> None:
        p = self._p
        evs = POINTER(_lib.Event)()
        nev = lib.cgw_profile_events(p, ctypes.byref(evs))
        self.events: List[str] = [text(evs[i].name) for i in range(nev)]
        tot = lib.cgw_profile_totals(p)
        self.totals: List[int] = _costs(tot, nev) if tot else []
        self.parts: int = lib.cgw_profile_parts(p)
        self.cmd: Optional[str] = text(lib.cgw_profile_cmd(p))
        self.creator: Optional[str] = text(lib.cgw_profile_creator(p))
        n = c_size_t()
        fns = lib.cgw_profile_functions(p, ctypes.byref(n))
        if not fns:
            self._fail()
        self.functions: List[ProfileFunction] = [
            ProfileFunction(text(f.object), text(f.file), text(f.name), _costs(f.self, nev),
                            _costs(f.inclusive, nev), f.calls, f.cycle, bool(f.flags & BOUND))
            for f in (fns[i] for i in range(n.value))]
        edges = lib.cgw_profile_edges(p, ctypes.byref(n))
        self.edges: List[CallEdge] = [
            CallEdge(e.caller, e.callee, e.count, _costs(e.inclusive, nev))
            for e in (edges[i] for i in range(n.value))] if edges else []
        cyc = lib.cgw_profile_cycles(p, ctypes.byref(n))
        self.cycles: List[Cycle] = [
            Cycle([c.members[j] for j in range(c.nmembers)], _costs(c.self, nev),
                  _costs(c.inclusive, nev))
            for c in (cyc[i] for i in range(n.value))] if cyc else []
        self.stacks_exact: bool = lib.cgw_profile_stacks_exact(p) == 1
        self._callers: List[List[int]] = [[] for _ in self.functions]
        self._callees: List[List[int]] = [[] for _ in self.functions]
        for i, e in enumerate(self.edges):
            self._callers[e.callee].append(i)
            self._callees[e.caller].append(i)
        self._index = {(f.object, f.file, f.name): i for i, f in enumerate(self.functions)}

    def find(self, name: str, file: str = "???", object: Optional[str] = None) -> int:
        """The index of function (object, file, name) in functions, or -1."""
        return self._index.get((object, file, name), -1)

    def callers(self, fn: int) -> List[CallEdge]:
        """The edges into function fn (an index into functions);
        IndexError for no such function."""
        return [self.edges[i] for i in self._callers[fn]]

    def callees(self, fn: int) -> List[CallEdge]:
        """The edges out of function fn (an index into functions);
        IndexError for no such function."""
        return [self.edges[i] for i in self._callees[fn]]

    def lines(self, fn: int) -> List[Line]:
        """Function fn's self costs by source line and address, sorted
        (Profile(lines=True) only; [] otherwise).  ValueError once
        closed."""
        with self._lock:
            self._open()
            n = c_size_t()
            ls = lib.cgw_profile_lines(self._p, fn, ctypes.byref(n))
            nev = len(self.events)
            return [Line(text(l.source_file), l.line, l.address, _costs(l.self, nev))
                    for l in (ls[i] for i in range(n.value))] if ls else []

    def stacks(self, event: Union[int, str] = 0,
               min_amount: int = 0) -> List[Tuple[Tuple[str, ...], int]]:
        """The stacks of event (an index or a name) rebuilt from the call
        graph as libcgw-profile(3) says (every cost under the root that
        reached it; a cycle taken whole): a list of (names root first,
        amount), whose amounts sum to the event's total.  Exact when
        stacks_exact; an estimate otherwise.  A caller's share under
        min_amount (units of the event) goes to the frame's heaviest
        share (cgw_profile_stacks_min()).  ValueError for no such
        event; cgw.Error when the library fails."""
        if isinstance(event, str):
            if event not in self.events:
                raise ValueError("no event %s (the profile has %s)"
                                 % (event, " ".join(self.events) or "none"))
            event = self.events.index(event)
        if not 0 <= event < len(self.events):
            raise ValueError("no event %d (the profile has %d)" % (event, len(self.events)))
        out: List[Tuple[Tuple[str, ...], int]] = []
        failure: List[BaseException] = []
        names = [f.name for f in self.functions]

        def each(ctx: Any, fns: Any, depth: int, amount: int) -> int:
            try:
                out.append((tuple(names[fns[i]] for i in range(depth - 1, -1, -1)), amount))
                return _lib.OK
            except BaseException as e:  # stop the walk, raise it below
                failure.append(e)
                return _lib.EIO
        cb = _STACK_FN(each)
        with self._lock:
            self._open()
            st = lib.cgw_profile_stacks_min(self._p, event, min_amount, cb, None)
        if failure:
            raise failure[0]
        if st != _lib.OK:
            self._fail()
        return out

    def _open(self) -> None:
        if not self._p:
            raise ValueError("the profile is closed")

    def close(self) -> None:
        """Release the library's model (the Python data stays); a second
        call does nothing."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if getattr(self, "_p", None):
                lib.cgw_profile_free(self._p)
                self._p = None

    def __enter__(self) -> "Profile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        return ("Profile(events=%r, totals=%r, %d functions, %d edges, %d cycles, %d parts)"
                % (self.events, self.totals, len(self.functions), len(self.edges),
                   len(self.cycles), self.parts))
