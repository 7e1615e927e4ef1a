package explicit

import (
	"context"
	"math/big"
	"slices"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/progress"
)

// Engine is the explicit-state engine as an explore.Engine. It has no
// settings of its own: it reads explore.Config only.
type Engine struct{}

// Name returns "explicit".
func (Engine) Name() string { return "explicit" }

// Check explores the reachable states of m and checks its properties.
func (Engine) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	sp, err := newSpace(m)
	if err != nil {
		return nil, err
	}
	return run(ctx, sp, explore.NewConfig(opts...))
}

// engine holds one exploration: the space, the visited states in BFS
// order and the facts CTL checking needs.
type engine struct {
	ctx      context.Context
	sp       *space
	st       *store
	opt      explore.Config
	start    time.Time
	deadlock bitset
	nDead    int
	ninit    int // the initial states are states 0 ... ninit-1
	ticks    int
	cache    map[string]bitset // sat results for the property being checked
	justice  []ejustice        // the model's justice constraints (fair.go)
	rev      *reverse          // a general space's predecessors (general.go)
	// dist and visited belong to the breadth-first search of a trace
	// segment under way (trace.go): each state's distance, -1 when not
	// visited, and the states visited, so that resetting costs what the
	// search did.
	dist    []int32
	visited []int32
	// watch follows the unbounded shared variables (growth.go), and
	// growth is the first of them found past its explore.GrowthBound.
	watch  []watched
	growth *explore.Growth
}

// maxDeadlockExamples bounds Report.DeadlockExamples.
const maxDeadlockExamples = 3

func run(ctx context.Context, sp *space, cfg explore.Config) (*explore.Report, error) {
	e := &engine{ctx: ctx, sp: sp, st: newStore(sp.w), start: time.Now(), opt: cfg}
	props, err := cfg.SelectProperties(sp.model)
	if err != nil {
		return nil, err
	}
	if err := e.explore(); err != nil {
		return nil, err
	}
	if sp.general && len(props) > 0 {
		// CTL checking searches backwards (eu, eg): predecessors.
		if err := e.ensureReverse(); err != nil {
			return nil, err
		}
	}
	n := e.st.n
	// CTL checking needs a few bitsets and one array of 32-bit counters
	// or distances per state on top of the store.
	if err := e.checkMemory(e.st.bytes() + int64(n)*8 + int64(n)); err != nil {
		return nil, err
	}
	rep := &explore.Report{
		System:     sp.sys.Name,
		Model:      sp.model.Level,
		Exact:      sp.model.Exact,
		Properties: []explore.PropertyResult{},
	}
	// The engine always has the counts and the deadlocks; it reports
	// what the caller asked for, as every engine does.
	if cfg.CountStates {
		rep.ReachableStates = big.NewInt(int64(n))
		rep.Deadlocks = big.NewInt(int64(e.nDead))
		if cfg.CountConcrete && explore.ConcreteCountable(sp.model, rep.ReachableStates) {
			rep.ConcreteStates = e.concreteCount()
		}
	}
	if cfg.CountStates || cfg.CheckDeadlocks {
		free := e.nDead == 0
		rep.DeadlockFree = &free
		e.report(progress.Event{Phase: progress.Deadlock})
		if err := e.deadlockPaths(rep); err != nil {
			return nil, err
		}
	}
	if err := e.prepareJustice(); err != nil {
		return nil, err
	}
	rep.Fairness = explore.FairnessTexts(sp.model)
	for i, p := range props {
		e.report(progress.Event{Phase: progress.Property, Item: p.Name, K: i + 1, N: len(props)})
		res, err := e.checkProperty(p)
		if err != nil {
			return nil, err
		}
		rep.Properties = append(rep.Properties, res)
	}
	rep.Stats = explore.Stats{Engine: Engine{}.Name(), Method: "forward", Seconds: time.Since(e.start).Seconds(), StoredBytes: e.st.bytes()}
	return rep, nil
}

