package explore

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// This file builds traces for every engine. An engine offers its
// satisfaction sets (of the fair semantics) and explicit steps through
// TraceGraph; Explain turns a verdict into a Trace made of segments, each
// explaining one subformula, NuSMV-style: AG (p -> AF q) fails with a
// path to a state where p holds and AF q fails, then a fair lasso (or a
// path into a deadlock, which stutters) on which q never holds.

// TraceGraph is what an engine offers the trace builder. S is a state,
// Set a set of states. Every choice among states it makes is the
// canonical one (canonical.go), so that Explain builds the same trace on
// every engine. Sets come from Sat, which evaluates CTL with the
// model's fairness constraints (justice): path quantifiers range over fair
// paths, EG true is the set of states where a fair path starts.
type TraceGraph[S, Set any] interface {
	// Sat returns the states satisfying f.
	Sat(f ctl.Formula) (Set, error)
	Has(x Set, s S) bool
	And(a, b Set) Set
	// Single returns the set holding s alone.
	Single(s S) Set
	// Justice returns the number of the model's justice constraints.
	Justice() int
	// PreJustice returns the states with an edge meeting justice
	// constraint j into z; j = -1 stands for "any edge".
	PreJustice(j int, z Set) (Set, error)
	// JusticeStep returns the least successor (Compare) of s by an edge
	// meeting constraint j (-1: any edge) that lies in z.
	JusticeStep(s S, j int, z Set) (S, bool)
	// Path returns the canonical shortest path (canonical.go) from
	// `from` to a state of target whose states before the last lie in
	// through, or nil when there is none. It is [from] when from is in
	// target.
	Path(from S, through, target Set) ([]S, error)
	// Far returns the canonical path inside within from `from` to the
	// least state of the last breadth-first layer.
	Far(from S, within Set) ([]S, error)
	Same(a, b S) bool
	State(s S) State
}

// Limits of an explanation: how deep nested subformulas are explained and
// how many extra branches (sibling explanations, each a trace of its own
// from the initial state) are kept.
const (
	maxExplainDepth = 16
	maxBranches     = 4
)

var (
	trueF = ctl.Atom{P: presburger.True}
	// fairF holds exactly in the states where a fair path starts.
	fairF = ctl.Unary{Op: ctl.EG, X: trueF}
)

// Explain builds the trace explaining the verdict holds of f at init, or
// nil when the verdict needs none (an atom, or a universal claim such as
// a holding AG). The trace starts at init; its States are a path of the
// model, its Segments say which subformula each part explains. With
// justice constraints, a trace that would end in a finite path is
// continued by a fair lasso, so that every trace is (the start of) a fair
// run. The texts of subformulas are written over the variables of m, as
// the language writes them.
func Explain[S, Set any](g TraceGraph[S, Set], init S, f ctl.Formula, holds bool, m *counterabs.Model) (*Trace, error) {
	x := &explainer[S, Set]{g: g, m: m}
	root, err := x.node(init, f, holds, 0)
	if err != nil || root == nil {
		return nil, err
	}
	kind := Witness
	if !holds {
		kind = Counterexample
	}
	tr, err := x.flatten(kind, root, nil, nil)
	if err != nil {
		return nil, err
	}
	return tr, nil
}

type explainer[S, Set any] struct {
	g TraceGraph[S, Set]
	m *counterabs.Model
	// branches counts the extra traces made so far.
	branches int
}

// seg is one node of an explanation: a path (or lasso, loop >= 0) from
// the state it explains, and the explanations of the subformulas decided
// at its last state. A node with an empty path only joins its children,
// which all start where it does (a conjunction of two existential claims).
type seg[S any] struct {
	f        ctl.Formula
	holds    bool
	kind     SegmentKind
	target   ctl.Formula // the subformula decided at the last state (path, step) or along the lasso
	tholds   bool
	path     []S
	loop     int
	children []*seg[S]
}

func (x *explainer[S, Set]) sat(f ctl.Formula, holds bool) (Set, error) {
	if !holds {
		f = ctl.Not{X: f}
	}
	return x.g.Sat(f)
}

