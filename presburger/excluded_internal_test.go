package presburger

import (
	"math/rand"
	"testing"
)

// TestDropExcludedRandom: inside the domain, inv & bad and inv &
// dropExcluded(inv, bad, domain) have the same solutions, enumerated
// point by point, on random conjunctions inv and disjunctions bad of
// conjunctions over three variables (domains with open upper ends
// included, enumerated up to a cut), every other one written as the
// negation of a conjunction of negations ("AG (!c1 & !c2)" asks that
// bad); and disjuncts are dropped in both forms (the check is not
// vacuous: a version that read only a top-level Or drops none of the
// negated ones). A version that dropped a disjunct with a
// solution, one whose interval arithmetic took the wrong end say,
// fails here.
func TestDropExcludedRandom(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	cases, dropped, droppedNeg := 2000, 0, 0
	if testing.Short() {
		cases = 500
	}
	atom := func(nvars int) Formula {
		var tm Term
		for k := 1 + r.Intn(nvars); k > 0; k-- {
			tm = tm.Add(VarTerm(Var(r.Intn(3))).Scale(int64(r.Intn(7) - 3)))
		}
		tm = tm.Add(ConstTerm(int64(r.Intn(11) - 5)))
		return Compare(tm, Op(r.Intn(6)), ConstTerm(0))
	}
	for i := range cases {
		var domain, box []Bound
		for v := Var(0); v < 3; v++ {
			lo := int64(r.Intn(5) - 2)
			b := Bound{Var: v, Lo: lo, Hi: lo + int64(r.Intn(5))}
			box = append(box, b)
			if r.Intn(3) == 0 {
				b.Hi, b.NoHi = 0, true // open above: the enumeration cuts it
			}
			domain = append(domain, b)
		}
		var ineqs []Formula
		for k := 1 + r.Intn(3); k > 0; k-- {
			ineqs = append(ineqs, atom(3))
		}
		inv := Conj(ineqs...)
		var ds []Formula
		for k := 2 + r.Intn(5); k > 0; k-- {
			var as []Formula
			for j := 1 + r.Intn(3); j > 0; j-- {
				as = append(as, atom(1+r.Intn(2)/2*2)) // mostly one variable
			}
			ds = append(ds, Conj(as...))
		}
		bad := Disj(ds...)
		negated := i%2 == 1
		if negated {
			nots := make([]Formula, len(ds))
			for k, d := range ds {
				nots[k] = Negation(d)
			}
			bad = Not{Conj(nots...)}
		}
		got := dropExcluded(inv, bad, domain)
		if len(DNF(got)) < len(DNF(bad)) {
			dropped++
			if negated {
				droppedNeg++
			}
		}
		checkSameInside(t, i, inv, bad, got, box)
	}
	if dropped < cases/10 || droppedNeg < cases/20 {
		t.Errorf("disjuncts dropped in %d of %d cases, %d of them negated conjunctions: the test exercises too little", dropped, cases, droppedNeg)
	}
	t.Logf("%d cases, disjuncts dropped in %d, %d of them negated conjunctions", cases, dropped, droppedNeg)
}

// checkSameInside fails when inv & bad and inv & got differ at a point
// of box (three variables).
func checkSameInside(t *testing.T, i int, inv, bad, got Formula, box []Bound) {
	t.Helper()
	vals := map[Var]int64{}
	val := func(v Var) int64 { return vals[v] }
	var rec func(j int)
	rec = func(j int) {
		if j == len(box) {
			if Eval(Conj(inv, bad), val) != Eval(Conj(inv, got), val) {
				t.Fatalf("case %d: inv %s, bad %s: dropExcluded gives %s, which differs at x=%d y=%d z=%d",
					i, Format(inv, varName), Format(bad, varName), Format(got, varName), vals[0], vals[1], vals[2])
			}
			return
		}
		for x := box[j].Lo; x <= box[j].Hi; x++ {
			vals[Var(j)] = x
			rec(j + 1)
		}
	}
	rec(0)
}

// TestDropExcludedNarrowed is TestDropExcludedRandom where inv's own
// comparisons narrow the box: a variable inv fixes (x = 0, as a
// group's copy of a state it never enters), and a sum of variables
// pushing one way against a bound (x + 2*y = 3 bounds both), so that a
// disjunct's comparison of two variables, one of them fixed at 0, is
// read as a bound of the other. Disjuncts of such comparisons only are
// dropped (the check is not vacuous), and never one with a solution:
// a version that took a variable's lower bound for 0 in the sum, or
// read a sum with a negative coefficient, fails here.
func TestDropExcludedNarrowed(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	cases, droppedPair := 3000, 0
	if testing.Short() {
		cases = 800
	}
	term := func(vars []Var, pos bool) Term {
		var tm Term
		for _, v := range vars {
			c := int64(1 + r.Intn(3))
			if !pos && r.Intn(4) == 0 {
				c = -c
			}
			tm = tm.Add(VarTerm(v).Scale(c))
		}
		return tm
	}
	for i := range cases {
		var domain, box []Bound
		for v := Var(0); v < 3; v++ {
			lo := int64(r.Intn(3) - 1)
			b := Bound{Var: v, Lo: lo, Hi: lo + 2 + int64(r.Intn(4))}
			box = append(box, b)
			if r.Intn(2) == 0 {
				b.Hi, b.NoHi = 0, true
			}
			domain = append(domain, b)
		}
		perm := r.Perm(3)
		fixed, a, b := Var(perm[0]), Var(perm[1]), Var(perm[2])
		var facts []Formula
		if r.Intn(4) > 0 {
			facts = append(facts, Compare(VarTerm(fixed), Eq, ConstTerm(0)))
		}
		sum := term([]Var{a, b}, r.Intn(3) > 0)
		ops := []Op{Le, Lt, Eq, Ge}
		op := ops[r.Intn(len(ops))]
		if op == Ge {
			sum = sum.Scale(-1)
		}
		facts = append(facts, Compare(sum, op, ConstTerm(int64(r.Intn(5)))))
		if r.Intn(2) == 0 {
			facts = append(facts, Compare(term([]Var{a, b, fixed}, false), Op(r.Intn(6)), ConstTerm(int64(r.Intn(7)-2))))
		}
		inv := Conj(facts...)
		var ds []Formula
		pairs := map[int]bool{}
		for k := 2 + r.Intn(5); k > 0; k-- {
			var as []Formula
			pair := r.Intn(2) == 0
			pairs[len(ds)] = pair
			for j := 1 + r.Intn(2); j > 0; j-- {
				vars := []Var{[]Var{a, b}[r.Intn(2)]}
				if pair {
					vars = append(vars, fixed)
				}
				as = append(as, Compare(term(vars, true), Op(r.Intn(6)), ConstTerm(int64(r.Intn(9)))))
			}
			ds = append(ds, Conj(as...))
		}
		bad := Disj(ds...)
		got := dropExcluded(inv, bad, domain)
		kept := map[string]bool{}
		left, ok := got.(Or)
		if !ok {
			left = Or{got}
		}
		for _, d := range left {
			kept[Format(d, varName)] = true
		}
		for k, d := range ds {
			if pairs[k] && !kept[Format(d, varName)] {
				droppedPair++
				break
			}
		}
		checkSameInside(t, i, inv, bad, got, box)
	}
	if droppedPair < cases/20 {
		t.Errorf("a disjunct comparing two variables dropped in %d of %d cases: the test exercises too little", droppedPair, cases)
	}
	t.Logf("%d cases, a disjunct comparing two variables dropped in %d", cases, droppedPair)
}
