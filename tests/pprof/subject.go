// SPDX-License-Identifier: MIT
// subject.go - a Go program that test-pprof.sh builds and runs to get
// real pprof profiles from Go's own runtime/pprof: a CPU profile (two
// sample types) of a little recursion and inlining, then a heap profile
// (four sample types).  Standard library only.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink uint64

//go:noinline
func leaf(n int) uint64 {
	var s uint64
	for i := 0; i < n; i++ {
		s += uint64(i) * uint64(i) % 7
	}
	return s
}

func inlined(n int) uint64 { return leaf(n) + 1 }

//go:noinline
func middle(n int) uint64 { return inlined(n) + leaf(n/2) }

//go:noinline
func recurse(d, n int) uint64 {
	if d == 0 {
		return middle(n)
	}
	return recurse(d-1, n) + 1
}

func main() {
	cpu, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(cpu)
	end := time.Now().Add(700 * time.Millisecond)
	for time.Now().Before(end) {
		sink += recurse(3, 20000) + middle(10000)
	}
	pprof.StopCPUProfile()
	cpu.Close()
	keep := make([][]byte, 0)
	for i := 0; i < 2000; i++ {
		keep = append(keep, make([]byte, 4096+i))
	}
	runtime.GC()
	heap, _ := os.Create(os.Args[2])
	pprof.WriteHeapProfile(heap)
	heap.Close()
	sink += uint64(len(keep))
}
