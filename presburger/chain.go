package presburger

import (
	"context"
	"sync/atomic"
)

// Chain is a Solver that asks its solvers in turn and returns the first
// answer that is not Unknown (or the last one's Unknown): Quick in front
// of an SMT solver decides the easy queries in Go and leaves the others
// to the solver behind it. It counts the answers each solver gave, so
// that a caller can tell which layer did the work. A Chain is safe for
// concurrent use when its solvers are.
type Chain struct {
	solvers         []Solver
	asked, answered []atomic.Int64
}

// NewChain returns the Chain of solvers, asked in the order given.
func NewChain(solvers ...Solver) *Chain {
	n := len(solvers)
	return &Chain{solvers: solvers, asked: make([]atomic.Int64, n), answered: make([]atomic.Int64, n)}
}

// Forget implements Forgetter: each solver of the chain forgets.
func (c *Chain) Forget() {
	for _, s := range c.solvers {
		Forget(s)
	}
}

// Solve implements Solver. An error of any solver ends the call.
func (c *Chain) Solve(ctx context.Context, p Problem) (Answer, error) {
	var a Answer
	for i, s := range c.solvers {
		var err error
		c.asked[i].Add(1)
		if a, err = s.Solve(ctx, p); err != nil {
			return Answer{}, err
		}
		if a.Result != Unknown {
			c.answered[i].Add(1)
			return a, nil
		}
	}
	return a, nil
}

// Asked returns how many queries each solver was asked so far, in the
// chain's order; Answered how many it answered (Sat or Unsat).
func (c *Chain) Asked() []int64 { return load(c.asked) }

// Answered: see Asked.
func (c *Chain) Answered() []int64 { return load(c.answered) }

func load(ns []atomic.Int64) []int64 {
	out := make([]int64, len(ns))
	for i := range ns {
		out[i] = ns[i].Load()
	}
	return out
}

// Name returns the name of the last solver, the one that answers what
// the others leave (progress displays name the back end by it).
func (c *Chain) Name() string {
	if len(c.solvers) == 0 {
		return ""
	}
	if n, ok := c.solvers[len(c.solvers)-1].(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}
