package bymc_test

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/formats/bymc"
)

// This file is the semantics of a threshold automaton read straight from
// its syntax tree, for the cross-checks: a configuration is the number
// of processes in every location and the value of every shared
// variable, for fixed values of the parameters; the initial
// configurations are those in which every condition of inits holds; a
// rule may fire when its source location holds a process and its guard
// holds, and then one process moves from the source to the target
// (staying, for a self-loop) and each action x' == e sets x to e, read
// before the step; a shared variable without an action keeps its value.
// It shares nothing with the translation but the parser.

type taSim struct {
	f      *bymc.File
	locs   []string
	shared []string
	params map[string]int64
	macros map[string]bymc.Expr
}

func newTASim(f *bymc.File, params map[string]int64) *taSim {
	s := &taSim{f: f, params: params, macros: map[string]bymc.Expr{}}
	for _, l := range f.Locations {
		s.locs = append(s.locs, l.Name.Name)
	}
	for _, d := range f.Decls {
		if d.Kind == bymc.SHARED {
			for _, id := range d.Names {
				s.shared = append(s.shared, id.Name)
			}
		}
	}
	for _, d := range f.Defines {
		s.macros[d.Name.Name] = d.X
	}
	return s
}

// config is a configuration: location counters, then shared variables.
type config []int64

func (s *taSim) value(name string, c config) int64 {
	if i := slices.Index(s.locs, name); i >= 0 {
		return c[i]
	}
	if j := slices.Index(s.shared, name); j >= 0 {
		return c[len(s.locs)+j]
	}
	if v, ok := s.params[name]; ok {
		return v
	}
	if x, ok := s.macros[name]; ok {
		return s.num(x, c)
	}
	panic("taSim: unknown name " + name)
}

// num evaluates an arithmetic expression.
func (s *taSim) num(x bymc.Expr, c config) int64 {
	switch x := x.(type) {
	case *bymc.IntLit:
		return x.Value
	case *bymc.NameExpr:
		return s.value(x.Name, c)
	case *bymc.ParenExpr:
		return s.num(x.X, c)
	case *bymc.UnaryExpr:
		return -s.num(x.X, c)
	case *bymc.BinaryExpr:
		a, b := s.num(x.X, c), s.num(x.Y, c)
		switch x.Op {
		case bymc.ADD:
			return a + b
		case bymc.SUB:
			return a - b
		case bymc.MUL:
			return a * b
		}
	}
	panic(fmt.Sprintf("taSim: not a number: %T", x))
}

// holds evaluates a condition.
func (s *taSim) holds(x bymc.Expr, c config) bool {
	switch x := x.(type) {
	case *bymc.TrueExpr:
		return true
	case *bymc.ParenExpr:
		return s.holds(x.X, c)
	case *bymc.UnaryExpr:
		return !s.holds(x.X, c)
	case *bymc.BinaryExpr:
		switch x.Op {
		case bymc.AND:
			return s.holds(x.X, c) && s.holds(x.Y, c)
		case bymc.OR:
			return s.holds(x.X, c) || s.holds(x.Y, c)
		case bymc.IMPLIES:
			return !s.holds(x.X, c) || s.holds(x.Y, c)
		}
		a, b := s.num(x.X, c), s.num(x.Y, c)
		switch x.Op {
		case bymc.EQ:
			return a == b
		case bymc.NE:
			return a != b
		case bymc.LT:
			return a < b
		case bymc.LE:
			return a <= b
		case bymc.GT:
			return a > b
		case bymc.GE:
			return a >= b
		}
	}
	panic(fmt.Sprintf("taSim: not a condition: %T", x))
}

// initials returns the configurations in which every initial condition
// holds: each condition "a + b + ... == e" with e over the parameters
// alone splits e over a, b, ... in every way, every other location or
// shared variable takes each value in 0..most, and every condition is
// then checked.
func (s *taSim) initials(most int64) []config {
	n := len(s.locs) + len(s.shared)
	slot := func(name string) int {
		if i := slices.Index(s.locs, name); i >= 0 {
			return i
		}
		if j := slices.Index(s.shared, name); j >= 0 {
			return len(s.locs) + j
		}
		return -1
	}
	type sum struct {
		slots []int
		total int64
	}
	var sums []sum
	covered := make([]bool, n)
	for _, x := range s.f.Inits {
		b, ok := unparen(x).(*bymc.BinaryExpr)
		if !ok || b.Op != bymc.EQ {
			continue
		}
		var slots []int
		var names func(e bymc.Expr) bool
		names = func(e bymc.Expr) bool {
			switch e := unparen(e).(type) {
			case *bymc.NameExpr:
				if k := slot(e.Name); k >= 0 && !covered[k] && !slices.Contains(slots, k) {
					slots = append(slots, k)
					return true
				}
			case *bymc.BinaryExpr:
				return e.Op == bymc.ADD && names(e.X) && names(e.Y)
			}
			return false
		}
		if !names(b.X) || !s.paramsOnly(b.Y) {
			continue
		}
		total := s.num(b.Y, nil)
		if total < 0 {
			return nil
		}
		for _, k := range slots {
			covered[k] = true
		}
		sums = append(sums, sum{slots, total})
	}
	var free []int
	for k := range n {
		if !covered[k] {
			free = append(free, k)
		}
	}
	var out []config
	c := make(config, n)
	var split func(i int, left int64, slots []int, done func())
	split = func(i int, left int64, slots []int, done func()) {
		if i == len(slots)-1 {
			c[slots[i]] = left
			done()
			return
		}
		for v := int64(0); v <= left; v++ {
			c[slots[i]] = v
			split(i+1, left-v, slots, done)
		}
	}
	var rec func(i int)
	rec = func(i int) {
		switch {
		case i < len(sums):
			split(0, sums[i].total, sums[i].slots, func() { rec(i + 1) })
		case i-len(sums) < len(free):
			for v := int64(0); v <= most; v++ {
				c[free[i-len(sums)]] = v
				rec(i + 1)
			}
		default:
			for _, x := range s.f.Inits {
				if !s.holds(x, c) {
					return
				}
			}
			out = append(out, slices.Clone(c))
		}
	}
	rec(0)
	return out
}

