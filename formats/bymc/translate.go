package bymc

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Load reads the threshold automaton at path and translates it (Translate).
func Load(path string) (*formats.Import, error) { return formats.Load(path, Translate) }

// Translate parses the threshold automaton src and translates it into a
// GSST:
//
//   - its locations are the local states, its processes one group named
//     after the automaton, whose size is the sum the inits give the
//     locations it starts in (N - F: a size over the parameters);
//   - its parameters and assumptions are the GSST's, its shared
//     variables integers from 0 with the initial values the inits give;
//   - each rule is a transition between its locations with its guard and
//     its actions as an update (rules between the same locations with
//     the same actions are one transition whose guard is either rule's);
//     a self-loop that changes nothing is left out when no property
//     needs it (spec.go);
//   - each specification is a property (spec.go).
//
// The result carries every error with its position in src; missing
// constructs are listed in Import.Missing.
func Translate(filename string, src []byte) *formats.Import {
	imp := &formats.Import{Format: "ta", Source: filename}
	f, err := ParseFile(filename, src)
	if err != nil {
		imp.Errors = err.(gsst.ErrorList)
	}
	if f == nil || err != nil {
		return imp
	}
	t := &translator{f: f, imp: imp, kinds: map[string]kind{}, loc: map[string]int{}, shared: map[string]int{},
		param: map[string]int{}, macros: map[string]*Define{}, expanding: map[string]bool{}}
	t.translate()
	if len(imp.Missing) == 0 && len(imp.Errors) == 0 {
		if _, err := gsst.New(imp.Spec); err != nil {
			imp.Errors = append(imp.Errors, err.(gsst.ErrorList)...)
		}
	}
	return imp
}

type translator struct {
	f    *File
	imp  *formats.Import
	spec *gsst.Spec

	kinds     map[string]kind
	declared  map[string]gsst.Pos
	loc       map[string]int // location -> state
	shared    map[string]int // shared variable -> index in Spec.Shared
	param     map[string]int // parameter -> index in Spec.Params
	macros    map[string]*Define
	expanding map[string]bool // macros being written out, against cycles

	// idle lists the self-loops that change nothing: left out when every
	// property is a safety property, added (idle steps) otherwise.
	idle        []idleRule
	transitions *formats.Transitions
	// initBounds holds what the inits say of each shared variable's
	// initial value (sharedBound, sharedValue), for sharedRanges.
	initBounds []initBound
}

func (t *translator) declare(id *Ident, k kind) bool {
	if t.declared == nil {
		t.declared = map[string]gsst.Pos{}
	}
	if prev, dup := t.declared[id.Name]; dup {
		t.errorf(id.Pos, "%s is declared twice (first at %s, as a %s)", id.Name, prev, t.kinds[id.Name])
		return false
	}
	t.declared[id.Name] = id.Pos
	t.kinds[id.Name] = k
	return true
}

