package testsupport

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
)

// Promised reports whether an engine owes a trace for verdict holds of
// f: an existential claim at the top, after negations (a witness for a
// true EX, EF, EG or E[U], a counterexample for a false AX, AF, AG or
// A[U]), which one path shows. Other verdicts may come with a trace
// (the engines explain nested formulas) but need not.
func Promised(f ctl.Formula, holds bool) bool {
	switch f := f.(type) {
	case ctl.Not:
		return Promised(f.X, !holds)
	case ctl.Unary:
		return holds == f.Op.Existential()
	case ctl.Until:
		return holds != f.All
	}
	return false
}

// Subformulas maps the text of every subformula of the model's formula
// mf (printed with text) to the matching subformula of the formula sf
// that a Graph evaluates (the same tree, with atoms over the graph's
// variables), with the formulas a trace segment can name besides: L | R
// for A[L U R]. For a graph of the model itself, sf is mf.
func Subformulas(sf, mf ctl.Formula, text func(ctl.Formula) string) map[string]ctl.Formula {
	out := map[string]ctl.Formula{}
	var walk func(s, m ctl.Formula)
	walk = func(s, m ctl.Formula) {
		out[text(m)] = s
		switch s := s.(type) {
		case ctl.Not:
			walk(s.X, m.(ctl.Not).X)
		case ctl.Binary:
			walk(s.L, m.(ctl.Binary).L)
			walk(s.R, m.(ctl.Binary).R)
		case ctl.Unary:
			walk(s.X, m.(ctl.Unary).X)
		case ctl.Until:
			mu := m.(ctl.Until)
			walk(s.L, mu.L)
			walk(s.R, mu.R)
			out[text(ctl.Binary{Op: ctl.Or, L: mu.L, R: mu.R})] = ctl.Binary{Op: ctl.Or, L: s.L, R: s.R}
		}
	}
	walk(sf, mf)
	return out
}

// Segment is one part of an engine's explanation of a trace, as
// explore.Segment describes it (restated here, since testsupport imports
// no engine): Formula has truth value Holds at state Start, and the
// states from Start to End show it: one step (Kind "step") or a path
// ("path") into a state where Target has truth value TargetHolds, or a
// lasso ("lasso") along which Target has it throughout.
type Segment struct {
	Kind            string
	Start, End      int
	Formula, Target string
	Holds           bool
	TargetHolds     bool
}

// Trace is an engine's trace in the terms of a Graph: Keys names its
// states, Loop is the index the last state returns to (-1 for a finite
// path), Segments explain it and Branches are the further traces of a
// nested formula. Kind is explore.TraceKind's text ("counterexample",
// "witness", "deadlock"). Totals[i] and Groups[i] are the total and
// (group-counter models only, else nil) group counters of state i,
// Shared[i] its shared values, and Lifted is the same run on the
// unreduced system, which Replay checks.
type Trace struct {
	Keys     []string
	Loop     int
	Segments []Segment
	Branches []*Trace
	Kind     string
	Totals   [][]int
	Groups   [][][]int
	Shared   [][]int // the shared values of state i; nil without shared variables
	Lifted   *Lifted
}

// Shortest says which path segments CheckEngineTrace requires to be
// shortest.
type Shortest int

const (
	// FromInit: a path segment that starts at the initial state and does
	// not explain an until (the breadth-first searches of both engines).
	FromInit Shortest = iota
	// FromStart: every path segment, from the state where it starts
	// (the explicit engine's breadth-first searches at every level).
	FromStart
)

// CheckEngineTrace checks the trace an engine gave with verdict holds of
// f on g, whose segments name subformulas as subs (Subformulas) says: a
// trace must be present when one is Promised; it is a path of g from the
// initial state (closed by its loop); its segments connect and cover it;
// every segment's formula has the claimed truth value where it starts
// and its target where it ends (all along a lasso); path segments go
// through the left side of an E[U] (through !R for a failing A[U]) and
// are shortest as shortest says; each branch passes the same checks.
func CheckEngineTrace(g *Graph, f ctl.Formula, holds bool, tr *Trace, subs map[string]ctl.Formula, shortest Shortest) error {
	if tr == nil {
		if Promised(f, holds) {
			return fmt.Errorf("no trace")
		}
		return nil
	}
	return checkTrace(g, tr, subs, shortest)
}

