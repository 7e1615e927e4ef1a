package gsst

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// A property "c -> f" holds when f holds at every initial configuration
// where c holds, so it is f's question on the system whose initial
// configurations are those where c holds. A translation that writes a
// system's initial values as a premise (a shared integer that starts
// anywhere in "0..", with "x = 0 ->" on the property; a group that
// starts spread over [S, T], with "#T[g] = 0 ->") states the same
// question as the file with those initial values, and the stages that
// read initial sets read the second form best: the backward search of
// prove reads one value a variable starts at, where it reads a premise
// only as a check of the states it has found. NarrowInitial writes the
// first form as the second, for the conjuncts of c the language's
// initial sets state exactly.

// NarrowInitial returns s whose initial configurations are those of s
// at which the conjuncts of premise it folds hold, those conjuncts
// (folded), and the ones it did not fold (rest), so that "premise -> f"
// of s is "rest -> f" of narrowed (f alone when rest is true). It
// folds, each exactly:
//
//   - an atom on one shared variable whose initial values are constants,
//     "x op c" (presburger.AtomRange: not "x != c" inside the initial
//     range), into x's initial range, when the range left is not empty
//     and within MaxValue;
//   - an atom on one shared variable that starts at the value of a term
//     over the parameters ("init: x0_0"), "x op c", into the assumption
//     as "t op c" with the term t for x: every initial configuration of
//     an instance has x = t, so the atom holds at all of them or at none
//     (an instance where it fails has the property vacuously, and the
//     narrowed family leaves it out); "x0_0 = 0" is then a parameter
//     the assumption pins (PinParams);
//   - "#S[g] = 0" (also "#S[g] <= 0", "#S[g] < 1"), and "#S = 0" for
//     every group, into the initial states of a group spread over S and
//     another state (S is no longer one of them), or nothing at all for
//     a group that does not start in S.
//
// The premise is read with its negations pushed to the atoms
// (presburger.PushNegations): "!(x < 0 | x > 0)", which prove's initial
// phase writes for a property's "x >= 0 & x <= 0" after the phase, is
// "x >= 0 & x <= 0". A conjunct that is a zero test of a sum of
// nonnegative terms ("x0 + x1 = 0", "#A + #B <= 0":
// presburger.SplitZeroSums) is read as the zero tests of its terms, each
// folded or kept on its own. An atom that holds
// at every initial configuration is dropped. It returns s, true and
// premise when it folds nothing.
func (s *System) NarrowInitial(premise presburger.Formula) (narrowed *System, folded, rest presburger.Formula, err error) {
	spec := s.Spec()
	var done, kept []presburger.Formula
	for _, c := range presburger.Conjuncts(presburger.SplitZeroSums(presburger.PushNegations(premise), s.nonneg)) {
		if spec.narrow(c) {
			done = append(done, c)
			continue
		}
		kept = append(kept, c)
	}
	if len(done) == 0 {
		return s, presburger.True, premise, nil
	}
	if narrowed, err = New(spec); err != nil {
		return nil, nil, nil, err
	}
	return narrowed, presburger.Conj(done...), presburger.Conj(kept...), nil
}

// narrow folds the premise's conjunct c into the initial configurations
// of s (NarrowInitial) and reports whether it did; s is unchanged when
// it did not.
func (s *Spec) narrow(c presburger.Formula) bool {
	a, ok := c.(presburger.Cmp)
	if !ok || len(a.T.Monos) != 1 {
		return false
	}
	v := a.T.Monos[0].Var
	if j, isShared := s.SharedOf(v); isShared {
		return s.narrowShared(j, a)
	}
	st, g, isCounter := s.Counter(v)
	if !isCounter {
		return false
	}
	// Counters are never negative: the atom says #S = 0 when 0 is the
	// only count it admits, and nothing when it admits them all.
	all := presburger.AtLeast(v, 0)
	in, ok := presburger.AtomRange(a, all)
	switch {
	case !ok:
		return false
	case in == all:
		return true
	case in.Finite() && in.Lo == 0 && in.Hi == 0:
		return s.narrowEmpty(st, g)
	}
	return false
}

