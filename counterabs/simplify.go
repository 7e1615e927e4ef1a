package counterabs

import (
	"math"
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Absent bounds of an interval.
const (
	noLo = math.MinInt64
	noHi = math.MaxInt64
)

// atomInterval solves c*e + k op 0 (c != 0, op not Ne) for the integer e:
// the result is lo <= e <= hi, with noLo/noHi for a missing side;
// nonEmpty is false when no integer satisfies the atom.
func atomInterval(op presburger.Op, c, k int64) (lo, hi int64, nonEmpty bool) {
	if c < 0 {
		c, k = -c, -k
		switch op {
		case presburger.Ge:
			op = presburger.Le
		case presburger.Gt:
			op = presburger.Lt
		case presburger.Le:
			op = presburger.Ge
		case presburger.Lt:
			op = presburger.Gt
		}
	}
	// c*e op -k
	r := -k
	switch op {
	case presburger.Ge:
		return checked.CeilDiv(r, c), noHi, true
	case presburger.Gt:
		return checked.FloorDiv(r, c) + 1, noHi, true
	case presburger.Le:
		return noLo, checked.FloorDiv(r, c), true
	case presburger.Lt:
		return noLo, checked.CeilDiv(r, c) - 1, true
	case presburger.Eq:
		if r%c != 0 {
			return 0, 0, false
		}
		return r / c, r / c, true
	}
	return noLo, noHi, true // Ne: not an interval; callers avoid it
}

// linBound is lo <= e <= hi for the linear form e = sum Monos, whose
// coefficients have gcd 1 and a positive first coefficient.
type linBound struct {
	key    string
	monos  []presburger.Mono
	lo, hi int64
}

// clause is a conjunction: bounds on linear forms, in order of first
// appearance, plus atoms it cannot read as bounds (kept verbatim).
type clause struct {
	bounds []linBound
	other  []presburger.Formula
	keys   []string // Format of other, for comparison
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func monoKey(ms []presburger.Mono) string {
	var sb strings.Builder
	for _, m := range ms {
		sb.WriteString(strconv.FormatInt(int64(m.Var), 10))
		sb.WriteByte('*')
		sb.WriteString(strconv.FormatInt(m.Coef, 10))
		sb.WriteByte(' ')
	}
	return sb.String()
}

// normalize reads the atoms of one DNF clause as bounds on linear forms
// over counters in 0..n, merging bounds on the same form and dropping
// sides that the counter ranges already imply. ok is false when the
// clause is unsatisfiable on those ranges.
func normalize(atoms []presburger.Formula, states, n int, name func(presburger.Var) string) (cl clause, ok bool) {
	idx := map[string]int{}
	for _, a := range atoms {
		c, isCmp := a.(presburger.Cmp)
		if isCmp && len(c.T.Monos) == 0 {
			// A constant atom built without the folding constructors.
			if !presburger.Eval(c, func(presburger.Var) int64 { return 0 }) {
				return clause{}, false
			}
			continue
		}
		if !isCmp || c.Op == presburger.Ne || !tame(c.T) {
			switch a := a.(type) {
			case presburger.Bool:
				if !a {
					return clause{}, false
				}
				continue
			}
			cl.other = append(cl.other, a)
			cl.keys = append(cl.keys, presburger.Format(a, name))
			continue
		}
		g := int64(0)
		for _, m := range c.T.Monos {
			g = gcd(g, m.Coef)
		}
		if c.T.Monos[0].Coef < 0 {
			g = -g
		}
		monos := make([]presburger.Mono, len(c.T.Monos))
		for i, m := range c.T.Monos {
			monos[i] = presburger.Mono{Var: m.Var, Coef: m.Coef / g}
		}
		lo, hi, nonEmpty := atomInterval(c.Op, g, c.T.Const)
		if !nonEmpty {
			return clause{}, false
		}
		key := monoKey(monos)
		if i, seen := idx[key]; seen {
			b := &cl.bounds[i]
			b.lo, b.hi = max(b.lo, lo), min(b.hi, hi)
			continue
		}
		idx[key] = len(cl.bounds)
		cl.bounds = append(cl.bounds, linBound{key, monos, lo, hi})
	}
	out := cl.bounds[:0]
	for _, b := range cl.bounds {
		// Range of e over counters in 0..n.
		var emin, emax int64
		huge := false
		for _, m := range b.monos {
			huge = huge || m.Coef > gsst.MaxConstant || m.Coef < -gsst.MaxConstant
			if m.Coef > 0 {
				emax += m.Coef * int64(n)
			} else {
				emin += m.Coef * int64(n)
			}
		}
		if unitSum(b.monos, states) {
			// A sum of distinct counters with coefficient 1 lies in 0..n,
			// since all counters sum to n.
			emax = min(emax, int64(n))
		}
		if huge || len(b.monos) > 1000 || !countersOnly(b.monos, states) {
			// Range reasoning could overflow, or the form reads a
			// variable that is no counter (a shared variable, whose
			// range is not 0..n): keep the bound as it is.
			out = append(out, b)
			continue
		}
		lo, hi := max(b.lo, emin), min(b.hi, emax)
		switch {
		case lo > hi:
			return clause{}, false
		case lo == hi:
			// Keep a point as an equation, even at the edge of the range
			// (#C = 0 reads better than #C <= 0).
			b.lo, b.hi = lo, hi
		default:
			if b.lo <= emin {
				b.lo = noLo
			}
			if b.hi >= emax {
				b.hi = noHi
			}
		}
		if b.lo == noLo && b.hi == noHi {
			continue
		}
		out = append(out, b)
	}
	cl.bounds = out
	// On the abstract state space the counters sum to n: the single-counter
	// bounds must leave room for that.
	var sumLo, sumHi int64
	fixed := map[presburger.Var]bool{}
	for _, b := range cl.bounds {
		if len(b.monos) != 1 || int(b.monos[0].Var) >= states {
			continue
		}
		fixed[b.monos[0].Var] = true
		// A counter lies in 0..n: clamping each bound to -1..n+1 keeps
		// the sums exact in int64 and decides the same.
		sumLo += min(max(b.lo, 0), int64(n)+1)
		sumHi += max(min(b.hi, int64(n)), -1)
	}
	sumHi += int64(n) * int64(states-len(fixed))
	if sumLo > int64(n) || sumHi < int64(n) {
		return clause{}, false
	}
	return cl, true
}

// tame reports whether every coefficient and the constant of t lie
// within ±2^62, where the interval arithmetic of normalize (negation,
// rounding division, the sums of clamped bounds) is exact in int64. A
// guard holds only such terms (gsst.MaxConstant); an atom from a
// projection beyond them is kept as it is.
func tame(t presburger.Term) bool {
	const limit = 1 << 62
	if t.Const > limit || t.Const < -limit {
		return false
	}
	for _, m := range t.Monos {
		if m.Coef > limit || m.Coef < -limit {
			return false
		}
	}
	return true
}

// countersOnly reports whether every variable of ms is a counter (below
// states).
func countersOnly(ms []presburger.Mono, states int) bool {
	for _, m := range ms {
		if int(m.Var) < 0 || int(m.Var) >= states {
			return false
		}
	}
	return true
}

// unitSum reports whether ms is a sum of counter variables (each below
// states) with coefficient 1.
func unitSum(ms []presburger.Mono, states int) bool {
	for _, m := range ms {
		if m.Coef != 1 || int(m.Var) < 0 || int(m.Var) >= states {
			return false
		}
	}
	return true
}

// implies reports whether clause a syntactically implies clause b: every
// bound of b is implied by a bound of a on the same form, and every other
// atom of b occurs in a.
func (a *clause) implies(b *clause) bool {
	for _, bb := range b.bounds {
		found := false
		for _, ab := range a.bounds {
			if ab.key == bb.key && ab.lo >= bb.lo && ab.hi <= bb.hi {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	for _, k := range b.keys {
		found := false
		for _, ak := range a.keys {
			if ak == k {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// formula writes the clause back as a conjunction, bounds on the single
// variable first when first >= 0 (the source counter, as the paper
// writes g_r).
func (cl *clause) formula(first presburger.Var) presburger.Formula {
	var atoms []presburger.Formula
	emit := func(b linBound) {
		e := presburger.Term{Monos: b.monos}
		switch {
		case b.lo == b.hi:
			atoms = append(atoms, presburger.Compare(e, presburger.Eq, presburger.ConstTerm(b.lo)))
		default:
			if b.lo != noLo {
				atoms = append(atoms, presburger.Compare(e, presburger.Ge, presburger.ConstTerm(b.lo)))
			}
			if b.hi != noHi {
				atoms = append(atoms, presburger.Compare(e, presburger.Le, presburger.ConstTerm(b.hi)))
			}
		}
	}
	isFirst := func(b linBound) bool {
		return len(b.monos) == 1 && b.monos[0].Var == first && b.monos[0].Coef == 1
	}
	for _, b := range cl.bounds {
		if isFirst(b) {
			emit(b)
		}
	}
	for _, b := range cl.bounds {
		if !isFirst(b) {
			emit(b)
		}
	}
	atoms = append(atoms, cl.other...)
	return presburger.Conj(atoms...)
}

// simplifyClauses turns DNF clauses over total counters into a simplified
// disjunction: bounds are merged, clauses empty on the abstract state
// space (by their bounds) are dropped, clauses syntactically implied by
// another are dropped, and then (when enabled) clauses the solver shows
// implied by the disjunction of the others on the abstract state space.
// Bounds on the variable first are written first.
func (b *builder) simplifyClauses(first presburger.Var, raw [][]presburger.Formula) (presburger.Formula, error) {
	fs := syntactic(raw, len(b.sys.States), b.n, first, b.sys.VarName)
	if len(fs) == 1 && fs[0] == presburger.True {
		return presburger.True, nil
	}
	if b.cfg.simplify && len(fs) > 1 && len(fs) <= b.cfg.maxClauses {
		var err error
		fs, err = b.dropImplied(presburger.True, fs)
		if err != nil {
			return nil, err
		}
	}
	return presburger.Disj(fs...), nil
}

// syntactic is the solver-free part of simplifyClauses. It returns the
// kept clauses as formulas; a clause that is true on the abstract state
// space makes the result the single formula True.
func syntactic(raw [][]presburger.Formula, states, n int, first presburger.Var, name func(presburger.Var) string) []presburger.Formula {
	var cls []clause
	for _, atoms := range raw {
		cl, ok := normalize(atoms, states, n, name)
		if !ok {
			continue
		}
		if len(cl.bounds) == 0 && len(cl.other) == 0 {
			return []presburger.Formula{presburger.True}
		}
		cls = append(cls, cl)
	}
	removed := make([]bool, len(cls))
	for i := range cls {
		for j := range cls {
			if i == j || removed[j] {
				continue
			}
			if cls[i].implies(&cls[j]) && (j < i || !cls[j].implies(&cls[i])) {
				removed[i] = true
				break
			}
		}
	}
	var fs []presburger.Formula
	for i := range cls {
		if !removed[i] {
			fs = append(fs, cls[i].formula(first))
		}
	}
	return fs
}

// dropImplied removes from the disjunction fs every disjunct that, under
// ctx and on the abstract state space, implies the disjunction of the
// disjuncts still kept: one solver call each. A disjunct whose query is
// Unknown is kept (the guard stays correct, only less simple).
func (b *builder) dropImplied(ctx presburger.Formula, fs []presburger.Formula) ([]presburger.Formula, error) {
	m := len(b.sys.States)
	bounds := make([]presburger.Bound, m)
	for s := range bounds {
		bounds[s] = presburger.Bound{Var: presburger.Var(s), Lo: 0, Hi: int64(b.n)}
	}
	bounds = append(bounds, b.shared...)
	dom := domain(m, b.n)
	kept := make([]bool, len(fs))
	for i := range kept {
		kept[i] = true
	}
	for i := range fs {
		var others []presburger.Formula
		for j := range fs {
			if j != i && kept[j] {
				others = append(others, fs[j])
			}
		}
		q := presburger.Conj(dom, ctx, fs[i], presburger.Negation(presburger.Disj(others...)))
		ans, err := b.solver.Solve(b.ctx, presburger.Problem{Bounds: bounds, F: q})
		if err != nil {
			return nil, err
		}
		if ans.Result == presburger.Unsat {
			kept[i] = false
		}
		if ans.Result == presburger.Unknown {
			// The queries are alike: after one runs out of its work
			// (coefficients near 1e9 make each unit slow), the others
			// would too, each spending the whole budget. Keeping the
			// rest is always sound; when to stop depends on work only.
			break
		}
	}
	var out []presburger.Formula
	for i, f := range fs {
		if kept[i] {
			out = append(out, f)
		}
	}
	return out, nil
}
