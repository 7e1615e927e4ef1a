package counterabs

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamStepsAgainstProcesses builds the parametric models of random
// families with shared variables, parameters, updates, broadcasts and
// rendezvous (testsupport.RandomSystem with Family or Ranges):
// BuildParam, the total-counter model when certification passes for
// every size, and BuildParamGroup always. At every instance of a box
// (parameters in 0..2, ranged sizes in 1..2), every configuration and
// every shared valuation, each transition of each model is compared with
// the process-level oracle (testsupport.ProcSteps), as
// TestRandomStepsAgainstProcesses does for the fixed models: at the
// group level its guard and step; at the total level its guard (its
// locals read off the configurations with the state's totals) against
// the existential abstraction and its step (StepTerms) against the
// oracle's, and, the system being certified, every configuration with
// the state's totals and shared values reaching exactly the model's
// successors.
func TestParamStepsAgainstProcesses(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 30
	}
	r := rand.New(rand.NewSource(2026_05_26))
	ctx := context.Background()
	z := z3.New()
	levels := map[Level]int{}
	var instances, compared, bcast, rdv, dropped, reached int
	for i := range systems {
		cfg := testsupport.Small(0, testsupport.AllConstructs)
		cfg.Family, cfg.Ranges, cfg.MaxProcesses = i%2 == 0, i%2 == 1, 3
		if cfg.Ranges {
			cfg.May &^= testsupport.Params // a family over sizes alone
		}
		sys := testsupport.RandomSystem(r, cfg)
		where := fmt.Sprintf("system %d", i)
		auto, err := BuildParam(ctx, sys, z)
		if err != nil {
			t.Fatalf("%s: %v\n%s", where, err, testsupport.Describe(sys))
		}
		if want := auto.Cert != nil && auto.Cert.Certified() && GroupReason(sys, false) == ""; (auto.Level == TotalLevel) != want {
			t.Fatalf("%s: the %s-counter model (%s)", where, auto.Level, auto.Reason)
		}
		levels[auto.Level]++
		group, err := BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		// With RunSteps, compared at the reachable configurations only.
		run, err := BuildParamGroup(sys, RunSteps())
		if err != nil {
			t.Fatal(err)
		}
		dropped += len(group.Transitions) - len(run.Transitions)
		runs := []*ParamModel{run}
		models := []*ParamModel{group}
		if auto.Level == TotalLevel {
			models = append(models, auto)
			runTotal, err := BuildParam(ctx, sys, z, RunSteps())
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, runTotal)
			dropped += len(auto.Transitions) - len(runTotal.Transitions)
			if slices.ContainsFunc(sys.Steps(), func(s gsst.Step) bool { return len(s.Transfers) > 0 }) {
				bcast++
			}
			if len(sys.Rendezvous) > 0 {
				rdv++
			}
		}
		for _, in := range testsupport.Instances(sys, 2, 2) {
			inst, err := sys.InstantiateParams(in.Params, in.Sizes)
			if err != nil {
				t.Fatalf("%s at %v: %v", where, in, err)
			}
			instances++
			o := newStepOracle(inst)
			for _, m := range models {
				compared += o.checkParam(t, fmt.Sprintf("%s at %v, %s level", where, in, m.Level), m, in.Params, nil)
			}
			for _, m := range runs {
				reached += o.checkParam(t, fmt.Sprintf("%s at %v, %s level, RunSteps", where, in, m.Level), m, in.Params, o.reachable())
			}
		}
	}
	t.Logf("%d families (%d total-level: %d with broadcast, %d with rendezvous; %d group-level), %d instances, %d model states compared; with RunSteps, %d transitions left out, %d reachable states compared",
		systems, levels[TotalLevel], bcast, rdv, levels[GroupLevel], instances, compared, dropped, reached)
	if levels[TotalLevel] < systems/4 || levels[GroupLevel] < systems/10 || bcast == 0 || rdv == 0 || dropped == 0 || reached < systems {
		t.Errorf("the random sample exercises too little")
	}
}

