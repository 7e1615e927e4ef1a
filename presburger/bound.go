package presburger

import (
	"fmt"
	"strconv"

	"github.com/vsym/vsym/internal/checked"
)

// AtLeast returns the range lo.. of v: no upper bound, as for a counter
// (AtLeast(x, 0)) or a group size of at least one (AtLeast(n, 1)).
func AtLeast(v Var, lo int64) Bound { return Bound{Var: v, Lo: lo, NoHi: true} }

// AnyInt returns the range of v that is every integer.
func AnyInt(v Var) Bound { return Bound{Var: v, NoLo: true, NoHi: true} }

// Finite reports whether both sides of b are closed.
func (b Bound) Finite() bool { return !b.NoLo && !b.NoHi }

// Empty reports whether no integer lies in b.
func (b Bound) Empty() bool { return b.Finite() && b.Lo > b.Hi }

// Contains reports whether x lies in b.
func (b Bound) Contains(x int64) bool {
	return (b.NoLo || b.Lo <= x) && (b.NoHi || x <= b.Hi)
}

// Range prints b's range as lo..hi, with an open side left out: "0..5",
// "1..", "..3", "..".
func (b Bound) Range() string {
	var lo, hi string
	if !b.NoLo {
		lo = strconv.FormatInt(b.Lo, 10)
	}
	if !b.NoHi {
		hi = strconv.FormatInt(b.Hi, 10)
	}
	return lo + ".." + hi
}

// Intersect returns the range of values in both a and b, for a.Var.
func (a Bound) Intersect(b Bound) Bound {
	out := a
	switch {
	case b.NoLo:
	case a.NoLo:
		out.Lo, out.NoLo = b.Lo, false
	default:
		out.Lo = max(a.Lo, b.Lo)
	}
	switch {
	case b.NoHi:
	case a.NoHi:
		out.Hi, out.NoHi = b.Hi, false
	default:
		out.Hi = min(a.Hi, b.Hi)
	}
	return out
}

// checkExistsRanges reports an Exists of f with a variable whose range is
// open: Eval enumerates those ranges, so they must be finite.
func checkExistsRanges(f Formula) error {
	switch f := f.(type) {
	case Not:
		return checkExistsRanges(f.F)
	case And:
		for _, g := range f {
			if err := checkExistsRanges(g); err != nil {
				return err
			}
		}
	case Or:
		for _, g := range f {
			if err := checkExistsRanges(g); err != nil {
				return err
			}
		}
	case Exists:
		for _, b := range f.Vars {
			if !b.Finite() {
				return fmt.Errorf("presburger: variable %d of an Exists has the open range %s; it needs a finite one", b.Var, b.Range())
			}
		}
		return checkExistsRanges(f.Body)
	}
	return nil
}

// Tighten returns b intersected with the values of its variable x that
// satisfy a*x + k op 0: an equality without an integer solution gives
// an empty range, a disequality cuts off an end of a finite range only,
// and coefficients or constants beyond a 1024th of checked.Limit leave
// b as it is (the arithmetic below negates and shifts them).
func (b Bound) Tighten(a, k int64, op Op) Bound {
	const limit = checked.Limit / 1024
	switch {
	case a < -limit || a > limit || k < -limit || k > limit:
		return b
	case a == 0 && op.Holds(k):
		return b
	case a == 0:
		return Bound{Var: b.Var, Lo: 1, Hi: 0}
	}
	if a < 0 {
		a, k, op = -a, -k, op.Converse()
	}
	// a*x op -k, a > 0.
	lo := func(x int64) {
		if b.NoLo || x > b.Lo {
			b.Lo, b.NoLo = x, false
		}
	}
	hi := func(x int64) {
		if b.NoHi || x < b.Hi {
			b.Hi, b.NoHi = x, false
		}
	}
	switch op {
	case Eq:
		if -k%a != 0 {
			return Bound{Var: b.Var, Lo: 1, Hi: 0}
		}
		lo(-k / a)
		hi(-k / a)
	case Ne:
		if -k%a == 0 && b.Finite() {
			switch x := -k / a; {
			case x == b.Lo:
				lo(x + 1)
			case x == b.Hi:
				hi(x - 1)
			}
		}
	case Le:
		hi(checked.FloorDiv(-k, a))
	case Lt:
		hi(checked.FloorDiv(-k-1, a))
	case Ge:
		lo(checked.CeilDiv(-k, a))
	case Gt:
		lo(checked.CeilDiv(-k+1, a))
	}
	return b
}

// Fixed returns the variables that f, a guard, fixes to one value: by
// its top-level conjuncts that compare one variable with a constant (a
// boolean's test, lock - 1 != 0, included), within the variables'
// domains dom (a variable dom leaves out ranges over every integer).
func Fixed(f Formula, dom map[Var]Bound) map[Var]int64 {
	out := map[Var]int64{}
	for v, b := range Narrowed(f, dom) {
		if b.Finite() && b.Lo == b.Hi {
			out[v] = b.Lo
		}
	}
	return out
}

// Narrowed returns the range of each variable that a top-level conjunct
// of f compares with a constant, within its domain in dom (every
// integer when dom leaves it out): the box every state of f lies in,
// on those variables. The range may be empty.
func Narrowed(f Formula, dom map[Var]Bound) map[Var]Bound {
	rng := map[Var]Bound{}
	var walk func(f Formula)
	atom := func(c Cmp, op Op) {
		if len(c.T.Monos) != 1 {
			return
		}
		v := c.T.Monos[0].Var
		b, ok := rng[v]
		if !ok {
			b, ok = dom[v]
			if !ok {
				b = AnyInt(v)
			}
		}
		rng[v] = b.Tighten(c.T.Monos[0].Coef, c.T.Const, op)
	}
	walk = func(g Formula) {
		switch g := g.(type) {
		case And:
			for _, h := range g {
				walk(h)
			}
		case Cmp:
			atom(g, g.Op)
		case Not:
			if c, ok := g.F.(Cmp); ok {
				atom(c, c.Op.Negate())
			}
		}
	}
	walk(f)
	return rng
}
