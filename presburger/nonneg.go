package presburger

import "math"

// FoldNonnegative replaces every atom of f whose truth follows from all
// its variables being nonnegative by true or false: "t op 0" where every
// coefficient of t has one sign, so that t ranges over k.. or ..k (k its
// constant) and that half-line lies wholly on one side of zero. The
// result is equivalent to f wherever every free variable is nonnegative.
// Exists is left as it is.
//
// It is FoldBounds for variables with no upper bound (counters and group
// sizes of unbounded instances): the "x < 0" half of a negated "x = 0"
// goes without a box to fold it in.
func FoldNonnegative(f Formula) Formula { return foldAtoms(f, signRange) }

// signRange is the range of t over nonnegative variables, with MinInt64
// and MaxInt64 standing for -inf and +inf (holdsOn only compares the ends
// with 0, so they act as infinities).
func signRange(t Term) (lo, hi int64, ok bool) {
	lo, hi = math.MinInt64, math.MaxInt64
	pos, neg := false, false
	for _, m := range t.Monos {
		pos, neg = pos || m.Coef > 0, neg || m.Coef < 0
	}
	switch {
	case !neg:
		lo = t.Const
	case !pos:
		hi = t.Const
	}
	return lo, hi, true
}