func (t *translator) translate() {
	f := t.f
	base := filepath.Base(f.Name)
	s := &gsst.Spec{Name: strings.TrimSuffix(base, filepath.Ext(base)), File: f.Name}
	t.spec = s
	t.imp.Spec = s
	notes := &t.imp.Notes
	notes.Header = append(notes.Header,
		fmt.Sprintf("Converted by vsym from %s, threshold automaton %s in ByMC's format.", base, f.Automaton.Name),
		fmt.Sprintf("Every process runs the automaton; group %s holds them all. The locations", f.Automaton.Name),
		"are the local states, the rules the transitions; the macros are written out.")
	if len(f.Header) > 0 {
		notes.Header = append(notes.Header, "", "The source's own comments:")
		for _, c := range f.Header {
			for _, line := range strings.Split(strings.TrimSpace(c.Text), "\n") {
				notes.Header = append(notes.Header, "  "+strings.TrimSpace(line))
			}
		}
	}
	locals := 0
	for _, d := range f.Decls {
		for _, id := range d.Names {
			switch d.Kind {
			case LOCAL:
				if t.declare(id, localVar) {
					locals++
				}
			case SHARED:
				if t.declare(id, sharedVar) {
					t.shared[id.Name] = len(s.Shared)
					v := gsst.Shared{Name: formats.SafeName(id.Name), Lo: 0, Unbounded: true, Pos: id.Pos, TypePos: id.Pos, InitPos: f.InitsPos}
					note := "shared variable " + id.Name
					if v.Name != id.Name {
						note += fmt.Sprintf(" (renamed: %s is reserved in GSST expressions)", id.Name)
					}
					s.Shared = append(s.Shared, v)
					notes.Shared = append(notes.Shared, note)
				}
			case PARAMETERS:
				if t.declare(id, param) {
					t.param[id.Name] = len(s.Params)
					name := id.Name
					if name != "n" {
						name = formats.SafeName(name)
					}
					s.Params = append(s.Params, gsst.Param{Name: name, Pos: id.Pos})
					notes.Params = append(notes.Params, "")
				}
			case UNKNOWNS:
				t.declare(id, unknown)
			}
		}
	}
	for _, d := range f.Decls {
		if d.Kind == UNKNOWNS {
			t.errorf(d.Pos, "unknowns %s: an automaton with unknowns is a problem of ByMC's synthesis of thresholds; vsym checks an automaton whose guards are known", d.Names[0].Name)
			return
		}
	}
	for _, d := range f.Defines {
		if t.declare(d.Name, macro) {
			t.macros[d.Name.Name] = d
		}
	}
	for _, l := range f.Locations {
		if !t.declare(l.Name, location) {
			continue
		}
		if len(l.Values) != locals {
			t.errorf(l.Name.Pos, "location %s gives %d values, for %d local variables", l.Name.Name, len(l.Values), locals)
		}
		t.loc[l.Name.Name] = len(s.States)
		s.States = append(s.States, l.Name.Name)
		notes.States = append(notes.States, strings.Trim(strings.ReplaceAll(fmt.Sprint(l.Values), " ", "; "), ""))
	}
	if len(s.States) == 0 {
		t.errorf(f.LocationsPos, "the automaton has no location")
		return
	}
	if len(f.Defines) > 0 {
		var defs []string
		for _, d := range f.Defines {
			defs = append(defs, d.Name.Name)
		}
		notes.Header = append(notes.Header, "", "Macros of the source, written out where they are used: "+strings.Join(defs, ", ")+".")
	}
	// The one group, filled in by inits: the variables of formulas
	// (presburger.Var) are numbered after the counters of the groups.
	s.Groups = []gsst.Group{{Name: f.Automaton.Name, Pos: f.Automaton.Pos, Size: 1}}
	s.Init = [][]int{make([]int, len(s.States))}
	t.assumptions()
	t.inits()
	t.rules()
	t.specs()
}

// initBound is what the inits say of a shared variable's initial
// value: given by an equation (value), or bounded by inequalities, the
// least a constant and the greatest over the parameters.
type initBound struct {
	value, bounded bool
	refused, hasLo bool
	lo             int64
	hi             *lin
	pos            gsst.Pos // of the first bound
}

// mirror flips a comparison for its operands swapped.
var mirror = map[Token]Token{EQ: EQ, NE: NE, LT: GT, LE: GE, GT: LT, GE: LE}

// bound returns the record of shared variable j.
func (t *translator) bound(j int) *initBound {
	if t.initBounds == nil {
		t.initBounds = make([]initBound, len(t.spec.Shared))
	}
	return &t.initBounds[j]
}

// sharedValue records that an equation gives shared variable j, x, its
// initial value: with bounds too it is refused.
func (t *translator) sharedValue(j int, x *NameExpr) {
	b := t.bound(j)
	b.value = true
	if b.bounded && !b.refused {
		b.refused = true
		t.sharedInitRange(x, "is given both an initial value and a bound")
	}
}

