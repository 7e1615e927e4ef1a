package prove

import (
	"context"
	"os"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func TestZZDebug(t *testing.T) {
	file, name := os.Getenv("LIVEFILE"), os.Getenv("LIVEPROP")
	if file == "" {
		t.Skip()
	}
	sys, err := gsst.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := z3.New()
	for _, p := range m.Properties {
		if p.Name != name {
			continue
		}
		start, trig, q, _ := counterabs.LivenessFormula(p.Formula)
		lq, _ := newLive(m, start, trig, q)
		lemmas, _ := houdini(ctx, s, lq.ts, lq.candidates())
		lemmas = prune(ctx, s, lq.ts, lemmas)
		for _, l := range lemmas {
			t.Logf("lemma %s", l.Text)
		}
		inv := lemmaConj(lemmas)
		cert, err := lq.synthesize(ctx, s, inv)
		if err != nil || cert == nil {
			t.Fatalf("cert %v %v", cert, err)
		}
		for _, r := range cert.Ranks {
			t.Logf("rank %s", r.format(lq))
		}
		t.Logf("helpful %v justice %v", cert.Helpful, cert.Justice)
		for _, c := range lq.conditions(cert) {
			a, _ := s.Solve(ctx, presburger.Problem{Bounds: lq.ts.Domain, F: presburger.Conj(paramPart(lq.ts), inv, lq.isPending(), c.Bad)})
			if a.Result != presburger.Unsat {
				t.Logf("FAILS %s: %s", c.What, lq.formatModel(a.Model))
			}
		}
	}
}
