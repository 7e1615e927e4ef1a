package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// stableSystem draws a system whose properties say AG (p -> AG q) in
// one of its spellings, p and q drawn as the conditions of the safety
// properties of a random system; p is stable now and then (a state no
// step enters, a counter no step lowers), and prove decides the
// property only then (stable.go).
func stableSystem(t *testing.T, r *rand.Rand) *gsst.System {
	cfg := testsupport.Config{MaxTransitions: 3, NGuards: true, MaxConfigs: 4000, Ranges: r.Intn(2) == 0, BoxMax: boxMax,
		May:        testsupport.SharedVars | testsupport.SelfLoops | testsupport.Broadcasts,
		Properties: 6, GroupProperties: 2, Shape: testsupport.Safety}
	spec := testsupport.RandomSystem(r, cfg).Spec()
	var conds []ctl.Formula
	for _, p := range spec.Properties {
		switch f := p.Formula.(type) {
		case ctl.Unary: // AG phi
			conds = append(conds, f.X)
		case ctl.Not: // !EF !phi
			conds = append(conds, ctl.Not{X: f.X.(ctl.Unary).X})
		}
	}
	props := spec.Properties[:3]
	for k := range props {
		p, q := conds[2*k], conds[2*k+1]
		not := func(f ctl.Formula) ctl.Formula { return ctl.Not{X: f} }
		ef := func(f ctl.Formula) ctl.Formula { return ctl.Unary{Op: ctl.EF, X: f} }
		and := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.And, L: l, R: r} }
		ag := func(f ctl.Formula) ctl.Formula { return ctl.Unary{Op: ctl.AG, X: f} }
		var f ctl.Formula
		switch r.Intn(4) {
		case 0:
			f = ag(ctl.Binary{Op: ctl.Implies, L: p, R: ag(q)})
		case 1:
			f = ag(ctl.Binary{Op: ctl.Implies, L: p, R: not(ef(not(q)))})
		case 2:
			f = ag(not(and(p, ef(not(q)))))
		default:
			f = not(ef(and(p, ef(not(q)))))
		}
		props[k].Formula, props[k].Text = f, ctl.Format(f, spec.VarName)
	}
	spec.Properties = props
	sys, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// checkByOracle checks res, a proof or a refutation of p, a property of
// sys, against the oracle, which evaluates the formula as written: on
// every instance of the box for a proof, at the run's sizes for a
// refutation.
func checkByOracle(t *testing.T, id string, sys *gsst.System, p *gsst.Property, res prove.Result) {
	t.Helper()
	sizes := testsupport.Box(sys, boxMax)
	if res.Verdict == prove.Refuted {
		sizes = [][]int{res.Sizes}
	}
	for _, at := range sizes {
		inst, err := sys.Instantiate(at)
		if err != nil {
			t.Fatalf("%s at %v: %v", id, at, err)
		}
		g, ok := procOracleWithin(inst, oracleStates)
		if !ok {
			continue
		}
		if holds := g.Holds(p.Formula); holds != (res.Verdict == prove.Proved) {
			t.Errorf("%s: %s (%s) %v, but the oracle says %v at %s\n%s", id, p.Name, p.Text, res.Verdict, holds, sys.FormatSizes(at), testsupport.Describe(sys))
		}
	}
}

// TestProveStablePremiseRandom checks the properties AG (p -> AG q)
// that prove decides (those whose p is stable) against the oracle on
// every instance of the box, which evaluates the formula as written.
// Both verdicts must occur.
func TestProveStablePremiseRandom(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 40
	}
	r := rand.New(rand.NewSource(17))
	s := z3.New()
	counts := map[prove.Verdict]int{}
	for i := range systems {
		sys := stableSystem(t, r)
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			if res.Verdict != prove.Proved && res.Verdict != prove.Refuted {
				continue
			}
			checkByOracle(t, fmt.Sprintf("system %d", i), sys, p, res)
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	if counts[prove.Proved] == 0 || counts[prove.Refuted] == 0 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
}
