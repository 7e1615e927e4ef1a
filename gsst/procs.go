package gsst

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/vsym/vsym/presburger"
)

// Steps on configurations of single processes, for the lifting of traces
// to the unreduced system and the replay of runs. Which steps are
// enabled is decided on the counters (config.go); here a step's choice of
// groups becomes named processes: each part takes the lowest-numbered
// process of its group in its source that an earlier part did not take,
// and a broadcast moves every other process of its sources.

// Procs is a configuration of single processes: process k of group g is
// in local state State(g, k); Shared and Params are as in Config. It
// keeps the counters and, per group and state, the set of processes
// there, so that finding a step's movers and the processes a broadcast
// moves takes time in proportion to the group's size over 64 and to what
// moves, not to the number of processes times the states.
type Procs struct {
	state  [][]int
	Shared []int
	Params []int
	counts [][]int
	in     [][]procSet // in[g][s]: the processes of group g in state s
}

// procSet is a set of process numbers of one group.
type procSet []uint64

func (p procSet) add(k int)      { p[k/64] |= 1 << (k % 64) }
func (p procSet) remove(k int)   { p[k/64] &^= 1 << (k % 64) }
func (p procSet) has(k int) bool { return p[k/64]&(1<<(k%64)) != 0 }

// next returns the least member >= k, or -1.
func (p procSet) next(k int) int {
	for w := k / 64; w < len(p); w++ {
		word := p[w]
		if w == k/64 {
			word &= ^uint64(0) << (k % 64)
		}
		if word != 0 {
			return w*64 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

// NewProcs returns the processes of configuration c numbered in order of
// their states: the first c.Counts[g][0] processes of group g in state 0,
// the next in state 1, and so on (the initial configuration numbers them
// as every trace and run of vsym does).
func (s *Spec) NewProcs(c Config) *Procs {
	states := make([][]int, len(c.Counts))
	for g, row := range c.Counts {
		for st, k := range row {
			for range k {
				states[g] = append(states[g], st)
			}
		}
	}
	return s.ProcsOf(states, c.Shared, c.Params)
}

// ProcsOf returns the configuration in which process k of group g is in
// local state states[g][k], with the given shared and parameter values.
func (s *Spec) ProcsOf(states [][]int, shared, params []int) *Procs {
	p := &Procs{Shared: slices.Clone(shared), Params: slices.Clone(params)}
	p.state = make([][]int, len(s.Groups))
	p.counts = make([][]int, len(s.Groups))
	p.in = make([][]procSet, len(s.Groups))
	for g := range s.Groups {
		var row []int
		if g < len(states) {
			row = states[g]
		}
		p.state[g] = slices.Clone(row)
		p.counts[g] = make([]int, len(s.States))
		p.in[g] = make([]procSet, len(s.States))
		for st := range s.States {
			p.in[g][st] = make(procSet, (len(row)+63)/64)
		}
		for k, st := range row {
			p.in[g][st].add(k)
			p.counts[g][st]++
		}
	}
	return p
}

// State returns the local state of process k of group g.
func (p *Procs) State(g, k int) int { return p.state[g][k] }

// Size returns the number of processes of group g.
func (p *Procs) Size(g int) int { return len(p.state[g]) }

// Key identifies the configuration: every process's state and the
// shared values.
func (p *Procs) Key() string {
	var b []byte
	for _, row := range p.state {
		for _, st := range row {
			b = append(b, byte(st), byte(st>>8), byte(st>>16))
		}
		b = append(b, ';')
	}
	for _, v := range p.Shared {
		b = fmt.Appendf(b, ",%d", v)
	}
	return string(b)
}

// Config returns the counters and values of p (sharing nothing with it).
func (p *Procs) Config() Config {
	return Config{Counts: p.countsCopy(), Shared: slices.Clone(p.Shared), Params: slices.Clone(p.Params)}
}

// View returns the counters and values of p without copying them: valid
// until p changes, and not to be changed.
func (p *Procs) View() Config { return Config{Counts: p.counts, Shared: p.Shared, Params: p.Params} }

func (p *Procs) countsCopy() [][]int {
	out := make([][]int, len(p.counts))
	for g, row := range p.counts {
		out[g] = slices.Clone(row)
	}
	return out
}

// Mover is one process a step moves: process Process of group Group, from
// local state From to To.
type Mover struct {
	Group, Process int
	From, To       int
}

// Movers returns the processes that take the parts of st when part i is
// taken by a process of groups[i] (a choice of Choices): for each part in
// turn, the lowest-numbered process of its group in its source that no
// earlier part took. It returns nil when there is no such process.
func (s *Spec) Movers(st *Step, p *Procs, groups []int) []Mover {
	out := make([]Mover, 0, len(st.Parts))
	for i, part := range st.Parts {
		g := groups[i]
		k := -1
		for k = p.in[g][part.From].next(0); k >= 0 && taken(out, g, k); k = p.in[g][part.From].next(k + 1) {
		}
		if k < 0 {
			return nil
		}
		out = append(out, Mover{Group: g, Process: k, From: part.From, To: part.To})
	}
	return out
}

func taken(ms []Mover, g, k int) bool {
	for _, m := range ms {
		if m.Group == g && m.Process == k {
			return true
		}
	}
	return false
}

// Transferred returns the processes the transfers of st move when movers
// take its parts: for each transfer in turn, every process in its source,
// of its groups, that is not a mover, by group and then by number.
func (s *Spec) Transferred(st *Step, p *Procs, movers []Mover) []Mover {
	var out []Mover
	for _, x := range st.Transfers {
		for g := range p.in {
			if !x.Allows(g) {
				continue
			}
			set := p.in[g][x.From]
			for k := set.next(0); k >= 0; k = set.next(k + 1) {
				if !taken(movers, g, k) {
					out = append(out, Mover{Group: g, Process: k, From: x.From, To: x.To})
				}
			}
		}
	}
	return out
}

// Take applies a step to p: movers and transferred go to their targets
// (all read before the step: no process moves twice) and the shared
// variables take the values shared.
func (p *Procs) Take(movers, transferred []Mover, shared []int) {
	for _, list := range [][]Mover{transferred, movers} {
		for _, m := range list {
			p.in[m.Group][m.From].remove(m.Process)
			p.counts[m.Group][m.From]--
		}
	}
	for _, list := range [][]Mover{transferred, movers} {
		for _, m := range list {
			p.in[m.Group][m.To].add(m.Process)
			p.counts[m.Group][m.To]++
			p.state[m.Group][m.Process] = m.To
		}
	}
	copy(p.Shared, shared)
}

// CheckMovers checks that movers can take st in p (one per part, distinct
// processes, each in its part's source and of a group it allows, the
// guard holding and the update within the domains) and returns the
// processes its transfers move and the shared values after it: the
// meaning of a step a replayed run is checked against.
func (s *Spec) CheckMovers(st *Step, p *Procs, movers []Mover) (transferred []Mover, shared []int, err error) {
	if len(movers) != len(st.Parts) {
		return nil, nil, fmt.Errorf("%d processes for %d parts", len(movers), len(st.Parts))
	}
	for i, m := range movers {
		part := &st.Parts[i]
		switch {
		case m.Group < 0 || m.Group >= len(p.state) || m.Process < 0 || m.Process >= len(p.state[m.Group]):
			return nil, nil, fmt.Errorf("no process %d of group %d", m.Process, m.Group)
		case !part.Allows(m.Group):
			return nil, nil, fmt.Errorf("a process of group %s cannot take part %d", s.Groups[m.Group].Name, i+1)
		case p.state[m.Group][m.Process] != part.From || m.From != part.From || m.To != part.To:
			return nil, nil, fmt.Errorf("process %d of group %s is in %s, not %s", m.Process, s.Groups[m.Group].Name, s.States[p.state[m.Group][m.Process]], s.States[part.From])
		case taken(movers[:i], m.Group, m.Process):
			return nil, nil, fmt.Errorf("process %d of group %s takes two parts", m.Process, s.Groups[m.Group].Name)
		}
	}
	val := s.ValuationOf(p.View())
	if !presburger.Eval(st.Guard, val) {
		return nil, nil, fmt.Errorf("the guard is false")
	}
	shared, ok, err := s.Updated(&st.Update, val, p.Shared)
	switch {
	case err != nil:
		return nil, nil, err
	case !ok:
		return nil, nil, fmt.Errorf("the update leaves a domain")
	}
	return s.Transferred(st, p, movers), shared, nil
}
