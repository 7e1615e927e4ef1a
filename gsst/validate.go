package gsst

import (
	"strconv"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Check reports every way in which s is not a system the analyses can
// give a meaning to. It is the one place where systems are validated:
// Parse and Load return only systems that pass, and every package that
// accepts a System built by other means (tests, generators) calls Check
// once and then trusts it, as go/types' clients trust Info.
//
// It checks: group sizes in 0..MaxProcesses and at most MaxProcesses
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
// errkind.Input) holds), with the positions the system carries.
func (s *System) Check() error {
	if s == nil {
		return ErrorList{{Msg: "no system"}}
	}
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
	if len(errs) == 0 {
		return nil
	}
	errs.Sort()
	return errs
}

func (s *System) checkInit(at func(Pos, string, ...any)) {
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
func (s *System) checkFairness(at func(Pos, string, ...any)) {
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
func (s *System) checkFormula(f presburger.Formula, where string, pos Pos, at func(Pos, string, ...any)) {
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
func (s *System) checkCTL(f ctl.Formula, where string, pos Pos, at func(Pos, string, ...any)) {
	if err := ctl.Validate(f); err != nil {
		at(pos, "%s: %v", where, err)
		return
	}
	for _, a := range ctl.Atoms(f) {
		s.checkFormula(a, where, pos, at)
	}
}