// fairSat returns the fair states where f has the given truth value.
func (x *explainer[S, Set]) fairSat(f ctl.Formula, holds bool) (Set, error) {
	s, err := x.sat(f, holds)
	if err != nil || x.g.Justice() == 0 {
		// Without justice every state is fair (a deadlock stutters), and
		// asking for EG true would cost a greatest fixpoint over the
		// whole counter space: on ASR n=80 r=2 that was 40 s of a 0.5 s
		// run.
		return s, err
	}
	fair, err := x.g.Sat(fairF)
	if err != nil {
		return s, err
	}
	return x.g.And(s, fair), nil
}

func (x *explainer[S, Set]) holdsAt(f ctl.Formula, s S) (bool, error) {
	set, err := x.g.Sat(f)
	if err != nil {
		return false, err
	}
	return x.g.Has(set, s), nil
}

func internalf(format string, args ...any) error {
	return errkind.Errorf(errkind.Internal, "explore: "+format, args...)
}

// node explains why f has truth value holds at state at.
func (x *explainer[S, Set]) node(at S, f ctl.Formula, holds bool, depth int) (*seg[S], error) {
	if depth > maxExplainDepth {
		return nil, nil
	}
	switch f := f.(type) {
	case ctl.Atom:
		return nil, nil
	case ctl.Not:
		return x.node(at, f.X, !holds, depth)
	case ctl.Binary:
		l, r := f.L, f.R
		op := f.Op
		lpol := true // the truth value of l that op's own reading uses
		if op == ctl.Implies {
			op, lpol = ctl.Or, false // l -> r is !l | r
		}
		// both: every operand has the truth value that makes (or breaks)
		// the whole; else the first operand that does.
		if (op == ctl.And) == holds {
			a, err := x.node(at, l, holds == lpol, depth+1)
			if err != nil {
				return nil, err
			}
			b, err := x.node(at, r, holds, depth+1)
			if err != nil {
				return nil, err
			}
			return join(f, holds, a, b), nil
		}
		lv, err := x.holdsAt(l, at)
		if err != nil {
			return nil, err
		}
		if (lv == lpol) == holds {
			return x.node(at, l, lv, depth+1)
		}
		return x.node(at, r, holds, depth+1)
	case ctl.Unary:
		if f.Op.Existential() != holds {
			return nil, nil // a universal claim: no single path shows it
		}
		// EX, EF, EG hold, or AX, AF, AG fail: X has truth value holds
		// at the states the path reaches.
		pol := holds
		s := &seg[S]{f: f, holds: holds, target: f.X, tholds: pol, loop: -1}
		switch f.Op {
		case ctl.EX, ctl.AX:
			into, err := x.fairSat(f.X, pol)
			if err != nil {
				return nil, err
			}
			next, ok := x.g.JusticeStep(at, -1, into)
			if !ok {
				return nil, internalf("no successor for a verdict on %s", x.text(f))
			}
			s.kind, s.path = StepSegment, []S{at, next}
		case ctl.EF, ctl.AG:
			p, err := x.path(at, trueF, f.X, pol, f)
			if err != nil {
				return nil, err
			}
			s.kind, s.path = PathSegment, p
		default: // EG, AF
			var psi ctl.Formula = f.X
			if !pol {
				psi = ctl.Not{X: f.X}
			}
			p, loop, err := x.lassoIn(at, psi)
			if err != nil {
				return nil, err
			}
			s.kind, s.path, s.loop = LassoSegment, p, loop
			return s, nil
		}
		child, err := x.node(s.path[len(s.path)-1], f.X, pol, depth+1)
		if err != nil {
			return nil, err
		}
		s.addChild(child)
		return s, nil
	case ctl.Until:
		if f.All == holds {
			return nil, nil
		}
		s := &seg[S]{f: f, holds: holds, loop: -1}
		if holds {
			// E[L U R]: a path through L to a fair state of R.
			p, err := x.path(at, f.L, f.R, true, f)
			if err != nil {
				return nil, err
			}
			s.kind, s.path, s.target, s.tholds = PathSegment, p, f.R, true
			child, err := x.node(p[len(p)-1], f.R, true, depth+1)
			if err != nil {
				return nil, err
			}
			s.addChild(child)
			return s, nil
		}
		// A[L U R] fails: a path through !R to a fair state with neither,
		// or a fair lasso of !R.
		nr := ctl.Not{X: f.R}
		viaBad, err := x.holdsAt(ctl.Until{L: nr, R: ctl.Binary{Op: ctl.And, L: ctl.Not{X: f.L}, R: nr}}, at)
		if err != nil {
			return nil, err
		}
		if !viaBad {
			p, loop, err := x.lassoIn(at, nr)
			if err != nil {
				return nil, err
			}
			s.kind, s.path, s.loop, s.target, s.tholds = LassoSegment, p, loop, f.R, false
			return s, nil
		}
		bad := ctl.Binary{Op: ctl.Or, L: f.L, R: f.R}
		p, err := x.path(at, nr, bad, false, f)
		if err != nil {
			return nil, err
		}
		s.kind, s.path, s.target, s.tholds = PathSegment, p, bad, false
		last := p[len(p)-1]
		a, err := x.node(last, f.L, false, depth+1)
		if err != nil {
			return nil, err
		}
		b, err := x.node(last, f.R, false, depth+1)
		if err != nil {
			return nil, err
		}
		s.addChild(join(bad, false, a, b))
		return s, nil
	}
	return nil, internalf("unknown CTL formula %T", f)
}

