package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// maxBruteConfigs bounds the configurations BruteForce enumerates; above
// it, BruteForce panics rather than run for hours.
const maxBruteConfigs = 1 << 22

// Brute is the brute-force semantics of the transitions of a system over
// its whole configuration space L^n (every process in every local state,
// reachable or not): for each transition r and each total-counter vector
// x, whether some and whether every configuration with totals x enables r
// (Definition 3). Theorem 6 of Wei, Gurfinkel and Chechik says the system
// is fully virtually symmetric exactly when the two agree everywhere, and
// the existential abstraction g_r of section 5 holds at x exactly when
// some configuration enables r.
type Brute struct {
	Sys     *gsst.System
	Vectors [][]int  // every total-counter vector, in order of first appearance
	Some    [][]bool // Some[r][i]: some configuration with totals Vectors[i] enables r
	Every   [][]bool // Every[r][i]: every such configuration does
	MayDead []bool   // MayDead[i]: some configuration with totals Vectors[i] has no move
	index   map[string]int
}

// BruteForce enumerates the configuration space of sys. Configurations
// that differ only in the order of the processes inside a group have the
// same counters, which is all a guard reads, so it enumerates one of each:
// every matrix y[g][s] of group counters (each row a way to place the
// group's processes), and lays it out process by process (as Processes
// numbers them) to decide Definition 3 for each transition. It refuses
// a system beyond the paper (PaperOnly); FullSymmetry decides virtual
// symmetry of those on processes.
func BruteForce(sys *gsst.System) *Brute {
	PaperOnly(sys, "BruteForce")
	owner, _ := Processes(sys)
	m := len(sys.States)
	count := 1
	for _, g := range sys.Groups {
		count *= len(Compositions(g.Size, m))
		if count > maxBruteConfigs {
			panic(fmt.Sprintf("testsupport: %s has more than %d configurations", sys.Name, maxBruteConfigs))
		}
	}
	b := &Brute{Sys: sys, index: map[string]int{}}
	for range sys.Transitions {
		b.Some = append(b.Some, nil)
		b.Every = append(b.Every, nil)
	}
	configurations(sys, func(y [][]int) { b.record(owner, Layout(y)) })
	return b
}

// configurations calls f with every configuration of sys given by its
// group counters y[g][s] (a matrix f must not keep: it is reused).
func configurations(sys *gsst.System, f func(y [][]int)) {
	m := len(sys.States)
	rows := make([][][]int, len(sys.Groups))
	for g, grp := range sys.Groups {
		rows[g] = Compositions(grp.Size, m)
	}
	y := make([][]int, len(sys.Groups))
	var rec func(g int)
	rec = func(g int) {
		if g < len(y) {
			for _, row := range rows[g] {
				y[g] = row
				rec(g + 1)
			}
			return
		}
		f(y)
	}
	rec(0)
}

// ConfigsByTotals returns every configuration of sys (group counters)
// keyed by TotalKey of its total counters.
func ConfigsByTotals(sys *gsst.System) map[string][][][]int {
	out := map[string][][][]int{}
	configurations(sys, func(y [][]int) {
		cp := make([][]int, len(y))
		for g := range y {
			cp[g] = slices.Clone(y[g])
		}
		k := TotalKey(Totals(cp))
		if len(y) == 0 {
			k = TotalKey(make([]int, len(sys.States)))
		}
		out[k] = append(out[k], cp)
	})
	return out
}

// Instance is an instance of a family: the value of each parameter and
// the size of each group.
type Instance struct {
	Params, Sizes []int
}

func (in Instance) String() string { return fmt.Sprintf("params %v sizes %v", in.Params, in.Sizes) }

