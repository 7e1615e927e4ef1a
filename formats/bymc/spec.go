package bymc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
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
// conditions [] c. The conclusion is built from conditions, [] f, <> c,
// f && f, and c || f and c -> f with c a condition (anything else has no
// CTL reading here, and the specification alone is refused, with the
// rest of the file read).
//
// The GSST has one fairness, global, under which every path quantifier
// ranges over fair paths only (docs/fairness.md). vsym reads the
// specifications with two readings, both exact:
//
// The file's justice. The fairness premises that every liveness
// specification shares (G, each <>[] (a && b) split into <>[] a and
// <>[] b) become the file's justice conditions, which GSST reads as
// "infinitely often": a run of a threshold automaton whose rules form no
// cycle (self-loops included, so that a shared variable changes only
// when a process moves) settles, each process moving finitely often and
// so the whole configuration, and on a run that settles "from some
// point on, c forever" and "c infinitely often" coincide. A liveness
// specification whose premises are exactly G is then its conclusion in
// CTL ([] f is AG f, <> c is AF c: "[](p -> <> q)" is AG (p -> AF q),
// the forms vsym prove decides).
//
// A safety specification (no temporal premise, no <> in its conclusion)
// assumes no fairness; under G its AG ranges over the states on fair
// paths only, and reads the same as without fairness exactly when every
// reachable configuration starts a fair run (G is machine-closed). vsym
// shows this as follows (closure): from any configuration, let the
// processes take location-changing rules while one is enabled; with no
// cycle of rules this stops, each process moving at most once per
// location, in a configuration Q where every rule's source is empty or
// its guard false; there the run stays for ever (idle steps or the
// stutter of a deadlock: no rule that changes something is enabled), so
// it is fair when every configuration like Q satisfies G. vsym checks
// that implication clause by clause: each clause of G (in conjunctive
// normal form) must contain, literal by literal, a clause "from == 0 ||
// !guard" of some rule (a literal implies another when both compare the
// same sum of variables, up to a constant, and every integer the first
// allows the second allows). When the check fails (G asks more than the
// rules give: "every message of a correct process is received" while a
// rule counts faulty ones too), the safety specification could hold
// only on fair runs, a different question, and G is not used.
//
// Per specification. Without the file's justice (G empty: the
// specifications assume different fairness, the rules form a cycle, or
// a safety specification stops G), or for the premises of a
// specification beyond G (path conditions [] a, more fairness <>[] b),
// the premises become part of the formula. With a the conjunction of
// the [] premises and b of the <>[] ones beyond G, a path "meets the
// premises" when it satisfies [] a && <>[] b; from a configuration some
// such path with [] x on it exists exactly when
//
//	meets(x) = E[(a & x) U EG (a & x & b)]
//
// (EG with G's fairness; EG (a & x) when b is true). The specification
// fails exactly when some path that meets the premises violates the
// conclusion, which CTL states by recursion on the conclusion:
//
//	bad(c)      = !c & meets(true)          for a condition c
//	bad(<> c)   = meets(!c)
//	bad([] f)   = E[a U bad(f)]              (EF bad(f) when a is true)
//	bad(f && g) = bad(f) | bad(g)
//	bad(c || f) = !c & bad(f),  bad(c -> f) = c & bad(f)
//
// and the property is "conditions -> !bad(conclusion)". This is exact
// because <>[] b is a property of a path's tail (a path meets it when
// any of its suffixes does, and the reverse) and [] a of every
// position: a violation at some position i of a path that meets the
// premises is a path to i through a followed by a path from i that
// meets them, and the reverse. vsym explore decides these properties at
// every size it explores; vsym prove decides the AG and AF forms only.

// property is a specification whose premises are read.
type property struct {
	spec    *Spec
	conds   []cond     // conditions on the initial configuration
	justice []cond     // the fairness premises <>[] c, one per conjunct of c
	jpos    []gsst.Pos // where each was written
	always  []cond     // the path premises [] c
	concl   Expr
	live    bool // the conclusion has <>
}

