package presburger

// A translation may write several zero tests as one: "#A = 0 & #B = 0"
// as "#A + #B = 0", "x0 = 0 & ... & x15 = 0" as "x0 + ... + x15 = 0".
// Where every variable of the sum is nonnegative the two say the same,
// and the readers that fold a premise's conjuncts one variable at a time
// (an initial value, a parameter pinned by the assumption) read only the
// second form; SplitZeroSums gives them that form.

// ZeroSum reports the variables of a, when a holds, at values of its
// variables at which nonneg's are nonnegative, exactly where each of
// them is 0: a is "t op 0" with every coefficient of t of one sign and
// every variable nonneg, and op admits t's constant k but none of the
// values t takes where some variable is at least 1 (k + m.. for positive
// coefficients, the least being m; ..k - m for negative ones). The
// variables are in a's order; ok is false when a is not so.
func ZeroSum(a Cmp, nonneg func(Var) bool) (vars []Var, ok bool) {
	if len(a.T.Monos) == 0 {
		return nil, false
	}
	pos, neg := false, false
	var m int64 // the least coefficient's magnitude
	for _, mo := range a.T.Monos {
		if !nonneg(mo.Var) {
			return nil, false
		}
		c := mo.Coef
		switch {
		case c > 0:
			pos = true
		case c < 0:
			neg = true
			if c == -c {
				return nil, false // MinInt64 has no magnitude
			}
			c = -c
		default:
			return nil, false
		}
		if m == 0 || c < m {
			m = c
		}
		vars = append(vars, mo.Var)
	}
	k := a.T.Const
	// The comparisons are of k with -m or m, which do not wrap.
	switch {
	case pos && !neg:
		// t is k, or k+m or more.
		switch a.Op {
		case Eq:
			ok = k == 0
		case Lt: // k < 0 and k + m >= 0
			ok = k < 0 && k >= -m
		case Le: // k <= 0 and k + m > 0
			ok = k <= 0 && k > -m
		}
	case neg && !pos:
		// t is k, or k-m or less.
		switch a.Op {
		case Eq:
			ok = k == 0
		case Gt: // k > 0 and k - m <= 0
			ok = k > 0 && k <= m
		case Ge: // k >= 0 and k - m < 0
			ok = k >= 0 && k < m
		}
	}
	if !ok {
		return nil, false
	}
	return vars, true
}

// SplitZeroSums returns f with each atom that ZeroSum reads as a zero
// test of two or more variables replaced by the conjunction of the atoms
// "x = 0" of its variables (under an Exists nothing is replaced: its
// variables are not nonneg's). The result is equivalent to f wherever
// nonneg's variables are nonnegative, the atoms under a negation
// included.
func SplitZeroSums(f Formula, nonneg func(Var) bool) Formula {
	switch f := f.(type) {
	case Cmp:
		if len(f.T.Monos) < 2 {
			return f
		}
		vars, ok := ZeroSum(f, nonneg)
		if !ok {
			return f
		}
		out := make([]Formula, len(vars))
		for i, v := range vars {
			out[i] = Cmp{Op: Eq, T: VarTerm(v)}
		}
		return Conj(out...)
	case Not:
		return Negation(SplitZeroSums(f.F, nonneg))
	case And:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = SplitZeroSums(g, nonneg)
		}
		return Conj(out...)
	case Or:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = SplitZeroSums(g, nonneg)
		}
		return Disj(out...)
	}
	return f // Bool, Exists
}

// NonnegIn is the nonneg of SplitZeroSums for the variables of bounds
// whose least value is 0 or more.
func NonnegIn(bounds []Bound) func(Var) bool {
	nonneg := map[Var]bool{}
	for _, b := range bounds {
		if !b.NoLo && b.Lo >= 0 {
			nonneg[b.Var] = true
		}
	}
	return func(v Var) bool { return nonneg[v] }
}
