# SPDX-License-Identifier: MIT
"""libcgw through ctypes: loading the library, the structs and prototypes
of <cgw.h> that the package uses, and the conversions of Python values
to C ones (the only checks made here are those C cannot make: an int
that does not fit uint64_t, a str with a NUL)."""
import ctypes
import ctypes.util
import enum
import os
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple

from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int, c_size_t,
                    c_uint, c_uint64, c_void_p, CFUNCTYPE)

U64_MAX = 2**64 - 1


# The constants of <cgw.h>, one class a group, each member equal to its
# CGW_ value; the module-level names below are aliases of the members.

class Status(enum.IntEnum):
    """cgw_status: what a call of libcgw returned (cgw.Error.status)."""
    OK = 0
    EIO = 1
    ENOMEM = 2
    EUSAGE = 3
    EINVAL = 4
    ERANGE = 5


class Position(enum.IntFlag):
    """CGW_POS_*: the position kinds of a writer (Writer(positions=)) or
    of a part (Part.positions)."""
    LINE = 1
    INSTR = 2
    BB = 4
    NONE = 8


class WriterFlag(enum.IntFlag):
    """cgw_options.flags: how a writer writes (Writer(flags=))."""
    COMPACT = 1
    NO_NAME_COMPRESSION = 2
    NO_POS_COMPRESSION = 4
    EXTENDED = 8
    GZIP = 16
    NOFOLLOW = 32
    EXCL = 64
    RAW = 128
    ZERO_COUNTS = 4096
    ONE_PART = 8192
    QUALIFY_NAMES = 16384


def gzip_level(n: int) -> WriterFlag:
    """CGW_GZIP_LEVEL(n): the writer flag of gzip level n (1 to 9, 0 the
    default), to be or-ed with WriterFlag.GZIP."""
    return WriterFlag(n << 8)


class ReadFlag(enum.IntFlag):
    """cgw_read_options.flags (CGW_READ_*)."""
    CHECK = 1
    MAP = 2
    SUM_COSTS = 4


class RecordKind(enum.IntEnum):
    """cgw_record_kind: the kind of a record of the reader."""
    PART = 1
    FUNCTION = 2
    INLINE = 3
    COST = 4
    CALL = 5
    JUMP = 6
    COND_JUMP = 7
    PART_END = 8


class Severity(enum.IntEnum):
    """cgw_severity: how bad a reader diagnostic is (Diagnostic.severity).
    str() of a member is its name in lower case ("error"), as messages
    print it."""
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class DiffSide(enum.IntEnum):
    """CGW_DIFF_OLD, CGW_DIFF_NEW: a side of cgw_diff_add()."""
    OLD = 0
    NEW = 1


class RecodeFlag(enum.IntFlag):
    """cgw_recode() flags (CGW_RECODE_*)."""
    JUMPS = 1


class MergeFlag(enum.IntFlag):
    """cgw_merge_options.flags (CGW_MERGE_*)."""
    KEEP_PARTS = 1


class StackFlag(enum.IntFlag):
    """cgw_stacks_add() flags (CGW_STACK_*)."""
    UNCOUNTED = 1
    LEAF_FIRST = 2


class GenFlag(enum.IntFlag):
    """cgw_gen_options.flags (CGW_GEN_*)."""
    INLINE = 1
    JUMPS = 2


class Feature(enum.IntFlag):
    """CGW_FEATURE_*: the optional parts libcgw was built with."""
    GZIP = 1


