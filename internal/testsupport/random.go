package testsupport

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

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

// Constructs is a set of the constructs of the language that a step of
// the paper's GSSTs (one process moving, guarded by counters) does not
// use. The paper's systems are those with none.
type Constructs uint

const (
	// SharedVars: shared variables of every kind (bool, enumeration,
	// bounded and unbounded integer), read by guards and properties and
	// assigned by updates, per group at times.
	SharedVars Constructs = 1 << iota
	// Params: parameters, fixed at an instance (each formula reads the
	// value) unless Config.Family leaves them open.
	Params
	// Broadcasts: transitions that move every other process in a
	// transfer's source (restricted to groups at times).
	Broadcasts
	// Rendezvous: steps of 2 or 3 distinct processes (parts restricted
	// to groups at times).
	Rendezvous
	// InitialSets: groups spread over several initial states, integer
	// shared variables that start anywhere in a range (gsst/initial.go).
	// Not in AllConstructs: the stages that take one initial
	// configuration refuse them.
	InitialSets
	// SelfLoops: local transitions whose mover stays where it is (they
	// update, broadcast, or do nothing), and rendezvous parts that stay.
	SelfLoops
	// NamedSteps: a second transition between the same two states, every
	// transition then named.
	NamedSteps
	// EnvironmentSteps: steps that move no process by its own choice
	// (they update shared variables, broadcast, or both).
	EnvironmentSteps
	// RendezvousBroadcasts: rendezvous that also broadcast.
	RendezvousBroadcasts

	// StepConstructs are the steps of issue 30: a step with no mover,
	// a mover that stays, several steps between the same states, a
	// rendezvous that broadcasts.
	StepConstructs = SelfLoops | NamedSteps | EnvironmentSteps | RendezvousBroadcasts
	AllConstructs  = SharedVars | Params | Broadcasts | Rendezvous | StepConstructs
)

var constructNames = []string{"shared", "params", "broadcast", "rendezvous", "initsets", "self-loop", "named", "environment", "rendezvous-broadcast"}