// paramsOnly reports whether x reads parameters (and macros of them)
// only.
func (s *taSim) paramsOnly(x bymc.Expr) bool {
	switch x := unparen(x).(type) {
	case *bymc.NameExpr:
		if _, ok := s.params[x.Name]; ok {
			return true
		}
		if m, ok := s.macros[x.Name]; ok {
			return s.paramsOnly(m)
		}
		return false
	case *bymc.UnaryExpr:
		return s.paramsOnly(x.X)
	case *bymc.BinaryExpr:
		return s.paramsOnly(x.X) && s.paramsOnly(x.Y)
	}
	return true
}

// step returns the configurations one rule leads c to.
func (s *taSim) step(c config) []config {
	var out []config
	for _, r := range s.f.Rules {
		from, to := slices.Index(s.locs, r.From.Name), slices.Index(s.locs, r.To.Name)
		if c[from] < 1 || r.Guard != nil && !s.holds(r.Guard, c) {
			continue
		}
		next := slices.Clone(c)
		next[from]--
		next[to]++
		for _, a := range r.Actions {
			if a.X != nil {
				next[len(s.locs)+slices.Index(s.shared, a.Var.Name)] = s.num(a.X, c)
			}
		}
		out = append(out, next)
	}
	return out
}

// graph is the configuration graph from the initial configurations: a
// configuration without a step stutters.
type graph struct {
	states []config
	index  map[string]int
	succ   [][]int
}

func (s *taSim) explore(inits []config, limit int) (*graph, bool) {
	g := &graph{index: map[string]int{}}
	add := func(c config) int {
		k := fmt.Sprint(c)
		if i, ok := g.index[k]; ok {
			return i
		}
		g.index[k] = len(g.states)
		g.states = append(g.states, c)
		g.succ = append(g.succ, nil)
		return len(g.states) - 1
	}
	for _, c := range inits {
		add(c)
	}
	for i := 0; i < len(g.states); i++ {
		if len(g.states) > limit {
			return g, false
		}
		for _, next := range s.step(g.states[i]) {
			j := add(next)
			if !slices.Contains(g.succ[i], j) {
				g.succ[i] = append(g.succ[i], j)
			}
		}
		if len(g.succ[i]) == 0 {
			g.succ[i] = []int{i}
		}
	}
	return g, true
}

// fairCycle marks the states from which a path inside allowed reaches a
// cycle inside allowed and fair (a path that stays in fair states from
// some point on: ByMC's fairness <>[] c).
func (g *graph) fairCycle(allowed, fair func(int) bool) []bool {
	n := len(g.states)
	// Tarjan's strongly connected components of the fair, allowed part.
	index, low := make([]int, n), make([]int, n)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, n)
	var stack []int
	counter := 0
	good := make([]bool, n)
	in := func(v int) bool { return allowed(v) && fair(v) }
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range g.succ[v] {
			if !in(w) {
				continue
			}
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			cyclic := len(comp) > 1 || slices.Contains(g.succ[v], v)
			for _, w := range comp {
				good[w] = cyclic
			}
		}
	}
	for v := range n {
		if in(v) && index[v] < 0 {
			strong(v)
		}
	}
	// Backwards within allowed.
	pred := make([][]int, n)
	for v, ws := range g.succ {
		for _, w := range ws {
			pred[w] = append(pred[w], v)
		}
	}
	queue := []int{}
	for v := range n {
		if good[v] {
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		for _, v := range pred[w] {
			if !good[v] && allowed(v) {
				good[v] = true
				queue = append(queue, v)
			}
		}
	}
	return good
}

