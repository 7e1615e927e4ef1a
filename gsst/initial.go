package gsst

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// The initial configurations: what the init key and the init of every
// shared variable allow, in one place. The paper's GSST has one initial
// configuration; a system may have a set of them:
//
//   - a group whose processes spread over several states, any number in
//     each, zero included (Spec.InitOver: `init: {correct: [V0, V1]}`,
//     ByMC's `loc0 + loc1 = n - f`), for a group of any size, fixed,
//     ranged or over the parameters;
//   - a shared variable that starts at any value of a range
//     (Shared.InitRange: `init: 0..3`), whose bounds may be linear
//     expressions over the parameters and either left out (`0..f`,
//     `f..f + 1`, `0..`, `..3`; read through InitLow, InitHigh and
//     InitSeveral), or at a linear expression over the parameters
//     (Shared.InitTerm: `init: n - f`), a single value at each instance.
//
// The set is the product of the groups' distributions and the shared
// variables' values. InitialFormula says it as a formula over the
// system's variables, for the stages that work on formulas (the
// parametric model, certification's witnesses); Initials lists it, at an
// instance, for the stages that work on states (the engines, the
// exports, the oracles), which FiniteInitial refuses a range with no
// greatest value (InitialsUpTo caps it, for replaying prove's runs); SingleInitial says whether it is the paper's one
// configuration (InitConfig). A property holds when it holds in every
// initial configuration.

// initOverParams says what an initial value written as an expression
// may read.
const initOverParams = "an initial value is a constant or an expression over the parameters"

// MaxInitials bounds the initial configurations Initials lists: beyond
// it an instance is refused with errkind.Limit, as a state space beyond
// its bound is.
const MaxInitials = 1 << 16

// initRange matches an integer range of initial values: "0..3", "-2..2".
var initRange = lazyRegexp(`^(-?[0-9]+)\.\.(-?[0-9]+)$`)

// initOver reads a list of initial states.
func (d *decoder) initOver(n *yaml.Node) []*Ident {
	if len(n.Content) == 0 {
		d.errorf(d.pos(n), "empty list of initial states")
		return nil
	}
	var out []*Ident
	for _, e := range n.Content {
		if !d.want(e, yaml.ScalarNode, "an initial state") {
			return nil
		}
		id := d.ident(e, "initial state")
		if id == nil {
			return nil
		}
		out = append(out, id)
	}
	return out
}

// sharedInitSet reads an initial value of a shared variable that is a
// set or a term: a range Lo..Hi, or an expression over the parameters. It
// reports false for the other forms, which decodeShared reads.
func (d *decoder) sharedInitSet(sd *SharedDecl, v *yaml.Node) bool {
	if v.Tag != "!!str" || isName(v.Value) {
		return false
	}
	if m := initRange().FindStringSubmatch(v.Value); m != nil {
		lo, err1 := strconv.ParseInt(m[1], 10, 64)
		hi, err2 := strconv.ParseInt(m[2], 10, 64)
		if err1 != nil || err2 != nil {
			d.errorf(d.pos(v), "range of initial values %s is out of range", v.Value)
			return true
		}
		sd.InitInt, sd.InitHi, sd.InitRange, sd.InitOK = lo, hi, true, true
		return true
	}
	sd.InitText = v.Value
	if i := strings.Index(v.Value, ".."); i >= 0 {
		sd.InitRange, sd.InitOK = true, true
		bound := func(from, to int) Expr {
			text := v.Value[from:to]
			lead := len(text) - len(strings.TrimLeft(text, " \t"))
			if strings.TrimSpace(text) == "" {
				return nil
			}
			at := d.offsets(v)
			x, err := parseExpr(text[lead:], func(off int) Pos { return at(from + lead + off) })
			if err != nil {
				d.errs = append(d.errs, err)
				sd.InitOK = false
			}
			return x
		}
		sd.InitX, sd.InitHiX = bound(0, i), bound(i+2, len(v.Value))
		if sd.InitOK && sd.InitX == nil && sd.InitHiX == nil {
			d.errorf(d.pos(v), "range of initial values %q has no bound; write its least value, its greatest or both (0.., 0..f, ..3)", v.Value)
			sd.InitOK = false
		}
		return true
	}
	sd.InitX = d.parseString(v)
	sd.InitOK = sd.InitX != nil
	return true
}

