package gsst

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// checker resolves the names of a File and builds its Spec, with the
// positions the rules of New (rules.go) report at; check then runs those
// rules on it.
type checker struct {
	sys    *Spec
	states map[string]int
	groups map[string]int
	// quiet about unresolved states or groups when their declaration
	// was missing or malformed
	statesBad, groupsBad bool
	errs                 ErrorList
	// src says what did not resolve, for the rules.
	src source

	// n caches the meaning of n for guards that mention it many times:
	// System.N (a loop over the groups), or NVar in a parametric system;
	// nKnown says whether it is set.
	n      presburger.Term
	nKnown bool
	// allSizes reads every group's size as the range 1.. (AllSizes).
	allSizes bool
	// binary, when not nil, replaces chain for binary expressions. Tests
	// set it to a node-at-a-time evaluator to cross-check chain.
	binary func(c *checker, x *BinaryExpr, m mode, where string) (value, bool)

	// names resolves the identifiers of expressions beyond n, true and
	// false: parameters, shared variables, enumeration constants
	// (checkext.go). The first declaration of a name wins; the rules
	// report the others.
	names map[string]name
	// badSize marks the groups whose size over parameters did not
	// resolve (reported): their init rows are not checked against it.
	badSize map[int]bool
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(pos, format, args...)
}

// check builds the Spec of f and checks it against the rules of New,
// skipping what did not resolve, so that every error is reported at
// once. The Spec is only meaningful when there are no errors.
func check(f *File, file string, opt options) (*Spec, ErrorList) {
	c := &checker{
		sys:       &Spec{Name: f.Name, File: file},
		states:    map[string]int{},
		groups:    map[string]int{},
		statesBad: f.StatesBad,
		groupsBad: f.GroupsBad,
		allSizes:  opt.allSizes,
		src:       source{allSizes: opt.allSizes},
		names:     map[string]name{},
	}
	c.declareParams(f)
	c.declareShared(f)
	c.declare(f)
	c.initTerms(f)
	c.assume(f)
	c.init(f)
	// Guards mention n, so they need the group sizes; they are checked even
	// when the sizes are wrong (n is then whatever the valid sizes add to),
	// so that the user sees every error at once.
	c.transitions(f)
	c.rendezvous(f)
	c.environment(f)
	c.properties(f)
	c.fairness(f)
	return c.sys, append(c.errs, c.sys.rules(&c.src)...)
}

func (c *checker) declare(f *File) {
	for _, s := range f.States {
		if _, dup := c.states[s.Name]; dup {
			c.errorf(s.NamePos, "duplicate state %q", s.Name)
			continue
		}
		c.states[s.Name] = len(c.sys.States)
		c.sys.States = append(c.sys.States, s.Name)
	}
	for _, g := range f.Groups {
		if _, dup := c.groups[g.Name.Name]; dup {
			c.errorf(g.Name.NamePos, "duplicate group %q", g.Name.Name)
			continue
		}
		c.groups[g.Name.Name] = len(c.sys.Groups)
		c.sys.Groups = append(c.sys.Groups, groupOf(g))
	}
	// Sizes over parameters once every group is declared: the
	// variables of parameters follow those of the groups.
	for _, g := range f.Groups {
		if i, ok := c.groups[g.Name.Name]; ok && g.SizeX != nil && c.sys.Groups[i].Pos == g.Name.NamePos {
			c.sizeTerm(&c.sys.Groups[i], g)
		}
	}
	if c.allSizes {
		// The rules check the sizes as written.
		c.src.written = slices.Clone(c.sys.Groups)
		for i := range c.sys.Groups {
			grp := &c.sys.Groups[i]
			grp.Size, grp.Ranged, grp.Max = 1, true, Unbounded
			grp.SizeTerm, grp.SizeTermText = presburger.Term{}, ""
		}
	}
}

