package detect

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Step is one step of a system on group counters, with what it does to
// the orbit: a local transition taken by a process of a group (a
// broadcast moving the others with it), or a rendezvous taken by one
// process per part. Totals and Shared are the total counters and shared
// values after the step: the successor orbit. Steps are the reference
// semantics witnesses are checked against (Successors).
type Step struct {
	Transition int   // index in gsst.Spec.Transitions, or -1 for a rendezvous
	Rendezvous int   // index in gsst.Spec.Rendezvous, or -1
	Groups     []int // the mover's group; for a rendezvous, the group of each part's process
	Totals     []int // total counters after the step
	Shared     []int // shared values after the step
}

// Name names the step's transition or rendezvous.
func (st *Step) Name(sys *gsst.System) string {
	if st.Rendezvous >= 0 {
		return sys.RendezvousName(&sys.Rendezvous[st.Rendezvous])
	}
	return sys.TransitionName(&sys.Transitions[st.Transition])
}

// sameOrbit reports whether a and b reach the same orbit.
func (st *Step) sameOrbit(b *Step) bool {
	return slices.Equal(st.Totals, b.Totals) && slices.Equal(st.Shared, b.Shared)
}

// Successors returns every step of sys from the configuration conf
// (conf[g][s] processes of group g in state s) with shared values shared
// (and, in a family, parameter values params; nil otherwise), by direct
// evaluation: a process of group g in a local transition's source, in a
// block whose guard holds and whose update keeps every shared variable in
// its domain, moves to the target, every other process in a transfer's
// source (of the transfer's groups) moves to the transfer's target, and
// the update applies, reading the values before the step; a rendezvous
// whose guard holds and whose update stays in the domains is taken by
// one process per part, of the part's groups and in its source, distinct
// processes (every assignment of groups to parts that the counters
// allow). A local transition gives one step per group that can take it,
// a rendezvous one per assignment of groups.
func Successors(sys *gsst.System, conf [][]int, shared, params []int) []Step {
	m := len(sys.States)
	val := valuationAt(sys, conf, shared, params)
	totals := make([]int, m)
	for _, row := range conf {
		for s, k := range row {
			totals[s] += k
		}
	}
	var out []Step
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		for g := range sys.Groups {
			b := t.BlockOf(g)
			if b == nil || conf[g][t.From] < 1 || !presburger.Eval(b.Guard, val) {
				continue
			}
			next, ok := updated(sys, &b.Update, val, shared)
			if !ok {
				continue
			}
			x := slices.Clone(totals)
			x[t.From]--
			x[t.To]++
			for _, tr := range t.Broadcast {
				k := 0
				for h := range sys.Groups {
					if tr.Groups == nil || slices.Contains(tr.Groups, h) {
						k += conf[h][tr.From]
					}
				}
				if tr.From == t.From && (tr.Groups == nil || slices.Contains(tr.Groups, g)) {
					k-- // the mover is not transferred
				}
				x[tr.From] -= k
				x[tr.To] += k
			}
			out = append(out, Step{Transition: r, Rendezvous: -1, Groups: []int{g}, Totals: x, Shared: next})
		}
	}
	for k := range sys.Rendezvous {
		rv := &sys.Rendezvous[k]
		if !presburger.Eval(rv.Guard, val) {
			continue
		}
		next, ok := updated(sys, &rv.Update, val, shared)
		if !ok {
			continue
		}
		x := slices.Clone(totals)
		for _, p := range rv.Parts {
			x[p.From]--
			x[p.To]++
		}
		left := make([][]int, len(conf))
		for g := range conf {
			left[g] = slices.Clone(conf[g])
		}
		groups := make([]int, len(rv.Parts))
		var rec func(i int)
		rec = func(i int) {
			if i == len(rv.Parts) {
				out = append(out, Step{Transition: -1, Rendezvous: k, Groups: slices.Clone(groups), Totals: x, Shared: next})
				return
			}
			p := &rv.Parts[i]
			for g := range sys.Groups {
				if left[g][p.From] < 1 || p.Groups != nil && !slices.Contains(p.Groups, g) {
					continue
				}
				left[g][p.From]--
				groups[i] = g
				rec(i + 1)
				left[g][p.From]++
			}
		}
		rec(0)
	}
	return out
}

