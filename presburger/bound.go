package presburger

import (
	"fmt"
	"strconv"
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

// intersect returns the range of values in both a and b, for a.Var.
func (a Bound) intersect(b Bound) Bound {
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
