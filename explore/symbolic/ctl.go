package symbolic

import (
	"context"
	"fmt"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/ctl"
)

// Sat returns the states of the space satisfying f. The space is the set
// of reachable states when they were computed (WithReachable), else the
// box of the encoding or the vectors summing to N (WithSumSpace); either
// way the verdict at the initial state is the same, since a path from the
// initial state stays in the reachable states.
func (e *Checker) Sat(ctx context.Context, f ctl.Formula) (rudd.Node, error) {
	e.bind(ctx)
	n, err := e.cached(ctx, f)
	if err != nil {
		return nil, err
	}
	return n, e.check()
}

// cached is sat with its results kept by the formula's text while one
// property is checked (Property clears the cache), so that the trace
// builder and nested fairness reuse the fixpoints already computed.
func (e *Checker) cached(ctx context.Context, f ctl.Formula) (rudd.Node, error) {
	key := ctl.Format(f, e.model.VarName)
	if n, ok := e.cache[key]; ok {
		return n, nil
	}
	n, err := e.sat(ctx, f)
	if err != nil {
		return nil, err
	}
	if e.cache == nil {
		e.cache = map[string]rudd.Node{}
	}
	e.cache[key] = n
	return n, nil
}

func (e *Checker) sat(ctx context.Context, f ctl.Formula) (rudd.Node, error) {
	b := e.b
	switch f := f.(type) {
	case ctl.Atom:
		n, err := e.gc.compile(f.P)
		if err != nil {
			return nil, err
		}
		return b.And(n, e.space), nil
	case ctl.Not:
		x, err := e.cached(ctx, f.X)
		if err != nil {
			return nil, err
		}
		return b.And(e.space, b.Not(x)), nil
	case ctl.Binary:
		l, err := e.cached(ctx, f.L)
		if err != nil {
			return nil, err
		}
		r, err := e.cached(ctx, f.R)
		if err != nil {
			return nil, err
		}
		switch f.Op {
		case ctl.And:
			return b.And(l, r), nil
		case ctl.Or:
			return b.Or(l, r), nil
		case ctl.Implies:
			return b.And(e.space, b.Or(b.Not(l), r)), nil
		}
		return nil, fmt.Errorf("unknown connective %d", f.Op)
	case ctl.Unary:
		x, err := e.cached(ctx, f.X)
		if err != nil {
			return nil, err
		}
		switch f.Op {
		case ctl.EX, ctl.AX, ctl.EF, ctl.AG:
			// EX p = EX (p & fair), E[true U p] ends in a fair state; the
			// universal ones are their duals.
			neg := f.Op == ctl.AX || f.Op == ctl.AG
			if neg {
				x = e.not(x)
			}
			xf, err := e.andFair(ctx, x)
			if err != nil {
				return nil, err
			}
			var r rudd.Node
			if f.Op == ctl.EX || f.Op == ctl.AX {
				r = e.pre(xf)
			} else if r, err = e.eu(ctx, e.space, xf); err != nil {
				return nil, err
			}
			if neg {
				r = e.not(r)
			}
			return r, nil
		case ctl.EG:
			return e.egFair(ctx, x)
		case ctl.AF:
			eg, err := e.egFair(ctx, e.not(x))
			if err != nil {
				return nil, err
			}
			return e.not(eg), nil
		}
		return nil, fmt.Errorf("unknown temporal operator %d", f.Op)
	case ctl.Until:
		l, err := e.cached(ctx, f.L)
		if err != nil {
			return nil, err
		}
		r, err := e.cached(ctx, f.R)
		if err != nil {
			return nil, err
		}
		if !f.All {
			rf, err := e.andFair(ctx, r)
			if err != nil {
				return nil, err
			}
			return e.eu(ctx, l, rf)
		}
		return e.au(ctx, l, r)
	}
	return nil, fmt.Errorf("unsupported CTL formula %T", f)
}

func (e *Checker) not(x rudd.Node) rudd.Node { return e.b.And(e.space, e.b.Not(x)) }

// eu is E[l U r]: the least Z containing r and the states of l with a
// successor in Z. The deadlock stutter never adds a state (its successor
// is itself), so only the transition pre-images matter.
func (e *Checker) eu(ctx context.Context, l, r rudd.Node) (rudd.Node, error) {
	z, _, err := e.lfp(ctx, r, l, false)
	return z, err
}

// au is A[l U r] = !(E[!r U (!l & !r)] | EG !r), over fair paths.
func (e *Checker) au(ctx context.Context, l, r rudd.Node) (rudd.Node, error) {
	b := e.b
	nr := e.not(r)
	badStates, err := e.andFair(ctx, b.And(e.not(l), nr))
	if err != nil {
		return nil, err
	}
	bad, err := e.eu(ctx, nr, badStates)
	if err != nil {
		return nil, err
	}
	eg, err := e.egFair(ctx, nr)
	if err != nil {
		return nil, err
	}
	return e.not(b.Or(bad, eg)), nil
}

// eg is EG x: the greatest Z inside x where every state has a successor
// in Z (a deadlock state's stutter loop counts).
func (e *Checker) eg(ctx context.Context, x rudd.Node) (rudd.Node, error) {
	b := e.b
	z := x
	for {
		if err := e.poll(ctx); err != nil {
			return nil, err
		}
		nz := b.And(z, e.pre(z))
		if b.Equal(nz, z) {
			return z, nil
		}
		z = nz
	}
}
