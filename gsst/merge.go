package gsst

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// A translation may write one counter x as two places x_a and x_b with
// x = x_a + x_b: a Petri net's place split in two, a message count kept
// per sender kind. Every step that adds to x then adds to one of the
// places, and every step that takes k from x appears once per way of
// taking k from the two (k+1 copies), while guards and properties read
// only x_a + x_b. The copies multiply the steps a search branches on
// (mist's manufacture with one place split: refuted in 0.02 s as
// written once, out of 15 s CPU split), and the places are two state
// variables where one would do.
//
// MergeSums writes such a pair back as one variable x. The result is
// the same system, up to which place holds a token, when
//
//   - both are integers with no greatest value, each starting at one
//     constant value, so that x has the domain Lo_a+Lo_b.. and starts at
//     the sum;
//   - everything else reads them only through their sum: in every guard,
//     property atom, justice condition, the assumption and every value an
//     update assigns to another variable, x_a and x_b have the same
//     coefficient in each comparison or term (substituting x_a + d and
//     x_b - d leaves d out);
//   - each update writes them only as x_a := x_a + c, x_b := x_b + c', with
//     c and c' of one sign (a step that moves tokens from one place to
//     the other is refused: it blocks on x_b where x would not);
//   - the steps that take are closed under redistributing what they
//     take: for each step taking k from the pair (c + c' = -k), every way
//     of taking k (i from x_a, k-i from x_b, 0 <= i <= k) is the update
//     of some step with the same movers, transfers, guard and other
//     assignments. A step that adds needs no copy: x has no greatest
//     value, so it never blocks, whichever place receives;
//   - the system has no weak fairness (it names transitions, which the
//     merge makes one).
//
// Then relate a configuration of the system to the one of the merged
// system with the same counters and other variables and x = x_a + x_b.
// Every step of the system is a step of the merged one (its update with
// the two assignments made one, which takes or adds the same amount and
// is enabled when the original is: the guard reads the same sum); a
// step of the merged one taking k from x is enabled when x - k is at
// least Lo_a + Lo_b, and then i = min(k, x_a - Lo_a) from x_a and k - i
// from x_b stay within both domains, and that copy is a step of the
// system with the same guard, movers and other effects. So the relation
// is a bisimulation that relates the initial configurations, and every
// property, justice condition and guard has the same truth on related
// configurations: each property has the same answer on both systems.
// prove asks the merged system and carries the answers back (an
// invariant with x read as x_a + x_b, re-checked on the system as
// written; a run replayed there, each step taking from the place that
// has the tokens).

// Merged is a system with one pair of shared variables merged into
// one (MergeSums).
type Merged struct {
	System *System
	// A and B are the pair, indices into the given system's Shared
	// (A < B); X is the merged variable, an index into System.Shared
	// (A: the variables after B move down by one).
	A, B, X int
	// Steps[i] lists, for step i of System (Steps), the steps of the
	// given system that it stands for: the copies that differ only in
	// how they share out what they add or take.
	Steps [][]int
}

// names are the names of s: states, groups, parameters, shared
// variables and enumeration constants.
func (s *Spec) names() map[string]bool {
	taken := map[string]bool{}
	for _, x := range s.States {
		taken[x] = true
	}
	for _, g := range s.Groups {
		taken[g.Name] = true
	}
	for _, p := range s.Params {
		taken[p.Name] = true
	}
	for _, v := range s.Shared {
		taken[v.Name] = true
		for _, c := range v.Values {
			taken[c] = true
		}
	}
	return taken
}

// mergedName is the name MergeSums gives the variable merged from
// shared variables a and b of s: a_plus_b, with _ added until no other
// name of s (state, group, parameter, shared variable, enumeration
// constant) is the same.
func (s *Spec) mergedName(a, b string) string {
	taken := s.names()
	name := a + "_plus_" + b
	for taken[name] {
		name += "_"
	}
	return name
}

