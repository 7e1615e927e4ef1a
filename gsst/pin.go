package gsst

import (
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// A parameter that the assumption pins to one value ("assume: k2 = 2",
// a constant written as a parameter; "i: k_i" with "k_i = 1", a fixed
// group written over a parameter) has that value in every instance: the
// family is the same as the one with the parameter fixed there, and the
// stages read constants best (mist's consprod with its property's 2 so
// written took 5-10 s where it takes none, Cubicle's crash and mist's
// kanban so written were undecided).

// PinParams returns s with every parameter that the top-level conjuncts
// of the assumption on it alone pin ("k = c", "k >= c & k <= c", "k <= 0"),
// once the values so pinned are folded in ("k = j + 1 & j = 1"),
// fixed at c and folded into every
// formula, as an instance folds it (a group whose size was a term over
// the pinned parameters alone gets that size), and whether it pinned
// any; s itself when none is pinned or a value would break a rule of
// New (a negative value, a group of no process).
func (s *System) PinParams() (*System, bool, error) {
	if s.Assume.Formula == nil {
		return s, false, nil
	}
	// Each parameter's range is what the top-level conjuncts on it
	// alone say, together, from 0 up (a parameter is >= 0): "k2 >= 2 &
	// k2 <= 2", or "x_0 <= 0" that prove's narrowing of an initial
	// value writes, pins as "k2 = 2" and "x_0 = 0" do.
	ranges := map[presburger.Var]presburger.Bound{}
	for _, c := range presburger.Conjuncts(presburger.SplitZeroSums(s.Assume.Formula, s.nonneg)) {
		a, ok := c.(presburger.Cmp)
		if !ok || len(a.T.Monos) != 1 {
			continue
		}
		x := a.T.Monos[0].Var
		if k, isParam := s.ParamOf(x); !isParam || s.Params[k].Fixed {
			continue
		}
		r, seen := ranges[x]
		if !seen {
			r = presburger.Bound{Var: x, Lo: 0, NoHi: true}
		}
		if in, ok := presburger.AtomRange(a, r); ok {
			ranges[x] = in
		}
	}
	value := map[presburger.Var]int64{}
	for x, in := range ranges {
		if !in.Finite() || in.Lo != in.Hi || in.Lo < 0 || in.Lo > MaxConstant {
			continue
		}
		value[x] = in.Lo
	}
	if len(value) == 0 {
		return s, false, nil
	}
	sub := func(v presburger.Var) presburger.Term {
		if c, ok := value[v]; ok {
			return presburger.ConstTerm(c)
		}
		return presburger.VarTerm(v)
	}
	spec := s.Spec()
	for v, c := range value {
		k, _ := s.ParamOf(v)
		spec.Params[k].Fixed, spec.Params[k].Value = true, int(c)
	}
	// Folding is exact: a result that does not fit leaves s as it is.
	fits := true
	fold := func(f presburger.Formula) presburger.Formula {
		if f == nil {
			return nil
		}
		g, ok := presburger.SubstExact(f, sub)
		fits = fits && ok
		return g
	}
	foldTerm := func(t presburger.Term) presburger.Term {
		u, ok := t.SubstExact(sub)
		fits = fits && ok
		return u
	}
	spec.mapFormulas(fold, foldTerm)
	for j := range spec.Shared {
		// An initial value over the parameters (a term with variables)
		// becomes the constant it may now be.
		v := &spec.Shared[j]
		if !v.InitTerm.IsConst() {
			if v.InitTerm = foldTerm(v.InitTerm); v.InitTerm.IsConst() {
				v.Init = int(v.InitTerm.Const)
			}
		}
		if !v.InitHiTerm.IsConst() {
			if v.InitHiTerm = foldTerm(v.InitHiTerm); v.InitHiTerm.IsConst() {
				v.InitHi = int(v.InitHiTerm.Const)
			}
		}
	}
	for g := range spec.Groups {
		grp := &spec.Groups[g]
		if !grp.OverParams() {
			continue
		}
		t := foldTerm(grp.SizeTerm)
		if !t.IsConst() {
			grp.SizeTerm = t
			continue
		}
		if t.Const < 1 || t.Const > MaxProcesses {
			return s, false, nil // no instance: New's rules say so on s
		}
		first, _ := spec.InitState(g)
		grp.Size, grp.SizeTerm, grp.SizeTermText = int(t.Const), presburger.Term{}, ""
		spec.Init[g][first] = grp.Size
	}
	if !fits || spec.Assume.Formula == presburger.False {
		return s, false, nil // no instance: New's rules say so on s
	}
	pinned, err := New(spec)
	if err != nil {
		return nil, false, errkind.Errorf(errkind.Internal, "gsst: the family %s with its pinned parameters breaks a rule: %w", s.Name, err)
	}
	// A value pinned may pin another parameter through the assumption
	// folded ("k = j + 1 & j = 1": k = 2 once j is 1); each pass fixes
	// one parameter at least, so the passes end.
	more, again, err := pinned.PinParams()
	if err != nil {
		return nil, false, err
	}
	if again {
		pinned = more
	}
	return pinned, true, nil
}
