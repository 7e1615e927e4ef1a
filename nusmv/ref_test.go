package nusmv

// Reference semantics for the tests, written from the paper's definitions
// and independent of the emitters: configurations, the counter model's
// existential abstraction by enumeration, brute-force certification
// (Theorem 6), explicit graphs of the counter model and of the concrete
// system, and CTL over them.

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// compositions returns every way to put q processes into k states.
func compositions(q, k int) [][]int {
	if k == 1 {
		return [][]int{{q}}
	}
	var out [][]int
	for x := 0; x <= q; x++ {
		for _, rest := range compositions(q-x, k-1) {
			out = append(out, append([]int{x}, rest...))
		}
	}
	return out
}

// configs returns every configuration y[g][s] of sys.
func configs(sys *gsst.System) [][][]int {
	out := [][][]int{{}}
	for _, G := range sys.Groups {
		var next [][][]int
		for _, c := range compositions(G.Size, len(sys.States)) {
			for _, y := range out {
				next = append(next, append(append([][]int(nil), y...), c))
			}
		}
		out = next
	}
	return out
}

func totals(y [][]int, k int) []int {
	a := make([]int, k)
	for _, row := range y {
		for s, c := range row {
			a[s] += c
		}
	}
	return a
}

// enabledIn reports whether some process may take t in configuration y
// (Definition 3).
func enabledIn(sys *gsst.System, t *gsst.Transition, y [][]int) bool {
	val := sys.Valuation(y)
	for g := range sys.Groups {
		if y[g][t.From] == 0 {
			continue
		}
		if b := t.BlockOf(g); b != nil && presburger.Eval(b.Guard, val) {
			return true
		}
	}
	return false
}

// certifiedBrute decides full virtual symmetry by Theorem 6: every
// transition's domain is a union of orbits, i.e. configurations with equal
// total counters agree on whether the transition is enabled.
func certifiedBrute(sys *gsst.System) bool {
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		seen := map[string]bool{}
		for _, y := range configs(sys) {
			k := fmt.Sprint(totals(y, len(sys.States)))
			e := enabledIn(sys, t, y)
			if prev, ok := seen[k]; ok && prev != e {
				return false
			}
			seen[k] = e
		}
	}
	return true
}

func vecEq(v []int) presburger.Formula {
	var cs []presburger.Formula
	for i, x := range v {
		cs = append(cs, presburger.Compare(presburger.VarTerm(presburger.Var(i)), presburger.Eq, presburger.ConstTerm(int64(x))))
	}
	return presburger.Conj(cs...)
}

// refModel builds the counter model by definition: g_r holds at a counter
// vector a iff some configuration with totals a enables r (the existential
// abstraction of section 5). Transitions whose guards use total counters
// only get the paper's case (a)/(b) formula, checked here against the
// enumeration; the others get the enumerated set as a disjunction.
func refModel(sys *gsst.System) (*counterabs.Model, error) {
	k := len(sys.States)
	var trans []counterabs.Transition
	cfgs := configs(sys)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		en := map[string][]int{}
		var keys []string
		for _, y := range cfgs {
			a := totals(y, k)
			key := fmt.Sprint(a)
			if _, ok := en[key]; ok || !enabledIn(sys, t, y) {
				continue
			}
			en[key] = a
			keys = append(keys, key)
		}
		sort.Strings(keys)
		var enumerated []presburger.Formula
		for _, key := range keys {
			enumerated = append(enumerated, vecEq(en[key]))
		}
		ct := counterabs.Transition{From: t.From, To: t.To, Local: i, Group: -1, Case: counterabs.CaseProjection, Guard: presburger.Disj(enumerated...)}
		allTotal := true
		var gs []presburger.Formula
		for _, b := range t.Blocks {
			allTotal = allTotal && sys.IsTotal(b.Guard)
			gs = append(gs, b.Guard)
		}
		if allTotal {
			g := presburger.Conj(presburger.Compare(presburger.VarTerm(presburger.Var(t.From)), presburger.Ge, presburger.ConstTerm(1)), presburger.Disj(gs...))
			// Check the compact formula against the enumeration.
			for _, c := range compositions(sys.N(), k) {
				_, want := en[fmt.Sprint(c)]
				if got := presburger.Eval(g, vecVal(c)); got != want {
					return nil, fmt.Errorf("refModel: case (a)/(b) guard of %s disagrees with enumeration at %v", sys.TransitionName(t), c)
				}
			}
			ct.Guard, ct.Case = g, counterabs.CaseB
			if len(t.Blocks) == 1 {
				ct.Case = counterabs.CaseA
			}
		}
		trans = append(trans, ct)
	}
	return counterabs.Assemble(sys, counterabs.TotalLevel, trans, certifiedBrute(sys))
}

