package detect

import (
	"context"
	"fmt"
	"testing"

	"github.com/vsym/vsym/presburger/z3"
)

// BenchmarkCertifyGRW certifies generalized readers/writers (section 6 of
// the paper; d groups of q processes, m local states) with Z3. The paper
// reports 17 s for d=100, q=20 with PBS and hours with Omega.
func BenchmarkCertifyGRW(b *testing.B) {
	sizes := []struct{ d, q, m int }{
		{2, 2, 4},
		{10, 10, 10},
		{100, 20, 10},
		{200, 20, 10},
	}
	variants := []struct {
		name string
		opts []Option
	}{
		{"whole", nil},
		{"split2", []Option{Split(2)}},
		{"split2-1worker", []Option{Split(2), Workers(1)}},
	}
	for _, sz := range sizes {
		sys := grw(sz.d, sz.q, sz.m)
		for _, v := range variants {
			b.Run(fmt.Sprintf("d=%d,q=%d,m=%d/%s", sz.d, sz.q, sz.m, v.name), func(b *testing.B) {
				s := z3.New()
				queries := 0
				for b.Loop() {
					rep, err := Certify(context.Background(), sys, s, v.opts...)
					if err != nil {
						b.Fatal(err)
					}
					if rep.Verdict() != Certified {
						b.Fatalf("verdict %v", rep.Verdict())
					}
					queries = 0
					for _, t := range rep.Transitions {
						queries += t.Queries
					}
				}
				b.ReportMetric(float64(queries), "queries/op")
			})
		}
	}
}
