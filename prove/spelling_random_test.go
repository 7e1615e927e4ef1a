package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// Random test of the spellings of ByMC's fairness premises: a property
// and the same formula written otherwise (the premise's disjunction,
// its contrapositive, the negated conjunction either way round, AG over
// a disjunction instead of !EF over a conjunction: the shapes styles25's
// nnf and curry styles write) get one verdict, and each verdict agrees
// with testsupport's fair-CTL oracle. The systems are settleSystem's,
// with only their premised properties, c -> !X and !EF (p & X), X =
// E[a U EG (a & j)]. Before counterabs.GuardedAG and Premise read one
// normal form, AG (!p | !X) was skipped ("not of a form prove
// decides"), and so was X -> !c. Only systems whose runs settle are
// drawn: on the others prove skips these shapes, whatever the spelling.

// spellings returns f written otherwise, with the same meaning in
// CTL, for the premised shapes settleSystem draws; nil for any other
// formula.
func spellings(f ctl.Formula) []ctl.Formula {
	not := func(f ctl.Formula) ctl.Formula { return ctl.Not{X: f} }
	or := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.Or, L: l, R: r} }
	and := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.And, L: l, R: r} }
	imp := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.Implies, L: l, R: r} }
	ag := func(f ctl.Formula) ctl.Formula { return ctl.Unary{Op: ctl.AG, X: f} }
	switch f := f.(type) {
	case ctl.Binary: // c -> !X
		n, isNot := f.R.(ctl.Not)
		if f.Op != ctl.Implies || !isNot {
			return nil
		}
		c, x := f.L, n.X
		return []ctl.Formula{or(not(c), not(x)), or(not(x), not(c)), not(and(x, c)), imp(x, not(c)), imp(not(not(c)), not(x))}
	case ctl.Not: // !EF (p & X)
		ef, isEF := f.X.(ctl.Unary)
		if !isEF || ef.Op != ctl.EF {
			return nil
		}
		b, isAnd := ef.X.(ctl.Binary)
		if !isAnd || b.Op != ctl.And {
			return nil
		}
		p, x := b.L, b.R
		return []ctl.Formula{
			not(ctl.Unary{Op: ctl.EF, X: and(x, p)}),
			ag(or(not(p), not(x))), ag(or(not(x), not(p))),
			ag(not(and(x, p))), ag(imp(p, not(x))), ag(imp(x, not(p))),
			ag(imp(ctl.Atom{P: presburger.True}, imp(p, not(x)))), // nested
		}
	}
	return nil
}

func TestLiveSpellingsRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 12 // about 4 CPU-s
	}
	r := rand.New(rand.NewSource(2611))
	s := z3.New()
	ctx := context.Background()
	var decided, twins int
	for drawn := 0; drawn < systems; {
		base := settleSystem(t, r)
		m, err := counterabs.BuildParamGroup(base)
		if err != nil {
			t.Fatal(err)
		}
		if !prove.Settles(m) {
			continue // prove decides the premise shapes only on these
		}
		i := drawn
		drawn++
		spec := base.Spec()
		// Each premised property, then its spellings: twin[k] is the
		// index of the property property k spells, -1 for a base.
		var props []gsst.Property
		var twin []int
		for _, p := range spec.Properties {
			sp := spellings(p.Formula)
			if sp == nil {
				continue
			}
			at := len(props)
			props, twin = append(props, p), append(twin, -1)
			for k, f := range sp {
				props = append(props, gsst.Property{Name: fmt.Sprintf("%s-spelt%d", p.Name, k), Formula: f, Text: ctl.Format(f, spec.VarName)})
				twin = append(twin, at)
			}
		}
		spec.Properties = props
		sys, err := gsst.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		oracles := map[string]*testsupport.FairGraph{}
		oracle := func(sizes []int) *testsupport.FairGraph {
			key := fmt.Sprint(sizes)
			if _, seen := oracles[key]; !seen {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatalf("system %d at %v: %v", i, sizes, err)
				}
				g, ok := procOracleWithin(inst, oracleStates)
				if !ok {
					g = nil // too many states: this verdict goes unchecked
				}
				oracles[key] = g
			}
			return oracles[key]
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			if b := twin[k]; b >= 0 {
				twins++
				if want := rep.Results[b].Verdict; res.Verdict != want {
					t.Errorf("system %d: %s (%s) is %v (%s), but %s (%s), the same formula, is %v\n%s",
						i, p.Name, p.Text, res.Verdict, res.Reason, sys.Properties[b].Name, sys.Properties[b].Text, want, testsupport.Describe(sys))
				}
			}
			switch res.Verdict {
			case prove.Proved:
				decided++
				for _, sizes := range testsupport.Box(sys, boxMax) {
					if g := oracle(sizes); g != nil && !g.Holds(p.Formula) {
						t.Errorf("system %d: %s (%s) proved, but fails at %s\n%s", i, p.Name, p.Text, sys.FormatSizes(sizes), testsupport.Describe(sys))
						break
					}
				}
			case prove.Refuted:
				decided++
				if g := oracle(res.Sizes); g != nil && g.Holds(p.Formula) {
					t.Errorf("system %d: %s (%s) refuted at %s, where it holds\n%s", i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.Describe(sys))
				}
			}
		}
	}
	t.Logf("%d systems, %d spellings compared, %d verdicts decided", systems, twins, decided)
	if decided < systems*4 {
		t.Errorf("only %d of the properties decided: the sample exercises too little", decided)
	}
}