// valuationAt is sys.Valuation with the parameters of a family read from
// params.
func valuationAt(sys *gsst.System, conf [][]int, shared, params []int) func(presburger.Var) int64 {
	val := sys.Valuation(conf, shared)
	if params == nil {
		return val
	}
	return func(v presburger.Var) int64 {
		if k, ok := sys.ParamOf(v); ok {
			return int64(params[k])
		}
		return val(v)
	}
}

// updated returns the shared values after update u, read under val, and
// false when one leaves its variable's domain.
func updated(sys *gsst.System, u *gsst.Update, val func(presburger.Var) int64, shared []int) ([]int, bool) {
	out := slices.Clone(shared)
	for _, a := range u.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			return nil, false
		}
		x, fits := a.Value.Value(val)
		if !fits || !sys.Shared[j].Contains(int(x)) {
			return nil, false
		}
		out[j] = int(x)
	}
	return out, true
}

// verifyStep checks the step of an extended witness against Successors:
// w.Step is a step of Enabled, and no step of Disabled reaches its orbit.
func verifyStep(sys *gsst.System, w *Witness) error {
	st := w.Step
	if st == nil {
		return fmt.Errorf("no step")
	}
	found := false
	for _, s := range Successors(sys, w.Enabled, w.Shared, w.Params) {
		if s.Transition == st.Transition && s.Rendezvous == st.Rendezvous && slices.Equal(s.Groups, st.Groups) && s.sameOrbit(st) {
			found = true
			break
		}
	}
	if !found {
		return fmt.Errorf("%s by groups %v is not a step of the enabled configuration reaching totals %v and shared values %v", st.Name(sys), st.Groups, st.Totals, st.Shared)
	}
	for _, s := range Successors(sys, w.Disabled, w.Shared, w.Params) {
		if s.sameOrbit(st) {
			return fmt.Errorf("%s by groups %v reaches the same orbit from the disabled configuration", s.Name(sys), s.Groups)
		}
	}
	return nil
}

// verifyValues checks the shared values and the parameters of an
// extended witness: one value per shared variable, in its domain; in a
// family, one value per parameter, nonnegative, fixed ones at their
// value, satisfying the assumption, and sizing the groups sized over
// them as sizes says (each at least 1).
func verifyValues(sys *gsst.System, w *Witness, sizes []int) error {
	if len(w.Shared) != len(sys.Shared) {
		return fmt.Errorf("%d shared values for %d shared variables", len(w.Shared), len(sys.Shared))
	}
	for j, k := range w.Shared {
		if v := &sys.Shared[j]; !v.Contains(k) {
			return fmt.Errorf("value %d of %s outside its domain %s", k, v.Name, v.TypeText())
		}
	}
	if !sys.Parametric() || len(sys.Params) == 0 {
		if w.Params != nil {
			return fmt.Errorf("parameter values for a system without free parameters")
		}
		return nil
	}
	if len(w.Params) != len(sys.Params) {
		return fmt.Errorf("%d parameter values for %d parameters", len(w.Params), len(sys.Params))
	}
	val := func(v presburger.Var) int64 {
		if k, ok := sys.ParamOf(v); ok {
			return int64(w.Params[k])
		}
		return 0
	}
	for k, p := range sys.Params {
		if w.Params[k] < 0 || p.Fixed && w.Params[k] != p.Value {
			return fmt.Errorf("parameter %s has the value %d", p.Name, w.Params[k])
		}
	}
	if f := sys.Assume.Formula; f != nil && !presburger.Eval(f, val) {
		return fmt.Errorf("the parameters do not satisfy the assumption %s", sys.Assume.Text)
	}
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if !grp.OverParams() {
			continue
		}
		if k, fits := grp.SizeTerm.Value(val); !fits || k < 1 || k != int64(sizes[g]) {
			return fmt.Errorf("group %s has %d processes; its size %s is %s at these parameters", grp.Name, sizes[g], grp.SizeTermText, grp.SizeTerm.BigValue(val))
		}
	}
	return nil
}