// path returns a shortest path from at through states satisfying through
// to a fair state where target has truth value tholds, the evidence for
// a verdict on f.
func (x *explainer[S, Set]) path(at S, through, target ctl.Formula, tholds bool, f ctl.Formula) ([]S, error) {
	thr, err := x.g.Sat(through)
	if err != nil {
		return nil, err
	}
	tgt, err := x.fairSat(target, tholds)
	if err != nil {
		return nil, err
	}
	p, err := x.g.Path(at, thr, tgt)
	if err == nil && p == nil {
		err = internalf("no path for a verdict on %s", x.text(f))
	}
	return p, err
}

// lassoIn returns a fair lasso from at on which psi holds forever.
func (x *explainer[S, Set]) lassoIn(at S, psi ctl.Formula) ([]S, int, error) {
	within, err := x.g.Sat(ctl.Unary{Op: ctl.EG, X: psi})
	if err != nil {
		return nil, -1, err
	}
	return x.lasso(at, within)
}

// join returns the explanation of a formula by two sub-explanations
// starting at the same state: nil, one of them, or a node joining both.
func join[S any](f ctl.Formula, holds bool, a, b *seg[S]) *seg[S] {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &seg[S]{f: f, holds: holds, loop: -1, children: []*seg[S]{a, b}}
}

func (s *seg[S]) addChild(c *seg[S]) {
	if c == nil {
		return
	}
	if len(c.path) == 0 {
		s.children = append(s.children, c.children...)
		return
	}
	s.children = append(s.children, c)
}

func (x *explainer[S, Set]) text(f ctl.Formula) string {
	return x.m.FormatProperty(f)
}

