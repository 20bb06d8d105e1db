# SPDX-License-Identifier: MIT
# subject.py - the workload that test-writers.sh profiles with yappi
# (python3 subject.py OUT [builtins]: a Callgrind file at OUT) and with
# cProfile (python3 -m cProfile -o X subject.py): recursion, a callback
# (sorted's key), a few hundred calls, and a second thread.
import sys
import threading


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def key(x):
    return (x * 2654435761) % 1000


def worker(out):
    out.append(fib(11))


def main():
    out = []
    t = threading.Thread(target=worker, args=(out,))
    t.start()
    v = sorted(range(64), key=key)
    s = fib(12) + v[0]
    t.join()
    print(s, out[0])


if len(sys.argv) > 1:
    import yappi
    yappi.start(builtins=len(sys.argv) > 2)
    main()
    yappi.stop()
    yappi.get_func_stats().save(sys.argv[1], type="callgrind")
else:
    main()
