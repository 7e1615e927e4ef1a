package symbolic

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Strategy is the order in which the per-transition images are applied in
// least fixpoints (reachable states, EF, EU).
type Strategy int

const (
	// Chain applies each transition in turn to the whole current set and
	// repeats until no transition adds a state (chained fixpoint). On
	// asynchronous counter systems, where every transition touches two
	// counters, it needs far fewer and cheaper steps than BFS.
	Chain Strategy = iota
	// Saturate is Chain where each transition is iterated to its own local
	// fixpoint before the next one is applied.
	Saturate
	// BFS takes the union of all images of the frontier at each step
	// (breadth-first, one layer per iteration).
	BFS
)

var strategyNames = [...]string{Chain: "chain", Saturate: "saturate", BFS: "bfs"}

func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return fmt.Sprintf("Strategy(%d)", int(s))
	}
	return strategyNames[s]
}

// ParseStrategy returns the strategy named s.
func ParseStrategy(s string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == s {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown fixpoint strategy %q (want %s)", s, strings.Join(strategyNames[:], ", "))
}

// config holds the BDD engine's own settings; the settings every engine
// shares (limits, traces, the deadlock check) are the explore.Config
// that New takes.
type config struct {
	order     Order
	strategy  Strategy
	reachable bool
	nodesize  int
	sumSpace  bool
	affinity  bool
	cheap     bool
	ctx       context.Context
}

// Option sets one of the BDD engine's own settings of a Checker.
type Option func(*config)

// WithOrder sets the BDD variable order (default Auto).
func WithOrder(o Order) Option { return func(c *config) { c.order = o } }

// WithStrategy sets the least-fixpoint strategy (default Saturate).
func WithStrategy(s Strategy) Option { return func(c *config) { c.strategy = s } }

// WithReachable chooses whether reachable states are computed first and
// every fixpoint is restricted to them (default true). Without them, CTL
// is evaluated over the space WithSumSpace chooses (by default every
// vector of the binary encoding), which decides properties at the initial
// state just as well (the initial state's future only visits reachable
// states) and is the cheaper way for AG invariants, decided backwards.
func WithReachable(on bool) Option { return func(c *config) { c.reachable = on } }

// WithSumSpace chooses the space fixpoints run in before (or without)
// reachable states: every counter vector summing to N (true), or every
// vector of the binary encoding, the box [0, 2^b)^m (false, the default).
// Both give the same verdicts at the initial state: transitions preserve
// the sum, so the vectors summing to N form a successor-closed part of the
// box, and a CTL formula's truth at a state depends only on the states
// reachable from it. Without the sum constraint, sets such as "x_m >= 2"
// stay tiny BDDs, which makes backward fixpoints far cheaper.
func WithSumSpace(on bool) Option { return func(c *config) { c.sumSpace = on } }

// WithAffinity chooses whether counters are placed in the variable order
// by affinityOrder (true, the default) or in their natural order.
func WithAffinity(on bool) Option { return func(c *config) { c.affinity = on } }

// WithCheapReach chooses whether an engine that decides properties
// backwards first computes the reachable states when they come cheap,
// within a work budget, and then restricts every fixpoint to them (true,
// the default); false decides over the space WithSumSpace chooses
// whatever the reachable states would cost.
func WithCheapReach(on bool) Option { return func(c *config) { c.cheap = on } }

// WithNodeTable sets the node table size from which the BDD collects
// garbage (default 1<<16, defaultCollectFrom): below it, a full
// table doubles instead. The table starts at a few thousand nodes (see
// newBDD).
func WithNodeTable(n int) Option { return func(c *config) { c.nodesize = n } }

// WithContext bounds New (the encoding and the transition closures) by
// ctx: when it ends, New stops inside the BDD operation under way and
// returns ctx's error. The other methods take their own context.
func WithContext(ctx context.Context) Option { return func(c *config) { c.ctx = ctx } }

// ErrResource reports that rudd could not grow its node table (past
// 2^31 nodes); errors.Is(err, errkind.Limit) holds for it. The engine's
// bounds on its work and memory are explore.MaxWork and
// explore.MaxMemory.
var ErrResource = errkind.Errorf(errkind.Limit, "BDD node limit reached")

// ErrWork reports that the BDD produced more nodes than the shared
// setting explore.MaxWork allows (checked between fixpoint steps, so one
// step may overshoot); errors.Is(err, errkind.Limit) holds for it.
var ErrWork = errkind.Errorf(errkind.Limit, "BDD work budget reached")

// Checker holds the BDD encoding of one counter model and decides CTL
// formulas on it. BDD wraps it as an explore.Engine.
type Checker struct {
	model  *counterabs.Model
	cfg    config
	shared explore.Config // the settings every engine shares
	b      *rudd.BDD
	enc    *encoding
	gc     guardCompiler

	// pools holds, for each pool, the vectors where it has its sum, and
	// for each bounded shared variable whose domain leaves some of its
	// encodings unused, the vectors where it lies in its domain.
	pools []rudd.Node
	space rudd.Node // box or inv (WithSumSpace), or the reachable states once computed
	init  rudd.Node
	rels  []relation
	dead  rudd.Node // states of space with a stutter loop (see updateDead)
	// mayDead is Model.MayDeadlock (forced models), nil otherwise.
	mayDead rudd.Node

	reach rudd.Node // nil until computed
	// bound, while the reachable states are computed, is
	// shared.MaxStates: lfp stops once its set holds more states.
	bound int64
	// budget, when positive, stops a fixpoint with errCheap once more
	// nodes were produced (reachableIfCheap).
	budget int

	justice []bjustice           // the model's justice constraints (fair.go)
	preMemo *preimages           // the last set's pre-images (fair.go)
	cache   map[string]rudd.Node // Sat results while one property is checked

	// levelCounter, levelBit and levelNext map a BDD level to its
	// counter, bit and copy (next state or current).
	levelCounter, levelBit []int
	levelNext              []bool

	stats Stats
	start time.Time

	// phase is what the checker reports to shared.Progress, with its
	// iterations and nodes so far; lastReport is when it last did.
	phase      progress.Event
	nodes      int // BDD nodes in use at the last sample
	lastReport time.Time

	// prior counts the nodes produced by the encodings New made before
	// this one (with smaller bounds for unbounded shared variables), so
	// that explore.MaxWork bounds them all.
	prior int

	// stop is what rudd's interrupt hook reads inside every operation:
	// the context of the call under way and the memory bound.
	stop *stopper
}

// relation is the partitioned transition relation of one abstract
// transition: the guard and the update of the variables it changes (the
// paper's step: its two counters; beyond it, every mover's and
// transfer's counter and the assigned shared variables); every other
// variable is framed implicitly by not being quantified or renamed.
type relation struct {
	index    int   // index in Model.Transitions
	touched  []int // variables updated (stepTerms)
	rel      rudd.Node
	enabled  rudd.Node // guard & movers exist & assigned values in their domains, over current bits
	curCube  rudd.Node // current bits of the touched variables
	nextCube rudd.Node
	toNext   rudd.Replacer // current -> next bits of the touched variables
	toCur    rudd.Replacer
	// closure, when not nil, is the reflexive-transitive closure of rel
	// (the paper's steps only): any number of steps of this transition
	// alone. It exists when the guard, apart from x_From >= 1, reads
	// neither x_From nor x_To, so it stays true while the transition
	// repeats (see transferClosure).
	closure  rudd.Node
	topLevel int
}

// Stats are resource figures of a run.
type Stats struct {
	PeakNodes     int           // most BDD nodes in use at any sample point
	TableSize     int           // node table size at the end (allocated slots)
	PeakHeapBytes uint64        // largest Go heap (runtime/metrics) sampled
	BDDVars       int           // number of BDD variables
	ReachIters    int           // iterations of the reachable-state fixpoint
	ReachTime     time.Duration // time spent on reachable states
	BuildTime     time.Duration // time to build the encoding and relations
	Produced      int           // nodes produced in all (explore.MaxWork)
	// Bounds are the bounds up to which the unbounded shared variables
	// were encoded (see New); nil when the model has none.
	Bounds []explore.SharedBound
}

// New encodes m, a model counterabs has checked, to be checked with the
// shared settings shared (explore.NewConfig) and the BDD engine's own
// opts. Of the shared settings it reads Traces, MaxMemory (a bound on the
// bytes of the Go heap's objects, checked between fixpoint steps and
// every few thousand node constructions inside each BDD operation), MaxStates (a bound on the reachable states, checked as
// their fixpoint grows, when they are computed: WithReachable) and
// CheckDeadlocks (the deadlock check, Report.DeadlockFree with paths to
// the nearest deadlocks, even without reachable states; with them it is
// always made). It fails (errkind.Limit) when a guard cannot be encoded:
// coefficients too large, an unexpandable quantifier. A model with
// unbounded shared variables always has its reachable states computed
// here, with a bound for each variable that is doubled until no
// reachable state has a step beyond it (Stats.Bounds); a variable still
// growing at the largest bound (maxBoundBits) fails with errkind.Limit.
func New(m *counterabs.Model, shared explore.Config, opts ...Option) (*Checker, error) {
	cfg := config{order: Auto, strategy: Saturate, reachable: true, affinity: true, cheap: true}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.order == Auto {
		cfg.order = autoOrder(m)
	}
	limits, unbounded := encodingLimits(m)
	if len(unbounded) == 0 {
		return newChecker(m, cfg, shared, limits, 0)
	}
	// An unbounded shared variable is encoded up to a bound, which must
	// not decide anything: the reachable states are computed with the
	// bound, and the bound is doubled until no reachable state enables a
	// step that would take a variable beyond it. Then the reachable
	// states, and every step from them, are those of the unbounded model,
	// and every fixpoint runs within them.
	cfg.reachable = true
	prior := 0
	if shared.Bound > 0 {
		for _, j := range unbounded {
			v := m.SharedVar(j)
			limits[v] = max(int(shared.Bound)-m.Shared[j].Lo, limits[v])
		}
	}
	var growth *explore.Growth
	for {
		e, err := newChecker(m, cfg, shared, limits, prior)
		if err != nil {
			return nil, err
		}
		over, err := e.beyondBounds(unbounded)
		if err != nil {
			return nil, err
		}
		if len(over) == 0 {
			for _, j := range unbounded {
				v := m.SharedVar(j)
				e.stats.Bounds = append(e.stats.Bounds, explore.SharedBound{Name: m.Shared[j].Name, Max: int64(m.Shared[j].Lo) + int64(limits[v])})
			}
			return e, nil
		}
		for _, j := range over {
			v := m.SharedVar(j)
			top := int64(m.Shared[j].Lo) + int64(limits[v])
			g := &explore.Growth{Var: m.Shared[j].Name, Init: int64(m.Shared[j].Init), Reached: top + 1}
			if shared.Bound > 0 {
				// Some reachable step passes the bound.
				return nil, &explore.LimitError{Kind: "bound", Limit: shared.Bound, Growth: g}
			}
			if top >= gsst.MaxValue {
				return nil, errkind.Errorf(errkind.Limit, "symbolic: shared variable %s takes values beyond %d in the reachable states, the limit on the magnitude of a shared variable's value",
					m.Shared[j].Name, int64(gsst.MaxValue))
			}
			if top >= explore.GrowthBound(m, j) && growth == nil {
				growth = g
				if shared.Progress != nil {
					shared.Progress(progress.Event{Phase: progress.Reach, Engine: BDD{}.Name(), Note: growth.String()})
				}
			}
			if bitsFor(limits[v]) >= max(maxBoundBits, bitsFor(4*m.N)) {
				return nil, errkind.Errorf(errkind.Limit, "symbolic: shared variable %s takes values beyond %d in the reachable states, the largest bound up to which the BDD engine encodes an unbounded variable; %s",
					m.Shared[j].Name, top, g)
			}
			limits[v] = 2*limits[v] + 1
		}
		prior = e.Stats().Produced
	}
}

// maxBoundBits bounds the bits of an unbounded shared variable's
// encoding: the engine gives up (errkind.Limit) on a model whose
// reachable states take one beyond 2^maxBoundBits - 1 or, if larger,
// the least 2^k - 1 covering four times the number of processes. A
// variable that grows without bound is found this way, each doubling's
// reachable states costing about as many fixpoint steps as the values it
// adds; the shared limits (MaxStates, MaxWork over all the encodings,
// the context) stop it sooner. A variable for tests.
var maxBoundBits = 16

// encodingLimits returns, for each model variable, the largest value
// its encoding must hold less its least value: a counter's pool sum, a
// bounded shared variable's Hi - Lo, and for an unbounded one a first
// bound of the form 2^k - 1 covering its initial value, the number of
// processes and the constants its guards and updates compare with. It
// also returns the indices of the unbounded shared variables.
func encodingLimits(m *counterabs.Model) (limits []int, unbounded []int) {
	limits = make([]int, m.NumVars())
	for _, p := range m.Pools {
		for _, c := range p.Counters {
			limits[c] = p.Sum
		}
	}
	largest := min(max(int64(m.N), explore.Constants(m)), 1<<16)
	for j := range m.Shared {
		v := &m.Shared[j]
		if !v.Unbounded {
			limits[m.SharedVar(j)] = v.Hi - v.Lo
			continue
		}
		unbounded = append(unbounded, j)
		need := max(int64(v.InitMax()-v.Lo), largest-int64(v.Lo), 1)
		limits[m.SharedVar(j)] = 1<<bitsFor(int(need)) - 1
	}
	return limits, unbounded
}

// beyondBounds computes the reachable states and returns the unbounded
// shared variables (indices into Model.Shared) that some reachable
// state's step would assign a value beyond the encoding.
func (e *Checker) beyondBounds(unbounded []int) ([]int, error) {
	m := e.model
	reach, err := e.Reachable(e.cfg.ctx)
	if err != nil {
		return nil, err
	}
	b := e.b
	var over []int
	for _, j := range unbounded {
		v := m.SharedVar(j)
		// Values beyond gsst.MaxValue are beyond what any engine
		// explores: one reached is "over", and New stops there.
		top := min(e.enc.lo[v]+int64(1)<<len(e.enc.cur[v])-1, gsst.MaxValue)
		for k := range m.Transitions {
			t := &m.Transitions[k]
			for _, a := range t.Assign {
				if a.Var != v {
					continue
				}
				big, err := e.gc.compile(presburger.Compare(a.Value, presburger.Gt, presburger.ConstTerm(top)))
				if err != nil {
					return nil, errkind.Errorf(errkind.Limit, "symbolic: transition %s: %w", m.TransitionName(t), err)
				}
				if !e.isFalse(b.And(reach, e.rels[k].enabled, big)) && !slices.Contains(over, j) {
					over = append(over, j)
				}
			}
		}
	}
	return over, e.check()
}

// newChecker encodes m with the given encoding limits (encodingLimits),
// after earlier encodings that produced prior nodes.
func newChecker(m *counterabs.Model, cfg config, shared explore.Config, limits []int, prior int) (*Checker, error) {
	nc := len(m.Counters)
	e := &Checker{model: m, cfg: cfg, shared: shared, start: time.Now(), prior: prior,
		stop: &stopper{ctx: cfg.ctx, maxMemory: shared.MaxMemory}}
	var perm []int
	if cfg.affinity {
		perm = affinityOrder(len(limits), m.Transitions)
	}
	lo := make([]int64, len(limits))
	for j := range m.Shared {
		lo[m.SharedVar(j)] = int64(m.Shared[j].Lo)
	}
	e.enc = newEncoding(nc, limits, lo, cfg.order, perm)
	nv := e.enc.numVars()
	collectFrom := cfg.nodesize
	if collectFrom == 0 {
		collectFrom = defaultCollectFrom
	}
	var err error
	e.b, err = newBDD(nv, collectFrom)
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "symbolic: %w", err)
	}
	e.b.SetInterrupt(e.stop.interrupt)
	e.gc = guardCompiler{b: e.b, e: e.enc, maxEnum: 1 << 16}
	e.levelCounter = make([]int, nv)
	e.levelBit = make([]int, nv)
	e.levelNext = make([]bool, nv)
	for i := range e.enc.cur {
		for j := range e.enc.cur[i] {
			e.levelCounter[e.enc.cur[i][j]], e.levelBit[e.enc.cur[i][j]] = i, j
			e.levelCounter[e.enc.next[i][j]], e.levelBit[e.enc.next[i][j]] = i, j
			e.levelNext[e.enc.next[i][j]] = true
		}
	}
	e.enter(progress.Event{Phase: progress.Encode})
	if err := e.build(); err != nil {
		if e.stop.stopped != nil {
			// The encoding reports a failed operation as its own error;
			// the interruption's cause is the one to report.
			return nil, e.stop.stopped
		}
		return nil, err
	}
	e.stats.BDDVars = nv
	e.stats.BuildTime = time.Since(e.start)
	e.sample()
	return e, nil
}

