package detect

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Witness shows that a transition or rendezvous breaks full virtual
// symmetry: two configurations with equal total counters (and the same
// shared values), where a step of it taken in Enabled reaches an orbit
// (total counters and shared values) that no step of any kind taken in
// Disabled reaches. Configurations are indexed [group][state]. Sizes are
// the group sizes of the instance they belong to: the system's own for a
// fixed-size system, sizes within the ranges (those of a smallest
// instance with a witness) for a parametric one.
type Witness struct {
	Sizes    []int
	Enabled  [][]int
	Disabled [][]int
	// Group is a group whose process can take the transition in
	// Enabled; for a rendezvous, the group of its first part's process;
	// -1 for an environment step, which no process takes.
	Group int
	// Shared are the shared values of both configurations (nil without
	// shared variables; a variable the query does not read is at its
	// initial value), Params, in a family, the parameter values of the
	// instance (nil otherwise).
	Shared []int
	Params []int
	// Step is the step taken in Enabled and the configuration it
	// reaches, whose orbit no step of Disabled reaches. It is nil for a
	// witness of the paper's Theorem 6 (a transition whose steps move one
	// process and change nothing else, and whose effect no other step
	// can have): then the point is enabledness, Group can take the
	// transition in Enabled and no process can take it in Disabled.
	Step *gsst.Successor
}

// successors returns the steps of w.Enabled and those of w.Disabled
// (gsst's Successors), with the witness's shared values and parameters.
func (w *Witness) successors(sys *gsst.System) (from, other []gsst.Successor, err error) {
	if from, err = sys.Successors(gsst.Config{Counts: w.Enabled, Shared: w.Shared, Params: w.Params}); err != nil {
		return nil, nil, err
	}
	other, err = sys.Successors(gsst.Config{Counts: w.Disabled, Shared: w.Shared, Params: w.Params})
	return from, other, err
}

// witness expands a model of the query f into a Witness: group states
// take the model's counters; each group's remaining processes fill the
// total states (in increasing order) up to their totals, then the first
// free state. A shared variable f does not read takes its initial value.
// The step is the first (least groups, then first step) step of the item
// from the enabled configuration whose orbit no step of the disabled one
// reaches; none when the model is no witness (VerifyWitness then fails).
// A variable missing from the model reads as 0; the result is re-verified
// anyway.
func (q *query) witness(m presburger.Model, f presburger.Formula) *Witness {
	sys := q.sys
	d := len(sys.Groups)
	val := func(v presburger.Var) int64 { return m[v] }
	w := &Witness{Sizes: make([]int, d), Group: -1}
	n := 0
	for g := range d {
		w.Sizes[g] = valueOr(q.size[g], val, gsst.MaxProcesses+1)
		n += min(max(w.Sizes[g], 0), gsst.MaxProcesses+1) // no overflow on huge sizes
	}
	if q.param && len(sys.Params) > 0 {
		w.Params = make([]int, len(sys.Params))
		for k, p := range sys.Params {
			w.Params[k] = p.Value
			if !p.Fixed {
				w.Params[k] = int(m[q.paramVar(k)])
			}
		}
	}
	if n > gsst.MaxProcesses {
		// Beyond what direct evaluation handles: Certify says so rather
		// than expand it.
		return w
	}
	if len(sys.Shared) > 0 {
		read := map[presburger.Var]bool{}
		for _, v := range presburger.FreeVars(f) {
			read[v] = true
		}
		w.Shared = sys.InitShared()
		for j := range sys.Shared {
			if read[q.sharedVar(j)] {
				w.Shared[j] = int(m[q.sharedVar(j)])
			}
		}
	}
	conf := func(side int) [][]int {
		return fill(d, len(sys.States), n, w.Sizes, q.groupS, q.totalS, q.freeS,
			func(c, g int) int {
				if q.pinned {
					return w.Sizes[g] // the counter is the size
				}
				return int(m[q.groupVar(side, c, g)])
			},
			func(s int) int { return int(m[q.totalVar(q.tvar[s])]) })
	}
	w.Disabled, w.Enabled = conf(0), conf(1)
	if st := escape(sys, q.item, w); st != nil {
		if len(st.Groups) > 0 { // an environment step has no mover
			w.Group = st.Groups[0]
		}
		if !q.paperForm() {
			w.Step = st
		}
	}
	return w
}

// escape returns the step of item from w.Enabled whose orbit no step of
// w.Disabled reaches, with the least groups (then the first step); nil
// when there is none. A configuration of the wrong shape has none.
func escape(sys *gsst.System, item int, w *Witness) *gsst.Successor {
	if !shaped(sys, w.Enabled) || !shaped(sys, w.Disabled) {
		return nil
	}
	from, other, err := w.successors(sys)
	if err != nil {
		return nil
	}
	steps := sys.Steps()
	var best *gsst.Successor
	for i := range from {
		st := &from[i]
		if itemOf(sys, &steps[st.Step]) != item || best != nil && slices.Compare(st.Groups, best.Groups) >= 0 {
			continue
		}
		if !slices.ContainsFunc(other, func(o gsst.Successor) bool { return sameOrbit(sys, &o.Next, &st.Next) }) {
			best = st
		}
	}
	return best
}

