<?php
// SPDX-License-Identifier: MIT
// subject.php - the workload that test-writers.sh profiles with Xdebug:
// recursion, a callback (usort's comparator), a few hundred calls.  PHP
// has no threads.
function fib($n)
{
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

function by_key($a, $b)
{
    return (($a * 2654435761) % 1000) <=> (($b * 2654435761) % 1000);
}

$v = range(0, 63);
usort($v, 'by_key');
echo fib(12) + $v[0], "\n";
