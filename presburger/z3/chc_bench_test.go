package z3_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// BenchmarkProveGRW proves mutual exclusion (x(m-1) <= 1) of the GR&W
// counter model with m counters and any n >= 1, the re-check of the
// invariant included.
func BenchmarkProveGRW(b *testing.B) {
	for _, m := range []int{4, 10, 20, 30} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) { benchProve(b, grw(m, true), pb.Proved, 0) })
	}
}

// BenchmarkProveGRWSpacerAlone is BenchmarkProveGRW without the affine
// hull: Spacer finds x(m-1) < 2 on its own.
func BenchmarkProveGRWSpacerAlone(b *testing.B) {
	defer z3.SetNoHull(true)()
	for _, m := range []int{4, 10, 20, 30} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) { benchProve(b, grw(m, true), pb.Proved, 0) })
	}
}

// BenchmarkRefuteGRW refutes the unguarded GR&W model: a shortest
// counterexample has n = 2 and 2(m-1) steps, replay included.
func BenchmarkRefuteGRW(b *testing.B) {
	for _, m := range []int{4, 6, 8} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) { benchProve(b, grw(m, false), pb.Refuted, 2*(m-1)) })
	}
}

// benchProve reports, besides ns/op, the CPU time per Prove (user and
// system, all threads, Z3's included): on a shared machine it varies far
// less than wall-clock time. A refutation must have the given number of
// steps, at n = 2.
func benchProve(b *testing.B, c *counters, want pb.Verdict, steps int) {
	ts := c.system()
	s := z3.New(z3.Timeout(5 * time.Minute))
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		a, err := s.Prove(context.Background(), ts, pb.Budget{})
		if err != nil || a.Verdict != want {
			b.Fatalf("got %v %v (%s), want %v", a.Verdict, err, a.Reason, want)
		}
		if cex := a.Counterexample; want == pb.Refuted && (len(cex.Steps) != steps || cex.Params[c.p(0)] != 2) {
			b.Fatalf("counterexample %+v, want n = 2 and %d steps", cex, steps)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime returns the CPU time (user + system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