// safety reports whether p assumes nothing of paths and concludes no <>.
func (p *property) safety() bool { return !p.live && len(p.justice) == 0 && len(p.always) == 0 }

func (t *translator) specs() {
	s := t.spec
	var props []*property
	for _, sp := range t.f.Specs {
		if p, ok := t.premises(sp); ok {
			props = append(props, p)
		}
	}
	justice, why := t.fileJustice(props)
	for i, c := range justice.conds {
		s.Fairness.Justice = append(s.Fairness.Justice, gsst.Justice{Formula: c.f, Text: c.text, Pos: justice.pos[i]})
		t.imp.Notes.Justice = append(t.imp.Notes.Justice, "a fairness premise <>[] ... of every liveness specification")
	}
	if why != "" {
		t.imp.Notes.Trailer = append(t.imp.Notes.Trailer, why)
	}
	for _, p := range props {
		sp := p.spec
		f, text, reading := t.property(p, justice.keys)
		s.Properties = append(s.Properties, gsst.Property{Name: sp.Name.Name, Formula: f, Text: text, Pos: sp.Name.Pos})
		note := []string{}
		for _, c := range sp.Doc {
			if text := strings.Join(strings.Fields(c.Text), " "); text != "" {
				note = append(note, text)
			}
		}
		note = append(note, fmt.Sprintf("specification %s (line %d): %s", sp.Name.Name, sp.Name.Pos.Line, sp.Text))
		if reading != "" {
			note = append(note, reading)
		}
		t.imp.Notes.Properties = append(t.imp.Notes.Properties, note)
	}
	if slices.ContainsFunc(props, func(p *property) bool { return !p.safety() }) {
		t.addIdle() // a process may stay where it is for ever: liveness and fairness read it
	} else {
		for _, r := range t.idle {
			t.imp.Notes.Trailer = append(t.imp.Notes.Trailer,
				fmt.Sprintf("rule %d (line %d) changes nothing and is left out: every property is a safety property, which it cannot change: %s", r.rule.Label, r.rule.Pos.Line, r.rule.Text))
		}
	}
}

// sharedJustice is the file's justice: its conditions, where each was
// written, and their texts, by which a specification's premises are
// compared with it.
type sharedJustice struct {
	conds []cond
	pos   []gsst.Pos
	keys  map[string]bool
}