// autoOrder picks the variable order from the shape of the guards: when
// some guard compares a linear combination of two or more counters (ASR's
// #Wj + #Cj < b), those counters are constrained together, and keeping
// each counter's bits in one block (with affinityOrder placing the related
// counters side by side) keeps such constraints narrow; interleaving would
// make every level remember a bit of each pair. Otherwise the counters are
// coupled only through the sum invariant (GR&W), which interleaved bits,
// most significant first, represent compactly. docs/symbolic.md has the
// measurements behind this rule.
func autoOrder(m *counterabs.Model) Order {
	multi := false
	for _, t := range m.Transitions {
		for c := range presburger.Atoms(t.Guard) {
			multi = multi || len(c.T.Monos) >= 2
		}
	}
	// Blocked bits make the sum invariant carry every partial sum up to N
	// across each counter boundary, about m*b*N nodes: affordable for the
	// small N of such models, not for a million processes.
	largest := 0
	for _, p := range m.Pools {
		largest = max(largest, p.Sum)
	}
	if multi && int64(len(m.Counters))*int64(bitsFor(largest))*int64(largest) <= 4_000_000 {
		return Blocked
	}
	return Interleaved
}

// Order returns the variable order in use.
func (e *Checker) Order() Order { return e.cfg.order }

func (e *Checker) build() error {
	b, enc := e.b, e.enc
	// Sum invariants: the counters of each pool sum to the pool's sum.
	// They are kept apart: their conjunction can be far larger than
	// any set the engine needs (on the group-counter model of GR&W d=10
	// q=63 m=20, building it did not finish in 60 s), while a set
	// conjoined with them one at a time stays small.
	for _, p := range e.model.Pools {
		var terms []bitTerm
		for _, c := range p.Counters {
			ts, err := enc.counterTerms(c, 1, false)
			if err != nil {
				return errkind.Errorf(errkind.Limit, "symbolic: sum invariant: %w", err)
			}
			terms = append(terms, ts...)
		}
		pool, err := linear(b, terms, -int64(p.Sum), presburger.Eq)
		if err != nil {
			return errkind.Errorf(errkind.Limit, "symbolic: sum invariant: %w", err)
		}
		e.pools = append(e.pools, pool)
	}
	// A bounded shared variable whose domain does not fill its bits
	// keeps to it: no step leaves it, and picked states respect it.
	for j := range e.model.Shared {
		v := e.model.SharedVar(j)
		sh := &e.model.Shared[j]
		if sh.Unbounded || sh.Hi-sh.Lo+1 == 1<<bitsFor(sh.Hi-sh.Lo) {
			continue
		}
		ts, err := enc.counterTerms(v, 1, false)
		if err != nil {
			return errkind.Errorf(errkind.Limit, "symbolic: domain of %s: %w", sh.Name, err)
		}
		dom, err := linear(b, ts, -int64(sh.Hi-sh.Lo), presburger.Le)
		if err != nil {
			return errkind.Errorf(errkind.Limit, "symbolic: domain of %s: %w", sh.Name, err)
		}
		e.pools = append(e.pools, dom)
	}
	e.space = b.True()
	if e.cfg.sumSpace {
		e.space = e.withinPools(e.space)
	}
	e.init = b.False()
	for _, x := range e.model.Starts() {
		e.init = b.Or(e.init, e.vector(x))
	}
	if f := e.model.MayDeadlock; f != nil {
		n, err := e.gc.compile(f)
		if err != nil {
			return errkind.Errorf(errkind.Limit, "symbolic: deadlock condition: %w", err)
		}
		e.mayDead = n
	}
	for k, t := range e.model.Transitions {
		r, err := e.relation(k, t)
		if err != nil {
			return errkind.Errorf(errkind.Limit, "symbolic: transition %s: %w", e.model.TransitionName(&e.model.Transitions[k]), err)
		}
		e.rels = append(e.rels, r)
	}
	e.updateDead()
	if err := e.check(); err != nil {
		return err
	}
	return e.buildJustice()
}