// sharedBound reads "x op e", a bound of the initial values of shared
// variable j, x: a least value (x >= c, x > c) that is a constant, a
// greatest (x <= e, x < e) over the parameters, at most one of each.
// ByMC's variables are natural numbers: a least value below 0 is 0.
func (t *translator) sharedBound(j int, x *NameExpr, op Token, e Expr, where string) {
	b := t.bound(j)
	refuse := func(why string) {
		if !b.refused {
			b.refused = true
			t.sharedInitRange(x, why)
		}
	}
	if b.value {
		refuse("is given both an initial value and a bound")
		return
	}
	v, ok := t.term(e, reads{params: true, where: where})
	if !ok {
		return
	}
	if !b.bounded {
		b.bounded, b.pos = true, x.Ident.Pos
	}
	switch op {
	case GE, GT:
		if !v.term.IsConst() {
			refuse(fmt.Sprintf("starts at any value with %s %s %s, a least value over the parameters (which may be below 0, where ByMC's natural numbers start)", x.Name, op, v.text))
			return
		}
		if b.hasLo {
			refuse("has two least initial values")
			return
		}
		lo := v.term.Const
		if op == GT {
			lo++
		}
		b.lo, b.hasLo = max(lo, 0), true
	case LE, LT:
		if b.hi != nil {
			refuse("has two greatest initial values")
			return
		}
		if op == LT {
			v.term = v.term.Sub(presburger.ConstTerm(1))
			v.text = paren(v.text, v.prec, sumPrec) + " - 1"
			v.prec = sumPrec
		}
		b.hi = &v
	default:
		refuse(fmt.Sprintf("starts at any value with %s %s %s", x.Name, op, v.text))
	}
}

// sharedRanges makes the bounds of every shared variable's initial
// values its range: from the least (0 when none) to the greatest, or up
// with none (gsst/initial.go).
func (t *translator) sharedRanges() {
	for j := range t.initBounds {
		b := &t.initBounds[j]
		if !b.bounded || b.refused {
			continue
		}
		v := &t.spec.Shared[j]
		v.InitRange, v.Init, v.InitPos = true, int(b.lo), b.pos
		switch {
		case b.hi == nil:
			v.InitNoHi = true
		case b.hi.term.IsConst() && b.hi.term.Const < b.lo:
			t.errorf(b.pos, "inits: shared variable %s starts in the empty range %d..%d", v.Name, b.lo, b.hi.term.Const)
		case b.hi.term.IsConst():
			v.InitHi = int(b.hi.term.Const)
		default:
			v.InitHiTerm, v.InitHi = b.hi.term, v.Init
			v.InitText = strconv.FormatInt(b.lo, 10) + ".." + b.hi.text
		}
	}
}

// assumptions makes the conjunction of the assumptions the GSST's assume.
func (t *translator) assumptions() {
	var fs []presburger.Formula
	var texts []string
	for i, x := range t.f.Assumptions {
		c, ok := t.condition(x, reads{params: true, where: fmt.Sprintf("assumption %d", i+1)})
		if !ok {
			continue
		}
		fs = append(fs, c.f)
		texts = append(texts, wrapOperand(c.text, c.prec))
	}
	if len(fs) > 0 {
		t.spec.Assume = gsst.Assumption{Formula: presburger.Conj(fs...), Text: strings.Join(texts, " & "), Pos: t.f.AssumptionsPos}
		t.imp.Notes.Assume = []string{"the assumptions (resilience condition)"}
	}
}