func checkTrace(g *Graph, tr *Trace, subs map[string]ctl.Formula, shortest Shortest) error {
	if len(tr.Keys) == 0 || len(tr.Segments) == 0 {
		return fmt.Errorf("empty trace or no segments")
	}
	path := make([]int, len(tr.Keys))
	for i, k := range tr.Keys {
		j, ok := g.Index[k]
		if !ok {
			return fmt.Errorf("trace state %d %s is not reachable", i, k)
		}
		path[i] = j
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
	if tr.Loop >= len(path) || tr.Loop >= 0 && !g.Edge(path[last], path[tr.Loop]) {
		return fmt.Errorf("loop to state %d does not close", tr.Loop)
	}
	sat := func(text string, holds bool) ([]bool, error) {
		f, ok := subs[text]
		if !ok {
			return nil, fmt.Errorf("a segment names %q, not a subformula", text)
		}
		x := Sat(g, f)
		if !holds {
			x = not(x)
		}
		return x, nil
	}
	segs := tr.Segments
	if segs[0].Start != 0 || segs[len(segs)-1].End != last {
		return fmt.Errorf("segments %+v do not cover %d states", segs, len(path))
	}
	for k, sg := range segs {
		if k > 0 && sg.Start != segs[k-1].End || sg.End < sg.Start || sg.End > last {
			return fmt.Errorf("segment %d (%+v) does not connect", k, sg)
		}
		start, err := sat(sg.Formula, sg.Holds)
		if err != nil {
			return err
		}
		if !start[path[sg.Start]] {
			return fmt.Errorf("segment %d: %s is not %v where it starts", k, sg.Formula, sg.Holds)
		}
		want, err := sat(sg.Target, sg.TargetHolds)
		if err != nil {
			return err
		}
		switch sg.Kind {
		case "step", "path":
			if !want[path[sg.End]] {
				return fmt.Errorf("segment %d does not end where %s is %v", k, sg.Target, sg.TargetHolds)
			}
			if sg.Kind == "step" && sg.End != sg.Start+1 {
				return fmt.Errorf("step segment %d has %d steps", k, sg.End-sg.Start)
			}
			var through []bool
			u, until := subs[sg.Formula].(ctl.Until)
			if until {
				through = Sat(g, u.L)
				if u.All {
					through = not(Sat(g, u.R))
				}
				for _, i := range path[sg.Start:sg.End] {
					if !through[i] {
						return fmt.Errorf("segment %d leaves the states it must go through", k)
					}
				}
			}
			if sg.Kind != "path" || shortest == FromInit && (sg.Start != 0 || until) {
				break
			}
			if d := g.ShortestFrom(path[sg.Start], through, want); d != sg.End-sg.Start {
				return fmt.Errorf("segment %d is a path of length %d, the shortest has %d", k, sg.End-sg.Start, d)
			}
		case "lasso":
			if tr.Loop < sg.Start || sg.End != last {
				return fmt.Errorf("lasso segment %d is not the end of a lasso", k)
			}
			for _, i := range path[sg.Start:] {
				if !want[i] {
					return fmt.Errorf("lasso segment %d leaves the states where %s is %v", k, sg.Target, sg.TargetHolds)
				}
			}
		default:
			return fmt.Errorf("segment %d: unexpected kind %q without fairness", k, sg.Kind)
		}
	}
	for i, b := range tr.Branches {
		if err := checkTrace(g, b, subs, shortest); err != nil {
			return fmt.Errorf("branch %d: %v", i, err)
		}
	}
	return nil
}

func not(s []bool) []bool {
	out := make([]bool, len(s))
	for i := range s {
		out[i] = !s[i]
	}
	return out
}
