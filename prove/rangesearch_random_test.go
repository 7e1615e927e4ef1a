package prove_test

import (
	"context"
	"fmt"
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

// TestSearchRangeInitRandom cross-checks the small-instance search
// (search.go), which takes the initial value of a shared variable that
// starts in a range as a choice, one value at a time (searchInstances),
// on Petri nets written as counter systems (randomHub) whose places
// start, at random, in ranges ("1..", c..c+1: rangeInitShared), at the
// group level (no locals: the search applies to every system), seed 15,
// against exploration by the language's semantics (exploreFrom, which
// shares no code with the search):
//
//   - the choices of sizes and initial values that the search always
//     reaches (reachedChoices, from the spec's fields: the least sums
//     of the choices, few enough that each may take its whole budget)
//     are among the first instances it lists; where it finds no run,
//     exploration from each of them (initialConfigs) reaches no bad
//     state;
//   - a run found replays on the model (presburger.Replay) and starts in
//     an initial configuration of its instance, read from the spec's
//     fields; when its values stay within extValueCap, exploration from
//     that configuration reaches a bad state too; the state equation,
//     whose initial values range over the places' ranges, admits a bad
//     state at its instance (prove.EquationAdmits).
//
// Measured (seed 15, 300 systems, 15 CPU-s): 282 with a place in a
// range, 232 runs (229 within extValueCap, checked; 232 admitted), 50
// with no run; under -short (40 systems, about 1.5 CPU-s) 38, 33 (33;
// 33) and 5. Under -short, a search that tries each place's least value
// only is caught by the listing, one that starts from the least value
// whatever it chose by the exploration, an equation that starts from
// the least value by its admissions.
func TestSearchRangeInitRandom(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems = 40
	}
	r := rand.New(rand.NewSource(15))
	s := z3.New()
	ctx := context.Background()
	var ranged, noRun, runs, runsChecked, admitted int
	for i := range systems {
		sys := rangeInitShared(t, r, randomHub(t, r))
		if sys.SingleInitial() {
			continue // no place starts in a range
		}
		ranged++
		m, ts := groupSafety(t, sys)
		sysPhi, _ := counterabs.SafetyFormula(sys.Properties[0].Formula)
		fails := func(in testsupport.Instance, inits []extState) bool {
			return slices.ContainsFunc(exploreFrom(sys, in, inits), func(st extState) bool {
				return !presburger.Eval(sysPhi, st.valuation(sys, in))
			})
		}
		cex := prove.SearchSmall(ctx, s, m, ts)
		// The choices the search reaches whatever it finds, from the
		// spec's fields: each is among the first instances it lists,
		// and when it finds no run, exploration from them reaches no
		// bad state.
		listed := map[string]bool{}
		for _, p := range prove.SearchInstances(m, ts, prove.SearchReached) {
			listed[fmt.Sprint(instanceOf(m, p), startValues(m, p))] = true
		}
		for _, c := range reachedChoices(sys, m) {
			if !listed[fmt.Sprint(c.in, c.values)] {
				t.Fatalf("system %d: the search does not list %v %v among its first %d instances\n%s", i, c.in, c.values, prove.SearchReached, testsupport.Describe(sys))
			}
			if cex != nil {
				continue
			}
			var inits []extState
			for _, st := range initialConfigs(sys, c.in) {
				if startsWith(m, st, c.values) {
					inits = append(inits, st)
				}
			}
			if fails(c.in, inits) {
				t.Errorf("system %d: exploration reaches a bad state at %v from %v, where the search finds no run\n%s", i, c.in, c.values, testsupport.Describe(sys))
				break
			}
		}
		if cex == nil {
			noRun++
			continue
		}
		runs++
		if err := presburger.Replay(ctx, s, ts, *cex); err != nil {
			t.Fatalf("system %d: the run does not replay: %v\n%s", i, err, testsupport.Describe(sys))
		}
		in := instanceOf(m, cex.Params)
		start, ok := initialOf(sys, m, in, cex.States[0])
		if !ok {
			t.Fatalf("system %d: the run starts in %v, no initial configuration at %v\n%s", i, cex.States[0], in, testsupport.Describe(sys))
		}
		// The state equation over-approximates the reachable states
		// from every initial value of the ranges: it admits the bad
		// state of a run at the run's instance.
		if admits, ok := prove.EquationAdmits(ctx, s, m, ts, in.Params, in.Sizes); ok {
			admitted++
			if !admits {
				t.Errorf("system %d: a run at %v from %v, where the state equation admits no bad state\n%s", i, in, start, testsupport.Describe(sys))
			}
		}
		inCap := true
		for _, st := range cex.States {
			for j := range m.Shared {
				inCap = inCap && st[m.SharedVar(j)] <= extValueCap
			}
		}
		if inCap {
			runsChecked++
			if !fails(in, []extState{start}) {
				t.Errorf("system %d: a run from %v at %v, where exploration reaches no bad state\n%s", i, start, in, testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems, %d with a place in a range: %d runs found, %d of them within the values explored and checked, %d admitted by the state equation; %d with no run, where exploration of the instances the search reaches finds none",
		systems, ranged, runs, runsChecked, admitted, noRun)
	if ranged < systems/2 || noRun == 0 || runsChecked < ranged/2 || admitted < runs/2 {
		t.Errorf("the sample exercises too little")
	}
}

// instanceOf returns the instance of the search's choices p: its sizes
// and parameter values.
func instanceOf(m *counterabs.ParamModel, p presburger.Model) testsupport.Instance {
	var in testsupport.Instance
	for g := range m.System.Groups {
		in.Sizes = append(in.Sizes, int(p[m.SizeVar(g)]))
	}
	for k := range m.System.Params {
		in.Params = append(in.Params, int(p[m.ParamVar(k)]))
	}
	return in
}

// startValues returns the initial values that p chooses, one for each
// of m's shared variables (-1 where p chooses none).
func startValues(m *counterabs.ParamModel, p presburger.Model) []int {
	out := make([]int, len(m.Shared))
	for j := range m.Shared {
		out[j] = -1
		if k, chosen := p[m.SharedVar(j)]; chosen {
			out[j] = int(k)
		}
	}
	return out
}

// startsWith reports whether the configuration st gives each of m's
// shared variables its value in values (any, where it is -1).
func startsWith(m *counterabs.ParamModel, st extState, values []int) bool {
	for j, k := range values {
		if k >= 0 && st.shared[m.SharedIndex(j)] != k {
			return false
		}
	}
	return true
}

// choice is an instance of the search with its initial values (as
// startValues).
type choice struct {
	in     testsupport.Instance
	values []int
}

// reachedChoices returns the choices of a hub (no parameters, groups
// of a size or a range of sizes) that the search reaches whatever it
// finds, from the spec's fields: each group's sizes and each ranged
// variable's initial values from the least up to prove.SearchMax (its
// greatest, if less) make the choices; they come in order of the sum
// of the sizes and values, and each of the prove.SearchReached first
// may take its whole budget, so those whose sum is at most the
// greatest s with at most prove.SearchReached choices of sum s or less
// are reached.
func reachedChoices(sys *gsst.System, m *counterabs.ParamModel) []choice {
	var options [][]int
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		hi := grp.Size
		if grp.Ranged {
			hi = prove.SearchMax
			if grp.Max != gsst.Unbounded {
				hi = min(hi, grp.Max)
			}
		}
		var sizes []int
		for k := grp.Size; k <= hi; k++ {
			sizes = append(sizes, k)
		}
		options = append(options, sizes)
	}
	for j := range m.Shared {
		v := &sys.Shared[m.SharedIndex(j)]
		if !v.InitSeveral() {
			options = append(options, []int{-1})
			continue
		}
		hi := max(v.Init, prove.SearchMax)
		if !v.InitNoHi {
			hi = min(hi, v.InitHi)
		}
		var values []int
		for k := v.Init; k <= hi; k++ {
			values = append(values, k)
		}
		options = append(options, values)
	}
	var all []choice
	var sums []int
	pick := make([]int, len(options))
	var walk func(k int)
	walk = func(k int) {
		if k < len(options) {
			for _, x := range options[k] {
				pick[k] = x
				walk(k + 1)
			}
			return
		}
		c := choice{in: testsupport.Instance{Sizes: slices.Clone(pick[:len(sys.Groups)])}, values: slices.Clone(pick[len(sys.Groups):])}
		sum := 0
		for _, x := range pick {
			sum += max(x, 0)
		}
		all = append(all, c)
		sums = append(sums, sum)
	}
	walk(0)
	sorted := slices.Sorted(slices.Values(sums))
	bound := -1
	for k := range sorted {
		if k < prove.SearchReached && (k+1 == len(sorted) || sorted[k+1] > sorted[k]) {
			bound = sorted[k]
		}
	}
	var out []choice
	for k, c := range all {
		if sums[k] <= bound {
			out = append(out, c)
		}
	}
	return out
}

// initialOf returns the initial configuration of sys at in whose values
// on m's state variables are x, read from the spec's fields: each group
// in its initial state (the hubs do not spread), each shared variable
// at its initial value or, for a range, at a value from Init up to
// InitHi (any, with InitNoHi); ok is false when there is none.
func initialOf(sys *gsst.System, m *counterabs.ParamModel, in testsupport.Instance, x presburger.Model) (extState, bool) {
	var st extState
	for g := range sys.Groups {
		first, _ := sys.InitState(g)
		row := make([]int, len(sys.States))
		row[first] = in.Sizes[g]
		st.y = append(st.y, row)
	}
	st.shared = make([]int, len(sys.Shared))
	for j := range sys.Shared {
		st.shared[j] = sys.Shared[j].Init
	}
	for j := range m.Shared {
		v := &sys.Shared[m.SharedIndex(j)]
		k := int(x[m.SharedVar(j)])
		if !v.InitRange && k != v.Init || v.InitRange && (k < v.Init || !v.InitNoHi && k > v.InitHi) {
			return extState{}, false
		}
		st.shared[m.SharedIndex(j)] = k
	}
	val := modelValuation(m, in, st)
	for i := range m.NumState() {
		if val(m.StateVar(i)) != x[m.StateVar(i)] {
			return extState{}, false
		}
	}
	return st, true
}
