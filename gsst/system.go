package gsst

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Limits on what a GSST file may ask for, and on the values a run may
// reach. Within them a coefficient times a value is at most 1e18, but a
// sum of many such products is not bounded by int64: every value is
// computed exactly (package presburger) and checked against its limit,
// never wrapped around.
const (
	MaxProcesses = 1_000_000     // total number of processes n
	MaxConstant  = 1_000_000_000 // magnitude of any constant or coefficient in a guard
)

// Spec is the description of a GSST before it is checked: what the
// checker builds from a file, and what generators and tests fill in by
// hand. No analysis takes a Spec; New checks it and returns the System.
//
// Counter variables: TotalVar(s) is #S, the number of processes in local
// state s; GroupVar(s, g) is #S[g], the number of processes of group g in
// s. Guards and properties may use both.
//
// A spec whose group sizes are all fixed describes an instance: one
// structure. When some group's size is a range (Group.Ranged), it is
// parametric: a family of instances, one per choice of sizes in the
// ranges. n is then not a constant: guards and properties read it as the
// variable NVar, which every instance fixes to the sum of its group
// sizes. SizeVar(g) names the size of group g, for formulas about the
// whole family (certification for all sizes, parametric counter models);
// SizeBounds and SizeSum say what the size variables and n may be.
// System.Instantiate returns the instance of given sizes, on which
// everything that needs fixed sizes works. A fixed-size system has n
// folded to its value, exactly as if ranges did not exist.
type Spec struct {
	Name   string
	File   string
	States []string
	Groups []Group
	Init   [][]int // Init[g][s]: processes of group g that start in state s
	// InitOver[g], when not nil, lists the states (two or more,
	// increasing) over which the processes of group g start, any number
	// in each (initial.go); Init[g] then places them all in the first.
	// InitOver is nil when no group spreads.
	InitOver [][]int
	// InitPos, in a Spec read from a file, says where each row of Init
	// was written, for the messages of New; nil when built by hand.
	InitPos     []InitPos
	Transitions []Transition
	Properties  []Property
	// Fairness restricts the paths the path quantifiers of properties
	// range over; the zero value restricts nothing.
	Fairness Fairness

	// Beyond the paper (shared.go): shared variables, parameters and
	// their assumption, and rendezvous steps. Broadcasts are part of
	// Transitions, updates part of Blocks.
	Shared     []Shared
	Params     []Param
	Assume     Assumption
	Rendezvous []Rendezvous
	// Environment are the steps no process takes by its own choice
	// (environment.go).
	Environment []Environment

	// steps are the transitions and rendezvous lowered to steps
	// (step.go), set when a System is sealed; nil in a Spec being
	// described, whose Steps are lowered when asked for.
	steps []Step
}

// spec lets System embed Spec in an unexported field: its fields and
// methods are promoted, but no other package can write a System literal
// with content.
type spec = Spec

// System is a checked GSST: every name is resolved, every guard is a
// Presburger formula over the system's counter variables, n (the number
// of processes) has been replaced by its value in an instance, and every
// rule of New holds. Only this package builds one, as only go/types'
// checker builds a *types.Package: Parse and Load from a file, New from a
// Spec, and Instantiate, Smallest, WithProperties,
// WithDerivedProperties, WithRangedSizes, NarrowInitial, PinParams,
// SliceUnread, MergeSums, MergeGroups, FreeGroups, JoinCases and
// ControllersAsShared from another System.
// Every analysis takes a *System and trusts it; none checks it again.
//
// The fields and methods of the Spec it was built from are read through
// it (sys.States, sys.TotalVar(s)). They are not to be changed: derive a
// new System instead (WithProperties), or edit a copy of its Spec and
// check that with New. The zero System is not a product of this package
// and no analysis accepts it.
type System struct{ spec }