OK = Status.OK
EIO = Status.EIO
ENOMEM = Status.ENOMEM
EUSAGE = Status.EUSAGE
EINVAL = Status.EINVAL
ERANGE = Status.ERANGE
REC_PART = RecordKind.PART
REC_FUNCTION = RecordKind.FUNCTION
REC_INLINE = RecordKind.INLINE
REC_COST = RecordKind.COST
REC_CALL = RecordKind.CALL
REC_JUMP = RecordKind.JUMP
REC_COND_JUMP = RecordKind.COND_JUMP
REC_PART_END = RecordKind.PART_END
POS_LINE = Position.LINE
POS_INSTR = Position.INSTR
POS_BB = Position.BB
POS_NONE = Position.NONE
COMPACT = WriterFlag.COMPACT
NO_NAME_COMPRESSION = WriterFlag.NO_NAME_COMPRESSION
NO_POS_COMPRESSION = WriterFlag.NO_POS_COMPRESSION
EXTENDED = WriterFlag.EXTENDED
GZIP = WriterFlag.GZIP
NOFOLLOW = WriterFlag.NOFOLLOW
EXCL = WriterFlag.EXCL
RAW = WriterFlag.RAW
ZERO_COUNTS = WriterFlag.ZERO_COUNTS
ONE_PART = WriterFlag.ONE_PART
QUALIFY_NAMES = WriterFlag.QUALIFY_NAMES
READ_CHECK = ReadFlag.CHECK
READ_MAP = ReadFlag.MAP
READ_SUM_COSTS = ReadFlag.SUM_COSTS
WARNING = Severity.WARNING
ERROR = Severity.ERROR
DIFF_OLD = DiffSide.OLD
DIFF_NEW = DiffSide.NEW
RECODE_JUMPS = RecodeFlag.JUMPS
MERGE_KEEP_PARTS = MergeFlag.KEEP_PARTS
STACK_UNCOUNTED = StackFlag.UNCOUNTED
STACK_LEAF_FIRST = StackFlag.LEAF_FIRST
FEATURE_GZIP = Feature.GZIP
GEN_INLINE = GenFlag.INLINE
GEN_JUMPS = GenFlag.JUMPS


def escape(s: str) -> str:
    """s as it may reach a terminal, as the tools print names: when it
    has a control character (below U+0020, or U+007F), each as \\xNN
    and each backslash as \\\\; else s itself."""
    if not any(ord(c) < 0x20 or c == "\x7f" for c in s):
        return s
    return "".join("\\x%02x" % ord(c) if ord(c) < 0x20 or c == "\x7f"
                   else "\\\\" if c == "\\" else c for c in s)


class Error(Exception):
    """A call of libcgw failed: status is its cgw_status (a cgw.Status
    member: cgw.EINVAL...), message the library's own message
    ("cgw_add_event: ..."), with control characters that names in it
    carry escaped (escape()) so that printing it cannot drive a terminal.
    (A file that cannot be opened raises OSError with its errno instead.)"""

    def __init__(self, status: int, message: Optional[str]) -> None:
        message = escape(message or "")
        super().__init__(message)
        try:
            self.status: int = Status(status)
        except ValueError:
            self.status = status
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return "cgw.Error(%d, %r)" % (self.status, self.message)


# ------------------------------------------------------------- the structs

class Allocator(Structure):
    _fields_ = [("malloc", c_void_p), ("realloc", c_void_p), ("free", c_void_p),
                ("ctx", c_void_p)]


class Options(Structure):
    _fields_ = [("struct_size", c_size_t), ("positions", c_uint), ("flags", c_uint),
                ("buffer_size", c_size_t), ("allocator", POINTER(Allocator))]


class Target(Structure):
    _fields_ = [("object", c_char_p), ("file", c_char_p), ("function", c_char_p)]


class Diagnostic(Structure):
    _fields_ = [("line", c_uint64), ("severity", c_int), ("code", c_char_p),
                ("message", c_char_p)]


DIAG_FN = CFUNCTYPE(None, c_void_p, POINTER(Diagnostic))


class ReadOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint), ("diag", DIAG_FN),
                ("diag_ctx", c_void_p), ("allocator", POINTER(Allocator)),
                ("skip", c_uint)]


class Desc(Structure):
    _fields_ = [("type", c_char_p), ("value", c_char_p)]


class Event(Structure):
    _fields_ = [("name", c_char_p), ("long_name", c_char_p), ("formula", c_char_p)]


