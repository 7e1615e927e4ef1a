package prove_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
	"github.com/vsym/vsym/specs"
)

// TestInvariantReadsBack: the invariant prove prints for a spec with
// boolean and enumeration shared variables is in the language. Each of
// its top-level conjuncts, given to the spec as the guard of a new
// transition, parses, and their conjunction has the meaning of the
// invariant the prover found (over the model's integers) on every
// configuration of small instances: all group counters with the group
// sizes, all values of the shared variables.
func TestInvariantReadsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the prover")
	}
	s := z3.New()
	for _, name := range []string{"peterson", "lock-mutex"} {
		t.Run(name, func(t *testing.T) {
			src, err := specs.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			sys := load(t, name+".yaml", src)
			rep, err := prove.Check(context.Background(), sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			proved := 0
			for k, r := range rep.Results {
				if r.Verdict != prove.Proved || r.InvariantText == "" {
					continue // a reachability property is proved by its run
				}
				proved++
				m := modelAt(t, sys.WithProperties(k), r.Level, s)
				parsed := readBack(t, sys, src, r.InvariantText)
				checkSameMeaning(t, sys, m, r.Invariant, parsed, r.InvariantText)
			}
			if proved == 0 {
				t.Fatal("no property proved")
			}
		})
	}
}

// readBack parses each top-level conjunct of text as the guard of a new
// transition N -> C of the spec src and returns their conjunction over
// the variables of the parsed spec (numbered as sys's). A group size
// |g|, which the language does not write, is read as the sum of the
// group's counters, which it is in every configuration.
func readBack(t *testing.T, sys *gsst.System, src []byte, text string) presburger.Formula {
	t.Helper()
	for _, grp := range sys.Groups {
		var sum []string
		for _, st := range sys.States {
			sum = append(sum, "#"+st+"["+grp.Name+"]")
		}
		text = strings.ReplaceAll(text, "|"+grp.Name+"|", "("+strings.Join(sum, " + ")+")")
	}
	var out []presburger.Formula
	for _, c := range conjuncts(text) {
		spec := strings.Replace(string(src), "\nproperties:", fmt.Sprintf("\n  - {from: N, to: C, guard: %q}\nproperties:", c), 1)
		again, err := gsst.Parse("again.yaml", []byte(spec))
		if err != nil {
			t.Fatalf("the conjunct %q of the invariant does not read back: %v", c, err)
		}
		tr := &again.Transitions[len(again.Transitions)-1]
		if again.TransitionName(tr) != "N -> C" || len(tr.Blocks) != 1 {
			t.Fatalf("the new transition is %s with %d blocks", again.TransitionName(tr), len(tr.Blocks))
		}
		if again.NumVars() != sys.NumVars() || again.SharedVar(0) != sys.SharedVar(0) {
			t.Fatal("the spec with the new transition numbers its variables differently")
		}
		out = append(out, tr.Blocks[0].Guard)
	}
	return presburger.Conj(out...)
}

// conjuncts splits text at the & outside parentheses.
func conjuncts(text string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '(':
			depth++
		case text[i] == ')':
			depth--
		case depth == 0 && strings.HasPrefix(text[i:], " & "):
			out = append(out, text[start:i])
			start = i + 3
		}
	}
	return append(out, text[start:])
}

// modelAt builds the parametric model of sys at level, the model prove
// answered on, so that an invariant is evaluated over the variables it
// is written in.
func modelAt(t *testing.T, sys *gsst.System, level counterabs.Level, solver presburger.Solver) *counterabs.ParamModel {
	t.Helper()
	var m *counterabs.ParamModel
	var err error
	if level == counterabs.TotalLevel {
		m, err = counterabs.BuildParamTotal(context.Background(), sys, solver)
	} else {
		m, err = counterabs.BuildParamGroup(sys)
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != level {
		t.Fatalf("built the %s model, want the %s one", m.Level, level)
	}
	return m
}

// checkSameMeaning evaluates inv (over the variables of m) and parsed
// (over those of sys) on every configuration of the instances with each
// ranged group of 1 or 2 processes, and wants both true and false met.
func checkSameMeaning(t *testing.T, sys *gsst.System, m *counterabs.ParamModel, inv, parsed presburger.Formula, text string) {
	t.Helper()
	S := len(sys.States)
	var sizes [][]int
	var sizeRec func(sz []int)
	sizeRec = func(sz []int) {
		g := len(sz)
		if g == len(sys.Groups) {
			sizes = append(sizes, sz)
			return
		}
		lo, hi := sys.Groups[g].Size, sys.Groups[g].Size
		if sys.Groups[g].Ranged {
			lo, hi = 1, 2
		}
		for k := lo; k <= hi; k++ {
			sizeRec(append(slices.Clone(sz), k))
		}
	}
	sizeRec(nil)
	for _, v := range presburger.FreeVars(inv) {
		if v >= m.LocalVar(0) {
			t.Fatalf("the invariant reads %s, which is no variable of a configuration", m.VarName(v))
		}
	}
	seen := map[bool]int{}
	for _, sz := range sizes {
		// every group counter vector with the sizes sz
		var ys [][][]int
		var split func(g int, y [][]int)
		split = func(g int, y [][]int) {
			if g == len(sz) {
				ys = append(ys, y)
				return
			}
			var fill func(row []int, left int)
			fill = func(row []int, left int) {
				if len(row) == S-1 {
					split(g+1, append(slices.Clone(y), append(slices.Clone(row), left)))
					return
				}
				for k := range left + 1 {
					fill(append(slices.Clone(row), k), left-k)
				}
			}
			fill(nil, sz[g])
		}
		split(0, nil)
		var shareds [][]int
		var vals func(sh []int)
		vals = func(sh []int) {
			j := len(sh)
			if j == len(sys.Shared) {
				shareds = append(shareds, sh)
				return
			}
			v := &sys.Shared[j]
			if v.Unbounded {
				t.Fatalf("%s is unbounded", v.Name)
			}
			for k := v.Lo; k <= v.Hi; k++ {
				vals(append(slices.Clone(sh), k))
			}
		}
		vals(nil)
		for _, y := range ys {
			for _, sh := range shareds {
				want := presburger.Eval(inv, modelValuation(m, testsupport.Instance{Sizes: sz}, extState{y: y, shared: sh}))
				got := presburger.Eval(parsed, sys.Valuation(y, sh))
				if got != want {
					t.Fatalf("at %v %v the invariant is %v, but what prove prints, %s, read back is %v", y, sh, want, text, got)
				}
				seen[want]++
			}
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("the invariant %s is %v on every configuration checked", text, seen[true] > 0)
	}
}