// fileJustice returns the fairness premises that every liveness
// specification shares, when they may be the file's justice (see the top
// of the file), and otherwise none, with a note that says why.
func (t *translator) fileJustice(props []*property) (sharedJustice, string) {
	var out sharedJustice
	var first *property
	count := map[string]int{}
	live := 0
	for _, p := range props {
		if p.safety() {
			continue
		}
		live++
		seen := map[string]bool{}
		for _, c := range p.justice {
			if k := c.key(); !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
		if first == nil {
			first = p
		}
	}
	if first == nil {
		return out, ""
	}
	out.keys = map[string]bool{}
	for i, c := range first.justice {
		if k := c.key(); count[k] == live && !out.keys[k] {
			out.keys[k] = true
			out.conds = append(out.conds, c)
			out.pos = append(out.pos, first.jpos[i])
		}
	}
	if len(out.conds) == 0 {
		return sharedJustice{}, ""
	}
	const per = "; each specification states its fairness premises in its own formula"
	if cycle := t.ruleCycle(); cycle != "" {
		return sharedJustice{}, fmt.Sprintf("the fairness premises are not the file's justice: the rules %s form a cycle, so a run need not settle, and <>[] c is not []<> c%s", cycle, per)
	}
	for _, p := range props {
		if !p.safety() {
			continue
		}
		if c, ok := t.quiescenceImplies(out.conds); !ok {
			return sharedJustice{}, fmt.Sprintf("the fairness premises shared by the liveness specifications are not the file's justice: vsym cannot show that a run may always continue fairly (that every configuration where no rule can move a process satisfies %s), and safety specification %s assumes no fairness%s", c.text, p.spec.Name.Name, per)
		}
	}
	return out, ""
}

// premises reads the premises of sp; it refuses sp (Import.Refused)
// when its formula has no reading here, and reports the errors of the
// file (names, values) as errors.
func (t *translator) premises(sp *Spec) (*property, bool) {
	where := "specification " + sp.Name.Name
	prem, concl := split(sp.X)
	// The shape first, so that a refused specification has its
	// conditions checked once, by refuse.
	for _, x := range prem {
		x = unparen(x)
		if u, ok := x.(*UnaryExpr); hasTemporal(x) && !(ok && (u.Op == LTLF && isAlways(unparen(u.X)) || u.Op == LTLG && !hasTemporal(u.X))) {
			t.refuse(sp, x.Pos(), "a premise is a condition, <>[] c or [] c; this one has no translation")
			return nil, false
		}
	}
	live, at := t.fragment(concl)
	if at != nil {
		t.refuse(sp, at.Pos(), "vsym translates [] f, <> c, f && f, c || f and c -> f (c a condition); this LTL formula has no CTL equivalent among them")
		return nil, false
	}
	p := &property{spec: sp, concl: concl, live: live}
	ok := true
	r := reads{locations: true, shared: true, params: true}
	for _, x := range prem {
		x = unparen(x)
		u, _ := x.(*UnaryExpr)
		switch {
		case !hasTemporal(x):
			r.where = "premise of " + where
			c, good := t.condition(x, r)
			p.conds = append(p.conds, c)
			ok = ok && good
		case u.Op == LTLF:
			r.where = "fairness premise of " + where
			for _, y := range conjuncts(unparen(u.X).(*UnaryExpr).X) {
				c, good := t.condition(unparen(y), r)
				p.justice = append(p.justice, c)
				p.jpos = append(p.jpos, u.OpPos)
				ok = ok && good
			}
		default:
			r.where = "path premise of " + where
			for _, y := range conjuncts(u.X) {
				c, good := t.condition(unparen(y), r)
				p.always = append(p.always, c)
				ok = ok && good
			}
		}
	}
	return p, ok
}

// fragment checks that the conclusion x is in the part of LTL that vsym
// reads, and says whether it has <>; at is the first part outside, nil
// when none is.
func (t *translator) fragment(x Expr) (live bool, at Expr) {
	if !hasTemporal(x) {
		return false, nil
	}
	switch x := x.(type) {
	case *ParenExpr:
		return t.fragment(x.X)
	case *UnaryExpr:
		switch {
		case x.Op == LTLG:
			return t.fragment(x.X)
		case x.Op == LTLF && !hasTemporal(x.X):
			return true, nil
		}
	case *BinaryExpr:
		switch {
		case x.Op == AND, x.Op == OR && !hasTemporal(x.X), x.Op == OR && !hasTemporal(x.Y), x.Op == IMPLIES && !hasTemporal(x.X):
			l, at := t.fragment(x.X)
			if at != nil {
				return false, at
			}
			r, at := t.fragment(x.Y)
			return l || r, at
		}
	}
	return false, x
}

// property translates the conclusion of p with its premises: in the
// CTL that prove decides when its temporal premises are the file's
// justice, else with them in the formula (bad, at the top of the file).
// reading says which, for the YAML.
func (t *translator) property(p *property, fileJustice map[string]bool) (ctl.Formula, string, string) {
	where := "specification " + p.spec.Name.Name
	var extra []cond
	for _, c := range p.justice {
		if !fileJustice[c.key()] && !slices.ContainsFunc(extra, func(d cond) bool { return d.key() == c.key() }) {
			extra = append(extra, c)
		}
	}
	var f ctl.Formula
	var text, reading string
	prec := loosePrec
	if len(extra) == 0 && len(p.always) == 0 {
		f, text, prec = t.ltl(p.concl, where)
		switch {
		case len(p.justice) > 0:
			reading = "its fairness premise <>[] ... is the file's justice"
		case p.safety() && len(fileJustice) > 0:
			reading = "a safety specification: the file's justice changes no verdict of it, as every configuration can go on fairly (each justice condition holds where no rule can move a process)"
		}
	} else {
		pr := premises{a: t.all(p.always), b: t.all(extra)}
		bad := t.bad(p.concl, pr, where)
		f, text, prec = ctl.Not{X: bad.f}, "!"+paren(bad.text, bad.prec, prefixPrec), prefixPrec
		reading = "its premises are in the formula: no path that meets them"
		if len(p.always) > 0 {
			reading += " (always " + pr.a.text
			if len(extra) > 0 {
				reading += ", and from some point on " + pr.b.text
			}
			reading += ")"
		} else {
			reading += " (from some point on " + pr.b.text + ")"
		}
		reading += " violates the conclusion"
		if len(p.justice) > len(extra) {
			reading += "; the rest of its fairness premise is the file's justice"
		}
	}
	if len(p.conds) > 0 {
		all := t.all(p.conds)
		f = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: all.f}, R: f}
		text = wrapOperand(all.text, all.prec) + " -> " + wrapOperand(text, prec)
	}
	return f, text, reading
}