// Instances returns the instances of a family that the tests try: every
// parameter in 0..paramMax with the assumption true, each group sized
// over the parameters at its term's value (at least 1), each ranged
// group at every size of its range up to sizeMax (from 1), each fixed
// group at its size; in a fixed order.
func Instances(sys *gsst.System, paramMax, sizeMax int) []Instance {
	var out []Instance
	var params func(ps []int)
	params = func(ps []int) {
		if len(ps) < len(sys.Params) {
			for v := range paramMax + 1 {
				params(append(slices.Clone(ps), v))
			}
			return
		}
		val := func(v presburger.Var) int64 {
			if k, ok := sys.ParamOf(v); ok {
				return int64(ps[k])
			}
			return 0
		}
		if sys.Assume.Formula != nil && !presburger.Eval(sys.Assume.Formula, val) {
			return
		}
		var sizes func(sz []int)
		sizes = func(sz []int) {
			g := len(sz)
			if g == len(sys.Groups) {
				out = append(out, Instance{Params: ps, Sizes: sz})
				return
			}
			switch grp := &sys.Groups[g]; {
			case grp.OverParams():
				if k := grp.SizeTerm.Eval(val); k >= 1 {
					sizes(append(slices.Clone(sz), int(k)))
				}
			case grp.Ranged:
				for k := 1; k <= sizeMax; k++ {
					if grp.Allows(k) {
						sizes(append(slices.Clone(sz), k))
					}
				}
			default:
				sizes(append(slices.Clone(sz), grp.Size))
			}
		}
		sizes(nil)
	}
	params(nil)
	return out
}

// Box returns the instances of a parametric system that the tests try:
// every choice of sizes with each group's size in its range and at most
// most (a range beyond most is cut there; a fixed group keeps its size),
// in a fixed order.
func Box(sys *gsst.System, most int) [][]int { return box(sys.Groups, most) }

// box is Box of a system with the given groups.
func box(groups []gsst.Group, most int) [][]int {
	out := [][]int{nil}
	for g := range groups {
		grp := &groups[g]
		hi, bounded := grp.Bounded()
		if !bounded || hi > most {
			hi = max(most, grp.Size)
		}
		var next [][]int
		for _, prefix := range out {
			for k := grp.Size; k <= hi; k++ {
				next = append(next, append(slices.Clone(prefix), k))
			}
		}
		out = next
	}
	return out
}

// boxConfigs is the number of configurations of all the instances of
// Box(sys, most) together: the work of checking every one.
func boxConfigs(sys *gsst.Spec, most int) int {
	total := 0
	for _, sizes := range box(sys.Groups, most) {
		k := 1
		for _, size := range sizes {
			k *= len(Compositions(size, len(sys.States)))
		}
		total += k
	}
	return total
}

// record adds configuration conf to the table.
func (b *Brute) record(owner, conf []int) {
	sys := b.Sys
	x := make([]int, len(sys.States))
	for _, s := range conf {
		x[s]++
	}
	k := TotalKey(x)
	i, seen := b.index[k]
	if !seen {
		i = len(b.Vectors)
		b.index[k] = i
		b.Vectors = append(b.Vectors, x)
		for r := range sys.Transitions {
			b.Some[r] = append(b.Some[r], false)
			b.Every[r] = append(b.Every[r], true)
		}
		b.MayDead = append(b.MayDead, false)
	}
	may := movers(sys, owner, conf)
	moves := false
	defer func() { b.MayDead[i] = b.MayDead[i] || !moves }()
	for r := range sys.Transitions {
		on := false
		for p := range conf {
			if conf[p] == sys.Transitions[r].From && may[r][owner[p]] {
				on = true
				break
			}
		}
		b.Some[r][i] = b.Some[r][i] || on
		b.Every[r][i] = b.Every[r][i] && on
		moves = moves || on
	}
}

// Layout returns the configuration of group counters y with processes
// numbered group by group, each group's processes in state order.
func Layout(y [][]int) []int {
	var conf []int
	for _, row := range y {
		for s, k := range row {
			for range k {
				conf = append(conf, s)
			}
		}
	}
	return conf
}

