# SPDX-License-Identifier: MIT
"""Reading profiles: cgw.read() hands out the records of libcgw's reader
as namedtuples; cgw.summary() sums them; cgw.verify() collects the
reader's diagnostics."""
import collections
import ctypes
import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _lib
from ._lib import lib, text, seq, Error

Target = collections.namedtuple("Target", "object file function")
Event = collections.namedtuple("Event", "name long_name formula")
Diagnostic = collections.namedtuple("Diagnostic", "line severity code message")
Part = collections.namedtuple(
    "Part", "line index number version creator cmd pid thread descs positions events "
    "derived summary")
Function = collections.namedtuple("Function", "line object file function")
Inline = collections.namedtuple("Inline", "line object file function source_file")
Cost = collections.namedtuple("Cost", "line object file function source_file pos costs")
Call = collections.namedtuple(
    "Call", "line object file function source_file pos target target_pos count costs")
Jump = collections.namedtuple(
    "Jump", "line object file function source_file pos target target_pos count")
CondJump = collections.namedtuple(
    "CondJump", "line object file function source_file pos target target_pos count executed")
PartEnd = collections.namedtuple(
    "PartEnd", "line totals totals_line summary cost_lines calls functions")
PathLike = Union[str, bytes, "os.PathLike[str]"]
#: A function's key: (object, file, name).
Key = Tuple[Optional[str], Optional[str], str]

# each record class carries its cgw_record_kind (a class attribute, not a field)
for _cls, _kind in ((Part, _lib.RecordKind.PART), (Function, _lib.RecordKind.FUNCTION),
                    (Inline, _lib.RecordKind.INLINE), (Cost, _lib.RecordKind.COST),
                    (Call, _lib.RecordKind.CALL), (Jump, _lib.RecordKind.JUMP),
                    (CondJump, _lib.RecordKind.COND_JUMP),
                    (PartEnd, _lib.RecordKind.PART_END)):
    setattr(_cls, "kind", _kind)
Record = Union[Part, Function, Inline, Cost, Call, Jump, CondJump, PartEnd]


def _severity(v: int) -> Union[_lib.Severity, int]:
    try:
        return _lib.Severity(v)
    except ValueError:
        return v


class _Names:
    """The reader's names as str, converted once: equal names have equal
    pointers until the reader is closed."""

    def __init__(self) -> None:
        self.cache: Dict[bytes, Optional[str]] = {}

    def __call__(self, p: Optional[bytes]) -> Optional[str]:
        # p is a c_char_p field read as bytes by ctypes: key on the bytes
        if p is None:
            return None
        s = self.cache.get(p)
        if s is None:
            s = self.cache[p] = text(p)
        return s


def _read_options(flags: int = 0, diag: Optional[Callable[[Any], Any]] = None,
                  skip: int = 0) -> Tuple[Any, _lib.Callback]:
    """The reader's options and its diagnostics callback, a
    _lib.Callback: a diag that raises gets no more diagnostics, and the
    caller raises its exception with cb.reraise() after each call of the
    library that reads (the C callback returns nothing that could stop
    the reader)."""
    o = _lib.ReadOptions()
    o.struct_size = ctypes.sizeof(_lib.ReadOptions)
    o.flags = flags
    o.skip = skip

    def each(ctx: Any, d: Any) -> None:
        d = d.contents
        diag(Diagnostic(d.line, _severity(d.severity),  # type: ignore[misc]
                        text(d.code), text(d.message)))
    cb = _lib.Callback(_lib.DIAG_FN, each if diag is not None else None, None)
    if cb.c is not None:
        o.diag = cb.c
    return o, cb


def _open(source: Any, opts: Any) -> Any:
    r = lib.cgw_reader_open_path(_lib.path(source), ctypes.byref(opts))
    if not r:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), source)
    return r


def _record(rec: Any, names: _Names, positions: List[int]) -> Record:
    k = rec.kind
    if k == _lib.REC_PART:
        p = rec.part.contents
        positions[0] = p.npos
        positions[1] = p.nevents
        return Part(rec.line, p.index, p.number, p.version, names(p.creator), names(p.cmd),
                    p.pid if p.has_pid else None, p.thread if p.has_thread else None,
                    tuple((names(p.descs[i].type), names(p.descs[i].value))
                          for i in range(p.ndescs)),
                    _lib.Position(p.positions),
                    tuple(Event(names(p.events[i].name), names(p.events[i].long_name), None)
                          for i in range(p.nevents)),
                    tuple(Event(names(p.derived[i].name), names(p.derived[i].long_name),
                                names(p.derived[i].formula)) for i in range(p.nderived)),
                    seq(p.summary, p.nevents))
    npos, nev = positions
    ctx = (rec.line, names(rec.object), names(rec.file), names(rec.function))
    if k == _lib.REC_FUNCTION:
        return Function(*ctx)
    if k == _lib.REC_INLINE:
        return Inline(*ctx, names(rec.source_file))
    if k == _lib.REC_COST:
        return Cost(*ctx, names(rec.source_file), seq(rec.pos, npos), seq(rec.costs, nev))
    if k in (_lib.REC_CALL, _lib.REC_JUMP, _lib.REC_COND_JUMP):
        t = Target(names(rec.target.object), names(rec.target.file),
                   names(rec.target.function))
        common = ctx + (names(rec.source_file), seq(rec.pos, npos), t,
                        seq(rec.target_pos, npos), rec.count)
        if k == _lib.REC_CALL:
            return Call(*common, seq(rec.costs, nev))
        if k == _lib.REC_JUMP:
            return Jump(*common)
        return CondJump(*common, rec.executed)
    if k == _lib.REC_PART_END:
        return PartEnd(rec.line, seq(rec.costs, nev), seq(rec.totals_line, nev),
                       seq(rec.summary, nev), rec.cost_lines, rec.calls, rec.functions)
    raise Error(_lib.EINVAL, "cgw_reader_next: a record of unknown kind %d" % k)


