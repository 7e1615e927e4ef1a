package testsupport

import (
	"fmt"
	"math/rand"
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Guards says which counters the guards of random systems read.
type Guards int

const (
	// MixedGuards draws one of the styles below per system.
	MixedGuards Guards = iota
	// TotalGuards: total counters only (the paper's cases a and b); the
	// blocks of half the transitions share one guard.
	TotalGuards
	// SourceGuards: also group counters of the transition's source state
	// (case c).
	SourceGuards
	// AnyGuards: also group counters of any state (projection).
	AnyGuards
	// PriorityGuards: one total-counter guard shared by the blocks of a
	// transition, block i also waiting until no process of the groups of
	// blocks before it is in the source state (readers/writers, GR&W).
	PriorityGuards
	numGuards
)

// Config says what RandomSystem draws. The zero value draws the default
// of each field.
type Config struct {
	MaxStates   int  // local states 2..MaxStates (default 4)
	MaxGroups   int  // groups 1..MaxGroups (default 3)
	MaxSize     int  // group sizes 1..MaxSize (default 3)
	EmptyGroups bool // sizes from 0: groups without processes, which gsst.New allows
	// MaxProcesses and MaxConfigs bound the processes n and the
	// process-indexed configurations m^n; larger draws are redrawn
	// (defaults: none, and 1<<14, which keeps BruteForce fast).
	MaxProcesses, MaxConfigs int
	MaxTransitions           int // 1..MaxTransitions, over distinct pairs of states (default 3)
	Guards                   Guards
	// Properties is the number of random CTL properties (default none);
	// GroupProperties lets their atoms read group counters.
	Properties      int
	GroupProperties bool
	// AwkwardNames takes names from lists of words that are keywords of
	// NuSMV or collide with the names vsym's emitters make up.
	AwkwardNames bool
	// Ranges draws parametric systems: some group sizes (at least one)
	// become ranges k..j (j at most BoxMax) or k.. (k at most 2, every
	// process of such a group starting in one state). MaxConfigs then bounds the
	// configurations of all the instances of Box(sys, BoxMax) together
	// (default BoxMax 3). NGuards lets guards and properties compare
	// counters with n (presburger.Var sys.NVar()), strengthening or
	// weakening a quarter of the blocks' guards each.
	Ranges  bool
	BoxMax  int
	NGuards bool
}

func (c Config) withDefaults() Config {
	def := func(x *int, d int) {
		if *x == 0 {
			*x = d
		}
	}
	def(&c.MaxStates, 4)
	def(&c.MaxGroups, 3)
	def(&c.MaxSize, 3)
	def(&c.MaxConfigs, 1<<14)
	def(&c.MaxTransitions, 3)
	def(&c.BoxMax, 3)
	return c
}

var (
	awkwardStates     = []string{"N", "T", "C", "A", "E", "U", "case", "next", "x_N", "stutter", "tr", "en_any", "pick", "p_g_1", "W1", "c_N_g", "Idle"}
	awkwardGroups     = []string{"g", "w", "A", "init", "r", "X"}
	awkwardProperties = []string{"p", "mutex", "no-deadlock", "AG", "T", "p_inv", "x_N", "reach"}
)

// names returns k names: from pool in random order when awkward, else
// prefix0, prefix1, ...
func names(r *rand.Rand, k int, prefix string, pool []string, awkward bool) []string {
	out := make([]string, k)
	perm := r.Perm(len(pool))
	for i := range out {
		if awkward && k <= len(pool) {
			out[i] = pool[perm[i]]
		} else {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
	}
	return out
}

// RandomSystem draws a random GSST as cfg says: random states, groups and
// sizes, a random initial configuration (all processes in the first state
// or spread at random), transitions between distinct states whose groups
// are split into blocks (some groups left out), guards of the configured
// style, and random CTL properties. gsst.New accepts it.
func RandomSystem(r *rand.Rand, cfg Config) *gsst.System {
	cfg = cfg.withDefaults()
	for {
		m := 2 + r.Intn(cfg.MaxStates-1)
		d := 1 + r.Intn(cfg.MaxGroups)
		sys := &gsst.Spec{Name: "random", States: names(r, m, "S", awkwardStates, cfg.AwkwardNames)}
		n := 0
		minSize := 1
		if cfg.EmptyGroups {
			minSize = 0
		}
		for i, name := range names(r, d, "g", awkwardGroups, cfg.AwkwardNames) {
			size := minSize + r.Intn(cfg.MaxSize-minSize+1)
			if i == d-1 && n+size == 0 {
				size = 1 // at least one process
			}
			n += size
			sys.Groups = append(sys.Groups, gsst.Group{Name: name, Size: size})
		}
		if cfg.Ranges {
			makeRanges(r, sys, cfg.BoxMax)
		}
		if cfg.MaxProcesses > 0 && n > cfg.MaxProcesses ||
			!cfg.Ranges && !fewConfigs(m, n, cfg.MaxConfigs) || cfg.Ranges && boxConfigs(sys, cfg.BoxMax) > cfg.MaxConfigs {
			continue
		}
		spread := r.Intn(2) == 0
		for _, g := range sys.Groups {
			row := make([]int, m)
			switch {
			case g.Ranged: // every process in one state
				row[r.Intn(m)] = g.Size
			case spread:
				for range g.Size {
					row[r.Intn(m)]++
				}
			default:
				row[0] = g.Size
			}
			sys.Init = append(sys.Init, row)
		}
		gen := &generator{r: r, sys: sys, style: cfg.Guards, nGuards: cfg.NGuards && sys.Parametric()}
		if gen.style == MixedGuards {
			gen.style = Guards(1 + r.Intn(int(numGuards)-1))
		}
		pairs := shuffledPairs(r, m)
		for _, pr := range pairs[:1+r.Intn(min(cfg.MaxTransitions, len(pairs)))] {
			sys.Transitions = append(sys.Transitions, gen.transition(pr[0], pr[1]))
		}
		for _, name := range names(r, cfg.Properties, "p", awkwardProperties, cfg.AwkwardNames) {
			f := gen.ctl(3, cfg.GroupProperties)
			sys.Properties = append(sys.Properties, gsst.Property{Name: name, Formula: f, Text: ctl.Format(f, sys.VarName)})
		}
		checked, err := gsst.New(sys)
		if err != nil {
			panic(fmt.Sprintf("testsupport: generated a bad system: %v\n%+v", err, sys))
		}
		return checked
	}
}

// shuffledPairs returns the pairs of distinct states of m, in random
// order.
func shuffledPairs(r *rand.Rand, m int) [][2]int {
	var pairs [][2]int
	for u := range m {
		for v := range m {
			if u != v {
				pairs = append(pairs, [2]int{u, v})
			}
		}
	}
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	return pairs
}

// fewConfigs reports whether m^n <= limit.
func fewConfigs(m, n, limit int) bool {
	size := 1
	for range n {
		size *= m
		if size > limit {
			return false
		}
	}
	return true
}

type generator struct {
	r       *rand.Rand
	sys     *gsst.Spec
	style   Guards
	nGuards bool // guards and properties may compare counters with n
}

// makeRanges turns some group sizes of sys into ranges, at least one: a
// quarter of the groups keep their size, a quarter get a range k..j with
// j up to boxMax, the others k.. (k at most 2).
func makeRanges(r *rand.Rand, sys *gsst.Spec, boxMax int) {
	ranged := false
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if r.Intn(4) == 0 && (ranged || g < len(sys.Groups)-1) {
			continue // stays fixed
		}
		ranged = true
		grp.Size = max(1, min(grp.Size, 2))
		grp.Ranged, grp.Max = true, gsst.Unbounded
		if r.Intn(3) == 0 {
			grp.Max = grp.Size + 1 + r.Intn(max(1, boxMax-grp.Size))
		}
	}
}

// nAtom compares a multiple of a counter (a group counter half the time
// when groups is set) plus a small constant with a multiple of n, as
// "#S1 + 1 < n" or "2*#S0[g1] >= n".
func (gen *generator) nAtom(groups bool) presburger.Formula {
	r, sys := gen.r, gen.sys
	s := r.Intn(len(sys.States))
	v := sys.TotalVar(s)
	if groups && r.Intn(2) == 0 {
		v = sys.GroupVar(s, r.Intn(len(sys.Groups)))
	}
	lhs := presburger.VarTerm(v).Scale(int64(1 + r.Intn(2))).Add(presburger.ConstTerm(int64(r.Intn(4) - 1)))
	rhs := presburger.VarTerm(sys.NVar()).Scale(int64(1 + r.Intn(2)))
	return presburger.Compare(lhs, presburger.Op(r.Intn(6)), rhs)
}

// ctl draws a property: RandomCTL, with some atoms comparing with n when
// the generator draws n-guards.
func (gen *generator) ctl(depth int, groups bool) ctl.Formula {
	if !gen.nGuards {
		return randomCTL(gen.r, depth, randomLeaf(gen.r, gen.sys, len(gen.sys.States), len(gen.sys.Groups), groups), true)
	}
	leaf := randomLeaf(gen.r, gen.sys, len(gen.sys.States), len(gen.sys.Groups), groups)
	return randomCTL(gen.r, depth, func() ctl.Formula {
		if gen.r.Intn(4) == 0 {
			return ctl.Atom{P: gen.nAtom(groups)}
		}
		return leaf()
	}, true)
}

// drawBlocks splits the groups 0..d-1, in random order, into blocks
// (unsorted); each group is left out (cannot take the transition) one
// time in six.
func drawBlocks(r *rand.Rand, d int) [][]int {
	var blocks [][]int
	for _, g := range r.Perm(d) {
		if r.Intn(6) == 0 {
			continue // this group cannot take the transition
		}
		if len(blocks) == 0 || r.Intn(2) == 0 {
			blocks = append(blocks, nil)
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], g)
	}
	return blocks
}