// MergeSums returns s with the first pair of shared variables that
// satisfy the conditions above merged into one, and false when no pair
// does (or s has weak fairness).
func (s *System) MergeSums() (*Merged, bool, error) {
	if len(s.Fairness.Weak) > 0 {
		return nil, false, nil
	}
	for _, pair := range s.sumCandidates() {
		a, b := pair[0], pair[1]
		deltas, ok := s.sumsOnly(a, b)
		if !ok || !s.redistributed(a, b, deltas) {
			continue
		}
		m, err := s.merge(a, b, deltas)
		if err != nil {
			return nil, false, err
		}
		return m, m != nil, nil
	}
	return nil, false, nil
}

// sumCandidates returns the pairs a < b of mergeable shared variables
// that every comparison and every assigned value of s (the value of an
// assignment to v read without v) reads with the same coefficient, in
// order: what sumsOnly asks, read on the formulas as written, one pass
// over them all, so that a system with hundreds of variables (mist's
// bingham, a place per variable) checks its pairs in linear time.
func (s *System) sumCandidates() [][2]int {
	prints := make([]strings.Builder, len(s.Shared))
	atom := 0
	note := func(t presburger.Term, skip presburger.Var) {
		for _, mo := range t.Monos {
			if j, ok := s.SharedOf(mo.Var); ok && mo.Var != skip {
				fmt.Fprintf(&prints[j], "%d:%d ", atom, mo.Coef)
			}
		}
		atom++
	}
	walk := func(f presburger.Formula) {
		for c := range presburger.Atoms(f) {
			note(c.T, -1)
		}
	}
	steps := s.Steps()
	for i := range steps {
		walk(steps[i].Guard)
		for _, as := range steps[i].Update.Assign {
			note(as.Value, as.Var)
		}
	}
	for i := range s.Properties {
		for _, f := range ctl.Atoms(s.Properties[i].Formula) {
			walk(f)
		}
	}
	for i := range s.Fairness.Justice {
		walk(s.Fairness.Justice[i].Formula)
	}
	if s.Assume.Formula != nil {
		walk(s.Assume.Formula)
	}
	alike := map[string][]int{}
	for j := range s.Shared {
		if s.mergeable(j) {
			key := prints[j].String()
			alike[key] = append(alike[key], j)
		}
	}
	var out [][2]int
	for _, js := range alike {
		for x := range js {
			for y := x + 1; y < len(js); y++ {
				out = append(out, [2]int{js[x], js[y]})
			}
		}
	}
	slices.SortFunc(out, func(p, q [2]int) int {
		if p[0] != q[0] {
			return p[0] - q[0]
		}
		return p[1] - q[1]
	})
	return out
}

// mergeable reports whether shared variable j may be one of a pair: an
// integer with no greatest value that starts at one constant value.
func (s *Spec) mergeable(j int) bool {
	v := &s.Shared[j]
	return !v.Bool && v.Values == nil && v.Unbounded && !v.InitRange && v.InitTerm.IsConst()
}

// pairDelta is what one step's update adds to each variable of a pair
// (negative: takes).
type pairDelta struct{ a, b int64 }

// sumsOnly checks that everything but the pair's own updates reads
// shared variables a and b only through their sum, and that each update
// writes them as v := v + c with the two constants of one sign; deltas
// are what each step (Steps) adds to them.
func (s *System) sumsOnly(a, b int) ([]pairDelta, bool) {
	xa, xb := s.SharedVar(a), s.SharedVar(b)
	// d is a variable no formula of s has: past the parameters, and
	// Subst renames a bound variable rather than capture it.
	d := s.ParamVar(len(s.Params)) + 1
	shift := func(v presburger.Var) presburger.Term {
		switch v {
		case xa:
			return presburger.VarTerm(xa).Add(presburger.VarTerm(d))
		case xb:
			return presburger.VarTerm(xb).Sub(presburger.VarTerm(d))
		}
		return presburger.VarTerm(v)
	}
	sumOnly := func(f presburger.Formula) bool {
		if f == nil {
			return true
		}
		g, ok := presburger.SubstExact(f, shift)
		return ok && !slices.Contains(presburger.FreeVars(g), d)
	}
	termSumOnly := func(t presburger.Term) bool {
		return coefOf(t, xa) == coefOf(t, xb)
	}
	steps := s.Steps()
	deltas := make([]pairDelta, len(steps))
	for i := range steps {
		st := &steps[i]
		if !sumOnly(st.Guard) {
			return nil, false
		}
		for _, as := range st.Update.Assign {
			switch as.Var {
			case xa, xb:
				c, ok := increment(as.Value, as.Var)
				if !ok {
					return nil, false
				}
				if as.Var == xa {
					deltas[i].a = c
				} else {
					deltas[i].b = c
				}
			default:
				if !termSumOnly(as.Value) {
					return nil, false
				}
			}
		}
		if deltas[i].a < 0 && deltas[i].b > 0 || deltas[i].a > 0 && deltas[i].b < 0 {
			return nil, false
		}
	}
	for i := range s.Properties {
		for _, f := range ctl.Atoms(s.Properties[i].Formula) {
			if !sumOnly(f) {
				return nil, false
			}
		}
	}
	for i := range s.Fairness.Justice {
		if !sumOnly(s.Fairness.Justice[i].Formula) {
			return nil, false
		}
	}
	return deltas, sumOnly(s.Assume.Formula)
}