// inits reads the initial condition: equations "loc1 + ... + lock == e"
// over the parameters, each location in at most one, and "x == c" for
// the shared variables.
func (t *translator) inits() {
	f, s := t.f, t.spec
	sharedInit := make([]*Ident, len(s.Shared))
	var groups []initSum
	seen := map[string]gsst.Pos{}
	for i, x := range f.Inits {
		b, ok := unparen(x).(*BinaryExpr)
		where := fmt.Sprintf("initial condition %d", i+1)
		if ok {
			_, ok = cmpOps[b.Op]
		}
		if !ok {
			t.errorf(x.Pos(), "%s: vsym reads initial conditions of the form loc1 + loc2 == e (e over the parameters) and x == e", where)
			continue
		}
		lhs, rhs, op := b.X, b.Y, b.Op
		if t.paramsOnly(lhs) && !t.paramsOnly(rhs) {
			lhs, rhs, op = rhs, lhs, mirror[op]
		}
		if b.Op != EQ {
			// A bound of a range of initial values.
			if n, isName := unparen(lhs).(*NameExpr); isName && t.kinds[n.Name] == sharedVar {
				j := t.shared[n.Name]
				if sharedInit[j] == nil {
					sharedInit[j] = &n.Ident
				}
				t.sharedBound(j, n, op, rhs, where)
				continue
			}
			if locs, ok := t.locationSum(lhs, where); ok {
				for _, l := range locs {
					seen[l] = b.OpPos
				}
				t.splitInit(b.OpPos, fmt.Sprintf("%s %s ... gives a range of initial numbers", strings.Join(locs, " + "), b.Op))
			}
			continue
		}
		if n, isName := unparen(lhs).(*NameExpr); isName && t.kinds[n.Name] == sharedVar {
			j := t.shared[n.Name]
			if b := t.bound(j); b.bounded {
				t.sharedValue(j, n) // refused: a bound came first
				continue
			}
			if sharedInit[j] != nil {
				t.errorf(n.Ident.Pos, "%s: shared variable %s is given an initial value twice (first at %s)", where, n.Name, sharedInit[j].Pos)
				continue
			}
			sharedInit[j] = &n.Ident
			t.sharedValue(j, n)
			v, ok := t.term(rhs, reads{params: true, where: where})
			if !ok {
				continue
			}
			s.Shared[j].InitPos = n.Ident.Pos
			if !v.term.IsConst() {
				// One value at each instance (gsst/initial.go).
				s.Shared[j].InitTerm, s.Shared[j].InitText = v.term, v.text
				continue
			}
			if v.term.Const < 0 {
				t.errorf(rhs.Pos(), "%s: shared variable %s starts at %d, below 0", where, n.Name, v.term.Const)
				continue
			}
			s.Shared[j].Init = int(v.term.Const)
			continue
		}
		locs, ok := t.locationSum(lhs, where)
		if !ok {
			continue
		}
		size, ok := t.term(rhs, reads{params: true, where: where})
		if !ok {
			continue
		}
		for _, l := range locs {
			if prev, dup := seen[l]; dup {
				t.errorf(b.OpPos, "%s: location %s is in two initial conditions (first at %s)", where, l, prev)
				ok = false
			}
			seen[l] = b.OpPos
		}
		if ok && !(size.term.IsConst() && size.term.Const == 0) {
			groups = append(groups, initSum{locs, size, b.OpPos})
		}
	}
	for j, id := range sharedInit {
		if id == nil {
			t.sharedInitAny(j)
		}
	}
	t.sharedRanges()
	groups, inert := t.withoutInert(groups)
	var free []string
	for _, l := range s.States {
		if _, ok := seen[l]; !ok {
			free = append(free, l)
		}
	}
	switch {
	case len(free) > 0:
		t.splitInit(f.InitsPos, fmt.Sprintf("the inits do not constrain the number of processes in %s", strings.Join(free, ", ")))
	case len(groups) == 0:
		t.errorf(f.InitsPos, "the inits place no process in any location")
	case len(groups) > 1:
		var parts []string
		for _, g := range groups {
			parts = append(parts, strings.Join(g.locs, " + ")+" == "+g.size.text)
		}
		t.splitInit(groups[0].pos, "the processes start in several locations, any number in each ("+strings.Join(parts, "; ")+")")
	default:
		g := groups[0]
		grp := &s.Groups[0]
		grp.SizePos = g.pos
		if g.size.term.IsConst() {
			grp.Size = int(g.size.term.Const)
		} else {
			grp.Size, grp.SizeTerm, grp.SizeTermText = 1, g.size.term, g.size.text
		}
		// The processes start in the equation's locations, any number in
		// each (gsst/initial.go): all in the first is one configuration.
		var over []int
		for _, l := range g.locs {
			over = append(over, t.loc[l])
		}
		slices.Sort(over)
		s.Init[0][over[0]] = grp.Size
		s.InitPos = []gsst.InitPos{{Pos: g.pos}}
		note := fmt.Sprintf("every process; they start in %s", g.locs[0])
		if len(over) > 1 {
			s.InitOver = [][]int{over}
			note = fmt.Sprintf("every process; they start in %s, any number in each", strings.Join(g.locs, ", "))
		}
		if grp.OverParams() {
			note += "; instances where the size is below 1 are not in the family"
		}
		for _, in := range inert {
			note += fmt.Sprintf("; the processes that start in %s (%s == %s) are left out: no rule takes them out and nothing reads where they are", strings.Join(in.locs, ", "), strings.Join(in.locs, " + "), in.size.text)
		}
		t.imp.Notes.Groups = []string{note}
	}
}

// initSum is an equation of the inits, "loc1 + loc2 == size".
type initSum struct {
	locs []string
	size lin
	pos  gsst.Pos
}

