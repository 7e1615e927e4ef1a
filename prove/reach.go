package prove

import (
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// Reachability properties: EF c, also written !AG !c.
//
// EF c holds at an instance when from each of its initial configurations
// some run reaches c, and for every size when it holds at every instance
// of the family. Its negation is the safety property AG !c (!EF c), which
// Check decides, and reachProperties asks that instead:
//
//   - AG !c proved: no instance reaches c, so EF c fails at every size,
//     the invariant being the evidence;
//   - AG !c refuted on a family of one instance with one initial
//     configuration: the run into c, replayed on the instance, is the
//     witness that EF c holds (there is no other instance, and no other
//     configuration to start from);
//   - AG !c refuted otherwise: c is reached at that instance, from one
//     initial configuration, which says nothing of the others; EF c is
//     unknown, and the result names the instance (Sizes, Params).
//
// Under fairness constraints the path quantifier of EF ranges over fair
// paths, which AG !c does not read: such properties stay Skipped.

// reachProperties returns sys with each property EF c (or !AG phi,
// which is EF !phi) asked as !EF c, under the same name, and reach[i]
// true for each such property i; reach is nil, and asked sys itself,
// when there is none.
func reachProperties(sys *gsst.System) (asked *gsst.System, reach []bool, err error) {
	if !sys.Fairness.Empty() {
		return sys, nil, nil
	}
	props := make([]gsst.Property, len(sys.Properties))
	reach = make([]bool, len(sys.Properties))
	some := false
	for i, p := range sys.Properties {
		props[i] = p
		if c, ok := reachFormula(p.Formula); ok {
			props[i].Formula = ctl.Not{X: ctl.Unary{Op: ctl.EF, X: c}}
			reach[i], some = true, true
		}
	}
	if !some {
		return sys, nil, nil
	}
	asked, err = sys.WithDerivedProperties(props)
	if err != nil {
		return nil, nil, errkind.Errorf(errkind.Internal, "a reachability property asked as safety breaks the rules of properties: %w", err)
	}
	return asked, reach, nil
}

// IsReachability reports whether Check reads f as a reachability
// property (EF c or !AG phi, c and phi conditions on one state) on a
// system without fairness constraints.
func IsReachability(f ctl.Formula) bool {
	_, ok := reachFormula(f)
	return ok
}

// askApart has Check ask the negations of the reachability properties
// of sys (reach) alone (config.apart).
func askApart(sys *gsst.System, reach []bool) Option {
	return func(c *config) {
		c.apart = map[string]bool{}
		for i, r := range reach {
			if r {
				c.apart[sys.Properties[i].Name] = true
			}
		}
	}
}

// reachFormula returns c when f is EF c or !AG !c with c a condition on
// one state.
func reachFormula(f ctl.Formula) (ctl.Formula, bool) {
	var c ctl.Formula
	switch f := f.(type) {
	case ctl.Unary:
		if f.Op == ctl.EF {
			c = f.X
		}
	case ctl.Not:
		if g, ok := f.X.(ctl.Unary); ok && g.Op == ctl.AG {
			c = ctl.Not{X: g.X}
		}
	}
	if c == nil {
		return nil, false
	}
	if _, ok := counterabs.StateFormula(c); !ok {
		return nil, false
	}
	return c, true
}

// foldReach gives each reachability property of sys (reach) the
// verdict its safety question's result implies, as the comment at the
// top of this file says, and the Results sys's properties.
func foldReach(rep *Report, sys *gsst.System, reach []bool) {
	one := oneConfiguration(sys)
	rep.System = sys
	for i := range rep.Results {
		r := &rep.Results[i]
		r.Property = &sys.Properties[i]
		if !reach[i] {
			continue
		}
		c, _ := reachFormula(sys.Properties[i].Formula)
		switch r.Verdict {
		case Proved:
			r.Verdict, r.Sizes, r.Params = Refuted, nil, nil
			r.Reason = "no instance reaches the condition from its initial configurations (the inductive invariant excludes it), so it is reached at no size"
		case Refuted:
			if one {
				r.Verdict, r.Sizes, r.Params = Proved, nil, nil
				r.Trace = reachWitness(r.Trace, sys.Properties[i].Text, ctl.FormatAtoms(c, sys.VarName, sys.TypedAtom))
				r.Reason = "the run below reaches the condition from the one initial configuration of the family's one instance"
				break
			}
			// The run decides nothing: the sizes say where it is, and
			// explore shows it there.
			at := sys.FormatSizes(r.Sizes)
			if len(r.Params) > 0 {
				at = formatParams(sys, r.Params) + " (" + at + ")"
			}
			r.Verdict, r.Trace, r.Instance, r.Invariant, r.InvariantText = Unknown, nil, nil, nil, ""
			r.Reason = "a run reaches the condition at " + at + " from one initial configuration, which decides nothing of the other instances and configurations (prove decides EF for every size when no instance reaches its condition, or on a family of one instance with one initial configuration)"
		}
	}
}

// reachWitness returns tr, the run that refutes AG !c, as the witness
// of EF c (text, c written cText): the same states and steps, with the
// segments saying that the property holds by a path into c.
func reachWitness(tr *explore.Trace, text, cText string) *explore.Trace {
	if tr == nil {
		return nil
	}
	w := *tr
	w.Kind = explore.Witness
	w.Segments = slices.Clone(tr.Segments)
	for k := range w.Segments {
		sg := &w.Segments[k]
		sg.Formula, sg.Holds, sg.Target, sg.TargetHolds = text, true, cText, true
	}
	return &w
}

// oneConfiguration says whether sys has one instance (no parameter
// with several values, every group of a fixed size) with one initial
// configuration.
func oneConfiguration(sys *gsst.System) bool {
	for k := range sys.Params {
		if !sys.Params[k].Fixed {
			return false
		}
	}
	for g := range sys.Groups {
		if sys.Groups[g].Ranged || sys.Groups[g].OverParams() {
			return false
		}
	}
	return sys.SingleInitial()
}