// transition draws the blocks and guards of u -> v.
func (gen *generator) transition(u, v int) gsst.Transition {
	r, sys := gen.r, gen.sys
	t := gsst.Transition{From: u, To: v}
	blocks := drawBlocks(r, len(sys.Groups))
	// Blocks sharing one guard over total counters keep certified
	// transitions frequent: half the transitions of the total style do,
	// and the priority style always does.
	var shared presburger.Formula
	if gen.style == PriorityGuards || gen.style == TotalGuards && r.Intn(2) == 0 {
		shared = gen.formula(u, 1, TotalGuards)
	}
	for i, gs := range blocks {
		slices.Sort(gs)
		guard := shared
		switch {
		case gen.style == PriorityGuards:
			parts := []presburger.Formula{shared}
			for _, prev := range blocks[:i] {
				for _, h := range prev {
					parts = append(parts, presburger.Compare(presburger.VarTerm(sys.GroupVar(u, h)), presburger.Eq, presburger.ConstTerm(0)))
				}
			}
			guard = presburger.Conj(parts...)
		case shared == nil:
			guard = gen.formula(u, 2, gen.style)
		}
		if gen.nGuards {
			switch r.Intn(4) {
			case 0:
				guard = presburger.Conj(guard, gen.nAtom(true))
			case 1:
				guard = presburger.Disj(guard, gen.nAtom(true))
			}
		}
		b := gsst.Block{Groups: gs, Guard: guard}
		if guard != presburger.True {
			b.Text = presburger.Format(guard, sys.VarName)
		}
		t.Blocks = append(t.Blocks, b)
	}
	return t
}

