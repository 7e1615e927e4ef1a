package explicit

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/progress"
)

// The general moves. A model whose transitions do more than move one
// process between two counters (shared variables and their
// assignments, several movers, broadcast transfers: not
// counterabs.Model.UnitMoves) has moves whose successor key is no
// constant offset of the key: the engine then decodes the state, takes
// the successor from counterabs.Model.Step, the one meaning of a step,
// and encodes it. Such a space has no ranker, and predecessors come from a
// reverse index of the successor relation, built once when CTL checking
// first needs it.
//
// Shared variables are stored after the pools' fields, each as its
// value less the least of its domain: a bounded one in as many bits as
// its domain needs, an unbounded one in maxUnboundedBits bits. The search
// of a model with unbounded shared variables ends when the reachable
// states are finite; explore.Config.MaxStates bounds it otherwise.

// maxUnboundedBits is the width of the field of an unbounded shared
// variable: a value beyond 2^maxUnboundedBits - 1 above its least one
// stops the search with an errkind.Limit error.
const maxUnboundedBits = 40

// sharedSlot is the field of a shared variable.
type sharedSlot struct {
	slot
	lo        int64
	name      string
	unbounded bool
}

// layoutShared assigns fields to the shared variables after the pools'.
func (sp *space) layoutShared(word, used, limit int) int {
	for j := range sp.model.Shared {
		v := &sp.model.Shared[j]
		width := maxUnboundedBits
		if !v.Unbounded {
			width = bits.Len64(uint64(v.Hi - v.Lo))
		}
		if used+width > limit && used > 0 {
			word, used = word+1, 0
		}
		var mask uint64
		if width > 0 {
			mask = 1<<uint(width) - 1
		}
		sp.shared = append(sp.shared, sharedSlot{
			slot: slot{idx: int32(sp.model.SharedVar(j)), word: int32(word), shift: uint8(used), mask: mask},
			lo:   int64(v.Lo), name: v.Name, unbounded: v.Unbounded,
		})
		used += width
	}
	return word
}

// decodeShared fills the shared variables of v from key.
func (sp *space) decodeShared(key []uint64, v []int64) {
	for i := range sp.shared {
		s := &sp.shared[i]
		v[s.idx] = s.lo + int64(key[s.word]>>s.shift&s.mask)
	}
}

// encodeAll packs valuation v, shared variables included, into key; an
// unbounded shared variable's value beyond its field is an
// errkind.Limit error.
func (sp *space) encodeAll(v []int64, key []uint64) error {
	sp.encode(v, key)
	for i := range sp.shared {
		s := &sp.shared[i]
		d := v[s.idx] - s.lo
		if d < 0 || uint64(d) > s.mask {
			if s.unbounded && d > 0 {
				return errkind.Errorf(errkind.Limit, "explore: shared variable %s reached %d, beyond the %d the explicit engine stores; its values may grow without end (bound the search with a state limit)", s.name, v[s.idx], s.lo+int64(s.mask))
			}
			return errkind.Errorf(errkind.Internal, "explore: shared variable %s left its domain (%d)", s.name, v[s.idx])
		}
		key[s.word] |= uint64(d) << s.shift
	}
	return nil
}

// generalSucc returns the successor key of valuation v by move mv, which is
// enabled there, in key: the model's Step, checked to stay in the state
// space (its guard must imply that the movers exist and that assigned
// values lie in their domains).
func (sp *space) generalSucc(mv *move, v []int64, key []uint64) error {
	m := sp.model
	y := sp.ybuf64
	if err := counterabs.StepInto(m, &m.Transitions[mv.trans], v, y); err != nil {
		return err
	}
	for i := range m.Counters {
		if y[i] < 0 {
			return errkind.Errorf(errkind.Internal, "explore: %s is enabled where it moves more processes than %s holds", m.TransitionName(&m.Transitions[mv.trans]), m.CounterName(i))
		}
	}
	for i := range sp.shared {
		s := &sp.shared[i]
		if k := y[s.idx]; !m.Shared[i].Contains(int(k)) {
			return errkind.Errorf(errkind.Internal, "explore: %s is enabled where it takes %s out of its domain (%d)", m.TransitionName(&m.Transitions[mv.trans]), s.name, k)
		}
	}
	return sp.encodeAll(y, key)
}