// seal returns the System of a Spec that has met the rules, with its
// steps lowered once: every System is made here.
func seal(s *Spec) *System {
	s.dropIdentities() // x := x is no write, for every builder (update.go)
	s.steps = s.lower()
	return &System{*s}
}

// mergeBlocks joins the blocks of each transition that have one guard
// and one update (the same formula and the same assignments, whatever
// their text): a guard written once per group with the same text, {a:
// G, b: G}, is one block of both groups, which is what it means. The
// stages read one block faster (a transition whose one block covers
// every group is the paper's symmetric case: mist's transthesis with
// its guards so written timed out, and is proved in 0.02 s as written
// once). The first block's text and position stand for the merged one.
// Parse merges, as it reads what a user wrote; New does not (a spec
// built by hand, an instance, keeps its blocks, and so its steps, which
// the stages compare by index with its family's).
func (s *Spec) mergeBlocks() {
	for i := range s.Transitions {
		t := &s.Transitions[i]
		if len(t.Blocks) < 2 {
			continue
		}
		var out []Block
		keys := map[string]int{}
		for _, b := range t.Blocks {
			key := blockKey(&b)
			k, seen := keys[key]
			if !seen {
				keys[key] = len(out)
				out = append(out, b)
				continue
			}
			m := &out[k]
			groups, pos := mergeGroups(m.Groups, m.GroupPos, b.Groups, b.GroupPos)
			m.Groups, m.GroupPos = groups, pos
		}
		if len(out) < len(t.Blocks) {
			t.Blocks = out
		}
	}
}

// blockKey is what a block does and how it is written: its guard's
// text and formula (true when it has none) and its update, variables
// by number. The text keeps apart blocks that only folding made alike
// (a guard "G | n >= 7" in an instance of 3 processes): an instance
// has its family's blocks, and its steps the same indices.
func blockKey(b *Block) string {
	guard := b.Guard
	if guard == nil {
		guard = presburger.True
	}
	return b.Text + " ; " + atomKey(guard) + " ; " + b.Update.Text + " ; " + fmt.Sprint(b.Update.Assign)
}

// mergeGroups returns the sorted union of two blocks' groups, and their
// names' positions when both blocks have one per group.
func mergeGroups(a []int, apos []Pos, b []int, bpos []Pos) ([]int, []Pos) {
	withPos := len(apos) == len(a) && len(bpos) == len(b)
	type named struct {
		g   int
		pos Pos
	}
	var all []named
	for k, g := range a {
		n := named{g: g}
		if withPos {
			n.pos = apos[k]
		}
		all = append(all, n)
	}
	for k, g := range b {
		n := named{g: g}
		if withPos {
			n.pos = bpos[k]
		}
		all = append(all, n)
	}
	slices.SortFunc(all, func(x, y named) int { return x.g - y.g })
	all = slices.CompactFunc(all, func(x, y named) bool { return x.g == y.g })
	groups := make([]int, len(all))
	var pos []Pos
	if withPos {
		pos = make([]Pos, len(all))
	}
	for k, n := range all {
		groups[k] = n.g
		if withPos {
			pos[k] = n.pos
		}
	}
	return groups, pos
}

// Fairness holds the fairness constraints of a system. A path is fair
// when it meets every constraint infinitely often; CTL path quantifiers
// range over fair paths only, as in NuSMV 2.6 (JUSTICE), and
// docs/fairness.md says exactly how.
type Fairness struct {
	Justice []Justice
	Weak    []Weak
}

// Justice is a condition on configurations that every fair path meets
// infinitely often.
type Justice struct {
	Formula presburger.Formula // over the system's counter variables
	Text    string             // as written
	Pos     Pos
}

// Weak is weak fairness of the local transition Transition (an index
// into Spec.Transitions): a fair path on which, from some point on, a
// process (of group Group, or of any group when Group is -1) can take the
// transition in every configuration, has such a process take it
// infinitely often. Equivalently, infinitely often either no such process
// can take it or one does. With Group -1 it constrains the transition as
// a whole, not each group; it is never a constraint on single processes.
type Weak struct {
	Transition int
	Group      int // -1: any process
	Pos        Pos // of the entry that asked for it
	GroupPos   Pos // of the group's name in the entry, when it names the group
}

