# SPDX-License-Identifier: MIT
"""cgw.cprofile: profile a Python program with cProfile and write what it
measured as a Callgrind profile (through cgw.pstats.convert()).

    python3 -m cgw.cprofile [-o OUT] script.py [args...]
    python3 -m cgw.cprofile [-o OUT] -m module [args...]

The program runs as under python3 -m cProfile: sys.argv is the script
(or module) and its arguments, the script's folder comes first on
sys.path, and it runs in fresh __main__ globals (__name__ "__main__",
__file__ the script).  The profile is written when the program ends,
by sys.exit() or an exception too (which then goes on as it would
have); the exit status is the program's.  OUT defaults to
callgrind.out.<pid>, which must not exist yet (cgw.EXCL).
"""
import argparse
import cProfile
import importlib.machinery
import io
import os
import runpy
import sys
from typing import Any, Dict, List, Optional, Tuple

from . import _lib
from .pstats import convert, why


def _code(args: argparse.Namespace) -> Tuple[Any, Dict[str, Any]]:
    """The code to run and its globals, as cProfile.main() makes them."""
    if args.module:
        return ("run_module(modname, run_name='__main__', alter_sys=True)",
                {"run_module": runpy.run_module, "modname": args.target})
    progname = args.target
    sys.path.insert(0, os.path.dirname(progname))
    with io.open_code(progname) as fp:
        code = compile(fp.read(), progname, "exec")
    spec = importlib.machinery.ModuleSpec(name="__main__", loader=None, origin=progname)
    return code, {"__spec__": spec, "__file__": spec.origin, "__name__": spec.name,
                  "__package__": None, "__cached__": None}


def main(argv: Optional[List[str]] = None) -> Any:
    """python3 -m cgw.cprofile with arguments argv (None: sys.argv's):
    runs the program and returns its exit status (what it gave
    sys.exit(), or 1 when the profile could not be written, said on
    stderr; 2 for a script that cannot be read)."""
    p = argparse.ArgumentParser(
        prog="python3 -m cgw.cprofile",
        usage="%(prog)s [-o OUT] [-m module | script.py] [args ...]",
        description="Run a Python program under cProfile and write a Callgrind profile "
        "(event ns: nanoseconds).")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the profile to write (default: callgrind.out.<pid>, not replaced)")
    p.add_argument("-m", dest="module", action="store_true",
                   help="run a library module, as python3 -m does")
    p.add_argument("target", metavar="script.py", help="the program (a module with -m)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    args = p.parse_args(argv)

    # the program may chdir: the output's path is taken now
    if args.output:
        out, flags = os.path.abspath(args.output), 0
    else:
        out, flags = os.path.abspath("callgrind.out.%d" % os.getpid()), _lib.EXCL
    sys.argv[:] = [args.target] + args.args
    try:
        code, globs = _code(args)
    except OSError as e:
        sys.stderr.write("%s: %s: %s\n" % (p.prog, args.target, e.strerror or e))
        return 2
    # cmd: the command as run (a line of text: no line breaks)
    cmd = " ".join(sys.argv).replace("\n", " ").replace("\r", " ")

    prof = cProfile.Profile()
    status = 0
    try:
        prof.runctx(code, globs, None)
    except SystemExit as e:
        status = e.code
    finally:
        # written on an exception too, which then goes on
        try:
            convert(prof, out, cmd=cmd, pid=os.getpid(), flags=flags)
        except (OSError, _lib.Error, ValueError) as e:
            sys.stderr.write("%s: cannot write %s: %s\n" % (p.prog, out, why(e)))
            status = status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
