package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveOneInstanceRandom: on random families of one instance (no
// parameter, every group of a fixed size; every construct of the
// language), each safety verdict agrees with the instance's reachable
// configurations as the semantics gives them (explore, in
// constructs_random_test.go, which shares no code with prove's own
// exploration), and, where those are few, every property is answered
// by a cheap proof (among them the invariant of another property that
// implies it), by backward coverability (which comes first on a
// monotone system) or by prove's exploration of the instance: a
// refutation by its run, a proof by the reachable states as the
// invariant. A reachable-state invariant that failed its re-check would
// fall through to the lemmas or the prover, which this catches.
func TestProveOneInstanceRandom(t *testing.T) {
	// As many under -short: backward coverability answers most of the
	// monotone ones first, reading upper bounds lossily, and leaves
	// exploration 3 proofs in the 150 systems (none in the first 90).
	const systems = 150
	r := rand.New(rand.NewSource(5))
	s := z3.New()
	ctx := context.Background()
	methods := map[string]int{}
	checked := 0 // the properties whose method is checked against the exploration
	cheap := []prove.Method{prove.ByRelaxed, prove.ByInduction, prove.ByStateEquation, prove.ByCoverability, prove.ByExploration, prove.ByOthers}
	for i := range systems {
		cfg := testsupport.Small(0, testsupport.AllConstructs&^testsupport.Params)
		cfg.Properties, cfg.GroupProperties, cfg.Shape = 3, 1, testsupport.Safety
		sys := testsupport.RandomSystem(r, cfg)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		insts := testsupport.Instances(sys, extParamMax, extSizeMax)
		if len(insts) != 1 {
			t.Fatalf("system %d: %d instances, want a family of one\n%s", i, len(insts), testsupport.Describe(sys))
		}
		reached := explore(sys, insts[0])
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			phi, ok := counterabs.SafetyFormula(p.Formula)
			if !ok {
				continue
			}
			bad := slices.ContainsFunc(reached, func(st extState) bool { return !presburger.Eval(phi, st.valuation(sys, insts[0])) })
			switch {
			case res.Verdict == prove.Proved && bad:
				t.Errorf("system %d: %s (%s) proved by %s, but a reachable configuration violates it\n%s", i, p.Name, p.Text, res.Method, testsupport.Describe(sys))
			case res.Verdict == prove.Refuted && !bad:
				t.Errorf("system %d: %s (%s) refuted by %s, but no reachable configuration violates it\n%s", i, p.Name, p.Text, res.Method, testsupport.Describe(sys))
			case res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
				t.Errorf("system %d: %s (%s) %v: %s", i, p.Name, p.Text, res.Verdict, res.Reason)
			}
			methods[res.Verdict.String()+" by "+string(res.Method)]++
			// Guards with locals (the total-counter model of a certified
			// system whose guards read group counters) are beyond the
			// exploration; the group-counter model has none.
			explorable := res.Level == counterabs.GroupLevel
			if !explorable {
				m, err := counterabs.BuildParam(ctx, sys.WithProperties(k), s)
				if err != nil {
					t.Fatalf("system %d: %v", i, err)
				}
				explorable = !slices.ContainsFunc(m.Transitions, func(tr counterabs.ParamTransition) bool { return len(tr.Locals) > 0 })
			}
			if !explorable || len(reached) > 500 || capCut(sys, insts[0], reached) {
				continue
			}
			checked++
			if !slices.Contains(cheap, res.Method) {
				t.Errorf("system %d: %s (%s) %v by %s, where the exploration of its %d configurations answers\n%s",
					i, p.Name, p.Text, res.Verdict, res.Method, len(reached), testsupport.Describe(sys))
			}
		}
	}
	t.Logf("answered by: %v; the method checked of %d properties, on instances explored whole", methods, checked)
	if checked == 0 {
		t.Errorf("no property of an instance explored whole: the cheap methods are not checked")
	}
	for _, m := range []string{"proved by exploration", "refuted by exploration"} {
		if methods[m] == 0 {
			t.Errorf("no property %s: %v", m, methods)
		}
	}
}

// capCut says whether a step's update, from a configuration in reached,
// writes a shared variable a value its type allows beyond extValueCap,
// where explore stops: the instance may then have more configurations
// than explore found, even infinitely many (a step "v := v + 2" of an
// unbounded v), which prove's exploration, bounded by no cap, does not
// answer. The guard is not read, so a step never enabled there counts
// too.
func capCut(sys *gsst.System, in testsupport.Instance, reached []extState) bool {
	steps := sys.Steps()
	for _, st := range reached {
		val := st.valuation(sys, in)
		for _, step := range steps {
			for _, a := range step.Update.Assign {
				j, _ := sys.SharedOf(a.Var)
				if k := a.Value.Eval(val); k > extValueCap && sys.Shared[j].Contains(int(k)) {
					return true
				}
			}
		}
	}
	return false
}