// deadlockPaths adds to rep the reachable deadlocks at the least
// distance from the initial state, up to maxDeadlockExamples of them,
// the least first (explore.Compare), and (with traces on) the canonical
// shortest path to each.
func (e *engine) deadlockPaths(rep *explore.Report) error {
	if e.nDead == 0 {
		return nil
	}
	g := explicitGraph{e}
	all := e.all()
	hits, d, err := e.layersFrom(e.initials(), all, e.deadlock, false)
	defer e.endSearch()
	if err != nil {
		return err
	}
	for len(hits) > 0 && len(rep.DeadlockExamples) < maxDeadlockExamples {
		x := e.least(hits)
		hits = slices.DeleteFunc(hits, func(s int) bool { return s == x })
		rep.DeadlockExamples = append(rep.DeadlockExamples, g.State(x))
		if !e.opt.Traces {
			continue
		}
		p, err := e.walkBack(x, d, all)
		if err != nil {
			return err
		}
		states := make([]explore.State, len(p))
		for k, s := range p {
			states[k] = g.State(s)
		}
		rep.DeadlockTraces = append(rep.DeadlockTraces, explore.DeadlockTrace(e.ctx, e.sp.sys, states))
	}
	return nil
}

func (e *engine) checkMemory(bytes int64) error {
	if e.opt.MaxMemory > 0 && bytes > e.opt.MaxMemory {
		return &explore.LimitError{Kind: "memory", Limit: e.opt.MaxMemory, States: int64(e.st.n), Bytes: bytes, Growth: e.growth}
	}
	return nil
}

// report passes ev, with the engine's name and the states stored, to the
// progress function, if any.
func (e *engine) report(ev progress.Event) {
	if e.opt.Progress == nil {
		return
	}
	ev.Engine = Engine{}.Name()
	ev.States = int64(e.st.n)
	if e.growth != nil {
		ev.Note = e.growth.String()
	}
	e.opt.Progress(ev)
}

// tick is called in long loops; every 16384 calls it checks the context.
func (e *engine) tick() error {
	e.ticks++
	if e.ticks&0x3fff != 0 {
		return nil
	}
	return e.ctx.Err()
}

