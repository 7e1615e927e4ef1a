package promela

// Random inputs of this package's tests: small systems with names chosen
// to collide with Promela, C and the emitters' own names, and random
// properties biased to the CTL fragment that has LTL equivalents. The
// oracles they are checked against (the unreduced system's reachable
// configurations, Definition 3) are internal/testsupport's.

import (
	"math/rand"
	"sort"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

var (
	statePool = []string{"N", "T", "C", "U", "W", "X", "V", "int", "now", "st", "init", "do", "skip", "true",
		"linux", "unix", "en_any", "x_N", "c_N_g", "counters", "Preader", "uchar", "_pid", "Idle", "main", "A1"}
	groupPool = []string{"g", "w", "reader", "init", "U", "st", "now", "_p", "proctype", "counters"}
	propPool  = []string{"p", "mutex", "no-deadlock", "AG", "U", "X", "ltl", "never", "x_N", "reach", "st", "en_any", "true", "_q"}
)

// randomSystem returns a small random GSST: 2 to 4 local states, 1 to 3
// groups, at most maxN processes, 1 to 5 transitions with guards over
// total and group counters, and 2 to 5 properties (randomProperty).
func randomSystem(r *rand.Rand, maxN int) *gsst.System {
	sys := &gsst.Spec{Name: "random"}
	k := 2 + r.Intn(3)
	perm := r.Perm(len(statePool))
	for i := 0; i < k; i++ {
		sys.States = append(sys.States, statePool[perm[i]])
	}
	d := 1 + r.Intn(3)
	gperm := r.Perm(len(groupPool))
	n := 0
	for i := 0; i < d && n < maxN; i++ {
		size := 1 + r.Intn(2)
		if n+size > maxN {
			size = maxN - n
		}
		sys.Groups = append(sys.Groups, gsst.Group{Name: groupPool[gperm[i]], Size: size})
		n += size
	}
	d = len(sys.Groups)
	for g := 0; g < d; g++ {
		row := make([]int, k)
		for c := 0; c < sys.Groups[g].Size; c++ {
			if r.Intn(3) == 0 {
				row[r.Intn(k)]++
			} else {
				row[0]++
			}
		}
		sys.Init = append(sys.Init, row)
	}
	var pairs [][2]int
	for u := 0; u < k; u++ {
		for v := 0; v < k; v++ {
			if u != v {
				pairs = append(pairs, [2]int{u, v})
			}
		}
	}
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	nt := 1 + r.Intn(min(5, len(pairs)))
	for _, pr := range pairs[:nt] {
		t := gsst.Transition{From: pr[0], To: pr[1]}
		gs := r.Perm(d)
		if r.Intn(5) == 0 && d > 1 {
			gs = gs[:d-1] // some group cannot take it
		}
		if len(gs) > 1 && r.Intn(2) == 0 {
			cut := 1 + r.Intn(len(gs)-1)
			t.Blocks = append(t.Blocks, randomBlock(r, sys, pr[0], gs[:cut]), randomBlock(r, sys, pr[0], gs[cut:]))
		} else {
			t.Blocks = append(t.Blocks, randomBlock(r, sys, pr[0], gs))
		}
		sys.Transitions = append(sys.Transitions, t)
	}
	pp := r.Perm(len(propPool))
	for i := 0; i < 2+r.Intn(4); i++ {
		f := randomProperty(r, sys)
		sys.Properties = append(sys.Properties, gsst.Property{Name: propPool[pp[i]], Formula: f, Text: ctl.Format(f, sys.VarName)})
	}
	checked, err := gsst.New(sys)
	if err != nil {
		panic(err)
	}
	return checked
}

func randomBlock(r *rand.Rand, sys *gsst.Spec, from int, gs []int) gsst.Block {
	gs = append([]int(nil), gs...)
	sort.Ints(gs)
	b := gsst.Block{Groups: gs, Guard: presburger.True}
	if r.Intn(4) != 0 {
		b.Guard = randomGuard(r, sys, from, 2)
		b.Text = presburger.Format(b.Guard, sys.VarName)
	}
	return b
}

var ops = []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}