// Compositions returns every way to put q processes into k states: the
// vectors of k non-negative integers summing to q.
func Compositions(q, k int) [][]int {
	if k == 1 {
		return [][]int{{q}}
	}
	var out [][]int
	for x := 0; x <= q; x++ {
		for _, rest := range Compositions(q-x, k-1) {
			out = append(out, append([]int{x}, rest...))
		}
	}
	return out
}

// Closed reports whether the domain of transition r is closed under
// orbits: configurations with equal total counters agree on whether r is
// enabled (Theorem 6).
func (b *Brute) Closed(r int) bool { return slices.Equal(b.Some[r], b.Every[r]) }

// FirstViolated returns the first transition whose domain is not closed
// under orbits, or -1 when the system is fully virtually symmetric.
func (b *Brute) FirstViolated() int {
	for r := range b.Sys.Transitions {
		if !b.Closed(r) {
			return r
		}
	}
	return -1
}

// Certified reports whether the system is fully virtually symmetric.
func (b *Brute) Certified() bool { return b.FirstViolated() < 0 }

// EnabledAt reports whether the existential abstraction of transition r
// holds at the total-counter vector x: some configuration with those
// totals enables r. It is false for a vector that does not sum to n.
func (b *Brute) EnabledAt(r int, x []int) bool {
	i, ok := b.index[TotalKey(x)]
	return ok && b.Some[r][i]
}

// Guard returns the existential abstraction g_r of transition r as a
// formula over total counters (variable s is #S, as gsst.System.TotalVar
// and the total-counter model number them): the disjunction of the
// vectors at which it holds.
func (b *Brute) Guard(r int) presburger.Formula { return b.points(b.Some[r]) }

// MayDeadlock returns, as a formula over total counters, where some
// configuration has no move: the deadlock over-approximation of a forced
// total-counter model (counterabs.Model.MayDeadlock). For a certified
// system it is exactly where no g_r holds.
func (b *Brute) MayDeadlock() presburger.Formula { return b.points(b.MayDead) }

// points returns the disjunction of the vectors Vectors[i] with in[i].
func (b *Brute) points(in []bool) presburger.Formula {
	var points []presburger.Formula
	for i, x := range b.Vectors {
		if !in[i] {
			continue
		}
		eq := make([]presburger.Formula, len(x))
		for s, k := range x {
			eq[s] = presburger.Compare(presburger.VarTerm(presburger.Var(s)), presburger.Eq, presburger.ConstTerm(int64(k)))
		}
		points = append(points, presburger.Conj(eq...))
	}
	return presburger.Disj(points...)
}

// MayDeadAt reports whether some configuration with total counters x
// has no move (MayDead); false for a vector that does not sum to n.
func (b *Brute) MayDeadAt(x []int) bool {
	i, ok := b.index[TotalKey(x)]
	return ok && b.MayDead[i]
}

// Graph explores the existential abstraction from the initial total
// counters: from x, every transition r enabled at x (EnabledAt) moves one
// process from r's source to its target. For a certified system it is
// the total quotient of the unreduced space; otherwise it is what a
// total-counter model built with counterabs.Force must be, stutter
// loops where some configuration may be deadlocked included (MayDead).
// Keys are TotalKey; atoms may read total counters only.
func (b *Brute) Graph() *Graph {
	sys := b.Sys
	var moves []Move
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		moves = append(moves, Move{From: t.From, To: t.To, Guard: b.Guard(r)})
	}
	init := make([]int, len(sys.States))
	for _, row := range sys.Init {
		for s, k := range row {
			init[s] += k
		}
	}
	g := CounterGraph(init, moves, b.MayDeadlock())
	inner := g.value
	g.value = func(i int, v presburger.Var) (int64, bool) {
		if _, grp, ok := sys.Counter(v); !ok || grp >= 0 {
			return 0, false
		}
		return inner(i, v)
	}
	return g
}
