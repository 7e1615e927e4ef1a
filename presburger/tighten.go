package presburger

import (
	"math"

	"github.com/vsym/vsym/internal/checked"
)

// Tighten returns f with every comparison whose variables' coefficients
// share a factor g > 1 divided by it, the constant rounded the way that
// keeps the same integer solutions: "2*x < 2*f" is "x - f + 1 <= 0",
// "2*x = 3" is false. An equation or disequation of one variable with a
// negative coefficient is turned around ("3 = x" is "x - 3 = 0"); any
// other comparison without such a factor is kept as it is written. Translations that scale a guard ("2 * s27 < 2 * F" for ByMC's
// "s27 < F") then give the steps the same atoms as the original.
func Tighten(f Formula) Formula {
	switch f := f.(type) {
	case Cmp:
		return tightenCmp(f)
	case Not:
		return Not{Tighten(f.F)}
	case And:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = Tighten(g)
		}
		return Conj(out...)
	case Or:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = Tighten(g)
		}
		return Disj(out...)
	}
	return f
}

func tightenCmp(c Cmp) Formula {
	// An equation (or its negation) of one variable reads the same
	// either way round; written "3 = x" (3 - x = 0) it is turned to the
	// way "x = 3" reads, for the readers that match a variable's
	// equation by its form (a target's cube, the backward search's bad
	// states). One of several variables is left as written, which is
	// how the proofs print it ("#Taken = 2*#Working").
	if (c.Op == Eq || c.Op == Ne) && len(c.T.Monos) == 1 && c.T.Monos[0].Coef < 0 {
		if n, ok := c.T.ScaleExact(-1); ok {
			c.T = n
		}
	}
	var g int64
	for _, m := range c.T.Monos {
		if m.Coef == math.MinInt64 {
			return c
		}
		g = gcd(g, abs64(m.Coef))
	}
	k := c.T.Const
	if g <= 1 || k == math.MinInt64 || k == math.MaxInt64 {
		return c
	}
	op := c.Op
	switch op { // t < 0 is t + 1 <= 0, t > 0 is t - 1 >= 0
	case Lt:
		op, k = Le, k+1
	case Gt:
		op, k = Ge, k-1
	}
	switch op {
	case Le: // sum <= -k: sum/g <= floor(-k/g)
		k = checked.CeilDiv(k, g)
	case Ge: // sum >= -k: sum/g >= ceil(-k/g)
		k = checked.FloorDiv(k, g)
	case Eq, Ne:
		if k%g != 0 {
			return Bool(op == Ne)
		}
		k /= g
	}
	monos := make([]Mono, len(c.T.Monos))
	for i, m := range c.T.Monos {
		monos[i] = Mono{m.Var, m.Coef / g}
	}
	return Cmp{op, Term{Monos: monos, Const: k}}
}
