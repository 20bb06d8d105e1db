# SPDX-License-Identifier: MIT
"""cgw.Writer: a profile written through libcgw's writer (cgw_open_*)."""
import ctypes
import os
import threading
from typing import Literal, Any, Callable, Iterable, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import lib, cstr, u64, u64_array, Error

StrOrBytes = Union[str, bytes]
#: A position: an int (one subposition) or a sequence of ints, or None.
Pos = Union[None, int, Sequence[int]]
#: A destination: a path, an open descriptor, or None (memory).
Dest = Union[None, int, str, bytes, "os.PathLike[str]"]

_POS_NAMES = {"line": _lib.POS_LINE, "instr": _lib.POS_INSTR, "bb": _lib.POS_BB}


def _positions(p: Union[None, int, str, Iterable[str]]) -> int:
    """positions as a CGW_POS_* mask: an int, or names ("instr", "line")."""
    if p is None:
        return 0
    if isinstance(p, int):
        return p
    if isinstance(p, str):
        p = p.replace(",", " ").split()
    mask = 0
    for name in p:
        if name not in _POS_NAMES:
            raise ValueError("unknown position kind %r (instr, bb, line)" % (name,))
        mask |= _POS_NAMES[name]
    return mask


def _open_error(what: str) -> OSError:
    e = ctypes.get_errno()
    return OSError(e, "%s: %s" % (what, os.strerror(e)))


NO_OBJECT = ""
"""The object of a function or callee that has none: Writer.object(),
and object= of function(), call(), jump() and cond_jump() (where None
means the last object given, or the caller's)."""


def _object_name(name: Optional[StrOrBytes]) -> Optional[bytes]:
    """cgw_object()'s argument: NULL for None and NO_OBJECT (no object)."""
    b = cstr(name, "object name")
    return b if b else None