// withoutInert leaves out of sums those whose processes are inert, when
// at least one sum stays: every location of the sum is one that no rule
// leaves but by a self-loop that changes nothing, and that no guard,
// action, property or macro reads, and its size is at least 0 at every
// value of the parameters. Its processes then never move and nothing
// reads where they are: the system without them has the same runs over
// every other location and every shared variable. (random19's ben-or and
// kset start Fi processes crashed, in locCR: "locCR == Fi".)
func (t *translator) withoutInert(sums []initSum) (kept, inert []initSum) {
	if len(sums) < 2 {
		return sums, nil
	}
	read := map[string]bool{}
	for _, r := range t.f.Rules {
		if r.From.Name != r.To.Name || slices.ContainsFunc(r.Actions, func(a *Action) bool { return !unchanged(a) }) {
			read[r.From.Name] = true
		}
		names(r.Guard, read)
		for _, a := range r.Actions {
			names(a.X, read)
		}
	}
	for _, sp := range t.f.Specs {
		names(sp.X, read)
	}
	for _, d := range t.f.Defines {
		names(d.X, read)
	}
	for _, sum := range sums {
		quiet := sum.size.term.Const >= 0
		for _, m := range sum.size.term.Monos {
			quiet = quiet && m.Coef >= 0 // parameters are at least 0
		}
		for _, l := range sum.locs {
			quiet = quiet && !read[l]
		}
		if quiet {
			inert = append(inert, sum)
		} else {
			kept = append(kept, sum)
		}
	}
	if len(kept) == 0 {
		return sums, nil
	}
	return kept, inert
}

// unchanged reports whether action a keeps its variable as it is:
// unchanged(x), or x' == x.
func unchanged(a *Action) bool {
	n, isName := unparen(a.X).(*NameExpr)
	return a.X == nil || isName && n.Name == a.Var.Name && !n.Prime
}

// names adds to set the names x reads.
func names(x Expr, set map[string]bool) {
	switch x := x.(type) {
	case *NameExpr:
		set[x.Name] = true
	case *ParenExpr:
		names(x.X, set)
	case *UnaryExpr:
		names(x.X, set)
	case *BinaryExpr:
		names(x.X, set)
		names(x.Y, set)
	}
}

// locationSum reads "loc1 + loc2 + ..." (in parentheses or not).
func (t *translator) locationSum(x Expr, where string) ([]string, bool) {
	switch x := unparen(x).(type) {
	case *NameExpr:
		if t.kinds[x.Name] == location && !x.Prime {
			return []string{x.Name}, true
		}
	case *BinaryExpr:
		if x.Op == ADD {
			a, ok1 := t.locationSum(x.X, where)
			b, ok2 := t.locationSum(x.Y, where)
			return append(a, b...), ok1 && ok2
		}
	}
	t.errorf(x.Pos(), "%s: vsym reads initial conditions of the form loc1 + loc2 == e (e over the parameters) and x == e", where)
	return nil, false
}

// rules translates the rules.
func (t *translator) rules() {
	t.transitions = formats.NewTransitions(t.spec, &t.imp.Notes)
	for _, r := range t.f.Rules {
		t.rule(r)
	}
	if len(t.spec.Groups) == 0 {
		return
	}
}

func (t *translator) rule(r *Rule) {
	s := t.spec
	where := fmt.Sprintf("guard of rule %d", r.Label)
	from, ok1 := t.ruleLoc(r.From, r)
	to, ok2 := t.ruleLoc(r.To, r)
	guard := cond{f: presburger.True}
	ok3 := true
	if r.Guard != nil {
		guard, ok3 = t.condition(r.Guard, reads{locations: true, shared: true, params: true, where: where})
	}
	update, ok4 := t.actions(r)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return
	}
	note := t.ruleNote(r)
	text := guard.text
	if guard.text == "true" || r.Guard == nil {
		text = ""
	}
	groups := make([]int, len(s.Groups))
	for g := range groups {
		groups[g] = g
	}
	pos := r.When
	if r.Guard != nil {
		pos = r.Guard.Pos()
	}
	tr := gsst.Transition{From: from, To: to, Pos: r.Pos,
		Blocks: []gsst.Block{{Groups: groups, Guard: guard.f, Text: text, Pos: pos, Update: update}}}
	if from == to && len(update.Assign) == 0 {
		t.idle = append(t.idle, idleRule{r, tr, note})
		return
	}
	// A self-loop that updates is a step like the others; several rules
	// between two locations with different actions are named r<label>.
	t.transitions.Add(tr, fmt.Sprintf("r%d", r.Label), update.Text, note)
}