// explore runs the breadth-first search from the initial state. When the
// rank space is small (newRanker) visited states are marked in a bitmap
// over it and the hash index is built after the search; otherwise every
// successor goes through the hash index.
func (e *engine) explore() error {
	sp, st := e.sp, e.st
	key := make([]uint64, sp.w)
	for _, init := range sp.inits {
		if err := sp.encodeAll(init, key); err != nil {
			return err
		}
		st.insert(key)
	}
	e.ninit = st.n
	var rk *ranker
	var visited bitset
	if r := newRanker(sp); r != nil && !sp.general && !testNoRank && (e.opt.MaxMemory <= 0 || int64(r.size/8) <= e.opt.MaxMemory/4) {
		rk = r
		visited = newBitset(int(rk.size))
		for _, init := range sp.inits {
			visited.set(int(rk.rank(init)))
		}
	}
	vals := make([]int64, sp.nvals)
	succ := make([]uint64, sp.w)
	moves := sp.moves
	maxStates := e.opt.MaxStates
	if maxStates <= 0 || maxStates > maxStored {
		maxStates = maxStored
	}
	lastReport := e.start
	e.startWatch()
	e.report(progress.Event{Phase: progress.Reach, Frontier: int64(e.ninit)})
	for i := 0; i < st.n; i++ {
		if i&0x3fff == 0 {
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if err := e.checkMemory(e.searchBytes(visited)); err != nil {
				return err
			}
			if e.opt.Progress != nil {
				if now := time.Now(); now.Sub(lastReport) >= e.opt.ProgressEvery {
					lastReport = now
					e.report(progress.Event{Phase: progress.Reach, Frontier: int64(st.n - i)})
				}
			}
		}
		// Four copies of the successor loop, one per (visited set, key
		// width) pair, so the common one-word cases skip the key copy and
		// test nothing per move. They are kept apart on purpose: one loop
		// branching on rk and sp.w per move measured about 9% fewer
		// states per CPU second on BenchmarkExplicitGRWAbstract.
		enabled := false
		switch {
		case sp.general:
			sp.decode(st.key(i), vals)
			for mi := range moves {
				mv := &moves[mi]
				if mv.src >= 0 && vals[mv.src] == 0 || !mv.guard.eval(vals) { // src -1: no mover
					continue
				}
				enabled = true
				if err := sp.generalSucc(mv, vals, succ); err != nil {
					return err
				}
				if err := e.watchValues(sp.ybuf64); err != nil {
					return err
				}
				if st.needGrow() && e.opt.MaxMemory > 0 {
					if err := e.checkMemory(st.bytes() + int64(len(st.table))*6); err != nil {
						return err
					}
				}
				if _, added := st.insert(succ); added && int64(st.n) > maxStates {
					return e.stateLimit()
				}
			}
		case rk != nil && sp.w == 1:
			k := st.key1(i)
			sp.decode1(k, vals)
			rk.prepare(vals)
			for mi := range moves {
				mv := &moves[mi]
				if vals[mv.src] == 0 || !mv.guard.eval(vals) {
					continue
				}
				enabled = true
				r := rk.succ(mi)
				if visited.has(int(r)) {
					continue
				}
				visited.set(int(r))
				st.push1(k - mv.sub + mv.add)
				if int64(st.n) > maxStates {
					return e.stateLimit()
				}
			}
		case rk != nil:
			sp.decode(st.key(i), vals)
			rk.prepare(vals)
			for mi := range moves {
				mv := &moves[mi]
				if vals[mv.src] == 0 || !mv.guard.eval(vals) {
					continue
				}
				enabled = true
				r := rk.succ(mi)
				if visited.has(int(r)) {
					continue
				}
				visited.set(int(r))
				copy(succ, st.key(i))
				succ[mv.subWord] -= mv.sub
				succ[mv.addWord] += mv.add
				st.push(succ)
				if int64(st.n) > maxStates {
					return e.stateLimit()
				}
			}
		case sp.w == 1:
			k := st.key1(i)
			sp.decode1(k, vals)
			for mi := range moves {
				mv := &moves[mi]
				if vals[mv.src] == 0 || !mv.guard.eval(vals) {
					continue
				}
				enabled = true
				if st.needGrow() && e.opt.MaxMemory > 0 {
					if err := e.checkMemory(st.bytes() + int64(len(st.table))*6); err != nil {
						return err
					}
				}
				if _, added := st.insert1(k - mv.sub + mv.add); added && int64(st.n) > maxStates {
					return e.stateLimit()
				}
			}
		default:
			sp.decode(st.key(i), vals)
			for mi := range moves {
				mv := &moves[mi]
				if vals[mv.src] == 0 || !mv.guard.eval(vals) {
					continue
				}
				enabled = true
				copy(succ, st.key(i))
				succ[mv.subWord] -= mv.sub
				succ[mv.addWord] += mv.add
				if st.needGrow() && e.opt.MaxMemory > 0 {
					if err := e.checkMemory(st.bytes() + int64(len(st.table))*6); err != nil {
						return err
					}
				}
				if _, added := st.insert(succ); added && int64(st.n) > maxStates {
					return e.stateLimit()
				}
			}
		}
		if !enabled {
			e.deadlock.grow(i + 1)
			e.deadlock.set(i)
			e.nDead++
		}
	}
	e.deadlock.grow(st.n)
	if err := e.mayDeadlock(); err != nil {
		return err
	}
	st.trim()
	if rk != nil {
		// The index replaces the bitmap; count the larger of the two.
		if err := e.checkMemory(e.searchBytes(visited) + int64(st.n)*16/3); err != nil {
			return err
		}
		visited = nil
		st.index()
	}
	return nil
}

// mayDeadlock adds a stutter loop to the states of a forced model where
// some configuration with those totals may be deadlocked
// (Model.MayDeadlock), besides their transitions, so that every deadlock
// of the system has an abstract counterpart. From here on, the deadlock
// set is the set of states with a stutter loop.
func (e *engine) mayDeadlock() error {
	f := e.sp.model.MayDeadlock
	if f == nil {
		return nil
	}
	g, err := compileGuard(f, e.sp.nvals)
	if err != nil {
		return err
	}
	vals := make([]int64, e.sp.nvals)
	for i := 0; i < e.st.n; i++ {
		if err := e.tick(); err != nil {
			return err
		}
		if e.deadlock.has(i) {
			continue
		}
		e.decodeState(i, vals)
		if g.eval(vals) {
			e.deadlock.set(i)
			e.nDead++
		}
	}
	return nil
}