// InitPos is where the initial processes of a group were written: the
// group's entry in init, or the state of "init: S".
type InitPos struct {
	Pos Pos
	// Counts, when the entry gives counts per state, holds the position
	// of each count written (Counts[s] for state s; zero for a state the
	// entry leaves out); nil when the entry names one state.
	Counts []Pos
	// Missing is set when init has no entry for the group; Pos is then
	// that of the init key.
	Missing bool
}

// Empty reports whether f constrains nothing.
func (f *Fairness) Empty() bool { return len(f.Justice) == 0 && len(f.Weak) == 0 }

// WeakName names a weak fairness constraint as the fairness key writes
// it: "T -> C" (any process) or "T -> C [g]".
func (s *Spec) WeakName(w *Weak) string {
	if w.Transition < 0 || w.Transition >= len(s.Transitions) {
		return fmt.Sprintf("transition %d", w.Transition)
	}
	name := s.TransitionName(&s.Transitions[w.Transition])
	if w.Group >= 0 && w.Group < len(s.Groups) {
		name += " [" + s.Groups[w.Group].Name + "]"
	}
	return name
}

// Group is a block of identical processes. Size is its number of
// processes. When Ranged is set the size is a range instead: any number
// from Size to Max, or every number from Size up when Max is Unbounded;
// Size is then the least size, and the group's row of Spec.Init holds
// its smallest instance (all Size processes in the group's initial
// state).
type Group struct {
	Name   string
	Size   int
	Ranged bool
	Max    int // the greatest size of a ranged group, or Unbounded; unused otherwise
	Pos    Pos // of the group's name
	// SizePos is the position of the size as written; zero when built
	// by hand (New then reports a bad size at Pos).
	SizePos Pos
	// SizeTerm, when it has a variable (OverParams), is the size as a
	// linear term over the ParamVars (SizeTermText as written): the size
	// of an instance is its value there. In a family, Size is then a
	// placeholder (the parser writes 1) that the group's row of
	// Spec.Init places in one state, as for a ranged group; Instantiate
	// replaces both by the instance's.
	SizeTerm     presburger.Term
	SizeTermText string
}

// OverParams reports whether g's size is an expression over the
// parameters (SizeTerm).
func (g *Group) OverParams() bool { return len(g.SizeTerm.Monos) > 0 }

// Unbounded is Group.Max for a range without a greatest size ("N..").
const Unbounded = -1

// Min returns the least size of g (its size when fixed).
func (g *Group) Min() int { return g.Size }

// Bounded returns the greatest size of g and true, or false when its
// range has none.
func (g *Group) Bounded() (max int, ok bool) {
	switch {
	case !g.Ranged:
		return g.Size, true
	case g.Max == Unbounded:
		return 0, false
	}
	return g.Max, true
}

// Allows reports whether g may have k processes.
func (g *Group) Allows(k int) bool {
	hi, bounded := g.Bounded()
	return k >= g.Size && (!bounded || k <= hi)
}

// SizeText writes g's size as the GSST language does: "3", "1..", "2..5".
func (g *Group) SizeText() string {
	hi, bounded := g.Bounded()
	switch {
	case !g.Ranged:
		return strconv.Itoa(g.Size)
	case !bounded:
		return strconv.Itoa(g.Size) + ".."
	}
	return strconv.Itoa(g.Size) + ".." + strconv.Itoa(hi)
}