class Writer:
    """A Callgrind profile written by libcgw (the package's docstring
    shows one written).

    dest is a path (str, bytes or os.PathLike), an int (an open file
    descriptor, left open), or None: the profile stays in memory and
    getvalue() gives its bytes after close().  positions is a CGW_POS_*
    mask (cgw.Position) or names ("instr line"); flags cgw.WriterFlag
    members (cgw.COMPACT...); buffer_size in bytes (0: the library's).
    events: names, or (name, long name) pairs.  OSError when dest cannot
    be opened; ValueError for an unknown position name.  Every call of the library that fails raises cgw.Error with its
    message; the writer is then discarded (nothing written to dest).

    Safe to share between threads; calls are serialised: each call of
    the library (and close(), discard()) holds the writer's lock, since
    ctypes lets other threads run during it.  A call after close() or
    discard() raises ValueError."""

    def __init__(self, dest: Dest = None,
                 events: Iterable[Union[str, Tuple[str, Optional[str]]]] = (),
                 cmd: Optional[str] = None, creator: Optional[str] = None,
                 pid: Optional[int] = None,
                 positions: Union[None, int, str, Iterable[str]] = None,
                 flags: int = 0, buffer_size: int = 0) -> None:
        self._lock = threading.Lock()
        self._w = None
        self._value = None
        self._buf = ctypes.POINTER(ctypes.c_char)()
        self._len = ctypes.c_size_t(0)
        opts = _lib.Options(ctypes.sizeof(_lib.Options), _positions(positions),
                            flags, buffer_size, None)
        self.positions = _lib.Position(opts.positions or _lib.POS_LINE)
        # the kinds a position holds, in the library's order (cgw_pos_kinds;
        # none for POS_NONE), for _pos() to check a position's shape
        kinds = (ctypes.c_uint * 3)()
        self._npos = lib.cgw_pos_kinds(self.positions, kinds)
        self._pos_names = " ".join(_lib.text(lib.cgw_pos_name(kinds[i]))
                                   for i in range(self._npos)) or "none"
        self._memory = dest is None
        if dest is None:
            w = lib.cgw_open_memory(ctypes.byref(self._buf), ctypes.byref(self._len),
                                    ctypes.byref(opts))
            what = "cgw_open_memory"
        elif isinstance(dest, int) and not isinstance(dest, bool):
            w = lib.cgw_open_fd(dest, ctypes.byref(opts))
            what = "cgw_open_fd"
        else:
            w = lib.cgw_open_path(_lib.path(dest), ctypes.byref(opts))
            what = "cgw_open_path: %s" % (os.fsdecode(dest),)
        if not w:
            raise _open_error(what)
        self._w = w
        try:
            if creator is not None:
                self.set_creator(creator)
            if cmd is not None:
                self.set_cmd(cmd)
            if pid is not None:
                self.set_pid(pid)
            for e in events:
                if isinstance(e, (tuple, list)):
                    self.add_event(*e)
                else:
                    self.add_event(e)
        except BaseException:
            self.discard()
            raise

    # -------------------------------------------------------------- state
    @property
    def handle(self) -> int:
        """The cgw_writer * (for the calls of libcgw that take one), an
        int; ValueError once the writer is closed.  A call made with it
        is not serialised with the writer's own: use run() to share."""
        if self._w is None:
            raise ValueError("the writer is closed")
        return self._w

    def _open_w(self) -> int:
        # with the lock held: the handle, or ValueError once closed
        w = self._w
        if w is None:
            raise ValueError("the writer is closed")
        return w

    def _fail(self, status: int) -> None:
        # with the lock held: raise the writer's error, freeing it first
        w = self._w
        msg = _lib.text(lib.cgw_errmsg(w)) if w is not None else None
        msg = msg or _lib.text(lib.cgw_strerror(status))
        if w is not None:
            lib.cgw_free(w)
            self._w = None
        raise Error(status, msg or "")

    def run(self, fn: Callable[..., int], *args: Any) -> None:
        """Call fn(handle, *args), a libcgw call that takes this writer
        and returns a cgw_status (cgw_merge_write...), under the writer's
        lock; its failure raises cgw.Error as the writer's own calls do,
        and ValueError once the writer is closed."""
        with self._lock:
            st = fn(self._open_w(), *args)
            if st != _lib.OK:
                self._fail(st)

    def _check(self, status: int) -> None:
        # a status got without the lock (code outside this class)
        if status != _lib.OK:
            with self._lock:
                self._fail(status)

    def discard(self) -> None:
        """Release the writer without committing anything (nothing is
        written to a path; a second call does nothing)."""
        with self._lock:
            if self._w is not None:
                lib.cgw_free(self._w)
                self._w = None

    def close(self) -> None:
        """Finish the profile (totals:, the rename over the path, the memory
        buffer handed over); cgw.Error on the writer's first error.  A
        second call does nothing."""
        with self._lock:
            w = self._w
            if w is None:
                return
            st = lib.cgw_finish(w)
            if st != _lib.OK:
                self._fail(st)
            if self._memory:
                self._value = ctypes.string_at(self._buf, self._len.value)
                _lib.libc_free(ctypes.cast(self._buf, ctypes.c_void_p))
                self._buf = ctypes.POINTER(ctypes.c_char)()
            lib.cgw_free(w)
            self._w = None

    def getvalue(self) -> bytes:
        """The profile's bytes, for Writer(None), after close();
        ValueError for another writer or before close()."""
        if not self._memory:
            raise ValueError("getvalue() is for a writer to memory: Writer(None)")
        if self._value is None:
            raise ValueError("getvalue() comes after close()")
        return self._value

    def __enter__(self) -> "Writer":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> "Literal[False]":
        if exc_type is not None:
            self.discard()
        else:
            self.close()
        return False

    def __del__(self) -> None:
        try:
            self.discard()
        except Exception:
            pass

    # ------------------------------------------------------------- header
    def set_creator(self, creator: StrOrBytes) -> None:
        """The creator: line (default "libcgw-VERSION").  cgw.Error
        (EUSAGE) after the header, (EINVAL) for a line break."""
        self.run(lib.cgw_set_creator, cstr(creator, "creator"))

    def set_cmd(self, cmd: StrOrBytes) -> None:
        """The cmd: line (the command profiled).  cgw.Error (EUSAGE)
        after the header, (EINVAL) for a line break."""
        self.run(lib.cgw_set_cmd, cstr(cmd, "cmd"))

    def set_pid(self, pid: int) -> None:
        """The pid: line.  cgw.Error (EUSAGE) after the header;
        ValueError, OverflowError outside 0..2**64-1."""
        self.run(lib.cgw_set_pid, u64(pid, "pid"))

    def set_thread(self, thread: int) -> None:
        """The thread: line of the current part.  cgw.Error (EUSAGE)
        once the part's body has begun; ValueError, OverflowError
        outside 0..2**64-1."""
        self.run(lib.cgw_set_thread, u64(thread, "thread"))

    def add_desc(self, type: StrOrBytes, value: StrOrBytes) -> None:
        """A desc: TYPE: VALUE line; type is non-empty without ':'.
        cgw.Error (EINVAL) for a bad type or a line break, (EUSAGE)
        after the header."""
        self.run(lib.cgw_add_desc, cstr(type, "desc type"),
                 cstr(value, "desc value"))

    def add_event(self, name: StrOrBytes, long_name: Optional[StrOrBytes] = None) -> None:
        """Add event name ("Ir") to the events: line, with its long name
        when given.  cgw.Error (EINVAL) for a name with a blank, ':' or
        '=', or defined already; (EUSAGE) after the header."""
        self.run(lib.cgw_add_event, cstr(name, "event name"),
                 cstr(long_name, "long event name"))

    def add_derived_event(self, name: StrOrBytes, formula: StrOrBytes,
                          long_name: Optional[StrOrBytes] = None) -> None:
        """Define event name as formula ("Ir + 10 Dr"), a sum of events
        already added; it takes no cost column.  cgw.Error (EINVAL) for
        a bad formula or name, (EUSAGE) after the header."""
        self.run(lib.cgw_add_derived_event, cstr(name, "event name"),
                 cstr(formula, "formula"),
                 cstr(long_name, "long event name"))

    def set_summary(self, costs: Sequence[int]) -> None:
        """The summary: line of the current part: costs, one an event
        (units of each), fewer meaning zeros.  cgw.Error (EINVAL) for
        more costs than events; ValueError, OverflowError as cost()."""
        arr, n = u64_array(costs, "summary cost")
        self.run(lib.cgw_set_summary, arr, n)

    # --------------------------------------------------------------- body
    def _pos(self, pos: Pos) -> Any:
        """A position: one int when the writer has one subposition, else a
        sequence of one int a subposition in Callgrind's order (instr, bb,
        line); None is NULL (position 0 where the library allows it).
        ValueError for any other shape: the library reads as many values
        as the writer has subpositions, so a short one would be read past
        its end (cost(5, [1]) on an "instr line" writer wrote "0x5 0 1")."""
        if pos is None:
            return None
        vals = pos if isinstance(pos, (tuple, list)) else (pos,)
        if len(vals) != self._npos:
            if self._npos == 0:
                want = "None (the writer has no position column)"
            elif self._npos == 1:
                want = "an int"
            else:
                want = "a sequence of %d ints (%s)" % (self._npos, self._pos_names)
            raise ValueError("a position %r for a writer of positions %r: expected %s"
                             % (pos, self._pos_names, want))
        return u64_array(vals, "a position")[0]

    def object(self, name: Optional[StrOrBytes]) -> None:
        """Make name the object (ob=) of the functions that follow; None
        or NO_OBJECT: none again (an empty ob= is written when needed).
        cgw.Error (EINVAL) for a name with a line break; ValueError for
        a NUL in it."""
        self.run(lib.cgw_object, _object_name(name))

    def file(self, name: StrOrBytes) -> None:
        """Make name the source file (fl=) of the functions that follow.
        cgw.Error (EINVAL) for an empty name or one with a line break;
        ValueError for a NUL in it."""
        self.run(lib.cgw_file, cstr(name, "file name"))

    # The calls that name a function, call one or jump take their
    # arguments in one order, C's (cgw_function, cgw_call, cgw_jump):
    # the function named, then the counts, the source position and the
    # costs, all required and positional; then, keyword-only and
    # optional, where the function is (file=, object=: None is the
    # caller's, or the last given) and where a call or jump lands
    # (target_pos=: None is position 0).

    def function(self, name: StrOrBytes, *, file: Optional[StrOrBytes] = None,
                 object: Optional[StrOrBytes] = None) -> None:
        """Start the block of function name (fn=), in file (fl=) and
        object (ob=) when given; the library keeps the last ones given
        (object=NO_OBJECT: none again).
        cgw.Error (EINVAL) for an empty name or one with a line break,
        (EUSAGE) before any event; ValueError for a NUL in a name."""
        ob = _object_name(object) if object is not None else None
        fl = cstr(file, "file name") if file is not None else None
        fn = cstr(name, "function name")
        with self._lock:  # one block: no other thread's line inside it
            w = self._open_w()
            st = lib.cgw_object(w, ob) if object is not None else _lib.OK
            if st == _lib.OK and file is not None:
                st = lib.cgw_file(w, fl)
            if st == _lib.OK:
                st = lib.cgw_function(w, fn)
            if st != _lib.OK:
                self._fail(st)

    def inline_file(self, name: StrOrBytes) -> None:
        """Costs that follow come from code inlined from file name (fi=),
        or from the function's own file again (fe=).  cgw.Error (EINVAL)
        for a bad name, (EUSAGE) outside a function."""
        self.run(lib.cgw_inline_file, cstr(name, "file name"))

    def cost(self, pos: Pos, costs: Sequence[int]) -> None:
        """A self-cost line at pos (a line, or a sequence of the position's
        values: (address, line) for an "instr line" writer) with costs, a
        sequence of ints (units of each event), one an event in the order
        added, fewer meaning zeros.  ValueError for a position of another
        shape than the writer's positions or a negative int;
        OverflowError past 2**64-1; cgw.Error (EINVAL) for more costs than
        events, (ERANGE) when a total would pass 2**64-1."""
        arr, n = u64_array(costs)
        p = self._pos(pos)
        with self._lock:  # the hot path: run() inlined
            w = self._w
            if w is None:
                raise ValueError("the writer is closed")
            st = lib.cgw_cost(w, p, arr, n)
            if st != _lib.OK:
                self._fail(st)

    def _target(self, name: StrOrBytes, file: Optional[StrOrBytes],
                object: Optional[StrOrBytes]) -> _lib.Target:
        return _lib.Target(cstr(object, "object name"), cstr(file, "file name"),
                           cstr(name, "function name"))

    def call(self, name: StrOrBytes, count: int, pos: Pos, inclusive: Sequence[int], *,
             file: Optional[StrOrBytes] = None, object: Optional[StrOrBytes] = None,
             target_pos: Pos = None) -> None:
        """A call (calls=) from pos in the current function to function
        name, made count times, with its inclusive costs (a sequence of
        ints, one an event, as cost()).  file and object are the callee's
        (None: the caller's); target_pos its position (None: 0), of the
        writer's shape as pos.  ValueError or OverflowError as cost();
        cgw.Error (EINVAL) for count 0 without cgw.COMPACT or a bad name,
        (EUSAGE) outside a function."""
        t = self._target(name, file, object)
        arr, n = u64_array(inclusive, "an inclusive cost")
        self.run(lib.cgw_call, ctypes.byref(t), u64(count), self._pos(target_pos),
                 self._pos(pos), arr, n)

    def jump(self, name: StrOrBytes, count: int, pos: Pos, *,
             file: Optional[StrOrBytes] = None, object: Optional[StrOrBytes] = None,
             target_pos: Pos = None) -> None:
        """An unconditional jump (jump=) taken count times from pos to
        target_pos (None: 0) in function name of file (None: the current
        one's) in the same object.  Errors as call()."""
        t = self._target(name, file, object)
        self.run(lib.cgw_jump, ctypes.byref(t), u64(count),
                 self._pos(target_pos), self._pos(pos))

    def cond_jump(self, name: StrOrBytes, followed: int, executed: int, pos: Pos, *,
                  file: Optional[StrOrBytes] = None, object: Optional[StrOrBytes] = None,
                  target_pos: Pos = None) -> None:
        """A conditional jump (jcnd=followed/executed) at pos, followed of
        executed times, to target_pos in function name, as jump().
        cgw.Error (EINVAL) when followed > executed; else errors as
        call()."""
        t = self._target(name, file, object)
        self.run(lib.cgw_cond_jump, ctypes.byref(t), u64(followed),
                 u64(executed), self._pos(target_pos), self._pos(pos))

    def new_part(self) -> None:
        """End this part (its totals:) and start the next.  cgw.Error
        as cgw_new_part() (EUSAGE in a state that has no part to end)."""
        self.run(lib.cgw_new_part)

    def write_bytes(self, data: bytes) -> None:
        """Append data (bytes) to the output of a writer opened with
        flags=cgw.RAW, which writes no Callgrind text of its own: other
        bytes get the sinks' rules (the path sink's atomic replace).
        cgw.Error (EUSAGE) for a writer without cgw.RAW."""
        b = bytes(data)
        self.run(lib.cgw_write_bytes, b, len(b))

    @classmethod
    def to_bytes(cls, fill: Callable[["Writer"], Any], **kwargs: Any) -> bytes:
        """The bytes of a profile written by fill(writer) in memory;
        kwargs go to Writer(None, ...).  Raises what fill() or the writer
        raise."""
        w = cls(None, **kwargs)
        with w:
            fill(w)
        return w.getvalue()
