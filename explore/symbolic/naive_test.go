package symbolic

import (
	"context"
	"fmt"
	"math/rand"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// This file is an independent, deliberately naive explicit model checker
// for counter models: it enumerates every counter vector summing to N,
// builds the successor lists from the guards with presburger.Eval, and
// evaluates CTL by set fixpoints over vector keys. The BDD engine is
// cross-checked against it.

type naive struct {
	m      *counterabs.Model
	states [][]int        // every vector summing to N
	index  map[string]int // key -> index in states
	succ   [][]int        // successor indices (stutter loop for deadlocks)
	dead   []bool
	reach  []bool
	space  []bool // reach, or everything
}

func key(x []int) string { return fmt.Sprint(x) }

func newNaive(m *counterabs.Model, reachOnly bool) *naive {
	nv := &naive{m: m, index: map[string]int{}}
	k := len(m.Init)
	var rec func(i, left int, cur []int)
	rec = func(i, left int, cur []int) {
		if i == k-1 {
			x := append(append([]int(nil), cur...), left)
			nv.index[key(x)] = len(nv.states)
			nv.states = append(nv.states, x)
			return
		}
		for v := 0; v <= left; v++ {
			rec(i+1, left-v, append(cur, v))
		}
	}
	rec(0, m.N, nil)
	nv.succ = make([][]int, len(nv.states))
	nv.dead = make([]bool, len(nv.states))
	for i, x := range nv.states {
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for _, t := range m.Transitions {
			if x[t.From] == 0 || !presburger.Eval(t.Guard, val) {
				continue
			}
			y := append([]int(nil), x...)
			y[t.From]--
			y[t.To]++
			nv.succ[i] = append(nv.succ[i], nv.index[key(y)])
		}
		if len(nv.succ[i]) == 0 {
			nv.dead[i] = true
			nv.succ[i] = []int{i}
		}
	}
	nv.reach = make([]bool, len(nv.states))
	init := nv.index[key(m.Init)]
	nv.reach[init] = true
	queue := []int{init}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range nv.succ[i] {
			if !nv.reach[j] {
				nv.reach[j] = true
				queue = append(queue, j)
			}
		}
	}
	nv.space = make([]bool, len(nv.states))
	for i := range nv.space {
		nv.space[i] = !reachOnly || nv.reach[i]
	}
	return nv
}

func (nv *naive) counts() (reach, dead int) {
	for i := range nv.states {
		if nv.reach[i] {
			reach++
			if nv.dead[i] {
				dead++
			}
		}
	}
	return
}

type set []bool

func (nv *naive) ex(x set) set {
	out := make(set, len(x))
	for i := range x {
		if !nv.space[i] {
			continue
		}
		for _, j := range nv.succ[i] {
			if x[j] {
				out[i] = true
				break
			}
		}
	}
	return out
}

func (nv *naive) not(x set) set {
	out := make(set, len(x))
	for i := range x {
		out[i] = nv.space[i] && !x[i]
	}
	return out
}

func (nv *naive) eu(l, r set) set {
	z := append(set(nil), r...)
	for changed := true; changed; {
		changed = false
		ex := nv.ex(z)
		for i := range z {
			if !z[i] && l[i] && ex[i] {
				z[i], changed = true, true
			}
		}
	}
	return z
}

func (nv *naive) eg(x set) set {
	z := append(set(nil), x...)
	for changed := true; changed; {
		changed = false
		ex := nv.ex(z)
		for i := range z {
			if z[i] && !ex[i] {
				z[i], changed = false, true
			}
		}
	}
	return z
}

func (nv *naive) sat(f ctl.Formula) set {
	n := len(nv.states)
	switch f := f.(type) {
	case ctl.Atom:
		out := make(set, n)
		for i, x := range nv.states {
			x := x
			out[i] = nv.space[i] && presburger.Eval(f.P, func(v presburger.Var) int64 { return int64(x[v]) })
		}
		return out
	case ctl.Not:
		return nv.not(nv.sat(f.X))
	case ctl.Binary:
		l, r := nv.sat(f.L), nv.sat(f.R)
		out := make(set, n)
		for i := range out {
			switch f.Op {
			case ctl.And:
				out[i] = l[i] && r[i]
			case ctl.Or:
				out[i] = l[i] || r[i]
			default:
				out[i] = nv.space[i] && (!l[i] || r[i])
			}
		}
		return out
	case ctl.Unary:
		x := nv.sat(f.X)
		all := make(set, n)
		copy(all, nv.space)
		switch f.Op {
		case ctl.EX:
			return nv.ex(x)
		case ctl.AX:
			return nv.not(nv.ex(nv.not(x)))
		case ctl.EF:
			return nv.eu(all, x)
		case ctl.AG:
			return nv.not(nv.eu(all, nv.not(x)))
		case ctl.EG:
			return nv.eg(x)
		default: // AF
			return nv.not(nv.eg(nv.not(x)))
		}
	case ctl.Until:
		l, r := nv.sat(f.L), nv.sat(f.R)
		if !f.All {
			return nv.eu(l, r)
		}
		nr := nv.not(r)
		bad := make(set, n)
		for i := range bad {
			bad[i] = nr[i] && !l[i]
		}
		eu, eg := nv.eu(nr, bad), nv.eg(nr)
		out := make(set, n)
		for i := range out {
			out[i] = nv.space[i] && !eu[i] && !eg[i]
		}
		return out
	}
	panic(fmt.Sprintf("naive: %T", f))
}