// key identifies a condition by its formula: the same condition written
// with other parentheses or macros has the same key.
func (c cond) key() string { return fmt.Sprint(presburger.NNF(c.f)) }

// all is the conjunction of cs (true when empty).
func (t *translator) all(cs []cond) cond {
	if len(cs) == 0 {
		return cond{f: presburger.True, text: "true", prec: atomPrec}
	}
	out := cs[0]
	for _, c := range cs[1:] {
		out = t.connect(AND, out, c)
	}
	return out
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

// ltl translates a conclusion (in the fragment) into CTL where the two
// agree (see the top of the file).
func (t *translator) ltl(x Expr, where string) (f ctl.Formula, text string, prec int) {
	r := reads{locations: true, shared: true, params: true, where: where}
	if !hasTemporal(x) {
		c, _ := t.condition(x, r)
		return ctl.Atom{P: c.f}, c.text, c.prec
	}
	switch x := x.(type) {
	case *ParenExpr:
		f, text, _ := t.ltl(x.X, where)
		return f, "(" + text + ")", atomPrec
	case *UnaryExpr:
		if x.Op == LTLG {
			g, text, prec := t.ltl(x.X, where)
			return ctl.Unary{Op: ctl.AG, X: g}, "AG " + paren(text, prec, prefixPrec), prefixPrec
		}
		c, _ := t.condition(x.X, r)
		return ctl.Unary{Op: ctl.AF, X: ctl.Atom{P: c.f}}, "AF " + paren(c.text, c.prec, prefixPrec), prefixPrec
	case *BinaryExpr:
		a, at, ap := t.ltl(x.X, where)
		b, bt, bp := t.ltl(x.Y, where)
		op := map[Token]ctl.BinOp{AND: ctl.And, OR: ctl.Or, IMPLIES: ctl.Implies}[x.Op]
		return ctl.Binary{Op: op, L: a, R: b}, wrapOperand(at, ap) + " " + gsstOp(x.Op) + " " + wrapOperand(bt, bp), loosePrec
	}
	panic("bymc: ltl of a conclusion outside the fragment")
}

// premises are the path premises of a specification: [] a and, beyond
// the file's justice, <>[] b (each true when absent).
type premises struct{ a, b cond }

// state is a CTL formula with its text.
type state struct {
	f    ctl.Formula
	text string
	prec int
}

func atom(c cond) state { return state{ctl.Atom{P: c.f}, c.text, c.prec} }

func and(x, y state) state {
	return state{ctl.Binary{Op: ctl.And, L: x.f, R: y.f}, wrapOperand(x.text, x.prec) + " & " + wrapOperand(y.text, y.prec), loosePrec}
}

func or(x, y state) state {
	return state{ctl.Binary{Op: ctl.Or, L: x.f, R: y.f}, wrapOperand(x.text, x.prec) + " | " + wrapOperand(y.text, y.prec), loosePrec}
}

func isTrue(c cond) bool { return c.f == presburger.Formula(presburger.True) }

// meets is meets(x) of the top of the file: some path from here meets
// the premises with x always on it.
func (t *translator) meets(pr premises, x cond) state {
	ax := x
	if !isTrue(pr.a) {
		ax = pr.a
		if !isTrue(x) {
			ax = t.connect(AND, pr.a, x)
		}
	}
	if isTrue(pr.b) {
		return state{ctl.Unary{Op: ctl.EG, X: ctl.Atom{P: ax.f}}, "EG " + paren(ax.text, ax.prec, prefixPrec), prefixPrec}
	}
	axb := pr.b
	if !isTrue(ax) {
		axb = t.connect(AND, ax, pr.b)
	}
	eg := state{ctl.Unary{Op: ctl.EG, X: ctl.Atom{P: axb.f}}, "EG " + paren(axb.text, axb.prec, prefixPrec), prefixPrec}
	if isTrue(ax) {
		return state{ctl.Unary{Op: ctl.EF, X: eg.f}, "EF " + eg.text, prefixPrec}
	}
	return state{ctl.Until{L: ctl.Atom{P: ax.f}, R: eg.f}, "E[" + ax.text + " U " + eg.text + "]", atomPrec}
}

// bad is bad(x) of the top of the file: some path from here meets the
// premises and violates x.
func (t *translator) bad(x Expr, pr premises, where string) state {
	r := reads{locations: true, shared: true, params: true, where: where}
	not := func(c cond) cond {
		return cond{f: presburger.Negation(c.f), text: "!" + paren(c.text, c.prec, prefixPrec), prec: prefixPrec}
	}
	if !hasTemporal(x) {
		c, _ := t.condition(x, r)
		return and(atom(not(c)), t.meets(pr, cond{f: presburger.True, text: "true", prec: atomPrec}))
	}
	switch x := x.(type) {
	case *ParenExpr:
		return t.bad(x.X, pr, where)
	case *UnaryExpr:
		if x.Op == LTLF {
			c, _ := t.condition(x.X, r)
			return t.meets(pr, not(c))
		}
		inner := t.bad(x.X, pr, where)
		if isTrue(pr.a) {
			return state{ctl.Unary{Op: ctl.EF, X: inner.f}, "EF " + paren(inner.text, inner.prec, prefixPrec), prefixPrec}
		}
		return state{ctl.Until{L: ctl.Atom{P: pr.a.f}, R: inner.f}, "E[" + pr.a.text + " U " + inner.text + "]", atomPrec}
	case *BinaryExpr:
		if x.Op == AND {
			return or(t.bad(x.X, pr, where), t.bad(x.Y, pr, where))
		}
		c, rest := x.X, x.Y
		if x.Op == OR && hasTemporal(x.X) {
			c, rest = x.Y, x.X
		}
		cc, _ := t.condition(c, r)
		if x.Op == OR {
			cc = not(cc)
		}
		return and(atom(cc), t.bad(rest, pr, where))
	}
	panic("bymc: bad of a conclusion outside the fragment")
}

// quiescenceImplies reports whether every configuration where no rule
// can move a process satisfies each of cs (else the first it may not), by the clause check of the top
// of the file. With the rules forming no cycle, the transitions are the
// rules that move a process.
func (t *translator) quiescenceImplies(cs []cond) (cond, bool) {
	s := t.spec
	var rules [][]presburger.Formula // the clauses "from == 0 || !guard"
	for _, tr := range s.Transitions {
		empty := presburger.Compare(presburger.VarTerm(s.TotalVar(tr.From)), presburger.Eq, presburger.Term{})
		for _, b := range tr.Blocks {
			rules = append(rules, clauses(presburger.Disj(empty, presburger.Negation(b.Guard)))...)
		}
	}
	for _, c := range cs {
		for _, want := range clauses(c.f) {
			if !slices.ContainsFunc(rules, func(have []presburger.Formula) bool { return subsumes(have, want) }) {
				return c, false
			}
		}
	}
	return cond{}, true
}

// clauses returns f in conjunctive normal form: a conjunction of
// disjunctions of atoms (an empty disjunction is false).
func clauses(f presburger.Formula) [][]presburger.Formula {
	var out [][]presburger.Formula
	for _, conj := range presburger.DNF(presburger.Negation(f)) {
		clause := make([]presburger.Formula, len(conj))
		for i, l := range conj {
			clause[i] = presburger.NNF(presburger.Negation(l))
		}
		out = append(out, clause)
	}
	return out
}

// subsumes reports whether every literal of have implies a literal of
// want, so that have implies want.
func subsumes(have, want []presburger.Formula) bool {
	for _, l := range have {
		if !slices.ContainsFunc(want, func(m presburger.Formula) bool { return literalImplies(l, m) }) {
			return false
		}
	}
	return true
}

// literalImplies reports whether atom l implies atom m. Both compare a
// sum with 0, l "s op 0" and m "s + d op 0"; every variable of a
// threshold automaton (counter, shared variable, parameter) is at least
// 0, which bounds d; l implies m when every integer s that l allows m
// allows at every value of d in its range (s and d taken apart, which
// only asks more). Anything else (a disjunction that NNF made of !=) is
// not shown to imply.
func literalImplies(l, m presburger.Formula) bool {
	a, ok1 := l.(presburger.Cmp)
	b, ok2 := m.(presburger.Cmp)
	if !ok1 || !ok2 {
		return false
	}
	d, ok := b.T.SubExact(a.T)
	if !ok {
		return false
	}
	dr := d.Range(func(v presburger.Var) (presburger.Bound, bool) { return presburger.AtLeast(v, 0), true })
	const far = 1 << 40
	lo1, hi1, ok := opRange(a.Op, 0)
	if !ok {
		return false
	}
	switch b.Op {
	case presburger.Eq:
		if !d.IsConst() || d.Const > far || d.Const < -far {
			return false
		}
		lo2, hi2, _ := opRange(b.Op, -d.Const)
		return lo2 <= lo1 && hi1 <= hi2
	case presburger.Lt, presburger.Le: // s <= -d - ...: the greatest d bounds
		if dr.NoHi || dr.Hi > far || dr.Hi < -far {
			return false
		}
		_, hi2, _ := opRange(b.Op, -dr.Hi)
		return hi1 <= hi2
	case presburger.Gt, presburger.Ge: // s >= -d + ...: the least d bounds
		if dr.NoLo || dr.Lo > far || dr.Lo < -far {
			return false
		}
		lo2, _, _ := opRange(b.Op, -dr.Lo)
		return lo2 <= lo1
	}
	return false
}

// opRange is the range of integers s with s - at op 0 (op not !=), with
// the sides open as far as int64 goes.
func opRange(op presburger.Op, at int64) (lo, hi int64, ok bool) {
	const inf = 1 << 62
	switch op {
	case presburger.Eq:
		return at, at, true
	case presburger.Lt:
		return -inf, at - 1, true
	case presburger.Le:
		return -inf, at, true
	case presburger.Gt:
		return at + 1, inf, true
	case presburger.Ge:
		return at, inf, true
	}
	return 0, 0, false
}

// refuse records that specification sp is not stated, and why; the
// conditions it is made of are still checked, so that an error in them
// (an undeclared name) is reported as in any other part of the file.
func (t *translator) refuse(sp *Spec, pos gsst.Pos, why string) {
	t.imp.Refused = append(t.imp.Refused, formats.Refusal{Property: sp.Name.Name, Pos: pos, Why: why})
	var check func(x Expr)
	check = func(x Expr) {
		switch y := x.(type) {
		case *ParenExpr:
			check(y.X)
			return
		case *UnaryExpr:
			if hasTemporal(y) {
				check(y.X)
				return
			}
		case *BinaryExpr:
			if hasTemporal(y) {
				check(y.X)
				check(y.Y)
				return
			}
		}
		t.condition(x, reads{locations: true, shared: true, params: true, where: "specification " + sp.Name.Name})
	}
	check(sp.X)
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