// formula draws a guard of the given depth for a transition from u.
func (gen *generator) formula(u, depth int, style Guards) presburger.Formula {
	r := gen.r
	if depth == 0 || r.Intn(3) == 0 {
		if r.Intn(8) == 0 {
			return presburger.True
		}
		return gen.atom(u, style)
	}
	switch r.Intn(3) {
	case 0:
		return presburger.Negation(gen.formula(u, depth-1, style))
	case 1:
		return presburger.Conj(gen.formula(u, depth-1, style), gen.formula(u, depth-1, style))
	}
	return presburger.Disj(gen.formula(u, depth-1, style), gen.formula(u, depth-1, style))
}

// atom draws a comparison for a guard of a transition from u. The style
// says which counters it may read: total counters; half the time a group
// counter of u instead (SourceGuards); or, a quarter of the time each, a
// total counter, a group counter of u, a group counter of any state, or
// the sum of a group counter of u and a total counter (AnyGuards).
func (gen *generator) atom(u int, style Guards) presburger.Formula {
	r, sys := gen.r, gen.sys
	m, d := len(sys.States), len(sys.Groups)
	total := func() presburger.Var { return sys.TotalVar(r.Intn(m)) }
	source := func() presburger.Var { return sys.GroupVar(u, r.Intn(d)) }
	var vars []presburger.Var
	switch k := r.Intn(4); {
	case style == SourceGuards && k < 2, style == AnyGuards && k == 1:
		vars = []presburger.Var{source()}
	case style == AnyGuards && k == 2:
		vars = []presburger.Var{sys.GroupVar(r.Intn(m), r.Intn(d))}
	case style == AnyGuards && k == 3:
		vars = []presburger.Var{source(), total()}
	default:
		vars = []presburger.Var{total()}
		if r.Intn(3) == 0 {
			vars = append(vars, total())
		}
	}
	return compare(r, vars, sys.N())
}