// within returns g with only the edges between states where keep holds
// (a state without such an edge has none: no path continues from it);
// states are kept, so indices stay.
func (g *graph) within(keep func(int) bool) *graph {
	out := &graph{states: g.states, index: g.index, succ: make([][]int, len(g.succ))}
	for v, ws := range g.succ {
		if !keep(v) {
			continue
		}
		for _, w := range ws {
			if keep(w) {
				out.succ[v] = append(out.succ[v], w)
			}
		}
		if out.succ[v] == nil {
			out.succ[v] = []int{} // kept, but no path continues
		}
	}
	return out
}

// reachable marks the states reachable from start.
func (g *graph) reachable(start int) []bool {
	seen := make([]bool, len(g.states))
	seen[start] = true
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.succ[v] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return seen
}

// specHolds decides a specification at configuration init by ByMC's
// meaning, for the shapes the tests use: premises (conditions at init
// and fairness <>[] c, which restricts the paths to those that stay in c
// from some point on) and a conclusion built from [] p, <> p, [](q -> <> r),
// conditions, &&, and || and -> with a condition on the left.
func (s *taSim) specHolds(g *graph, init int, x bymc.Expr) bool {
	fair := func(int) bool { return true }
	x = unparen(x)
	var premises []bymc.Expr
	for {
		b, ok := x.(*bymc.BinaryExpr)
		if !ok || b.Op != bymc.IMPLIES || !temporal(b) {
			break
		}
		premises = append(premises, conjuncts(b.X)...)
		x = unparen(b.Y)
	}
	var justice, always []bymc.Expr
	for _, p := range premises {
		p = unparen(p)
		if u, ok := p.(*bymc.UnaryExpr); ok && u.Op == bymc.LTLF {
			justice = append(justice, unparen(u.X).(*bymc.UnaryExpr).X)
			continue
		}
		if u, ok := p.(*bymc.UnaryExpr); ok && u.Op == bymc.LTLG {
			always = append(always, u.X)
			continue
		}
		if !s.holds(p, g.states[init]) {
			return true
		}
	}
	// A premise [] c restricts the paths to those in c-states only.
	g = g.within(func(v int) bool {
		for _, c := range always {
			if !s.holds(c, g.states[v]) {
				return false
			}
		}
		return true
	})
	if g.succ[init] == nil {
		return true // no path meets the premises
	}
	fair = func(v int) bool {
		for _, j := range justice {
			if !s.holds(j, g.states[v]) {
				return false
			}
		}
		return true
	}
	return s.ltl(g, init, x, fair)
}

func (s *taSim) ltl(g *graph, init int, x bymc.Expr, fair func(int) bool) bool {
	x = unparen(x)
	if !temporal(x) {
		return s.holds(x, g.states[init])
	}
	all := func(int) bool { return true }
	reach := g.reachable(init)
	switch x := x.(type) {
	case *bymc.BinaryExpr:
		switch x.Op {
		case bymc.AND:
			return s.ltl(g, init, x.X, fair) && s.ltl(g, init, x.Y, fair)
		case bymc.OR:
			if !temporal(x.X) {
				return s.holds(x.X, g.states[init]) || s.ltl(g, init, x.Y, fair)
			}
			return s.holds(x.Y, g.states[init]) || s.ltl(g, init, x.X, fair)
		case bymc.IMPLIES:
			return !s.holds(x.X, g.states[init]) || s.ltl(g, init, x.Y, fair)
		}
	case *bymc.UnaryExpr:
		inner := unparen(x.X)
		switch {
		case x.Op == bymc.LTLF: // <> p: no fair path avoids p
			p := func(v int) bool { return s.holds(inner, g.states[v]) }
			avoid := g.fairCycle(func(v int) bool { return !p(v) }, fair)
			return !avoid[init]
		case x.Op == bymc.LTLG && !temporal(inner): // [] p: no fair path reaches !p
			cont := g.fairCycle(all, fair)
			for v, r := range reach {
				if r && cont[v] && !s.holds(inner, g.states[v]) {
					return false
				}
			}
			return true
		case x.Op == bymc.LTLG: // [](q -> <> r)
			b := inner.(*bymc.BinaryExpr)
			q, r := b.X, unparen(b.Y).(*bymc.UnaryExpr).X
			avoid := g.fairCycle(func(v int) bool { return !s.holds(r, g.states[v]) }, fair)
			for v, ok := range reach {
				if ok && s.holds(q, g.states[v]) && avoid[v] {
					return false
				}
			}
			return true
		}
	}
	panic("taSim: a specification of a shape the tests do not use")
}

func unparen(x bymc.Expr) bymc.Expr {
	for {
		p, ok := x.(*bymc.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

func conjuncts(x bymc.Expr) []bymc.Expr {
	x = unparen(x)
	if b, ok := x.(*bymc.BinaryExpr); ok && b.Op == bymc.AND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []bymc.Expr{x}
}

func temporal(x bymc.Expr) bool {
	switch x := x.(type) {
	case *bymc.ParenExpr:
		return temporal(x.X)
	case *bymc.UnaryExpr:
		return x.Op == bymc.LTLF || x.Op == bymc.LTLG || temporal(x.X)
	case *bymc.BinaryExpr:
		return temporal(x.X) || temporal(x.Y)
	}
	return false
}