// groupOf returns the group a declaration describes, with its size as
// written for the rules to check. A size that is not a number (already
// reported) reads as 1, so that the rest of the file is still checked. A
// range N..N is the fixed size N.
func groupOf(g *GroupDecl) Group {
	grp := Group{Name: g.Name.Name, Size: 1, Pos: g.Name.NamePos, SizePos: g.SizePos}
	if !g.SizeOK || g.SizeX != nil {
		return grp
	}
	grp.Size = int(g.Size)
	switch {
	case !g.Ranged:
	case g.Unbounded:
		grp.Ranged, grp.Max = true, Unbounded
	case g.Max != g.Size:
		grp.Ranged, grp.Max = true, int(g.Max)
	}
	return grp
}

func (c *checker) state(id *Ident, context string) (int, bool) {
	if id == nil {
		return 0, false
	}
	i, ok := c.states[id.Name]
	if !ok && !c.statesBad {
		c.errorf(id.NamePos, "unknown local state %q%s", id.Name, context)
	}
	return i, ok
}

func (c *checker) group(id *Ident, context string) (int, bool) {
	if id == nil {
		return 0, false
	}
	i, ok := c.groups[id.Name]
	if !ok && !c.groupsBad {
		c.errorf(id.NamePos, "unknown group %q%s", id.Name, context)
	}
	return i, ok
}

// init resolves the init key into Spec.Init, with the positions the
// rules report at; c.src.rows marks the rows that did not resolve.
func (c *checker) init(f *File) {
	in := f.Init
	sys := c.sys
	d := len(sys.Groups)
	sys.Init = make([][]int, d)
	for g := range sys.Init {
		sys.Init[g] = make([]int, len(sys.States))
	}
	sys.InitPos = make([]InitPos, d)
	c.src.rows = make([]rowKind, d)
	skipAll := func() {
		for g := range c.src.rows {
			c.src.rows[g] = rowSkip
		}
	}
	switch {
	case in == nil:
		skipAll()
		return
	case in.AllOver != nil:
		c.allOver(in.AllOver, in.Pos)
		return
	case in.All != nil:
		s, ok := c.state(in.All, " in init")
		if !ok {
			skipAll()
			return
		}
		for g := range sys.Groups {
			sys.Init[g][s] = sys.Groups[g].Size
			sys.InitPos[g].Pos = in.All.NamePos
		}
		return
	}
	given := make([]bool, d)
	for _, gi := range in.Groups {
		g, ok := c.group(gi.Group, " in init")
		if !ok {
			// Still resolve the states, to report unknown ones.
			c.state(gi.State, " in init")
			for _, id := range gi.Over {
				c.state(id, " in init")
			}
			for _, ic := range gi.Counts {
				c.state(ic.State, " in init")
			}
			continue
		}
		given[g] = true
		sys.InitPos[g].Pos = gi.Group.NamePos
		switch {
		case gi.State != nil:
			if s, ok := c.state(gi.State, " in init"); ok {
				sys.Init[g][s] = sys.Groups[g].Size
			} else {
				c.src.rows[g] = rowSkip
			}
		case gi.Over != nil:
			c.initOver(g, gi.Over, gi.Group.NamePos)
		case gi.Counts == nil:
			c.src.rows[g] = rowSkip // already reported by the decoder
		default:
			sys.InitPos[g].Counts = make([]Pos, len(sys.States))
			for _, ic := range gi.Counts {
				s, ok := c.state(ic.State, " in init")
				if !ok {
					c.src.rows[g] = rowPartial
					continue
				}
				sys.Init[g][s] = int(ic.Count)
				sys.InitPos[g].Counts[s] = ic.CountPos
			}
		}
	}
	for g, ok := range given {
		if !ok {
			sys.InitPos[g] = InitPos{Pos: in.Pos, Missing: true}
		}
	}
	for g := range c.badSize {
		c.src.rows[g] = rowSkip
	}
}

