# SPDX-License-Identifier: MIT
# subject.rb - the workload that test-writers.sh profiles with ruby-prof:
# recursion, a callback (sort_by's block), a few hundred calls, and a
# second thread.
def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

def key(x)
  (x * 2654435761) % 1000
end

t = Thread.new { fib(11) }
v = (0...64).sort_by { |x| key(x) }
s = fib(12) + v[0]
puts "#{s} #{t.value}"
