package explore

import (
	"fmt"
	"math/bits"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
)

// space is the transition system the explicit engine explores, in a form
// shared by both modes.
//
// A state is a valuation: a vector of counter values indexed by
// presburger variable number, so compiled guards read it directly. In
// abstract mode the valuation is the counter vector x (variables 0..m-1).
// In concrete mode it is the full set of the system's counter variables:
// the total counters 0..m-1 followed by the group counters #S[g] at
// System.GroupVar(s, g); the group counters are the state (the sorted
// canonical form of SymmSpin: a group's processes are interchangeable,
// so only how many of them sit in each local state matters) and the
// totals are derived from them.
//
// The stored key packs the independent counters of each pool (a set of
// counters with a fixed sum: all counters in abstract mode, one group's
// counters in concrete mode) as small binary fields, leaving out the last
// counter of each pool, which is the sum minus the others. A field never
// straddles two words. Because a move changes one field by -1 and one by
// +1 without leaving their ranges, the successor key is the current key
// plus a constant: no re-encoding in the hot loop.
type space struct {
	mode  Mode
	sys   *gsst.System
	m     int // local states
	d     int // groups (concrete mode)
	nvals int // length of a valuation
	exact bool

	pools []pool
	slots []slot // packed fields
	w     int    // words per key
	moves []move
	init  []int64
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

// move is one way to leave a state: in abstract mode one abstract
// transition, in concrete mode one (transition, group) pair. It takes one
// unit from counter src to counter dst (and, in concrete mode, from total
// tsrc to total tdst) when guard holds and src >= 1.
type move struct {
	guard      *guard
	src, dst   int32
	tsrc, tdst int32 // -1 in abstract mode
	subWord    int32
	addWord    int32
	sub, add   uint64 // key field units; 0 for the unstored last counter
	trans      int    // index into System.Transitions, -1 when unknown
	group      int    // concrete mode: the moving group; -1 in abstract mode
	from, to   int    // local states
}

// newAbstractSpace builds the space of a counter-abstracted model.
func newAbstractSpace(am *counterabs.Model) (*space, error) {
	if am == nil || am.System == nil {
		return nil, fmt.Errorf("explore: model without a system")
	}
	sys := am.System
	m := len(sys.States)
	if m == 0 {
		return nil, fmt.Errorf("explore: system has no local states")
	}
	if am.N < 0 || am.N > gsst.MaxProcesses {
		return nil, fmt.Errorf("explore: number of processes %d out of range", am.N)
	}
	if len(am.Init) != m {
		return nil, fmt.Errorf("explore: initial vector has %d counters, want %d", len(am.Init), m)
	}
	sum := 0
	for _, c := range am.Init {
		if c < 0 {
			return nil, fmt.Errorf("explore: negative initial counter")
		}
		sum += c
	}
	if sum != am.N {
		return nil, fmt.Errorf("explore: initial counters sum to %d, want %d", sum, am.N)
	}
	sp := &space{mode: Abstract, sys: sys, m: m, nvals: m, exact: am.Certified}
	idx := make([]int32, m)
	for i := range idx {
		idx[i] = int32(i)
	}
	sp.pools = []pool{{idx: idx, sum: int64(am.N)}}
	sp.layout()
	for _, t := range am.Transitions {
		if t.From < 0 || t.From >= m || t.To < 0 || t.To >= m || t.From == t.To {
			return nil, fmt.Errorf("explore: abstract transition %d -> %d out of range", t.From, t.To)
		}
		g, err := compileGuard(t.Guard, m)
		if err != nil {
			return nil, fmt.Errorf("explore: guard of %s -> %s: %v", sys.States[t.From], sys.States[t.To], err)
		}
		mv := move{guard: g, src: int32(t.From), dst: int32(t.To), tsrc: -1, tdst: -1,
			trans: -1, group: -1, from: t.From, to: t.To}
		for i := range sys.Transitions {
			if t.Local == &sys.Transitions[i] {
				mv.trans = i
			}
		}
		sp.moves = append(sp.moves, sp.keyDelta(mv))
	}
	sp.init = make([]int64, m)
	for i, c := range am.Init {
		sp.init[i] = int64(c)
	}
	return sp, nil
}

// newConcreteSpace builds the group-counter space of the unreduced system.
func newConcreteSpace(sys *gsst.System) (*space, error) {
	if sys == nil {
		return nil, fmt.Errorf("explore: no system")
	}
	m, d := len(sys.States), len(sys.Groups)
	if m == 0 || d == 0 {
		return nil, fmt.Errorf("explore: system needs local states and groups")
	}
	if len(sys.Init) != d {
		return nil, fmt.Errorf("explore: initial configuration has %d groups, want %d", len(sys.Init), d)
	}
	sp := &space{mode: Concrete, sys: sys, m: m, d: d, nvals: sys.NumVars(), exact: true}
	sp.init = make([]int64, sp.nvals)
	total := 0
	for g, grp := range sys.Groups {
		if grp.Size < 0 || len(sys.Init[g]) != m {
			return nil, fmt.Errorf("explore: bad initial configuration of group %s", grp.Name)
		}
		idx := make([]int32, m)
		sum := 0
		for s := 0; s < m; s++ {
			v := int(sys.GroupVar(s, g))
			idx[s] = int32(v)
			c := sys.Init[g][s]
			if c < 0 {
				return nil, fmt.Errorf("explore: negative initial count in group %s", grp.Name)
			}
			sp.init[v] = int64(c)
			sp.init[s] += int64(c)
			sum += c
		}
		if sum != grp.Size {
			return nil, fmt.Errorf("explore: initial counts of group %s sum to %d, want %d", grp.Name, sum, grp.Size)
		}
		total += sum
		sp.pools = append(sp.pools, pool{idx: idx, sum: int64(grp.Size)})
	}
	if total > gsst.MaxProcesses {
		return nil, fmt.Errorf("explore: %d processes exceed the limit of %d", total, gsst.MaxProcesses)
	}
	sp.layout()
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		if t.From < 0 || t.From >= m || t.To < 0 || t.To >= m || t.From == t.To {
			return nil, fmt.Errorf("explore: transition %d -> %d out of range", t.From, t.To)
		}
		for bi := range t.Blocks {
			b := &t.Blocks[bi]
			g, err := compileGuard(b.Guard, sp.nvals)
			if err != nil {
				return nil, fmt.Errorf("explore: guard of %s: %v", sys.TransitionName(t), err)
			}
			for _, grp := range b.Groups {
				if grp < 0 || grp >= d || t.BlockOf(grp) != b {
					// A group listed in two blocks takes the first, as
					// BlockOf does.
					continue
				}
				mv := move{guard: g,
					src: int32(sys.GroupVar(t.From, grp)), dst: int32(sys.GroupVar(t.To, grp)),
					tsrc: int32(t.From), tdst: int32(t.To),
					trans: ti, group: grp, from: t.From, to: t.To}
				sp.moves = append(sp.moves, sp.keyDelta(mv))
			}
		}
	}
	return sp, nil
}

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
}