// transitions resolves the transitions. A transition with an unknown
// state is kept, for its guards to be checked and the indices of the
// rest to hold; c.src.trans marks it.
func (c *checker) transitions(f *File) {
	sys := c.sys
	c.src.trans = make([]string, len(f.Transitions))
	for i, td := range f.Transitions {
		from, okFrom := c.state(td.From, " in transition")
		to, okTo := c.state(td.To, " in transition")
		name := "transition"
		if td.From != nil && td.To != nil {
			name = td.From.Name + " -> " + td.To.Name
		}
		if !okFrom || !okTo {
			c.src.trans[i] = name
		}
		t := Transition{From: from, To: to, Pos: td.Pos}
		if td.Name != nil {
			t.Name, t.NamePos = td.Name.Name, td.Name.NamePos
			name = t.Name + " (" + name + ")"
		}
		if !td.Guarded {
			t.Blocks = []Block{{Groups: c.allGroups(), Guard: presburger.True, Pos: td.Pos}}
		}
		where := " in guard of " + name
		for _, gd := range td.Guards {
			b := Block{Text: gd.Text, Pos: gd.Pos}
			if gd.Shared {
				b.Groups = c.allGroups()
			} else {
				for _, id := range gd.Groups {
					if g, ok := c.group(id, where); ok {
						b.Groups = append(b.Groups, g)
						b.GroupPos = append(b.GroupPos, id.NamePos)
					}
				}
				sort.Stable(byGroup{&b})
			}
			if gd.X != nil {
				if v, ok := c.expr(gd.X, guardMode, where); ok {
					if v.kind != kindBool {
						c.errorf(gd.X.Pos(), "guard of %s is %s; expected a condition such as %q", name, v.kind, "#C = 0")
					} else {
						b.Guard = v.f
					}
				}
			}
			t.Blocks = append(t.Blocks, b)
		}
		c.updates(&t, td, name)
		t.Broadcast = c.broadcast(td.Broadcast, name)
		sys.Transitions = append(sys.Transitions, t)
	}
}

// byGroup sorts the groups of a block with their positions.
type byGroup struct{ b *Block }

func (x byGroup) Len() int           { return len(x.b.Groups) }
func (x byGroup) Less(i, j int) bool { return x.b.Groups[i] < x.b.Groups[j] }
func (x byGroup) Swap(i, j int) {
	g, p := x.b.Groups, x.b.GroupPos
	g[i], g[j] = g[j], g[i]
	p[i], p[j] = p[j], p[i]
}

func (c *checker) allGroups() []int {
	out := make([]int, len(c.sys.Groups))
	for i := range out {
		out[i] = i
	}
	return out
}

func (c *checker) properties(f *File) {
	for _, pd := range f.Properties {
		p := Property{Name: pd.Name.Name, Text: pd.Text, Pos: pd.Pos, Syntax: pd.X}
		if pd.X != nil {
			if v, ok := c.expr(pd.X, propMode, " in property "+pd.Name.Name); ok {
				if v.kind.term() {
					c.errorf(pd.X.Pos(), "property %s is %s; expected a CTL formula such as %q", pd.Name.Name, v.kind, "AG #C <= 1")
				} else {
					p.Formula = v.toCTL()
				}
			}
		}
		c.sys.Properties = append(c.sys.Properties, p)
	}
}

// mode says where an expression occurs.
type mode int

const (
	guardMode   mode = iota // guards: no temporal operators
	propMode                // properties: CTL allowed
	justiceMode             // justice conditions: no temporal operators
	assumeMode              // the assumption: parameters only
	sizeMode                // group sizes: linear over parameters only
	updateMode              // right sides of updates: shared variables, parameters, constants
	initMode                // initial values of shared variables: linear over parameters only
)

// stateOnly says why a mode has no temporal operators.
func (m mode) stateOnly() string {
	switch m {
	case justiceMode:
		return "a justice condition is a condition on one configuration, met infinitely often on a fair path"
	case assumeMode:
		return "the assumption is a condition on the parameters"
	case sizeMode:
		return "a group size is an expression over the parameters"
	case initMode:
		return initOverParams
	case updateMode:
		return "an update assigns values computed from the current configuration"
	}
	return "guards are conditions on the current configuration"
}

type kind int

