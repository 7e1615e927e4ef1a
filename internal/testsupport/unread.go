package testsupport

import (
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// WithUnreadShared returns the spec in file, and the same spec with one
// more shared variable, spare (a boolean, initially false), that no
// guard, update or property reads: what issue 25 says changes nothing
// but its declaration. The spec must have a top-level "init:" line.
func WithUnreadShared(t testing.TB, file string) (plain, with *gsst.System) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	plain, err = gsst.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if !strings.Contains(text, "\ninit:") {
		t.Fatalf("%s has no top-level init line", file)
	}
	with, err = gsst.Parse(file, []byte(strings.Replace(text, "\ninit:", "\nshared:\n  spare: {type: bool, init: false}\ninit:", 1)))
	if err != nil {
		t.Fatal(err)
	}
	return plain, with
}

// OnlyAdds fails unless text b is text a with lines added, each naming
// the variable spare or starting with header (a comment line of the
// model's header), one of them decl: what an unread shared variable may
// add to an emitted model.
func OnlyAdds(t testing.TB, what, a, b, decl, header string) {
	t.Helper()
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for _, l := range bl {
		if i < len(al) && l == al[i] {
			i++
			continue
		}
		if !strings.Contains(l, "spare") && !strings.HasPrefix(l, header) {
			t.Errorf("%s: line %q added by the unread variable is neither about it nor a header line", what, l)
		}
	}
	if i != len(al) {
		t.Fatalf("%s: the model without the variable is not a subsequence of the one with it; first line missing: %q\n%s", what, al[i], b)
	}
	if !strings.Contains(b, decl) {
		t.Errorf("%s: no %q in\n%s", what, decl, b)
	}
}

// Write-only variables, for the checks of gsst's SliceUnread: each kind
// is written by some steps, and the first five are read by nothing that
// matters, the others by something that does or can block a step.
const (
	writeOnlyCounter   = iota // "0..": w := w + c, c in {0, 1}; sliceable
	writeOnlyConstant         // "0..3": w := c, c in the domain; sliceable
	writeOnlyBool             // bool: w := true / false; sliceable
	writeOnlyCopy             // "0..": w := v + 1, v an earlier counter (or w's own); sliceable
	writeOnlyMirror           // "0..2": w := 2 - w; sliceable
	writeOnlyGuarded          // a counter that a guard reads (w <= 1); kept
	writeOnlyDecrement        // "0..": w := w - 1 on some steps, which blocks at 0; kept
	writeOnlyBounded          // "0..1": w := w + 1, which blocks at 1; kept
	writeOnlyFeeds            // "0..1": w := 1 - w, copied into a variable a guard reads; kept, both
	writeOnlyWatched          // a counter a property reads (AG w <= 2); kept
	writeOnlyOverflow         // "0..3": w := 2 - w and w := 3, which blocks at 3; kept
	writeOnlyJustice          // a counter a justice condition reads (w >= 0); kept
	writeOnlyFromParam        // a counter starting at a parameter, which may tie the instances to it; kept
)

// WriteOnly says which kinds AddWriteOnly draws: every kind, or only
// the sliceable ones (the first four), or only those of finite domains
// (for the explorations that must end: constants, booleans, bounded and
// feeds), or both.
type WriteOnly struct{ Sliceable, Bounded bool }

