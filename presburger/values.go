package presburger

import (
	"slices"

	"github.com/vsym/vsym/internal/checked"
)

// SolveByValues decides p without a search when every atom of p.F
// reads one variable at most (a*v + c op 0, as a guard "x >= 1" or a
// controller's "net = 3" does), trying at most limit assignments; ok is
// false when an atom reads two variables or more, p.F has an Exists, a
// constant is too large to step around exactly, or more assignments
// would be needed.
//
// Such an atom's truth changes only around -c/a: it is the same for
// every integer below that point, at it, and above it. So for each
// variable, the integers next to each of its atoms' points (floor-1,
// floor and floor+1 of the point) and the ends of its range meet every
// interval of values on which all its atoms keep their truth, and p has
// a model exactly when one of the assignments drawn from them is one.
// That is a few evaluations where Quick's elimination and search cost
// about a hundred microseconds even for one atom.
func SolveByValues(p Problem, limit int) (a Answer, ok bool) {
	if p.F == nil || !IsQuantifierFree(p.F) {
		return Answer{}, false
	}
	bounds := Intersect(p.Bounds)
	ranges := make(map[Var]Bound, len(bounds))
	for _, b := range bounds {
		if b.Empty() {
			return Answer{Result: Unsat}, true
		}
		ranges[b.Var] = b
	}
	points := map[Var][]int64{}
	for c := range Atoms(p.F) {
		if len(c.T.Monos) == 0 {
			continue
		}
		m := c.T.Monos[0]
		// Beyond 2^61 the neighbours of the point, or the point
		// itself, could leave int64.
		const most = int64(1) << 61
		if len(c.T.Monos) > 1 || m.Coef <= -most || m.Coef >= most || c.T.Const <= -most || c.T.Const >= most {
			return Answer{}, false
		}
		num, den := -c.T.Const, m.Coef // the point num/den
		if den < 0 {
			num, den = -num, -den
		}
		f := checked.FloorDiv(num, den)
		points[m.Var] = append(points[m.Var], f-1, f, f+1)
	}
	vars := FreeVars(p.F)
	values := make([][]int64, len(vars))
	total := 1
	for i, v := range vars {
		r, bounded := ranges[v]
		if !bounded {
			return Answer{}, false // Solve's callers report a variable without a range
		}
		vs := points[v]
		if !r.NoLo {
			vs = append(vs, r.Lo)
		}
		if !r.NoHi {
			vs = append(vs, r.Hi)
		}
		vs = slices.DeleteFunc(vs, func(x int64) bool { return !r.Contains(x) })
		slices.Sort(vs)
		values[i] = slices.Compact(vs)
		if total *= len(values[i]); total > limit {
			return Answer{}, false
		}
	}
	// Every variable of F has a value in its range here (its range is
	// not empty and meets an interval of each atom's truth).
	at := make([]int, len(vars))
	val := make(map[Var]int64, len(bounds))
	for _, b := range bounds {
		val[b.Var] = inRange(b)
	}
	read := func(v Var) int64 { return val[v] }
	for {
		for i, v := range vars {
			val[v] = values[i][at[i]]
		}
		if Eval(p.F, read) {
			return Answer{Result: Sat, Model: Model(val)}, true
		}
		i := 0
		for ; i < len(at); i++ {
			if at[i]++; at[i] < len(values[i]) {
				break
			}
			at[i] = 0
		}
		if i == len(at) {
			return Answer{Result: Unsat}, true
		}
	}
}

// inRange is a value of the nonempty range b: its low end, else its
// high end, else 0.
func inRange(b Bound) int64 {
	switch {
	case !b.NoLo:
		return b.Lo
	case !b.NoHi:
		return b.Hi
	}
	return 0
}
