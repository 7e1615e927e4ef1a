package bymc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
)

// This file translates the specifications. ByMC reads a specification
// as an LTL formula over all paths, whose premise carries what the
// property assumes:
//
//	premise -> conclusion
//
// where the premise is a conjunction of conditions on the parameters and
// on the initial configuration (F == 0, loc1 == 0), of fairness
// conditions <>[] c (from some point on, c holds forever: every rule
// enabled forever is taken, every message sent is received) and of path
// conditions [] c. vsym makes it a CTL property at the initial
// configuration:
//
//	conditions -> conclusion in CTL
//
// with the conclusion translated where LTL and CTL agree: [] becomes AG
// of what follows, <> c becomes AF c for a condition c, and &, | and ->
// keep their meaning when one side of | and the left of -> are
// conditions. So "[](p -> <> q)" is AG (p -> AF q) and "<> p" is AF p,
// the forms vsym prove decides. The fairness conditions become the
// file's justice conditions: a run of a threshold automaton settles (its
// rules form no cycle but self-loops, so each process moves finitely
// often), and on a run that settles "from some point on, c forever" and
// "c infinitely often" are the same. The GSST has one fairness for all
// its properties, so the properties must share their fairness premises.

// property is a translated specification.
type property struct {
	spec    *Spec
	justice []cond
	jpos    []gsst.Pos
	live    bool // the conclusion has AF
}

func (t *translator) specs() {
	s := t.spec
	var props []*property
	for _, sp := range t.f.Specs {
		p, f, text, ok := t.specification(sp)
		if !ok {
			continue
		}
		props = append(props, p)
		s.Properties = append(s.Properties, gsst.Property{Name: sp.Name.Name, Formula: f, Text: text, Pos: sp.Name.Pos})
		note := []string{}
		for _, c := range sp.Doc {
			if text := strings.Join(strings.Fields(c.Text), " "); text != "" {
				note = append(note, text)
			}
		}
		note = append(note, fmt.Sprintf("specification %s (line %d): %s", sp.Name.Name, sp.Name.Pos.Line, sp.Text))
		if len(p.justice) > 0 {
			note = append(note, "its fairness premise <>[] ... is the file's justice")
		}
		t.imp.Notes.Properties = append(t.imp.Notes.Properties, note)
	}
	// One fairness for every property.
	var shared *property
	for _, p := range props {
		if len(p.justice) > 0 {
			shared = p
			break
		}
	}
	if shared != nil {
		key := justiceKey(shared.justice)
		for _, p := range props {
			if justiceKey(p.justice) != key {
				t.propertyFairness(p.spec, shared.spec)
			}
		}
		for i, c := range shared.justice {
			s.Fairness.Justice = append(s.Fairness.Justice, gsst.Justice{Formula: c.f, Text: c.text, Pos: shared.jpos[i]})
			t.imp.Notes.Justice = append(t.imp.Notes.Justice, "from the premise of "+shared.spec.Name.Name)
		}
		if cycle := t.ruleCycle(); cycle != "" {
			t.unsettled(shared.spec, cycle)
		}
	}
	if slices.ContainsFunc(props, func(p *property) bool { return p.live || len(p.justice) > 0 }) {
		t.addIdle() // a process may stay where it is for ever: liveness and fairness read it
	} else {
		for _, r := range t.idle {
			t.imp.Notes.Trailer = append(t.imp.Notes.Trailer,
				fmt.Sprintf("rule %d (line %d) changes nothing and is left out: every property is a safety property, which it cannot change: %s", r.rule.Label, r.rule.Pos.Line, r.rule.Text))
		}
	}
}

func justiceKey(cs []cond) string {
	texts := make([]string, len(cs))
	for i, c := range cs {
		texts[i] = c.text
	}
	slices.Sort(texts)
	return strings.Join(texts, "\x00")
}

// specification translates one specification.
func (t *translator) specification(sp *Spec) (*property, ctl.Formula, string, bool) {
	where := "specification " + sp.Name.Name
	prem, concl := split(sp.X)
	p := &property{spec: sp}
	var conds []cond
	ok := true
	for _, x := range prem {
		x = unparen(x)
		if !hasTemporal(x) {
			c, good := t.condition(x, reads{locations: true, shared: true, params: true, where: "premise of " + where})
			conds = append(conds, c)
			ok = ok && good
			continue
		}
		u, isUnary := x.(*UnaryExpr)
		var inner Expr
		if isUnary {
			inner = unparen(u.X)
		}
		switch {
		case isUnary && u.Op == LTLF && isAlways(inner):
			c, good := t.condition(unparen(inner.(*UnaryExpr).X), reads{locations: true, shared: true, params: true, where: "fairness premise of " + where})
			if good {
				p.justice = append(p.justice, c)
				p.jpos = append(p.jpos, u.OpPos)
			}
			ok = ok && good
		case isUnary && u.Op == LTLG && !hasTemporal(inner):
			t.pathPremise(sp, u)
			ok = false
		default:
			t.errorf(x.Pos(), "%s: a premise is a condition, <>[] c or [] c; this one has no translation", where)
			ok = false
		}
	}
	f, text, prec, live, good := t.ltl(concl, where)
	if !ok || !good {
		return nil, nil, "", false
	}
	p.live = live
	if len(conds) > 0 {
		all := conds[0]
		for _, c := range conds[1:] {
			all = t.connect(AND, all, c)
		}
		f = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: all.f}, R: f}
		text = wrapOperand(all.text, all.prec) + " -> " + wrapOperand(text, prec)
	}
	return p, f, text, true
}