// coefOf returns the coefficient of v in t (0 when t does not read it).
func coefOf(t presburger.Term, v presburger.Var) int64 {
	for _, mo := range t.Monos {
		if mo.Var == v {
			return mo.Coef
		}
	}
	return 0
}

// increment returns c when t is v + c.
func increment(t presburger.Term, v presburger.Var) (int64, bool) {
	if len(t.Monos) != 1 || t.Monos[0] != (presburger.Mono{Var: v, Coef: 1}) {
		return 0, false
	}
	return t.Const, true
}

// stepRest is what a step is besides what it adds to the pair a, b: its
// movers, transfers, guard and other assignments, and its kind (a
// transition's block, a rendezvous, an environment step), as a key.
func (s *Spec) stepRest(st *Step, a, b int) string {
	var k strings.Builder
	switch {
	case st.Origin.Rendezvous >= 0:
		k.WriteString("R")
	case st.Origin.Environment >= 0:
		k.WriteString("E")
	default:
		k.WriteString("T")
	}
	for _, p := range st.Parts {
		fmt.Fprintf(&k, " %d>%d%v", p.From, p.To, p.Groups)
	}
	k.WriteString(" ;")
	for _, x := range st.Transfers {
		fmt.Fprintf(&k, " %d>%d%v", x.From, x.To, x.Groups)
	}
	name := func(v presburger.Var) string { return "v" + strconv.Itoa(int(v)) }
	k.WriteString(" ; " + presburger.Format(st.Guard, name) + " ;")
	xa, xb := s.SharedVar(a), s.SharedVar(b)
	for _, as := range st.Update.Assign {
		if as.Var != xa && as.Var != xb {
			k.WriteString(" " + name(as.Var) + ":=" + as.Value.Format(name))
		}
	}
	return k.String()
}

// redistributed reports whether the steps of s that take from the pair
// a, b are closed under redistributing what they take (see above).
func (s *System) redistributed(a, b int, deltas []pairDelta) bool {
	steps := s.Steps()
	have := map[string]map[pairDelta]bool{}
	rest := make([]string, len(steps))
	for i := range steps {
		rest[i] = s.stepRest(&steps[i], a, b)
		if have[rest[i]] == nil {
			have[rest[i]] = map[pairDelta]bool{}
		}
		have[rest[i]][deltas[i]] = true
	}
	for i, d := range deltas {
		k, ok := checked.Add(d.a, d.b)
		if !ok {
			return false
		}
		if k >= 0 {
			continue
		}
		if -k >= int64(len(steps)) {
			return false // k + 1 copies, each a step of its own: too few steps
		}
		for taken := int64(0); taken <= -k; taken++ {
			if !have[rest[i]][pairDelta{a: -taken, b: k + taken}] {
				return false
			}
		}
	}
	return true
}

