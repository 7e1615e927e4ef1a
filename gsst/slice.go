package gsst

import (
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// A translation may carry a shared variable that nothing reads: a ghost
// step counter "nsteps := nsteps + 1" on every step, a flag a tool wrote
// for its own bookkeeping. It changes nothing of what a run can do or of
// what a property says, but it is a state variable of every model, and
// an unbounded one keeps runs from ending constant: mist's queuedbusyflag
// with such a counter timed out, Cubicle's germanish6 took five times as
// long, and ByMC's liveness properties were skipped as runs that "may
// not settle". SliceUnread leaves such variables out.
//
// Leaving v out is exact when two things hold. Nothing that matters
// reads v: no guard of any step, no property, no justice condition, no
// assumption, and no update of a variable that is itself kept (the kept
// variables are a closure: what a kept update reads is kept). And v
// never blocks a step: a step whose update would take a variable out of
// its domain is not enabled, so an update of v that might leave v's
// domain decides which steps are enabled, which is reading v. Then the
// runs of s are those of the sliced system with v's values added, every
// step taken where it was enabled, and every property (over the kept
// variables) has the same truth on both.

// SliceUnread returns s without the shared variables nothing reads
// (sliceable), and their names in declaration order; s itself and nil
// when there is none. The sliced system has the same states, groups,
// steps (in the same order: their updates lose the assignments to the
// variables left out), fairness and properties; its parameters follow
// its shared variables, as in every system, so the variables of its
// formulas are renumbered.
func (s *System) SliceUnread() (*System, []string, error) {
	cut := s.sliceable()
	if !slices.Contains(cut, true) {
		return s, nil, nil
	}
	// The new number of every variable: the counters, the size
	// variables and n keep theirs; the shared variables kept and the
	// parameters move down past the ones left out.
	newIndex := make([]int, len(s.Shared))
	kept := 0
	var names []string
	for j := range s.Shared {
		newIndex[j] = -1
		if cut[j] {
			names = append(names, s.Shared[j].Name)
			continue
		}
		newIndex[j] = kept
		kept++
	}
	ren := func(v presburger.Var) presburger.Var {
		if j, ok := s.SharedOf(v); ok {
			return s.NVar() + 1 + presburger.Var(newIndex[j])
		}
		if k, ok := s.ParamOf(v); ok {
			return s.NVar() + 1 + presburger.Var(kept+k)
		}
		return v
	}
	update := func(u *Update) {
		var out []Assign
		for _, a := range u.Assign {
			if j, ok := s.SharedOf(a.Var); ok && cut[j] {
				continue
			}
			out = append(out, a)
		}
		if len(out) < len(u.Assign) || textAssigns(u.Text, names) {
			// The text says what the step does: without the
			// assignments left out, written from what is left. A
			// text may name a variable left out that Assign no
			// longer holds: x := x, which seal dropped.
			u.Assign = out
			u.Text = s.FormatUpdate(u)
			if len(out) == 0 {
				*u = Update{}
			}
		}
	}
	spec := s.Spec()
	spec.eachUpdate(update)
	spec.Shared = slices.DeleteFunc(spec.Shared, func(v Shared) bool { return slices.Contains(names, v.Name) })
	spec.RenameVars(ren)
	sliced, err := New(spec)
	if err != nil {
		return nil, nil, err
	}
	return sliced, names, nil
}

// eachRead calls read with each variable that a guard (of a block, a
// rendezvous or an environment step), a property's atom, a justice
// condition or the assumption reads, once per occurrence.
func (s *Spec) eachRead(read func(presburger.Var)) {
	formula := func(f presburger.Formula) {
		if f != nil {
			for _, v := range presburger.FreeVars(f) {
				read(v)
			}
		}
	}
	steps := s.Steps()
	for i := range steps {
		formula(steps[i].Guard)
	}
	for i := range s.Properties {
		for _, a := range ctl.Atoms(s.Properties[i].Formula) {
			formula(a)
		}
	}
	for i := range s.Fairness.Justice {
		formula(s.Fairness.Justice[i].Formula)
	}
	formula(s.Assume.Formula)
}

// sliceable says, for each shared variable of s, whether SliceUnread
// leaves it out: nothing that matters reads it, and no update of it can
// block a step (neverBlocks), as the comment above says.
func (s *Spec) sliceable() []bool {
	m := len(s.Shared)
	keep := make([]bool, m)
	var work []int
	mark := func(v presburger.Var) {
		if j, ok := s.SharedOf(v); ok && !keep[j] {
			keep[j] = true
			work = append(work, j)
		}
	}
	s.eachRead(mark)
	steps := s.Steps()
	for j := range s.Shared {
		v := &s.Shared[j]
		// An initial value over the parameters may tie which parameter
		// values have an instance to v: kept, as a variable read.
		if !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() || !s.neverBlocks(j, steps) {
			mark(s.SharedVar(j))
		}
	}
	for {
		// What a kept variable's update reads is kept: the closure.
		for len(work) > 0 {
			j := work[len(work)-1]
			work = work[:len(work)-1]
			x := s.SharedVar(j)
			for i := range steps {
				for _, a := range steps[i].Update.Assign {
					if a.Var == x {
						for _, mo := range a.Value.Monos {
							mark(mo.Var)
						}
					}
				}
			}
		}
		if len(work) == 0 {
			break
		}
	}
	cut := make([]bool, m)
	for j := range cut {
		cut[j] = !keep[j]
	}
	return cut
}

// neverBlocks reports whether every value that an update of shared
// variable j can give it lies in its domain, whatever the configuration:
// the value's term, over shared variables each within its own domain (a
// run never leaves them), ranges within j's domain. "v := v + c" with c
// >= 0 on a type with no greatest value, a constant of the domain, "v :=
// w" with w's domain within v's pass; a decrement, anything over a
// parameter, and a value whose bound does not fit in int64 do not.
func (s *Spec) neverBlocks(j int, steps []Step) bool {
	v := &s.Shared[j]
	x := s.SharedVar(j)
	for i := range steps {
		for _, a := range steps[i].Update.Assign {
			if a.Var != x {
				continue
			}
			lo, hi, noHi, ok := s.termRange(a.Value)
			if !ok || lo < int64(v.Lo) || !v.Unbounded && (noHi || hi > int64(v.Hi)) {
				return false
			}
		}
	}
	return true
}

// termRange returns the least and greatest values of t over the domains
// of the shared variables it reads (noHi: no greatest), and false when t
// reads another variable, has no least value, or a bound does not fit.
func (s *Spec) termRange(t presburger.Term) (lo, hi int64, noHi, ok bool) {
	lo, hi = t.Const, t.Const
	for _, mo := range t.Monos {
		j, isShared := s.SharedOf(mo.Var)
		if !isShared {
			return 0, 0, false, false
		}
		w := &s.Shared[j]
		least, greatest := int64(w.Lo), int64(w.Hi)
		if mo.Coef < 0 {
			if w.Unbounded {
				return 0, 0, false, false // no least value
			}
			least, greatest = greatest, least
		}
		a, ok1 := checked.Mul(mo.Coef, least)
		if lo, ok = checked.Add(lo, a); !ok1 || !ok {
			return 0, 0, false, false
		}
		if mo.Coef > 0 && w.Unbounded {
			noHi = true
			continue
		}
		b, ok2 := checked.Mul(mo.Coef, greatest)
		if hi, ok = checked.Add(hi, b); !ok2 || !ok {
			return 0, 0, false, false
		}
	}
	return lo, hi, noHi, true
}

// eachUpdate calls f on the update of every block, rendezvous and
// environment step of s, after giving each its own copy of the
// assignments.
func (s *Spec) eachUpdate(f func(*Update)) {
	own := func(u *Update) {
		u.Assign = slices.Clone(u.Assign)
		f(u)
	}
	s.Transitions = slices.Clone(s.Transitions)
	for i := range s.Transitions {
		t := &s.Transitions[i]
		t.Blocks = slices.Clone(t.Blocks)
		for j := range t.Blocks {
			own(&t.Blocks[j].Update)
		}
	}
	s.Rendezvous = slices.Clone(s.Rendezvous)
	for i := range s.Rendezvous {
		own(&s.Rendezvous[i].Update)
	}
	s.Environment = slices.Clone(s.Environment)
	for i := range s.Environment {
		own(&s.Environment[i].Update)
	}
	s.steps = nil // lowered from the updates as they were
}

// mapFormulas replaces every guard (of the blocks, the rendezvous and
// the environment steps), justice condition, assumption and atom of a
// property of s by formula of it, and every value an update assigns by
// term of it, each in a copy of its own.
func (s *Spec) mapFormulas(formula func(presburger.Formula) presburger.Formula, term func(presburger.Term) presburger.Term) {
	s.eachUpdate(func(u *Update) {
		for i := range u.Assign {
			u.Assign[i].Value = term(u.Assign[i].Value)
		}
	})
	for i := range s.Transitions {
		for j := range s.Transitions[i].Blocks {
			b := &s.Transitions[i].Blocks[j]
			b.Guard = formula(b.Guard)
		}
	}
	for i := range s.Rendezvous {
		s.Rendezvous[i].Guard = formula(s.Rendezvous[i].Guard)
	}
	for i := range s.Environment {
		s.Environment[i].Guard = formula(s.Environment[i].Guard)
	}
	s.Fairness.Justice = slices.Clone(s.Fairness.Justice)
	for i := range s.Fairness.Justice {
		j := &s.Fairness.Justice[i]
		j.Formula = formula(j.Formula)
	}
	s.Assume.Formula = formula(s.Assume.Formula)
	s.Properties = slices.Clone(s.Properties)
	for i := range s.Properties {
		p := &s.Properties[i]
		p.Formula = ctl.MapAtoms(p.Formula, formula)
	}
}

// substAll replaces every variable v of every formula and term of s
// (mapFormulas's, and the initial values and group sizes written over
// the parameters) by sub(v), computed exactly; false, with s part
// rewritten, when a coefficient would overflow. The variables an
// update assigns are left to the caller, which renumbers them.
func (s *Spec) substAll(sub func(presburger.Var) presburger.Term) bool {
	var overflow bool
	formula := func(f presburger.Formula) presburger.Formula {
		if f == nil {
			return nil
		}
		g, ok := presburger.SubstExact(f, sub)
		overflow = overflow || !ok
		return g
	}
	term := func(t presburger.Term) presburger.Term {
		u, ok := t.SubstExact(sub)
		overflow = overflow || !ok
		return u
	}
	s.mapFormulas(formula, term)
	s.Shared = slices.Clone(s.Shared)
	for j := range s.Shared {
		v := &s.Shared[j]
		v.InitTerm, v.InitHiTerm = term(v.InitTerm), term(v.InitHiTerm)
	}
	s.Groups = slices.Clone(s.Groups)
	for g := range s.Groups {
		s.Groups[g].SizeTerm = term(s.Groups[g].SizeTerm)
	}
	return !overflow
}

// RenameVars renames every variable of every formula and term of s by
// ren: the guards, the updates (the variables they assign too), the
// justice conditions, the assumption, the properties, and the initial
// values and group sizes written over the parameters. A spec whose
// variables are renumbered (a shared variable added or left out moves
// the parameters, which follow the shared variables) is written anew so.
func (s *Spec) RenameVars(ren func(presburger.Var) presburger.Var) {
	sub := func(v presburger.Var) presburger.Term { return presburger.VarTerm(ren(v)) }
	formula := func(f presburger.Formula) presburger.Formula {
		if f == nil {
			return nil
		}
		return presburger.Subst(f, sub) // a renaming: no coefficient grows
	}
	s.mapFormulas(formula, func(t presburger.Term) presburger.Term { return t.Subst(sub) })
	s.eachUpdate(func(u *Update) {
		for i := range u.Assign {
			u.Assign[i].Var = ren(u.Assign[i].Var)
		}
	})
	s.Shared = slices.Clone(s.Shared)
	for j := range s.Shared {
		v := &s.Shared[j]
		v.InitTerm, v.InitHiTerm = v.InitTerm.Subst(sub), v.InitHiTerm.Subst(sub)
	}
	s.Groups = slices.Clone(s.Groups)
	for g := range s.Groups {
		grp := &s.Groups[g]
		grp.SizeTerm = grp.SizeTerm.Subst(sub)
	}
}

// textAssigns reports whether the update text assigns one of names. A
// text that does not parse (a Spec's, written by hand) is taken to.
func textAssigns(text string, names []string) bool {
	if text == "" {
		return false
	}
	stmts, err := parseUpdate(text, func(int) Pos { return Pos{} })
	if err != nil {
		return true
	}
	return slices.ContainsFunc(stmts, func(a *AssignStmt) bool { return slices.Contains(names, a.Var.Name) })
}