// shaped reports whether conf has a row per group and a column per state.
func shaped(sys *gsst.System, conf [][]int) bool {
	if len(conf) != len(sys.Groups) {
		return false
	}
	for _, row := range conf {
		if len(row) != len(sys.States) {
			return false
		}
	}
	return true
}

// sameOrbit reports whether two configurations share an orbit: equal
// total counters and shared values.
func sameOrbit(sys *gsst.System, a, b *gsst.Config) bool {
	return slices.Equal(a.Totals(len(sys.States)), b.Totals(len(sys.States))) && slices.Equal(a.Shared, b.Shared)
}

// fill expands a model of a query into a configuration of n processes
// (group sizes sizes, d groups, ns states): group states (groupS, the
// c-th one) take their counters group(c, g); each group's remaining
// processes fill the total states (in increasing order) up to their
// totals total(s), then the rest of n goes to the first free state.
func fill(d, ns, n int, sizes, groupS, totalS, freeS []int, group func(c, g int) int, total func(s int) int) [][]int {
	out := make([][]int, d)
	left := make([]int, d)
	for g := range out {
		out[g] = make([]int, ns)
		left[g] = sizes[g]
		for c, s := range groupS {
			out[g][s] = group(c, g)
			left[g] -= out[g][s]
		}
	}
	// Column demands: each total state's total, then the rest of n in
	// the first free state.
	type demand struct{ state, k int }
	var ds []demand
	rest := n
	for _, s := range groupS {
		rest -= total(s)
	}
	for _, s := range totalS {
		k := total(s)
		ds = append(ds, demand{s, k})
		rest -= k
	}
	if len(freeS) > 0 {
		ds = append(ds, demand{freeS[0], rest})
	}
	g := 0
	for _, dm := range ds {
		for dm.k > 0 && g < d {
			x := min(dm.k, left[g])
			out[g][dm.state] += x
			left[g] -= x
			dm.k -= x
			if left[g] <= 0 {
				g++
			}
		}
	}
	return out
}

// VerifyWitness checks w against sys by direct evaluation on gsst's
// steps (Successors, Choices): the sizes are allowed by the groups'
// ranges (the groups' own sizes when fixed); in a family, the parameters
// satisfy the assumption and give the sizes of the groups sized over
// them; the shared values lie in their domains; both configurations are
// well formed (each group's counters nonnegative and summing to its
// size) and agree on every total counter; and
//
//   - with a Step: it is a step of w.Enabled taken by processes of its
//     groups (the first of w.Group), reaching its Next, of t when t is
//     not nil, and no step of w.Disabled reaches the orbit of Next;
//   - without one (the paper's witness, t not nil): w.Group can take t
//     in w.Enabled, no process can take t in w.Disabled, and no step of
//     w.Disabled reaches the orbit that w.Group's step reaches.
//
// A witness without Sizes is taken to be of the fixed sizes of sys.
func VerifyWitness(sys *gsst.System, t *gsst.Transition, w *Witness) error {
	if w == nil {
		return fmt.Errorf("no witness")
	}
	sizes := w.Sizes
	if sizes == nil {
		sizes = make([]int, len(sys.Groups))
		for g := range sys.Groups {
			sizes[g] = sys.Groups[g].Size
		}
	}
	if len(sizes) != len(sys.Groups) {
		return fmt.Errorf("%d sizes for %d groups", len(sizes), len(sys.Groups))
	}
	if err := verifyValues(sys, w, sizes); err != nil {
		return err
	}
	n := 0
	for g, k := range sizes {
		if sys.Groups[g].OverParams() && w.Params != nil {
			// verifyValues checked it against the parameters
		} else if !sys.Groups[g].Allows(k) {
			return fmt.Errorf("group %s cannot have %d processes (its size is %s)", sys.Groups[g].Name, k, sys.Groups[g].SizeText())
		}
		if n += k; n > gsst.MaxProcesses {
			return fmt.Errorf("more than %d processes", gsst.MaxProcesses)
		}
	}
	for _, c := range []struct {
		name string
		conf [][]int
	}{{"enabled", w.Enabled}, {"disabled", w.Disabled}} {
		if len(c.conf) != len(sys.Groups) {
			return fmt.Errorf("%s configuration has %d groups, want %d", c.name, len(c.conf), len(sys.Groups))
		}
		for g, row := range c.conf {
			if len(row) != len(sys.States) {
				return fmt.Errorf("%s configuration: group %s has %d states, want %d", c.name, sys.Groups[g].Name, len(row), len(sys.States))
			}
			sum := 0
			for _, x := range row {
				if x < 0 || x > sizes[g] {
					return fmt.Errorf("%s configuration: counter %d of group %s outside 0..%d", c.name, x, sys.Groups[g].Name, sizes[g])
				}
				sum += x
			}
			if sum != sizes[g] {
				return fmt.Errorf("%s configuration: group %s has %d processes, want %d", c.name, sys.Groups[g].Name, sum, sizes[g])
			}
		}
	}
	for s := range sys.States {
		a, b := 0, 0
		for g := range sys.Groups {
			a += w.Enabled[g][s]
			b += w.Disabled[g][s]
		}
		if a != b {
			return fmt.Errorf("total counters of %s differ: %d and %d", sys.States[s], a, b)
		}
	}
	from, other, err := w.successors(sys)
	if err != nil {
		return err
	}
	steps := sys.Steps()
	if w.Step == nil {
		return verifyEnabledness(sys, t, w, from, other)
	}
	st := w.Step
	if st.Step < 0 || st.Step >= len(steps) {
		return fmt.Errorf("no step %d", st.Step)
	}
	if o := &steps[st.Step].Origin; t != nil && (o.Transition < 0 || &sys.Transitions[o.Transition] != t) {
		return fmt.Errorf("%s is not a step of %s", sys.StepName(&steps[st.Step]), sys.TransitionName(t))
	}
	if len(st.Groups) == 0 && w.Group != -1 || len(st.Groups) > 0 && st.Groups[0] != w.Group {
		return fmt.Errorf("the step is not taken by group %d", w.Group)
	}
	found := slices.ContainsFunc(from, func(s gsst.Successor) bool {
		return s.Step == st.Step && slices.Equal(s.Groups, st.Groups) && sameConfig(&s.Next, &st.Next)
	})
	if !found {
		return fmt.Errorf("%s by groups %v is not a step of the enabled configuration reaching %v with shared values %v", sys.StepName(&steps[st.Step]), st.Groups, st.Next.Counts, st.Next.Shared)
	}
	return unreached(sys, other, &st.Next)
}

