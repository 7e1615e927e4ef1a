package symbolic

import (
	"context"
	"testing"

	"github.com/vsym/vsym/counterabs"
)

// Benchmarks on rows of Table 4, with the counter models built by hand
// (the guards counterabs produces for them) so that no solver runs:
//
//	go test -run '^$' -bench . -benchtime 3x ./explore/symbolic
func runBench(b *testing.B, mk func() *counterabs.Model, opts ...Option) {
	b.Helper()
	var nodes, heap float64
	for i := 0; i < b.N; i++ {
		rep, st, err := exploreModel(context.Background(), mk(), opts...)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range rep.Properties {
			if !p.Holds {
				b.Fatalf("%s fails", p.Name)
			}
		}
		nodes, heap = float64(st.PeakNodes), float64(st.PeakHeapBytes)
	}
	b.ReportMetric(nodes, "peak-nodes")
	b.ReportMetric(heap/(1<<20), "heap-MB")
}

// Table 4, GR&W q=50 (d=10, m=20: 500 processes), decided backwards.
func BenchmarkGRWq50(b *testing.B) {
	runBench(b, func() *counterabs.Model { return grw(20, 500) }, WithReachable(false))
}

// Table 4, GR&W m=30 (d=5, q=20), with reachable states first: the slow
// way, for comparison with the row above.
func BenchmarkGRWm30Reach(b *testing.B) {
	runBench(b, func() *counterabs.Model { return grw(30, 100) }, WithReachable(true))
}

// Table 4, ASR r=10 n=80 without reachable states (the paper's slowest row).
func BenchmarkASRr10n80(b *testing.B) {
	runBench(b, func() *counterabs.Model { return asr(80, 10, 2) }, WithOrder(Blocked), WithReachable(false))
}

// Table 4, ASR r=10 n=80 with reachable states first.
func BenchmarkASRr10n80Reach(b *testing.B) {
	runBench(b, func() *counterabs.Model { return asr(80, 10, 2) }, WithOrder(Blocked), WithReachable(true))
}

// Table 4, ASR r=2 n=80 with traces: the witness of EF all_used, which
// once cost a fixpoint over the whole counter space (40 s instead of
// 0.2 s).
func BenchmarkASRr2n80Witness(b *testing.B) {
	runBench(b, func() *counterabs.Model { return asr(80, 2, 2) }, WithReachable(false))
}