func (nv *naive) holds(f ctl.Formula) bool { return nv.sat(f)[nv.index[key(nv.m.Init)]] }

// dist returns the BFS distance from the initial state to each state.
func (nv *naive) dist() []int {
	d := make([]int, len(nv.states))
	for i := range d {
		d[i] = -1
	}
	init := nv.index[key(nv.m.Init)]
	d[init] = 0
	queue := []int{init}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range nv.succ[i] {
			if d[j] < 0 {
				d[j] = d[i] + 1
				queue = append(queue, j)
			}
		}
	}
	return d
}

// ---- model builders ----

func system(m int, names ...string) *gsst.System {
	s := &gsst.System{Name: "test"}
	for i := 0; i < m; i++ {
		if i < len(names) {
			s.States = append(s.States, names[i])
		} else {
			s.States = append(s.States, fmt.Sprintf("L%d", i+1))
		}
	}
	return s
}

// counterModel completes s into a system of one group of n processes
// starting as init says, with one unguarded local transition per model
// transition (they only name the moves), and assembles the total-counter
// model with the given transitions.
func counterModel(s *gsst.System, n int, init []int, trans []counterabs.Transition) *counterabs.Model {
	s.Groups = []gsst.Group{{Name: "p", Size: n}}
	s.Init = [][]int{init}
	s.Transitions = nil
	for i := range trans {
		t := &trans[i]
		t.Local, t.Group = i, -1
		s.Transitions = append(s.Transitions, gsst.Transition{From: t.From, To: t.To,
			Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}})
	}
	return reassemble(&counterabs.Model{System: s, Transitions: trans, Exact: true})
}

// reassemble assembles mod's transitions again, after a change to its
// system's properties.
func reassemble(mod *counterabs.Model) *counterabs.Model {
	m, err := counterabs.Assemble(mod.System, counterabs.TotalLevel, mod.Transitions, mod.Exact)
	if err != nil {
		panic(err)
	}
	return m
}

// exploreModel checks every property of mod with a Checker built with
// opts, as the BDD engine does.
func exploreModel(ctx context.Context, mod *counterabs.Model, opts ...Option) (*explore.Report, Stats, error) {
	e, err := New(mod, opts...)
	if err != nil {
		return nil, Stats{}, err
	}
	props, err := explore.NewConfig().SelectProperties(mod)
	if err != nil {
		return nil, Stats{}, err
	}
	rep, err := e.checkProperties(ctx, props)
	return rep, e.Stats(), err
}

func v(i int) presburger.Term   { return presburger.VarTerm(presburger.Var(i)) }
func k(c int64) presburger.Term { return presburger.ConstTerm(c) }

// grw is the counter model of generalized readers/writers: x1..xm, Li ->
// Li+1 free for i <= m-2, L(m-1) -> Lm when x(m-1) >= 1 & xm = 0, Lm -> L1
// free; property AG xm <= 1.
func grw(m, n int) *counterabs.Model {
	s := system(m)
	init := make([]int, m)
	init[0] = n
	var trans []counterabs.Transition
	for i := 0; i < m-2; i++ {
		trans = append(trans, counterabs.Transition{From: i, To: i + 1,
			Guard: presburger.Compare(v(i), presburger.Ge, k(1))})
	}
	trans = append(trans, counterabs.Transition{From: m - 2, To: m - 1,
		Guard: presburger.Conj(presburger.Compare(v(m-2), presburger.Ge, k(1)), presburger.Compare(v(m-1), presburger.Eq, k(0)))})
	trans = append(trans, counterabs.Transition{From: m - 1, To: 0,
		Guard: presburger.Compare(v(m-1), presburger.Ge, k(1))})
	s.Properties = []gsst.Property{{Name: "mutex", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(v(m-1), presburger.Le, k(1))}}}}
	return counterModel(s, n, init, trans)
}

// randomAtom returns a linear comparison over up to three counters.
func randomAtom(r *rand.Rand, m, n int) presburger.Formula {
	t := presburger.ConstTerm(int64(r.Intn(2*n+3) - n - 1))
	for j := 0; j < 1+r.Intn(3); j++ {
		c := int64(r.Intn(7) - 3)
		if c == 0 {
			c = 1
		}
		t = t.Add(v(r.Intn(m)).Scale(c))
	}
	return presburger.Compare(t, presburger.Op(r.Intn(6)), k(0))
}