// narrowShared intersects the initial range of shared variable j with
// the values that satisfy a, when the result is a range, not empty and
// within MaxValue.
func (s *Spec) narrowShared(j int, a presburger.Cmp) bool {
	v := &s.Shared[j]
	if !v.InitRange && !v.InitTerm.IsConst() {
		return s.narrowAssume(j, a)
	}
	if !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() {
		return false
	}
	r := presburger.Bound{Var: a.T.Monos[0].Var, Lo: int64(v.Init), Hi: int64(v.Init)}
	if v.InitRange {
		r.Hi, r.NoHi = int64(v.InitHi), v.InitNoHi
	}
	in, ok := presburger.AtomRange(a, r)
	if !ok || in.Empty() || in.Lo > MaxValue || in.Lo < -MaxValue || !in.NoHi && (in.Hi > MaxValue || in.Hi < -MaxValue) {
		return false // a hole, no initial value left, or one past the limit
	}
	v.Init, v.InitHi, v.InitNoHi = int(in.Lo), int(in.Hi), in.NoHi
	v.InitRange = in.NoHi || in.Hi > in.Lo
	if !v.InitRange {
		v.InitHi = 0
	}
	v.InitTerm, v.InitHiTerm, v.InitText = presburger.Term{}, presburger.Term{}, ""
	return true
}

// narrowAssume adds to the assumption the atom a on shared variable j,
// which starts at the value of a term over the parameters, with that
// term for the variable; false, s unchanged, when the term does not fit
// (presburger.SubstExact).
func (s *Spec) narrowAssume(j int, a presburger.Cmp) bool {
	x, t := s.SharedVar(j), s.Shared[j].InitTerm
	f, ok := presburger.SubstExact(a, func(v presburger.Var) presburger.Term {
		if v == x {
			return t
		}
		return presburger.VarTerm(v)
	})
	if !ok {
		return false
	}
	text := s.FormatFormula(f)
	if s.Assume.Formula != nil {
		// The text is what reports print: a disjunction written
		// before it keeps its parentheses ("a | b" & t is not a | b & t).
		old := s.Assume.Text
		switch s.Assume.Formula.(type) {
		case presburger.And, presburger.Cmp:
		default:
			old = "(" + old + ")"
		}
		f = presburger.Conj(s.Assume.Formula, f)
		text = old + " & " + text
	}
	s.Assume.Formula, s.Assume.Text = f, text
	return true
}

// narrowEmpty leaves state st out of the initial states of group g (of
// every group when g is -1), when each such group either spreads over
// st and another state or does not start in st at all.
func (s *Spec) narrowEmpty(st, g int) bool {
	groups := []int{g}
	if g < 0 {
		groups = nil
		for h := range s.Groups {
			groups = append(groups, h)
		}
	}
	var spread []int
	for _, h := range groups {
		switch {
		case s.InitOver != nil && slices.Contains(s.InitOver[h], st):
			spread = append(spread, h)
		case s.Init[h][st] > 0:
			return false // every initial configuration has #S[h] > 0
		}
	}
	for _, h := range spread {
		over := slices.DeleteFunc(slices.Clone(s.InitOver[h]), func(x int) bool { return x == st })
		if first := s.InitOver[h][0]; first == st {
			s.Init[h][over[0]], s.Init[h][st] = s.Init[h][st], 0
		}
		s.InitOver[h] = over
		if len(over) == 1 {
			s.InitOver[h] = nil
		}
	}
	if !slices.ContainsFunc(s.InitOver, func(over []int) bool { return over != nil }) {
		s.InitOver = nil
	}
	return true
}

// nonneg reports whether every value v takes in a configuration of s is
// at least 0: a counter's, a shared variable's whose domain starts at 0
// or above, a parameter's not fixed (InstanceCondition), a group size's
// and n's. Only these may have a zero test of their sum split into
// theirs (presburger.SplitZeroSums): "x + y = 0" with y in -1..1 holds
// at x = 1, y = -1.
func (s *Spec) nonneg(v presburger.Var) bool {
	if _, _, isCounter := s.Counter(v); isCounter {
		return true
	}
	if j, isShared := s.SharedOf(v); isShared {
		return s.Shared[j].Lo >= 0
	}
	if k, isParam := s.ParamOf(v); isParam {
		return !s.Params[k].Fixed
	}
	return false
}