// merge builds the Merged system of the pair a, b of s, which passed
// sumsOnly (deltas) and redistributed: every formula with x_a read as x
// and x_b as 0 (they have equal coefficients, so c*x_a + c*x_b becomes
// c*x), each update's two assignments one (x := x + c + c'), the
// variables renumbered past x_b, and of the steps that have become the
// same (the same transition written again, the same environment step or
// rendezvous) the first kept.
func (s *System) merge(a, b int, deltas []pairDelta) (*Merged, error) {
	va, vb := &s.Shared[a], &s.Shared[b]
	lo, ok1 := checked.Add(int64(va.Lo), int64(vb.Lo))
	init, ok2 := checked.Add(int64(va.Init), int64(vb.Init))
	if !ok1 || !ok2 || lo != int64(int(lo)) || init != int64(int(init)) {
		return nil, nil
	}
	xa, xb := s.SharedVar(a), s.SharedVar(b)
	spec := s.Spec()
	steps := s.Steps()
	stepAt := map[originKey]int{}
	for i := range steps {
		stepAt[keyOfOrigin(steps[i].Origin)] = i
	}
	// Each step's two assignments made one, on x_a: the sum of what it
	// adds to both.
	var sumErr bool
	own := func(u *Update, at originKey) {
		i, found := stepAt[at]
		if !found {
			return
		}
		d := deltas[i]
		if d.a == 0 && d.b == 0 {
			return
		}
		c, ok := checked.Add(d.a, d.b)
		if !ok {
			sumErr = true
			return
		}
		out := slices.DeleteFunc(slices.Clone(u.Assign), func(as Assign) bool { return as.Var == xa || as.Var == xb })
		out = append(out, Assign{Var: xa, Value: presburger.VarTerm(xa).Add(presburger.ConstTerm(c))})
		slices.SortFunc(out, func(x, y Assign) int { return int(x.Var - y.Var) })
		u.Assign = out
	}
	spec.eachUpdate(func(*Update) {}) // every update its own copy
	for i := range spec.Transitions {
		for j := range spec.Transitions[i].Blocks {
			own(&spec.Transitions[i].Blocks[j].Update, originKey{i, j, -1, -1})
		}
	}
	for k := range spec.Rendezvous {
		own(&spec.Rendezvous[k].Update, originKey{-1, -1, k, -1})
	}
	for k := range spec.Environment {
		own(&spec.Environment[k].Update, originKey{-1, -1, -1, k})
	}
	if sumErr {
		return nil, nil
	}
	// x_b read as 0, and the variables after it one down.
	isShared := func(v presburger.Var) bool { _, ok := s.SharedOf(v); return ok }
	isParam := func(v presburger.Var) bool { _, ok := s.ParamOf(v); return ok }
	sub := func(v presburger.Var) presburger.Term {
		switch {
		case v == xb:
			return presburger.Term{}
		case v > xb && (isShared(v) || isParam(v)):
			return presburger.VarTerm(v - 1)
		}
		return presburger.VarTerm(v)
	}
	// Initial values and group sizes over the parameters too: the
	// parameters moved down.
	if !spec.substAll(sub) {
		return nil, nil
	}
	spec.eachUpdate(func(u *Update) {
		for i := range u.Assign {
			if v := u.Assign[i].Var; v > xb {
				u.Assign[i].Var = v - 1
			}
		}
	})
	x := *va
	x.Name = s.mergedName(va.Name, vb.Name)
	x.Lo, x.Init, x.InitHi = int(lo), int(init), int(init)
	x.InitText = ""
	spec.Shared[a] = x
	spec.Shared = slices.Delete(spec.Shared, b, b+1)
	// The texts as the merged system reads: a guard or update that
	// named the pair is written from its formula.
	named := func(text string) bool {
		return strings.Contains(text, va.Name) || strings.Contains(text, vb.Name)
	}
	retext := func(guard presburger.Formula, text *string, u *Update) {
		if guard != nil && named(*text) {
			*text = spec.FormatFormula(guard)
		}
		if named(u.Text) {
			u.Text = spec.FormatUpdate(u)
		}
	}
	for i := range spec.Transitions {
		t := &spec.Transitions[i]
		for j := range t.Blocks {
			bl := &t.Blocks[j]
			retext(bl.Guard, &bl.Text, &bl.Update)
		}
	}
	for k := range spec.Rendezvous {
		r := &spec.Rendezvous[k]
		retext(r.Guard, &r.Text, &r.Update)
	}
	for k := range spec.Environment {
		e := &spec.Environment[k]
		retext(e.Guard, &e.Text, &e.Update)
	}
	for i := range spec.Properties {
		p := &spec.Properties[i]
		if named(p.Text) {
			p.Text = ctl.FormatAtoms(p.Formula, spec.VarName, spec.TypedAtom)
			p.Syntax = nil
		}
	}
	for i := range spec.Fairness.Justice {
		j := &spec.Fairness.Justice[i]
		if named(j.Text) {
			j.Text = spec.FormatFormula(j.Formula)
		}
	}
	// The steps that have become the same: the first kept. keyOf is
	// what a step of the merged system does, read on the given system's
	// step: what it does besides the pair and what it adds to x.
	keyOf := func(i int) string {
		d := deltas[i]
		return s.stepRest(&steps[i], a, b) + " +" + strconv.FormatInt(d.a+d.b, 10)
	}
	trans, rdv, env := s.keptSteps(keyOf)
	spec.Transitions = pick(spec.Transitions, trans)
	spec.Rendezvous = pick(spec.Rendezvous, rdv)
	spec.Environment = pick(spec.Environment, env)
	merged, err := New(spec)
	if err != nil {
		return nil, err
	}
	// Steps: each step of the merged system stands for the given
	// system's steps with its key. The merged system's steps come from
	// the given one's kept transitions (their blocks as they were),
	// rendezvous and environment steps, so their keys are those of the
	// steps they were built from.
	byKey := map[string][]int{}
	for i := range steps {
		byKey[keyOf(i)] = append(byKey[keyOf(i)], i)
	}
	out := &Merged{System: merged, A: a, B: b, X: a}
	for _, st := range merged.Steps() {
		o := st.Origin
		at := originKey{-1, -1, -1, -1}
		switch {
		case o.Rendezvous >= 0:
			at.rendezvous = rdv[o.Rendezvous]
		case o.Environment >= 0:
			at.environment = env[o.Environment]
		default:
			at.transition, at.block = trans[o.Transition], o.Block
		}
		i, found := stepAt[at]
		if !found {
			return nil, fmt.Errorf("gsst: merging %s and %s: a step of the merged system has no origin", va.Name, vb.Name)
		}
		out.Steps = append(out.Steps, byKey[keyOf(i)])
	}
	return out, nil
}