// compare draws a comparison of the sum of vars, with small
// coefficients, against a constant in 0..n (negated when the first
// coefficient is negative, so that it is often satisfiable).
func compare(r *rand.Rand, vars []presburger.Var, n int) presburger.Formula {
	var t presburger.Term
	first := int64(0)
	for _, v := range vars {
		c := []int64{1, 1, 1, 2, -1}[r.Intn(5)]
		if first == 0 {
			first = c
		}
		t = t.Add(presburger.VarTerm(v).Scale(c))
	}
	k := int64(r.Intn(n + 1))
	if first < 0 {
		k = -k
	}
	return presburger.Compare(t, presburger.Op(r.Intn(6)), presburger.ConstTerm(k))
}

// RandomCTL draws a CTL formula of the given depth over the counters of
// sys: total counters, and group counters too when groups is set. Every
// operator occurs, and AG of a state formula (the commonest property in
// practice) is frequent.
func RandomCTL(r *rand.Rand, sys *gsst.System, depth int, groups bool) ctl.Formula {
	return randomCTL(r, depth, randomLeaf(r, sys, len(sys.States), len(sys.Groups), groups), true)
}

// counterVars is what randomLeaf reads of a system of m states and d
// groups: a *gsst.Spec being generated, or a *gsst.System.
type counterVars interface {
	TotalVar(state int) presburger.Var
	GroupVar(state, group int) presburger.Var
	N() int
}

// randomLeaf returns a drawer of the atoms of RandomCTL.
func randomLeaf(r *rand.Rand, sys counterVars, m, d int, groups bool) func() ctl.Formula {
	var vars []presburger.Var
	for s := range m {
		vars = append(vars, sys.TotalVar(s))
		if groups {
			for g := range d {
				vars = append(vars, sys.GroupVar(s, g))
			}
		}
	}
	// Small constants make atoms that hold in some states and not in
	// others; comparisons with n are mostly constant.
	return func() ctl.Formula {
		pick := []presburger.Var{vars[r.Intn(len(vars))]}
		if r.Intn(3) == 0 {
			pick = append(pick, vars[r.Intn(len(vars))])
		}
		return ctl.Atom{P: compare(r, pick, min(sys.N(), 2))}
	}
}

// randomCTL draws a CTL formula of the given depth with atoms from leaf.
// Inner nodes are a unary temporal operator (6 in 12 or 13), an until (2),
// a negation (1), a binary connective (3, or 1 without invariants) and,
// with invariants, AG of a state formula (1).
func randomCTL(r *rand.Rand, depth int, leaf func() ctl.Formula, invariants bool) ctl.Formula {
	var rec func(depth int) ctl.Formula
	rec = func(depth int) ctl.Formula {
		if depth == 0 || r.Intn(4) == 0 {
			return leaf()
		}
		n := 10
		if invariants {
			n = 13
		}
		switch k := r.Intn(n); {
		case k < 6:
			return ctl.Unary{Op: ctl.TempOp(k), X: rec(depth - 1)}
		case k < 8:
			return ctl.Until{All: k == 7, L: rec(depth - 1), R: rec(depth - 1)}
		case k == 8:
			return ctl.Not{X: rec(depth - 1)}
		case k == 9 && !invariants:
			return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: rec(depth - 1), R: rec(depth - 1)}
		case k < 12:
			return ctl.Binary{Op: ctl.BinOp(k - 9), L: rec(depth - 1), R: rec(depth - 1)}
		}
		return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Or, L: leaf(), R: ctl.Not{X: leaf()}}}
	}
	return rec(depth)
}

// Describe prints a system compactly, for failure messages.
func Describe(sys *gsst.System) string {
	var b []byte
	b = fmt.Appendf(b, "states %v, groups %v, init %v\n", sys.States, sys.Groups, sys.Init)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		b = fmt.Appendf(b, "  %s:", sys.TransitionName(t))
		for _, blk := range t.Blocks {
			var gs []string
			for _, g := range blk.Groups {
				gs = append(gs, sys.Groups[g].Name)
			}
			b = fmt.Appendf(b, " %v %s;", gs, presburger.Format(blk.Guard, sys.VarName))
		}
		b = append(b, '\n')
	}
	b = append(b, describeExt(sys)...)
	for _, p := range sys.Properties {
		b = fmt.Appendf(b, "  property %s: %s\n", p.Name, ctl.Format(p.Formula, sys.VarName))
	}
	return string(b)
}