const (
	kindInt  kind = iota // a linear term
	kindBool             // a Presburger formula
	kindCTL              // a CTL formula with temporal operators
	kindEnum             // a value of an enumeration: its index, a term
)

func (k kind) String() string {
	return [...]string{kindInt: "an integer expression", kindBool: "a condition", kindCTL: "a temporal formula",
		kindEnum: "an enumeration value"}[k]
}

// term reports whether a value of kind k is a term rather than a
// formula: an integer or an enumeration value.
func (k kind) term() bool { return k == kindInt || k == kindEnum }

// value is the meaning of an expression.
type value struct {
	kind kind
	t    presburger.Term
	f    presburger.Formula
	c    ctl.Formula
	// A boolean variable, true or false (kindBool) is also the term t,
	// 0 or 1: boolVal is set then, and boolVar for a variable. enum
	// names the enumeration of a kindEnum value (enumKey).
	boolVal, boolVar bool
	enum             string
}

func (v value) toCTL() ctl.Formula {
	if v.kind == kindBool {
		return ctl.Atom{P: v.f}
	}
	return v.c
}

// fits reports whether every coefficient and the constant of t is within
// MaxConstant. Operands within the limit cannot overflow int64 in one
// addition or multiplication, so checking after each step is enough.
func fits(t presburger.Term) bool {
	if t.Const > MaxConstant || t.Const < -MaxConstant {
		return false
	}
	for _, m := range t.Monos {
		if m.Coef > MaxConstant || m.Coef < -MaxConstant {
			return false
		}
	}
	return true
}

var tempOps = map[Token]ctl.TempOp{AG: ctl.AG, AF: ctl.AF, EG: ctl.EG, EF: ctl.EF, AX: ctl.AX, EX: ctl.EX}