func vecVal(a []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if v >= 0 && int(v) < len(a) {
			return int64(a[v])
		}
		return 0
	}
}

// refGraph is an explicit transition system with string-keyed states.
type refGraph struct {
	keys  []string
	index map[string]int
	succ  [][]int
	init  int
	atom  func(state int, f presburger.Formula) bool
}

func newRefGraph() *refGraph { return &refGraph{index: map[string]int{}} }

func (g *refGraph) add(key string) (int, bool) {
	if i, ok := g.index[key]; ok {
		return i, false
	}
	g.index[key] = len(g.keys)
	g.keys = append(g.keys, key)
	g.succ = append(g.succ, nil)
	return len(g.keys) - 1, true
}

// counterGraph explores the counter model m directly: from a, every
// transition whose guard holds moves one process from From to To; a
// vector where none holds (or, on a forced model, where MayDeadlock
// holds) loops on itself.
func counterGraph(m *counterabs.Model) (*refGraph, error) {
	g := newRefGraph()
	var vecs [][]int
	push := func(a []int) int {
		i, isNew := g.add(fmt.Sprint(a))
		if isNew {
			vecs = append(vecs, a)
		}
		return i
	}
	g.init = push(append([]int(nil), m.Init...))
	for i := 0; i < len(vecs); i++ {
		a := vecs[i]
		var out []int
		for _, t := range m.Transitions {
			if !presburger.Eval(t.Guard, vecVal(a)) {
				continue
			}
			if a[t.From] < 1 {
				return nil, fmt.Errorf("guard of %d -> %d holds at %v with x_from = 0", t.From, t.To, a)
			}
			b := append([]int(nil), a...)
			b[t.From]--
			b[t.To]++
			out = append(out, push(b))
		}
		// A forced model also stutters where the system may be deadlocked.
		if len(out) == 0 || m.MayDeadlock != nil && presburger.Eval(m.MayDeadlock, vecVal(a)) {
			out = append(out, i)
		}
		g.succ[i] = dedup(out)
	}
	g.atom = func(s int, f presburger.Formula) bool { return presburger.Eval(f, vecVal(vecs[s])) }
	return g, nil
}

// concreteProcs lists the processes of sys as the concrete model orders
// them: group by group, and within a group by initial state.
func concreteProcs(sys *gsst.System) (group, init []int) {
	for g := range sys.Groups {
		for s := range sys.States {
			for c := 0; c < sys.Init[g][s]; c++ {
				group = append(group, g)
				init = append(init, s)
			}
		}
	}
	return group, init
}

// concreteGraph explores the concrete system of Definition 3 over process
// vectors: one process moves per step; a configuration where none can
// move loops on itself.
func concreteGraph(sys *gsst.System) *refGraph {
	group, init := concreteProcs(sys)
	k := len(sys.States)
	conf := func(v []int) [][]int {
		y := make([][]int, len(sys.Groups))
		for g := range y {
			y[g] = make([]int, k)
		}
		for i, s := range v {
			y[group[i]][s]++
		}
		return y
	}
	g := newRefGraph()
	var vecs [][]int
	push := func(v []int) int {
		i, isNew := g.add(fmt.Sprint(v))
		if isNew {
			vecs = append(vecs, v)
		}
		return i
	}
	g.init = push(init)
	for i := 0; i < len(vecs); i++ {
		v := vecs[i]
		val := sys.Valuation(conf(v))
		var out []int
		for p, s := range v {
			for j := range sys.Transitions {
				t := &sys.Transitions[j]
				if t.From != s {
					continue
				}
				if b := t.BlockOf(group[p]); b != nil && presburger.Eval(b.Guard, val) {
					w := append([]int(nil), v...)
					w[p] = t.To
					out = append(out, push(w))
				}
			}
		}
		if len(out) == 0 {
			out = []int{i}
		}
		g.succ[i] = dedup(out)
	}
	g.atom = func(s int, f presburger.Formula) bool {
		return presburger.Eval(f, sys.Valuation(conf(vecs[s])))
	}
	return g
}

