package testsupport

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestYAML: gsst.Parse reads what YAML writes of random systems of
// every kind (names that collide with the emitters' languages, ranges,
// families, every construct, properties and fairness) as the same
// system: the same states, groups, initial configuration, variables and
// fairness, and guards, updates, assumptions and properties that agree
// at random valuations (the parser normalizes negations, so the texts
// may differ).
func TestYAML(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	family := Small(0, AllConstructs)
	family.Family, family.Ranges = true, true
	configs := []Config{
		{Names: NuSMVNames, Properties: 3, GroupProperties: 2, Fairness: Fairness{Max: 3}},
		{Names: PromelaNames, Properties: 3, Shape: Exportable},
		{Ranges: true, NGuards: true, Properties: 2, GroupProperties: 2},
		{Guards: PriorityGuards, Fairness: Fairness{Min: 1, Max: 2, Total: true}},
		{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, Want: SharedVars | Broadcasts | Rendezvous, May: Params, Properties: 2, GroupProperties: 1},
		family,
	}
	pr := rand.New(rand.NewSource(5))
	for i := range 600 {
		sys := RandomSystem(r, configs[i%len(configs)])
		src := YAML(sys)
		back, err := gsst.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		if err := sameSystem(sys, back, valuations(pr, sys, 64)); err != nil {
			t.Fatalf("system %d reads back otherwise: %v\n%s\n--- read back:\n%s\n--- from:\n%s", i, err, Describe(sys), Describe(back), src)
		}
	}
}

// valuations draws k valuations of the variables of sys: a shared
// variable's value in its domain (up to 4 above its least value), a
// total counter the sum of its group counters (the parser writes
// "#S[g1] + ... + #S[gk]" over every group as #S), any other variable's
// in -1..4.
func valuations(r *rand.Rand, sys *gsst.System, k int) []func(presburger.Var) int64 {
	var out []func(presburger.Var) int64
	for range k {
		vals := map[presburger.Var]int64{}
		var val func(v presburger.Var) int64
		val = func(v presburger.Var) int64 {
			if x, ok := vals[v]; ok {
				return x
			}
			x := int64(r.Intn(6) - 1)
			if s, g, ok := sys.Counter(v); ok && g < 0 {
				x = 0
				for h := range sys.Groups {
					x += val(sys.GroupVar(s, h))
				}
			}
			if j, ok := sys.SharedOf(v); ok {
				d := &sys.Shared[j]
				hi := d.Hi
				if d.Unbounded {
					hi = d.Lo + 4
				}
				x = int64(d.Lo + r.Intn(hi-d.Lo+1))
			}
			vals[v] = x
			return x
		}
		out = append(out, val)
	}
	return out
}

