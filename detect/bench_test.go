package detect

import (
	"context"
	"fmt"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/specs"
)

// BenchmarkCertifyGRW certifies generalized readers/writers (section 6 of
// the paper: d groups of q processes, m local states) with Z3. The paper
// reports 17 s for d=100, q=20 with PBS, and hours with Omega.
//
//	go test ./detect -run '^$' -bench CertifyGRW -benchtime 10x
func BenchmarkCertifyGRW(b *testing.B) {
	sizes := []struct{ d, q, m int }{
		{2, 2, 4},
		{10, 10, 10},
		{100, 20, 10},
		{100, 20, 30},
		{200, 20, 10},
	}
	variants := []struct {
		name string
		opts []Option
	}{
		{"whole", nil},
		{"split2", []Option{Split(2)}},
	}
	for _, sz := range sizes {
		sys := testsupport.GRW(sz.d, sz.q, sz.m)
		for _, v := range variants {
			b.Run(fmt.Sprintf("d=%d,q=%d,m=%d/%s", sz.d, sz.q, sz.m, v.name), func(b *testing.B) {
				benchCertify(b, sys, v.opts)
			})
		}
	}
}

// BenchmarkCertifyASR certifies asymmetric sharing of resources (n
// processes, r resources, bound 2), parsed from specs.ASR.
func BenchmarkCertifyASR(b *testing.B) {
	for _, sz := range []struct{ n, r int }{{10, 2}, {100, 10}, {1000, 50}} {
		src, err := specs.ASR(sz.n, sz.r, 2)
		if err != nil {
			b.Fatal(err)
		}
		sys, err := gsst.Parse("asr.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d,r=%d", sz.n, sz.r), func(b *testing.B) { benchCertify(b, sys, nil) })
	}
}

func benchCertify(b *testing.B, sys *gsst.System, opts []Option) {
	s := z3.New()
	queries := 0
	for b.Loop() {
		rep, err := Certify(context.Background(), sys, s, opts...)
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
	b.ReportMetric(float64(len(sys.Transitions)), "transitions")
}

// BenchmarkCertifyAllSizes certifies GR&W and ASR for every group size
// (each group 1..), the query of a parametric system, next to the
// fixed-size rows above.
//
//	go test ./detect -run '^$' -bench CertifyAllSizes -benchtime 10x
func BenchmarkCertifyAllSizes(b *testing.B) {
	for _, sz := range []struct{ d, m int }{{2, 4}, {10, 10}, {100, 10}, {100, 30}, {200, 10}} {
		src, err := specs.GRWSized(sz.d, "1..", sz.m)
		if err != nil {
			b.Fatal(err)
		}
		sys, err := gsst.Parse("grw.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("grw/d=%d,m=%d", sz.d, sz.m), func(b *testing.B) { benchCertify(b, sys, nil) })
	}
	for _, r := range []int{2, 10, 50} {
		src, err := specs.ASRSized(r, "1..", 2)
		if err != nil {
			b.Fatal(err)
		}
		sys, err := gsst.Parse("asr.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("asr/r=%d", r), func(b *testing.B) { benchCertify(b, sys, nil) })
	}
}

// BenchmarkCertifyGRWShared certifies GR&W with a shared counter that
// the critical section's exit increments: the query of systems beyond
// the paper (ext.go) on the same guards as BenchmarkCertifyGRW.
//
//	go test ./detect -run '^$' -bench CertifyGRWShared -benchtime 10x
func BenchmarkCertifyGRWShared(b *testing.B) {
	for _, sz := range []struct{ d, q, m int }{{10, 10, 10}, {100, 20, 10}} {
		sp := testsupport.GRW(sz.d, sz.q, sz.m).Spec()
		sp.Shared = []gsst.Shared{{Name: "entries", Unbounded: true}}
		x := sp.SharedVar(0)
		exit := &sp.Transitions[len(sp.Transitions)-1]
		for i := range exit.Blocks {
			exit.Blocks[i].Update = gsst.Update{Assign: []gsst.Assign{{Var: x, Value: presburger.VarTerm(x).Add(presburger.ConstTerm(1))}}, Text: "entries := entries + 1"}
		}
		sys, err := gsst.New(sp)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("d=%d,q=%d,m=%d", sz.d, sz.q, sz.m), func(b *testing.B) { benchCertify(b, sys, nil) })
	}
}
