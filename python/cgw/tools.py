# SPDX-License-Identifier: MIT
"""Whole profiles: merge (cgw_merge_*), diff (cgw_diff_*), folded stacks
(cgw_write_folded) and recoding (cgw_recode), on paths."""
import collections
import ctypes
import os
from typing import Any, Callable, List, Optional, Sequence, Union

from . import _lib
from ._lib import lib, cstr, text, Error
from .reader import _open, _read_options
from .writer import Writer

DiffRow = collections.namedtuple(
    "DiffRow", "object file function event column inclusive old_cost new_cost change")
PathLike = Union[str, bytes, "os.PathLike[str]"]


def _merge_options(keep_parts: bool = False, mod_filename: Optional[str] = None,
                   mod_funcname: Optional[str] = None) -> Any:
    o = _lib.MergeOptions()
    o.struct_size = ctypes.sizeof(_lib.MergeOptions)
    o.flags = _lib.MERGE_KEEP_PARTS if keep_parts else 0
    o.mod_filename = cstr(mod_filename, "mod_filename")
    o.mod_funcname = cstr(mod_funcname, "mod_funcname")
    return o


def _new(new: Any, errmsg: Any, free: Any, keep_parts: bool, mod_filename: Optional[str],
         mod_funcname: Optional[str]) -> Any:
    """A merger or differ made by new() with these options; its error
    (a bad --mod-filename pattern) raised, after free()."""
    h = new(ctypes.byref(_merge_options(keep_parts, mod_filename, mod_funcname)))
    if not h:
        raise MemoryError(new.__name__)
    err = errmsg(h)
    if err:
        free(h)
        raise Error(_lib.EINVAL, text(err))
    return h


def _writer_flags(positions: int) -> int:
    # as the tools: positions outside the portable subset need CGW_EXTENDED
    return _lib.EXTENDED if positions & (_lib.POS_BB | _lib.POS_NONE) else 0


class Memory:
    """A profile held in memory (its bytes), read in place of a path by
    merge() and diff() (cgw_reader_open_memory); name is what messages
    call it."""

    def __init__(self, data: bytes, name: str = "<memory>") -> None:
        self.data = bytes(data)
        self.name = name

    def __str__(self) -> str:
        return self.name


#: Profiles to read: a path or a Memory, or a list of them.
Inputs = Union[PathLike, Memory, Sequence[Union[PathLike, Memory]]]


def _open_any(source: Any, opts: Any) -> Any:
    if not isinstance(source, Memory):
        return _open(source, opts)
    r = lib.cgw_reader_open_memory(source.data, len(source.data), ctypes.byref(opts))
    if not r:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), source.name)
    return r


def _add_inputs(handle: Any, add: Any, errmsg: Any, paths: List[Any], force: bool,
                side: Optional[int] = None) -> None:
    """Read each path (or Memory) into handle through add(); an input
    with error diagnostics is refused unless force (as the tools do)."""
    for p in paths:
        errors: List[Any] = []
        opts, cb = _read_options(0, lambda d: d.severity == _lib.ERROR and errors.append(d))
        r = _open_any(p, opts)
        try:
            st = add(handle, r) if side is None else add(handle, side, r)
        finally:
            lib.cgw_reader_close(r)
        cb.reraise()
        if st != _lib.OK:
            raise Error(st, "%s: %s" % (p, text(errmsg(handle))))
        if errors and not force:
            d = errors[0]
            e = Error(_lib.EINVAL, "%s:%d: %s [%s] (%d errors; force=True merges anyway)"
                      % (p, d.line, d.message, d.code, len(errors)))
            # the parts, for callers whose own switch is not force=True
            # (python3 -m cgw.fleet's --skip-bad)
            e.diagnostic, e.errors = d, len(errors)
            raise e


def _single(x: Any) -> List[Any]:
    return ([x] if isinstance(x, (str, bytes, Memory)) or hasattr(x, "__fspath__")
            else list(x))


def merge(inputs: Inputs, output: Optional[PathLike] = None, keep_parts: bool = False,
          mod_filename: Optional[str] = None, mod_funcname: Optional[str] = None,
          compact: bool = False, force: bool = False) -> Optional[bytes]:
    """Sum the profiles at inputs (a path or cgw.Memory(bytes), or a
    list of them) into output (a path, or None: the bytes are returned),
    as cgmerge does: the same bytes for the same inputs.  OSError for an
    input that cannot be opened; cgw.Error (EINVAL) for an input with
    errors (unless force) or a bad mod_filename/mod_funcname pattern,
    and for any failure of the library."""
    m = _new(lib.cgw_merge_new, lib.cgw_merge_errmsg, lib.cgw_merge_free, keep_parts,
             mod_filename, mod_funcname)
    try:
        _add_inputs(m, lib.cgw_merge_add, lib.cgw_merge_errmsg, _single(inputs), force)
        positions = lib.cgw_merge_positions(m)
        flags = _writer_flags(positions) | _lib.ZERO_COUNTS | (_lib.COMPACT if compact else 0)
        w = Writer(output, positions=positions, flags=flags)
        with w:
            w.run(lambda h: lib.cgw_merge_write(m, h))
    finally:
        lib.cgw_merge_free(m)
    return w.getvalue() if output is None else None