// AddWriteOnly returns sys with one to four shared variables added
// (ghost0, ghost1, ...) of the kinds above that opt allows, drawn by r,
// and the names
// of those that nothing that matters reads and that never block a step,
// which gsst's SliceUnread leaves out; nothing else of sys changes but
// the steps' updates, a guard conjoined with "w <= 1" or "k = 0" (kinds
// guarded and feeds) and a property "AG w <= 2" (kind watched) added.
// The parameters, which follow the shared variables, are renumbered.
func AddWriteOnly(r *rand.Rand, sys *gsst.System, opt WriteOnly) (*gsst.System, []string, error) {
	spec := sys.Spec()
	var choice []int
	for k := writeOnlyCounter; k <= writeOnlyFromParam; k++ {
		choice = append(choice, k)
	}
	switch {
	case opt.Sliceable && opt.Bounded:
		choice = []int{writeOnlyConstant, writeOnlyBool, writeOnlyMirror}
	case opt.Sliceable:
		choice = choice[:writeOnlyGuarded]
	case opt.Bounded:
		choice = []int{writeOnlyConstant, writeOnlyBool, writeOnlyMirror, writeOnlyBounded, writeOnlyFeeds, writeOnlyOverflow}
	}
	var kinds []int
	for range 1 + r.Intn(4) {
		kinds = append(kinds, choice[r.Intn(len(choice))])
	}
	added := len(kinds)
	for _, k := range kinds {
		if k == writeOnlyFeeds {
			added++ // and the variable it feeds
		}
	}
	old := len(spec.Shared)
	spec.RenameVars(func(v presburger.Var) presburger.Var {
		if _, ok := spec.ParamOf(v); ok {
			return v + presburger.Var(added)
		}
		return v
	})
	var updates []*gsst.Update
	var guards []*gsst.Block
	for i := range spec.Transitions {
		for j := range spec.Transitions[i].Blocks {
			b := &spec.Transitions[i].Blocks[j]
			updates, guards = append(updates, &b.Update), append(guards, b)
		}
	}
	for i := range spec.Rendezvous {
		updates = append(updates, &spec.Rendezvous[i].Update)
	}
	for i := range spec.Environment {
		// Not a step that only updates: one whose every assignment
		// is left out would change nothing, which New refuses, so
		// SliceUnread keeps what it assigns.
		if len(spec.Environment[i].Broadcast) > 0 {
			updates = append(updates, &spec.Environment[i].Update)
		}
	}
	// some returns about half of the updates, at least one.
	some := func() []*gsst.Update {
		var out []*gsst.Update
		for _, u := range updates {
			if r.Intn(2) == 0 {
				out = append(out, u)
			}
		}
		if len(out) == 0 && len(updates) > 0 {
			out = append(out, updates[r.Intn(len(updates))])
		}
		return out
	}
	// guard conjoins atom to a guard, and says whether the guard reads
	// it then (a guard false stays false).
	guard := func(atom presburger.Formula) bool {
		if len(guards) == 0 {
			return false
		}
		b := guards[r.Intn(len(guards))]
		if b.Guard == nil {
			b.Guard = presburger.True
		}
		b.Guard = presburger.Conj(b.Guard, atom)
		b.Text = spec.FormatFormula(b.Guard)
		return slices.Contains(presburger.FreeVars(b.Guard), presburger.FreeVars(atom)[0])
	}
	assign := func(u *gsst.Update, x presburger.Var, t presburger.Term) {
		u.Assign = append(u.Assign, gsst.Assign{Var: x, Value: t})
	}
	var sliceable []string
	counters := []presburger.Var{} // the counters of kind writeOnlyCounter so far
	declare := func(v gsst.Shared) presburger.Var {
		v.Name = fmt.Sprintf("ghost%d", len(spec.Shared)-old)
		spec.Shared = append(spec.Shared, v)
		return spec.SharedVar(len(spec.Shared) - 1)
	}
	counter := gsst.Shared{Lo: 0, Unbounded: true}
	for _, kind := range kinds {
		switch kind {
		case writeOnlyCounter, writeOnlyGuarded, writeOnlyWatched, writeOnlyJustice, writeOnlyFromParam:
			v := counter
			if kind == writeOnlyFromParam {
				var open []int
				for k := range spec.Params {
					if !spec.Params[k].Fixed {
						open = append(open, k)
					}
				}
				if len(open) == 0 {
					kind = writeOnlyCounter // no parameter to start from
				} else {
					// The parameters' numbers once every variable is added.
					k := open[r.Intn(len(open))]
					p := spec.NVar() + 1 + presburger.Var(old+added+k)
					v.InitTerm, v.InitText = presburger.VarTerm(p), spec.Params[k].Name
				}
			}
			x := declare(v)
			for _, u := range some() {
				assign(u, x, presburger.VarTerm(x).Add(presburger.ConstTerm(int64(r.Intn(2)))))
			}
			switch kind {
			case writeOnlyCounter:
				counters = append(counters, x)
				sliceable = append(sliceable, spec.VarName(x))
			case writeOnlyFromParam: // kept: its initial value reads a parameter
			case writeOnlyGuarded:
				if !guard(presburger.Compare(presburger.VarTerm(x), presburger.Le, presburger.ConstTerm(1))) {
					sliceable = append(sliceable, spec.VarName(x))
				}
			case writeOnlyJustice:
				// Read only: a condition that always holds.
				atom := presburger.Compare(presburger.VarTerm(x), presburger.Ge, presburger.ConstTerm(0))
				spec.Fairness.Justice = append(spec.Fairness.Justice, gsst.Justice{Formula: atom, Text: spec.VarName(x) + " >= 0"})
			case writeOnlyWatched:
				spec.Properties = append(spec.Properties, gsst.Property{Name: spec.VarName(x) + "_bound", Text: "AG " + spec.VarName(x) + " <= 2",
					Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(x), presburger.Le, presburger.ConstTerm(2))}}})
			}
		case writeOnlyConstant:
			x := declare(gsst.Shared{Lo: 0, Hi: 3, Init: 1})
			for _, u := range some() {
				assign(u, x, presburger.ConstTerm(int64(r.Intn(4))))
			}
			sliceable = append(sliceable, spec.VarName(x))
		case writeOnlyBool:
			x := declare(gsst.Shared{Bool: true, Lo: 0, Hi: 1})
			for _, u := range some() {
				assign(u, x, presburger.ConstTerm(int64(r.Intn(2))))
			}
			sliceable = append(sliceable, spec.VarName(x))
		case writeOnlyCopy:
			x := declare(counter)
			from := x
			if len(counters) > 0 {
				from = counters[r.Intn(len(counters))]
			}
			for _, u := range some() {
				assign(u, x, presburger.VarTerm(from).Add(presburger.ConstTerm(1)))
			}
			sliceable = append(sliceable, spec.VarName(x))
		case writeOnlyMirror, writeOnlyOverflow:
			hi := 2
			if kind == writeOnlyOverflow {
				hi = 3
			}
			x := declare(gsst.Shared{Lo: 0, Hi: hi})
			mirror := presburger.ConstTerm(2).Add(presburger.VarTerm(x).Scale(-1))
			for k, u := range some() {
				if kind == writeOnlyOverflow && k == 1 {
					assign(u, x, presburger.ConstTerm(3))
					continue
				}
				assign(u, x, mirror)
			}
			if kind == writeOnlyMirror || len(updates) == 0 {
				sliceable = append(sliceable, spec.VarName(x))
			}
		case writeOnlyDecrement:
			x := declare(gsst.Shared{Lo: 0, Unbounded: true, Init: 1})
			for k, u := range some() {
				c := int64(2*r.Intn(2) - 1)
				if k == 0 {
					c = -1 // one decrement at least
				}
				assign(u, x, presburger.VarTerm(x).Add(presburger.ConstTerm(c)))
			}
			if len(updates) == 0 {
				sliceable = append(sliceable, spec.VarName(x)) // nothing to block
			}
		case writeOnlyBounded:
			x := declare(gsst.Shared{Lo: 0, Hi: 1})
			for _, u := range some() {
				assign(u, x, presburger.VarTerm(x).Add(presburger.ConstTerm(1)))
			}
			if len(updates) == 0 {
				sliceable = append(sliceable, spec.VarName(x)) // nothing to block
			}
		case writeOnlyFeeds:
			x := declare(gsst.Shared{Lo: 0, Hi: 1})
			k := declare(gsst.Shared{Lo: 0, Hi: 1})
			for _, u := range some() {
				assign(u, x, presburger.ConstTerm(1).Add(presburger.VarTerm(x).Scale(-1)))
			}
			for _, u := range some() {
				assign(u, k, presburger.VarTerm(x))
			}
			if !guard(presburger.Compare(presburger.VarTerm(k), presburger.Eq, presburger.ConstTerm(0))) {
				sliceable = append(sliceable, spec.VarName(x), spec.VarName(k))
			}
		}
	}
	for _, u := range updates {
		u.Text = spec.FormatUpdate(u)
	}
	out, err := gsst.New(spec)
	return out, sliceable, err
}
