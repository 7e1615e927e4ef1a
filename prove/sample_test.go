package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestReachSampleRandom cross-checks the states that Houdini's filter
// reads before its queries (sample.go) on random systems with shared
// variables, parameters, broadcasts and rendezvous:
//
//   - every state sampled at an instance that the independent
//     exploration of constructs_random_test.go covers (with values up
//     to its cap) is one it reaches there (a sampled state that no run reaches would let the
//     filter drop an invariant);
//   - the filter keeps the same candidates with the sample as without
//     it, on the monotone candidates and on pairs of variables bounded
//     by their initial values, most of which fail.
//
// A sampler that follows a step its guard forbids fails the first
// check (TestReachSampleCatchesWrongStep).
func TestReachSampleRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 8 // 1.0 CPU-seconds
	}
	if bad := reachSampleMismatch(systems, true); bad != "" {
		t.Fatal(bad)
	}
}

// TestReachSampleCatchesWrongStep runs the checks of
// TestReachSampleRandom on a sampler that follows steps their guards
// forbid: some sampled state is then one no run reaches, or the filter
// keeps other candidates, and the checks must say so.
func TestReachSampleCatchesWrongStep(t *testing.T) {
	defer prove.IgnoreGuardsInSample()()
	if reachSampleMismatch(8, false) == "" {
		t.Fatal("a sampler that ignores the guards went unnoticed")
	}
}

// reachSampleMismatch runs the checks of TestReachSampleRandom on the
// given number of random systems and returns the first failure, or "";
// filter says whether to compare the filter's results too (the most
// expensive part).
func reachSampleMismatch(systems int, filter bool) string {
	r := rand.New(rand.NewSource(53))
	s := z3.New()
	ctx := context.Background()
	checked, sampled := 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			return err.Error()
		}
		ts := m.TransitionSystem().Question(presburger.False)
		key := func(val func(presburger.Var) int64) string {
			var b strings.Builder
			for _, vs := range [][]presburger.Var{ts.Vars, ts.Params} {
				for _, v := range vs {
					fmt.Fprintf(&b, "%d,", val(v))
				}
			}
			return b.String()
		}
		reached := map[string]bool{}
		covered := map[string]bool{} // the parameters of the instances explored
		for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for k, st := range explore(sys, inst) {
				val := modelValuation(m, inst, st)
				reached[key(val)] = true
				if k == 0 {
					covered[paramKey(ts, val)] = true
				}
			}
		}
		sample := prove.SampleReachable(ctx, m, ts)
		sampled += len(sample)
		for _, val := range sample {
			// The exploration covers these instances, and the values
			// of the shared variables up to extValueCap.
			if !covered[paramKey(ts, val)] || slices.ContainsFunc(ts.Vars, func(v presburger.Var) bool { return val(v) > extValueCap }) {
				continue
			}
			checked++
			if !reached[key(val)] {
				return fmt.Sprintf("system %d: the sampled state %s is not reached\n%s", i, key(val), testsupport.Describe(sys))
			}
		}
		if !filter {
			continue
		}
		cands := boundedPairs(m)
		mono, _ := prove.MonotoneCandidates(m)
		cands = append(cands, mono...)
		plain, err := prove.Houdini(ctx, s, ts, cands)
		if err != nil {
			return err.Error()
		}
		with, err := prove.HoudiniSampled(ctx, s, m, ts, cands)
		if err != nil {
			return err.Error()
		}
		format := func(fs []presburger.Formula) []string {
			var out []string
			for _, f := range fs {
				out = append(out, m.FormatFormula(f))
			}
			return out
		}
		if !slices.Equal(format(plain), format(with)) {
			return fmt.Sprintf("system %d: the filter keeps %v, and with the sample %v\n%s", i, format(plain), format(with), testsupport.Describe(sys))
		}
	}
	if checked == 0 {
		return fmt.Sprintf("none of the %d sampled states checked against the exploration", sampled)
	}
	return ""
}

// boundedPairs returns the candidates x_a + x_b <= x0_a + x0_b and
// x_a - x_b <= x0_a - x0_b for each pair of m's state variables, x0
// their initial values: most fail.
func boundedPairs(m *counterabs.ParamModel) []presburger.Formula {
	var cands []presburger.Formula
	for a := range m.NumState() {
		for b := a + 1; b < m.NumState(); b++ {
			x0a, _ := m.InitialValue(a)
			x0b, _ := m.InitialValue(b)
			for _, sb := range []int64{1, -1} {
				w := presburger.VarTerm(m.StateVar(a)).Add(presburger.VarTerm(m.StateVar(b)).Scale(sb))
				cands = append(cands, presburger.Compare(w, presburger.Le, x0a.Add(x0b.Scale(sb))))
			}
		}
	}
	return cands
}