// verifyEnabledness checks the paper's witness: w.Group can take t in
// Enabled (successors from), no process can in Disabled (successors
// other), and no step of Disabled reaches the orbit of w.Group's step.
func verifyEnabledness(sys *gsst.System, t *gsst.Transition, w *Witness, from, other []gsst.Successor) error {
	if t == nil {
		return fmt.Errorf("a witness without a step needs its transition")
	}
	steps := sys.Steps()
	of := func(s gsst.Successor) bool {
		o := &steps[s.Step].Origin
		return o.Transition >= 0 && &sys.Transitions[o.Transition] == t
	}
	i := slices.IndexFunc(from, func(s gsst.Successor) bool { return of(s) && s.Groups[0] == w.Group })
	if i < 0 {
		return fmt.Errorf("group %d cannot take the transition in the enabled configuration", w.Group)
	}
	if j := slices.IndexFunc(other, of); j >= 0 {
		return fmt.Errorf("group %s can take the transition in the disabled configuration", sys.Groups[other[j].Groups[0]].Name)
	}
	return unreached(sys, other, &from[i].Next)
}

// unreached checks that no successor of other reaches the orbit of next.
func unreached(sys *gsst.System, other []gsst.Successor, next *gsst.Config) error {
	if i := slices.IndexFunc(other, func(o gsst.Successor) bool { return sameOrbit(sys, &o.Next, next) }); i >= 0 {
		o := &other[i]
		return fmt.Errorf("%s by groups %v reaches the same orbit from the disabled configuration", sys.StepName(&sys.Steps()[o.Step]), o.Groups)
	}
	return nil
}

// sameConfig reports whether a and b are the same configuration.
func sameConfig(a, b *gsst.Config) bool {
	if len(a.Counts) != len(b.Counts) || !slices.Equal(a.Shared, b.Shared) {
		return false
	}
	for g := range a.Counts {
		if !slices.Equal(a.Counts[g], b.Counts[g]) {
			return false
		}
	}
	return true
}

// verifyValues checks the shared values and the parameters of a
// witness: one value per shared variable, in its domain; in a family,
// one value per parameter, nonnegative, fixed ones at their value,
// satisfying the assumption, and sizing the groups sized over them as
// sizes says (each at least 1).
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

// valueOr returns the value of t under val, or bad when it is beyond
// ±gsst.MaxValue (a model no witness comes from: the witness built with
// bad fails its verification).
func valueOr(t presburger.Term, val func(presburger.Var) int64, bad int) int {
	x, ok := t.Value(val)
	if !ok || x > gsst.MaxValue || x < -gsst.MaxValue {
		return bad
	}
	return int(x)
}
