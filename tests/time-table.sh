#!/bin/sh
# SPDX-License-Identifier: MIT
# time-table.sh [N]: in a build folder after make check, the N slowest
# tests (20 by default) by CPU time, with their wall time, and the sum
# of all, from the last line tests/time-limit.sh writes in each log.
# ./quickstart prints it after each run of the suite.
n=${1:-20}
find tests -name '*.log' ! -name test-suite.log 2>/dev/null |
    while read -r log; do
        sed -n "s|^time-limit: \([0-9]*\) s of [0-9]* s, \([0-9.]*\) s CPU.*\$|\2 \1 ${log%.log}|p" "$log" |
            tail -n 1
    done | sort -rn | awk -v n="$n" '
    { cpu += $1; wall += $2; tests++
      if (NR <= n) rows[NR] = sprintf("%8.1f %6d  %s", $1, $2, $3) }
    END { if (!tests) { print "time-table: no test logs with times here"; exit }
          printf "%8s %6s  %s\n", "CPU s", "wall s", "test (the " (tests < n ? tests : n) " slowest of " tests ")"
          for (i = 1; i <= n && i <= tests; i++) print rows[i]
          printf "%8.1f %6d  all %d tests (wall: summed; make -j runs them side by side)\n", cpu, wall, tests }'
