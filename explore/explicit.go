package explore

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
)

// Option configures an exploration.
type Option func(*options)

type options struct {
	maxStates int64
	maxMemory int64
	progress  func(Progress)
	every     time.Duration
	names     []string
	selected  bool
	examples  int
	noCount   bool
}

// MaxStates stops the search with a *LimitError once more than n states
// are stored. Zero or negative means no bound.
func MaxStates(n int64) Option { return func(o *options) { o.maxStates = n } }

// MaxMemory stops the search with a *LimitError when the estimated memory
// of the state store and the model checking data exceeds b bytes. Zero
// or negative means no bound.
func MaxMemory(b int64) Option { return func(o *options) { o.maxMemory = b } }

// OnProgress calls f about once every interval while the search runs
// (the first call comes after one interval). The callback runs on the
// search goroutine and should return quickly.
func OnProgress(interval time.Duration, f func(Progress)) Option {
	return func(o *options) { o.progress, o.every = f, interval }
}

// Properties restricts model checking to the named properties, in the
// given order. A name the system does not define is an error.
func Properties(names ...string) Option {
	return func(o *options) { o.names, o.selected = names, true }
}

// CountConcrete turns the concrete-mode count of process-indexed
// configurations (Report.ConcreteStates) on or off; it is on by default
// and costs about a microsecond per state.
func CountConcrete(on bool) Option { return func(o *options) { o.noCount = !on } }

// CheckAbstract explores the counter-abstracted model am and checks the
// system's properties on it. The result is exact when am.Certified.
func CheckAbstract(ctx context.Context, am *counterabs.Model, opts ...Option) (*Report, error) {
	sp, err := newAbstractSpace(am)
	if err != nil {
		return nil, err
	}
	return run(ctx, sp, opts)
}

// CheckConcrete explores the unreduced system sys, canonicalizing states
// by sorting the processes of each group (group counters), and checks its
// properties. It needs no certification: processes of one group are
// interchangeable in every GSST, and properties read total counters only.
func CheckConcrete(ctx context.Context, sys *gsst.System, opts ...Option) (*Report, error) {
	sp, err := newConcreteSpace(sys)
	if err != nil {
		return nil, err
	}
	return run(ctx, sp, opts)
}

// engine holds one exploration: the space, the visited states in BFS
// order and the facts CTL checking needs.
type engine struct {
	ctx      context.Context
	sp       *space
	st       *store
	opt      options
	start    time.Time
	deadlock bitset
	nDead    int
	ticks    int
	cache    map[string]bitset // sat results for the property being checked
}

func run(ctx context.Context, sp *space, opts []Option) (*Report, error) {
	e := &engine{ctx: ctx, sp: sp, st: newStore(sp.w), start: time.Now()}
	e.opt.examples = 3
	for _, o := range opts {
		o(&e.opt)
	}
	props, err := e.selectProperties()
	if err != nil {
		return nil, err
	}
	if err := e.explore(); err != nil {
		return nil, err
	}
	n := e.st.n
	// CTL checking needs a few bitsets and one array of 32-bit counters
	// or parents per state on top of the store.
	if err := e.checkMemory(e.st.bytes() + int64(n)*8 + int64(n)); err != nil {
		return nil, err
	}
	rep := &Report{
		System:          sp.sys.Name,
		Engine:          "explicit",
		Mode:            sp.mode,
		Exact:           sp.exact,
		ReachableStates: big.NewInt(int64(n)),
		Deadlocks:       big.NewInt(int64(e.nDead)),
		Properties:      []PropertyResult{},
	}
	vals := make([]int64, sp.nvals)
	for i := 0; i < n && len(rep.DeadlockExamples) < e.opt.examples; i++ {
		if e.deadlock.has(i) {
			e.decodeState(i, vals)
			rep.DeadlockExamples = append(rep.DeadlockExamples, sp.state(vals))
		}
	}
	if sp.mode == Concrete && !e.opt.noCount {
		rep.ConcreteStates = e.concreteCount()
	}
	for _, p := range props {
		res, err := e.checkProperty(p)
		if err != nil {
			return nil, err
		}
		rep.Properties = append(rep.Properties, res)
	}
	rep.Stats = Stats{Seconds: time.Since(e.start).Seconds(), StoredBytes: e.st.bytes()}
	return rep, nil
}