// overStates resolves a list of initial states to their indices, in
// increasing order.
func (c *checker) overStates(ids []*Ident) ([]int, bool) {
	var out []int
	ok := true
	for _, id := range ids {
		s, found := c.state(id, " in init")
		switch {
		case !found:
			ok = false
		case slices.Contains(out, s):
			c.errorf(id.NamePos, "state %q is listed twice in init", id.Name)
			ok = false
		default:
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out, ok
}

// setOver makes the processes of group g start spread over states, any
// number in each: Init[g] holds the configuration with all of them in
// the first.
func (c *checker) setOver(g int, states []int, pos Pos) {
	sys := c.sys
	sys.InitPos[g].Pos = pos
	sys.Init[g][states[0]] = sys.Groups[g].Size
	if len(states) > 1 {
		if sys.InitOver == nil {
			sys.InitOver = make([][]int, len(sys.Groups))
		}
		sys.InitOver[g] = states
	}
}

// initOver resolves the list of states a group's processes spread over.
func (c *checker) initOver(g int, ids []*Ident, pos Pos) {
	states, ok := c.overStates(ids)
	if !ok {
		c.src.rows[g] = rowSkip
		return
	}
	c.setOver(g, states, pos)
}

// allOver resolves "init: [S1, S2, ...]": every group spreads over them.
func (c *checker) allOver(ids []*Ident, pos Pos) {
	states, ok := c.overStates(ids)
	for g := range c.sys.Groups {
		if !ok {
			c.src.rows[g] = rowSkip
			continue
		}
		c.setOver(g, states, pos)
	}
}

// initSet resolves an initial value of v that is a range, and reports
// whether sd's is a set or a term (a name that is a parameter
// included), which initialValue does not read. A term is resolved by
// initTerms, once the variables of the parameters are numbered.
func (c *checker) initSet(v *Shared, sd *SharedDecl, ss *sharedSrc) bool {
	switch {
	case sd.InitRange && sd.InitText != "":
		// Bounds written as expressions: initTerms resolves them.
		if v.Bool || v.Values != nil {
			c.errorf(sd.InitPos, "a range of initial values needs an integer variable; %s is %s", v.Name, v.TypeText())
			ss.initOK = false
			return true
		}
		v.InitRange, v.InitText, v.Init, v.InitHi = true, sd.InitText, v.Lo, v.Lo
		switch {
		case sd.InitHiX != nil:
		case v.Unbounded:
			v.InitNoHi = true
		default:
			// Up to the greatest value of the domain.
			v.InitHi = v.Hi
		}
		return true
	case sd.InitRange:
		if v.Bool || v.Values != nil {
			c.errorf(sd.InitPos, "a range of initial values needs an integer variable; %s is %s", v.Name, v.TypeText())
			ss.initOK = false
			return true
		}
		if sd.InitInt > MaxValue || sd.InitInt < -MaxValue || sd.InitHi > MaxValue || sd.InitHi < -MaxValue {
			c.errorf(sd.InitPos, "initial values %d..%d of %s are beyond the limit of %d", sd.InitInt, sd.InitHi, v.Name, MaxValue)
			ss.initOK = false
			return true
		}
		// A range of one value is that value ("45..45" is 45): a system
		// with one initial configuration is read as such everywhere
		// (prove's cheap paths key on it: mist's extendedread-write
		// with its places so written took 12 s, 0.00 s as values).
		v.Init, v.InitHi, v.InitRange = int(sd.InitInt), int(sd.InitHi), sd.InitInt != sd.InitHi
		return true
	case sd.InitX != nil:
	case sd.InitName != nil && v.Values == nil && !v.Bool:
		if nm, found := c.names[sd.InitName.Name]; !found || nm.param < 0 {
			return false
		}
		sd.InitX, sd.InitText = &NameExpr{Name: sd.InitName.Name, NamePos: sd.InitName.NamePos}, sd.InitName.Name
	default:
		return false
	}
	if v.Bool || v.Values != nil {
		want := "one of its constants " + v.TypeText()
		if v.Bool {
			want = "true or false"
		}
		c.errorf(sd.InitPos, "initial value of %s must be %s, not an expression", v.Name, want)
		ss.initOK = false
	}
	return true
}

// initTerms resolves the initial values written as expressions over the
// parameters: a value, or the bounds of a range.
func (c *checker) initTerms(f *File) {
	for j, sd := range f.Shared {
		if sd.InitX == nil && sd.InitHiX == nil || !sd.InitOK || !sd.TypeOK || j >= len(c.sys.Shared) || !c.src.shared[j].initOK {
			continue
		}
		v := &c.sys.Shared[j]
		ok := true
		if sd.InitX != nil {
			ok = c.initBound(v, sd, sd.InitX, &v.InitTerm, &v.Init, v.Lo)
			if !v.InitTerm.IsConst() && !v.InitRange {
				v.InitText = sd.InitText
			}
		}
		if sd.InitRange && sd.InitHiX != nil {
			ok = c.initBound(v, sd, sd.InitHiX, &v.InitHiTerm, &v.InitHi, v.Init) && ok
		}
		if !ok {
			c.src.shared[j].initOK = false
		}
	}
}

// initBound resolves x, an initial value of v or a bound of its range,
// into *value when it is constant, else into *term, with *value the
// placeholder; false after an error.
func (c *checker) initBound(v *Shared, sd *SharedDecl, x Expr, term *presburger.Term, value *int, placeholder int) bool {
	e, ok := c.expr(x, initMode, " in the initial value of "+v.Name)
	switch {
	case !ok:
	case e.kind != kindInt:
		c.errorf(x.Pos(), "initial value of %s is %s; expected an integer or an expression over the parameters such as %q", v.Name, e.kind, "n - f")
	case e.t.IsConst() && (e.t.Const > MaxValue || e.t.Const < -MaxValue):
		c.errorf(sd.InitPos, "initial value %d of %s is beyond the limit of %d", e.t.Const, v.Name, MaxValue)
	case e.t.IsConst():
		*value = int(e.t.Const)
		return true
	default:
		*term, *value = e.t, placeholder
		return true
	}
	return false
}

// checkInitial checks the rules of the initial sets: a group's spread
// lists two states or more, increasingly, and Init places the group in
// the first; a range of initial values lies in its variable's domain,
// and has no greatest value only for a variable that has none; a term
// reads only parameters that are not fixed.
func (s *Spec) checkInitial(src *source, at func(Pos, string, ...any)) {
	if s.InitOver != nil && len(s.InitOver) != len(s.Groups) {
		at(Pos{File: s.File}, "InitOver has %d groups, want %d", len(s.InitOver), len(s.Groups))
		return
	}
	for g, over := range s.InitOver {
		if over == nil || g >= len(s.Init) {
			continue
		}
		pos := s.Groups[g].Pos
		if g < len(s.InitPos) && s.InitPos[g].Pos.Line != 0 {
			pos = s.InitPos[g].Pos
		}
		if len(over) < 2 {
			at(pos, "init of group %q spreads over %d states; a spread needs two or more", s.Groups[g].Name, len(over))
			continue
		}
		for i, st := range over {
			if st < 0 || st >= len(s.States) || i > 0 && st <= over[i-1] {
				at(pos, "init of group %q spreads over states %v, not distinct states in increasing order", s.Groups[g].Name, over)
				break
			}
		}
		if st, ok := s.InitState(g); !ok || st != over[0] {
			at(pos, "init of group %q spreads over several states but does not place the group in the first of them", s.Groups[g].Name)
		}
	}
	for j := range s.Shared {
		v := &s.Shared[j]
		pos := v.InitPos
		if pos.Line == 0 {
			pos = v.Pos
		}
		if j < len(src.shared) && (!src.shared[j].initOK || !src.shared[j].typeOK) {
			continue
		}
		if !v.InitRange && (v.InitNoHi || !v.InitHiTerm.IsConst()) {
			at(pos, "shared variable %s has a bound of a range of initial values (InitNoHi or InitHiTerm) but no range (InitRange)", v.Name)
			continue
		}
		if v.InitRange {
			bounded := v.InitTerm.IsConst() && v.InitHiTerm.IsConst() && !v.InitNoHi
			switch {
			case v.Bool || v.Values != nil:
				at(pos, "a range of initial values needs an integer variable; %s is %s", v.Name, v.TypeText())
			case v.InitNoHi && !v.Unbounded:
				at(pos, "the range of initial values of %s has no greatest value, but its domain %s has one", v.Name, v.TypeText())
			case v.InitNoHi && !v.InitHiTerm.IsConst():
				at(pos, "the range of initial values of %s has no greatest value and a greatest over the parameters", v.Name)
			case bounded && v.InitHi > MaxValue:
				at(pos, "initial value %d of %s is beyond the limit of %d", v.InitHi, v.Name, MaxValue)
			case bounded && v.InitHi < v.Init:
				at(pos, "empty range of initial values %d..%d of %s", v.Init, v.InitHi, v.Name)
			case v.InitHiTerm.IsConst() && !v.InitNoHi && !v.Contains(v.InitHi):
				at(pos, "initial value %d of %s is outside its domain %s", v.InitHi, v.Name, v.TypeText())
			}
		}
		for _, t := range []presburger.Term{v.InitTerm, v.InitHiTerm} {
			if t.IsConst() {
				continue
			}
			switch {
			case v.Bool || v.Values != nil:
				at(pos, "initial value of %s over the parameters needs an integer variable", v.Name)
			case !fits(t):
				at(pos, "the initial value of %s has a constant beyond the limit of %d", v.Name, MaxConstant)
			}
			for _, m := range t.Monos {
				if k, ok := s.ParamOf(m.Var); !ok || s.Params[k].Fixed {
					at(pos, "the initial value of %s reads %s; it may read only parameters that are not fixed", v.Name, s.VarName(m.Var))
					break
				}
			}
		}
	}
}

// InitLow returns the initial value of v, or the least of its range, as
// a term over the parameters (a constant when it reads none).
func (v *Shared) InitLow() presburger.Term {
	if !v.InitTerm.IsConst() {
		return v.InitTerm
	}
	return presburger.ConstTerm(int64(v.Init))
}

// InitHigh returns the greatest initial value of v as a term over the
// parameters, InitLow's but for a range, and false for a range with no
// greatest value.
func (v *Shared) InitHigh() (presburger.Term, bool) {
	switch {
	case !v.InitRange:
		return v.InitLow(), true
	case v.InitNoHi:
		return presburger.Term{}, false
	case !v.InitHiTerm.IsConst():
		return v.InitHiTerm, true
	}
	return presburger.ConstTerm(int64(v.InitHi)), true
}

// InitSeveral reports whether v may start at several values at one
// instance: a range that is not one value.
func (v *Shared) InitSeveral() bool {
	return v.InitRange && (v.InitNoHi || !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() || v.InitHi > v.Init)
}

// SingleInitial reports whether s has one initial configuration at each
// instance, InitConfig's (the paper's GSSTs): no group spreads and no
// shared variable starts in a range.
func (s *Spec) SingleInitial() bool {
	for _, over := range s.InitOver {
		if over != nil {
			return false
		}
	}
	for j := range s.Shared {
		if s.Shared[j].InitSeveral() {
			return false
		}
	}
	return true
}

// InitText writes the initial value of shared variable j as written:
// its value, its range, or its term over the parameters.
func (s *Spec) InitText(j int) string {
	v := &s.Shared[j]
	name := func(x presburger.Var) string { return s.VarName(x) }
	switch {
	case v.InitText != "" && (!v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() || v.InitNoHi):
		return v.InitText
	case v.InitRange:
		hi, ok := v.InitHigh()
		text := v.InitLow().Format(name) + ".."
		if ok {
			text += hi.Format(name)
		}
		return text
	case !v.InitTerm.IsConst():
		return v.InitTerm.Format(name)
	}
	return v.ValueName(v.Init)
}

// InitialFormula returns the initial configurations of s as a formula
// over its variables: the group counters GroupVar(s, g), the shared
// variables SharedVar(j), and, in a family, the sizes SizeVar(g) of
// groups whose size varies and the parameters ParamVar(k). A stage that
// numbers its variables otherwise substitutes them.
func (s *Spec) InitialFormula() presburger.Formula {
	return s.InitialFormulaJoined(nil)
}

// InitialFormulaJoined is InitialFormula with the processes of each
// group g whose join[g] is another group h counted as h's: g's counters
// are zero, and h's spread sums to the sizes of h and of every group
// joined to it (join nil, or join[g] = g, keeps g as it is). Groups
// joined must start spread over the same states: the configurations it
// states then have, state by state, the totals of InitialFormula's (the
// processes of a state's total can be split among the groups in any
// way that gives each its size), which is what a total-counter model
// reads of them.
func (s *Spec) InitialFormulaJoined(join []int) presburger.Formula {
	var parts []presburger.Formula
	eq := func(v presburger.Var, t presburger.Term) {
		parts = append(parts, presburger.Compare(presburger.VarTerm(v), presburger.Eq, t))
	}
	sizeOf := func(g int) presburger.Term {
		grp := &s.Groups[g]
		if grp.Ranged || grp.OverParams() {
			return presburger.VarTerm(s.SizeVar(g))
		}
		return presburger.ConstTerm(int64(grp.Size))
	}
	for g := range s.Groups {
		if join != nil && join[g] != g {
			for st := range s.States {
				eq(s.GroupVar(st, g), presburger.ConstTerm(0))
			}
			continue
		}
		size := sizeOf(g)
		for h := range join {
			if h != g && join[h] == g {
				size = size.Add(sizeOf(h))
			}
		}
		var over []int
		if s.InitOver != nil {
			over = s.InitOver[g]
		}
		if over == nil {
			for st := range s.States {
				eq(s.GroupVar(st, g), s.InitCount(g, st))
			}
			continue
		}
		var sum presburger.Term
		for st := range s.States {
			if !slices.Contains(over, st) {
				eq(s.GroupVar(st, g), presburger.ConstTerm(0))
				continue
			}
			parts = append(parts, presburger.Compare(presburger.VarTerm(s.GroupVar(st, g)), presburger.Ge, presburger.ConstTerm(0)))
			sum = sum.Add(presburger.VarTerm(s.GroupVar(st, g)))
		}
		parts = append(parts, presburger.Compare(sum, presburger.Eq, size))
	}
	return presburger.Conj(append(parts, s.InitialShared())...)
}

// InitCount returns the number of processes of group g in state st in
// every initial configuration, for a group that starts in one state (no
// spread): its size in its initial state (SizeVar(g) when the size
// varies), as Init says elsewhere.
func (s *Spec) InitCount(g, st int) presburger.Term {
	if first, ok := s.InitState(g); ok && st == first {
		if grp := &s.Groups[g]; grp.Ranged || grp.OverParams() {
			return presburger.VarTerm(s.SizeVar(g))
		}
	}
	return presburger.ConstTerm(int64(s.Init[g][st]))
}

// InitialShared returns the part of InitialFormula about the shared
// variables SharedVar(j): each at its value, in its range, or at its term
// over the parameters ParamVar(k).
func (s *Spec) InitialShared() presburger.Formula {
	var parts []presburger.Formula
	for j := range s.Shared {
		v := &s.Shared[j]
		x := presburger.VarTerm(s.SharedVar(j))
		lo := v.InitLow()
		hi, bounded := v.InitHigh()
		switch {
		case !v.InitRange:
			parts = append(parts, presburger.Compare(x, presburger.Eq, lo))
		case bounded:
			parts = append(parts, presburger.Compare(x, presburger.Ge, lo), presburger.Compare(x, presburger.Le, hi))
		default:
			parts = append(parts, presburger.Compare(x, presburger.Ge, lo))
		}
	}
	return presburger.Conj(parts...)
}

// FiniteInitial returns an error at the position of the range (an
// errkind.Input) when a shared variable of s starts at any value of a
// range with no greatest: an instance then has infinitely many initial
// configurations, which the stages that work at an instance (Initials,
// the engines, the exports) cannot take.
func (s *Spec) FiniteInitial() error {
	for j := range s.Shared {
		v := &s.Shared[j]
		if !v.InitNoHi {
			continue
		}
		pos := v.InitPos
		if pos.Line == 0 {
			pos = v.Pos
		}
		lo := v.InitLow().Format(func(x presburger.Var) string { return s.VarName(x) })
		var errs ErrorList
		errs.Add(pos, "%s: shared variable %s starts at any value from %s up (init: %s), so an instance has infinitely many initial configurations, which explore, abstract, nusmv and promela cannot take: vsym prove decides the system for every initial value, or give the range a greatest value (init: %s..K)",
			s.Name, v.Name, lo, s.InitText(j), lo)
		return errs.Err()
	}
	return nil
}

// Initials returns the initial configurations of an instance, InitConfig
// first, in a fixed order: the groups' distributions vary fastest in the
// last group and, within a group, in its last states; the shared values
// vary slowest. More than MaxInitials of them is an errkind.Limit; a
// family (whose terms are not folded) is an internal error.
func (s *Spec) Initials() ([]Config, error) {
	if s.Parametric() {
		return nil, errkind.Errorf(errkind.Internal, "gsst: Initials of the family %s; instantiate it first", s.Name)
	}
	for j := range s.Shared {
		if v := &s.Shared[j]; !v.InitTerm.IsConst() || !v.InitHiTerm.IsConst() {
			return nil, errkind.Errorf(errkind.Internal, "gsst: Initials with the initial value of %s over the parameters; instantiate the system first", s.Shared[j].Name)
		}
	}
	if err := s.FiniteInitial(); err != nil {
		return nil, err
	}
	count := 1.0
	for g, over := range s.InitOver {
		if over != nil {
			count *= compositions(s.Groups[g].Size, len(over))
		}
	}
	for j := range s.Shared {
		if v := &s.Shared[j]; v.InitRange {
			count *= float64(v.InitHi-v.Init) + 1
		}
	}
	if count > MaxInitials {
		return nil, errkind.Errorf(errkind.Limit, "%s has about %.3g initial configurations, more than the %d vsym lists", s.Name, count, MaxInitials)
	}
	// Each group's distributions, all processes in the first state first.
	dists := make([][][]int, len(s.Groups))
	for g := range s.Groups {
		if s.InitOver == nil || s.InitOver[g] == nil {
			dists[g] = [][]int{s.Init[g]}
			continue
		}
		over := s.InitOver[g]
		part := make([]int, len(over))
		var rec func(i, left int)
		rec = func(i, left int) {
			if i == len(over)-1 {
				part[i] = left
				row := make([]int, len(s.States))
				for k, st := range over {
					row[st] = part[k]
				}
				dists[g] = append(dists[g], row)
				return
			}
			for k := left; k >= 0; k-- {
				part[i] = k
				rec(i+1, left-k)
			}
		}
		rec(0, s.Groups[g].Size)
	}
	var out []Config
	shared := s.InitShared()
	counts := make([][]int, len(s.Groups))
	var groups func(g int)
	groups = func(g int) {
		if g == len(s.Groups) {
			c := Config{Counts: make([][]int, len(counts)), Shared: slices.Clone(shared)}
			for i, row := range counts {
				c.Counts[i] = slices.Clone(row)
			}
			out = append(out, c)
			return
		}
		for _, row := range dists[g] {
			counts[g] = row
			groups(g + 1)
		}
	}
	var values func(j int)
	values = func(j int) {
		if j == len(s.Shared) {
			groups(0)
			return
		}
		v := &s.Shared[j]
		hi := v.Init
		if v.InitRange {
			hi = v.InitHi
		}
		for k := v.Init; k <= hi; k++ {
			shared[j] = k
			values(j + 1)
		}
		shared[j] = v.Init
	}
	values(0)
	return out, nil
}

// InitialWith returns the initial configuration of the instance s whose
// total counters are totals and, where not nil, whose group counters
// are counts and whose shared values are shared (the least initial
// values when nil: Initials lists those first); ok is false when it has
// none. It lists nothing, so it answers where Initials would list too
// many (a group of 1,000 processes spread over three states), except
// when counts is nil and two groups or more start spread: the totals
// may then be split among them in several ways, and known is false.
func (s *Spec) InitialWith(totals []int, counts [][]int, shared []int) (c Config, ok, known bool) {
	c = Config{Counts: counts, Shared: shared}
	if shared == nil {
		c.Shared = s.InitShared()
	}
	if counts == nil {
		// Each group that starts in its states of Init takes them; the
		// one spread group, if any, takes what remains of the totals.
		spread := -1
		c.Counts = make([][]int, len(s.Groups))
		rest := slices.Clone(totals)
		for g := range s.Groups {
			if s.InitOver != nil && s.InitOver[g] != nil {
				if spread >= 0 {
					return Config{}, false, false
				}
				spread = g
				continue
			}
			c.Counts[g] = slices.Clone(s.Init[g])
			for st, k := range s.Init[g] {
				rest[st] -= k
			}
		}
		if spread >= 0 {
			c.Counts[spread] = rest
		} else if slices.ContainsFunc(rest, func(k int) bool { return k != 0 }) {
			return Config{}, false, true
		}
	}
	if !slices.Equal(c.Totals(len(s.States)), totals) {
		return Config{}, false, true
	}
	return c, s.IsInitial(c), true
}

// IsInitial reports whether c is an initial configuration of the
// instance s: each group in its initial state or spread over its
// initial states with its size, each shared variable at its initial
// value or in its range.
func (s *Spec) IsInitial(c Config) bool {
	if len(c.Counts) != len(s.Groups) || len(c.Shared) != len(s.Shared) {
		return false
	}
	for g, row := range c.Counts {
		if len(row) != len(s.States) {
			return false
		}
		if s.InitOver == nil || s.InitOver[g] == nil {
			if !slices.Equal(row, s.Init[g]) {
				return false
			}
			continue
		}
		sum := 0
		for st, k := range row {
			if k < 0 || k > 0 && !slices.Contains(s.InitOver[g], st) {
				return false
			}
			sum += k
		}
		if sum != s.Groups[g].Size {
			return false
		}
	}
	for j := range s.Shared {
		v := &s.Shared[j]
		x := c.Shared[j]
		switch {
		case !v.InitRange:
			if x != v.Init {
				return false
			}
		case x < v.Init || !v.InitNoHi && x > v.InitHi:
			return false
		}
	}
	return true
}

// compositions returns the number of ways to place n processes in k
// states (n+k-1 choose k-1), as a float: it only bounds the listing.
func compositions(n, k int) float64 {
	r := 1.0
	for i := 1; i < k; i++ {
		r = r * float64(n+i) / float64(i)
	}
	return r
}

// foldInitTerms returns the shared variables of an instance whose
// parameters have the values pv: every initial value over the
// parameters, and every bound of a range, becomes its value there; the
// values must lie in the variable's domain, and a range must not be
// empty.
func (s *Spec) foldInitTerms(pv func(presburger.Var) int64) ([]Shared, error) {
	out := slices.Clone(s.Shared)
	for j := range out {
		v := &out[j]
		if v.InitTerm.IsConst() && v.InitHiTerm.IsConst() {
			continue
		}
		text := s.InitText(j)
		fold := func(t presburger.Term) (int, error) {
			k, ok := t.Value(pv)
			if !ok || k > MaxValue || k < -MaxValue || !v.Contains(int(k)) {
				return 0, errkind.Errorf(errkind.Input, "%s: the initial value %s of %s is %s, outside its domain %s",
					s.Name, text, v.Name, t.BigValue(pv), v.TypeText())
			}
			return int(k), nil
		}
		lo, err := fold(v.InitLow())
		if err != nil {
			return nil, err
		}
		hi := lo
		if t, bounded := v.InitHigh(); bounded && v.InitRange {
			if hi, err = fold(t); err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, errkind.Errorf(errkind.Input, "%s: the range of initial values %s of %s is %d..%d, empty", s.Name, text, v.Name, lo, hi)
			}
		}
		v.Init, v.InitHi, v.InitTerm, v.InitHiTerm, v.InitText = lo, hi, presburger.Term{}, presburger.Term{}, ""
		if !v.InitRange {
			v.InitHi = 0
		}
	}
	return out, nil
}

// initDomains returns, for a family, what its parameters must satisfy
// for every initial value over them to lie in its variable's domain, and
// every range over them to hold a value.
func (s *Spec) initDomains() []presburger.Formula {
	var out []presburger.Formula
	for j := range s.Shared {
		v := &s.Shared[j]
		if v.InitTerm.IsConst() && v.InitHiTerm.IsConst() {
			continue
		}
		lo := v.InitLow()
		hi, bounded := v.InitHigh()
		out = append(out, presburger.Compare(lo, presburger.Ge, presburger.ConstTerm(int64(v.Lo))))
		if bounded && !v.Unbounded {
			out = append(out, presburger.Compare(hi, presburger.Le, presburger.ConstTerm(int64(v.Hi))))
		}
		if bounded && v.InitRange {
			out = append(out, presburger.Compare(lo, presburger.Le, hi))
		}
	}
	return out
}

// OneInitial returns an errkind.Input error naming what when s has more
// than one initial configuration at an instance, or an initial value over
// the parameters, for the stages that do not take initial sets yet.
func (s *Spec) OneInitial(what string) error {
	terms := false
	for j := range s.Shared {
		terms = terms || !s.Shared[j].InitTerm.IsConst()
	}
	switch {
	case !s.SingleInitial():
		return errkind.Errorf(errkind.Input, "%s: %s takes one initial configuration, and this system has several (a group spread over several states or a shared variable with a range of initial values); vsym explore takes them", s.Name, what)
	case terms && s.Parametric():
		return errkind.Errorf(errkind.Input, "%s: %s does not take initial values over the parameters yet; vsym explore takes them at an instance (--params)", s.Name, what)
	}
	return nil
}

// InitMax returns the greatest initial value of v at an instance: InitHi
// for a range, Init otherwise (and for a range with no greatest value,
// which the stages that read InitMax refuse first: FiniteInitial).
func (v *Shared) InitMax() int {
	if v.InitRange && !v.InitNoHi {
		return max(v.Init, v.InitHi)
	}
	return v.Init
}

// InitialsUpTo returns the instance s with every range of initial values
// that has no greatest ending at hi (at its least, when hi is below
// it): some of s's initial configurations, finitely many. A run from
// them is a run of s, so a property that fails there fails in s; the
// stages that refute at an instance explore it when s has infinitely
// many (FiniteInitial). s itself when it has no such range.
func (s *System) InitialsUpTo(hi int) *System {
	if s.FiniteInitial() == nil {
		return s
	}
	out := &System{s.spec}
	out.Shared = slices.Clone(s.Shared)
	for j := range out.Shared {
		if v := &out.Shared[j]; v.InitNoHi {
			v.InitNoHi, v.InitHi = false, min(max(hi, v.Init), MaxValue)
		}
	}
	return out
}