// vector returns the BDD of one state, a value per model variable
// (current bits); each value must lie in its variable's encoding.
func (e *Checker) vector(x []int) rudd.Node {
	b := e.b
	acc := b.True()
	// Conjoin bottom-up so each step adds a node above the result.
	type lit struct {
		level int
		val   bool
	}
	var lits []lit
	for i, v := range x {
		v -= int(e.enc.lo[i])
		for j := range e.enc.cur[i] {
			lits = append(lits, lit{e.enc.cur[i][j], v>>uint(j)&1 == 1})
		}
	}
	for _, l := range lits {
		if l.val {
			acc = b.And(acc, b.Ithvar(l.level))
		} else {
			acc = b.And(acc, b.NIthvar(l.level))
		}
	}
	return acc
}

func (e *Checker) relation(k int, t counterabs.Transition) (relation, error) {
	b, enc := e.b, e.enc
	g, err := e.gc.compile(t.Guard)
	if err != nil {
		return relation{}, err
	}
	// The movers must exist: x_c >= the number of processes moving out
	// of c, for every source c (g_r implies it in models built by
	// counterabs; conjoining it keeps hand-built models honest), and
	// every assigned value must lie in its variable's domain (as the
	// guard implies too).
	en := g
	need := map[int]int64{}
	var sources []int
	for _, mv := range t.Moves() {
		if need[mv.From] == 0 {
			sources = append(sources, mv.From)
		}
		need[mv.From]++
	}
	for _, c := range sources {
		src, err := enc.counterTerms(c, 1, false)
		if err != nil {
			return relation{}, err
		}
		atLeast, err := linear(b, src, -need[c], presburger.Ge)
		if err != nil {
			return relation{}, err
		}
		en = b.And(en, atLeast)
	}
	for _, a := range t.Assign {
		j := a.Var - len(e.model.Counters)
		if j < 0 || j >= len(e.model.Shared) {
			return relation{}, fmt.Errorf("assignment to v%d, which is not a shared variable", a.Var)
		}
		dom, err := e.gc.compile(inDomain(&e.model.Shared[j], a.Value))
		if err != nil {
			return relation{}, err
		}
		en = b.And(en, dom)
	}
	r := relation{index: k, enabled: en}
	next := stepTerms(e.model, &t)
	rel := en
	var curVars, nextVars []int
	r.topLevel = enc.numVars()
	for _, u := range next {
		// x_v' - value = 0 over the next bits of v and the current bits
		// of the variables value reads.
		nxt, c1, err := enc.varTerms(u.v, 1, true)
		if err != nil {
			return relation{}, err
		}
		cur, c2, err := enc.termBits(u.value, -1, false)
		if err != nil {
			return relation{}, err
		}
		upd, err := linear(b, append(nxt, cur...), c1+c2, presburger.Eq)
		if err != nil {
			return relation{}, err
		}
		rel = b.And(rel, upd)
		r.touched = append(r.touched, u.v)
		curVars = append(curVars, enc.cur[u.v]...)
		nextVars = append(nextVars, enc.next[u.v]...)
		for _, l := range enc.cur[u.v] {
			if l < r.topLevel {
				r.topLevel = l
			}
		}
	}
	r.rel = rel
	if r.closure, err = e.transferClosure(t); err != nil {
		return relation{}, err
	}
	r.curCube = b.Makeset(curVars)
	r.nextCube = b.Makeset(nextVars)
	if r.toNext, err = b.NewReplacer(curVars, nextVars); err != nil {
		return relation{}, err
	}
	if r.toCur, err = b.NewReplacer(nextVars, curVars); err != nil {
		return relation{}, err
	}
	return r, nil
}