// flatten turns the explanation rooted at s into a trace whose states
// continue prefix (a path ending where s starts, nil at the root) and
// whose segments continue segs. The first child of each node continues
// the trace; the other children become branches, traces of their own with
// the same beginning.
func (x *explainer[S, Set]) flatten(kind TraceKind, s *seg[S], prefix []S, segs []Segment) (*Trace, error) {
	states := append([]S(nil), prefix...)
	segs = append([]Segment(nil), segs...)
	tr := &Trace{Kind: kind, Loop: -1}
	for s != nil {
		if len(s.path) > 0 {
			start := 0
			if len(states) > 0 {
				if !x.g.Same(states[len(states)-1], s.path[0]) {
					return nil, internalf("trace segments do not connect")
				}
				start = len(states) - 1
				states = append(states, s.path[1:]...)
			} else {
				states = append(states, s.path...)
			}
			sg := Segment{Formula: x.text(s.f), Holds: s.holds, Kind: s.kind, Start: start, End: len(states) - 1}
			if s.target != nil {
				sg.Target, sg.TargetHolds = x.text(s.target), s.tholds
			}
			segs = append(segs, sg)
			if s.loop >= 0 {
				tr.Loop = start + s.loop
				break
			}
		}
		if len(s.children) == 0 {
			break
		}
		for _, c := range s.children[1:] {
			if x.branches >= maxBranches {
				break
			}
			x.branches++
			b, err := x.flatten(kind, c, states, segs)
			if err != nil {
				return nil, err
			}
			tr.Branches = append(tr.Branches, b)
		}
		s = s.children[0]
	}
	if tr.Loop < 0 && x.g.Justice() > 0 && len(states) > 0 {
		// Show that the run can go on fairly: every state a segment ends
		// in is fair, so a fair lasso starts there.
		last := states[len(states)-1]
		fair, err := x.g.Sat(fairF)
		if err != nil {
			return nil, err
		}
		p, loop, err := x.lasso(last, fair)
		if err != nil {
			return nil, err
		}
		start := len(states) - 1
		states = append(states, p[1:]...)
		tr.Loop = start + loop
		segs = append(segs, Segment{Kind: FairContinuation, Start: start, End: len(states) - 1})
	}
	for _, s := range states {
		tr.States = append(tr.States, x.g.State(s))
	}
	tr.Segments = segs
	return tr, nil
}

// maxLassoRounds bounds the rounds of lasso; each round moves to a state
// whose future is strictly smaller, so it ends long before on any model an
// engine can hold.
const maxLassoRounds = 1 << 20

// lasso returns a lasso from at that stays in z and whose cycle takes an
// edge meeting every justice constraint (any edge when there is none),
// with the index the last state loops back to. z must contain at and be
// a set in which every state starts a fair path inside z (an EG set of
// the fair semantics).
//
// From a start t it visits an edge of each constraint in turn, by
// shortest paths inside z, and then looks for a path back to t. When
// there is none, t lies on no fair cycle: it moves on to a farthest state
// of the end's future, whose own future is strictly smaller, and tries
// again there. A deadlock's stutter is the one-state cycle it meets.
func (x *explainer[S, Set]) lasso(at S, z Set) ([]S, int, error) {
	g := x.g
	if !g.Has(z, at) {
		return nil, -1, internalf("lasso from a state outside its set")
	}
	cons := []int{-1}
	if k := g.Justice(); k > 0 {
		cons = cons[:0]
		for j := 0; j < k; j++ {
			cons = append(cons, j)
		}
	}
	targets := make([]Set, len(cons))
	for i, j := range cons {
		pre, err := g.PreJustice(j, z)
		if err != nil {
			return nil, -1, err
		}
		targets[i] = g.And(z, pre)
	}
	var prefix []S
	t := at
	for round := 0; round < maxLassoRounds; round++ {
		walk := []S{t}
		cur := t
		for i, j := range cons {
			p, err := g.Path(cur, z, targets[i])
			if err != nil {
				return nil, -1, err
			}
			if p == nil {
				return nil, -1, internalf("no edge of justice constraint %d reachable inside an EG set", j)
			}
			walk = append(walk, p[1:]...)
			cur = p[len(p)-1]
			next, ok := g.JusticeStep(cur, j, z)
			if !ok {
				return nil, -1, internalf("no edge of justice constraint %d where one was found", j)
			}
			walk = append(walk, next)
			cur = next
		}
		back, err := g.Path(cur, z, g.Single(t))
		if err != nil {
			return nil, -1, err
		}
		if back != nil {
			// walk ends in cur, back runs from cur to t: the cycle is
			// walk + back without the final t.
			cycle := append(walk, back[1:]...)
			cycle = cycle[:len(cycle)-1]
			return append(prefix, cycle...), len(prefix), nil
		}
		far, err := g.Far(cur, z)
		if err != nil {
			return nil, -1, err
		}
		prefix = append(prefix, walk[:len(walk)-1]...)
		prefix = append(prefix, far[:len(far)-1]...)
		t = far[len(far)-1]
	}
	return nil, -1, internalf("no fair cycle found in %d rounds", maxLassoRounds)
}
