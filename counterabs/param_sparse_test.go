package counterabs

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestSparseGroupModelRandom builds the group-counter model of random
// families (shared variables, parameters, ranges, broadcasts, rendezvous,
// initial sets, properties and fairness over group counters) with
// RunSteps, sparse, and without, dense, and checks the sparse one
// against the dense one read with every counter MayOccupy rules out as
// 0: its counters are exactly the pairs MayOccupy allows, in the dense
// order, and its pools their groups'; each transition both have has an
// equivalent guard and the same next values (StepTerms: 0 for a counter
// the sparse model leaves out), and each the sparse one lacks moves a
// process out of a state its group never occupies or is a step no run
// takes (MayFire); the initial set, the domain, the properties' atoms
// and the fairness are equivalent. It also checks what makes reading
// those counters as 0 sound at the start: no initial state of the dense
// model has one above 0.
func TestSparseGroupModelRandom(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems = 100
	}
	r := rand.New(rand.NewSource(2026_06_11))
	ctx := context.Background()
	z := z3.New()
	var leftOut, sparse, compared, byMovers, byFiring int
	for i := range systems {
		cfg := testsupport.Small(0, testsupport.AllConstructs|testsupport.InitialSets)
		cfg.MaxStates, cfg.MaxGroups, cfg.MaxTransitions = 5, 3, 4
		cfg.Family, cfg.Ranges, cfg.MaxProcesses = i%2 == 0, i%3 == 0, 4
		cfg.Properties, cfg.GroupProperties, cfg.Fairness = 3, 2, testsupport.Fairness{Max: 2}
		sys := testsupport.RandomSystem(r, cfg)
		where := fmt.Sprintf("system %d", i)
		dense, err := BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("%s: %v\n%s", where, err, testsupport.Describe(sys))
		}
		m, err := BuildParamGroup(sys, RunSteps())
		if err != nil {
			t.Fatalf("%s: RunSteps: %v\n%s", where, err, testsupport.Describe(sys))
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s: %s\n%s", where, fmt.Sprintf(format, args...), testsupport.Describe(sys))
		}

		// The counters: exactly MayOccupy's pairs, in the dense order.
		occ := sys.MayOccupy()
		var want []Counter
		for _, c := range dense.Counters {
			if occ[c.Group][c.State] {
				want = append(want, c)
			}
		}
		if !slices.Equal(m.Counters, want) {
			fail("the counters are %v, MayOccupy allows %v", m.Counters, want)
		}
		for g := range sys.Groups {
			for s := range sys.States {
				i, ok := m.Counter(s, g)
				if ok != occ[g][s] || ok && m.Counters[i] != (Counter{State: s, Group: g}) {
					fail("Counter(%d, %d) = %d, %v; MayOccupy says %v", s, g, i, ok, occ[g][s])
				}
			}
			var pool []int
			for i, c := range m.Counters {
				if c.Group == g {
					pool = append(pool, i)
				}
			}
			if !slices.Equal(m.Pools[g].Counters, pool) {
				fail("pool of group %d lists %v, not %v", g, m.Pools[g].Counters, pool)
			}
		}
		if m.Sparse() != (len(m.Counters) < len(dense.Counters)) || dense.Sparse() {
			fail("Sparse: %v with %d of %d counters, dense %v", m.Sparse(), len(m.Counters), len(dense.Counters), dense.Sparse())
		}
		if m.Sparse() {
			sparse++
			leftOut += len(dense.Counters) - len(m.Counters)
		}

		// The dense model's variables read on the sparse one's.
		read := func(v presburger.Var) presburger.Term {
			switch {
			case int(v) < len(dense.Counters):
				c := dense.Counters[v]
				return m.CounterTerm(c.State, c.Group)
			case int(v) < dense.NumVars():
				return presburger.VarTerm(v - presburger.Var(len(dense.Counters)) + presburger.Var(len(m.Counters)))
			}
			fail("the dense model reads variable %d", v)
			return presburger.Term{}
		}
		box := m.typeRanges()
		same := func(what string, d, s presburger.Formula) {
			t.Helper()
			d = presburger.Subst(d, read)
			differ := presburger.Disj(presburger.Conj(d, presburger.Negation(s)), presburger.Conj(s, presburger.Negation(d)))
			ans, err := z.Solve(ctx, presburger.Problem{Bounds: box, F: differ})
			if err != nil || ans.Result != presburger.Unsat {
				fail("%s: %s on the dense model, %s on the sparse one (%v %v: %v)", what, m.FormatFormula(d), m.FormatFormula(s), ans.Result, err, ans.Model)
			}
			compared++
		}

		// No initial state has a counter MayOccupy rules out above 0.
		for i, c := range dense.Counters {
			if occ[c.Group][c.State] {
				continue
			}
			above := presburger.Conj(dense.InitialStates(), presburger.Compare(presburger.VarTerm(presburger.Var(i)), presburger.Ge, presburger.ConstTerm(1)))
			ans, err := z.Solve(ctx, presburger.Problem{Bounds: dense.Ranges(), F: above})
			if err != nil || ans.Result != presburger.Unsat {
				fail("%s starts above 0 (%v %v), but MayOccupy rules it out", dense.VarName(presburger.Var(i)), ans.Result, err)
			}
		}
		same("the initial states", dense.InitialStates(), m.InitialStates())
		same("the domain", dense.Domain(), m.Domain())
		for k := range dense.Properties {
			d, s := ctl.Atoms(dense.Properties[k].Formula), ctl.Atoms(m.Properties[k].Formula)
			if len(d) != len(s) {
				fail("property %s has %d atoms on the dense model, %d on the sparse one", dense.Properties[k].Name, len(d), len(s))
			}
			for j := range d {
				same("an atom of property "+dense.Properties[k].Name, d[j], s[j])
			}
		}

		// The transitions, by step and groups.
		key := func(t *ParamTransition) string { return fmt.Sprint(t.Steps, t.Groups) }
		at := map[string]int{}
		for k := range m.Transitions {
			at[key(&m.Transitions[k])] = k
		}
		fires := sys.MayFire()
		matched := map[string]bool{}
		for k := range dense.Transitions {
			td := &dense.Transitions[k]
			j, ok := at[key(td)]
			if !ok {
				// Left out: a mover leaves a state its group never
				// occupies, or no run takes the step.
				switch {
				case slices.ContainsFunc(td.Moves(), func(mv Move) bool {
					c := dense.Counters[mv.From]
					return !occ[c.Group][c.State]
				}):
					byMovers++
				case !fires[td.Steps[0]]:
					byFiring++
				default:
					fail("%s, a step some run may take, is left out", dense.TransitionName(td))
				}
				continue
			}
			matched[key(td)] = true
			ts := &m.Transitions[j]
			name := m.TransitionName(ts)
			same("the guard of "+name, td.Guard, ts.Guard)
			next, sparseNext := dense.StepTerms(td), m.StepTerms(ts)
			for i, x := range next {
				x = x.Subst(read)
				want := presburger.Term{}
				if i < len(dense.Counters) {
					c := dense.Counters[i]
					if j, ok := m.Counter(c.State, c.Group); ok {
						want = sparseNext[j]
					}
				} else {
					want = sparseNext[len(m.Counters)+i-len(dense.Counters)]
				}
				if d := x.Sub(want); !d.IsConst() || d.Const != 0 {
					fail("%s: %s is %s after the step on the dense model, %s on the sparse one", name, dense.VarName(dense.StateVar(i)), x.Format(m.VarName), want.Format(m.VarName))
				}
			}
		}
		for k := range at {
			if !matched[k] {
				fail("the sparse model has the transition %s, which the dense one lacks", k)
			}
		}

		// The fairness: the same justice, and each weak constraint's
		// transitions those of the dense one that the sparse one has.
		df, err := dense.Fairness()
		if err != nil {
			fail("fairness: %v", err)
		}
		sf, err := m.Fairness()
		if err != nil {
			fail("fairness with RunSteps: %v", err)
		}
		for k := range df.Justice {
			same("a justice condition", df.Justice[k], sf.Justice[k])
		}
		for k := range df.Weak {
			var want, got []string
			for _, i := range df.Weak[k] {
				if k := key(&dense.Transitions[i]); matched[k] {
					want = append(want, k)
				}
			}
			for _, i := range sf.Weak[k] {
				got = append(got, key(&m.Transitions[i]))
			}
			if !slices.Equal(got, want) {
				fail("weak fairness %d: transitions %v, not %v", k, got, want)
			}
		}
	}
	t.Logf("%d systems, %d with a sparse model (%d counters left out); %d formulas compared; transitions left out: %d by their movers, %d by MayFire",
		systems, sparse, leftOut, compared, byMovers, byFiring)
	if sparse < systems/4 || byMovers == 0 || byFiring == 0 {
		t.Errorf("the random sample exercises too little")
	}
}
