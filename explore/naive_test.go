package explore

// Independent reference implementations for the tests: a random GSST
// generator, a naive explorer over full process-indexed configurations
// (plain maps, no canonicalization), a brute-force counter abstraction
// and certification, and a naive CTL checker by fixpoint iteration on an
// explicit graph. None of it shares code with the engine.

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ---------------------------------------------------------------------
// Random systems.

type gen struct{ r *rand.Rand }

func (g gen) totalAtom(m int) presburger.Formula {
	var t presburger.Term
	for k := 0; k < 1+g.r.Intn(2); k++ {
		t = t.Add(presburger.VarTerm(presburger.Var(g.r.Intn(m))).Scale(int64(1 + g.r.Intn(2))))
	}
	op := presburger.Op(g.r.Intn(6))
	return presburger.Compare(t, op, presburger.ConstTerm(int64(g.r.Intn(3))))
}

func (g gen) guardAtom(sys *gsst.System, totalOnly bool) presburger.Formula {
	m, d := len(sys.States), len(sys.Groups)
	var t presburger.Term
	for k := 0; k < 1+g.r.Intn(2); k++ {
		var v presburger.Var
		if totalOnly || g.r.Intn(2) == 0 {
			v = sys.TotalVar(g.r.Intn(m))
		} else {
			v = sys.GroupVar(g.r.Intn(m), g.r.Intn(d))
		}
		t = t.Add(presburger.VarTerm(v))
	}
	op := presburger.Op(g.r.Intn(6))
	return presburger.Compare(t, op, presburger.ConstTerm(int64(g.r.Intn(3))))
}

func (g gen) guard(sys *gsst.System, totalOnly bool) presburger.Formula {
	switch g.r.Intn(5) {
	case 0:
		return presburger.True
	case 1:
		return presburger.Conj(g.guardAtom(sys, totalOnly), g.guardAtom(sys, totalOnly))
	case 2:
		return presburger.Disj(g.guardAtom(sys, totalOnly), presburger.Negation(g.guardAtom(sys, totalOnly)))
	}
	return g.guardAtom(sys, totalOnly)
}

// system returns a random GSST with 2-4 states, 1-3 groups of size 1-3,
// keeping m^n small enough for the naive explorer.
func (g gen) system(name string) *gsst.System {
	for {
		m, d := 2+g.r.Intn(3), 1+g.r.Intn(3)
		sys := &gsst.System{Name: name}
		for s := 0; s < m; s++ {
			sys.States = append(sys.States, fmt.Sprintf("S%d", s))
		}
		n := 0
		for k := 0; k < d; k++ {
			sz := 1 + g.r.Intn(3)
			n += sz
			sys.Groups = append(sys.Groups, gsst.Group{Name: fmt.Sprintf("g%d", k), Size: sz})
			init := make([]int, m)
			if g.r.Intn(2) == 0 {
				init[0] = sz
			} else {
				for p := 0; p < sz; p++ {
					init[g.r.Intn(m)]++
				}
			}
			sys.Init = append(sys.Init, init)
		}
		size := 1
		for i := 0; i < n; i++ {
			size *= m
		}
		if size > 3000 {
			continue
		}
		totalOnly := g.r.Intn(2) == 0
		var pairs [][2]int
		for a := 0; a < m; a++ {
			for b := 0; b < m; b++ {
				if a != b {
					pairs = append(pairs, [2]int{a, b})
				}
			}
		}
		g.r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
		nt := 1 + g.r.Intn(len(pairs))
		if nt > 5 {
			nt = 5
		}
		for _, pr := range pairs[:nt] {
			t := gsst.Transition{From: pr[0], To: pr[1]}
			// Partition a random subset of the groups into blocks.
			perm := g.r.Perm(d)
			var cur []int
			for i, grp := range perm {
				if g.r.Intn(5) == 0 {
					continue // this group cannot take t
				}
				cur = append(cur, grp)
				if i == len(perm)-1 || g.r.Intn(2) == 0 {
					sort.Ints(cur)
					t.Blocks = append(t.Blocks, gsst.Block{Groups: cur, Guard: g.guard(sys, totalOnly)})
					cur = nil
				}
			}
			if len(cur) > 0 {
				sort.Ints(cur)
				t.Blocks = append(t.Blocks, gsst.Block{Groups: cur, Guard: g.guard(sys, totalOnly)})
			}
			sys.Transitions = append(sys.Transitions, t)
		}
		for i := 0; i < 6; i++ {
			f := g.ctl(m, 3)
			sys.Properties = append(sys.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i), Formula: f})
		}
		return sys
	}
}

