# SPDX-License-Identifier: MIT
"""cgw.Stacks: stacks with their counts, written as a call graph
(cgw_stacks_*), and cgw.generate(): a synthetic profile (cgw_generate)."""
import array
import collections
import ctypes
import functools
import threading
from typing import Literal, Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

from . import _lib
from ._lib import lib, cstr, u64, Error
from .writer import Writer

Frame = collections.namedtuple("Frame", "name file object line inlined")
Frame.__new__.__defaults__ = (None, None, 0, None)
Frame.__doc__ = """One frame of a stack: the function name, its file and
object (None: none), the line of its cost or call (0: none), and the file
of code inlined at that line (None)."""

FrameLike = Union[Frame, Tuple[Any, ...], List[Any], str, bytes]

_U64 = ctypes.c_uint64
_MAX = (1 << 64) - 1


_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(method: _F) -> _F:
    """method run under its Stacks' lock (ctypes lets other threads run
    during a library call, and the counts in the dicts are read and
    written back)."""
    @functools.wraps(method)
    def run(self: "Stacks", *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)
    return run  # type: ignore[return-value]


class _Distinct:
    """A distinct stack as the library takes it (handles and lines of n
    frames, root first, as arrays of uint64), with its sums until the
    stacks are written: count, and the adds that count in its calls."""
    __slots__ = ("handles", "lines", "n", "count", "stacks", "key")

    def __init__(self, handles: Any, lines: Any, n: int) -> None:
        self.handles, self.lines, self.n = handles, lines, n
        self.count = 0
        self.stacks = 0
        self.key: Any = None  # the frames tuple first added


