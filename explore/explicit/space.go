package explicit

import (
	"math/bits"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// space is the transition system the explicit engine explores: a counter
// model of any level.
//
// A state is a valuation: a vector of counter values indexed by
// presburger variable number (counter i is variable i), so compiled
// guards read it directly.
//
// The stored key packs the independent counters of each pool (a set of
// counters with a fixed sum: all counters of a total-counter model, one
// group's counters in a group-counter model) as small binary fields,
// leaving out the last counter of each pool, which is the sum minus the
// others. A field never straddles two words. Because a move changes one
// field by -1 and one by +1 without leaving their ranges, the successor
// key is the current key plus a constant: no re-encoding in the hot loop.
type space struct {
	model *counterabs.Model
	sys   *gsst.System
	nvals int // length of a valuation: the number of counters

	pools []pool
	slots []slot // packed fields
	w     int    // words per key
	moves []move
	inits [][]int64 // the initial states: states 0 ... ninit-1 of the search

	// A model with constructs beyond the paper (general.go): general
	// is set, shared holds the fields of its shared variables, and
	// ybuf64 is a scratch valuation for counterabs.StepInto.
	general bool
	shared  []sharedSlot
	ybuf64  []int64
}

type pool struct {
	idx  []int32 // valuation indices; the last one is not stored
	sum  int64
	slot []int // slot of idx[i] for i < len(idx)-1
}

type slot struct {
	idx   int32
	word  int32
	shift uint8
	mask  uint64
}

// move is one transition of the model: it takes one unit from counter src
// to counter dst when guard holds and src >= 1 (src -1: a step of the
// general kind that moves no process, which generalSucc takes).
type move struct {
	guard    *guard
	src, dst int32
	subWord  int32
	addWord  int32
	sub, add uint64 // key field units; 0 for the unstored last counter
	trans    int    // index into Model.Transitions
}

// newSpace builds the space of a model from counterabs, which has checked
// it; only the engine's own limit is checked here.
func newSpace(m *counterabs.Model) (*space, error) {
	if len(m.Counters) > maxCounters {
		return nil, errkind.Errorf(errkind.Limit, "explore: %d counters; the explicit engine handles at most %d", len(m.Counters), maxCounters)
	}
	sp := &space{model: m, sys: m.System, nvals: m.NumVars(), general: !m.UnitMoves()}
	sp.ybuf64 = make([]int64, sp.nvals)
	for _, p := range m.Pools {
		idx := make([]int32, len(p.Counters))
		for i, c := range p.Counters {
			idx[i] = int32(c)
		}
		sp.pools = append(sp.pools, pool{idx: idx, sum: int64(p.Sum)})
	}
	sp.layout()
	for k := range m.Transitions {
		t := &m.Transitions[k]
		g, err := compileGuard(t.Guard, sp.nvals)
		if err != nil {
			return nil, errkind.Errorf(errkind.Internal, "explore: guard of %s: %w", m.TransitionName(t), err)
		}
		sp.moves = append(sp.moves, sp.keyDelta(move{guard: g, src: int32(t.From), dst: int32(t.To), trans: k}))
	}
	for _, start := range m.Starts() {
		init := make([]int64, sp.nvals)
		for i, c := range start {
			init[i] = int64(c)
		}
		sp.inits = append(sp.inits, init)
	}
	return sp, nil
}

// maxCounters bounds the counters of a model the explicit engine takes: a
// valuation is a slice of this length per state visited in traces, and
// beyond it no model has a searchable state space.
const maxCounters = 1 << 16

// testWordBits, when positive, makes layout pretend words hold only that
// many bits, so tests exercise multi-word keys on small systems.
var testWordBits int

// layout assigns packed fields to the stored counters of every pool.
func (sp *space) layout() {
	limit := 64
	if testWordBits > 0 {
		limit = testWordBits
	}
	word, used := 0, 0
	for p := range sp.pools {
		pl := &sp.pools[p]
		width := bits.Len64(uint64(pl.sum))
		pl.slot = make([]int, len(pl.idx)-1)
		for i := 0; i+1 < len(pl.idx); i++ {
			if used+width > limit && used > 0 {
				word, used = word+1, 0
			}
			var mask uint64
			if width > 0 {
				mask = 1<<uint(width) - 1
			}
			pl.slot[i] = len(sp.slots)
			sp.slots = append(sp.slots, slot{idx: pl.idx[i], word: int32(word), shift: uint8(used), mask: mask})
			used += width
		}
	}
	if len(sp.model.Shared) > 0 {
		word = sp.layoutShared(word, used, limit)
	}
	sp.w = word + 1
}

// fieldOf returns the slot storing valuation index v, or -1 for an
// unstored (last) or derived counter.
func (sp *space) fieldOf(v int32) int {
	for i, s := range sp.slots {
		if s.idx == v {
			return i
		}
	}
	return -1
}

func (sp *space) keyDelta(mv move) move {
	if s := sp.fieldOf(mv.src); s >= 0 {
		mv.subWord, mv.sub = sp.slots[s].word, 1<<sp.slots[s].shift
	}
	if s := sp.fieldOf(mv.dst); s >= 0 {
		mv.addWord, mv.add = sp.slots[s].word, 1<<sp.slots[s].shift
	}
	return mv
}

// decode fills v from key.
func (sp *space) decode(key []uint64, v []int64) {
	for i := range sp.slots {
		s := &sp.slots[i]
		v[s.idx] = int64(key[s.word] >> s.shift & s.mask)
	}
	sp.finish(v)
	if sp.shared != nil {
		sp.decodeShared(key, v)
	}
}

// decode1 is decode for one-word keys.
func (sp *space) decode1(key uint64, v []int64) {
	for i := range sp.slots {
		s := &sp.slots[i]
		v[s.idx] = int64(key >> s.shift & s.mask)
	}
	sp.finish(v)
	if sp.shared != nil {
		sp.decodeShared([]uint64{key}, v)
	}
}

// finish computes the unstored last counter of each pool.
func (sp *space) finish(v []int64) {
	for p := range sp.pools {
		pl := &sp.pools[p]
		rest := pl.sum
		for _, x := range pl.idx[:len(pl.idx)-1] {
			rest -= v[x]
		}
		v[pl.idx[len(pl.idx)-1]] = rest
	}
}

// encode packs valuation v into key (len sp.w).
func (sp *space) encode(v []int64, key []uint64) {
	for i := range key {
		key[i] = 0
	}
	for i := range sp.slots {
		s := &sp.slots[i]
		key[s.word] |= uint64(v[s.idx]) << s.shift
	}
}

// state converts a valuation to a trace state.
func (sp *space) state(v []int64) explore.State {
	x := make([]int, len(v))
	for i, c := range v {
		x[i] = int(c)
	}
	return explore.CounterState(sp.model, x)
}

// apply changes v by move mv (forward when dir is +1, backward when -1).
func (mv *move) apply(v []int64, dir int64) {
	v[mv.src] -= dir
	v[mv.dst] += dir
}