// decode1 is decode for one-word keys.
func (sp *space) decode1(key uint64, v []int64) {
	for i := range sp.slots {
		s := &sp.slots[i]
		v[s.idx] = int64(key >> s.shift & s.mask)
	}
	sp.finish(v)
}

// finish computes the unstored last counter of each pool and, in concrete
// mode, the total counters.
func (sp *space) finish(v []int64) {
	for p := range sp.pools {
		pl := &sp.pools[p]
		rest := pl.sum
		for _, x := range pl.idx[:len(pl.idx)-1] {
			rest -= v[x]
		}
		v[pl.idx[len(pl.idx)-1]] = rest
	}
	if sp.mode == Concrete {
		for s := 0; s < sp.m; s++ {
			var t int64
			for g := 0; g < sp.d; g++ {
				t += v[sp.m+s*sp.d+g]
			}
			v[s] = t
		}
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
func (sp *space) state(v []int64) State {
	st := State{Counters: make([]int, sp.m)}
	for s := 0; s < sp.m; s++ {
		st.Counters[s] = int(v[s])
	}
	if sp.mode == Concrete {
		st.Groups = make([][]int, sp.d)
		for g := range st.Groups {
			st.Groups[g] = make([]int, sp.m)
			for s := 0; s < sp.m; s++ {
				st.Groups[g][s] = int(v[sp.m+s*sp.d+g])
			}
		}
	}
	return st
}

// apply changes v by move mv (forward when dir is +1, backward when -1).
func (mv *move) apply(v []int64, dir int64) {
	v[mv.src] -= dir
	v[mv.dst] += dir
	if mv.tsrc >= 0 {
		v[mv.tsrc] -= dir
		v[mv.tdst] += dir
	}
}
