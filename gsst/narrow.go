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
// at which the conjuncts of premise it folds hold, and the conjuncts it
// did not fold, so that "premise -> f" of s is "rest -> f" of narrowed
// (f alone when rest is true). It folds, each exactly:
//
//   - an atom on one shared variable whose initial values are constants,
//     "x op c" (coefficient 1 or -1 once a factor all its coefficients
//     share is divided out; op not != unless c is an end of
//     the initial range or outside it), into x's initial range, when
//     the range left is not empty;
//   - "#S[g] = 0" (also "#S[g] <= 0", "#S[g] < 1"), and "#S = 0" for
//     every group, into the initial states of a group spread over S and
//     another state (S is no longer one of them), or nothing at all for
//     a group that does not start in S.
//
// An atom that holds at every initial configuration is dropped. It
// returns s and premise when it folds nothing.
func (s *System) NarrowInitial(premise presburger.Formula) (narrowed *System, rest presburger.Formula, err error) {
	spec := s.Spec()
	var kept []presburger.Formula
	folded := false
	for _, c := range presburger.Conjuncts(premise) {
		if spec.narrow(c) {
			folded = true
			continue
		}
		kept = append(kept, c)
	}
	if !folded {
		return s, premise, nil
	}
	if narrowed, err = New(spec); err != nil {
		return nil, nil, err
	}
	return narrowed, presburger.Conj(kept...), nil
}

// narrow folds the premise's conjunct c into the initial configurations
// of s (NarrowInitial) and reports whether it did; s is unchanged when
// it did not.
func (s *Spec) narrow(c presburger.Formula) bool {
	// A scaled atom ("2*#D < 1") is the atom divided ("#D <= 0").
	a, ok := presburger.Tighten(c).(presburger.Cmp)
	if !ok || len(a.T.Monos) != 1 {
		return false
	}
	mo := a.T.Monos[0]
	if mo.Coef != 1 && mo.Coef != -1 {
		return false
	}
	// v + c op 0 is v op -c; -v + c op 0 is v op' c, op' the converse.
	op, k := a.Op, -a.T.Const
	if mo.Coef == -1 {
		op, k = op.Converse(), a.T.Const
	}
	if k > MaxValue || k < -MaxValue {
		return false
	}
	if j, isShared := s.SharedOf(mo.Var); isShared {
		return s.narrowShared(j, op, k)
	}
	if st, g, isCounter := s.Counter(mo.Var); isCounter {
		// Counters are never negative: the atom says #S = 0 when 0 is
		// the only count it admits, and nothing when it admits them all.
		switch {
		case op == presburger.Eq && k == 0, op == presburger.Le && k == 0, op == presburger.Lt && k == 1:
			return s.narrowEmpty(st, g)
		case op == presburger.Ge && k <= 0, op == presburger.Gt && k < 0, op == presburger.Ne && k < 0:
			return true
		}
	}
	return false
}

// narrowShared intersects the initial range of shared variable j with
// the values x satisfying "x op k", when the result is a range and not
// empty.
func (s *Spec) narrowShared(j int, op presburger.Op, k int64) bool {
	v := &s.Shared[j]
	if !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() {
		return false
	}
	lo, hi, noHi := int64(v.Init), int64(v.Init), false
	if v.InitRange {
		hi, noHi = int64(v.InitHi), v.InitNoHi
	}
	switch op {
	case presburger.Eq:
		if k < lo || !noHi && k > hi {
			return false // no initial value satisfies it
		}
		lo, hi, noHi = k, k, false
	case presburger.Ne:
		switch {
		case k < lo || !noHi && k > hi:
		case k == lo:
			lo++
		case !noHi && k == hi:
			hi--
		default:
			return false // a hole in the range
		}
	case presburger.Le, presburger.Lt:
		if op == presburger.Lt {
			k--
		}
		if noHi || k < hi {
			hi, noHi = k, false
		}
	case presburger.Ge, presburger.Gt:
		if op == presburger.Gt {
			k++
		}
		lo = max(lo, k)
	default:
		return false
	}
	if !noHi && lo > hi || lo > MaxValue || lo < -MaxValue || !noHi && (hi > MaxValue || hi < -MaxValue) {
		return false // no initial value left, or one past the limit
	}
	v.Init, v.InitHi, v.InitNoHi = int(lo), int(hi), noHi
	v.InitRange = noHi || hi > lo
	if !v.InitRange {
		v.InitHi = 0
	}
	v.InitTerm, v.InitHiTerm, v.InitText = presburger.Term{}, presburger.Term{}, ""
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
