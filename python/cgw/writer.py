# SPDX-License-Identifier: MIT
"""cgw.Writer: a profile written through libcgw's writer (cgw_open_*)."""
import ctypes
import os

from . import _lib
from ._lib import lib, cstr, u64, u64_array, Error

_POS_NAMES = {"line": _lib.POS_LINE, "instr": _lib.POS_INSTR, "bb": _lib.POS_BB}


def _positions(p):
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


def _open_error(what):
    e = ctypes.get_errno()
    return OSError(e, "%s: %s" % (what, os.strerror(e)))


class Writer:
    """A Callgrind profile written by libcgw (the package's docstring
    shows one written).

    dest is a path (str, bytes or os.PathLike), an int (an open file
    descriptor, left open), or None: the profile stays in memory and
    getvalue() gives its bytes after close().  positions is a CGW_POS_*
    mask or names ("instr line"); flags CGW_* flags (cgw.COMPACT...).
    Every call of the library that fails raises cgw.Error with its
    message; the writer is then discarded (nothing written to dest)."""

    def __init__(self, dest=None, events=(), cmd=None, creator=None, pid=None,
                 positions=None, flags=0, buffer_size=0):
        self._w = None
        self._value = None
        self._buf = ctypes.POINTER(ctypes.c_char)()
        self._len = ctypes.c_size_t(0)
        opts = _lib.Options(ctypes.sizeof(_lib.Options), _positions(positions),
                            flags, buffer_size, None)
        self.positions = opts.positions or _lib.POS_LINE
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
    def handle(self):
        """The cgw_writer * (for the calls of libcgw that take one)."""
        if self._w is None:
            raise ValueError("the writer is closed")
        return self._w

    def _check(self, status):
        if status != _lib.OK:
            msg = _lib.text(lib.cgw_errmsg(self._w)) or _lib.text(lib.cgw_strerror(status))
            self.discard()
            raise Error(status, msg)

    def discard(self):
        """Release the writer without committing anything."""
        if self._w is not None:
            lib.cgw_free(self._w)
            self._w = None

    def close(self):
        """Finish the profile (totals:, the rename over the path, the memory
        buffer handed over); cgw.Error on the writer's first error."""
        if self._w is None:
            return
        w = self._w
        st = lib.cgw_finish(w)
        if st != _lib.OK:
            self._check(st)
        if self._memory:
            self._value = ctypes.string_at(self._buf, self._len.value)
            _lib.libc_free(ctypes.cast(self._buf, ctypes.c_void_p))
            self._buf = ctypes.POINTER(ctypes.c_char)()
        lib.cgw_free(w)
        self._w = None

    def getvalue(self):
        """The profile's bytes, for Writer(None), after close()."""
        if not self._memory:
            raise ValueError("getvalue() is for a writer to memory: Writer(None)")
        if self._value is None:
            raise ValueError("getvalue() comes after close()")
        return self._value

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.discard()
        else:
            self.close()
        return False

    def __del__(self):
        try:
            self.discard()
        except Exception:
            pass

    # ------------------------------------------------------------- header
    def set_creator(self, creator):
        self._check(lib.cgw_set_creator(self.handle, cstr(creator, "creator")))

    def set_cmd(self, cmd):
        self._check(lib.cgw_set_cmd(self.handle, cstr(cmd, "cmd")))

    def set_pid(self, pid):
        self._check(lib.cgw_set_pid(self.handle, u64(pid, "pid")))

    def set_thread(self, thread):
        self._check(lib.cgw_set_thread(self.handle, u64(thread, "thread")))

    def add_desc(self, type, value):
        self._check(lib.cgw_add_desc(self.handle, cstr(type, "desc type"),
                                     cstr(value, "desc value")))

    def add_event(self, name, long_name=None):
        self._check(lib.cgw_add_event(self.handle, cstr(name, "event name"),
                                      cstr(long_name, "long event name")))

    def add_derived_event(self, name, formula, long_name=None):
        self._check(lib.cgw_add_derived_event(self.handle, cstr(name, "event name"),
                                              cstr(formula, "formula"),
                                              cstr(long_name, "long event name")))

    def set_summary(self, costs):
        arr, n = u64_array(costs, "summary cost")
        self._check(lib.cgw_set_summary(self.handle, arr, n))

    # --------------------------------------------------------------- body
    def _pos(self, pos):
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

    def object(self, name):
        self._check(lib.cgw_object(self.handle, cstr(name, "object name")))

    def file(self, name):
        self._check(lib.cgw_file(self.handle, cstr(name, "file name")))

    def function(self, name, file=None, object=None):
        """Start the block of function name (fn=), in file (fl=) and object
        (ob=) when given; the library keeps the last ones given."""
        w = self.handle
        if object is not None:
            self._check(lib.cgw_object(w, cstr(object, "object name")))
        if file is not None:
            self._check(lib.cgw_file(w, cstr(file, "file name")))
        self._check(lib.cgw_function(w, cstr(name, "function name")))

    def inline_file(self, name):
        self._check(lib.cgw_inline_file(self.handle, cstr(name, "file name")))

    def cost(self, pos, costs):
        """A self-cost line at pos (a line, or a sequence of the position's
        values: (address, line) for an "instr line" writer) with costs, a
        sequence of ints, one an event.  ValueError for a position of
        another shape than the writer's positions."""
        arr, n = u64_array(costs)
        self._check(lib.cgw_cost(self.handle, self._pos(pos), arr, n))

    def call(self, file, name, count, pos, inclusive, object=None, target_pos=None):
        """A call from pos to function name of file (None: the caller's) in
        object (None: the caller's), made count times, with its inclusive
        costs."""
        t = _lib.Target(cstr(object, "object name"), cstr(file, "file name"),
                        cstr(name, "function name"))
        arr, n = u64_array(inclusive, "an inclusive cost")
        self._check(lib.cgw_call(self.handle, ctypes.byref(t), u64(count), self._pos(target_pos),
                                 self._pos(pos), arr, n))

    def jump(self, file, name, count, pos, target_pos=None, object=None):
        t = _lib.Target(cstr(object, "object name"), cstr(file, "file name"),
                        cstr(name, "function name"))
        self._check(lib.cgw_jump(self.handle, ctypes.byref(t), u64(count),
                                 self._pos(target_pos), self._pos(pos)))

    def cond_jump(self, file, name, followed, executed, pos, target_pos=None, object=None):
        t = _lib.Target(cstr(object, "object name"), cstr(file, "file name"),
                        cstr(name, "function name"))
        self._check(lib.cgw_cond_jump(self.handle, ctypes.byref(t), u64(followed),
                                      u64(executed), self._pos(target_pos), self._pos(pos)))

    def new_part(self):
        """End this part (its totals:) and start the next."""
        self._check(lib.cgw_new_part(self.handle))

    @classmethod
    def to_bytes(cls, fill, **kwargs):
        """The bytes of a profile written by fill(writer) in memory."""
        w = cls(None, **kwargs)
        with w:
            fill(w)
        return w.getvalue()