// idleRule is a self-loop that changes nothing, its transition and its
// comment.
type idleRule struct {
	rule *Rule
	tr   gsst.Transition
	note []string
}

// addIdle adds the idle self-loops as idle steps: a process may stay in
// their locations for ever, which liveness and fairness read.
func (t *translator) addIdle() {
	for _, r := range t.idle {
		t.transitions.Add(r.tr, fmt.Sprintf("r%d", r.rule.Label), "", r.note)
	}
}

func (t *translator) ruleLoc(id *Ident, r *Rule) (int, bool) {
	if t.kinds[id.Name] != location {
		t.errorf(id.Pos, "rule %d: %s is not a location", r.Label, id.Name)
		return 0, false
	}
	return t.loc[id.Name], true
}

// ruleNote is the comment before a transition: the comments before the
// rule and the rule as written.
func (t *translator) ruleNote(r *Rule) []string {
	var out []string
	for _, c := range r.Doc {
		if text := strings.Join(strings.Fields(c.Text), " "); text != "" {
			out = append(out, text)
		}
	}
	return append(out, fmt.Sprintf("rule %d (line %d): %s", r.Label, r.Pos.Line, r.Text))
}

// actions translates the actions of a rule into an update: "x' == e"
// for shared variables, each at most once, where e adds to x a number
// that is never negative (ByMC's threshold automata only count up);
// unchanged(x) and x' == x change nothing.
func (t *translator) actions(r *Rule) (gsst.Update, bool) {
	s := t.spec
	type assign struct {
		a    gsst.Assign
		text string
	}
	var as []assign
	type seenAction struct {
		pos      gsst.Pos
		identity bool
	}
	seen := map[string]seenAction{}
	ok := true
	where := fmt.Sprintf("action of rule %d", r.Label)
	for _, a := range r.Actions {
		if t.kinds[a.Var.Name] != sharedVar {
			t.errorf(a.Var.Pos, "rule %d assigns %s, which is a %s, not a shared variable", r.Label, a.Var.Name, t.kinds[a.Var.Name])
			ok = false
			continue
		}
		identity := unchanged(a)
		if prev, dup := seen[a.Var.Name]; dup {
			if !identity || !prev.identity {
				// ByMC conjoins the two, and a rule whose actions
				// contradict each other never fires.
				t.errorf(a.Var.Pos, "rule %d gives %s' twice, differently (first at %s)", r.Label, a.Var.Name, prev.pos)
				ok = false
			}
			continue
		}
		seen[a.Var.Name] = seenAction{a.Var.Pos, identity}
		if identity {
			continue // unchanged
		}
		v, good := t.term(a.X, reads{shared: true, params: true, where: where})
		if !good {
			ok = false
			continue
		}
		j := t.shared[a.Var.Name]
		x := s.SharedVar(j)
		inc := v.term.Sub(presburger.VarTerm(x))
		if len(inc.Monos) == 0 && inc.Const == 0 {
			continue // x' == x
		}
		if !nonnegative(inc, s) {
			t.errorf(a.X.Pos(), "rule %d: %s' == %s does not add a number that is never negative to %s; ByMC's threshold automata only count up (x' == x + c)",
				r.Label, a.Var.Name, v.text, a.Var.Name)
			ok = false
			continue
		}
		as = append(as, assign{gsst.Assign{Var: x, Value: v.term}, s.Shared[j].Name + " := " + v.text})
	}
	var u gsst.Update
	if len(as) > 0 {
		// In the order of the shared variables, so that equal updates
		// have equal texts.
		slices.SortFunc(as, func(a, b assign) int { return int(a.a.Var - b.a.Var) })
		texts := make([]string, len(as))
		for i, a := range as {
			u.Assign = append(u.Assign, a.a)
			texts[i] = a.text
		}
		u.Text = strings.Join(texts, "; ")
		u.Pos = r.Actions[0].Var.Pos
	}
	return u, ok
}

// nonnegative reports whether term is never negative: a constant and
// parameters (which are never negative) with coefficients of at least 0.
func nonnegative(term presburger.Term, s *gsst.Spec) bool {
	if term.Const < 0 {
		return false
	}
	for _, m := range term.Monos {
		if _, isParam := s.ParamOf(m.Var); !isParam || m.Coef < 0 {
			return false
		}
	}
	return true
}