func (e *engine) selectProperties() ([]*gsst.Property, error) {
	sys := e.sp.sys
	if !e.opt.selected {
		out := make([]*gsst.Property, len(sys.Properties))
		for i := range sys.Properties {
			out[i] = &sys.Properties[i]
		}
		return out, nil
	}
	var out []*gsst.Property
	for _, name := range e.opt.names {
		found := false
		for i := range sys.Properties {
			if sys.Properties[i].Name == name {
				out = append(out, &sys.Properties[i])
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("explore: no property named %q", name)
		}
	}
	return out, nil
}

func (e *engine) checkMemory(bytes int64) error {
	if e.opt.maxMemory > 0 && bytes > e.opt.maxMemory {
		return &LimitError{Kind: "memory", Limit: e.opt.maxMemory, States: int64(e.st.n), Bytes: bytes}
	}
	return nil
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
	sp.encode(sp.init, key)
	st.insert(key)
	var rk *ranker
	var visited bitset
	if r := newRanker(sp); r != nil && !testNoRank && (e.opt.maxMemory <= 0 || int64(r.size/8) <= e.opt.maxMemory/4) {
		rk = r
		visited = newBitset(int(rk.size))
		visited.set(int(rk.rank(sp.init)))
	}
	vals := make([]int64, sp.nvals)
	succ := make([]uint64, sp.w)
	moves := sp.moves
	maxStates := e.opt.maxStates
	if maxStates <= 0 || maxStates > maxStored {
		maxStates = maxStored
	}
	lastReport := e.start
	for i := 0; i < st.n; i++ {
		if i&0x3fff == 0 {
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if err := e.checkMemory(e.searchBytes(visited)); err != nil {
				return err
			}
			if e.opt.progress != nil {
				if now := time.Now(); now.Sub(lastReport) >= e.opt.every {
					lastReport = now
					e.opt.progress(Progress{States: int64(st.n), Frontier: int64(st.n - i), Elapsed: now.Sub(e.start)})
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
				if st.needGrow() && e.opt.maxMemory > 0 {
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
				if st.needGrow() && e.opt.maxMemory > 0 {
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

// testNoRank makes tests use the hash index during the search even when
// the rank space is small.
var testNoRank bool

// searchBytes estimates the memory the search holds.
func (e *engine) searchBytes(visited bitset) int64 {
	return e.st.bytes() + int64(len(e.deadlock))*8 + int64(len(visited))*8
}

func (e *engine) stateLimit() error {
	lim := e.opt.maxStates
	if lim <= 0 {
		lim = maxStored
	}
	return &LimitError{Kind: "states", Limit: lim, States: int64(e.st.n), Bytes: e.st.bytes()}
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
// move; a deadlock state is its own successor).
func (e *engine) succs(i int, vals []int64, key []uint64, buf []int) []int {
	sp, st := e.sp, e.st
	buf = buf[:0]
	if e.deadlock.has(i) {
		return append(buf, i)
	}
	copy(key, st.key(i))
	sp.decode(key, vals)
	for mi := range sp.moves {
		mv := &sp.moves[mi]
		if vals[mv.src] == 0 || !mv.guard.eval(vals) {
			continue
		}
		key[mv.subWord] -= mv.sub
		key[mv.addWord] += mv.add
		if j := st.lookup(key); j >= 0 {
			buf = append(buf, j)
		}
		key[mv.addWord] -= mv.add
		key[mv.subWord] += mv.sub
	}
	return buf
}

// preds appends the predecessors of state i among the reachable states,
// one entry per move leading to i; a deadlock state is its own
// predecessor.
func (e *engine) preds(i int, vals []int64, key []uint64, buf []int) []int {
	sp, st := e.sp, e.st
	buf = buf[:0]
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
// canonical states stand for, or nil when that is too costly: more than
// maxMultinomialN processes (the multinomials grow huge) or more than
// maxCountStates states (about a microsecond each), or the context ended.
func (e *engine) concreteCount() *big.Int {
	sp := e.sp
	if sp.sys.N() > maxMultinomialN || e.st.n > maxCountStates {
		return nil
	}
	cache := make([]map[string]*big.Int, sp.d)
	for g := range cache {
		cache[g] = map[string]*big.Int{}
	}
	vals := make([]int64, sp.nvals)
	kb := make([]byte, 0, 4*sp.m)
	total, prod := new(big.Int), new(big.Int)
	for i := 0; i < e.st.n; i++ {
		if e.tick() != nil {
			return nil
		}
		e.decodeState(i, vals)
		prod.SetInt64(1)
		for g := 0; g < sp.d; g++ {
			kb = kb[:0]
			for s := 0; s < sp.m; s++ {
				x := vals[sp.m+s*sp.d+g]
				kb = append(kb, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
			}
			mn, ok := cache[g][string(kb)]
			if !ok {
				mn = big.NewInt(1)
				rest := int64(sp.sys.Groups[g].Size)
				var b big.Int
				for s := 0; s < sp.m; s++ {
					x := vals[sp.m+s*sp.d+g]
					mn.Mul(mn, b.Binomial(rest, x))
					rest -= x
				}
				cache[g][string(kb)] = mn
			}
			prod.Mul(prod, mn)
		}
		total.Add(total, prod)
	}
	return total
}

// Bounds on the systems whose concrete state count is computed (see
// concreteCount).
const (
	maxMultinomialN = 1000
	maxCountStates  = 10_000_000
)

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
