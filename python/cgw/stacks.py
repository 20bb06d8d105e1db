# SPDX-License-Identifier: MIT
"""cgw.Stacks: stacks with their counts, written as a call graph
(cgw_stacks_*)."""
import collections
import functools
import threading
from typing import Literal, Any, Callable, Optional, Sequence, Tuple, TypeVar, Union

from . import _lib
from ._lib import lib, cstr, u64, Error
from .writer import Writer

Frame = collections.namedtuple("Frame", "name file object line inlined")
Frame.__new__.__defaults__ = (None, None, 0, None)
Frame.__doc__ = """One frame of a stack: the function name, its file and
object (None: none), the line of its cost or call (0: none), and the file
of code inlined at that line (None)."""


_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(method: _F) -> _F:
    """method run under its Stacks' lock (ctypes lets other threads run
    during a library call; add() also reuses one frame array)."""
    @functools.wraps(method)
    def run(self: "Stacks", *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)
    return run  # type: ignore[return-value]


class Stacks:
    """Stacks, root first, with how often each was seen; memory grows with
    the distinct functions and edges, never with the number of stacks.

        s = cgw.Stacks()
        s.add([cgw.Frame("main", "a.c"), cgw.Frame("f", "a.c")], 5)
        s.add_folded("main;g 3\\n")
        s.write("callgrind.out")

    Safe to share between threads; calls are serialised (each public
    call holds the stacks' lock).  A call after close() raises
    ValueError."""

    def __init__(self) -> None:
        # reentrant: write(path) calls write(writer)
        self._lock = threading.RLock()
        self._s = lib.cgw_stacks_new(None)
        if not self._s:
            raise MemoryError("cgw_stacks_new")
        # the frames array of the last add(), reused while it is large enough
        self._frames: Any = None

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

    @_locked
    def add(self, frames: Sequence[Union[Frame, Tuple[Any, ...], list, str, bytes]],
            count: int, event: Optional[str] = None, uncounted: bool = False) -> None:
        """Add one stack seen count times (of event; None: "Samples"):
        frames, root first, are Frame tuples, (name, file, object, line,
        inlined) tuples or lists, or plain names (str or bytes).
        TypeError for a frame of another type (a dict: its keys would be
        taken for the name and file); cgw.Error (EINVAL) for a name with a
        control byte (a line feed, a tab) or invalid UTF-8, which the
        writer would refuse: the stacks are then failed, as in C."""
        s = self.handle
        n = len(frames)
        arr = self._frames
        if arr is None or len(arr) < n:
            arr = self._frames = (_lib.CFrame * max(n, 16))()
        for i, f in enumerate(frames):
            c = arr[i]
            if isinstance(f, (str, bytes)):
                c.name = cstr(f, "a frame's name")
                c.file = c.object = c.inlined = None
                c.line = 0
            elif isinstance(f, (tuple, list)):
                f = Frame(*f)
                c.name = cstr(f.name, "a frame's name")
                c.file = cstr(f.file, "a frame's file")
                c.object = cstr(f.object, "a frame's object")
                c.inlined = cstr(f.inlined, "a frame's inlined file")
                c.line = u64(f.line or 0, "a frame's line")
            else:
                raise TypeError("frame %d must be a Frame, a tuple, a list, str or bytes, "
                                "not %s" % (i, type(f).__name__))
        flags = _lib.STACK_UNCOUNTED if uncounted else 0
        self._check(lib.cgw_stacks_add(s, cstr(event, "event name"), arr, n,
                                       u64(count), flags))

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
        writer_args (cmd=, creator=, flags=...).

        Each function is written under its own name, object and file,
        never renamed: its fl= and ob= tell it from another of that name,
        so its name does not depend on what else was sampled.  With
        cgw.QUALIFY_NAMES in the writer's flags (flags=cgw.QUALIFY_NAMES,
        or a cgw.Writer opened with it), every function with an object or
        a file is named "NAME [OBJECT] (FILE)" instead, the same in every
        part and run, for readers that merge functions by name alone
        (gprof2dot).  cgw.Error as cgw_stacks_write()."""
        if isinstance(dest, Writer):
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