// inDomain says that the value of t lies in the domain of v.
func inDomain(v *gsst.Shared, t presburger.Term) presburger.Formula {
	f := presburger.Compare(t, presburger.Ge, presburger.ConstTerm(int64(v.Lo)))
	if v.Unbounded {
		return f
	}
	return presburger.Conj(f, presburger.Compare(t, presburger.Le, presburger.ConstTerm(int64(v.Hi))))
}

// update is the value of variable v after a step, a linear term over
// the variables before it.
type update struct {
	v     int
	value presburger.Term
}

// stepTerms returns the variables t changes, each with its value after
// the step as a linear term over the values before (Model.Step's
// meaning): the movers' counters (From, then To, then the other moves'
// in order), the transfers' (a transfer takes what its source held less
// the movers that left it; a source keeps only the movers that arrived
// in it and what transfers into it take), and the assigned shared
// variables. A plain transition gives
// x_From - 1 and x_To + 1, as the paper's step.
func stepTerms(m *counterabs.Model, t *counterabs.Transition) []update {
	var order []int
	val := map[int]presburger.Term{}
	touch := func(c int) {
		if _, ok := val[c]; !ok {
			order = append(order, c)
			val[c] = presburger.VarTerm(presburger.Var(c))
		}
	}
	for _, mv := range t.Moves() {
		touch(mv.From)
		touch(mv.To)
		val[mv.From] = val[mv.From].Add(presburger.ConstTerm(-1))
		val[mv.To] = val[mv.To].Add(presburger.ConstTerm(1))
	}
	if len(t.Transfers) > 0 {
		// A transfer takes the processes its source held before the
		// step less the movers that left it; a source keeps the movers
		// that arrived in it, and gains what transfers into it take.
		out := map[int]int64{}
		for _, mv := range t.Moves() {
			out[mv.From]++
		}
		for _, mv := range t.Transfers {
			touch(mv.From)
			touch(mv.To)
		}
		moved := make([]presburger.Term, len(t.Transfers))
		for k, mv := range t.Transfers {
			moved[k] = presburger.VarTerm(presburger.Var(mv.From)).Add(presburger.ConstTerm(-out[mv.From]))
		}
		for k, mv := range t.Transfers {
			val[mv.From] = val[mv.From].Sub(moved[k])
		}
		for k, mv := range t.Transfers {
			val[mv.To] = val[mv.To].Add(moved[k])
		}
	}
	out := make([]update, 0, len(order)+len(t.Assign))
	for _, c := range order {
		out = append(out, update{c, val[c]})
	}
	for _, a := range t.Assign {
		out = append(out, update{a.Var, a.Value})
	}
	return out
}