func dedup(xs []int) []int {
	sort.Ints(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// refCTL turns a ctl.Formula into a cform over g.
func (g *refGraph) refCTL(f ctl.Formula) *cform {
	switch f := f.(type) {
	case ctl.Atom:
		return &cform{op: "atom", atom: func(s int) (bool, error) { return g.atom(s, f.P), nil }}
	case ctl.Not:
		return &cform{op: "not", kids: []*cform{g.refCTL(f.X)}}
	case ctl.Binary:
		op := [...]string{ctl.And: "and", ctl.Or: "or", ctl.Implies: "implies"}[f.Op]
		return &cform{op: op, kids: []*cform{g.refCTL(f.L), g.refCTL(f.R)}}
	case ctl.Unary:
		return &cform{op: f.Op.String(), kids: []*cform{g.refCTL(f.X)}}
	case ctl.Until:
		op := "EU"
		if f.All {
			op = "AU"
		}
		return &cform{op: op, kids: []*cform{g.refCTL(f.L), g.refCTL(f.R)}}
	}
	panic(fmt.Sprintf("unknown CTL formula %T", f))
}

// Random small systems.

var (
	statePool = []string{"N", "T", "C", "A", "E", "U", "case", "next", "x_N", "stutter", "tr", "en_any", "pick", "p_g_1", "W1", "c_N_g", "Idle"}
	groupPool = []string{"g", "w", "A", "init", "r", "X"}
	propPool  = []string{"p", "mutex", "no-deadlock", "AG", "T", "p_inv", "x_N", "reach"}
)

// randomSystem returns a small random GSST with awkward names (NuSMV
// keywords, names that collide with the emitters' own), mixed guards over
// total and group counters and a few random CTL properties.
func randomSystem(r *rand.Rand, maxN int) *gsst.System {
	sys := &gsst.System{Name: "random"}
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
			t.Blocks = append(t.Blocks, block(r, sys, pr[0], gs[:cut]), block(r, sys, pr[0], gs[cut:]))
		} else {
			t.Blocks = append(t.Blocks, block(r, sys, pr[0], gs))
		}
		sys.Transitions = append(sys.Transitions, t)
	}
	pp := r.Perm(len(propPool))
	for i := 0; i < 1+r.Intn(3); i++ {
		f := randomCTL(r, sys, 3)
		sys.Properties = append(sys.Properties, gsst.Property{Name: propPool[pp[i]], Formula: f, Text: ctl.Format(f, sys.VarName)})
	}
	return sys
}

func block(r *rand.Rand, sys *gsst.System, from int, gs []int) gsst.Block {
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

func randomAtom(r *rand.Rand, sys *gsst.System, from int, groups bool) presburger.Formula {
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

func randomGuard(r *rand.Rand, sys *gsst.System, from, depth int) presburger.Formula {
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

func randomCTL(r *rand.Rand, sys *gsst.System, depth int) ctl.Formula {
	if depth == 0 || r.Intn(4) == 0 {
		return ctl.Atom{P: randomAtom(r, sys, 0, false)}
	}
	sub := func() ctl.Formula { return randomCTL(r, sys, depth-1) }
	switch r.Intn(6) {
	case 0:
		return ctl.Not{X: sub()}
	case 1:
		return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: sub(), R: sub()}
	case 2:
		return ctl.Until{All: r.Intn(2) == 0, L: sub(), R: sub()}
	case 3:
		// AG of a state formula: also emitted as INVARSPEC.
		return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Or, L: ctl.Atom{P: randomAtom(r, sys, 0, false)}, R: ctl.Not{X: ctl.Atom{P: randomAtom(r, sys, 0, false)}}}}
	}
	return ctl.Unary{Op: ctl.TempOp(r.Intn(6)), X: sub()}
}

// describe prints a system compactly for failure messages.
func describe(sys *gsst.System) string {
	var b strings.Builder
	fmt.Fprintf(&b, "states %v groups %v init %v\n", sys.States, sys.Groups, sys.Init)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		fmt.Fprintf(&b, "  %s:", sys.TransitionName(t))
		for _, blk := range t.Blocks {
			var gs []string
			for _, g := range blk.Groups {
				gs = append(gs, sys.Groups[g].Name)
			}
			fmt.Fprintf(&b, " [%s] %s;", strings.Join(gs, ","), presburger.Format(blk.Guard, sys.VarName))
		}
		b.WriteString("\n")
	}
	for _, p := range sys.Properties {
		fmt.Fprintf(&b, "  %s: %s\n", p.Name, p.Text)
	}
	return b.String()
}