// ctl returns a random CTL formula over total counters; every operator
// appears at the top level of some formula often.
func (g gen) ctl(m, depth int) ctl.Formula {
	if depth == 0 || g.r.Intn(4) == 0 {
		return ctl.Atom{P: g.totalAtom(m)}
	}
	switch k := g.r.Intn(12); {
	case k < 6:
		return ctl.Unary{Op: ctl.TempOp(k), X: g.ctl(m, depth-1)}
	case k < 8:
		return ctl.Until{All: k == 7, L: g.ctl(m, depth-1), R: g.ctl(m, depth-1)}
	case k == 8:
		return ctl.Not{X: g.ctl(m, depth-1)}
	default:
		return ctl.Binary{Op: ctl.BinOp(k - 9), L: g.ctl(m, depth-1), R: g.ctl(m, depth-1)}
	}
}

// ---------------------------------------------------------------------
// Naive explicit graphs and CTL.

// graph is an explicit transition system. label[i] names state i (a
// string key) and totals[i] is its total-counter vector.
type graph struct {
	succ   [][]int
	dead   []bool
	totals [][]int
	label  []string
	index  map[string]int
	conf   [][]int // naiveConcrete: the configuration of each state
}

func (gr *graph) add(label string, totals []int) (int, bool) {
	if i, ok := gr.index[label]; ok {
		return i, false
	}
	i := len(gr.label)
	gr.index[label] = i
	gr.label = append(gr.label, label)
	gr.totals = append(gr.totals, totals)
	gr.succ = append(gr.succ, nil)
	gr.dead = append(gr.dead, false)
	return i, true
}