class Stacks:
    """Stacks, root first, with how often each was seen, written as a
    Callgrind call graph; memory grows with the distinct functions, edges
    and stacks, never with the number of stacks added.

        s = cgw.Stacks()
        s.add([cgw.Frame("main", "a.c"), cgw.Frame("f", "a.c")], 5)
        s.add_folded("main;g 3\\n")
        s.write("callgrind.out")

    A sampler adds each sample with add(frames, 1), its frames a tuple
    built once per distinct stack: the binding counts a stack it has
    seen in a dict (its frames checked and registered with the library
    the first time) and hands each distinct stack to the library once,
    when the stacks are written, with the number of adds it stands for
    (cgw_stacks_add_at()), so the profile is the one adding each sample
    alone would give.  Functions registered once (intern()) are added by
    handle with add_h(), as in C.

    Safe to share between threads; calls are serialised (each public
    call holds the stacks' lock).  A call after close() raises
    ValueError."""

    def __init__(self) -> None:
        # reentrant: write(path) calls write(writer), add() intern()
        self._lock = threading.RLock()
        self._s = lib.cgw_stacks_new(None)
        if not self._s:
            raise MemoryError("cgw_stacks_new")
        self._frames: Any = None  # the CFrame array of intern(), reused
        self._handles: Dict[Any, int] = {}  # (name, file, object, inlined) -> handle
        self._frame_hl: Dict[Any, Tuple[int, int]] = {}  # frame -> (handle, line)
        # id of a frames tuple added again (the same object) -> its stack:
        # a sampler's stack seen again costs no hash of its frames
        self._by_id: Dict[int, _Distinct] = {}
        # (event, flags) -> {stack key: _Distinct}; the stacks not yet
        # handed to the library, in the order first seen
        self._pending: Dict[Tuple[Optional[bytes], int], Dict[Any, _Distinct]] = {}
        self._default: Dict[Any, _Distinct] = {}
        self._pending[(None, 0)] = self._default
        self._events: Dict[Optional[str], Optional[bytes]] = {}

    def _check(self, status: int) -> None:
        if status != _lib.OK:
            raise Error(status, _lib.text(lib.cgw_stacks_errmsg(self._s))
                        or _lib.text(lib.cgw_strerror(status)))

    @property
    def handle(self) -> int:
        """The cgw_stacks * (an int); ValueError once closed."""
        if self._s is None:
            raise ValueError("the stacks are freed")
        return self._s

    def _event(self, event: Optional[str]) -> Optional[bytes]:
        """event as bytes, made a column of the stacks the first time (in
        the order events come, as in C); cgw.Error (EINVAL) for a bad
        event name."""
        try:
            return self._events[event]
        except KeyError:
            b = cstr(event, "event name")
            self._check(lib.cgw_stacks_add(self.handle, b if b is not None else b"Samples",
                                           None, 0, 0, 0))
            self._events[event] = b
            return b

    @_locked
    def intern(self, frame: FrameLike) -> int:
        """Register the function of frame (its name, file, object and
        inlined file; its line is not part of it) once: its handle, an
        int, for add_h().  The same frame again gives the same handle.
        TypeError for a frame of another type; cgw.Error (EINVAL) for a
        name with a control byte or invalid UTF-8 (the stacks are then
        failed, as in C)."""
        if isinstance(frame, (str, bytes)):
            key: Any = (frame, None, None, None)
        elif isinstance(frame, (tuple, list)):
            f = Frame(*frame)
            key = (f.name, f.file, f.object, f.inlined)
        else:
            raise TypeError("a frame must be a Frame, a tuple, a list, str or bytes, not %s"
                            % type(frame).__name__)
        h = self._handles.get(key)
        if h is not None:
            return h
        c = _lib.CFrame()
        c.name = cstr(key[0], "a frame's name")
        c.file = cstr(key[1], "a frame's file")
        c.object = cstr(key[2], "a frame's object")
        c.inlined = cstr(key[3], "a frame's inlined file")
        c.line = 0
        out = _U64()
        self._check(lib.cgw_stacks_intern(self.handle, ctypes.byref(c), ctypes.byref(out)))
        self._handles[key] = out.value
        return out.value

    def _frame_entry(self, f: Any, i: int) -> Tuple[int, int]:
        """(handle, line) of frame f (frame i of a stack), registered and
        kept for the next stacks that have it."""
        if not isinstance(f, (str, bytes, tuple, list)):
            raise TypeError("frame %d must be a Frame, a tuple, a list, str or bytes, "
                            "not %s" % (i, type(f).__name__))
        try:
            h = self.intern(f)
        except Error as e:  # "cgw_stacks_intern: frame 0: why": this frame's
            why = e.message.split(": ", 2)[-1]
            raise Error(e.status, "Stacks.add: frame %d: %s" % (i, why)) from None
        line = f[3] if isinstance(f, (tuple, list)) and len(f) > 3 else 0
        e = (h, u64(line or 0, "a frame's line"))
        if not isinstance(f, list):
            self._frame_hl[f] = e
        return e

    def _distinct(self, frames: Sequence[FrameLike], leaf_first: bool) -> _Distinct:
        """The library's arrays of a stack first seen: each frame
        registered, root first."""
        n = len(frames)
        cache = self._frame_hl
        order = frames[::-1] if leaf_first else frames
        try:
            hl = [cache[f] for f in order]  # every frame seen before
        except (KeyError, TypeError):
            hl = []
            handles = self._handles
            for j in range(n):
                i = n - 1 - j if leaf_first else j  # the frame's index as given
                f = frames[i]
                try:
                    e = cache.get(f)
                except TypeError:  # unhashable: a list, or of no type taken
                    e = None
                if e is None and type(f) is Frame:  # its function registered already
                    h = handles.get((f[0], f[1], f[2], f[4]))
                    line = f[3] or 0
                    if h is not None and type(line) is int and 0 <= line <= _MAX:
                        e = cache[f] = (h, line)
                hl.append(e if e is not None else self._frame_entry(f, i))
        # arrays of the array module: no objects for the collector to visit
        d = _Distinct(array.array("Q", [e[0] for e in hl]), array.array("Q", [e[1] for e in hl]), n)
        d.key = frames
        return d

    def add(self, frames: Sequence[FrameLike], count: int, event: Optional[str] = None,
            uncounted: bool = False, leaf_first: bool = False) -> None:
        """Add one stack seen count times (units of event; None:
        "Samples"): frames, root first (leaf first with leaf_first), are
        Frame tuples, (name, file, object, line, inlined) tuples or lists,
        or plain names (str or bytes).  Give a tuple of frames built once
        per distinct stack: a stack seen again then costs one dict
        lookup.  uncounted: the stack adds nothing to its calls' counts
        (a format without them).  TypeError for a frame of another type
        (a dict: its keys would be taken for the name and file);
        cgw.Error (EINVAL) for a name with a control byte (a line feed, a
        tab) or invalid UTF-8, which the writer would refuse: the stacks
        are then failed, as in C; ValueError for a count below 0,
        OverflowError past 2^64-1."""
        with self._lock:  # not a decorator: the sampler's hot path
            if event is None and not uncounted and not leaf_first:
                d = self._by_id.get(id(frames))
                if d is not None:  # d.key is frames, held: its id is not reused
                    if not 0 <= count <= _MAX:
                        u64(count, "count")
                    d.count += count
                    d.stacks += 1
                    return
                pending = self._default
            else:
                flags = (_lib.STACK_UNCOUNTED if uncounted else 0) | \
                        (_lib.STACK_LEAF_FIRST if leaf_first else 0)
                pending = self._pending.setdefault((self._event(event), flags), {})
            key = frames if isinstance(frames, tuple) else tuple(frames)
            try:
                d = pending.get(key)
            except TypeError:  # a list among the frames (or a frame of no type taken)
                key = tuple(tuple(f) if isinstance(f, list) else f for f in key)
                try:
                    d = pending.get(key)
                except TypeError:
                    self._distinct(key, leaf_first)  # says which frame
                    raise
            if d is None:
                u64(count, "count")
                if self._s is None:
                    raise ValueError("the stacks are freed")
                self._event(event)  # its column now, in the order events come
                d = self._distinct(key, leaf_first)
                if d.n == 0 or count == 0:
                    return
                pending[key] = d
            else:
                if not 0 <= count <= _MAX:
                    u64(count, "count")
                if d.key is frames and pending is self._default:
                    self._by_id[id(frames)] = d  # the same tuple again
            d.count += count
            d.stacks += 1

    @_locked
    def add_h(self, handles: Sequence[int], count: int, lines: Optional[Sequence[int]] = None,
              addresses: Optional[Sequence[int]] = None, event: Optional[str] = None,
              uncounted: bool = False, leaf_first: bool = False) -> None:
        """Add one stack of handles from intern() (root first, or leaf
        first), with their lines and instruction addresses (None: none;
        the leaf's where its cost was spent, a caller's at its call),
        seen count times, as add() adds frames.  A writer with
        instruction positions ("instr" or "instr line") takes the
        addresses; it is refused when some stacks came without them.
        ValueError for lines or addresses of another length, or a count
        out of range; cgw.Error (EINVAL) for a handle that is not one of
        intern()'s."""
        n = len(handles)
        for what, seq in (("lines", lines), ("addresses", addresses)):
            if seq is not None and len(seq) != n:
                raise ValueError("%s: %d values for %d handles" % (what, len(seq), n))
        if count < 0 or count > _MAX:
            raise ValueError("count %d is not in 0..2^64-1" % count)
        hs, ls, ads = list(handles), list(lines or [0] * n), addresses
        if leaf_first:
            hs.reverse()
            ls.reverse()
            ads = list(reversed(addresses)) if addresses is not None else None
        flags = (_lib.STACK_UNCOUNTED if uncounted else 0)
        self._check(lib.cgw_stacks_add_at(
            self.handle, self._event(event), (_U64 * n)(*hs), (_U64 * n)(*ads)
            if ads is not None else None, (_U64 * n)(*ls), n, count, 1, flags))

    def _flush(self) -> None:
        """Hand every pending distinct stack to the library."""
        s = self.handle
        for (event, flags), pending in self._pending.items():
            flags &= ~int(_lib.STACK_LEAF_FIRST)  # the arrays are root first
            for d in pending.values():
                if d.count > _MAX:
                    lib.cgw_stacks_fail(s, _lib.ERANGE, b"a stack's count passes 2^64-1")
                    self._check(_lib.ERANGE)
                hs = (_U64 * d.n).from_buffer(d.handles)
                ls = (_U64 * d.n).from_buffer(d.lines)
                self._check(lib.cgw_stacks_add_at(s, event, hs, None, ls, d.n, d.count,
                                                  d.stacks, flags))
            pending.clear()
        self._by_id.clear()

    @_locked
    def add_folded(self, text: Union[str, bytes], event: Optional[str] = None,
                   name: Optional[str] = None) -> None:
        """Add folded stacks ("a;b;c 42" a line: frames root first, then a
        count in units of event) of event (None: "Samples"); name names
        the input in error messages.  cgw.Error (EINVAL) for a line that
        is not a stack and a count."""
        b = cstr(text, "folded text") if isinstance(text, str) else bytes(text)
        self._check(lib.cgw_stacks_add_folded(self.handle, cstr(event, "event name"),
                                              cstr(name, "input name"), b, len(b)))

    @_locked
    def write(self, dest: Any = None, **writer_args: Any) -> Optional[bytes]:
        """Write the stacks as a profile: through a cgw.Writer still in its
        header (left open), or to dest (a path, a descriptor, or None:
        the profile's bytes are returned) through a Writer made with
        writer_args (cmd=, creator=, flags=...).  No stack may be added
        afterwards.

        Each function is written under its own name, object and file,
        never renamed: its fl= and ob= tell it from another of that name,
        so its name does not depend on what else was sampled.  With
        cgw.QUALIFY_NAMES in the writer's flags (flags=cgw.QUALIFY_NAMES,
        or a cgw.Writer opened with it), every function with an object or
        a file is named "NAME [OBJECT] (FILE)" instead, the same in every
        part and run, for readers that merge functions by name alone
        (gprof2dot).  calls= counts the stacks added through the call
        (add() calls, folded lines).  cgw.Error as cgw_stacks_write()."""
        if isinstance(dest, Writer):
            self._flush()
            s = self.handle
            dest.run(lambda w: lib.cgw_stacks_write(s, w))
            return None
        w = Writer(dest, **writer_args)
        with w:
            self.write(w)
        return w.getvalue() if dest is None else None

    @_locked
    def close(self) -> None:
        """Free the stacks (a second call does nothing)."""
        if self._s is not None:
            lib.cgw_stacks_free(self._s)
            self._s = None
            for pending in self._pending.values():
                pending.clear()
            self._by_id.clear()

    def __enter__(self) -> "Stacks":
        return self

    def __exit__(self, *exc: Any) -> "Literal[False]":
        self.close()
        return False

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def generate(dest: Any = None, *, seed: int = 0, size: int = 0, functions: int = 200,
             files: int = 20, objects: int = 3, events: int = 2, calls_per_fn: int = 3,
             parts: int = 1, flags: int = 0, **writer_args: Any) -> Optional[bytes]:
    """A realistic synthetic profile (cgw_generate(), what cggen writes):
    skewed costs, a call graph with recursion and cycles, inclusive costs
    that add up; the same options give the same bytes.  size: about that
    many bytes (0: the natural size, about 30 cost lines a function);
    functions 1..2^24, events 1..64; flags: cgw.GenFlag (INLINE adds fi=
    runs, JUMPS jump lines).  Written to dest (a path, a descriptor, or
    None: the bytes are returned) through a fresh Writer made with
    writer_args (positions=, flags=, buffer_size=; no events, cmd or
    creator: the generator writes its own).  cgw.Error (EINVAL) for
    options out of range."""
    o = _lib.GenOptions(ctypes.sizeof(_lib.GenOptions), u64(seed), u64(size), functions,
                        files, objects, events, calls_per_fn, parts, int(flags))
    w = Writer(dest, **writer_args)
    with w:
        w._check(lib.cgw_generate(w.handle, ctypes.byref(o)))
    return w.getvalue() if dest is None else None