def diff(old: Inputs, new: Inputs, output: Optional[PathLike] = None,
         mod_filename: Optional[str] = None, mod_funcname: Optional[str] = None,
         force: bool = False) -> List[DiffRow]:
    """Compare the profiles old and new (a path, a cgw.Memory, or a list
    of them, each side summed): the list of DiffRow (the totals of each event first,
    function None, then each change, the largest first), as cgdiff
    reports them; with output (a path), also the profile of the
    difference (E_plus and E_minus events) written there.  Costs are in
    units of their event; change is new minus old in percent of the
    event's old total (a float, +-inf when that is 0).  Errors as
    merge()."""
    d = _new(lib.cgw_diff_new, lib.cgw_diff_errmsg, lib.cgw_diff_free, False,
             mod_filename, mod_funcname)
    try:
        _add_inputs(d, lib.cgw_diff_add, lib.cgw_diff_errmsg, _single(old), force,
                    _lib.DIFF_OLD)
        _add_inputs(d, lib.cgw_diff_add, lib.cgw_diff_errmsg, _single(new), force,
                    _lib.DIFF_NEW)
        rowsp = ctypes.POINTER(_lib.DiffRow)()
        n = ctypes.c_size_t(0)
        st = lib.cgw_diff_rows(d, ctypes.byref(rowsp), ctypes.byref(n))
        _lib.check(st, lambda: lib.cgw_diff_errmsg(d))
        rows = []
        for i in range(n.value):
            r = rowsp[i]
            rows.append(DiffRow(text(r.object), text(r.file), text(r.function), text(r.event),
                                r.column, bool(r.inclusive), r.old_cost, r.new_cost,
                                r.change))
        if output is not None:
            positions = lib.cgw_diff_positions(d)
            w = Writer(output, positions=positions, flags=_writer_flags(positions))
            with w:
                w.run(lambda h: lib.cgw_diff_write(d, h))
    finally:
        lib.cgw_diff_free(d)
    return rows


def convert_folded(path: PathLike, event: Optional[str] = None) -> str:
    """The profile at path (every part summed) as folded stacks of event
    (None: the first), one "a;b;c COUNT" line a stack (cgw_write_folded).
    OSError when path cannot be opened; cgw.Error (EINVAL) for no such
    event, or when reading fails."""
    chunks: List[bytes] = []

    def write(ctx: Any, buf: Any, n: int) -> int:
        chunks.append(ctypes.string_at(buf, n))
        return 0

    # -1 (cgw_write_fn's failure) stops cgw_write_folded() with EIO
    fn = _lib.Callback(_lib.WRITE_FN, write, -1)
    msg = ctypes.create_string_buffer(512)
    opts, cb = _read_options()
    r = _open(path, opts)
    try:
        st = lib.cgw_write_folded(r, cstr(event, "event name"), fn.c, None, msg, len(msg))
    finally:
        lib.cgw_reader_close(r)
    fn.reraise()
    if st != _lib.OK:
        raise Error(st, text(msg.value) or text(lib.cgw_strerror(st)))
    return b"".join(chunks).decode("utf-8", "surrogateescape")


def recode(path: PathLike, output: Optional[PathLike] = None,
           positions: Union[None, int, str, Sequence[str]] = None, flags: int = 0,
           jumps: bool = False) -> Optional[bytes]:
    """Write the profile at path again through a writer of positions and
    flags (cgw.COMPACT...) to output (a path; None: the bytes returned),
    keeping every total, self cost and call edge (cgw_recode); jumps=True
    keeps jumps too.  OSError when a file cannot be opened; cgw.Error
    when reading or writing fails."""
    opts, cb = _read_options()
    r = _open(path, opts)
    try:
        w = Writer(output, positions=positions, flags=flags)
        with w:
            w.run(lambda h: lib.cgw_recode(r, h, _lib.RECODE_JUMPS if jumps else 0))
    finally:
        lib.cgw_reader_close(r)
    return w.getvalue() if output is None else None
