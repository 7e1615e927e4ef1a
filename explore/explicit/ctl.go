package explicit

import (
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
)

// CTL model checking over the reachable graph. Every subformula gets its
// satisfaction set as a bitset over state numbers; the temporal operators
// use the textbook fixpoints, computed with worklists over predecessors
// (which the counter model yields directly: undo a move, check its guard,
// look the state up), so the graph's edges are never stored:
//
//	EX p      one pass over successors
//	E[p U q]  backward search from q through p
//	EG p      greatest fixpoint: drop p-states whose successors in the
//	          set all left it (successor counts, decremented on removal)
//	AX p = !EX !p, EF p = E[true U p], AF p = !EG !p, AG p = !EF !p,
//	A[p U q] = !(E[!q U (!p & !q)] | EG !q)
//
// A deadlock state has a stutter self-loop, so every state has a
// successor and the path quantifiers range over infinite paths. With
// justice constraints they range over fair paths (fair.go).

// sat returns the set of states satisfying f. Results are cached by the
// formula's text while one property is checked, so the trace builder and
// the dualities reuse the fixpoints already computed. Callers never
// modify a returned set.
func (e *engine) sat(f ctl.Formula) (bitset, error) {
	switch f.(type) {
	case ctl.Atom, ctl.Not, ctl.Binary, ctl.Unary, ctl.Until:
	default:
		return nil, fmt.Errorf("explore: unknown CTL formula %T", f)
	}
	key := ctl.Format(f, e.sp.model.VarName)
	if b, ok := e.cache[key]; ok {
		return b, nil
	}
	b, err := e.satUncached(f)
	if err != nil {
		return nil, err
	}
	if e.cache == nil {
		e.cache = map[string]bitset{}
	}
	e.cache[key] = b
	return b, nil
}

func (e *engine) satUncached(f ctl.Formula) (bitset, error) {
	n := e.st.n
	switch f := f.(type) {
	case ctl.Atom:
		g, err := compileGuard(f.P, e.sp.nvals)
		if err != nil {
			return nil, err
		}
		out := newBitset(n)
		vals := make([]int64, e.sp.nvals)
		for i := 0; i < n; i++ {
			if err := e.tick(); err != nil {
				return nil, err
			}
			e.decodeState(i, vals)
			if g.eval(vals) {
				out.set(i)
			}
		}
		return out, nil
	case ctl.Not:
		x, err := e.sat(f.X)
		if err != nil {
			return nil, err
		}
		return x.not(n), nil
	case ctl.Binary:
		l, r, err := e.sat2(f.L, f.R)
		if err != nil {
			return nil, err
		}
		switch f.Op {
		case ctl.And:
			return l.and(r), nil
		case ctl.Or:
			return l.or(r), nil
		case ctl.Implies:
			return l.not(n).or(r), nil
		}
		return nil, fmt.Errorf("explore: unknown connective %d", f.Op)
	case ctl.Unary:
		// The universal operators go through their existential duals, so
		// the cache holds the sets the trace builder needs.
		switch f.Op {
		case ctl.AX, ctl.AF, ctl.AG:
			dual := map[ctl.TempOp]ctl.TempOp{ctl.AX: ctl.EX, ctl.AF: ctl.EG, ctl.AG: ctl.EF}[f.Op]
			r, err := e.sat(ctl.Unary{Op: dual, X: ctl.Not{X: f.X}})
			if err != nil {
				return nil, err
			}
			return r.not(n), nil
		}
		x, err := e.sat(f.X)
		if err != nil {
			return nil, err
		}
		switch f.Op {
		case ctl.EX:
			xf, err := e.andFair(x)
			if err != nil {
				return nil, err
			}
			return e.ex(xf)
		case ctl.EF:
			xf, err := e.andFair(x)
			if err != nil {
				return nil, err
			}
			return e.eu(e.all(), xf)
		case ctl.EG:
			return e.egFair(x)
		}
		return nil, fmt.Errorf("explore: unknown temporal operator %d", f.Op)
	case ctl.Until:
		l, r, err := e.sat2(f.L, f.R)
		if err != nil {
			return nil, err
		}
		if !f.All {
			rf, err := e.andFair(r)
			if err != nil {
				return nil, err
			}
			return e.eu(l, rf)
		}
		// A[l U r] = !(E[!r U (!l & !r)] | EG !r)
		nr := r.not(n)
		badStates, err := e.andFair(l.not(n).and(nr))
		if err != nil {
			return nil, err
		}
		bad, err := e.eu(nr, badStates)
		if err != nil {
			return nil, err
		}
		g, err := e.sat(ctl.Unary{Op: ctl.EG, X: ctl.Not{X: f.R}})
		if err != nil {
			return nil, err
		}
		return bad.or(g).not(n), nil
	}
	return nil, fmt.Errorf("explore: unknown CTL formula %T", f)
}