// testNoRank makes tests use the hash index during the search even when
// the rank space is small.
var testNoRank bool

// searchBytes estimates the memory the search holds.
func (e *engine) searchBytes(visited bitset) int64 {
	return e.st.bytes() + int64(len(e.deadlock))*8 + int64(len(visited))*8
}

func (e *engine) stateLimit() error {
	lim := e.opt.MaxStates
	if lim <= 0 {
		lim = maxStored
	}
	return &explore.LimitError{Kind: "states", Limit: lim, States: int64(e.st.n), Bytes: e.st.bytes(), Note: e.sp.stateLimitNote(), Growth: e.growth}
}

// decodeState fills vals with the valuation of state i.
func (e *engine) decodeState(i int, vals []int64) {
	if e.sp.w == 1 {
		e.sp.decode1(e.st.key1(i), vals)
	} else {
		e.sp.decode(e.st.key(i), vals)
	}
}

// succs appends the successors of state i to buf (one entry per enabled
// move; a deadlock state, or a state of a forced model that may be
// deadlocked, is its own successor).
func (e *engine) succs(i int, vals []int64, key []uint64, buf []int) []int {
	buf = buf[:0]
	e.eachSucc(i, vals, key, func(k, _ int) bool {
		buf = append(buf, k)
		return true
	})
	return buf
}

// preds appends the predecessors of state i among the reachable states,
// one entry per move leading to i; a deadlock state is its own
// predecessor.
func (e *engine) preds(i int, vals []int64, key []uint64, buf []int) []int {
	sp, st := e.sp, e.st
	buf = buf[:0]
	if sp.general {
		return e.generalPreds(i, buf)
	}
	if e.deadlock.has(i) {
		buf = append(buf, i)
	}
	copy(key, st.key(i))
	sp.decode(key, vals)
	for mi := range sp.moves {
		mv := &sp.moves[mi]
		if vals[mv.dst] == 0 {
			continue
		}
		mv.apply(vals, -1)
		if mv.guard.eval(vals) {
			key[mv.addWord] -= mv.add
			key[mv.subWord] += mv.sub
			if j := st.lookup(key); j >= 0 {
				buf = append(buf, j)
			}
			key[mv.subWord] -= mv.sub
			key[mv.addWord] += mv.add
		}
		mv.apply(vals, +1)
	}
	return buf
}

// concreteCount returns the number of process-indexed configurations the
// states of a group-counter model stand for (explore.ConcreteCounter),
// or nil when the context ended.
func (e *engine) concreteCount() *big.Int {
	c := explore.NewConcreteCounter(e.sp.model)
	vals := make([]int64, e.sp.nvals)
	for i := 0; i < e.st.n; i++ {
		if e.tick() != nil {
			return nil
		}
		e.decodeState(i, vals)
		c.Add(vals)
	}
	return c.Total()
}

// bitset is a set of state numbers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b *bitset) grow(n int) {
	for len(*b) < (n+63)/64 {
		*b = append(*b, 0)
	}
}

func (b bitset) has(i int) bool { return i>>6 < len(b) && b[i>>6]&(1<<uint(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) clear(i int)    { b[i>>6] &^= 1 << uint(i&63) }

// not returns the complement within 0..n-1.
func (b bitset) not(n int) bitset {
	out := newBitset(n)
	for i := range out {
		out[i] = ^b[i]
	}
	if r := n & 63; r != 0 {
		out[len(out)-1] &= 1<<uint(r) - 1
	}
	return out
}

func (b bitset) and(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range out {
		out[i] = b[i] & c[i]
	}
	return out
}

func (b bitset) or(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range out {
		out[i] = b[i] | c[i]
	}
	return out
}

// initials returns the initial states.
func (e *engine) initials() []int {
	out := make([]int, e.ninit)
	for i := range out {
		out[i] = i
	}
	return out
}
