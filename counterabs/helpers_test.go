package counterabs

import (
	"context"
	"fmt"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Test helpers: building systems by hand, a brute-force projector, and a
// brute-force semantics of GSSTs over L^n, independent of package detect
// and of the code under test.

// sysBuilder builds a gsst.System programmatically.
type sysBuilder struct{ sys *gsst.System }

func newSys(states []string, groups map[string]int, order ...string) *sysBuilder {
	s := &gsst.System{Name: "test", States: states}
	for _, g := range order {
		s.Groups = append(s.Groups, gsst.Group{Name: g, Size: groups[g]})
	}
	for _, g := range s.Groups {
		row := make([]int, len(states))
		row[0] = g.Size
		s.Init = append(s.Init, row)
	}
	return &sysBuilder{s}
}

func (b *sysBuilder) state(name string) int {
	for i, s := range b.sys.States {
		if s == name {
			return i
		}
	}
	panic("no state " + name)
}

func (b *sysBuilder) group(name string) int {
	for i, g := range b.sys.Groups {
		if g.Name == name {
			return i
		}
	}
	panic("no group " + name)
}

// total returns the term #S; grp the term #S[g].
func (b *sysBuilder) total(s string) presburger.Term {
	return presburger.VarTerm(b.sys.TotalVar(b.state(s)))
}

func (b *sysBuilder) grp(s, g string) presburger.Term {
	return presburger.VarTerm(b.sys.GroupVar(b.state(s), b.group(g)))
}

type blockSpec struct {
	groups []string
	guard  presburger.Formula
}

func (b *sysBuilder) trans(from, to string, blocks ...blockSpec) *sysBuilder {
	t := gsst.Transition{From: b.state(from), To: b.state(to)}
	for _, bs := range blocks {
		var gs []int
		for _, g := range bs.groups {
			gs = append(gs, b.group(g))
		}
		t.Blocks = append(t.Blocks, gsst.Block{Groups: gs, Guard: bs.guard})
	}
	b.sys.Transitions = append(b.sys.Transitions, t)
	return b
}

func (b *sysBuilder) all() []string {
	var out []string
	for _, g := range b.sys.Groups {
		out = append(out, g.Name)
	}
	return out
}

func cmp(t presburger.Term, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(t, op, presburger.ConstTerm(k))
}

// readersWriters is the three-process R&W of Figure 1(b): one reader,
// two writers; a reader enters C only when no writer is trying.
func readersWriters() *gsst.System {
	b := newSys([]string{"N", "T", "C"}, map[string]int{"r": 1, "w": 2}, "r", "w")
	b.trans("N", "T", blockSpec{b.all(), presburger.True})
	b.trans("T", "C",
		blockSpec{[]string{"r"}, presburger.Conj(cmp(b.total("C"), presburger.Eq, 0), cmp(b.grp("T", "w"), presburger.Eq, 0))},
		blockSpec{[]string{"w"}, cmp(b.total("C"), presburger.Eq, 0)})
	b.trans("C", "N", blockSpec{b.all(), presburger.True})
	return b.sys
}

// bruteProjector implements presburger.Projector by enumeration: it
// enumerates the eliminated variables, derives each kept variable from a
// top-level equation defining it (or enumerates it), evaluates the whole
// formula and returns the disjunction of the kept points found.
type bruteProjector struct{}

func (bruteProjector) Project(ctx context.Context, p presburger.Problem, keep []presburger.Var) (presburger.Formula, presburger.Result, error) {
	if err := p.CheckBounds(); err != nil {
		return nil, presburger.Unknown, err
	}
	kept := map[presburger.Var]bool{}
	for _, v := range keep {
		kept[v] = true
	}
	var elim, keepB []presburger.Bound
	for _, b := range p.Bounds {
		if kept[b.Var] {
			keepB = append(keepB, b)
		} else {
			elim = append(elim, b)
		}
	}
	conj := []presburger.Formula{p.F}
	if a, ok := p.F.(presburger.And); ok {
		conj = a
	}
	// def[v] = term t with v = t, t free of kept variables.
	def := map[presburger.Var]presburger.Term{}
	for _, c := range conj {
		cm, ok := c.(presburger.Cmp)
		if !ok || cm.Op != presburger.Eq {
			continue
		}
		var kv []presburger.Mono
		for _, m := range cm.T.Monos {
			if kept[m.Var] {
				kv = append(kv, m)
			}
		}
		if len(kv) != 1 || (kv[0].Coef != 1 && kv[0].Coef != -1) {
			continue
		}
		if _, have := def[kv[0].Var]; have {
			continue
		}
		// c*v + rest = 0  =>  v = -rest/c
		rest := cm.T.Sub(presburger.Term{Monos: []presburger.Mono{kv[0]}})
		def[kv[0].Var] = rest.Scale(-kv[0].Coef)
	}
	vals := map[presburger.Var]int64{}
	val := func(v presburger.Var) int64 { return vals[v] }
	seen := map[string]bool{}
	var points []presburger.Formula
	var enumKeep func(i int)
	enumKeep = func(i int) {
		if i == len(keepB) {
			if !presburger.Eval(p.F, val) {
				return
			}
			key := ""
			var atoms []presburger.Formula
			for _, b := range keepB {
				key += fmt.Sprint(vals[b.Var], ",")
				atoms = append(atoms, cmp(presburger.VarTerm(b.Var), presburger.Eq, vals[b.Var]))
			}
			if !seen[key] {
				seen[key] = true
				points = append(points, presburger.Conj(atoms...))
			}
			return
		}
		b := keepB[i]
		if t, ok := def[b.Var]; ok {
			x := t.Eval(val)
			if x < b.Lo || x > b.Hi {
				return
			}
			vals[b.Var] = x
			enumKeep(i + 1)
			return
		}
		for x := b.Lo; x <= b.Hi; x++ {
			vals[b.Var] = x
			enumKeep(i + 1)
		}
	}
	var enumElim func(i int)
	enumElim = func(i int) {
		if i == len(elim) {
			enumKeep(0)
			return
		}
		b := elim[i]
		for x := b.Lo; x <= b.Hi; x++ {
			vals[b.Var] = x
			enumElim(i + 1)
		}
	}
	enumElim(0)
	if err := ctx.Err(); err != nil {
		return nil, presburger.Unknown, nil
	}
	return presburger.Disj(points...), presburger.Sat, nil
}

// concrete is the brute-force semantics of a system over L^n: for every
// transition and every total-counter vector, whether some and whether
// every global state with those totals enables the transition.
type concrete struct {
	some, every []map[string]bool // per transition, keyed by vecKey(totals)
	vectors     [][]int           // every total-counter vector, once
	mayDead     map[string]bool   // some global state with these totals has no move
}

func vecKey(a []int) string { return fmt.Sprint(a) }

// enabledIn reports whether a process of the global state st (st[i] is
// the local state of process i, whose group is grp[i]) can take t, by
// direct evaluation of the guards.
func enabledIn(sys *gsst.System, t *gsst.Transition, grp, st []int) bool {
	m, d := len(sys.States), len(sys.Groups)
	val := func(v presburger.Var) int64 {
		if int(v) < m {
			k := 0
			for _, s := range st {
				if s == int(v) {
					k++
				}
			}
			return int64(k)
		}
		i := int(v) - m
		s, g := i/d, i%d
		k := 0
		for p := range st {
			if st[p] == s && grp[p] == g {
				k++
			}
		}
		return int64(k)
	}
	for p := range st {
		if st[p] != t.From {
			continue
		}
		for _, bl := range t.Blocks {
			in := false
			for _, g := range bl.Groups {
				in = in || g == grp[p]
			}
			if in && presburger.Eval(bl.Guard, val) {
				return true
			}
		}
	}
	return false
}

func explore(sys *gsst.System) *concrete {
	var grp []int
	for g, gr := range sys.Groups {
		for range gr.Size {
			grp = append(grp, g)
		}
	}
	n, m := len(grp), len(sys.States)
	c := &concrete{mayDead: map[string]bool{}}
	for range sys.Transitions {
		c.some = append(c.some, map[string]bool{})
		c.every = append(c.every, map[string]bool{})
	}
	seenVec := map[string]bool{}
	st := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i < n {
			for s := range m {
				st[i] = s
				rec(i + 1)
			}
			return
		}
		a := make([]int, m)
		for _, s := range st {
			a[s]++
		}
		key := vecKey(a)
		first := !seenVec[key]
		if first {
			seenVec[key] = true
			c.vectors = append(c.vectors, a)
		}
		moves := false
		for r := range sys.Transitions {
			e := enabledIn(sys, &sys.Transitions[r], grp, st)
			moves = moves || e
			if e {
				c.some[r][key] = true
			}
			if first {
				c.every[r][key] = e
			} else if !e {
				c.every[r][key] = false
			}
		}
		if !moves {
			c.mayDead[key] = true
		}
	}
	rec(0)
	return c
}

// certified reports whether transition r's domain is closed under orbits.
func (c *concrete) certified(r int) bool {
	for _, a := range c.vectors {
		k := vecKey(a)
		if c.some[r][k] != c.every[r][k] {
			return false
		}
	}
	return true
}

func evalVec(f presburger.Formula, a []int) bool {
	return presburger.Eval(f, func(v presburger.Var) int64 {
		if int(v) < len(a) {
			return int64(a[v])
		}
		panic(fmt.Sprintf("guard uses variable %d, not a total counter", v))
	})
}
