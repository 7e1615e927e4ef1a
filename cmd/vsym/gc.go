package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// vsym's runs are mostly short and allocate much: a proof on a mist net
// builds and drops thousands of formulas in tens of milliseconds, and
// with Go's default (a collection whenever the heap doubles, from 4 MB
// on) a fifth of its CPU is the collector's. Until the live heap reaches
// bigHeap, vsym lets the heap grow to five times the live one
// (smallHeapGCPercent); past it, a long run gets the default back, so
// that what it holds is what bounds its memory, not five times that.
// Measured in BENCHMARKS.md ("Other ways of writing the cases", the
// collector). GOGC, when set, decides alone.
const (
	smallHeapGCPercent = 400
	bigHeap            = 256 << 20
)

func tuneGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(smallHeapGCPercent)
	watchHeap()
}

// watchHeap looks at the live heap after the next collection (the
// cleanup of an object nothing references runs after a collection
// finds it unreachable), and again after each one until it is big.
func watchHeap() {
	probe := new(struct{ _ *int })
	runtime.AddCleanup(probe, func(struct{}) {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() >= bigHeap {
			debug.SetGCPercent(100)
			return
		}
		watchHeap()
	}, struct{}{})
}