// Transition is a local transition From -> To with its guards. A process
// of group g may take it when g belongs to one of the Blocks and that
// block's guard holds; groups in no block cannot take it.
type Transition struct {
	// Name, when not empty, names the transition (the name key): several
	// transitions may then join the same two states.
	Name     string
	NamePos  Pos // of the name, when read from a file
	From, To int
	Blocks   []Block
	Pos      Pos
	// Broadcast, when not empty, makes the transition a broadcast: at
	// the step, every other process in a transfer's From moves to its
	// To (shared.go).
	Broadcast []Transfer
}

// Block is a set of groups sharing one guard of a transition.
type Block struct {
	Groups []int // sorted group indices
	// GroupPos, when it has one entry per group of Groups, holds the
	// position of each group's name in the guard key that named it.
	GroupPos []Pos
	Guard    presburger.Formula // over the system's counter variables
	Text     string             // the guard as written; "" when unguarded
	Pos      Pos                // position of the guard (or of the transition when unguarded)
	Update   Update             // what a step of a process of the block does to the shared variables
}

// Property is a named CTL formula over total counters.
type Property struct {
	Name    string
	Formula ctl.Formula
	Text    string
	Pos     Pos
	// Syntax is the property as parsed from Text, for printing it as the
	// parser read it (Parenthesize, ReliesOnPrecedence); nil for a
	// property built without source text.
	Syntax Expr
}

// Parametric reports whether s is a family: some group's size is a
// range, or some parameter is not fixed.
func (s *Spec) Parametric() bool {
	for i := range s.Groups {
		if s.Groups[i].Ranged {
			return true
		}
	}
	for i := range s.Params {
		if !s.Params[i].Fixed {
			return true
		}
	}
	return false
}

// N returns the number of processes; for a parametric system, that of its
// smallest instance (counting a size over parameters as its placeholder
// Size, 1 when parsed).
func (s *Spec) N() int {
	n := 0
	for _, g := range s.Groups {
		n += g.Size
	}
	return n
}

// NumVars returns the number of counter variables: one total counter per
// state and one group counter per state and group.
func (s *Spec) NumVars() int { return len(s.States) * (1 + len(s.Groups)) }

// TotalVar returns the variable of the total counter #S of state s.
func (s *Spec) TotalVar(state int) presburger.Var { return presburger.Var(state) }

// GroupVar returns the variable of the group counter #S[g].
func (s *Spec) GroupVar(state, group int) presburger.Var {
	return presburger.Var(len(s.States) + state*len(s.Groups) + group)
}

// SizeVar returns the variable of the size of group g. It follows the
// counter variables; only formulas about a parametric system's family of
// instances use it (the GSST language has no syntax for it).
func (s *Spec) SizeVar(group int) presburger.Var {
	return presburger.Var(s.NumVars() + group)
}

// NVar returns the variable of n, the number of processes, in the guards
// and properties of a parametric system. It follows the size variables.
func (s *Spec) NVar() presburger.Var { return presburger.Var(s.NumVars() + len(s.Groups)) }

// Param tells the size variables and NVar apart from other variables:
// group is g for SizeVar(g) and -1 for NVar; ok is false for any other
// variable.
func (s *Spec) Param(v presburger.Var) (group int, ok bool) {
	i := int(v) - s.NumVars()
	switch {
	case i < 0 || i > len(s.Groups):
		return 0, false
	case i == len(s.Groups):
		return -1, true
	}
	return i, true
}

// SizeBounds returns the range of every size variable (a fixed group's
// is its size; an unbounded range is open above; a size over the
// parameters is at least 1, open above) and of NVar (from the sum of the
// least sizes to the sum of the greatest, open above when some range
// is). With sizes over parameters, InstanceCondition ties the size
// variables to the parameters.
func (s *Spec) SizeBounds() []presburger.Bound {
	out := make([]presburger.Bound, 0, len(s.Groups)+1)
	n := presburger.Bound{Var: s.NVar()}
	for g := range s.Groups {
		grp := &s.Groups[g]
		b := presburger.Bound{Var: s.SizeVar(g), Lo: int64(grp.Size)}
		if grp.OverParams() {
			b.Lo, b.NoHi = 1, true
		} else if hi, ok := grp.Bounded(); ok {
			b.Hi = int64(hi)
		} else {
			b.NoHi = true
		}
		out = append(out, b)
		n.Lo += b.Lo
		n.Hi += b.Hi
		n.NoHi = n.NoHi || b.NoHi
	}
	if n.NoHi {
		n.Hi = 0
	}
	return append(out, n)
}