// transferClosure returns the closure of transition t: k >= 0 repeated
// moves from x_u to x_v, that is x_u + x_v = x_u' + x_v' and x_v' >= x_v,
// with x_v' > x_v only when the rest of the guard holds. This is exact when
// the guard is x_u >= 1 and a condition on other counters, which no move
// of t changes: the moves can repeat while x_u >= 1, and x_u' >= 0 (the
// encoding is unsigned) bounds k by x_u; a next value beyond the
// encoding's range is excluded here as it is by the one-step relation.
// It returns nil when the guard reads x_u or x_v otherwise.
func (e *Checker) transferClosure(t counterabs.Transition) (rudd.Node, error) {
	if len(t.Also) > 0 || len(t.Transfers) > 0 || len(t.Assign) > 0 || t.From < 0 || t.From == t.To {
		// A step that moves more than one process or assigns shared
		// variables may change what its own guard reads.
		return nil, nil
	}
	rest, ok := withoutSource(t.Guard, presburger.Var(t.From))
	if !ok {
		return nil, nil
	}
	for _, v := range presburger.FreeVars(rest) {
		if int(v) == t.From || int(v) == t.To {
			return nil, nil
		}
	}
	b, enc := e.b, e.enc
	g, err := e.gc.compile(rest)
	if err != nil {
		return nil, err
	}
	var sum, grow, same []bitTerm
	for _, part := range []struct {
		c         int
		coef      int64
		next      bool
		sum, grow bool
	}{
		{t.From, 1, false, true, false}, {t.To, 1, false, true, true},
		{t.From, -1, true, true, false}, {t.To, -1, true, true, true},
	} {
		ts, err := enc.counterTerms(part.c, part.coef, part.next)
		if err != nil {
			return nil, err
		}
		sum = append(sum, ts...)
		if part.grow {
			// x_v' - x_v >= 0 is -(x_v - x_v') >= 0.
			neg, err := enc.counterTerms(part.c, -part.coef, part.next)
			if err != nil {
				return nil, err
			}
			grow = append(grow, neg...)
			same = append(same, ts...)
		}
	}
	keep, err := linear(b, sum, 0, presburger.Eq)
	if err != nil {
		return nil, err
	}
	up, err := linear(b, grow, 0, presburger.Ge)
	if err != nil {
		return nil, err
	}
	stay, err := linear(b, same, 0, presburger.Eq)
	if err != nil {
		return nil, err
	}
	return b.And(keep, up, b.Or(stay, g)), nil
}

// withoutSource returns g without the conjuncts that say v >= 1, and
// whether every other conjunct is free of v. False when g is not of the
// shape "v >= 1 & rest".
func withoutSource(g presburger.Formula, v presburger.Var) (presburger.Formula, bool) {
	parts := []presburger.Formula{g}
	if a, ok := g.(presburger.And); ok {
		parts = a
	}
	var rest []presburger.Formula
	found := false
	for _, p := range parts {
		if atLeastOne(p, v) {
			found = true
			continue
		}
		rest = append(rest, p)
	}
	return presburger.Conj(rest...), found
}