// sameSystem says how back differs from sys, or nil.
func sameSystem(sys, back *gsst.System, points []func(presburger.Var) int64) error {
	same := func(a, b presburger.Formula) bool {
		for _, val := range points {
			if presburger.Eval(a, val) != presburger.Eval(b, val) {
				return false
			}
		}
		return true
	}
	sameUpdate := func(a, b gsst.Update) bool {
		if len(a.Assign) != len(b.Assign) {
			return false
		}
		for k := range a.Assign {
			if a.Assign[k].Var != b.Assign[k].Var || !same(presburger.Compare(a.Assign[k].Value, presburger.Eq, b.Assign[k].Value), presburger.True) {
				return false
			}
		}
		return true
	}
	switch {
	case !slices.Equal(sys.States, back.States) || fmt.Sprint(sys.Init) != fmt.Sprint(back.Init):
		return fmt.Errorf("states or init")
	case len(sys.Groups) != len(back.Groups) || len(sys.Shared) != len(back.Shared) || len(sys.Params) != len(back.Params):
		return fmt.Errorf("groups, shared variables or parameters")
	case len(sys.Transitions) != len(back.Transitions) || len(sys.Rendezvous) != len(back.Rendezvous) || len(sys.Properties) != len(back.Properties):
		return fmt.Errorf("transitions, rendezvous or properties")
	case (sys.Assume.Formula == nil) != (back.Assume.Formula == nil) || sys.Assume.Formula != nil && !same(sys.Assume.Formula, back.Assume.Formula):
		return fmt.Errorf("assumption")
	case len(sys.Fairness.Weak) != len(back.Fairness.Weak) || len(sys.Fairness.Justice) != len(back.Fairness.Justice):
		return fmt.Errorf("fairness")
	}
	for k, w := range sys.Fairness.Weak {
		if v := back.Fairness.Weak[k]; w.Transition != v.Transition || w.Group != v.Group {
			return fmt.Errorf("weak fairness %d", k)
		}
	}
	for g := range sys.Groups {
		a, b := &sys.Groups[g], &back.Groups[g]
		if a.Name != b.Name || a.SizeText() != b.SizeText() || a.OverParams() != b.OverParams() ||
			a.OverParams() && !same(presburger.Compare(a.SizeTerm, presburger.Eq, b.SizeTerm), presburger.True) {
			return fmt.Errorf("group %s", a.Name)
		}
	}
	for j := range sys.Shared {
		a, b := &sys.Shared[j], &back.Shared[j]
		if a.Name != b.Name || a.TypeText() != b.TypeText() || a.Init != b.Init {
			return fmt.Errorf("shared variable %s", a.Name)
		}
	}
	for k := range sys.Params {
		if sys.Params[k].Name != back.Params[k].Name {
			return fmt.Errorf("parameter %s", sys.Params[k].Name)
		}
	}
	for j := range sys.Fairness.Justice {
		if !same(sys.Fairness.Justice[j].Formula, back.Fairness.Justice[j].Formula) {
			return fmt.Errorf("justice condition %d", j)
		}
	}
	for i := range sys.Transitions {
		a, b := &sys.Transitions[i], &back.Transitions[i]
		if a.From != b.From || a.To != b.To || len(a.Broadcast) != len(b.Broadcast) {
			return fmt.Errorf("transition %d", i)
		}
		for k, x := range a.Broadcast {
			if y := b.Broadcast[k]; x.From != y.From || x.To != y.To || !slices.Equal(x.Groups, y.Groups) {
				return fmt.Errorf("transition %d, transfer %d", i, k)
			}
		}
		for g := range sys.Groups {
			x, y := a.BlockOf(g), b.BlockOf(g)
			switch {
			case x == nil && y == nil:
			case x == nil:
				if !same(y.Guard, presburger.False) {
					return fmt.Errorf("transition %d: group %d may take it", i, g)
				}
			case y == nil || !same(x.Guard, y.Guard) || !sameUpdate(x.Update, y.Update):
				return fmt.Errorf("transition %d, group %d: guard or update", i, g)
			}
		}
	}
	for i := range sys.Rendezvous {
		a, b := &sys.Rendezvous[i], &back.Rendezvous[i]
		if len(a.Parts) != len(b.Parts) || !same(a.Guard, b.Guard) || !sameUpdate(a.Update, b.Update) {
			return fmt.Errorf("rendezvous %d", i)
		}
		for k, x := range a.Parts {
			if y := b.Parts[k]; x.From != y.From || x.To != y.To || !slices.Equal(x.Groups, y.Groups) {
				return fmt.Errorf("rendezvous %d, part %d", i, k)
			}
		}
	}
	for i := range sys.Properties {
		a, b := &sys.Properties[i], &back.Properties[i]
		if a.Name != b.Name || !sameCTL(a.Formula, b.Formula, points) {
			return fmt.Errorf("property %s", a.Name)
		}
	}
	return nil
}

// sameCTL reports whether f and g have the same temporal structure and
// state subformulas that agree at the points.
func sameCTL(f, g ctl.Formula, points []func(presburger.Var) int64) bool {
	if stateOnly(f) && stateOnly(g) {
		for _, val := range points {
			if HoldsNow(f, val) != HoldsNow(g, val) {
				return false
			}
		}
		return true
	}
	switch f := f.(type) {
	case ctl.Not:
		g, ok := g.(ctl.Not)
		return ok && sameCTL(f.X, g.X, points)
	case ctl.Binary:
		g, ok := g.(ctl.Binary)
		return ok && f.Op == g.Op && sameCTL(f.L, g.L, points) && sameCTL(f.R, g.R, points)
	case ctl.Unary:
		g, ok := g.(ctl.Unary)
		return ok && f.Op == g.Op && sameCTL(f.X, g.X, points)
	case ctl.Until:
		g, ok := g.(ctl.Until)
		return ok && f.All == g.All && sameCTL(f.L, g.L, points) && sameCTL(f.R, g.R, points)
	}
	return false
}

// stateOnly reports whether f has no temporal operator.
func stateOnly(f ctl.Formula) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return true
	case ctl.Not:
		return stateOnly(f.X)
	case ctl.Binary:
		return stateOnly(f.L) && stateOnly(f.R)
	}
	return false
}