// SizeSum returns "|g1| + ... + |gd| = n" over the size variables and
// NVar.
func (s *Spec) SizeSum() presburger.Formula {
	var sum presburger.Term
	for g := range s.Groups {
		sum = sum.Add(presburger.VarTerm(s.SizeVar(g)))
	}
	return presburger.Compare(sum, presburger.Eq, presburger.VarTerm(s.NVar()))
}

// InitState returns the state in which every process of group g starts,
// and false when its initial processes are spread over several states
// (or it has none).
func (s *Spec) InitState(group int) (state int, ok bool) {
	state = -1
	for st, k := range s.Init[group] {
		switch {
		case k == 0:
		case state >= 0:
			return 0, false
		default:
			state = st
		}
	}
	return state, state >= 0
}

// Counter returns the state and group of a counter variable; group is -1
// for a total counter. ok is false for a variable that is not a counter.
func (s *Spec) Counter(v presburger.Var) (state, group int, ok bool) {
	m, d := len(s.States), len(s.Groups)
	switch {
	case v < 0 || int(v) >= s.NumVars():
		return 0, 0, false
	case int(v) < m:
		return int(v), -1, true
	}
	i := int(v) - m
	return i / d, i % d, true
}

// VarName names a counter variable as the GSST language writes it: "#S"
// or "#S[g]".
func (s *Spec) VarName(v presburger.Var) string {
	st, g, ok := s.Counter(v)
	switch {
	case ok && g < 0:
		return "#" + s.States[st]
	case ok:
		return "#" + s.States[st] + "[" + s.Groups[g].Name + "]"
	}
	switch g, ok := s.Param(v); {
	case ok && g < 0:
		return "n"
	case ok:
		return "|" + s.Groups[g].Name + "|"
	}
	if j, ok := s.SharedOf(v); ok {
		return s.Shared[j].Name
	}
	if k, ok := s.ParamOf(v); ok {
		return s.Params[k].Name
	}
	return fmt.Sprintf("v%d", v)
}

// foldGroupSums returns t with each state's group counters that t reads
// for every group, all with one coefficient c, written as c times the
// state's total counter: #S[g1] + ... + #S[gk] is #S in every
// configuration, so a comparison means the same either way, and one
// that reads group counters only in such sums reads total counters
// (Cubicle's examples written with two groups of one protocol count
// "#E[proc] + #E[other]": the total-counter model checks them). A sum
// whose total's coefficient would pass MaxConstant is left as it is
// (coefficients within it cannot overflow in one operation).
func (s *Spec) foldGroupSums(t presburger.Term) presburger.Term {
	d := len(s.Groups)
	if d == 0 {
		return t
	}
	out := t
	monos := t.Monos
	for i := 0; i < len(monos); {
		st, g, ok := s.Counter(monos[i].Var)
		if !ok || g != 0 || i+d > len(monos) {
			i++
			continue
		}
		// The group counters of st are consecutive variables, so they
		// are consecutive monomials when t reads all of them.
		c := monos[i].Coef
		all := true
		for h := 1; h < d; h++ {
			m := monos[i+h]
			all = all && m.Var == s.GroupVar(st, h) && m.Coef == c
		}
		if !all {
			i++
			continue
		}
		k := c // the total's coefficient after the fold
		for _, m := range monos[:i] {
			if m.Var == s.TotalVar(st) {
				k += m.Coef
			}
		}
		if k >= -MaxConstant && k <= MaxConstant {
			fold := presburger.VarTerm(s.TotalVar(st)).Scale(c)
			for h := range d {
				fold = fold.Sub(presburger.VarTerm(s.GroupVar(st, h)).Scale(c))
			}
			out = out.Add(fold)
		}
		i += d
	}
	return out
}