// atLeastOne reports whether f is a comparison equivalent to v >= 1:
// c*v + k >= 0 with c > 0 and -c <= k < 0, or c*v + k > 0 with
// -c < k <= 0.
func atLeastOne(f presburger.Formula, v presburger.Var) bool {
	c, ok := f.(presburger.Cmp)
	if !ok || len(c.T.Monos) != 1 || c.T.Monos[0].Var != v || c.T.Monos[0].Coef <= 0 {
		return false
	}
	coef, k := c.T.Monos[0].Coef, c.T.Const
	switch c.Op {
	case presburger.Ge:
		return k < 0 && -k <= coef
	case presburger.Gt:
		return k <= 0 && -k < coef
	}
	return false
}

// newBDD makes the BDD table. rudd collects garbage when the table is
// full and restarts the operation under way; it grows the table only
// when fewer than Minfreenodes percent of the nodes are free afterwards.
// At rudd's default of 20 an operation needing more than a fifth of the
// table could fill it, collect, restart and fill it again for minutes
// (GR&W d=10 q=50 m=20, group-counter model: 2 s or over 30 s from one
// run to the next); at 50 the table grows first. Each of rudd's five
// operation caches has cacheRatio percent as many entries as the node
// table: rudd resizes them so when the table grows, and they start so
// too (at 1<<16 entries each, 10 MB made and cleared for every checker,
// a fifth of the CPU time of this package's tests on their small
// models). The caches change no result; a collection keeps the nodes
// their entries name (rudd's cachemark), so their size changes the
// work, the same way on every run.
//
// The table itself starts at startNodes and doubles, without collecting
// garbage, until it reaches collectFrom nodes (rudd.Collectfrom, added
// by vsym): until then nothing is collected either way, so every node
// is made at the index, and counted in Produced and the used nodes, as
// in a table made at collectFrom nodes at once, and from there on the
// two tables are the same. Making and clearing 1<<16 nodes and their
// caches cost most test models more than their BDD work.
//
// A collection frees exactly the nodes that neither a Node the engine
// still reaches nor (below 1<<20 nodes) an entry of the operation caches
// names (rudd runs
// Go's collector first, see its README.vsym.md), so what it frees, and
// the work, node counts and answers after it, are the same on every run.
func newBDD(varnum, collectFrom int) (*rudd.BDD, error) {
	collectFrom = max(collectFrom, 2*varnum+2)
	start := min(max(startNodes, 2*varnum+2), collectFrom)
	return rudd.New(varnum, rudd.Nodesize(start), rudd.Collectfrom(collectFrom), rudd.Cachesize(start), rudd.Cacheratio(cacheRatio), rudd.Minfreenodes(50))
}

// defaultCollectFrom is the node table size from which a full table
// collects garbage rather than doubling (WithNodeTable).
const defaultCollectFrom = 1 << 16

// startNodes is the node table's size when a checker is made (newBDD).
const startNodes = 1 << 10

// cacheRatio is the size of each of rudd's operation caches, in percent
// of the node table's (newBDD).
const cacheRatio = 25

// check turns a BDD error into a Go error: the cause of an interruption
// (the context's error or an *explore.LimitError) as it is.
func (e *Checker) check() error {
	if e.stop.stopped != nil {
		return e.stop.stopped
	}
	if e.b.Errored() {
		msg := e.b.Error()
		if strings.Contains(msg, "memory") || strings.Contains(msg, "resize") || strings.Contains(msg, "nil") {
			return fmt.Errorf("%w: %s", ErrResource, msg)
		}
		return errkind.Errorf(errkind.Internal, "symbolic: bdd: %s", msg)
	}
	return nil
}

// updateDead sets dead, the states of the space with a stutter loop: no
// transition is enabled, or, on a forced model, some configuration with
// those totals may be deadlocked (Model.MayDeadlock).
func (e *Checker) updateDead() {
	b := e.b
	any := b.False()
	for _, r := range e.rels {
		any = b.Or(any, r.enabled)
	}
	stutter := b.Not(any)
	if e.mayDead != nil {
		stutter = b.Or(stutter, e.mayDead)
	}
	e.dead = b.And(e.space, stutter)
}

// image returns the successors of s by relation r.
func (e *Checker) image(r *relation, s rudd.Node) rudd.Node {
	b := e.b
	return b.Replace(b.AndExist(r.curCube, s, r.rel), r.toCur)
}

// preimage returns the predecessors of s by relation r (not restricted to
// the space).
func (e *Checker) preimage(r *relation, s rudd.Node) rudd.Node {
	b := e.b
	return b.AndExist(r.nextCube, r.rel, b.Replace(s, r.toNext))
}

// closureStep returns the states reachable from s (forward) or reaching
// s (backward) by any number of steps of r alone, from its closure.
func (e *Checker) closureStep(r *relation, s rudd.Node, forward bool) rudd.Node {
	b := e.b
	if forward {
		return b.Replace(b.AndExist(r.curCube, s, r.closure), r.toCur)
	}
	return b.AndExist(r.nextCube, r.closure, b.Replace(s, r.toNext))
}

// post returns all successors of s, the stutter self-loops of deadlocks
// included.
func (e *Checker) post(s rudd.Node) rudd.Node {
	b := e.b
	acc := b.And(s, e.dead)
	for i := range e.rels {
		acc = b.Or(acc, e.image(&e.rels[i], s))
	}
	return acc
}

// pre returns the states of the space with a successor in s (EX s).
func (e *Checker) pre(s rudd.Node) rudd.Node {
	b := e.b
	acc := b.And(s, e.dead)
	for i := range e.rels {
		acc = b.Or(acc, e.preimage(&e.rels[i], s))
	}
	return b.And(acc, e.space)
}

