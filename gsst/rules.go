package gsst

import (
	"strconv"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// New checks s and returns its System: the one way, with Parse and Load,
// to build a System from a description. Generators and tests fill in a
// Spec and call New; the System is checked once, here, and every analysis
// then trusts it. New keeps a copy of s, so later changes to s do not
// reach the System.
//
// The rules are those every System meets, whether parsed or built: Parse
// runs the same rules on the Spec its checker builds, so a Spec read from
// a file gets from New the messages and positions Parse gave. They are:
// group sizes in 0..MaxProcesses and at most MaxProcesses processes in
// all (in the smallest instance, for ranges); ranges of sizes from at
// least 1 to a greater size within MaxProcesses, or Unbounded; an
// initial configuration with one row per group and one count per state,
// nonnegative and summing to the group's (least) size, all in one state
// for a ranged group; transitions between distinct states in range, each
// group in at most one block, guards present,
// quantifier-free and over the system's counters (and NVar, in a
// parametric system); properties with distinct names, present, with
// known CTL operators and atoms over the same variables; justice
// conditions over the same variables and weak fairness of transitions
// the system has, by groups that may take them. The result is an
// ErrorList (errors.Is(err, errkind.Input) holds), with the positions
// the spec carries. Beyond the paper (rulesext.go): parameters, shared
// variables and enumeration constants with distinct names, none
// reserved; shared domains that are not empty, enumerations without
// repeated constants, initial values in their domains; an assumption
// over parameters not fixed (holding when it reads none); sizes over
// parameters not fixed, in groups that are not ranges and start in one
// state; updates assigning shared variables at most once each, with
// values of their types reading only shared variables and parameters
// not fixed; broadcast transfers between distinct states in range, from
// distinct sources; rendezvous of at least two parts, each between
// states in range (a part may stay); and groups of transfers and parts in range,
// sorted, never an empty list. The GSST language adds two rules that New
// does not apply, as generators use what they forbid: a group has at
// least one process, and no two transitions join the same states.
func New(s *Spec) (*System, error) {
	if s == nil {
		return nil, ErrorList{{Msg: "no system"}}
	}
	s = s.clone()
	if errs := s.rules(nil); len(errs) > 0 {
		return nil, errs
	}
	return seal(s), nil
}

// source is what the checker knows of a Spec it built from a file: which
// elements did not resolve (their errors are reported already, and the
// rules skip them), and what the language adds to the rules.
type source struct {
	written  []Group   // under AllSizes: the groups as written, whose sizes the rules check
	allSizes bool      // every group is read for all sizes
	rows     []rowKind // per group: how much of its init row resolved
	// trans[i] is the name of transition i as written when one of its
	// states did not resolve; "" when both did.
	trans []string
	// shared[j] says whether shared variable j's type and initial value
	// resolved.
	shared []sharedSrc
	// rdv[i] is set when a part of rendezvous i did not resolve.
	rdv []bool
}

// sharedSrc is what the checker knows of a shared variable it built:
// whether its type and initial value resolved.
type sharedSrc struct {
	typeOK, initOK bool
}

type rowKind int

const (
	rowOK      rowKind = iota
	rowPartial         // some count is for an unknown state: no sum
	rowSkip            // nothing to check
)

// rules reports, sorted, every rule of New that s breaks. src is nil for
// a Spec built by hand, and says what resolved for one the checker built;
// the rules then skip what did not (a nil guard, property or justice
// formula is one that did not).
func (s *Spec) rules(src *source) ErrorList {
	var errs ErrorList
	at := func(pos Pos, format string, args ...any) { errs.Add(pos, format, args...) }
	fromFile := src != nil
	if src == nil {
		src = &source{}
	}
	m, d := len(s.States), len(s.Groups)
	if m == 0 && !fromFile { // a file's empty states key is a decoding error
		at(Pos{File: s.File}, "system has no local state")
	}
	s.checkNames(src, at)
	s.checkShared(src, at)
	s.checkAssume(at)
	sizeOK := s.checkSizes(src, fromFile, at)
	s.checkInit(src, sizeOK, at)
	s.checkInitial(src, at)
	type edge struct{ from, to int }
	type named struct {
		pos  Pos
		name string
	}
	seen := map[edge]named{}
	owner := make([]Pos, d)
	for i := range s.Transitions {
		t := &s.Transitions[i]
		var name string
		if i < len(src.trans) && src.trans[i] != "" {
			name = src.trans[i]
		} else {
			if t.From < 0 || t.From >= m || t.To < 0 || t.To >= m {
				at(t.Pos, "transition %d has a state out of range", i)
				continue
			}
			name = s.TransitionName(t)
			switch prev, dup := seen[edge{t.From, t.To}]; {
			case dup && fromFile && (t.Name == "" || prev.name == ""):
				at(t.Pos, "transition %s given twice%s; put all its guards in one entry, or name each transition between these states (name: ...) to make them separate steps",
					s.States[t.From]+" -> "+s.States[t.To], known("first at", prev.pos))
			case !dup:
				seen[edge{t.From, t.To}] = named{t.Pos, t.Name}
			}
		}
		taken := make([]bool, d)
		for _, b := range t.Blocks {
			for k, g := range b.Groups {
				pos := b.Pos
				if len(b.GroupPos) == len(b.Groups) {
					pos = b.GroupPos[k]
				}
				switch {
				case g < 0 || g >= d:
					at(b.Pos, "transition %s: group %d out of range", name, g)
				case taken[g]:
					at(pos, "group %q has two guards in %s%s", s.Groups[g].Name, name, known("the other at", owner[g]))
				default:
					taken[g], owner[g] = true, pos
				}
			}
			switch {
			case b.Guard != nil:
				s.checkFormula(b.Guard, "guard of "+name, b.Pos, at)
			case !fromFile:
				at(b.Pos, "transition %s: missing guard", name)
			}
			s.checkUpdate(&b.Update, "update of "+name, b.Pos, at)
		}
		s.checkTransfers(t.Broadcast, name, t.Pos, at)
	}
	s.checkRendezvous(src, fromFile, at)
	s.checkEnvironment(fromFile, at)
	s.checkStepNames(at)
	s.checkProperties(fromFile, at)
	s.checkFairness(src, fromFile, at)
	errs.Sort()
	return errs
}

// checkProperties checks the properties: names distinct, and each
// formula a CTL formula over the system's variables (in a file, a
// formula that did not resolve is nil, its error reported already).
func (s *Spec) checkProperties(fromFile bool, at func(Pos, string, ...any)) {
	names := map[string]Pos{}
	for i := range s.Properties {
		p := &s.Properties[i]
		if prev, dup := names[p.Name]; dup {
			at(p.Pos, "duplicate property %q%s", p.Name, known("first at", prev))
		} else {
			names[p.Name] = p.Pos
		}
		switch {
		case p.Formula != nil:
			s.checkCTL(p.Formula, "property "+p.Name, p.Pos, at)
		case !fromFile:
			at(p.Pos, "property %s has no formula", p.Name)
		}
	}
}

// known returns " (what pos)" when pos is known, for messages that point
// at a second place.
func known(what string, pos Pos) string {
	if pos.Line == 0 {
		return ""
	}
	return " (" + what + " " + pos.String() + ")"
}

// checkSizes checks the sizes and ranges of the groups and their total,
// and reports which groups have a valid size. A file's groups have at
// least one process; New also allows empty groups of fixed size, which
// generators use.
func (s *Spec) checkSizes(src *source, fromFile bool, at func(Pos, string, ...any)) []bool {
	groups := s.Groups
	if src.written != nil {
		groups = src.written
	}
	ok := make([]bool, len(groups))
	total := 0
	for i := range groups {
		g := &groups[i]
		pos := g.SizePos
		if pos.Line == 0 {
			pos = g.Pos
		}
		least, min := "size", 0
		if g.Ranged {
			least = "least size"
		}
		if fromFile || g.Ranged {
			min = 1
		}
		if g.OverParams() || g.SizeTerm.Const != 0 {
			s.checkSizeTerm(g, pos, at)
			min = 1
		}
		size := g.Size
		switch {
		case g.Size < min && min == 1:
			at(pos, "group %q has %s %d; a group needs at least one process", g.Name, least, g.Size)
			size = min
		case g.Size < min:
			at(pos, "group %q has %s %d; a size is never negative", g.Name, least, g.Size)
			size = min
		case g.Size > MaxProcesses:
			at(pos, "group %q has %s %d, above the limit of %d processes", g.Name, least, g.Size, MaxProcesses)
			size = MaxProcesses
		default:
			ok[i] = true
		}
		switch {
		case !g.Ranged || g.Max == Unbounded:
		case g.Max < g.Size:
			at(pos, "empty range %d..%d of sizes for group %q: the greatest size is below the least", g.Size, g.Max, g.Name)
			ok[i] = false
		case g.Max > MaxProcesses:
			at(pos, "group %q has greatest size %d, above the limit of %d processes (write %d.. for no greatest size)", g.Name, g.Max, MaxProcesses, g.Size)
			ok[i] = false
		case g.Max == g.Size:
			at(pos, "group %s has the range of sizes %d..%d; the greatest size must lie in %d..%d (or be Unbounded)", g.Name, g.Size, g.Max, g.Size+1, MaxProcesses)
			ok[i] = false
		}
		// With ranges the limit applies to the smallest instance; larger
		// ones are refused when instantiated.
		if total <= MaxProcesses && total+size > MaxProcesses {
			at(pos, "too many processes: with group %q the total exceeds the limit of %d", g.Name, MaxProcesses)
		}
		total += size
	}
	return ok
}

// checkInit checks the initial configuration, row by row, skipping the
// rows of groups whose size is wrong.
func (s *Spec) checkInit(src *source, sizeOK []bool, at func(Pos, string, ...any)) {
	if len(s.Init) != len(s.Groups) {
		at(Pos{File: s.File}, "initial configuration has %d groups, want %d", len(s.Init), len(s.Groups))
		return
	}
	for g, row := range s.Init {
		grp := &s.Groups[g]
		kind := rowOK
		if g < len(src.rows) {
			kind = src.rows[g]
		}
		if !sizeOK[g] || kind == rowSkip {
			continue
		}
		var ip InitPos
		if g < len(s.InitPos) {
			ip = s.InitPos[g]
		}
		pos := ip.Pos
		if pos.Line == 0 {
			pos = grp.Pos
		}
		if ip.Missing {
			at(ip.Pos, "init gives no initial state for group %q", grp.Name)
			continue
		}
		if len(row) != len(s.States) {
			at(pos, "initial configuration of group %s has %d states, want %d", grp.Name, len(row), len(s.States))
			continue
		}
		if grp.Ranged && (ip.Counts != nil || spread(row)) {
			why := ""
			if src.allSizes {
				why = " (every group is read for all sizes)"
			}
			at(pos, "init of group %q gives counts per state, but its size is the range %s%s: a group of variable size starts with all its processes in one state",
				grp.Name, grp.SizeText(), why)
			continue
		}
		if grp.OverParams() && (ip.Counts != nil || spread(row)) {
			at(pos, "init of group %q gives counts per state, but its size is %s, over the parameters: a group of variable size starts with all its processes in one state",
				grp.Name, grp.sizeTermText(s))
			continue
		}
		sum, valid := 0, kind == rowOK
		for st, k := range row {
			cpos := pos
			if st < len(ip.Counts) && ip.Counts[st].Line != 0 {
				cpos = ip.Counts[st]
			}
			switch {
			case k < 0:
				at(cpos, "negative number of processes %d in init of group %q", k, grp.Name)
				valid = false
			case k > grp.Size:
				at(cpos, "%d processes in state %q, but group %q has only %d", k, s.States[st], grp.Name, grp.Size)
				valid = false
			}
			sum += k
		}
		if valid && sum != grp.Size {
			at(pos, "init of group %q places %d processes, but the group has %d", grp.Name, sum, grp.Size)
		}
	}
}

// spread reports whether row places processes in more than one state.
func spread(row []int) bool {
	states := 0
	for _, k := range row {
		if k != 0 {
			states++
		}
	}
	return states > 1
}

// checkFairness checks that every justice condition is a formula over the
// system's counters and that every weak fairness constraint names a
// transition and, when it is per group, a group that may take it.
func (s *Spec) checkFairness(src *source, fromFile bool, at func(Pos, string, ...any)) {
	for i := range s.Fairness.Justice {
		j := &s.Fairness.Justice[i]
		switch {
		case j.Formula != nil:
			s.checkFormula(j.Formula, "justice condition "+strconv.Itoa(i+1), j.Pos, at)
		case !fromFile:
			at(j.Pos, "justice condition %d has no formula", i+1)
		}
	}
	for _, w := range s.Fairness.Weak {
		switch {
		case w.Transition < 0 || w.Transition >= len(s.Transitions):
			at(w.Pos, "weak fairness of transition %d, which the system does not have", w.Transition)
		case w.Transition < len(src.trans) && src.trans[w.Transition] != "":
		case w.Group < -1 || w.Group >= len(s.Groups):
			at(w.Pos, "weak fairness of %s: group %d out of range", s.TransitionName(&s.Transitions[w.Transition]), w.Group)
		case w.Group >= 0 && s.Transitions[w.Transition].BlockOf(w.Group) == nil:
			pos := w.GroupPos
			if pos.Line == 0 {
				pos = w.Pos
			}
			at(pos, "weak fairness of %s for group %s: the group cannot take this transition (it is in none of its guard blocks)",
				s.TransitionName(&s.Transitions[w.Transition]), s.Groups[w.Group].Name)
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
		if _, ok := s.SharedOf(v); ok {
			continue
		}
		if k, ok := s.ParamOf(v); ok && !s.Params[k].Fixed {
			continue
		}
		switch {
		case s.isParamVar(v):
			at(pos, "%s uses parameter %s, which is fixed in this instance (fold it to its value)", where, s.VarName(v))
		case param:
			at(pos, "%s uses variable %d, which is neither a counter nor n", where, v)
		default:
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

// checkGroupSet checks a restriction to groups: nil (every group), or
// groups in range, strictly increasing, at least one.
func (s *Spec) checkGroupSet(groups []int, where string, pos Pos, at func(Pos, string, ...any)) {
	if groups == nil {
		return
	}
	if len(groups) == 0 {
		at(pos, "%s is restricted to no group (nil restricts to none: every group)", where)
		return
	}
	for i, g := range groups {
		switch {
		case g < 0 || g >= len(s.Groups):
			at(pos, "%s: group %d out of range", where, g)
			return
		case i > 0 && groups[i-1] >= g:
			at(pos, "%s: groups not sorted or listed twice", where)
			return
		}
	}
}

// checkStepNames checks the names of transitions, rendezvous and
// environment steps: names, distinct, and not "all", which a weak
// fairness entry reads as every transition.
func (s *Spec) checkStepNames(at func(Pos, string, ...any)) {
	seen := map[string]Pos{}
	check := func(name string, namePos, pos Pos) {
		if namePos.Line != 0 {
			pos = namePos
		}
		switch prev, dup := seen[name]; {
		case name == "":
		case !isName(name):
			at(pos, "step name %q is not a name (letters, digits and _, not starting with a digit)", name)
		case name == "all":
			at(pos, "a step may not be named all: the weak fairness entry all means every transition")
		case dup:
			at(pos, "two steps are named %s%s", name, known("the other at", prev))
		default:
			seen[name] = pos
		}
	}
	for i := range s.Transitions {
		check(s.Transitions[i].Name, s.Transitions[i].NamePos, s.Transitions[i].Pos)
	}
	for i := range s.Rendezvous {
		check(s.Rendezvous[i].Name, s.Rendezvous[i].NamePos, s.Rendezvous[i].Pos)
	}
	for i := range s.Environment {
		check(s.Environment[i].Name, s.Environment[i].NamePos, s.Environment[i].Pos)
	}
}