func (e *engine) all() bitset { return newBitset(e.st.n).not(e.st.n) }

func (e *engine) scratch() ([]int64, []uint64) {
	return make([]int64, e.sp.nvals), make([]uint64, e.sp.w)
}

// ex returns the states with a successor in x.
func (e *engine) ex(x bitset) (bitset, error) {
	n := e.st.n
	out := newBitset(n)
	vals, key := e.scratch()
	var buf []int
	for i := 0; i < n; i++ {
		if err := e.tick(); err != nil {
			return nil, err
		}
		buf = e.succs(i, vals, key, buf)
		for _, j := range buf {
			if x.has(j) {
				out.set(i)
				break
			}
		}
	}
	return out, nil
}

// eu returns E[p U q]: backward search from q through p-states.
func (e *engine) eu(p, q bitset) (bitset, error) {
	n := e.st.n
	out := make(bitset, len(q))
	copy(out, q)
	var work []int32
	for i := 0; i < n; i++ {
		if q.has(i) {
			work = append(work, int32(i))
		}
	}
	vals, key := e.scratch()
	var buf []int
	for len(work) > 0 {
		if err := e.tick(); err != nil {
			return nil, err
		}
		j := int(work[len(work)-1])
		work = work[:len(work)-1]
		buf = e.preds(j, vals, key, buf)
		for _, i := range buf {
			if !out.has(i) && p.has(i) {
				out.set(i)
				work = append(work, int32(i))
			}
		}
	}
	return out, nil
}

// eg returns EG p: the greatest set Z within p where every state has a
// successor in Z.
func (e *engine) eg(p bitset) (bitset, error) {
	n := e.st.n
	z := make(bitset, len(p))
	copy(z, p)
	count := make([]uint32, n)
	vals, key := e.scratch()
	var buf []int
	var work []int32
	for i := 0; i < n; i++ {
		if !z.has(i) {
			continue
		}
		if err := e.tick(); err != nil {
			return nil, err
		}
		buf = e.succs(i, vals, key, buf)
		for _, j := range buf {
			if z.has(j) {
				count[i]++
			}
		}
		if count[i] == 0 {
			work = append(work, int32(i))
		}
	}
	for len(work) > 0 {
		if err := e.tick(); err != nil {
			return nil, err
		}
		j := int(work[len(work)-1])
		work = work[:len(work)-1]
		z.clear(j)
		buf = e.preds(j, vals, key, buf)
		for _, i := range buf {
			if z.has(i) && count[i] > 0 {
				count[i]--
				if count[i] == 0 {
					work = append(work, int32(i))
				}
			}
		}
	}
	return z, nil
}

// checkProperty decides p in the initial state and builds its trace. As
// in NuSMV, a property holds when the initial state satisfies it or no
// fair path starts there (then vacuously).
func (e *engine) checkProperty(p *counterabs.Property) (explore.PropertyResult, error) {
	e.cache = nil // bound the cache's memory to one property
	res := explore.NewPropertyResult(e.sp.model, p)
	s, err := e.sat(p.Formula)
	if err != nil {
		return res, fmt.Errorf("property %s: %w", p.Name, err)
	}
	fair, err := e.fairStates()
	if err != nil {
		return res, fmt.Errorf("property %s: %w", p.Name, err)
	}
	// Every initial state with a fair path must satisfy p; the trace
	// starts in the first that does not, or (p holding) the first fair.
	from := -1
	res.Vacuous, res.Holds = true, true
	for _, i := range e.initials() {
		if !fair.has(i) {
			continue
		}
		if res.Vacuous {
			res.Vacuous, from = false, i
		}
		if !s.has(i) {
			res.Holds, from = false, i
			break
		}
	}
	explore.Conclude(e.sp.model, p, &res)
	if !e.opt.Traces || res.Vacuous {
		return res, nil
	}
	tr, err := explore.Explain[int, bitset](explicitGraph{e}, from, p.Formula, res.Holds, e.sp.model)
	if err != nil {
		return res, fmt.Errorf("property %s: %w", p.Name, err)
	}
	if err := explore.LiftTrace(e.ctx, e.sp.sys, tr); err != nil {
		return res, err
	}
	res.Trace = tr
	return res, nil
}

// sat2 returns the states satisfying a and those satisfying b, the
// operands of a binary operator.
func (e *engine) sat2(a, b ctl.Formula) (bitset, bitset, error) {
	l, err := e.sat(a)
	if err != nil {
		return nil, nil, err
	}
	r, err := e.sat(b)
	if err != nil {
		return nil, nil, err
	}
	return l, r, nil
}
