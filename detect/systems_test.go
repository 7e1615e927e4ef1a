package detect

import (
	"strconv"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// builder makes checked systems directly, without the YAML parser.
type builder struct{ sys *gsst.System }

func newBuilder(name string, states []string, groups map[string]int, order []string) *builder {
	sys := &gsst.System{Name: name, States: states}
	for _, g := range order {
		sys.Groups = append(sys.Groups, gsst.Group{Name: g, Size: groups[g]})
	}
	sys.Init = make([][]int, len(sys.Groups))
	for g := range sys.Groups {
		sys.Init[g] = make([]int, len(states))
		sys.Init[g][0] = sys.Groups[g].Size
	}
	return &builder{sys}
}

func (b *builder) state(name string) int {
	for i, s := range b.sys.States {
		if s == name {
			return i
		}
	}
	panic("test: no state " + name)
}

func (b *builder) group(name string) int {
	for i, g := range b.sys.Groups {
		if g.Name == name {
			return i
		}
	}
	panic("test: no group " + name)
}

// total is #S, grp is #S[g].
func (b *builder) total(s string) presburger.Term {
	return presburger.VarTerm(b.sys.TotalVar(b.state(s)))
}

func (b *builder) grp(s, g string) presburger.Term {
	return presburger.VarTerm(b.sys.GroupVar(b.state(s), b.group(g)))
}

func cmp(t presburger.Term, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(t, op, presburger.ConstTerm(k))
}

// blk is one block for trans: the named groups and their guard.
type blk struct {
	groups []string
	guard  presburger.Formula
}

func (b *builder) trans(from, to string, blocks ...blk) {
	t := gsst.Transition{From: b.state(from), To: b.state(to)}
	for _, bl := range blocks {
		var gs []int
		for _, g := range bl.groups {
			gs = append(gs, b.group(g))
		}
		t.Blocks = append(t.Blocks, gsst.Block{Groups: gs, Guard: bl.guard})
	}
	b.sys.Transitions = append(b.sys.Transitions, t)
}

// free adds an unguarded transition that every group may take.
func (b *builder) free(from, to string) {
	var all []string
	for _, g := range b.sys.Groups {
		all = append(all, g.Name)
	}
	b.trans(from, to, blk{all, presburger.True})
}

// mutexSystem: n identical processes, N -> T -> C -> N, C guarded by #C = 0.
func mutexSystem(n int) *gsst.System {
	b := newBuilder("mutex", []string{"N", "T", "C"}, map[string]int{"proc": n}, []string{"proc"})
	b.free("N", "T")
	b.trans("T", "C", blk{[]string{"proc"}, cmp(b.total("C"), presburger.Eq, 0)})
	b.free("C", "N")
	return b.sys
}

// readersWriters is Figure 1(b) of the paper: writers have priority, so a
// reader enters C only when no writer waits in T. With broken set, the
// reader's guard is the one of section 4.3 (#C = 0 & #T = 2), which breaks
// full virtual symmetry.
func readersWriters(readers, writers int, broken bool) *gsst.System {
	b := newBuilder("rw", []string{"N", "T", "C"}, map[string]int{"reader": readers, "writer": writers}, []string{"reader", "writer"})
	b.free("N", "T")
	rg := presburger.Conj(cmp(b.total("C"), presburger.Eq, 0), cmp(b.grp("T", "writer"), presburger.Eq, 0))
	if broken {
		rg = presburger.Conj(cmp(b.total("C"), presburger.Eq, 0), cmp(b.total("T"), presburger.Eq, 2))
	}
	b.trans("T", "C",
		blk{[]string{"reader"}, rg},
		blk{[]string{"writer"}, cmp(b.total("C"), presburger.Eq, 0)})
	b.free("C", "N")
	return b.sys
}

// grw is generalized readers/writers (section 6): d groups of q processes,
// states L1..Lm, group k enters Lm only when Lm is empty and no group of
// higher priority (smaller index) waits in L(m-1).
func grw(d, q, m int) *gsst.System {
	states := make([]string, m)
	for i := range states {
		states[i] = "L" + strconv.Itoa(i+1)
	}
	sizes := map[string]int{}
	var order []string
	for k := 1; k <= d; k++ {
		g := "g" + strconv.Itoa(k)
		sizes[g] = q
		order = append(order, g)
	}
	b := newBuilder("grw", states, sizes, order)
	for i := 1; i <= m-2; i++ {
		b.free(states[i-1], states[i])
	}
	var blocks []blk
	wait, crit := states[m-2], states[m-1]
	for k := 1; k <= d; k++ {
		guard := []presburger.Formula{cmp(b.total(crit), presburger.Eq, 0)}
		for j := 1; j < k; j++ {
			guard = append(guard, cmp(b.grp(wait, order[j-1]), presburger.Eq, 0))
		}
		blocks = append(blocks, blk{[]string{order[k-1]}, presburger.Conj(guard...)})
	}
	b.trans(wait, crit, blocks...)
	b.free(crit, states[0])
	return b.sys
}