// randomAtom compares a counter, twice a counter, or a difference or sum
// of two counters with a constant; group counters only when groups is
// true.
func randomAtom(r *rand.Rand, sys *gsst.Spec, from int, groups bool) presburger.Formula {
	n := sys.N()
	var t presburger.Term
	switch {
	case groups && r.Intn(3) == 0:
		s := from
		if r.Intn(4) == 0 {
			s = r.Intn(len(sys.States))
		}
		t = presburger.VarTerm(sys.GroupVar(s, r.Intn(len(sys.Groups))))
	case r.Intn(5) == 0:
		a, b := r.Intn(len(sys.States)), r.Intn(len(sys.States))
		t = presburger.VarTerm(sys.TotalVar(a)).Add(presburger.VarTerm(sys.TotalVar(b)).Scale(int64(r.Intn(3) - 1)))
	default:
		t = presburger.VarTerm(sys.TotalVar(r.Intn(len(sys.States)))).Scale(int64(1 + r.Intn(2)))
	}
	return presburger.Compare(t, ops[r.Intn(len(ops))], presburger.ConstTerm(int64(r.Intn(n+1))))
}

func randomGuard(r *rand.Rand, sys *gsst.Spec, from, depth int) presburger.Formula {
	if depth == 0 || r.Intn(2) == 0 {
		return randomAtom(r, sys, from, true)
	}
	a, b := randomGuard(r, sys, from, depth-1), randomGuard(r, sys, from, depth-1)
	switch r.Intn(4) {
	case 0:
		return presburger.Disj(a, b)
	case 1:
		return presburger.Not{F: a}
	}
	return presburger.Conj(a, b)
}

// randomState returns a state formula: an atom (over group counters only
// with probability 1/8, since those restrict a system to the
// group-counter model), or a negation or boolean combination of two.
func randomState(r *rand.Rand, sys *gsst.Spec, depth int) ctl.Formula {
	if depth == 0 || r.Intn(3) != 0 {
		return ctl.Atom{P: randomAtom(r, sys, r.Intn(len(sys.States)), r.Intn(8) == 0)}
	}
	switch r.Intn(3) {
	case 0:
		return ctl.Not{X: randomState(r, sys, depth-1)}
	}
	return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: randomState(r, sys, depth-1), R: randomState(r, sys, depth-1)}
}

// randomProperty returns, with equal odds, a formula of a shape the
// export handles (AG p, AF p, AG (p -> AF q), A[p U q], EF p, EG p, E[p U
// q], negations and combinations of these), or a random CTL formula of
// depth 3, which may or may not have an LTL equivalent.
func randomProperty(r *rand.Rand, sys *gsst.Spec) ctl.Formula {
	p := func() ctl.Formula { return randomState(r, sys, 2) }
	if r.Intn(2) == 0 {
		return randomCTL(r, sys, 3)
	}
	switch r.Intn(14) {
	case 0:
		return ctl.Unary{Op: ctl.AG, X: p()}
	case 1:
		return ctl.Unary{Op: ctl.AF, X: p()}
	case 2:
		return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: p(), R: ctl.Unary{Op: ctl.AF, X: p()}}}
	case 3:
		return ctl.Until{All: true, L: p(), R: p()}
	case 4:
		return ctl.Unary{Op: ctl.EF, X: p()}
	case 5:
		return ctl.Unary{Op: ctl.EG, X: p()}
	case 6:
		return ctl.Until{L: p(), R: p()}
	case 7:
		return ctl.Not{X: ctl.Unary{Op: ctl.AF, X: p()}}
	case 8:
		return ctl.Unary{Op: ctl.AG, X: ctl.Unary{Op: ctl.AF, X: p()}}
	case 9:
		return ctl.Unary{Op: ctl.EF, X: ctl.Binary{Op: ctl.And, L: p(), R: ctl.Unary{Op: ctl.EG, X: p()}}}
	case 10:
		return ctl.Binary{Op: ctl.Implies, L: p(), R: ctl.Unary{Op: ctl.AG, X: p()}}
	case 11:
		return ctl.Binary{Op: ctl.Or, L: ctl.Unary{Op: ctl.EF, X: p()}, R: ctl.Unary{Op: ctl.EG, X: p()}}
	case 12:
		return ctl.Not{X: ctl.Until{L: p(), R: ctl.Unary{Op: ctl.EF, X: p()}}}
	}
	return ctl.Unary{Op: ctl.AG, X: ctl.Unary{Op: ctl.EF, X: p()}} // no LTL equivalent
}

func randomCTL(r *rand.Rand, sys *gsst.Spec, depth int) ctl.Formula {
	if depth == 0 || r.Intn(4) == 0 {
		return ctl.Atom{P: randomAtom(r, sys, 0, false)}
	}
	sub := func() ctl.Formula { return randomCTL(r, sys, depth-1) }
	switch r.Intn(5) {
	case 0:
		return ctl.Not{X: sub()}
	case 1:
		return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: sub(), R: sub()}
	case 2:
		return ctl.Until{All: r.Intn(2) == 0, L: sub(), R: sub()}
	}
	return ctl.Unary{Op: ctl.TempOp(r.Intn(6)), X: sub()}
}