class Part(Structure):
    _fields_ = [("index", c_uint), ("number", c_uint64), ("version", c_uint64),
                ("creator", c_char_p), ("cmd", c_char_p),
                ("pid", c_uint64), ("thread", c_uint64),
                ("has_pid", c_int), ("has_thread", c_int),
                ("descs", POINTER(Desc)), ("ndescs", c_size_t),
                ("positions", c_uint), ("npos", c_size_t),
                ("events", POINTER(Event)), ("nevents", c_size_t),
                ("derived", POINTER(Event)), ("nderived", c_size_t),
                ("summary", POINTER(c_uint64))]


class Record(Structure):
    _fields_ = [("kind", c_int), ("line", c_uint64), ("part", POINTER(Part)),
                ("object", c_char_p), ("file", c_char_p), ("function", c_char_p),
                ("source_file", c_char_p),
                ("pos", POINTER(c_uint64)), ("costs", POINTER(c_uint64)),
                ("target", Target), ("target_pos", POINTER(c_uint64)),
                ("count", c_uint64), ("executed", c_uint64),
                ("totals_line", POINTER(c_uint64)), ("summary", POINTER(c_uint64)),
                ("cost_lines", c_uint64), ("calls", c_uint64), ("functions", c_uint64)]


class CFrame(Structure):
    _fields_ = [("object", c_char_p), ("file", c_char_p), ("name", c_char_p),
                ("inlined", c_char_p), ("line", c_uint64)]


class GenOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("seed", c_uint64), ("size", c_uint64),
                ("functions", c_uint), ("files", c_uint), ("objects", c_uint),
                ("events", c_uint), ("calls_per_fn", c_uint), ("parts", c_uint),
                ("flags", c_uint)]


class MergeOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint),
                ("mod_filename", c_char_p), ("mod_funcname", c_char_p),
                ("allocator", POINTER(Allocator))]


class DiffRow(Structure):
    _fields_ = [("object", c_char_p), ("file", c_char_p), ("function", c_char_p),
                ("event", c_char_p), ("column", c_size_t), ("inclusive", c_int),
                ("old_cost", c_uint64), ("new_cost", c_uint64), ("change", ctypes.c_double)]


WRITE_FN = CFUNCTYPE(c_int, c_void_p, POINTER(c_char), c_size_t)

# ------------------------------------------------------------ the library


def _candidates() -> Iterator[str]:
    env = os.environ.get("CGW_LIBRARY")
    if env:
        yield env
        return
    try:
        from . import _config
    except ImportError:
        _config = None
    if _config is not None and _config.soname and not _config.libdir.startswith("@"):
        yield os.path.join(_config.libdir, _config.soname)
    found = ctypes.util.find_library("cgw")
    if found:
        yield found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path, use_errno=True)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("cgw: cannot load libcgw, the C library this package is over "
                      "(tried %s): install it (./configure && make && make install in "
                      "libcgw's source tree, or your distribution's libcgw package), or "
                      "set CGW_LIBRARY to its path"
                      % (", ".join(tried) or "nothing: no CGW_LIBRARY, no install, "
                         "find_library('cgw') found none"))


lib = _load()

