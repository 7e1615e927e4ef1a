package symbolic

import (
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// fairOracle is fair CTL on the explicit graph of a model with labelled
// edges, written from the definitions (docs/explore.md, Fairness) with
// nothing of the engines: states and steps from Model.Step and
// presburger.Eval, a justice constraint as a set of edges, fair paths
// taking an edge of each infinitely often, EG by Emerson-Lei, EX and
// E[U] ending in fair states, the universal operators by duality.
type fairOracle struct {
	m     *counterabs.Model
	vecs  [][]int
	index map[string]int
	succ  [][]fedge
	fair  []bool
}

// fedge is an edge: its target and the transition it takes (-1 for the
// stutter step of a deadlock).
type fedge struct{ to, trans int }

func newFairOracle(m *counterabs.Model) *fairOracle {
	o := &fairOracle{m: m, index: map[string]int{}}
	push := func(x []int) int {
		k := testsupport.TotalKey(x)
		if i, ok := o.index[k]; ok {
			return i
		}
		o.index[k] = len(o.vecs)
		o.vecs = append(o.vecs, x)
		o.succ = append(o.succ, nil)
		return len(o.vecs) - 1
	}
	push(slices.Clone(m.Init))
	for i := 0; i < len(o.vecs); i++ {
		x := o.vecs[i]
		for k := range m.Transitions {
			if o.enabled(i, k) {
				j := push(m.Step(&m.Transitions[k], x))
				o.succ[i] = append(o.succ[i], fedge{j, k})
			}
		}
		if len(o.succ[i]) == 0 || m.MayDeadlock != nil && presburger.Eval(m.MayDeadlock, o.val(i)) {
			o.succ[i] = append(o.succ[i], fedge{i, -1})
		}
	}
	all := make([]bool, len(o.vecs))
	for i := range all {
		all[i] = true
	}
	o.fair = o.egFair(all)
	return o
}

func (o *fairOracle) val(i int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 { return int64(o.vecs[i][v]) }
}

func (o *fairOracle) enabled(i, k int) bool {
	return presburger.Eval(o.m.Transitions[k].Guard, o.val(i))
}

// meets reports whether edge e out of state i is in constraint j.
func (o *fairOracle) meets(j, i int, e fedge) bool {
	c := &o.m.Justice[j]
	if !c.Weak {
		return presburger.Eval(c.State, o.val(i))
	}
	if e.trans < 0 || slices.Contains(c.Transitions, e.trans) {
		return true
	}
	for _, k := range c.Transitions {
		if o.enabled(i, k) {
			return false
		}
	}
	return true
}

// eu is plain E[p U q]: the least set containing q and the states of p
// with an edge into it.
func (o *fairOracle) eu(p, q []bool) []bool {
	z := slices.Clone(q)
	for changed := true; changed; {
		changed = false
		for i := range z {
			if z[i] || !p[i] {
				continue
			}
			for _, e := range o.succ[i] {
				if z[e.to] {
					z[i], changed = true, true
					break
				}
			}
		}
	}
	return z
}

// egFair is EG p over fair paths: the greatest set Z within p from
// which, for each constraint, a path inside p reaches an edge of the
// constraint into Z (with no constraint, an edge into Z).
func (o *fairOracle) egFair(p []bool) []bool {
	z := slices.Clone(p)
	for {
		next := slices.Clone(z)
		cons := len(o.m.Justice)
		for j := range max(cons, 1) {
			into := make([]bool, len(z))
			for i := range z {
				if !z[i] {
					continue
				}
				for _, e := range o.succ[i] {
					if z[e.to] && (cons == 0 || o.meets(j, i, e)) {
						into[i] = true
						break
					}
				}
			}
			y := o.eu(p, into)
			for i := range next {
				next[i] = next[i] && y[i]
			}
		}
		if slices.Equal(next, z) {
			return z
		}
		z = next
	}
}

func (o *fairOracle) sat(f ctl.Formula) []bool {
	n := len(o.vecs)
	out := make([]bool, n)
	not := func(a []bool) []bool {
		r := make([]bool, n)
		for i := range a {
			r[i] = !a[i]
		}
		return r
	}
	and := func(a, b []bool) []bool {
		r := make([]bool, n)
		for i := range a {
			r[i] = a[i] && b[i]
		}
		return r
	}
	ex := func(a []bool) []bool {
		r := make([]bool, n)
		for i := range r {
			for _, e := range o.succ[i] {
				if a[e.to] && o.fair[e.to] {
					r[i] = true
				}
			}
		}
		return r
	}
	eu := func(a, b []bool) []bool { return o.eu(a, and(b, o.fair)) }
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	switch f := f.(type) {
	case ctl.Atom:
		for i := range out {
			out[i] = presburger.Eval(f.P, o.val(i))
		}
		return out
	case ctl.Not:
		return not(o.sat(f.X))
	case ctl.Binary:
		l, r := o.sat(f.L), o.sat(f.R)
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
		return out
	case ctl.Unary:
		x := o.sat(f.X)
		switch f.Op {
		case ctl.EX:
			return ex(x)
		case ctl.AX:
			return not(ex(not(x)))
		case ctl.EF:
			return eu(all, x)
		case ctl.AG:
			return not(eu(all, not(x)))
		case ctl.EG:
			return o.egFair(x)
		default: // AF
			return not(o.egFair(not(x)))
		}
	case ctl.Until:
		l, r := o.sat(f.L), o.sat(f.R)
		if !f.All {
			return eu(l, r)
		}
		// A[l U r] = !(E[!r U (!l & !r)] | EG !r)
		bad := eu(not(r), and(not(l), not(r)))
		eg := o.egFair(not(r))
		for i := range out {
			out[i] = !bad[i] && !eg[i]
		}
		return out
	}
	panic("unknown formula")
}

// holds decides f at the initial state as the engines do: vacuously
// when no fair path starts there.
func (o *fairOracle) holds(f ctl.Formula) bool { return !o.fair[0] || o.sat(f)[0] }