// IsTotal reports whether f reads no group counter (only total counters
// and, in a parametric system, n).
func (s *Spec) IsTotal(f presburger.Formula) bool {
	for _, v := range presburger.FreeVars(f) {
		if _, g, ok := s.Counter(v); ok && g >= 0 {
			return false
		}
	}
	return true
}

// TransitionName returns "U -> V" for transition t, or "r (U -> V)" when
// it is named r.
func (s *Spec) TransitionName(t *Transition) string {
	if t.Name != "" {
		return t.Name + " (" + s.States[t.From] + " -> " + s.States[t.To] + ")"
	}
	return s.States[t.From] + " -> " + s.States[t.To]
}

// BlockOf returns the block of t that group g belongs to, or nil when g
// cannot take t.
func (t *Transition) BlockOf(g int) *Block {
	for i := range t.Blocks {
		for _, h := range t.Blocks[i].Groups {
			if h == g {
				return &t.Blocks[i]
			}
		}
	}
	return nil
}

// Valuation returns the assignment of variables in a configuration given
// by its group counters, y[g][s] processes of group g in state s, and the
// values of its shared variables (nil when s has none). The size
// variables and NVar read the configuration's group sizes and number of
// processes, so the guards of a parametric system evaluate in a
// configuration of any of its instances; a parameter not fixed reads 0.
func (s *Spec) Valuation(y [][]int, shared []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if j, ok := s.SharedOf(v); ok {
			return int64(shared[j])
		}
		if k, ok := s.ParamOf(v); ok {
			return int64(s.Params[k].Value)
		}
		st, g, ok := s.Counter(v)
		switch {
		case ok && g >= 0:
			return int64(y[g][st])
		case ok:
			total := 0
			for g := range y {
				total += y[g][st]
			}
			return int64(total)
		}
		g, ok = s.Param(v)
		if !ok {
			return 0
		}
		total := 0
		for h := range y {
			if g < 0 || h == g {
				for _, k := range y[h] {
					total += k
				}
			}
		}
		return int64(total)
	}
}

// Spec returns a copy of the description s was built from, to edit and
// check again with New.
func (s *System) Spec() *Spec { return s.spec.clone() }

// WithProperties returns s with the properties s.Properties[i], for each
// i in idx in that order, and no others: a subset of the checked system's
// own properties needs no new check. It panics when an index is out of
// range.
func (s *System) WithProperties(idx ...int) *System {
	out := &System{s.spec}
	out.Properties = make([]Property, len(idx))
	for k, i := range idx {
		out.Properties[k] = s.Properties[i]
	}
	return out
}

// SameSteps reports whether o is s, or s with other properties
// (WithProperties): the one System whose steps were lowered once, so
// that what is known of s's states, groups, steps and initial
// configurations (its certification) is known of o.
func (s *System) SameSteps(o *System) bool {
	return s == o || len(s.steps) > 0 && len(s.steps) == len(o.steps) && &s.steps[0] == &o.steps[0]
}

// WithRangedSizes returns the family of s in which every group of a
// fixed size above least whose processes start in one state, or spread
// over several, has any size from 1 up: s is one of its instances, so
// what holds for every size of the family holds for s. ok is false when
// s has no such group.
func (s *System) WithRangedSizes(least int) (family *System, ok bool, err error) {
	spec := s.Spec()
	for g := range spec.Groups {
		grp := &spec.Groups[g]
		st, one := spec.InitState(g)
		if grp.Ranged || grp.OverParams() || grp.Size <= least || !one {
			continue
		}
		grp.Ranged, grp.Size, grp.Max = true, 1, Unbounded
		spec.Init[g][st] = 1
		ok = true
	}
	if !ok {
		return nil, false, nil
	}
	family, err = New(spec)
	return family, err == nil, err
}

