package prove

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Properties asked part by part.
//
// A property written as one AG over a conjunction of forms Check
// decides, such as ByMC's liveness properties merged into one,
//
//	AG ((#I = 0 -> AF #AC >= 1) & (#AC >= 1 -> AF #RD = 0))
//
// is of no form Check decides as a whole. But AG distributes over
// conjunction: on every (fair) path, both conjuncts hold at every state
// iff each does. So does a premise on the initial configurations, c ->
// (f & g) being (c -> f) & (c -> g), and so does the conjunction itself
// at the top of a formula. Such a property holds iff each of its parts
// AG fi (c -> AG fi under a premise c) holds, and Check asks the parts
// as properties of their own (splitProperties): a safety part with the
// other safety properties of its model (proveJoint, byOthers), a
// liveness part through checkLive, as if the spec stated them. fold
// then gives the property one Result again, with the parts' results in
// Parts and their verdicts combined: Refuted when some part is (that
// part's run is the evidence: it violates the part, so the whole),
// Proved when every part is, Unknown otherwise.
//
// A property is split only when Check would skip it whole and every
// part is a form Check decides: one with a part of no such form stays
// Skipped, as before.

// splitProperties returns sys with each property that Check decides
// part by part (partsOf) replaced by its parts, as properties of their
// own named "name (part j of k)", and, when some property is split,
// split[i] the number of parts of sys's property i (0 for one asked
// whole). split is nil, and asked sys itself, when no property is
// split.
func splitProperties(sys *gsst.System) (asked *gsst.System, split []int, err error) {
	taken := map[string]bool{}
	for _, p := range sys.Properties {
		taken[p.Name] = true
	}
	var props []gsst.Property
	split = make([]int, len(sys.Properties))
	some := false
	for i, p := range sys.Properties {
		parts, ok := partsOf(p.Formula)
		if !ok {
			props = append(props, p)
			continue
		}
		split[i], some = len(parts), true
		texts := writtenParts(p.Syntax, parts)
		for j, f := range parts {
			name := fmt.Sprintf("%s (part %d of %d)", p.Name, j+1, len(parts))
			for taken[name] {
				name += "'" // a spec that names a property so already
			}
			taken[name] = true
			text := ctl.FormatAtoms(f, sys.VarName, sys.TypedAtom)
			if texts != nil {
				text = texts[j]
			}
			props = append(props, gsst.Property{Name: name, Formula: f, Text: text, Pos: p.Pos})
		}
	}
	if !some {
		return sys, nil, nil
	}
	asked, err = sys.WithDerivedProperties(props)
	if err != nil {
		return nil, nil, errkind.Errorf(errkind.Internal, "the parts of the properties break the rules of properties: %w", err)
	}
	return asked, split, nil
}

// partsOf returns the parts of f when Check decides f part by part: f
// is of no form Check decides whole (decidedWhole), it is, after a
// premise c (counterabs.Premise), a conjunction of two or more parts
// (conjuncts: AG (f1 & f2) is AG f1 & AG f2), and each part, c -> part
// under the premise, is a form Check decides. ok is false otherwise.
func partsOf(f ctl.Formula) (parts []ctl.Formula, ok bool) {
	if f == nil || decidedWhole(f) {
		return nil, false
	}
	premise, g := counterabs.Premise(f)
	all := conjuncts(g, nil)
	if len(all) < 2 {
		return nil, false
	}
	for _, part := range all {
		if premise != presburger.True {
			part = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: premise}, R: part}
		}
		if !decidedWhole(part) {
			return nil, false
		}
		parts = append(parts, part)
	}
	return parts, true
}

// decidedWhole reports whether f is a form Check decides: a safety
// property (counterabs.PremisedSafety) or a liveness one (IsLiveness).
func decidedWhole(f ctl.Formula) bool {
	_, _, safety := counterabs.PremisedSafety(f)
	return safety || IsLiveness(f)
}

// conjuncts appends to out the conjuncts of g, in order: those of each
// side of a conjunction, AG a and AG b for AG (a & b), !a and !b for
// !(a | b), and a for !!a, each split again; g itself when it is none
// of these.
//
// The negated forms are De Morgan's: a translator who distributes EF
// over a union of bad states writes !EF (a | b) as !(EF a | EF b), which
// is !EF a & !EF b. (A disjunction of conditions is one atom already,
// so only a disjunction with a temporal operand reaches here.)
func conjuncts(g ctl.Formula, out []ctl.Formula) []ctl.Formula {
	switch g := g.(type) {
	case ctl.Binary:
		if g.Op == ctl.And {
			return conjuncts(g.R, conjuncts(g.L, out))
		}
	case ctl.Not:
		switch x := g.X.(type) {
		case ctl.Binary:
			if x.Op == ctl.Or {
				return conjuncts(ctl.Not{X: x.R}, conjuncts(ctl.Not{X: x.L}, out))
			}
		case ctl.Not:
			return conjuncts(x.X, out)
		}
	case ctl.Unary:
		if b, isAnd := g.X.(ctl.Binary); g.Op == ctl.AG && isAnd && b.Op == ctl.And {
			return conjuncts(ctl.Unary{Op: ctl.AG, X: b.R}, conjuncts(ctl.Unary{Op: ctl.AG, X: b.L}, out))
		}
	}
	return append(out, g)
}

