package testsupport

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
)

// dualize rewrites !Op X, for a temporal operator Op, as Op' !X with Op'
// the dual of Op: the form whose verdict the engines explain with a
// trace.
func dualize(f ctl.Formula) ctl.Formula {
	if n, ok := f.(ctl.Not); ok {
		if u, ok := n.X.(ctl.Unary); ok {
			return ctl.Unary{Op: u.Op.Dual(), X: ctl.Not{X: u.X}}
		}
	}
	return f
}

// Promised reports whether an engine owes a trace for verdict holds of
// f: a witness for a true EX, EF, EG or E[U], a counterexample for a
// false AX, AF, AG or A[U], and the same for a negated temporal operator
// read as its dual. Other formulas get no trace.
func Promised(f ctl.Formula, holds bool) bool {
	switch f := dualize(f).(type) {
	case ctl.Unary:
		return holds == f.Op.Existential()
	case ctl.Until:
		return holds != f.All
	}
	return false
}

// CheckTrace checks that a trace demonstrates verdict holds of f on g:
// path lists states of g from the initial state, each a successor of the
// one before; loop is the index the last state returns to (-1 for a
// finite path). It checks what the trace must show: the one successor of
// EX and AX; a shortest path to a state in (EF) or out of (AG) the
// argument; a lasso inside the argument of EG, or outside that of AF; for
// E[l U r] a shortest path through l into r; for a false A[l U r] a
// shortest path through !r into !l & !r, or a lasso inside !r.
func CheckTrace(g *Graph, f ctl.Formula, holds bool, path []int, loop int) error {
	if len(path) == 0 {
		return fmt.Errorf("empty trace")
	}
	if path[0] != g.Init {
		return fmt.Errorf("trace starts in %s, not in the initial state %s", g.Keys[path[0]], g.Keys[g.Init])
	}
	for i := 0; i+1 < len(path); i++ {
		if !g.Edge(path[i], path[i+1]) {
			return fmt.Errorf("step %d: %s -> %s is not a transition", i+1, g.Keys[path[i]], g.Keys[path[i+1]])
		}
	}
	last := len(path) - 1
	if loop >= len(path) || loop >= 0 && !g.Edge(path[last], path[loop]) {
		return fmt.Errorf("loop to state %d does not close", loop)
	}
	all := func(set []bool, from, to int) bool {
		for _, i := range path[from:to] {
			if !set[i] {
				return false
			}
		}
		return true
	}
	not := func(s []bool) []bool {
		out := make([]bool, len(s))
		for i := range s {
			out[i] = !s[i]
		}
		return out
	}
	shortest := func(what string, through, target []bool) error {
		if loop >= 0 || !target[path[last]] {
			return fmt.Errorf("%s: not a finite path ending in a target state", what)
		}
		if d := g.Shortest(through, target); d != last {
			return fmt.Errorf("%s: path of length %d, the shortest has %d", what, last, d)
		}
		return nil
	}
	switch f := dualize(f).(type) {
	case ctl.Unary:
		x := Sat(g, f.X)
		want := x
		if !holds {
			want = not(x)
		}
		switch f.Op {
		case ctl.EX, ctl.AX:
			if len(path) != 2 || loop >= 0 || !want[path[1]] {
				return fmt.Errorf("%v: not one step into the right states", f.Op)
			}
		case ctl.EF, ctl.AG:
			return shortest(f.Op.String(), nil, want)
		case ctl.EG, ctl.AF:
			if loop < 0 || !all(want, 0, len(path)) {
				return fmt.Errorf("%v: not a lasso inside the right states", f.Op)
			}
		}
	case ctl.Until:
		l, r := Sat(g, f.L), Sat(g, f.R)
		switch {
		case holds:
			if !all(l, 0, last) {
				return fmt.Errorf("E[U]: a state before the last is outside l")
			}
			return shortest("E[U]", l, r)
		case loop < 0:
			bad := make([]bool, len(l))
			for i := range bad {
				bad[i] = !l[i] && !r[i]
			}
			if !all(not(r), 0, last) {
				return fmt.Errorf("A[U]: the counterexample visits r")
			}
			return shortest("A[U]", not(r), bad)
		default:
			if !all(not(r), 0, len(path)) {
				return fmt.Errorf("A[U]: the lasso visits r")
			}
		}
	default:
		return fmt.Errorf("a trace for %T, which has none", f)
	}
	return nil
}

// CheckEngineTrace checks the trace an engine gave with verdict holds of
// f: keys names its states in g (nil for no trace) and loop is the index
// the last returns to, or -1. The trace must be present exactly when one
// is Promised, and show the verdict (CheckTrace).
func CheckEngineTrace(g *Graph, f ctl.Formula, holds bool, keys []string, loop int) error {
	if !Promised(f, holds) {
		if keys != nil {
			return fmt.Errorf("a trace where none is promised")
		}
		return nil
	}
	if len(keys) == 0 {
		return fmt.Errorf("no trace")
	}
	path := make([]int, len(keys))
	for i, k := range keys {
		j, ok := g.Index[k]
		if !ok {
			return fmt.Errorf("trace state %d %s is not reachable", i, k)
		}
		path[i] = j
	}
	return CheckTrace(g, f, holds, path, loop)
}
