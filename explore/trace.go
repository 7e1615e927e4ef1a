package explore

import (
	"github.com/vsym/vsym/ctl"
)

// explain builds the trace of a verdict on f in the initial state (state
// 0), or nil when f's outermost operator has no trace of that polarity.
// Finite traces are shortest: breadth-first search from the initial
// state. Lassos are found by a walk inside the EG set that closes a loop
// as soon as a successor lies on the walk.
func (e *engine) explain(f ctl.Formula, holds bool) (*Trace, error) {
	n := e.st.n
	// A negated temporal operator is explained by its dual: !EF p fails
	// exactly when AG !p fails, and so on.
	if nf, ok := f.(ctl.Not); ok {
		if u, ok := nf.X.(ctl.Unary); ok && u.Op >= ctl.EX && u.Op <= ctl.AG {
			return e.explain(ctl.Unary{Op: u.Op.Dual(), X: ctl.Not{X: u.X}}, holds)
		}
		return nil, nil
	}
	switch f := f.(type) {
	case ctl.Unary:
		if f.Op.Existential() != holds {
			return nil, nil
		}
		x, err := e.sat(f.X)
		if err != nil {
			return nil, err
		}
		kind := Witness
		if !holds {
			kind = Counterexample
		}
		switch f.Op {
		case ctl.EX, ctl.AX:
			// EX holds: a successor in x; AX fails: one outside x.
			vals, key := e.scratch()
			for _, j := range e.succs(0, vals, key, nil) {
				if x.has(j) == holds {
					return e.trace(kind, []int{0, j}, -1), nil
				}
			}
		case ctl.EF, ctl.AG:
			target := x
			if !holds {
				target = x.not(n)
			}
			return e.trace(kind, e.path(e.all(), target), -1), nil
		case ctl.EG, ctl.AF:
			var pf ctl.Formula = f.X
			if !holds {
				pf = ctl.Not{X: f.X}
			}
			z, err := e.sat(ctl.Unary{Op: ctl.EG, X: pf})
			if err != nil {
				return nil, err
			}
			path, loop := e.lasso(z)
			return e.trace(kind, path, loop), nil
		}
	case ctl.Until:
		if f.All == holds {
			return nil, nil
		}
		l, r, err := e.sat2(f.L, f.R)
		if err != nil {
			return nil, err
		}
		if holds {
			return e.trace(Witness, e.path(l, r), -1), nil
		}
		// A[l U r] fails: either a path through !r to a state with
		// neither, or an infinite path of !r.
		nr := r.not(n)
		bad := l.not(n).and(nr)
		if p := e.path(nr, bad); p != nil {
			return e.trace(Counterexample, p, -1), nil
		}
		z, err := e.sat(ctl.Unary{Op: ctl.EG, X: ctl.Not{X: f.R}})
		if err != nil {
			return nil, err
		}
		path, loop := e.lasso(z)
		return e.trace(Counterexample, path, loop), nil
	}
	return nil, nil
}

// path returns a shortest path from state 0 to a target state whose
// states before the last are all in through, or nil.
func (e *engine) path(through, target bitset) []int {
	if target.has(0) {
		return []int{0}
	}
	if !through.has(0) {
		return nil
	}
	parent := make([]int32, e.st.n)
	for i := range parent {
		parent[i] = -1
	}
	parent[0] = 0
	queue := []int32{0}
	vals, key := e.scratch()
	var buf []int
	for len(queue) > 0 {
		u := int(queue[0])
		queue = queue[1:]
		buf = e.succs(u, vals, key, buf)
		for _, v := range buf {
			if parent[v] >= 0 {
				continue
			}
			parent[v] = int32(u)
			if target.has(v) {
				var rev []int
				for x := v; x != 0; x = int(parent[x]) {
					rev = append(rev, x)
				}
				out := []int{0}
				for i := len(rev) - 1; i >= 0; i-- {
					out = append(out, rev[i])
				}
				return out
			}
			if through.has(v) {
				queue = append(queue, int32(v))
			}
		}
	}
	return nil
}

// lasso walks from state 0 inside z, a set in which every state has a
// successor in z, until it meets a state already on the walk; it closes
// the loop as soon as it can and otherwise prefers the successor nearest
// the initial state. It returns
// the walk and the position the last state loops back to, or nil, -1 when
// state 0 is not in z.
func (e *engine) lasso(z bitset) ([]int, int) {
	if !z.has(0) {
		return nil, -1
	}
	pos := map[int]int{0: 0}
	path := []int{0}
	vals, key := e.scratch()
	var buf []int
	for {
		u := path[len(path)-1]
		buf = e.succs(u, vals, key, buf)
		back, next := -1, -1
		for _, v := range buf {
			if !z.has(v) {
				continue
			}
			if p, ok := pos[v]; ok {
				if p > back {
					back = p // the latest position gives the shortest loop
				}
			} else if next < 0 || v < next {
				// State numbers are breadth-first from the initial state:
				// heading for the smallest tends to come back to the walk
				// soon, keeping the lasso short.
				next = v
			}
		}
		switch {
		case back >= 0:
			return path, back
		case next >= 0:
			pos[next] = len(path)
			path = append(path, next)
		default:
			// Impossible when z is closed under "has a successor in z";
			// return the walk as a finite prefix rather than loop.
			return path, -1
		}
	}
}

// trace converts state numbers to a Trace (nil for an empty path).
func (e *engine) trace(kind TraceKind, path []int, loop int) *Trace {
	if len(path) == 0 {
		return nil
	}
	tr := &Trace{Kind: kind, Loop: loop}
	vals := make([]int64, e.sp.nvals)
	for _, i := range path {
		e.decodeState(i, vals)
		tr.States = append(tr.States, e.sp.state(vals))
	}
	return tr
}