// expr gives the meaning of x. ok is false when an error was reported
// inside x; the caller then reports nothing more about it.
func (c *checker) expr(x Expr, m mode, where string) (v value, ok bool) {
	switch x := x.(type) {
	case *IntLit:
		k, err := strconv.ParseInt(x.Lit, 10, 64)
		if err != nil || k > MaxConstant {
			c.errorf(x.ValuePos, "integer constant %s is too large (the limit is %d)", x.Lit, MaxConstant)
			return v, false
		}
		return value{kind: kindInt, t: presburger.ConstTerm(k)}, true

	case *NameExpr:
		switch x.Name {
		case "n":
			if nm, ok := c.names["n"]; ok {
				return c.named(x, nm, m, where)
			}
			if !c.processCount(x.NamePos, "n", m, where) {
				return v, false
			}
			if !c.nKnown {
				// A bad size (reported by the rules) counts as the
				// nearest valid one.
				n := 0
				for _, g := range c.sys.Groups {
					n += min(max(g.Size, 1), MaxProcesses)
				}
				c.n, c.nKnown = presburger.ConstTerm(int64(n)), true
				if c.sys.Parametric() {
					c.n = presburger.VarTerm(c.sys.NVar())
				}
			}
			return value{kind: kindInt, t: c.n}, true
		case "true":
			return value{kind: kindBool, f: presburger.True, t: presburger.ConstTerm(1), boolVal: true}, true
		case "false":
			return value{kind: kindBool, f: presburger.False, t: presburger.ConstTerm(0), boolVal: true}, true
		}
		if nm, ok := c.names[x.Name]; ok {
			return c.named(x, nm, m, where)
		}
		hint := ""
		if _, isState := c.states[x.Name]; isState {
			hint = "; write #" + x.Name + " for the number of processes in state " + x.Name
		}
		expected := "n, true, false or a counter #S / #S[g]"
		if len(c.names) > 0 {
			expected = "n, true, false, a counter #S / #S[g], a parameter, a shared variable or an enumeration constant"
		}
		c.errorf(x.NamePos, "unknown name %q%s (expected %s)%s", x.Name, where, expected, hint)
		return v, false

	case *CounterExpr:
		if !c.processCount(x.Hash, "counter", m, where) {
			c.state(x.State, where)
			c.group(x.Group, where)
			return v, false
		}
		s, okS := c.state(x.State, where)
		if x.Group == nil {
			if !okS {
				return v, false
			}
			return value{kind: kindInt, t: presburger.VarTerm(c.sys.TotalVar(s))}, true
		}
		g, okG := c.group(x.Group, where)
		if !okS || !okG {
			return v, false
		}
		return value{kind: kindInt, t: presburger.VarTerm(c.sys.GroupVar(s, g))}, true

	case *ParenExpr:
		return c.expr(x.X, m, where)

	case *UnaryExpr:
		y, ok := c.expr(x.X, m, where)
		if !ok {
			return v, false
		}
		switch x.Op {
		case SUB:
			if y.kind != kindInt {
				c.errorf(x.OpPos, "operand of unary - is %s, not an integer expression", y.kind)
				return v, false
			}
			return value{kind: kindInt, t: y.t.Scale(-1)}, true
		case NOT:
			switch y.kind {
			case kindInt, kindEnum:
				c.errorf(x.OpPos, "operand of ! is %s, not a condition", y.kind)
				return v, false
			case kindBool:
				return value{kind: kindBool, f: presburger.Negation(y.f)}, true
			}
			return value{kind: kindCTL, c: ctl.Not{X: y.c}}, true
		}
		op := tempOps[x.Op]
		if m != propMode {
			c.errorf(x.OpPos, "temporal operator %s%s: %s", x.Op, where, m.stateOnly())
			return v, false
		}
		if y.kind.term() {
			c.errorf(x.OpPos, "operand of %s is %s, not a formula", x.Op, y.kind)
			return v, false
		}
		return value{kind: kindCTL, c: ctl.Unary{Op: op, X: y.toCTL()}}, true

	case *UntilExpr:
		q := "E"
		if x.All {
			q = "A"
		}
		if m != propMode {
			c.errorf(x.Quant, "temporal operator %s[p U q]%s: %s", q, where, m.stateOnly())
			return v, false
		}
		l, okL := c.expr(x.L, m, where)
		r, okR := c.expr(x.R, m, where)
		if !okL || !okR {
			return v, false
		}
		if l.kind.term() || r.kind.term() {
			c.errorf(x.Quant, "operands of %s[p U q] must be formulas, not integer expressions", q)
			return v, false
		}
		return value{kind: kindCTL, c: ctl.Until{All: x.All, L: l.toCTL(), R: r.toCTL()}}, true

	case *BinaryExpr:
		if c.binary != nil {
			return c.binary(c, x, m, where)
		}
		return c.chain(x, m, where)
	}
	c.errorf(x.Pos(), "internal error: unexpected expression %T", x)
	return v, false
}

// processCount reports whether a counter or n (the number of processes)
// may appear in mode m, reporting it when not.
func (c *checker) processCount(pos Pos, what string, m mode, where string) bool {
	switch m {
	case assumeMode, sizeMode, updateMode, initMode:
	default:
		return true
	}
	if what == "n" {
		what = "n (the number of processes)"
	}
	why := map[mode]string{
		assumeMode: "the assumption reads the parameters only",
		sizeMode:   "a group size is an expression over the parameters",
		updateMode: "an update reads shared variables, parameters and constants",
		initMode:   initOverParams,
	}[m]
	hint := ""
	if what != "counter" && m != updateMode {
		hint = " (declare n in params to make it a parameter)"
	}
	c.errorf(pos, "%s%s: %s%s", what, where, why, hint)
	return false
}