// RandomCounterModel draws a counter model below the level of systems,
// for engine tests: 2-4 counters holding 1-5 processes in a random
// initial vector, up to twice as many moves as counters (from a counter
// to another, repeats allowed), guards that are boolean combinations of
// linear comparisons over up to three counters with coefficients -3..3,
// sometimes with a bounded quantifier (which engines must expand), half of
// them without the conjunct "From >= 1" that counterabs would add, and
// properties random CTL formulas over such comparisons. The system has
// one group of all processes and one unguarded local transition per move,
// so that counterabs.Assemble accepts the moves as a total-counter model
// (transition i moves by local transition i).
func RandomCounterModel(r *rand.Rand, properties int) (*gsst.System, []Move) {
	m, n := 2+r.Intn(3), 1+r.Intn(5)
	init := make([]int, m)
	left := n
	for i := range m - 1 {
		init[i] = r.Intn(left + 1)
		left -= init[i]
	}
	init[m-1] = left
	sys := &gsst.Spec{Name: "counter-model", States: names(r, m, "x", nil, false),
		Groups: []gsst.Group{{Name: "p", Size: n}}, Init: [][]int{init}}
	var moves []Move
	for range 1 + r.Intn(2*m) {
		from := r.Intn(m)
		to := r.Intn(m - 1)
		if to >= from {
			to++
		}
		g := RandomFormula(r, m, n, 2, true)
		if r.Intn(2) == 0 {
			g = presburger.Conj(presburger.Compare(presburger.VarTerm(presburger.Var(from)), presburger.Ge, presburger.ConstTerm(1)), g)
		}
		moves = append(moves, Move{From: from, To: to, Guard: g})
		sys.Transitions = append(sys.Transitions, gsst.Transition{From: from, To: to,
			Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}})
	}
	for i := range properties {
		f := randomCTL(r, 3, func() ctl.Formula { return ctl.Atom{P: RandomFormula(r, m, n, 1, false)} }, false)
		sys.Properties = append(sys.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i), Formula: f, Text: ctl.Format(f, sys.VarName)})
	}
	checked, err := gsst.New(sys)
	if err != nil {
		panic(fmt.Sprintf("testsupport: generated a bad counter model: %v", err))
	}
	return checked, moves
}

// linearFormula draws a boolean combination of the given depth of linear
// comparisons over m counters holding n processes; quant allows a bounded
// existential quantifier as a leaf.
func RandomFormula(r *rand.Rand, m, n, depth int, quant bool) presburger.Formula {
	v := func(i int) presburger.Term { return presburger.VarTerm(presburger.Var(i)) }
	if depth == 0 || r.Intn(3) == 0 {
		switch r.Intn(12) {
		case 0:
			return presburger.True
		case 1:
			if quant {
				b := presburger.Var(m + 5)
				return presburger.Exists{Vars: []presburger.Bound{{Var: b, Lo: 0, Hi: 2}},
					Body: presburger.Compare(v(r.Intn(m)), presburger.Eq, presburger.VarTerm(b))}
			}
		}
		t := presburger.ConstTerm(int64(r.Intn(2*n+3) - n - 1))
		for range 1 + r.Intn(3) {
			c := int64(r.Intn(7) - 3)
			if c == 0 {
				c = 1
			}
			t = t.Add(v(r.Intn(m)).Scale(c))
		}
		return presburger.Compare(t, presburger.Op(r.Intn(6)), presburger.ConstTerm(0))
	}
	a, b := RandomFormula(r, m, n, depth-1, quant), RandomFormula(r, m, n, depth-1, quant)
	switch r.Intn(3) {
	case 0:
		return presburger.And{a, b}
	case 1:
		return presburger.Or{a, b}
	}
	return presburger.Not{F: a}
}

// RandomAtom draws a state formula as the atoms of RandomCTL are drawn:
// a comparison over total counters, and group counters too when groups
// is set.
func RandomAtom(r *rand.Rand, sys *gsst.System, groups bool) presburger.Formula {
	return randomLeaf(r, sys, len(sys.States), len(sys.Groups), groups)().(ctl.Atom).P
}