// naiveConcrete explores the configurations reachable from each of the
// given initial configurations (conf[p] is the local state of process p;
// group[p] its group).
func naiveConcrete(sys *gsst.System, group []int, inits [][]int) *graph {
	m := len(sys.States)
	gr := &graph{index: map[string]int{}}
	key := func(c []int) string { return fmt.Sprint(c) }
	counters := func(c []int) (y [][]int, tot []int) {
		y = make([][]int, len(sys.Groups))
		for g := range y {
			y[g] = make([]int, m)
		}
		tot = make([]int, m)
		for p, s := range c {
			y[group[p]][s]++
			tot[s]++
		}
		return
	}
	var queue [][]int
	for _, c := range inits {
		_, tot := counters(c)
		if _, added := gr.add(key(c), tot); added {
			queue = append(queue, c)
			gr.conf = append(gr.conf, c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		i := gr.index[key(c)]
		y, _ := counters(c)
		val := sys.Valuation(y)
		for p := range c {
			for _, t := range sys.Transitions {
				if t.From != c[p] {
					continue
				}
				b := t.BlockOf(group[p])
				if b == nil || !presburger.Eval(b.Guard, val) {
					continue
				}
				d := append([]int(nil), c...)
				d[p] = t.To
				_, tot := counters(d)
				j, added := gr.add(key(d), tot)
				if added {
					queue = append(queue, d)
					gr.conf = append(gr.conf, d)
				}
				gr.succ[i] = append(gr.succ[i], j)
			}
		}
		if len(gr.succ[i]) == 0 {
			gr.dead[i] = true
			gr.succ[i] = []int{i}
		}
	}
	return gr
}

// processes lists the group of each process and the initial configuration
// in the order Lifted documents (group by group, states in order).
func processes(sys *gsst.System) (group, conf []int) {
	for g := range sys.Groups {
		for s := range sys.States {
			for k := 0; k < sys.Init[g][s]; k++ {
				group = append(group, g)
				conf = append(conf, s)
			}
		}
	}
	return
}

// arrangements returns every configuration with the same group counters
// as conf (all distinct orderings within each group).
func arrangements(group, conf []int) [][]int {
	var out [][]int
	seen := map[string]bool{}
	var rec func(c []int, p int)
	rec = func(c []int, p int) {
		if p == len(c) {
			k := fmt.Sprint(c)
			if !seen[k] {
				seen[k] = true
				out = append(out, append([]int(nil), c...))
			}
			return
		}
		for q := p; q < len(c); q++ {
			if group[q] != group[p] {
				continue
			}
			c[p], c[q] = c[q], c[p]
			rec(c, p+1)
			c[p], c[q] = c[q], c[p]
		}
	}
	rec(append([]int(nil), conf...), 0)
	return out
}

// groupKey returns the group-counter vector of a naive configuration
// label as a comparable string.
func groupKey(sys *gsst.System, group, conf []int) string {
	y := make([][]int, len(sys.Groups))
	for g := range y {
		y[g] = make([]int, len(sys.States))
	}
	for p, s := range conf {
		y[group[p]][s]++
	}
	return fmt.Sprint(y)
}

// naiveAbstract explores a counter model by evaluating its guards with
// presburger.Eval.
func naiveAbstract(am *counterabs.Model) *graph {
	gr := &graph{index: map[string]int{}}
	gr.add(fmt.Sprint(am.Init), append([]int(nil), am.Init...))
	for i := 0; i < len(gr.label); i++ {
		x := gr.totals[i]
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for _, t := range am.Transitions {
			if x[t.From] == 0 || !presburger.Eval(t.Guard, val) {
				continue
			}
			y := append([]int(nil), x...)
			y[t.From]--
			y[t.To]++
			j, _ := gr.add(fmt.Sprint(y), y)
			gr.succ[i] = append(gr.succ[i], j)
		}
		// A forced model also stutters where the system may be deadlocked.
		if len(gr.succ[i]) == 0 || am.MayDeadlock != nil && presburger.Eval(am.MayDeadlock, val) {
			gr.dead[i] = true
			gr.succ[i] = append(gr.succ[i], i)
		}
	}
	return gr
}

// satNaive computes the states of gr satisfying f by plain fixpoint
// iteration (no dualities between path quantifiers).
func satNaive(gr *graph, f ctl.Formula) []bool {
	n := len(gr.label)
	out := make([]bool, n)
	ex := func(z []bool) []bool {
		r := make([]bool, n)
		for i := range r {
			for _, j := range gr.succ[i] {
				if z[j] {
					r[i] = true
				}
			}
		}
		return r
	}
	ax := func(z []bool) []bool {
		r := make([]bool, n)
		for i := range r {
			r[i] = true
			for _, j := range gr.succ[i] {
				if !z[j] {
					r[i] = false
				}
			}
		}
		return r
	}
	fix := func(start bool, step func(z []bool) []bool) []bool {
		z := make([]bool, n)
		for i := range z {
			z[i] = start
		}
		for {
			next := step(z)
			same := true
			for i := range z {
				if z[i] != next[i] {
					same = false
				}
			}
			if same {
				return z
			}
			z = next
		}
	}
	switch f := f.(type) {
	case ctl.Atom:
		for i := range out {
			x := gr.totals[i]
			out[i] = presburger.Eval(f.P, func(v presburger.Var) int64 { return int64(x[v]) })
		}
	case ctl.Not:
		x := satNaive(gr, f.X)
		for i := range out {
			out[i] = !x[i]
		}
	case ctl.Binary:
		l, r := satNaive(gr, f.L), satNaive(gr, f.R)
		for i := range out {
			switch f.Op {
			case ctl.And:
				out[i] = l[i] && r[i]
			case ctl.Or:
				out[i] = l[i] || r[i]
			default:
				out[i] = !l[i] || r[i]
			}
		}
	case ctl.Unary:
		p := satNaive(gr, f.X)
		switch f.Op {
		case ctl.EX:
			out = ex(p)
		case ctl.AX:
			out = ax(p)
		case ctl.EF, ctl.AF:
			next := ex
			if f.Op == ctl.AF {
				next = ax
			}
			out = fix(false, func(z []bool) []bool {
				r := next(z)
				for i := range r {
					r[i] = r[i] || p[i]
				}
				return r
			})
		case ctl.EG, ctl.AG:
			next := ex
			if f.Op == ctl.AG {
				next = ax
			}
			out = fix(true, func(z []bool) []bool {
				r := next(z)
				for i := range r {
					r[i] = r[i] && p[i]
				}
				return r
			})
		}
	case ctl.Until:
		l, r := satNaive(gr, f.L), satNaive(gr, f.R)
		next := ex
		if f.All {
			next = ax
		}
		out = fix(false, func(z []bool) []bool {
			q := next(z)
			for i := range q {
				q[i] = r[i] || l[i] && q[i]
			}
			return q
		})
	}
	return out
}

// dist returns the length of a shortest path from state 0 to a target
// state whose earlier states are all in through, or -1.
func (gr *graph) dist(through, target []bool) int { return gr.distFrom(0, through, target) }

// distFrom is dist from state from.
func (gr *graph) distFrom(from int, through, target []bool) int {
	d := make([]int, len(gr.label))
	for i := range d {
		d[i] = -1
	}
	d[from] = 0
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if target[u] {
			return d[u]
		}
		if !through[u] {
			continue
		}
		for _, v := range gr.succ[u] {
			if d[v] < 0 {
				d[v] = d[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return -1
}

// quotient merges the states of gr with equal key(i), keeping state 0
// first; the result is the group-symmetry quotient when key is the
// group-counter vector.
func quotient(gr *graph, key func(i int) string) *graph {
	q := &graph{index: map[string]int{}}
	of := make([]int, len(gr.label))
	for i := range gr.label {
		of[i], _ = q.add(key(i), gr.totals[i])
	}
	seen := map[[2]int]bool{}
	for i := range gr.label {
		q.dead[of[i]] = gr.dead[i]
		for _, j := range gr.succ[i] {
			e := [2]int{of[i], of[j]}
			if !seen[e] {
				seen[e] = true
				q.succ[of[i]] = append(q.succ[of[i]], of[j])
			}
		}
	}
	return q
}

// ---------------------------------------------------------------------
// Brute-force counter abstraction.

// compositions returns every vector of m non-negative integers summing
// to n.
func compositions(n, m int) [][]int {
	if m == 1 {
		return [][]int{{n}}
	}
	var out [][]int
	for k := 0; k <= n; k++ {
		for _, rest := range compositions(n-k, m-1) {
			out = append(out, append([]int{k}, rest...))
		}
	}
	return out
}

// bruteModel builds the counter abstraction of sys by enumerating every
// group-counter configuration: g_r(x) holds when some configuration with
// totals x has a process that can take r. certified reports whether,
// for every r and x, either all or none of those configurations can
// (Theorem 6).
func bruteModel(sys *gsst.System) (*counterabs.Model, bool) {
	m := len(sys.States)
	// All group-counter matrices y.
	ys := [][][]int{{}}
	for _, grp := range sys.Groups {
		var next [][][]int
		for _, y := range ys {
			for _, c := range compositions(grp.Size, m) {
				next = append(next, append(append([][]int(nil), y...), c))
			}
		}
		ys = next
	}
	certified := true
	var trans []counterabs.Transition
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		any, all := map[string]bool{}, map[string]bool{}
		tot := map[string][]int{}
		for _, y := range ys {
			x := make([]int, m)
			for g := range y {
				for s := range x {
					x[s] += y[g][s]
				}
			}
			k := fmt.Sprint(x)
			tot[k] = x
			val := sys.Valuation(y)
			dom := false
			for g := range sys.Groups {
				if b := t.BlockOf(g); b != nil && y[g][t.From] > 0 && presburger.Eval(b.Guard, val) {
					dom = true
				}
			}
			if _, seen := all[k]; !seen {
				all[k] = true
			}
			any[k] = any[k] || dom
			all[k] = all[k] && dom
		}
		var keys []string
		for k := range tot {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var clauses []presburger.Formula
		for _, k := range keys {
			if any[k] != all[k] {
				certified = false
			}
			if !any[k] {
				continue
			}
			var eq []presburger.Formula
			for s, c := range tot[k] {
				eq = append(eq, presburger.Compare(presburger.VarTerm(presburger.Var(s)), presburger.Eq, presburger.ConstTerm(int64(c))))
			}
			clauses = append(clauses, presburger.Conj(eq...))
		}
		trans = append(trans, counterabs.Transition{
			From: t.From, To: t.To, Guard: presburger.Disj(clauses...), Case: counterabs.CaseProjection, Local: ti, Group: -1})
	}
	am, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, certified)
	if err != nil {
		panic(err)
	}
	if !certified {
		// The forced model stutters wherever some configuration with
		// those totals is deadlocked (counterabs.Model.MayDeadlock).
		var dead []presburger.Formula
		seen := map[string]bool{}
		for _, y := range ys {
			x := make([]int, m)
			moves := false
			for g := range y {
				for s := range x {
					x[s] += y[g][s]
				}
			}
			val := sys.Valuation(y)
			for ti := range sys.Transitions {
				t := &sys.Transitions[ti]
				for g := range sys.Groups {
					if b := t.BlockOf(g); b != nil && y[g][t.From] > 0 && presburger.Eval(b.Guard, val) {
						moves = true
					}
				}
			}
			if k := fmt.Sprint(x); !moves && !seen[k] {
				seen[k] = true
				var eq []presburger.Formula
				for s, c := range x {
					eq = append(eq, presburger.Compare(presburger.VarTerm(presburger.Var(s)), presburger.Eq, presburger.ConstTerm(int64(c))))
				}
				dead = append(dead, presburger.Conj(eq...))
			}
		}
		am.MayDeadlock = presburger.Disj(dead...)
	}
	return am, certified
}

func describe(sys *gsst.System) string {
	var b strings.Builder
	fmt.Fprintf(&b, "states %v groups %v init %v\n", sys.States, sys.Groups, sys.Init)
	for _, t := range sys.Transitions {
		fmt.Fprintf(&b, "  %s:", sys.TransitionName(&t))
		for _, bl := range t.Blocks {
			fmt.Fprintf(&b, " %v{%s}", bl.Groups, presburger.Format(bl.Guard, sys.VarName))
		}
		b.WriteString("\n")
	}
	return b.String()
}
