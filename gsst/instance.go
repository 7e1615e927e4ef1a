package gsst

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// Instantiate returns the instance of s in which group g has sizes[g]
// processes: a fixed-size system, with n replaced by its value in every
// guard and property and every process of a ranged group in the group's
// initial state. It is what parsing the file with those sizes written in
// would give, so every analysis that needs fixed sizes works on it. s
// itself is returned when it is already that instance.
//
// sizes needs one entry per group, each allowed by the group's range (a
// fixed group's own size), at most MaxProcesses in all, and every
// constant of the instance's formulas must stay within MaxConstant (a
// guard "1000*n > #C" cannot be instantiated with n = 10^7). Otherwise
// the error is errkind.Input.
func (s *System) Instantiate(sizes []int) (*System, error) {
	if len(sizes) != len(s.Groups) {
		return nil, errkind.Errorf(errkind.Input, "%s: %d sizes for %d groups", s.Name, len(sizes), len(s.Groups))
	}
	n := 0
	for g, k := range sizes {
		grp := &s.Groups[g]
		if !grp.Allows(k) {
			return nil, errkind.Errorf(errkind.Input, "%s: %s", s.Name, sizeOutside(grp, k))
		}
		if n += k; n > MaxProcesses {
			return nil, errkind.Errorf(errkind.Input, "%s: the sizes %s add up to more than %d processes", s.Name, s.FormatSizes(sizes), MaxProcesses)
		}
	}
	if !s.Parametric() {
		return s, nil
	}

	out := *s
	out.Groups = make([]Group, len(s.Groups))
	out.Init = make([][]int, len(s.Groups))
	for g, grp := range s.Groups {
		out.Groups[g] = Group{Name: grp.Name, Size: sizes[g], Pos: grp.Pos, SizePos: grp.SizePos}
		out.Init[g] = append([]int(nil), s.Init[g]...)
		if grp.Ranged {
			st, _ := s.InitState(g) // one state: a rule of New
			out.Init[g][st] = sizes[g]
		}
	}
	nv := s.NVar()
	fold := func(f presburger.Formula) presburger.Formula {
		return presburger.Subst(f, func(v presburger.Var) presburger.Term {
			if v == nv {
				return presburger.ConstTerm(int64(n))
			}
			return presburger.VarTerm(v)
		})
	}
	var errs ErrorList
	out.Transitions = make([]Transition, len(s.Transitions))
	for i, t := range s.Transitions {
		t.Blocks = append([]Block(nil), t.Blocks...)
		for j := range t.Blocks {
			b := &t.Blocks[j]
			b.Guard = fold(b.Guard)
			if !formulaFits(b.Guard) {
				errs.Add(b.Pos, "with n = %d, the guard of %s has a constant beyond the limit of %d", n, s.TransitionName(&t), MaxConstant)
			}
		}
		out.Transitions[i] = t
	}
	out.Properties = make([]Property, len(s.Properties))
	for i, p := range s.Properties {
		p.Formula = ctl.MapAtoms(p.Formula, fold)
		for _, a := range ctl.Atoms(p.Formula) {
			if !formulaFits(a) {
				errs.Add(p.Pos, "with n = %d, property %s has a constant beyond the limit of %d", n, p.Name, MaxConstant)
				break
			}
		}
		out.Properties[i] = p
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return &out, nil
}

// Smallest returns the instance of s in which every group has its least
// size: s itself when its sizes are fixed.
func (s *System) Smallest() (*System, error) {
	sizes := make([]int, len(s.Groups))
	for g := range s.Groups {
		sizes[g] = s.Groups[g].Size
	}
	return s.Instantiate(sizes)
}

// sizeOutside says that group grp cannot have k processes.
func sizeOutside(grp *Group, k int) string {
	if !grp.Ranged {
		return "group " + grp.Name + " has the fixed size " + grp.SizeText() + ", not " + strconv.Itoa(k)
	}
	return "size " + strconv.Itoa(k) + " of group " + grp.Name + " is outside its range " + grp.SizeText()
}

// formulaFits reports whether every constant and coefficient of f lies
// within MaxConstant.
func formulaFits(f presburger.Formula) bool {
	switch f := f.(type) {
	case presburger.Cmp:
		return fits(f.T)
	case presburger.Not:
		return formulaFits(f.F)
	case presburger.And:
		for _, g := range f {
			if !formulaFits(g) {
				return false
			}
		}
	case presburger.Or:
		for _, g := range f {
			if !formulaFits(g) {
				return false
			}
		}
	case presburger.Exists:
		return formulaFits(f.Body)
	}
	return true
}

// SizesByName turns sizes given by group name (as "vsym --sizes
// reader=2,writer=3" gives them) into the per-group sizes Instantiate
// takes. Every ranged group must be named; a fixed-size group may be left
// out (it keeps its size) or named with its own size. An unknown group, a
// size outside the group's range, or a ranged group left out is
// errkind.Input, all reported at once.
func (s *System) SizesByName(named map[string]int) ([]int, error) {
	sizes := make([]int, len(s.Groups))
	index := make(map[string]int, len(s.Groups))
	for g := range s.Groups {
		index[s.Groups[g].Name] = g
		sizes[g] = -1
		if !s.Groups[g].Ranged {
			sizes[g] = s.Groups[g].Size
		}
	}
	var problems []string
	names := make([]string, 0, len(named))
	for name := range named {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		k := named[name]
		g, ok := index[name]
		switch {
		case !ok:
			problems = append(problems, "no group named "+name+" (the groups are "+s.groupList()+")")
		case !s.Groups[g].Allows(k):
			problems = append(problems, sizeOutside(&s.Groups[g], k))
		default:
			sizes[g] = k
		}
	}
	var missing []string
	for g, k := range sizes {
		if k < 0 && !slices.Contains(names, s.Groups[g].Name) {
			missing = append(missing, s.Groups[g].Name+" ("+s.Groups[g].SizeText()+")")
		}
	}
	if len(missing) > 0 {
		problems = append(problems, "no size given for the ranged group"+plural(len(missing))+" "+strings.Join(missing, ", "))
	}
	if len(problems) > 0 {
		return nil, errkind.Errorf(errkind.Input, "%s", strings.Join(problems, "; "))
	}
	return sizes, nil
}

// FormatSizes writes per-group sizes as "reader=2, writer=3".
func (s *System) FormatSizes(sizes []int) string {
	parts := make([]string, len(sizes))
	for g, k := range sizes {
		name := "?"
		if g < len(s.Groups) {
			name = s.Groups[g].Name
		}
		parts[g] = name + "=" + strconv.Itoa(k)
	}
	return strings.Join(parts, ", ")
}

// RangedGroups returns the names of the groups whose size is a range,
// each with its range: "reader: 1..".
func (s *System) RangedGroups() []string {
	var out []string
	for g := range s.Groups {
		if s.Groups[g].Ranged {
			out = append(out, s.Groups[g].Name+": "+s.Groups[g].SizeText())
		}
	}
	return out
}

func (s *System) groupList() string {
	names := make([]string, len(s.Groups))
	for g := range s.Groups {
		names[g] = s.Groups[g].Name
	}
	return strings.Join(names, ", ")
}

func plural(k int) string {
	if k == 1 {
		return ""
	}
	return "s"
}

// NeedFixed returns nil for a system whose group sizes are all fixed,
// and otherwise an errkind.Input error saying that what (such as "a
// counter model") needs fixed sizes and naming the ranged groups. The
// analyses that work on one structure call it first; a parametric
// system reaches them through Instantiate.
func (s *System) NeedFixed(what string) error {
	if !s.Parametric() {
		return nil
	}
	return errkind.Errorf(errkind.Input, "%s: group sizes are ranges (%s); %s needs fixed sizes (an instance of the system)",
		s.Name, strings.Join(s.RangedGroups(), ", "), what)
}