// String lists the constructs of c, as "shared+broadcast"; "none" for
// the paper's.
func (c Constructs) String() string {
	var out []string
	for i, name := range constructNames {
		if c&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	if out == nil {
		return "none"
	}
	return strings.Join(out, "+")
}

// ConstructsOf returns the constructs sys uses.
func ConstructsOf(sys *gsst.System) Constructs {
	var c Constructs
	if len(sys.Shared) > 0 {
		c |= SharedVars
	}
	if len(sys.Params) > 0 {
		c |= Params
	}
	for i := range sys.Transitions {
		if len(sys.Transitions[i].Broadcast) > 0 {
			c |= Broadcasts
		}
	}
	if len(sys.Rendezvous) > 0 {
		c |= Rendezvous
	}
	if !sys.SingleInitial() {
		c |= InitialSets
	}
	for i, t := range sys.Transitions {
		if t.From == t.To {
			c |= SelfLoops
		}
		for _, u := range sys.Transitions[:i] {
			if u.From == t.From && u.To == t.To {
				c |= NamedSteps
			}
		}
	}
	for _, rv := range sys.Rendezvous {
		if len(rv.Broadcast) > 0 {
			c |= RendezvousBroadcasts
		}
		for _, p := range rv.Parts {
			if p.From == p.To {
				c |= SelfLoops
			}
		}
	}
	if len(sys.Environment) > 0 {
		c |= EnvironmentSteps
	}
	return c
}

// Names says where random systems take their names from.
type Names int

const (
	// PlainNames: S0, S1, ... for states, g0, ... for groups, p0, ...
	// for properties.
	PlainNames Names = iota
	// NuSMVNames: keywords of NuSMV and names vsym's emitters make up.
	NuSMVNames
	// PromelaNames: keywords of Promela and C and names the Promela
	// emitter makes up.
	PromelaNames
)

// pools returns the names of states, groups and properties a Names
// draws from. Plain names draw a permutation of the NuSMV pools all the
// same, so that the other draws of a system do not depend on its names.
func (n Names) pools() (states, groups, properties []string) {
	if n == PromelaNames {
		return promelaStates, promelaGroups, promelaProperties
	}
	return awkwardStates, awkwardGroups, awkwardProperties
}

var (
	awkwardStates     = []string{"N", "T", "C", "A", "E", "U", "case", "next", "x_N", "stutter", "tr", "en_any", "pick", "p_g_1", "W1", "c_N_g", "Idle"}
	awkwardGroups     = []string{"g", "w", "A", "init", "r", "X"}
	awkwardProperties = []string{"p", "mutex", "no-deadlock", "AG", "T", "p_inv", "x_N", "reach"}

	promelaStates = []string{"N", "T", "C", "U", "W", "X", "V", "int", "now", "st", "init", "do", "skip", "true",
		"linux", "unix", "en_any", "x_N", "c_N_g", "counters", "Preader", "uchar", "_pid", "Idle", "main", "A1"}
	promelaGroups     = []string{"g", "w", "reader", "init", "U", "st", "now", "_p", "proctype", "counters"}
	promelaProperties = []string{"p", "mutex", "no-deadlock", "AG", "U", "X", "ltl", "never", "x_N", "reach", "st", "en_any", "true", "_q"}
)

// Config says what RandomSystem draws. The zero value draws the paper's
// systems (no construct), with the default of each field.
type Config struct {
	Name string // the system's name (default "random")

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
	Names                    Names

	// Ranges draws parametric systems: some group sizes (at least one)
	// become ranges k..j (j at most BoxMax) or k.. (k at most 2, every
	// process of such a group starting in one state). MaxConfigs then
	// bounds the configurations of all the instances of Box(sys, BoxMax)
	// together (default BoxMax 3). NGuards lets guards and properties
	// compare counters with n (presburger.Var sys.NVar()), strengthening
	// or weakening a quarter of the blocks' guards each.
	Ranges  bool
	BoxMax  int
	NGuards bool

	// Want lists the constructs every system uses, May those a system
	// may use (each drawn at random). A system uses no other.
	Want, May Constructs
	// Family leaves the parameters open (and implies Params): one or
	// two parameters t0, t1 read by guards and updates (a block's guard
	// differing from the others' only from t0 = 4 on, or n = 7 with
	// Ranges, at times), the first group (and each other one time in
	// three) sized t0 + c, t1 + c or t0 - t1 + 1, and an assumption that
	// bounds the parameters by 2 (half the time), relates them (t0 >= t1
	// or t0 >= 1), both or neither (FoldParams gives the instances).
	// With Ranges too, the groups not sized over the parameters may be
	// ranges.
	Family bool

	// Properties is the number of random properties (default none), of
	// the given Shape; the last GroupProperties of them may read group
	// counters, the others total counters only. Atoms read shared
	// variables half the time when the system has some.
	Properties, GroupProperties int
	Shape                       Shape

	// Fairness says which fairness constraints to draw (default none).
	Fairness Fairness
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
	if c.Name == "" {
		c.Name = "random"
	}
	if c.Family {
		c.Want |= Params
	}
	c.May &^= c.Want
	return c
}

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

// RandomSystem draws a random system as cfg says: random states, groups
// and sizes, a random initial configuration (all processes in the first
// state or spread at random), transitions between distinct states whose
// groups are split into blocks (some groups left out), guards of the
// configured style; then the constructs cfg allows, each drawn on top
// of the paper's (shared variables read by the guards drawn and
// assigned by updates; parameters; broadcasts on some transitions;
// rendezvous beside them); then properties and fairness constraints.
// gsst.New accepts it. Without constructs the draws are the paper's
// alone, so a seed gives the same paper system whatever cfg says of
// constructs it does not use.
func RandomSystem(r *rand.Rand, cfg Config) *gsst.System {
	cfg = cfg.withDefaults()
	awkward := cfg.Names != PlainNames
	statePool, groupPool, propertyPool := cfg.Names.pools()
	for {
		m := 2 + r.Intn(cfg.MaxStates-1)
		d := 1 + r.Intn(cfg.MaxGroups)
		sys := &gsst.Spec{Name: cfg.Name, States: names(r, m, "S", statePool, awkward)}
		n := 0
		minSize := 1
		if cfg.EmptyGroups {
			minSize = 0
		}
		for i, name := range names(r, d, "g", groupPool, awkward) {
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
		if cfg.Want|cfg.May != 0 {
			gen.constructs(cfg)
		}
		if gen.style == MixedGuards {
			gen.style = Guards(1 + r.Intn(int(numGuards)-1))
		}
		pairs := shuffledPairs(r, m)
		for i, pr := range pairs[:1+r.Intn(min(cfg.MaxTransitions, len(pairs)))] {
			if gen.selfLoops && r.Intn(3) == 0 {
				pr[1] = pr[0]
			}
			t := gen.transition(pr[0], pr[1])
			if gen.broadcast && (i == 0 || r.Intn(3) == 0) {
				t.Broadcast = gen.transfers()
			}
			sys.Transitions = append(sys.Transitions, t)
			if gen.named && r.Intn(2) == 0 {
				sys.Transitions = append(sys.Transitions, gen.transition(pr[0], pr[1]))
			}
		}
		if gen.selfLoops || gen.named {
			nameTransitions(sys)
		}
		if gen.rendezvous {
			for range 1 + r.Intn(2) {
				sys.Rendezvous = append(sys.Rendezvous, gen.drawRendezvous())
			}
		}
		if gen.environment {
			for range 1 + r.Intn(2) {
				sys.Environment = append(sys.Environment, gen.drawEnvironment())
			}
		}
		for i, name := range names(r, cfg.Properties, "p", propertyPool, awkward) {
			f := gen.property(cfg.Shape, 3, i >= cfg.Properties-cfg.GroupProperties)
			sys.Properties = append(sys.Properties, gsst.Property{Name: name, Formula: f, Text: ctl.Format(f, sys.VarName)})
		}
		gen.fairness(cfg.Fairness)
		if (cfg.Want|cfg.May)&InitialSets != 0 {
			initialSets(r, sys, cfg.Want&InitialSets != 0)
		}
		checked, err := gsst.New(sys)
		if err != nil {
			panic(fmt.Sprintf("testsupport: generated a bad system: %v\n%+v", err, sys))
		}
		if ConstructsOf(checked)&cfg.Want != cfg.Want {
			continue // a construct every system must use was not drawn
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

// generator draws the parts of one system.
type generator struct {
	r       *rand.Rand
	sys     *gsst.Spec
	style   Guards
	nGuards bool // guards and properties may compare counters with n
	// language: the system may use constructs, and guards and
	// transitions get them on top of the paper's draws; broadcast and
	// rendezvous say whether it has those.
	language, broadcast, rendezvous bool
	// selfLoops, named, environment, rdvBroadcast: the steps of issue
	// 30 the system may have (StepConstructs).
	selfLoops, named, environment, rdvBroadcast bool
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

// transition draws the blocks and guards of u -> v, and their updates
// in a system with constructs.
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
	var steps *blockDraw
	if gen.language {
		steps = gen.drawBlockShape()
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
		if steps != nil {
			gen.languageBlock(&b, steps, i, len(blocks))
		}
		if b.Guard != presburger.True {
			b.Text = presburger.Format(b.Guard, sys.VarName)
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

// Small returns the Config of the systems the process-level oracles
// (Procs, FullSymmetry) explore in the cross-checks of the whole
// language: 2 to 4 states, 1 or 2 groups of 1 or 2 processes (at most
// 4), using the constructs of want and maybe those of may.
func Small(want, may Constructs) Config {
	return Config{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, Want: want, May: may}
}

// FairConfig returns the Config of the fair-CTL cross-checks (Oracle):
// systems of the paper with up to 3000 configurations and 5
// transitions, six properties, and up to three fairness constraints;
// with total, all of them what the total-counter model expresses
// (properties and justice over total counters, weak fairness of whole
// transitions), else reading group counters too.
func FairConfig(name string, total bool) Config {
	cfg := Config{Name: name, MaxConfigs: 3000, MaxTransitions: 5, Properties: 6, GroupProperties: 6,
		Fairness: Fairness{Max: 3, Total: total}}
	if total {
		cfg.GroupProperties = 0
	}
	return cfg
}