def read(path: PathLike, check: bool = False,
         diagnostics: Optional[Callable[[Diagnostic], Any]] = None,
         skip: Iterable[type] = ()) -> Iterator[Record]:
    """The records of the profile at path, in file order: Part, Function,
    Inline, Cost, Call, Jump, CondJump and PartEnd namedtuples (each class
    has its cgw.RecordKind as .kind).  Positions and costs are tuples of
    ints, one a subposition or event (units of the event), or None.
    check=True adds the whole-part checks (CGW_READ_CHECK); each
    diagnostic goes to diagnostics(Diagnostic) when given.  skip: record
    classes (cgw.Cost, cgw.Call...) read and counted but not handed out.
    OSError when path cannot be opened; an I/O or memory failure raises
    cgw.Error; an exception diagnostics raises stops the reading and is
    raised from the iterator, before the record that followed it.

    The iterator is a generator: Python refuses to run it in two threads
    at once (ValueError "generator already executing"), so it is safe to
    share; its reader is its own, closed when it ends or is closed."""
    mask = 0
    for k in skip:
        mask |= 1 << getattr(k, "kind")
    opts, cb = _read_options(_lib.READ_CHECK if check else 0, diagnostics, mask)
    r = _open(path, opts)
    try:
        names = _Names()
        positions = [0, 0]
        recp = ctypes.POINTER(_lib.Record)()
        while True:
            st = lib.cgw_reader_next(r, ctypes.byref(recp))
            cb.reraise()
            _lib.check(st, lambda: lib.cgw_reader_errmsg(r))
            if not recp:
                break
            yield _record(recp.contents, names, positions)
    finally:
        lib.cgw_reader_close(r)
        del cb


class Summary:
    """What a profile adds up to, every part summed, by event name:
    events (names, in order of appearance), totals (a list, one a
    event), functions {(object, file, name): [self costs]}, inclusive
    {(object, file, name): [inclusive costs]} (the profile model's:
    exact outside cycles, never above the total; cgw.Profile has the
    rest), edges {((object, file, name), (object, file, name)): (count,
    [inclusive])}, parts (how many) and diagnostics (a list of
    Diagnostic)."""

    def __init__(self) -> None:
        self.events: List[str] = []
        self.totals: List[int] = []
        self.functions: Dict[Key, List[int]] = {}
        self.inclusive: Dict[Key, List[int]] = {}
        self.edges: Dict[Tuple[Key, Key], Tuple[int, List[int]]] = {}
        self.parts = 0
        self.diagnostics: List[Diagnostic] = []

    def __repr__(self) -> str:
        return ("Summary(events=%r, totals=%r, %d functions, %d edges, %d parts)"
                % (self.events, self.totals, len(self.functions), len(self.edges), self.parts))


def summary(path: PathLike, check: bool = False) -> Summary:
    """The Summary of the profile at path, from the profile model
    (cgw.Profile); check=True adds the reader's whole-part checks to the
    diagnostics.  OSError when path cannot be opened; cgw.Error when
    the reader or the model fails."""
    from .profile import Profile
    s = Summary()
    diags = s.diagnostics.append
    if check:
        # the model reads without them; the checks come from a reading of their own
        for _ in read(path, check=True, diagnostics=diags,
                      skip=[Function, Inline, Cost, Call, Jump, CondJump]):
            pass
        diags = None
    with Profile(path, diagnostics=diags) as p:
        s.events, s.totals, s.parts = list(p.events), list(p.totals), p.parts
        keys = [(f.object, f.file, f.name) for f in p.functions]
        for key, f in zip(keys, p.functions):
            s.functions[key] = list(f.self)
            s.inclusive[key] = list(f.inclusive)
        for e in p.edges:
            s.edges[(keys[e.caller], keys[e.callee])] = (e.count, list(e.inclusive))
    return s


def verify(path: PathLike, roundtrip: bool = False) -> List[Diagnostic]:
    """The diagnostics of the profile at path (Diagnostic namedtuples:
    line, severity cgw.Severity.ERROR or WARNING, code, message), with the
    whole-part checks; roundtrip=True adds cgw_roundtrip()'s ("roundtrip":
    a record that does not come back the same through the writer).
    OSError when path cannot be opened; cgw.Error when reading fails."""
    found = []
    skip = [Function, Inline, Cost, Call, Jump, CondJump]
    for _ in read(path, check=True, diagnostics=found.append, skip=skip):
        pass
    if roundtrip:
        opts, cb = _read_options(0, found.append)
        diffs = ctypes.c_uint64(0)
        st = lib.cgw_roundtrip(_lib.path(path), None, 0, ctypes.byref(opts),
                               ctypes.byref(diffs))
        cb.reraise()
        del cb
        if st != _lib.OK:
            raise Error(st, "cgw_roundtrip: %s: %s"
                        % (path, text(lib.cgw_strerror(st))))
    return found
