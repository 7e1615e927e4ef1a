package gsst

import (
	"sort"
	"strconv"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// checker resolves the names of a File and builds its Spec, which
// newSystem then checks against the rules every System meets.
type checker struct {
	sys    *Spec
	states map[string]int
	groups map[string]int
	// quiet about unresolved states or groups when their declaration
	// was missing or malformed
	statesBad, groupsBad bool
	errs                 ErrorList

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
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(pos, format, args...)
}

// check builds the Spec of f. Errors go to c.errs; the Spec is only
// meaningful when there are none.
func check(f *File, file string, opt options) (*Spec, ErrorList) {
	c := &checker{
		sys:       &Spec{Name: f.Name, File: file},
		states:    map[string]int{},
		groups:    map[string]int{},
		statesBad: f.StatesBad,
		groupsBad: f.GroupsBad,
		allSizes:  opt.allSizes,
	}
	c.declare(f)
	c.init(f)
	// Guards mention n, so they need the group sizes; they are checked even
	// when the sizes are wrong (n is then whatever the valid sizes add to),
	// so that the user sees every error at once.
	c.transitions(f)
	c.properties(f)
	c.fairness(f)
	return c.sys, c.errs
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
	total := int64(0)
	for _, g := range f.Groups {
		if _, dup := c.groups[g.Name.Name]; dup {
			c.errorf(g.Name.NamePos, "duplicate group %q", g.Name.Name)
			continue
		}
		grp := c.groupSize(g)
		// With ranges the limit applies to the smallest instance; larger
		// ones are refused when instantiated.
		if total <= MaxProcesses && total+int64(grp.Size) > MaxProcesses {
			c.errorf(g.SizePos, "too many processes: with group %q the total exceeds the limit of %d", g.Name.Name, MaxProcesses)
		}
		total += int64(grp.Size)
		if c.allSizes {
			grp.Size, grp.Ranged, grp.Max = 1, true, Unbounded
		}
		c.groups[g.Name.Name] = len(c.sys.Groups)
		c.sys.Groups = append(c.sys.Groups, grp)
	}
}

// groupSize checks the size (or range of sizes) of a group declaration.
// A bad size is reported and replaced by one in range, so that the rest
// of the file is still checked. A range N..N is the fixed size N.
func (c *checker) groupSize(g *GroupDecl) Group {
	grp := Group{Name: g.Name.Name, Size: 1, Pos: g.Name.NamePos}
	if !g.SizeOK {
		return grp
	}
	least := "size"
	if g.Ranged {
		least = "least size"
	}
	switch size := g.Size; {
	case size < 1:
		c.errorf(g.SizePos, "group %q has %s %d; a group needs at least one process", g.Name.Name, least, size)
	case size > MaxProcesses:
		c.errorf(g.SizePos, "group %q has %s %d, above the limit of %d processes", g.Name.Name, least, size, MaxProcesses)
		grp.Size = MaxProcesses
	default:
		grp.Size = int(size)
	}
	switch {
	case !g.Ranged:
	case g.Unbounded:
		grp.Ranged, grp.Max = true, Unbounded
	case g.Max < g.Size:
		c.errorf(g.SizePos, "empty range %d..%d of sizes for group %q: the greatest size is below the least", g.Size, g.Max, g.Name.Name)
	case g.Max > MaxProcesses:
		c.errorf(g.SizePos, "group %q has greatest size %d, above the limit of %d processes (write %d.. for no greatest size)", g.Name.Name, g.Max, MaxProcesses, g.Size)
	case int(g.Max) > grp.Size:
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

func (c *checker) init(f *File) {
	in := f.Init
	sys := c.sys
	sys.Init = make([][]int, len(sys.Groups))
	for g := range sys.Init {
		sys.Init[g] = make([]int, len(sys.States))
	}
	if in == nil {
		return
	}
	if in.All != nil {
		if s, ok := c.state(in.All, " in init"); ok {
			for g := range sys.Groups {
				sys.Init[g][s] = sys.Groups[g].Size
			}
		}
		return
	}
	seen := make([]bool, len(sys.Groups))
	for _, gi := range in.Groups {
		g, ok := c.group(gi.Group, " in init")
		if !ok {
			// Still resolve the states, to report unknown ones.
			c.state(gi.State, " in init")
			for _, ic := range gi.Counts {
				c.state(ic.State, " in init")
			}
			continue
		}
		seen[g] = true
		size := int64(sys.Groups[g].Size)
		if gi.State == nil && gi.Counts != nil && sys.Groups[g].Ranged {
			why := ""
			if c.allSizes {
				why = " (every group is read for all sizes)"
			}
			c.errorf(gi.Group.NamePos, "init of group %q gives counts per state, but its size is the range %s%s: a group of variable size starts with all its processes in one state",
				gi.Group.Name, sys.Groups[g].SizeText(), why)
			for _, ic := range gi.Counts {
				c.state(ic.State, " in init")
			}
			continue
		}
		if gi.State != nil {
			if s, ok := c.state(gi.State, " in init"); ok {
				sys.Init[g][s] = int(size)
			}
			continue
		}
		if gi.Counts == nil {
			continue // already reported by the decoder
		}
		sum, valid := int64(0), true
		for _, ic := range gi.Counts {
			s, ok := c.state(ic.State, " in init")
			switch {
			case ic.Count < 0:
				c.errorf(ic.CountPos, "negative number of processes %d in init of group %q", ic.Count, gi.Group.Name)
				valid = false
			case ic.Count > size:
				c.errorf(ic.CountPos, "%d processes in state %q, but group %q has only %d", ic.Count, ic.State.Name, gi.Group.Name, size)
				valid = false
			case ok:
				sys.Init[g][s] = int(ic.Count)
				sum += ic.Count
			default:
				valid = false
			}
		}
		if valid && sum != size {
			c.errorf(gi.Group.NamePos, "init of group %q places %d processes, but the group has %d", gi.Group.Name, sum, size)
		}
	}
	for g, ok := range seen {
		if !ok {
			c.errorf(in.Pos, "init gives no initial state for group %q", sys.Groups[g].Name)
		}
	}
}

func (c *checker) transitions(f *File) {
	sys := c.sys
	type edge struct{ from, to int }
	seen := map[edge]Pos{}
	// ownedBy[g] is 1 + the index of the last transition whose guard keys
	// named group g, at ownerPos[g]: one slice for all transitions rather
	// than a map per transition, which showed when a thousand groups
	// share a guard key.
	ownedBy := make([]int, len(sys.Groups))
	ownerPos := make([]Pos, len(sys.Groups))
	for i, td := range f.Transitions {
		from, okFrom := c.state(td.From, " in transition")
		to, okTo := c.state(td.To, " in transition")
		name := "transition"
		if td.From != nil && td.To != nil {
			name = td.From.Name + " -> " + td.To.Name
		}
		t := Transition{From: from, To: to, Pos: td.Pos}
		if okFrom && okTo {
			switch prev, dup := seen[edge{from, to}]; {
			case from == to:
				c.errorf(td.Pos, "self-loop %s: a local transition must change the state", name)
			case dup:
				c.errorf(td.Pos, "transition %s given twice (first at %s); put all its guards in one entry", name, prev)
			default:
				seen[edge{from, to}] = td.Pos
			}
		}
		if !td.Guarded {
			t.Blocks = []Block{{Groups: c.allGroups(), Guard: presburger.True, Pos: td.Pos}}
		}
		where := " in guard of " + name
		for _, gd := range td.Guards {
			b := Block{Text: gd.Text, Pos: gd.Pos, Guard: presburger.False}
			if gd.Shared {
				b.Groups = c.allGroups()
			}
			for _, id := range gd.Groups {
				g, ok := c.group(id, where)
				if !ok {
					continue
				}
				if ownedBy[g] == i+1 {
					c.errorf(id.NamePos, "group %q has two guards in %s (the other at %s)", id.Name, name, ownerPos[g])
					continue
				}
				ownedBy[g], ownerPos[g] = i+1, id.NamePos
				b.Groups = append(b.Groups, g)
			}
			sort.Ints(b.Groups)
			if gd.X != nil {
				if v, ok := c.expr(gd.X, guardMode, where); ok {
					if v.kind != kindBool {
						c.errorf(gd.X.Pos(), "guard of %s is an integer expression; expected a condition such as %q", name, "#C = 0")
					} else {
						b.Guard = v.f
					}
				}
			}
			t.Blocks = append(t.Blocks, b)
		}
		sys.Transitions = append(sys.Transitions, t)
	}
}

func (c *checker) allGroups() []int {
	out := make([]int, len(c.sys.Groups))
	for i := range out {
		out[i] = i
	}
	return out
}

func (c *checker) properties(f *File) {
	seen := map[string]Pos{}
	for _, pd := range f.Properties {
		if prev, dup := seen[pd.Name.Name]; dup {
			c.errorf(pd.Name.NamePos, "duplicate property %q (first at %s)", pd.Name.Name, prev)
		}
		seen[pd.Name.Name] = pd.Name.NamePos
		p := Property{Name: pd.Name.Name, Text: pd.Text, Pos: pd.Pos, Syntax: pd.X}
		if pd.X != nil {
			if v, ok := c.expr(pd.X, propMode, " in property "+pd.Name.Name); ok {
				if v.kind == kindInt {
					c.errorf(pd.X.Pos(), "property %s is an integer expression; expected a CTL formula such as %q", pd.Name.Name, "AG #C <= 1")
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
)

// stateOnly says why a mode has no temporal operators.
func (m mode) stateOnly() string {
	if m == justiceMode {
		return "a justice condition is a condition on one configuration, met infinitely often on a fair path"
	}
	return "guards are conditions on the current configuration"
}

type kind int

const (
	kindInt  kind = iota // a linear term
	kindBool             // a Presburger formula
	kindCTL              // a CTL formula with temporal operators
)

func (k kind) String() string {
	return [...]string{kindInt: "an integer expression", kindBool: "a condition", kindCTL: "a temporal formula"}[k]
}

// value is the meaning of an expression.
type value struct {
	kind kind
	t    presburger.Term
	f    presburger.Formula
	c    ctl.Formula
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
			if !c.nKnown {
				c.n, c.nKnown = presburger.ConstTerm(int64(c.sys.N())), true
				if c.sys.Parametric() {
					c.n = presburger.VarTerm(c.sys.NVar())
				}
			}
			return value{kind: kindInt, t: c.n}, true
		case "true":
			return value{kind: kindBool, f: presburger.True}, true
		case "false":
			return value{kind: kindBool, f: presburger.False}, true
		}
		hint := ""
		if _, isState := c.states[x.Name]; isState {
			hint = "; write #" + x.Name + " for the number of processes in state " + x.Name
		}
		c.errorf(x.NamePos, "unknown name %q%s (expected n, true, false or a counter #S / #S[g])%s", x.Name, where, hint)
		return v, false

	case *CounterExpr:
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
			case kindInt:
				c.errorf(x.OpPos, "operand of ! is an integer expression, not a condition")
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
		if y.kind == kindInt {
			c.errorf(x.OpPos, "operand of %s is an integer expression, not a formula", x.Op)
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
		if l.kind == kindInt || r.kind == kindInt {
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

// New checks s and returns its System: the one way, with Parse and Load,
// to build a System from a description. Generators and tests fill in a
// Spec and call New; the System is checked once, here, and every analysis
// then trusts it. New keeps a copy of s, so later changes to s do not
// reach the System.
//
// The rules are those every System meets, whether parsed or built
// (Parse runs them after the checker, on the Spec it builds). They are: group sizes in 0..MaxProcesses and at most MaxProcesses
// processes in all (in the smallest instance, for ranges); ranges of
// sizes from at least 1 to a greater size within MaxProcesses, or
// Unbounded; an initial configuration with one row per group and one
// count per state, nonnegative and summing to the group's (least) size,
// all in one state for a ranged group;
// transitions between distinct states in range, each group in at most one
// block, guards present, quantifier-free and over the system's counters
// (and NVar, in a parametric system); properties present, with known CTL
// operators and atoms over the same variables; justice conditions over
// the same variables and weak fairness of transitions the system has, by
// groups that may take them. The result is an ErrorList (errors.Is(err,
// errkind.Input) holds), with the positions the spec carries.
func New(s *Spec) (*System, error) {
	if s == nil {
		return nil, ErrorList{{Msg: "no system"}}
	}
	sys, errs := newSystem(s.clone())
	if len(errs) > 0 {
		return nil, errs
	}
	return sys, nil
}

// newSystem checks s against the rules of New and, when it meets them,
// returns the System that owns it.
func newSystem(s *Spec) (*System, ErrorList) {
	if errs := s.rules(); len(errs) > 0 {
		return nil, errs
	}
	return &System{*s}, nil
}

// rules reports, sorted, every rule of New that s breaks.
func (s *Spec) rules() ErrorList {
	var errs ErrorList
	at := func(pos Pos, format string, args ...any) { errs.Add(pos, format, args...) }
	m, d := len(s.States), len(s.Groups)
	if m == 0 {
		at(Pos{File: s.File}, "system has no local state")
	}
	n := 0
	for _, g := range s.Groups {
		if g.Size < 0 || g.Size > MaxProcesses {
			at(g.Pos, "group %s has size %d, outside 0..%d", g.Name, g.Size, MaxProcesses)
			continue
		}
		if g.Ranged {
			switch {
			case g.Size < 1:
				at(g.Pos, "group %s has the range of sizes %s; a ranged group has at least one process", g.Name, g.SizeText())
			case g.Max != Unbounded && (g.Max <= g.Size || g.Max > MaxProcesses):
				at(g.Pos, "group %s has the range of sizes %d..%d; the greatest size must lie in %d..%d (or be Unbounded)", g.Name, g.Size, g.Max, g.Size+1, MaxProcesses)
			}
		}
		n += g.Size
	}
	if n > MaxProcesses {
		at(Pos{File: s.File}, "%d processes exceed the limit of %d", n, MaxProcesses)
	}
	s.checkInit(at)
	for i := range s.Transitions {
		t := &s.Transitions[i]
		if t.From < 0 || t.From >= m || t.To < 0 || t.To >= m {
			at(t.Pos, "transition %d has a state out of range", i)
			continue
		}
		name := s.TransitionName(t)
		if t.From == t.To {
			at(t.Pos, "self-loop %s: a local transition must change the state", name)
		}
		seen := make([]bool, d)
		for _, b := range t.Blocks {
			for _, g := range b.Groups {
				switch {
				case g < 0 || g >= d:
					at(b.Pos, "transition %s: group %d out of range", name, g)
				case seen[g]:
					at(b.Pos, "transition %s: group %s is in two blocks", name, s.Groups[g].Name)
				default:
					seen[g] = true
				}
			}
			if b.Guard == nil {
				at(b.Pos, "transition %s: missing guard", name)
				continue
			}
			s.checkFormula(b.Guard, "guard of "+name, b.Pos, at)
		}
	}
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Formula == nil {
			at(p.Pos, "property %s has no formula", p.Name)
			continue
		}
		s.checkCTL(p.Formula, "property "+p.Name, p.Pos, at)
	}
	s.checkFairness(at)
	errs.Sort()
	return errs
}

func (s *Spec) checkInit(at func(Pos, string, ...any)) {
	pos := Pos{File: s.File}
	if len(s.Init) != len(s.Groups) {
		at(pos, "initial configuration has %d groups, want %d", len(s.Init), len(s.Groups))
		return
	}
	for g, row := range s.Init {
		grp := s.Groups[g]
		if len(row) != len(s.States) {
			at(grp.Pos, "initial configuration of group %s has %d states, want %d", grp.Name, len(row), len(s.States))
			continue
		}
		sum := 0
		for st, c := range row {
			if c < 0 || c > MaxProcesses {
				at(grp.Pos, "initial count %d of group %s in state %s is out of range", c, grp.Name, s.States[st])
				sum = -1
				break
			}
			sum += c
		}
		if sum >= 0 && sum != grp.Size {
			at(grp.Pos, "initial counts of group %s sum to %d, want its size %d", grp.Name, sum, grp.Size)
		}
		if _, one := s.InitState(g); sum > 0 && grp.Ranged && !one {
			at(grp.Pos, "initial processes of group %s are in several states; a ranged group starts with all its processes in one state", grp.Name)
		}
	}
}

// checkFairness checks that every justice condition is a formula over the
// system's counters and that every weak fairness constraint names a
// transition and, when it is per group, a group that may take it.
func (s *Spec) checkFairness(at func(Pos, string, ...any)) {
	for i := range s.Fairness.Justice {
		j := &s.Fairness.Justice[i]
		if j.Formula == nil {
			at(j.Pos, "justice condition %d has no formula", i+1)
			continue
		}
		s.checkFormula(j.Formula, "justice condition "+strconv.Itoa(i+1), j.Pos, at)
	}
	for _, w := range s.Fairness.Weak {
		switch {
		case w.Transition < 0 || w.Transition >= len(s.Transitions):
			at(w.Pos, "weak fairness of transition %d, which the system does not have", w.Transition)
		case w.Group < -1 || w.Group >= len(s.Groups):
			at(w.Pos, "weak fairness of %s: group %d out of range", s.TransitionName(&s.Transitions[w.Transition]), w.Group)
		case w.Group >= 0 && s.Transitions[w.Transition].BlockOf(w.Group) == nil:
			at(w.Pos, "weak fairness of %s: group %s cannot take it", s.TransitionName(&s.Transitions[w.Transition]), s.Groups[w.Group].Name)
		}
	}
}

// checkFormula reports a quantifier or a variable that is not a counter
// of s in f.
func (s *Spec) checkFormula(f presburger.Formula, where string, pos Pos, at func(Pos, string, ...any)) {
	if !presburger.IsQuantifierFree(f) {
		at(pos, "%s has a quantifier, which the GSST language does not have", where)
		return
	}
	param := s.Parametric()
	for _, v := range presburger.FreeVars(f) {
		if _, _, ok := s.Counter(v); ok || param && v == s.NVar() {
			continue
		}
		if param {
			at(pos, "%s uses variable %d, which is neither a counter nor n", where, v)
		} else {
			at(pos, "%s uses variable %d, which is not a counter (n is a constant when the group sizes are)", where, v)
		}
		return
	}
}

// checkCTL checks the operators and the atoms of a property.
func (s *Spec) checkCTL(f ctl.Formula, where string, pos Pos, at func(Pos, string, ...any)) {
	if err := ctl.Validate(f); err != nil {
		at(pos, "%s: %v", where, err)
		return
	}
	for _, a := range ctl.Atoms(f) {
		s.checkFormula(a, where, pos, at)
	}
}
