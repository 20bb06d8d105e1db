# SPDX-License-Identifier: MIT
"""Reading profiles: cgw.read() hands out the records of libcgw's reader
as namedtuples; cgw.summary() sums them; cgw.verify() collects the
reader's diagnostics."""
import collections
import ctypes
import os

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

_SEVERITY = {1: "warning", 2: "error"}


class _Names:
    """The reader's names as str, converted once: equal names have equal
    pointers until the reader is closed."""

    def __init__(self):
        self.cache = {}

    def __call__(self, p):
        # p is a c_char_p field read as bytes by ctypes: key on the bytes
        if p is None:
            return None
        s = self.cache.get(p)
        if s is None:
            s = self.cache[p] = text(p)
        return s


def _read_options(flags=0, diag=None, skip=0):
    o = _lib.ReadOptions()
    o.struct_size = ctypes.sizeof(_lib.ReadOptions)
    o.flags = flags
    o.skip = skip
    cb = None
    if diag is not None:
        def cb_py(ctx, d):
            d = d.contents
            diag(Diagnostic(d.line, _SEVERITY.get(d.severity, d.severity),
                            text(d.code), text(d.message)))
        cb = _lib.DIAG_FN(cb_py)
        o.diag = cb
    return o, cb


def _open(source, opts):
    r = lib.cgw_reader_open_path(_lib.path(source), ctypes.byref(opts))
    if not r:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), source)
    return r


def _record(rec, names, positions):
    k = rec.kind
    if k == _lib.REC_PART:
        p = rec.part.contents
        positions[0] = p.npos
        positions[1] = p.nevents
        return Part(rec.line, p.index, p.number, p.version, names(p.creator), names(p.cmd),
                    p.pid if p.has_pid else None, p.thread if p.has_thread else None,
                    tuple((names(p.descs[i].type), names(p.descs[i].value))
                          for i in range(p.ndescs)),
                    p.positions,
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


def read(path, check=False, diagnostics=None, skip=()):
    """The records of the profile at path, in file order: Part, Function,
    Inline, Cost, Call, Jump, CondJump and PartEnd namedtuples.
    check=True adds the whole-part checks (CGW_READ_CHECK); each
    diagnostic goes to diagnostics(Diagnostic) when given.  skip: record
    classes (cgw.Cost, cgw.Call...) read and counted but not handed out.
    An I/O or memory failure raises cgw.Error."""
    mask = 0
    kinds = {Part: _lib.REC_PART, Function: _lib.REC_FUNCTION, Inline: _lib.REC_INLINE,
             Cost: _lib.REC_COST, Call: _lib.REC_CALL, Jump: _lib.REC_JUMP,
             CondJump: _lib.REC_COND_JUMP, PartEnd: _lib.REC_PART_END}
    for k in skip:
        mask |= 1 << kinds[k]
    opts, cb = _read_options(_lib.READ_CHECK if check else 0, diagnostics, mask)
    r = _open(path, opts)
    try:
        names = _Names()
        positions = [0, 0]
        recp = ctypes.POINTER(_lib.Record)()
        while True:
            st = lib.cgw_reader_next(r, ctypes.byref(recp))
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

    def __init__(self):
        self.events = []
        self.totals = []
        self.functions = {}
        self.inclusive = {}
        self.edges = {}
        self.parts = 0
        self.diagnostics = []

    def __repr__(self):
        return ("Summary(events=%r, totals=%r, %d functions, %d edges, %d parts)"
                % (self.events, self.totals, len(self.functions), len(self.edges), self.parts))


def summary(path, check=False):
    """The Summary of the profile at path, from the profile model
    (cgw.Profile); check=True adds the reader's whole-part checks to the
    diagnostics."""
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


def verify(path, roundtrip=False):
    """The diagnostics of the profile at path (Diagnostic namedtuples:
    line, severity "error" or "warning", code, message), with the
    whole-part checks; roundtrip=True adds cgw_roundtrip()'s ("roundtrip":
    a record that does not come back the same through the writer)."""
    found = []
    skip = [Function, Inline, Cost, Call, Jump, CondJump]
    for _ in read(path, check=True, diagnostics=found.append, skip=skip):
        pass
    if roundtrip:
        opts, cb = _read_options(0, found.append)
        diffs = ctypes.c_uint64(0)
        st = lib.cgw_roundtrip(_lib.path(path), None, 0, ctypes.byref(opts),
                               ctypes.byref(diffs))
        del cb
        if st != _lib.OK:
            raise Error(st, "cgw_roundtrip: %s: %s"
                        % (path, text(lib.cgw_strerror(st))))
    return found