// unboundedNames returns the names of the unbounded shared variables.
func (sp *space) unboundedNames() []string {
	var out []string
	for _, s := range sp.shared {
		if s.unbounded {
			out = append(out, s.name)
		}
	}
	return out
}

// reverse is the predecessor relation of a general space, in compressed
// rows: the predecessors of state j are from[start[j]:start[j+1]], one
// entry per edge (a deadlock's stutter included).
type reverse struct {
	start []int32
	from  []int32
}

// ensureReverse computes e.rev from the successor relation of a general
// space, once; other spaces undo moves instead.
func (e *engine) ensureReverse() error {
	if !e.sp.general || e.rev != nil {
		return nil
	}
	n := e.st.n
	count := make([]int32, n+1)
	vals, key := e.scratch()
	edges := 0
	for i := 0; i < n; i++ {
		if err := e.tick(); err != nil {
			return err
		}
		e.eachSucc(i, vals, key, func(k, _ int) bool {
			count[k+1]++
			edges++
			return true
		})
	}
	if err := e.checkMemory(e.st.bytes() + int64(n)*4 + int64(edges)*4); err != nil {
		return err
	}
	for j := 0; j < n; j++ {
		count[j+1] += count[j]
	}
	rev := &reverse{start: count, from: make([]int32, edges)}
	fill := make([]int32, n)
	copy(fill, count[:n])
	for i := 0; i < n; i++ {
		e.eachSucc(i, vals, key, func(k, _ int) bool {
			rev.from[fill[k]] = int32(i)
			fill[k]++
			return true
		})
	}
	e.rev = rev
	return nil
}

// generalPreds appends the predecessors of state i to buf; the reverse
// index is built (buildReverse) before CTL checking starts.
func (e *engine) generalPreds(i int, buf []int) []int {
	for _, j := range e.rev.from[e.rev.start[i]:e.rev.start[i+1]] {
		buf = append(buf, int(j))
	}
	return buf
}

// stateLimitNote says why a search with unbounded shared variables may
// not end.
func (sp *space) stateLimitNote() string {
	if names := sp.unboundedNames(); len(names) > 0 {
		return fmt.Sprintf("the model's unbounded shared variables (%s) may take infinitely many values", strings.Join(names, ", "))
	}
	return ""
}

// watched is an unbounded shared variable whose values the search
// follows: its valuation index, its index in Model.Shared, the value
// past which it is reported (explore.GrowthBound) and the largest value
// found so far.
type watched struct {
	idx     int32
	j       int
	bound   int64
	largest int64
}

// startWatch lists the unbounded shared variables to follow.
func (e *engine) startWatch() {
	for j, s := range e.sp.shared {
		if s.unbounded {
			init := int64(e.sp.model.Shared[j].InitMax())
			e.watch = append(e.watch, watched{idx: s.idx, j: j, bound: explore.GrowthBound(e.sp.model, j), largest: init})
		}
	}
}

// watchValues follows the unbounded shared variables in the valuation y
// of a successor: past explore.Config.Bound it stops the search; past
// its growth bound a variable is reported at once, through a progress
// event, and named in the error of any limit that stops the search
// later.
func (e *engine) watchValues(y []int64) error {
	for i := range e.watch {
		w := &e.watch[i]
		v := y[w.idx]
		if v <= w.largest {
			continue
		}
		w.largest = v
		m := e.sp.model
		if e.opt.Bound > 0 && v > e.opt.Bound {
			g := &explore.Growth{Var: m.Shared[w.j].Name, Init: int64(m.Shared[w.j].Init), Reached: v}
			return &explore.LimitError{Kind: "bound", Limit: e.opt.Bound, States: int64(e.st.n), Growth: g}
		}
		if v <= w.bound {
			continue
		}
		if e.growth == nil {
			e.growth = &explore.Growth{Var: m.Shared[w.j].Name, Init: int64(m.Shared[w.j].Init), Reached: v}
			e.report(progress.Event{Phase: progress.Reach})
		} else if e.growth.Var == m.Shared[w.j].Name {
			e.growth.Reached = v
		}
	}
	return nil
}