// lfp computes the least set Z containing base and closed under "add the
// states of allowed with a step (forward: from Z; backward: into Z)", with
// the configured strategy. It returns the set and the number of outer
// iterations.
func (e *Checker) lfp(ctx context.Context, base, allowed rudd.Node, forward bool) (rudd.Node, int, error) {
	b := e.b
	step := func(r *relation, s rudd.Node) rudd.Node {
		if forward {
			return e.image(r, s)
		}
		return e.preimage(r, s)
	}
	z := base
	iters := 0
	switch e.cfg.strategy {
	case BFS:
		frontier := z
		for !e.isFalse(frontier) {
			iters++
			if err := e.poll(ctx); err != nil {
				return nil, iters, err
			}
			next := b.False()
			for i := range e.rels {
				next = b.Or(next, step(&e.rels[i], frontier))
			}
			frontier = b.And(next, b.And(allowed, b.Not(z)))
			z = b.Or(z, frontier)
			if err := e.checkBound(z); err != nil {
				return nil, iters, err
			}
		}
	default:
		// A transition's closure may jump over states outside allowed, so
		// it is used only when allowed is the whole space.
		whole := b.Equal(allowed, e.space)
		for {
			iters++
			if err := e.poll(ctx); err != nil {
				return nil, iters, err
			}
			changed := false
			for i := range e.rels {
				r := &e.rels[i]
				if e.cfg.strategy == Saturate && whole && r.closure != nil {
					add := b.And(e.closureStep(r, z, forward), b.And(allowed, b.Not(z)))
					if !e.isFalse(add) {
						changed = true
						z = b.Or(z, add)
						if err := e.checkBound(z); err != nil {
							return nil, iters, err
						}
					}
					continue
				}
				// Each round applies the transition to the states the
				// previous round added only: their older states' images
				// are already in z.
				frontier := z
				for {
					if err := e.poll(ctx); err != nil {
						return nil, iters, err
					}
					add := b.And(step(r, frontier), b.And(allowed, b.Not(z)))
					if e.isFalse(add) {
						break
					}
					changed = true
					z = b.Or(z, add)
					frontier = add
					if err := e.checkBound(z); err != nil {
						return nil, iters, err
					}
					if e.cfg.strategy != Saturate {
						break
					}
				}
			}
			if !changed {
				break
			}
		}
	}
	if err := e.check(); err != nil {
		return nil, iters, err
	}
	return z, iters, nil
}

// checkBound stops a search for the reachable states once z, a subset of
// them, holds more than e.bound states (explore.Config.MaxStates): the
// same stop, with the same error, as the explicit engine's once it has
// stored more.
func (e *Checker) checkBound(z rudd.Node) error {
	if e.bound <= 0 || e.Count(z).Cmp(big.NewInt(e.bound)) <= 0 {
		return nil
	}
	return &explore.LimitError{Kind: "states", Limit: e.bound}
}

// isFalse reports whether n is the empty set. A nil node (a failed BDD
// operation) counts as empty so that loops stop; the caller's next check
// reports the error.
func (e *Checker) isFalse(n rudd.Node) bool { return n == nil || *n == 0 }

// bind makes ctx the context interrupt reads, for a call that takes one.
func (e *Checker) bind(ctx context.Context) { e.stop.ctx = ctx }

// stopper decides when rudd's interrupt hook stops an operation. It is
// apart from the Checker on purpose: rudd keeps the hook, and every node
// rudd hands out has a finalizer that keeps rudd reachable, so a hook
// that reached the Checker (and through it the nodes it holds) would
// keep every node of the run alive for ever, a whole BDD per run.
type stopper struct {
	ctx       context.Context // of the call under way (New, Reachable, Sat, Property, Check)
	maxMemory int64           // explore.Config.MaxMemory
	stopped   error           // why an operation was stopped
}

// interrupt is called by rudd every few thousand node constructions
// inside every BDD operation: it stops the operation under way when the
// context has ended or the heap's objects exceed MaxMemory, so that one long
// operation (an image, a closure step) cannot outlive either limit.
// Sampling the heap costs about a microsecond, against a few hundred for
// the node constructions between two calls.
func (s *stopper) interrupt() error {
	if s.ctx != nil {
		if err := s.ctx.Err(); err != nil {
			s.stopped = err
			return err
		}
	}
	if s.maxMemory > 0 {
		if h := heapObjects(); h > uint64(s.maxMemory) {
			s.stopped = &explore.LimitError{Kind: "memory", Limit: s.maxMemory, Bytes: int64(h)}
			return s.stopped
		}
	}
	return nil
}

// poll samples statistics, reports progress and honours cancellation
// between fixpoint iterations; it also makes ctx the one interrupt reads
// inside the operations that follow.
func (e *Checker) poll(ctx context.Context) error {
	if ctx != nil {
		e.bind(ctx)
	}
	e.sample()
	e.phase.Iterations++
	if f := e.shared.Progress; f != nil {
		if now := time.Now(); now.Sub(e.lastReport) >= e.shared.ProgressEvery {
			e.lastReport = now
			ev := e.phase
			ev.Nodes = int64(e.nodes)
			f(ev)
		}
	}
	if err := e.check(); err != nil {
		return err
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if e.budget > 0 && e.stats.Produced > e.budget {
		return errCheap
	}
	if lim := e.shared.MaxWork; lim > 0 && e.stats.Produced > lim {
		return fmt.Errorf("%w: %d nodes produced, over the budget of %d", ErrWork, e.stats.Produced, lim)
	}
	if lim := e.shared.MaxMemory; lim > 0 {
		if h := heapObjects(); h > uint64(lim) {
			return &explore.LimitError{Kind: "memory", Limit: lim, Bytes: int64(h)}
		}
	}
	return nil
}

var heapSamples = []metrics.Sample{
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

func (e *Checker) sample() {
	used, alloc, produced := nodeCounts(e.b)
	e.nodes = used
	e.stats.Produced = produced + e.prior
	if used > e.stats.PeakNodes {
		e.stats.PeakNodes = used
	}
	e.stats.TableSize = alloc
	e.stats.PeakHeapBytes = max(e.stats.PeakHeapBytes, heapBytes())
}

// heapObjects samples the bytes of the Go heap's objects: the live ones
// and the dead ones not yet swept (runtime/metrics). MaxMemory bounds it
// rather than what the runtime holds from the system, which includes
// free memory kept for reuse: in a process that ran other work before (a
// test binary), that would count against this run; on the command line
// the two differ by at most the free spans.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}

// heapBytes samples the memory the Go runtime holds from the system,
// less what it has released (runtime/metrics); 0 when unavailable.
func heapBytes() uint64 {
	var s [2]metrics.Sample
	copy(s[:], heapSamples)
	metrics.Read(s[:])
	if s[0].Value.Kind() == metrics.KindUint64 && s[1].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64() - s[1].Value.Uint64()
	}
	return 0
}

// enter starts the phase ev: it is reported now, with the nodes in use,
// and then from poll with its iterations.
func (e *Checker) enter(ev progress.Event) {
	ev.Engine = BDD{}.Name()
	e.phase = ev
	if f := e.shared.Progress; f != nil {
		e.lastReport = time.Now()
		if e.b != nil {
			used, _, _ := nodeCounts(e.b)
			ev.Nodes = int64(used)
		}
		f(ev)
	}
}

// nodeCounts reads the used and allocated node counts from rudd's Stats
// text, the only place rudd exposes them.
func nodeCounts(b *rudd.BDD) (used, alloc, produced int) {
	for _, line := range strings.Split(b.Stats(), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "Allocated:":
			alloc, _ = strconv.Atoi(f[1])
		case "Used:":
			used, _ = strconv.Atoi(f[1])
		case "Produced:":
			produced, _ = strconv.Atoi(f[1])
		}
	}
	return used, alloc, produced
}