func isAlways(x Expr) bool {
	u, ok := x.(*UnaryExpr)
	return ok && u.Op == LTLG && !hasTemporal(u.X)
}

// split returns the premises of x (the conjuncts left of each ->, to
// the right) and its conclusion.
func split(x Expr) (prem []Expr, concl Expr) {
	x = unparen(x)
	if b, ok := x.(*BinaryExpr); ok && b.Op == IMPLIES && hasTemporal(b) {
		more, c := split(b.Y)
		return append(conjuncts(b.X), more...), c
	}
	return nil, x
}

// conjuncts flattens a conjunction.
func conjuncts(x Expr) []Expr {
	x = unparen(x)
	if b, ok := x.(*BinaryExpr); ok && b.Op == AND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []Expr{x}
}

// ltl translates a conclusion into CTL where the two agree (see the top
// of the file); live says whether it has AF.
func (t *translator) ltl(x Expr, where string) (f ctl.Formula, text string, prec int, live, ok bool) {
	r := reads{locations: true, shared: true, params: true, where: where}
	if !hasTemporal(x) {
		c, ok := t.condition(x, r)
		return ctl.Atom{P: c.f}, c.text, c.prec, false, ok
	}
	switch x := x.(type) {
	case *ParenExpr:
		f, text, _, live, ok := t.ltl(x.X, where)
		return f, "(" + text + ")", atomPrec, live, ok
	case *UnaryExpr:
		switch x.Op {
		case LTLG:
			g, text, prec, live, ok := t.ltl(x.X, where)
			return ctl.Unary{Op: ctl.AG, X: g}, "AG " + paren(text, prec, prefixPrec), prefixPrec, live, ok
		case LTLF:
			if !hasTemporal(x.X) {
				c, ok := t.condition(x.X, r)
				return ctl.Unary{Op: ctl.AF, X: ctl.Atom{P: c.f}}, "AF " + paren(c.text, c.prec, prefixPrec), prefixPrec, true, ok
			}
		}
	case *BinaryExpr:
		switch {
		case x.Op == AND:
			a, at, ap, al, ok1 := t.ltl(x.X, where)
			b, bt, bp, bl, ok2 := t.ltl(x.Y, where)
			return ctl.Binary{Op: ctl.And, L: a, R: b}, wrapOperand(at, ap) + " & " + wrapOperand(bt, bp), loosePrec, al || bl, ok1 && ok2
		case x.Op == OR && !hasTemporal(x.X), x.Op == OR && !hasTemporal(x.Y), x.Op == IMPLIES && !hasTemporal(x.X):
			a, at, ap, al, ok1 := t.ltl(x.X, where)
			b, bt, bp, bl, ok2 := t.ltl(x.Y, where)
			op := ctl.Or
			if x.Op == IMPLIES {
				op = ctl.Implies
			}
			return ctl.Binary{Op: op, L: a, R: b}, wrapOperand(at, ap) + " " + gsstOp(x.Op) + " " + wrapOperand(bt, bp), loosePrec, al || bl, ok1 && ok2
		}
	}
	t.errorf(x.Pos(), "%s: vsym translates [] f, <> c, f && f, c || f and c -> f (c a condition); this LTL formula has no CTL equivalent among them", where)
	return nil, "", 0, false, false
}

// ruleCycle returns a cycle of rules that change the location ("loc0 ->
// loc1 -> loc0"), or "" when they form none.
func (t *translator) ruleCycle() string {
	s := t.spec
	succ := make([][]int, len(s.States))
	for _, tr := range s.Transitions {
		succ[tr.From] = append(succ[tr.From], tr.To)
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(s.States))
	var stack []int
	var found []int
	var visit func(v int) bool
	visit = func(v int) bool {
		color[v] = grey
		stack = append(stack, v)
		for _, w := range succ[v] {
			if color[w] == grey {
				i := slices.Index(stack, w)
				found = append(slices.Clone(stack[i:]), w)
				return true
			}
			if color[w] == white && visit(w) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		color[v] = black
		return false
	}
	for v := range s.States {
		if color[v] == white && visit(v) {
			names := make([]string, len(found))
			for i, w := range found {
				names[i] = s.States[w]
			}
			return strings.Join(names, " -> ")
		}
	}
	return ""
}