// originKey is where a step was written (Origin without positions).
type originKey struct{ transition, block, rendezvous, environment int }

func keyOfOrigin(o Origin) originKey {
	return originKey{o.Transition, o.Block, o.Rendezvous, o.Environment}
}

// keptSteps returns the indices of the transitions, rendezvous and
// environment steps of s that merging keeps: each but those that do
// what an earlier one does, as keyOf reads each of their steps (a
// transition: its states, transfers and every block).
func (s *System) keptSteps(keyOf func(step int) string) (trans, rdv, env []int) {
	keys := map[originKey]string{}
	steps := s.Steps()
	for i := range steps {
		keys[keyOfOrigin(steps[i].Origin)] = keyOf(i)
	}
	seen := map[string]bool{}
	first := func(key string) bool {
		if seen[key] {
			return false
		}
		seen[key] = true
		return true
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		key := fmt.Sprintf("T %d>%d %d", t.From, t.To, len(t.Blocks))
		for j := range t.Blocks {
			key += " | " + fmt.Sprint(t.Blocks[j].Groups) + " " + keys[originKey{i, j, -1, -1}]
		}
		if first(key) {
			trans = append(trans, i)
		}
	}
	for k := range s.Rendezvous {
		if first("R " + keys[originKey{-1, -1, k, -1}]) {
			rdv = append(rdv, k)
		}
	}
	for k := range s.Environment {
		if first("E " + keys[originKey{-1, -1, -1, k}]) {
			env = append(env, k)
		}
	}
	return trans, rdv, env
}

// pick returns the elements of xs at the indices at, in order.
func pick[T any](xs []T, at []int) []T {
	out := make([]T, 0, len(at))
	for _, i := range at {
		out = append(out, xs[i])
	}
	return out
}