// fold gives each property of sys that splitProperties split one Result
// again (combineParts), in rep's Results for the parts, and makes rep the
// report on sys.
func fold(rep *Report, sys *gsst.System, split []int) {
	asked := rep.Results
	rep.System, rep.Results = sys, make([]Result, 0, len(sys.Properties))
	for i := range sys.Properties {
		n := max(split[i], 1)
		if split[i] == 0 {
			rep.Results = append(rep.Results, asked[0])
		} else {
			rep.Results = append(rep.Results, combineParts(&sys.Properties[i], asked[:n]))
		}
		asked = asked[n:]
	}
}

// combineParts returns the Result of property p from those of its parts: see
// Result.Parts.
func combineParts(p *gsst.Property, parts []Result) Result {
	res := Result{Property: p, Parts: parts}
	refuted := -1
	var open []string
	for j, r := range parts {
		res.Duration += r.Duration
		switch r.Verdict {
		case Proved:
		case Refuted:
			if refuted < 0 {
				refuted = j
			}
		default:
			open = append(open, fmt.Sprintf("part %d is %s (%s)", j+1, r.Verdict, r.Reason))
			res.Stopped = res.Stopped || r.Stopped
			if res.Exhausted == "" {
				res.Exhausted = r.Exhausted
			}
		}
	}
	switch {
	case refuted >= 0:
		r := &parts[refuted]
		res.Verdict, res.Stopped, res.Exhausted = Refuted, false, ""
		res.Sizes, res.Params, res.Instance, res.Trace = r.Sizes, r.Params, r.Instance, r.Trace
		res.Level, res.LevelReason, res.Method = r.Level, r.LevelReason, r.Method
		res.Reason = fmt.Sprintf("part %d of %d is refuted, and the property with it", refuted+1, len(parts))
	case len(open) == 0:
		res.Verdict = Proved
		res.Reason = fmt.Sprintf("each of its %d parts is proved", len(parts))
	default:
		res.Verdict = Unknown
		res.Reason = fmt.Sprintf("%d of its %d parts undecided: %s", len(open), len(parts), strings.Join(open, "; "))
	}
	return res
}

// writtenParts returns the text of each of parts as the user wrote it
// (gsst.Written), read off x, the syntax of the property, the way
// partsOf reads its formula: the premises of a chain c1 -> c2 -> g, then
// the conjuncts of g (writtenConjuncts). It returns nil when x does not
// split into as many parts, each a condition under AG where the part's
// formula has one (a premise written d | g, or no syntax): the parts'
// texts are then printed from their formulas.
func writtenParts(x gsst.Expr, parts []ctl.Formula) []string {
	if x == nil {
		return nil
	}
	var premises []string
	for {
		b, ok := gsst.Unparen(x).(*gsst.BinaryExpr)
		if !ok || b.Op != gsst.IMPLIES || gsst.Temporal(b.X) || !gsst.Temporal(b.Y) {
			break
		}
		premises = append(premises, gsst.Written(b.X)+" -> ")
		x = b.Y
	}
	written := writtenConjuncts(x, false, nil)
	if len(written) != len(parts) {
		return nil
	}
	texts := make([]string, len(parts))
	for j, w := range written {
		premise, g := counterabs.Premise(parts[j])
		if len(premises) > 0 && premise == presburger.True {
			return nil
		}
		if w.ag {
			u, isAG := g.(ctl.Unary)
			if !isAG || u.Op != ctl.AG {
				return nil
			}
			if _, isState := u.X.(ctl.Atom); isState == gsst.Temporal(w.x) {
				return nil
			}
		}
		texts[j] = strings.Join(premises, "") + w.text()
	}
	return texts
}

// writtenPart is a part of a property's syntax: x, under AG when ag is
// set.
type writtenPart struct {
	x  gsst.Expr
	ag bool
}

// text prints the part as written, AG (x) for a conjunct of AG's
// operand, with parentheses around an operand that would otherwise read
// differently after AG.
func (w writtenPart) text() string {
	s := gsst.Written(w.x)
	if !w.ag {
		return s
	}
	if b, isBinary := w.x.(*gsst.BinaryExpr); isBinary && (b.Op == gsst.AND || b.Op == gsst.OR || b.Op == gsst.IMPLIES) {
		s = "(" + s + ")"
	}
	return "AG " + s
}

// writtenConjuncts appends to out the parts of x as conjuncts reads
// those of its formula: the checker keeps a conjunction with a temporal
// operand as a conjunction (a condition becomes one atom), so each side
// of such a conjunction, and AG a and AG b for AG (a & b) with a or b
// temporal; under is set for the operand of an AG being split.
func writtenConjuncts(x gsst.Expr, under bool, out []writtenPart) []writtenPart {
	u := gsst.Unparen(x)
	if b, isAnd := u.(*gsst.BinaryExpr); isAnd && b.Op == gsst.AND && gsst.Temporal(b) {
		return writtenConjuncts(b.Y, under, writtenConjuncts(b.X, under, out))
	}
	if !under {
		if ag, isAG := u.(*gsst.UnaryExpr); isAG && ag.Op == gsst.AG {
			if b, isAnd := gsst.Unparen(ag.X).(*gsst.BinaryExpr); isAnd && b.Op == gsst.AND && gsst.Temporal(b) {
				return writtenConjuncts(b, true, out)
			}
		}
	}
	return append(out, writtenPart{x: x, ag: under})
}