// named gives the meaning of an identifier declared by the file.
func (c *checker) named(x *NameExpr, nm name, m mode, where string) (value, bool) {
	switch {
	case nm.dup:
		return value{}, false
	case nm.param >= 0:
		p := &c.sys.Params[nm.param]
		if p.Fixed {
			return value{kind: kindInt, t: presburger.ConstTerm(int64(p.Value))}, true
		}
		return value{kind: kindInt, t: presburger.VarTerm(c.sys.ParamVar(nm.param))}, true
	case nm.shared >= 0:
		if m == assumeMode || m == sizeMode || m == initMode {
			c.errorf(x.NamePos, "shared variable %s%s: %s", x.Name, where, map[mode]string{
				assumeMode: "the assumption reads the parameters only",
				sizeMode:   "a group size is an expression over the parameters",
				initMode:   initOverParams}[m])
			return value{}, false
		}
		v := &c.sys.Shared[nm.shared]
		t := presburger.VarTerm(c.sys.SharedVar(nm.shared))
		switch {
		case v.Bool:
			return value{kind: kindBool, f: presburger.Compare(t, presburger.Eq, presburger.ConstTerm(1)), t: t, boolVal: true, boolVar: true}, true
		case v.Values != nil:
			return value{kind: kindEnum, t: t, enum: enumKey(v.Values)}, true
		}
		return value{kind: kindInt, t: t}, true
	}
	return value{kind: kindEnum, t: presburger.ConstTerm(int64(nm.value)), enum: nm.enum}, true
}

// compareValues compares enumeration values, or boolean variables with
// each other and with true and false: = and != only, within one type.
func (c *checker) compareValues(x *BinaryExpr, l, r value) (value, bool) {
	if x.Op != EQL && x.Op != NEQ {
		what := "enumeration values"
		if l.kind == kindBool || r.kind == kindBool {
			what = "booleans"
		}
		c.errorf(x.OpPos, "comparison %s of %s: %s are compared with = and != only", x.Op, what, what)
		return value{}, false
	}
	switch {
	case l.kind == kindEnum && r.kind == kindEnum && l.enum == r.enum:
	case l.kind == kindEnum && r.kind == kindEnum:
		c.errorf(x.OpPos, "comparison %s of values of two different enumerations [%s] and [%s]", x.Op,
			strings.ReplaceAll(l.enum, ",", ", "), strings.ReplaceAll(r.enum, ",", ", "))
		return value{}, false
	case l.boolVal && r.boolVal:
	case l.kind == kindEnum || r.kind == kindEnum:
		other := r
		if r.kind == kindEnum {
			other = l
		}
		c.errorf(x.OpPos, "comparison %s of an enumeration value with %s: compare it with a constant or a variable of its enumeration", x.Op, other.kind)
		return value{}, false
	default:
		c.errorf(x.OpPos, "comparison %s of a boolean variable with %s: compare it with true, false or a boolean variable, or use it as a condition", x.Op, describeValue(l, r))
		return value{}, false
	}
	return value{kind: kindBool, f: presburger.Compare(l.t, cmpOps[x.Op], r.t)}, true
}

// describeValue names the side of a comparison that is not a boolean
// variable or constant.
func describeValue(l, r value) string {
	if l.boolVal {
		l = r
	}
	if l.kind == kindBool {
		return "a condition"
	}
	return l.kind.String()
}

// groupSet resolves a list of group names into sorted indices; nil
// stays nil (every group). ok is false when a name did not resolve.
func (c *checker) groupSet(ids []*Ident, where string) (out []int, ok bool) {
	if ids == nil {
		return nil, true
	}
	ok = true
	out = []int{}
	for _, id := range ids {
		g, okG := c.group(id, where)
		switch {
		case !okG:
			ok = false
		case contains(out, g):
			c.errorf(id.NamePos, "group %s listed twice%s", id.Name, where)
			ok = false
		default:
			out = append(out, g)
		}
	}
	sort.Ints(out)
	return out, ok
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// guard resolves a step's single guard (of a rendezvous or an
// environment step), nil when it does not check.
func (c *checker) guard(g *GuardDecl, name string) presburger.Formula {
	if g.X == nil {
		return nil
	}
	v, ok := c.expr(g.X, guardMode, " in guard of "+name)
	switch {
	case !ok:
		return nil
	case v.kind != kindBool:
		c.errorf(g.X.Pos(), "guard of %s is %s; expected a condition such as %q", name, v.kind, "#C = 0")
		return nil
	}
	return v.f
}