// checkParam compares the parametric model m with the oracle of its
// instance (parameter values params) and returns the number of model
// states compared: every configuration and shared valuation, or those
// in only (keys of reachable) when it is not nil.
func (o *stepOracle) checkParam(t *testing.T, where string, m *ParamModel, params []int, only map[string]bool) int {
	t.Helper()
	inst := o.sys
	n := 0
	constant := func(v []int) bool {
		// The model reads a shared variable no step assigns as its
		// initial value: the other values are no states of it.
		for j := range inst.Shared {
			if !slices.Contains(m.sharedIndex, j) && v[j] != inst.Shared[j].Init {
				return false
			}
		}
		return true
	}
	for _, list := range o.confs {
		for _, v := range o.shared {
			if !constant(v) {
				continue
			}
			// The model's state at configuration y, the locals of a
			// total-level guard read off y.
			valuation := func(y [][]int) func(presburger.Var) int64 {
				x := map[presburger.Var]int64{m.NVar(): int64(inst.N())}
				for c, ctr := range m.Counters {
					for g := range inst.Groups {
						if ctr.Group < 0 || ctr.Group == g {
							x[presburger.Var(c)] += int64(y[g][ctr.State])
						}
					}
				}
				for g := range inst.Groups {
					x[m.SizeVar(g)] = int64(inst.Groups[g].Size)
				}
				for j := range m.Shared {
					x[m.SharedVar(j)] = int64(v[m.SharedIndex(j)])
				}
				for k, p := range params {
					x[m.ParamVar(k)] = int64(p)
				}
				return func(u presburger.Var) int64 {
					if u >= m.LocalVar(0) && int(u) < m.NumVars() {
						c := m.locals[u-m.LocalVar(0)]
						return int64(y[c.Group][c.State])
					}
					return x[u]
				}
			}
			// The configurations compared at once: those with one
			// vector of totals at the total level, one at a time at the
			// group level.
			classes := [][][][]int{list}
			if m.Level == GroupLevel {
				classes = nil
				for _, y := range list {
					classes = append(classes, [][][]int{y})
				}
			}
			for _, same := range classes {
				if only != nil && !only[fmt.Sprint(same[0], v)] {
					continue
				}
				n++
				for k := range m.Transitions {
					tr := &m.Transitions[k]
					got := slices.ContainsFunc(same, func(y [][]int) bool { return presburger.Eval(tr.Guard, valuation(y)) })
					if len(tr.Locals) > 0 && len(tr.Locals) <= 6 {
						// With its locals free over a box, the guard
						// must say the same: it makes them a
						// configuration with these totals itself.
						sizes := make([]int, len(inst.Groups))
						for g := range sizes {
							sizes[g] = inst.Groups[g].Size
						}
						if free := guardHoldsFree(m, tr, sizes, valuation(same[0])); free != got {
							t.Fatalf("%s: %s at %v %v: the guard holds=%v with locals read off configurations, %v with free locals\n%s",
								where, m.TransitionName(tr), same[0], v, got, free, m.FormatFormula(tr.Guard))
						}
					}
					some, every := false, true
					for _, y := range same {
						fires := false
						for _, ps := range o.steps(y, v) {
							if !o.takesSteps(tr.Steps, tr.Groups, &ps) {
								continue
							}
							// The model's step from y against the oracle's.
							val := valuation(y)
							want := o.counts(ps.Next)
							next := m.StepTerms(tr)
							ok := true
							for c, ctr := range m.Counters {
								k := 0
								for g := range inst.Groups {
									if ctr.Group < 0 || ctr.Group == g {
										k += want[g][ctr.State]
									}
								}
								ok = ok && next[c].Eval(val) == int64(k)
							}
							for j := range m.Shared {
								ok = ok && next[len(m.Counters)+j].Eval(val) == int64(ps.Next.Shared[m.SharedIndex(j)])
							}
							if m.Level == GroupLevel && !ok {
								continue // another assignment of groups
							}
							if !ok {
								t.Fatalf("%s: %s from %v: its step differs from the oracle's to %v", where, m.TransitionName(tr), y, ps.Next)
							}
							fires = true
						}
						some, every = some || fires, every && fires
					}
					if got != some || m.Level == GroupLevel && some != every {
						t.Fatalf("%s: %s: guard %s holds=%v at %v %v; some configuration with these counters can take it: %v, every one: %v\n%s", where,
							m.TransitionName(tr), m.FormatFormula(tr.Guard), got, same[0], v, some, every, testsupport.Describe(inst))
					}
				}
				if m.Level == TotalLevel {
					// Exact: every configuration with these totals and
					// shared values reaches exactly the model's
					// successors (two transitions with one effect may
					// stand in for each other).
					succ := map[string]bool{}
					val := valuation(same[0])
					for k := range m.Transitions {
						tr := &m.Transitions[k]
						if slices.ContainsFunc(same, func(y [][]int) bool { return presburger.Eval(tr.Guard, valuation(y)) }) {
							var next []int64
							for _, term := range m.StepTerms(tr) {
								next = append(next, term.Eval(val))
							}
							succ[fmt.Sprint(next)] = true
						}
					}
					for _, y := range same {
						orbits := map[string]bool{}
						for _, ps := range o.steps(y, v) {
							var next []int64
							for _, k := range testsupport.Totals(o.counts(ps.Next)) {
								next = append(next, int64(k))
							}
							for j := range m.Shared {
								next = append(next, int64(ps.Next.Shared[m.SharedIndex(j)]))
							}
							orbits[fmt.Sprint(next)] = true
						}
						if !maps.Equal(orbits, succ) {
							t.Fatalf("%s: at %v %v the model's successors are %v, the configuration's %v\n%s", where, y, v,
								slices.Sorted(maps.Keys(succ)), slices.Sorted(maps.Keys(orbits)), testsupport.Describe(inst))
						}
					}
				}
			}
		}
	}
	return n
}
