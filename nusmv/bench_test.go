package nusmv

import (
	"strings"
	"testing"
)

// BenchmarkEmitReducedGRW emits the counter model of GR&W with d=100
// groups of q=20 processes and m=10 local states (n = 2000) and reports
// the size of the text.
func BenchmarkEmitReducedGRW(b *testing.B) {
	sys, err := grw(100, 20, 10)
	if err != nil {
		b.Fatal(err)
	}
	m, err := buildModel(sys, false)
	if err != nil {
		b.Fatal(err)
	}
	var text string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if text, err = Reduced(m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(text)), "bytes")
	b.ReportMetric(float64(strings.Count(text, "\n")), "lines")
}

// BenchmarkEmitConcreteGRW emits the unreduced GR&W model for a small
// instance (d=2, q=2, m=4: 4 processes) and for d=100, q=20, m=10 (2000
// processes) and reports the size of the text.
func BenchmarkEmitConcreteGRW(b *testing.B) {
	for _, p := range []struct {
		name    string
		d, q, m int
	}{{"d2q2m4", 2, 2, 4}, {"d100q20m10", 100, 20, 10}} {
		b.Run(p.name, func(b *testing.B) {
			sys, err := grw(p.d, p.q, p.m)
			if err != nil {
				b.Fatal(err)
			}
			var text string
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if text, err = Concrete(sys); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(text)), "bytes")
			b.ReportMetric(float64(strings.Count(text, "\n")), "lines")
		})
	}
}