W = c_void_p  # every handle is an opaque pointer
_U64P = POINTER(c_uint64)
_PROTOS = {
    "cgw_version": (c_char_p, []),
    "cgw_strerror": (c_char_p, [c_int]),
    "cgw_features": (c_uint, [POINTER(POINTER(c_char_p))]),
    # the writer
    "cgw_open_path": (W, [c_char_p, POINTER(Options)]),
    "cgw_open_fd": (W, [c_int, POINTER(Options)]),
    "cgw_open_memory": (W, [POINTER(POINTER(c_char)), POINTER(c_size_t), POINTER(Options)]),
    "cgw_set_creator": (c_int, [W, c_char_p]),
    "cgw_set_cmd": (c_int, [W, c_char_p]),
    "cgw_set_pid": (c_int, [W, c_uint64]),
    "cgw_set_thread": (c_int, [W, c_uint64]),
    "cgw_add_desc": (c_int, [W, c_char_p, c_char_p]),
    "cgw_add_event": (c_int, [W, c_char_p, c_char_p]),
    "cgw_add_derived_event": (c_int, [W, c_char_p, c_char_p, c_char_p]),
    "cgw_set_summary": (c_int, [W, _U64P, c_size_t]),
    "cgw_object": (c_int, [W, c_char_p]),
    "cgw_file": (c_int, [W, c_char_p]),
    "cgw_function": (c_int, [W, c_char_p]),
    "cgw_inline_file": (c_int, [W, c_char_p]),
    "cgw_cost": (c_int, [W, _U64P, _U64P, c_size_t]),
    "cgw_call": (c_int, [W, POINTER(Target), c_uint64, _U64P, _U64P, _U64P, c_size_t]),
    "cgw_jump": (c_int, [W, POINTER(Target), c_uint64, _U64P, _U64P]),
    "cgw_cond_jump": (c_int, [W, POINTER(Target), c_uint64, c_uint64, _U64P, _U64P]),
    "cgw_new_part": (c_int, [W]),
    "cgw_write_bytes": (c_int, [W, c_char_p, c_size_t]),
    "cgw_finish": (c_int, [W]),
    "cgw_free": (None, [W]),
    "cgw_close": (c_int, [W]),
    "cgw_errmsg": (c_char_p, [W]),
    "cgw_error": (c_int, [W]),
    "cgw_get_options": (c_int, [W, POINTER(Options)]),
    "cgw_pos_kinds": (c_size_t, [c_uint, POINTER(c_uint)]),
    "cgw_pos_name": (c_char_p, [c_uint]),
    "cgw_event_seconds": (c_double, [c_char_p, c_char_p]),
    "cgw_format_seconds": (c_size_t, [c_void_p, c_size_t, c_double]),
    # the reader
    "cgw_reader_open_path": (W, [c_char_p, POINTER(ReadOptions)]),
    "cgw_reader_open_memory": (W, [c_void_p, c_size_t, POINTER(ReadOptions)]),
    "cgw_reader_next": (c_int, [W, POINTER(POINTER(Record))]),
    "cgw_reader_counts": (None, [W, _U64P, _U64P]),
    "cgw_reader_errmsg": (c_char_p, [W]),
    "cgw_reader_close": (None, [W]),
    "cgw_recode": (c_int, [W, W, c_uint]),
    "cgw_roundtrip": (c_int, [c_char_p, c_void_p, c_size_t, POINTER(ReadOptions), _U64P]),
    # merge and diff
    "cgw_merge_new": (W, [POINTER(MergeOptions)]),
    "cgw_merge_add": (c_int, [W, W]),
    "cgw_merge_positions": (c_uint, [W]),
    "cgw_merge_write": (c_int, [W, W]),
    "cgw_merge_errmsg": (c_char_p, [W]),
    "cgw_merge_free": (None, [W]),
    "cgw_diff_new": (W, [POINTER(MergeOptions)]),
    "cgw_diff_add": (c_int, [W, c_int, W]),
    "cgw_diff_rows": (c_int, [W, POINTER(POINTER(DiffRow)), POINTER(c_size_t)]),
    "cgw_diff_write": (c_int, [W, W]),
    "cgw_diff_positions": (c_uint, [W]),
    "cgw_diff_errmsg": (c_char_p, [W]),
    "cgw_diff_free": (None, [W]),
    # stacks
    "cgw_stacks_new": (W, [POINTER(Allocator)]),
    "cgw_stacks_add_folded": (c_int, [W, c_char_p, c_char_p, c_char_p, c_size_t]),
    "cgw_stacks_add": (c_int, [W, c_char_p, POINTER(CFrame), c_size_t, c_uint64, c_uint]),
    "cgw_stacks_intern": (c_int, [W, POINTER(CFrame), POINTER(c_uint64)]),
    "cgw_stacks_add_h": (c_int, [W, c_char_p, POINTER(c_uint64), POINTER(c_uint64), c_size_t,
                                 c_uint64, c_uint]),
    "cgw_stacks_add_at": (c_int, [W, c_char_p, POINTER(c_uint64), POINTER(c_uint64),
                                  POINTER(c_uint64), c_size_t, c_uint64, c_uint64, c_uint]),
    "cgw_generate": (c_int, [W, POINTER(GenOptions)]),
    "cgw_stacks_write": (c_int, [W, W]),
    "cgw_stacks_fail": (c_int, [W, c_int, c_char_p]),
    "cgw_stacks_errmsg": (c_char_p, [W]),
    "cgw_stacks_free": (None, [W]),
    "cgw_write_folded": (c_int, [W, c_char_p, WRITE_FN, c_void_p, c_char_p, c_size_t]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
libc_free = ctypes.CDLL(None).free
libc_free.argtypes = [c_void_p]
libc_free.restype = None

# --------------------------------------------------------- conversions


def cstr(s: Any, what: str = "a string") -> Optional[bytes]:
    """A str (UTF-8) or bytes for a const char *; None stays NULL.  A NUL
    inside would cut the text short in C: ValueError."""
    if s is None:
        return None
    if isinstance(s, str):
        b = s.encode("utf-8", "surrogateescape")
    elif isinstance(s, (bytes, bytearray)):
        b = bytes(s)
    elif isinstance(s, os.PathLike):
        b = os.fsencode(s)
    else:
        raise TypeError("%s must be str or bytes, not %s" % (what, type(s).__name__))
    if b"\0" in b:
        raise ValueError("%s contains a NUL character: %r" % (what, s))
    return b


def path(p: Any) -> Optional[bytes]:
    """A file name for C: os.fsencode, no NUL."""
    return cstr(os.fsencode(p), "a path")


def text(b: Optional[bytes]) -> Optional[str]:
    """A const char * from C as str (None for NULL)."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def u64(v: Any, what: str = "a count") -> int:
    """An int for uint64_t: OverflowError past 2**64-1, ValueError below 0."""
    try:
        v = v.__index__()
    except AttributeError:
        raise TypeError("%s must be an int, not %s" % (what, type(v).__name__)) from None
    if v < 0:
        raise ValueError("%s must not be negative: %d" % (what, v))
    if v > U64_MAX:
        raise OverflowError("%s does not fit 64 bits: %d" % (what, v))
    return v


def u64_array(values: Optional[Sequence[int]], what: str = "a cost") -> Tuple[Any, int]:
    """A sequence of ints as (uint64_t[n], n); (None, 0) for None."""
    if values is None:
        return None, 0
    vals = [u64(v, what) for v in values]
    return (c_uint64 * len(vals))(*vals), len(vals)


def seq(ptr: Any, n: int) -> Optional[Tuple[int, ...]]:
    """uint64_t[n] at ptr as a tuple (None for NULL)."""
    if not ptr:
        return None
    return tuple(ptr[i] for i in range(n))


class Callback:
    """fn as a C callback of type proto (.c, None when fn is None).  An
    exception fn raises cannot cross C: it is kept, the callback returns
    failed (the value that makes the C side stop, where it can) and does
    nothing more, and reraise() raises it once the C call has returned."""

    def __init__(self, proto: Any, fn: Optional[Callable[..., Any]], failed: Any) -> None:
        self.error: Optional[BaseException] = None
        self.c = None
        if fn is None:
            return

        def call(*args: Any) -> Any:
            if self.error is not None:
                return failed
            try:
                return fn(*args)
            except BaseException as e:  # raised again by reraise()
                self.error = e
                return failed
        self.c = proto(call)

    def reraise(self) -> None:
        """Raise what fn raised, if it did (once)."""
        e, self.error = self.error, None
        if e is not None:
            raise e


def check(status: int, msg: Callable[[], Any]) -> None:
    """Raise Error(status, msg()) unless status is CGW_OK."""
    if status != OK:
        m = msg() or lib.cgw_strerror(status).decode()
        raise Error(status, m if isinstance(m, str) else text(m))
