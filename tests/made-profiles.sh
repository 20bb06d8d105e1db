#!/bin/sh
# SPDX-License-Identifier: MIT
# made-profiles.sh, sourced by tests: made_profiles DIR writes real
# writers' files of recursive programs and of a Python script with
# imports into DIR, each skipped with a message where its writer is
# missing: Valgrind's of a recursive program and of tests/subject with
# default options (vg-rec.out, vg-subject.out), python3 -m cgw.cprofile's
# (py.out), pyprof2calltree's (p2c.out) and yappi's (yappi.out) of the
# same script.  It sets made (the paths made), python_file (the Python
# profiles from cProfile) and yappi_file, and calls fail MESSAGE where a
# writer that is there fails.  Needs build and src set.
made_profiles() {
    dir=$1
    made="" python_file="" yappi_file=""
    if command -v valgrind >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
        cat >"$dir/rec.c" <<'C'
#include <stdlib.h>
static int term(int n);
static int __attribute__((noinline)) expr(int n) { return n <= 0 ? 1 : term(n - 1) + expr(n - 2) + 1; }
static int __attribute__((noinline)) term(int n) { volatile int s = 0; for (int i = 0; i < 50; i++) s += i; return n <= 0 ? s : expr(n - 1) + s; }
static unsigned long __attribute__((noinline)) fact(unsigned long n) { return n < 2 ? 1 : n * fact(n - 1); }
int main(int argc, char **argv) { (void)argv; return (expr(14 + argc) + (int)fact(20)) == 42; }
C
        if cc -O1 -g -o "$dir/rec" "$dir/rec.c" 2>"$dir/cc.err"; then
            valgrind -q --tool=callgrind --callgrind-out-file="$dir/vg-rec.out" "$dir/rec" \
                >/dev/null 2>&1 && made="$made $dir/vg-rec.out"
            valgrind -q --tool=callgrind --callgrind-out-file="$dir/vg-subject.out" \
                "$build/tests/subject" >/dev/null 2>&1 && made="$made $dir/vg-subject.out"
        else
            echo "no C compiler run ($(head -1 "$dir/cc.err")): Valgrind's files skipped"
        fi
    else
        echo "no valgrind or cc: Valgrind's files of recursive programs skipped"
    fi
    # a Python profile with imports: exec -> <module> -> import -> exec
    pylib=$build/.libs/libcgw.so
    if command -v python3 >/dev/null 2>&1 && [ -f "$pylib" ]; then
        printf '%s\n' 'import json, re, collections' 'def work(n):' \
            '    c = collections.Counter()' '    for i in range(n):' \
            '        c[re.sub(r"\d", "x", json.dumps({"i": i}))] += 1' '    return c' \
            'def main():' '    work(300)' 'main()' >"$dir/script.py"
        if (cd "$dir" && CGW_LIBRARY=$pylib PYTHONPATH="$src/python" PYTHONDONTWRITEBYTECODE=1 \
            python3 -m cgw.cprofile -o py.out script.py) >"$dir/py.err" 2>&1; then
            python_file="$dir/py.out"
            made="$made $python_file"
        else
            fail "python3 -m cgw.cprofile: $(tail -1 "$dir/py.err")"
        fi
    else
        echo "no python3 or no shared $pylib: the Python profile skipped"
    fi
    # the same script under pyprof2calltree (cProfile's pstats converted)
    # and yappi, with Debian's python3, where they are installed
    debpy=/usr/bin/python3
    [ -x "$debpy" ] || debpy=python3
    if [ -f "$dir/script.py" ] && command -v pyprof2calltree >/dev/null 2>&1; then
        if (cd "$dir" && "$debpy" -m cProfile -o s.pstats script.py &&
            pyprof2calltree -i s.pstats -o p2c.out) >"$dir/p2c.err" 2>&1; then
            python_file="$python_file $dir/p2c.out"
            made="$made $dir/p2c.out"
        else
            fail "pyprof2calltree: $(tail -1 "$dir/p2c.err")"
        fi
    else
        echo "no pyprof2calltree: its Python profile skipped"
    fi
    if [ -f "$dir/script.py" ] && "$debpy" -c 'import yappi' 2>/dev/null; then
        printf '%s\n' 'import runpy, sys, yappi' 'yappi.set_clock_type("cpu")' \
            'yappi.start(builtins=False)' 'runpy.run_path(sys.argv[1], run_name="__main__")' \
            'yappi.stop()' 'yappi.get_func_stats().save(sys.argv[2], type="callgrind")' \
            >"$dir/yp.py"
        if (cd "$dir" && "$debpy" yp.py script.py yappi.out) >"$dir/yp.err" 2>&1; then
            yappi_file="$dir/yappi.out"
            made="$made $yappi_file"
        else
            fail "yappi: $(tail -1 "$dir/yp.err")"
        fi
    else
        echo "no yappi for $debpy (python3-yappi): its Python profile skipped"
    fi
}