// Reachable computes the reachable states (once) and restricts the space
// to them.
func (e *Checker) Reachable(ctx context.Context) (rudd.Node, error) {
	e.bind(ctx)
	if e.reach != nil {
		return e.reach, nil
	}
	t0 := time.Now()
	e.enter(progress.Event{Phase: progress.Reach})
	e.bound = e.shared.MaxStates
	r, it, err := e.lfp(ctx, e.init, e.space, true)
	e.bound = 0
	if err != nil {
		return nil, err
	}
	e.reach = r
	e.space = r
	e.cache = nil
	e.preMemo = nil
	e.updateDead()
	e.stats.ReachIters = it
	e.stats.ReachTime = time.Since(t0)
	return r, e.check()
}

// reachableIfCheap computes the reachable states, as Reachable does,
// when they take at most cheapReach BDD nodes produced: a backward
// fixpoint then runs within them instead of over every vector of the
// encoding, where it may find far more than the initial state's future
// (issue 26: a spec with one reachable state whose backward EG ran for
// minutes). Past the budget it gives up, and the properties are decided
// backwards. The budget is work, so the choice is the same on every
// machine.
func (e *Checker) reachableIfCheap(ctx context.Context) error {
	if !e.cfg.cheap {
		return nil
	}
	e.budget = e.stats.Produced + cheapReach
	_, err := e.Reachable(ctx)
	e.budget = 0
	if errors.Is(err, errCheap) {
		e.stop.stopped = nil
		return nil
	}
	return err
}

// cheapReach is the work budget of reachableIfCheap, in BDD nodes
// produced; a variable for tests.
var cheapReach = 1_000_000

// errCheap stops reachableIfCheap's fixpoint at its budget.
var errCheap = errors.New("symbolic: the reachable states are not cheap")

// concreteCount returns the number of process-indexed configurations the
// states of s stand for (explore.ConcreteCounter), enumerating them.
func (e *Checker) concreteCount(ctx context.Context, s rudd.Node) (*big.Int, error) {
	c := explore.NewConcreteCounter(e.model)
	x := make([]int64, len(e.enc.cur))
	b := e.b
	nv := len(e.levelNext)
	var err error
	steps := 0
	var walk func(n rudd.Node, level int)
	walk = func(n rudd.Node, level int) {
		if err != nil || *n == 0 {
			return
		}
		if steps++; steps&0xfff == 0 {
			if err = ctx.Err(); err != nil {
				return
			}
		}
		if level == nv {
			y := make([]int64, len(x))
			for i := range x {
				y[i] = x[i] + e.enc.lo[i]
			}
			c.Add(y)
			return
		}
		if e.levelNext[level] {
			walk(n, level+1)
			return
		}
		lo, hi := n, n
		if *n > 1 && b.Label(n) == level {
			lo, hi = b.Low(n), b.High(n)
		}
		bit := int64(1) << uint(e.levelBit[level])
		v := e.levelCounter[level]
		walk(lo, level+1)
		x[v] |= bit
		walk(hi, level+1)
		x[v] &^= bit
	}
	walk(s, 0)
	if err != nil {
		return nil, err
	}
	return c.Total(), nil
}

// Count returns the number of counter vectors in s (a set over the
// current bits).
func (e *Checker) Count(s rudd.Node) *big.Int {
	c := e.b.Satcount(s)
	// Satcount ranges over every BDD variable; s does not depend on the
	// next-state copies, which double the count each.
	return c.Rsh(c, uint(e.enc.bits))
}

// Stats returns the resource figures so far.
func (e *Checker) Stats() Stats {
	e.sample()
	return e.stats
}

// contains reports whether the counter vector x is in s.
func (e *Checker) contains(s rudd.Node, x []int) bool {
	b := e.b
	n := s
	if n == nil {
		return false
	}
	for *n > 1 {
		l := b.Label(n)
		if l < 0 {
			return false
		}
		bit := false
		if !e.levelNext[l] {
			i := e.levelCounter[l]
			bit = (x[i]-int(e.enc.lo[i]))>>uint(e.levelBit[l])&1 == 1
		}
		if bit {
			n = b.High(n)
		} else {
			n = b.Low(n)
		}
	}
	return *n == 1
}

// withinPools returns the vectors of s where every pool has its sum.
func (e *Checker) withinPools(s rudd.Node) rudd.Node {
	for _, p := range e.pools {
		s = e.b.And(s, p)
	}
	return s
}