// randomGuard returns a random formula over m counters; quantifiers occur
// only when quant is set (model guards may have them, properties not).
func randomGuard(r *rand.Rand, m, n, depth int, quant bool) presburger.Formula {
	if depth == 0 || r.Intn(3) == 0 {
		switch r.Intn(12) {
		case 0:
			return presburger.True
		case 1:
			if !quant {
				return randomAtom(r, m, n)
			}
			// A bounded quantifier, to exercise the expansion.
			b := presburger.Var(m + 5)
			return presburger.Exists{Vars: []presburger.Bound{{Var: b, Lo: 0, Hi: 2}},
				Body: presburger.Compare(v(r.Intn(m)), presburger.Eq, presburger.VarTerm(b))}
		}
		return randomAtom(r, m, n)
	}
	a, b := randomGuard(r, m, n, depth-1, quant), randomGuard(r, m, n, depth-1, quant)
	switch r.Intn(3) {
	case 0:
		return presburger.And{a, b}
	case 1:
		return presburger.Or{a, b}
	}
	return presburger.Not{F: a}
}

func randomModel(r *rand.Rand) *counterabs.Model {
	m := 2 + r.Intn(3)
	n := 1 + r.Intn(5)
	init := make([]int, m)
	left := n
	for i := 0; i < m-1; i++ {
		x := r.Intn(left + 1)
		init[i] = x
		left -= x
	}
	init[m-1] = left
	var trans []counterabs.Transition
	nt := 1 + r.Intn(2*m)
	for i := 0; i < nt; i++ {
		from := r.Intn(m)
		to := r.Intn(m - 1)
		if to >= from {
			to++
		}
		g := randomGuard(r, m, n, 2, true)
		if r.Intn(2) == 0 {
			// Counterabs guards imply x_From >= 1; half the models keep
			// that shape, the other half rely on the engine adding it.
			g = presburger.Conj(presburger.Compare(v(from), presburger.Ge, k(1)), g)
		}
		trans = append(trans, counterabs.Transition{From: from, To: to, Guard: g})
	}
	return counterModel(system(m), n, init, trans)
}

func randomCTL(r *rand.Rand, m, n, depth int) ctl.Formula {
	if depth == 0 || r.Intn(4) == 0 {
		return ctl.Atom{P: randomGuard(r, m, n, 1, false)}
	}
	switch r.Intn(10) {
	case 0:
		return ctl.Not{X: randomCTL(r, m, n, depth-1)}
	case 1:
		return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: randomCTL(r, m, n, depth-1), R: randomCTL(r, m, n, depth-1)}
	case 2, 3:
		return ctl.Until{All: r.Intn(2) == 0, L: randomCTL(r, m, n, depth-1), R: randomCTL(r, m, n, depth-1)}
	}
	return ctl.Unary{Op: ctl.TempOp(r.Intn(6)), X: randomCTL(r, m, n, depth-1)}
}

// asr is the counter model of asymmetric sharing of resources as
// specs.ASR(n, r, b) defines it: counters N, W1..Wr, C1..Cr; N -> Wj when
// #Wj + #Cj < b, Wj -> Cj when #Cj = 0, Cj -> N free. Properties: all_used
// (EF all Cj > 0) and mutexj (AG #Cj <= 1).
func asr(n, r, bound int) *counterabs.Model {
	names := []string{"N"}
	for j := 1; j <= r; j++ {
		names = append(names, fmt.Sprintf("W%d", j))
	}
	for j := 1; j <= r; j++ {
		names = append(names, fmt.Sprintf("C%d", j))
	}
	s := system(2*r+1, names...)
	init := make([]int, 2*r+1)
	init[0] = n
	var trans []counterabs.Transition
	w := func(j int) int { return j }
	c := func(j int) int { return r + j }
	ge1 := func(i int) presburger.Formula { return presburger.Compare(v(i), presburger.Ge, k(1)) }
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: 0, To: w(j),
			Guard: presburger.Conj(ge1(0), presburger.Compare(v(w(j)).Add(v(c(j))), presburger.Lt, k(int64(bound))))})
	}
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: w(j), To: c(j),
			Guard: presburger.Conj(ge1(w(j)), presburger.Compare(v(c(j)), presburger.Eq, k(0)))})
	}
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: c(j), To: 0, Guard: ge1(c(j))})
	}
	var all []presburger.Formula
	for j := 1; j <= r; j++ {
		all = append(all, presburger.Compare(v(c(j)), presburger.Gt, k(0)))
	}
	s.Properties = append(s.Properties, gsst.Property{Name: "all_used", Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: presburger.Conj(all...)}}})
	for j := 1; j <= r; j++ {
		s.Properties = append(s.Properties, gsst.Property{Name: fmt.Sprintf("mutex%d", j),
			Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(v(c(j)), presburger.Le, k(1))}}})
	}
	return counterModel(s, n, init, trans)
}
