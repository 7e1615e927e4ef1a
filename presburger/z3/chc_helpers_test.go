package z3_test

import (
	"fmt"

	pb "github.com/vsym/vsym/presburger"
)

// counters describes a counter system for the tests: m counters
// x0..x(m-1) (variables 0..m-1, their next copies m..2m-1), np
// parameters p0.. (variables 2m..), rules that move units between
// counters, an initial condition and a bad condition. It builds the
// TransitionSystem and, independently of the formulas of the
// transitions, computes successors for the explicit search.
type counters struct {
	m, np int
	pdom  []pb.Bound // ranges of the parameters
	rules []move
	init  pb.Formula // over counters and parameters
	bad   pb.Formula
}

// move takes one unit (or, when many, any k in 1..x[from], k a local
// variable) from counter from to counter to when guard holds.
type move struct {
	from, to int
	guard    pb.Formula
	many     bool
}

func (c *counters) x(i int) pb.Var  { return pb.Var(i) }
func (c *counters) xn(i int) pb.Var { return pb.Var(c.m + i) }
func (c *counters) p(j int) pb.Var  { return pb.Var(2*c.m + j) }
func (c *counters) k() pb.Var       { return pb.Var(2*c.m + c.np) }

func (c *counters) tx(i int) pb.Term { return pb.VarTerm(c.x(i)) }
func (c *counters) tp(j int) pb.Term { return pb.VarTerm(c.p(j)) }

func (c *counters) system() pb.TransitionSystem {
	ts := pb.TransitionSystem{Init: c.init, Bad: c.bad}
	for i := 0; i < c.m; i++ {
		ts.Vars = append(ts.Vars, c.x(i))
		ts.Next = append(ts.Next, c.xn(i))
		ts.Domain = append(ts.Domain, pb.AtLeast(c.x(i), 0))
	}
	for j := 0; j < c.np; j++ {
		ts.Params = append(ts.Params, c.p(j))
	}
	ts.Domain = append(ts.Domain, c.pdom...)
	for _, r := range c.rules {
		amount := pb.ConstTerm(1)
		var conj []pb.Formula
		if r.many {
			amount = pb.VarTerm(c.k())
			conj = append(conj, pb.Compare(amount, pb.Ge, pb.ConstTerm(1)))
		}
		conj = append(conj, r.guard, pb.Compare(c.tx(r.from), pb.Ge, amount))
		for i := 0; i < c.m; i++ {
			next := c.tx(i)
			if i == r.from {
				next = next.Sub(amount)
			}
			if i == r.to {
				next = next.Add(amount)
			}
			conj = append(conj, pb.Compare(pb.VarTerm(c.xn(i)), pb.Eq, next))
		}
		ts.Trans = append(ts.Trans, pb.Conj(conj...))
	}
	return ts
}

// explore searches the states reachable at the given parameter values
// breadth first and returns the length of a shortest run to a bad state,
// or -1 when there is none. The initial states are the counter vectors
// with entries in 0..limit that satisfy init; limit also bounds every
// counter (the tests' systems conserve the sum of the counters, so a
// limit at least that sum cuts nothing). It gives up with ok false after
// maxStates states. visit, when not nil, sees every state reached before
// the search ends.
func (c *counters) explore(params []int64, limit int64, maxStates int, visit func(val func(pb.Var) int64)) (depth int, ok bool) {
	val := func(st []int64) func(pb.Var) int64 {
		return func(v pb.Var) int64 {
			if int(v) < c.m {
				return st[v]
			}
			return params[int(v)-2*c.m]
		}
	}
	seen := map[string]bool{}
	var frontier [][]int64
	var rec func(st []int64)
	rec = func(st []int64) {
		if len(st) == c.m {
			if pb.Eval(c.init, val(st)) {
				cp := append([]int64(nil), st...)
				seen[fmt.Sprint(cp)] = true
				frontier = append(frontier, cp)
			}
			return
		}
		for x := int64(0); x <= limit; x++ {
			rec(append(st, x))
		}
	}
	rec(nil)
	for d := 0; len(frontier) > 0; d++ {
		var next [][]int64
		for _, st := range frontier {
			if visit != nil {
				visit(val(st))
			}
			if pb.Eval(c.bad, val(st)) {
				return d, true
			}
			for _, r := range c.rules {
				if st[r.from] < 1 || !pb.Eval(r.guard, val(st)) {
					continue
				}
				hi := int64(1)
				if r.many {
					hi = st[r.from]
				}
				for k := int64(1); k <= hi; k++ {
					nt := append([]int64(nil), st...)
					nt[r.from] -= k
					nt[r.to] += k
					if nt[r.to] > limit {
						continue
					}
					key := fmt.Sprint(nt)
					if !seen[key] {
						seen[key] = true
						next = append(next, nt)
					}
				}
			}
		}
		if len(seen) > maxStates {
			return 0, false
		}
		frontier = next
	}
	return -1, true
}

// grw is the generalized readers/writers counter model: m counters, a
// group size n >= 1 (parameter p0), everybody in x0 at first, a ring of
// free moves x(i) -> x(i+1) except that x(m-2) -> x(m-1) requires
// x(m-1) = 0 when guarded; bad is x(m-1) >= 2.
func grw(m int, guarded bool) *counters {
	c := &counters{m: m, np: 1}
	c.pdom = []pb.Bound{pb.AtLeast(c.p(0), 1)}
	init := []pb.Formula{pb.Compare(c.tx(0), pb.Eq, c.tp(0))}
	for i := 1; i < m; i++ {
		init = append(init, pb.Compare(c.tx(i), pb.Eq, pb.ConstTerm(0)))
	}
	c.init = pb.Conj(init...)
	for i := 0; i < m; i++ {
		g := pb.Formula(pb.True)
		if guarded && i == m-2 {
			g = pb.Compare(c.tx(m-1), pb.Eq, pb.ConstTerm(0))
		}
		c.rules = append(c.rules, move{from: i, to: (i + 1) % m, guard: g})
	}
	c.bad = pb.Compare(c.tx(m-1), pb.Ge, pb.ConstTerm(2))
	return c
}