// paramKey writes the values of the parameters of ts (sizes, n, the
// system's parameters) under val.
func paramKey(ts presburger.TransitionSystem, val func(presburger.Var) int64) string {
	var b strings.Builder
	for _, v := range ts.Params {
		fmt.Fprintf(&b, "%d,", val(v))
	}
	return b.String()
}

// TestReachSampleWalksRandom runs the checks of TestReachSampleRandom
// with the breadth-first walk stopped after 3 states at each instance,
// so that most states sampled come from the random walks: each must be
// one the exploration reaches, and the filter must keep the same
// candidates with them as without.
func TestReachSampleWalksRandom(t *testing.T) {
	defer prove.ShallowSample(3)()
	systems := 40
	if testing.Short() {
		systems = 8
	}
	if bad := reachSampleMismatch(systems, true); bad != "" {
		t.Fatal(bad)
	}
}

// TestReachSampleWalksCatchWrongStep: walks that follow steps their
// guards forbid are caught by the same checks.
func TestReachSampleWalksCatchWrongStep(t *testing.T) {
	defer prove.ShallowSample(3)()
	defer prove.IgnoreGuardsInSample()()
	if reachSampleMismatch(8, false) == "" {
		t.Fatal("walks that ignore the guards went unnoticed")
	}
}

// TestReachSampleDeep: at a fixed size whose breadth-first walk stops
// a few steps deep (12 processes along A -> B -> C -> D -> E: 1,820
// states, 500 taken breadth first, all within a dozen steps), the
// random walks reach the states where every process has arrived, as
// the candidates that fail only there need; and every state sampled
// satisfies the invariant that E is entered only once A is empty,
// which the guard of D -> E keeps.
func TestReachSampleDeep(t *testing.T) {
	sys := load(t, "chain", []byte(`name: chain
states: [A, B, C, D, E]
groups: {proc: 12}
init: A
transitions:
- {from: A, to: B}
- {from: B, to: C}
- {from: C, to: D}
- {from: D, to: E, guard: '#A = 0'}
properties: {p: 'AG (#E = 0 | #A = 0)'}
`))
	m, ts := groupSystem(t, sys)
	a, e := m.StateVar(0), m.StateVar(4)
	deepest := int64(0)
	for _, val := range prove.SampleReachable(context.Background(), m, ts) {
		if val(e) > 0 && val(a) > 0 {
			t.Fatalf("sampled a state with #A = %d and #E = %d, which no run reaches", val(a), val(e))
		}
		deepest = max(deepest, val(e))
	}
	if deepest < 12 {
		t.Fatalf("no state sampled has every process in E (at most %d)", deepest)
	}
}

// groupSystem returns the group-counter model of sys and its
// transition system, without bad states.
func groupSystem(t *testing.T, sys *gsst.System) (*counterabs.ParamModel, presburger.TransitionSystem) {
	t.Helper()
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return m, m.TransitionSystem().Question(presburger.False)
}

// selectCandidates returns the group-counter model of sys, its
// transition system (no bad states) and the candidates of the tests
// of the incremental questions: the bounded pairs and the monotone
// candidates.
func selectCandidates(t *testing.T, sys *gsst.System) (*counterabs.ParamModel, presburger.TransitionSystem, []presburger.Formula) {
	t.Helper()
	m, ts := groupSystem(t, sys)
	cands := boundedPairs(m)
	mono, _ := prove.MonotoneCandidates(m)
	return m, ts, append(cands, mono...)
}

// TestHoudiniSelectRandom compares Houdini's filter asking its batched
// rounds through one incremental question (presburger.Selector, Z3's
// assumptions) with the filter asking each round anew, on the
// candidates of TestReachSampleRandom: the same candidates must be
// kept.
func TestHoudiniSelectRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 10
	}
	r := rand.New(rand.NewSource(71))
	s := z3.New()
	ctx := context.Background()
	kept := 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, ts, cands := selectCandidates(t, sys)
		with, err := prove.Houdini(ctx, s, ts, cands)
		if err != nil {
			t.Fatal(err)
		}
		restore := prove.HoudiniAsksAnew()
		anew, err := prove.Houdini(ctx, s, ts, cands)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		format := func(fs []presburger.Formula) []string {
			var out []string
			for _, f := range fs {
				out = append(out, m.FormatFormula(f))
			}
			return out
		}
		if !slices.Equal(format(with), format(anew)) {
			t.Fatalf("system %d: the filter keeps %v through a Selector, and %v asking anew\n%s", i, format(with), format(anew), testsupport.Describe(sys))
		}
		kept += len(with)
	}
	if kept == 0 {
		t.Fatal("the filter kept no candidate on any system")
	}
}
