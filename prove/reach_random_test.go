package prove_test

import (
	"context"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// reachSystem draws a system whose properties are reachability
// properties, EF c or !AG phi: the safety properties of a random system
// (AG phi, !EF !phi) turned into their negations. Half the systems are
// of fixed sizes (one instance), half families.
func reachSystem(t *testing.T, r *rand.Rand) *gsst.System {
	cfg := testsupport.Config{MaxTransitions: 4, NGuards: true, MaxConfigs: 4000, Ranges: r.Intn(2) == 0, BoxMax: boxMax,
		May:        testsupport.SharedVars | testsupport.SelfLoops | testsupport.Broadcasts | testsupport.InitialSets,
		Properties: 3, GroupProperties: 1, Shape: testsupport.Safety}
	spec := testsupport.RandomSystem(r, cfg).Spec()
	for k := range spec.Properties {
		p := &spec.Properties[k]
		var c ctl.Formula
		switch f := p.Formula.(type) {
		case ctl.Unary: // AG phi
			c = ctl.Not{X: f.X}
		case ctl.Not: // !EF !phi
			c = f.X.(ctl.Unary).X
		}
		p.Formula = ctl.Unary{Op: ctl.EF, X: c}
		if r.Intn(3) == 0 {
			p.Formula = ctl.Not{X: ctl.Unary{Op: ctl.AG, X: ctl.Not{X: c}}}
		}
		p.Text = ctl.Format(p.Formula, spec.VarName)
	}
	sys, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestProveReachRandom checks prove's verdicts on reachability
// properties (reach.go) against the oracle, which explores each
// instance of the box process by process: a property proved holds at
// the family's one instance, one refuted at every size fails at every
// instance of the box. Unknown is allowed (a condition reached at some
// instance of a family), but both verdicts must occur.
func TestProveReachRandom(t *testing.T) {
	systems := 50
	if testing.Short() {
		systems = 20
	}
	r := rand.New(rand.NewSource(11))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	for i := range systems {
		sys := reachSystem(t, r)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			if res.Verdict != prove.Proved && res.Verdict != prove.Refuted {
				continue
			}
			for _, sizes := range testsupport.Box(sys, boxMax) {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatalf("system %d at %v: %v", i, sizes, err)
				}
				g, ok := procOracleWithin(inst, oracleStates)
				if !ok {
					continue // an unbounded variable that grows
				}
				if holds := g.Holds(p.Formula); holds != (res.Verdict == prove.Proved) {
					t.Errorf("system %d: %s (%s) %v (%s), but it %s at %s\n%s", i, p.Name, p.Text, res.Verdict, res.Reason,
						map[bool]string{true: "holds", false: "fails"}[holds], sys.FormatSizes(sizes), testsupport.Describe(sys))
				}
			}
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	if counts[prove.Proved] == 0 || counts[prove.Refuted] == 0 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
	if counts[prove.Skipped] > 0 {
		t.Errorf("%d reachability properties skipped: %v", counts[prove.Skipped], counts)
	}
}

// TestProveReachFamily checks a reachability property of a family that
// holds at one size and fails at the next: A -> B lets one process
// move, so #A = 0 is reached by one process and not by two. The run at
// proc=1 is no proof for every size, and the property must stay
// unknown; the family of one process proves it, that of two refutes it.
func TestProveReachFamily(t *testing.T) {
	s := z3.New()
	for _, c := range []struct {
		size string
		want prove.Verdict
	}{{"1..", prove.Unknown}, {"1", prove.Proved}, {"2", prove.Refuted}} {
		sys, err := gsst.Parse("reach.yaml", []byte(`name: reach
states: [A, B]
groups: {proc: `+c.size+`}
init: A
transitions:
  - {from: A, to: B, guard: "#B = 0"}
properties:
  empty: "EF #A = 0"
`))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatal(err)
		}
		if r := rep.Results[0]; r.Verdict != c.want {
			t.Errorf("proc %s: %v (%s), want %v", c.size, r.Verdict, r.Reason, c.want)
		}
	}
}