// WithDerivedProperties returns s with the properties ps in place of
// its own, checked by the rules New applies to the properties of a spec
// (distinct names, each formula a CTL formula whose atoms read s's
// variables): the way to ask an analysis about properties the spec does
// not state as written, such as the parts prove splits a conjunction
// into. The error lists the rules ps break.
func (s *System) WithDerivedProperties(ps []Property) (*System, error) {
	out := &System{s.spec}
	out.Properties = slices.Clone(ps)
	var errs ErrorList
	out.checkProperties(false, func(pos Pos, format string, args ...any) { errs.Add(pos, format, args...) })
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return out, nil
}

// WithoutFairness returns s with no fairness constraints: the same
// transition system, every path fair. Questions about reachable
// configurations ask it, since fairness restricts paths, not the
// configurations a run can reach.
func (s *System) WithoutFairness() *System {
	out := &System{s.spec}
	out.Fairness = Fairness{}
	return out
}

// clone copies s down to its formulas, which are values no one changes.
func (s *Spec) clone() *Spec {
	out := *s
	out.States = slices.Clone(s.States)
	out.Groups = slices.Clone(s.Groups)
	out.Init = make([][]int, len(s.Init))
	for g, row := range s.Init {
		out.Init[g] = slices.Clone(row)
	}
	if s.Init == nil {
		out.Init = nil
	}
	if s.InitOver != nil {
		out.InitOver = make([][]int, len(s.InitOver))
		for g, over := range s.InitOver {
			out.InitOver[g] = slices.Clone(over)
		}
	}
	out.InitPos = slices.Clone(s.InitPos)
	for g := range out.InitPos {
		out.InitPos[g].Counts = slices.Clone(out.InitPos[g].Counts)
	}
	out.Transitions = slices.Clone(s.Transitions)
	for i := range out.Transitions {
		t := &out.Transitions[i]
		t.Blocks = slices.Clone(t.Blocks)
		for j := range t.Blocks {
			t.Blocks[j].Groups = slices.Clone(t.Blocks[j].Groups)
			t.Blocks[j].GroupPos = slices.Clone(t.Blocks[j].GroupPos)
			t.Blocks[j].Update.Assign = slices.Clone(t.Blocks[j].Update.Assign)
		}
		t.Broadcast = cloneTransfers(t.Broadcast)
	}
	out.Properties = slices.Clone(s.Properties)
	out.Fairness.Justice = slices.Clone(s.Fairness.Justice)
	out.Fairness.Weak = slices.Clone(s.Fairness.Weak)
	out.Shared = slices.Clone(s.Shared)
	for j := range out.Shared {
		out.Shared[j].Values = slices.Clone(out.Shared[j].Values)
		out.Shared[j].ValuePos = slices.Clone(out.Shared[j].ValuePos)
	}
	out.Params = slices.Clone(s.Params)
	out.Environment = slices.Clone(s.Environment)
	for i := range out.Environment {
		e := &out.Environment[i]
		e.Update.Assign = slices.Clone(e.Update.Assign)
		e.Broadcast = cloneTransfers(e.Broadcast)
	}
	out.Rendezvous = slices.Clone(s.Rendezvous)
	for i := range out.Rendezvous {
		r := &out.Rendezvous[i]
		r.Broadcast = cloneTransfers(r.Broadcast)
		r.Update.Assign = slices.Clone(r.Update.Assign)
		r.Parts = slices.Clone(r.Parts)
		for j := range r.Parts {
			r.Parts[j].Groups = slices.Clone(r.Parts[j].Groups)
		}
	}
	out.steps = nil // a copy is edited: lower it again when sealed
	return &out
}
