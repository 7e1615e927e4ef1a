package gsst

import (
	"math"
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
// guard, justice condition and property and every process of a ranged
// group in the group's initial state. It is what parsing the file with
// those sizes written in would give, so every analysis that needs fixed
// sizes works on it. s itself is returned when it is already that
// instance.
//
// sizes needs one entry per group, each allowed by the group's range (a
// fixed group's own size), at most MaxProcesses in all, and every
// constant of the instance's formulas must stay within MaxConstant (a
// guard "1000*n > #C" cannot be instantiated with n = 10^7). Otherwise
// the error is errkind.Input. A system with parameters not fixed needs
// their values too: InstantiateParams.
func (s *System) Instantiate(sizes []int) (*System, error) {
	if names := s.freeParams(); len(names) > 0 {
		return nil, errkind.Errorf(errkind.Input, "%s: the parameters %s need values (InstantiateParams)", s.Name, strings.Join(names, ", "))
	}
	return s.instance(nil, sizes)
}

// InstantiateParams returns the instance of s in which parameter k has
// the value params[k] and group g has sizes[g] processes, as Instantiate
// does for sizes: every parameter is then fixed (Param.Fixed, Value) and
// folded into every guard, update, justice condition, property and the
// assumption, and a group whose size is an expression over the
// parameters gets its value there. params has one entry per parameter
// (a parameter fixed already must be given its value); sizes one per
// group, where a group whose size is over the parameters takes -1 (or
// its value), or sizes is nil when no group's size is a range.
//
// The values must satisfy the assumption, and make every group's size
// at least 1 (and all of them at most MaxProcesses); otherwise, as for
// the rest, the error is errkind.Input.
func (s *System) InstantiateParams(params, sizes []int) (*System, error) {
	if len(params) != len(s.Params) {
		return nil, errkind.Errorf(errkind.Input, "%s: %d parameter values for %d parameters", s.Name, len(params), len(s.Params))
	}
	return s.instance(params, sizes)
}

// freeParams returns the names of the parameters of s not fixed.
func (s *Spec) freeParams() []string {
	var out []string
	for _, p := range s.Params {
		if !p.Fixed {
			out = append(out, p.Name)
		}
	}
	return out
}

// instance builds the instance of parameter values params (nil: the
// parameters are all fixed) and sizes.
func (s *System) instance(params, sizes []int) (*System, error) {
	value := make([]int, len(s.Params))
	for k, p := range s.Params {
		value[k] = p.Value
		if params == nil {
			continue
		}
		switch v := params[k]; {
		case v < 0 || v > MaxConstant:
			return nil, errkind.Errorf(errkind.Input, "%s: parameter %s = %d is outside 0..%d", s.Name, p.Name, v, MaxConstant)
		case p.Fixed && v != p.Value:
			return nil, errkind.Errorf(errkind.Input, "%s: parameter %s is fixed to %d, not %d", s.Name, p.Name, p.Value, v)
		}
		value[k] = params[k]
	}
	pv := func(v presburger.Var) int64 {
		if k, ok := s.ParamOf(v); ok {
			return int64(value[k])
		}
		return 0
	}
	if f := s.Assume.Formula; f != nil && !presburger.Eval(f, pv) {
		return nil, errkind.Errorf(errkind.Input, "%s: %s do not satisfy the assumption %s", s.Name, s.FormatParams(value), s.Assume.Text)
	}
	if sizes == nil && !s.anyRanged() {
		sizes = make([]int, len(s.Groups))
		for g := range sizes {
			sizes[g] = s.Groups[g].Size
			if s.Groups[g].OverParams() {
				sizes[g] = -1
			}
		}
	}
	if len(sizes) != len(s.Groups) {
		return nil, errkind.Errorf(errkind.Input, "%s: %d sizes for %d groups", s.Name, len(sizes), len(s.Groups))
	}
	sizes = slices.Clone(sizes)
	n := 0
	for g, k := range sizes {
		grp := &s.Groups[g]
		if grp.OverParams() {
			size, ok := grp.SizeTerm.Value(pv)
			switch {
			case !ok || size > MaxProcesses:
				return nil, errkind.Errorf(errkind.Input, "%s: with %s, group %s would have %s processes, above the limit of %d", s.Name, s.FormatParams(value), grp.Name, grp.SizeTerm.BigValue(pv), MaxProcesses)
			case k >= 0 && int64(k) != size:
				return nil, errkind.Errorf(errkind.Input, "%s: group %s has the size %s = %d with %s, not %d", s.Name, grp.Name, grp.sizeTermText(&s.spec), size, s.FormatParams(value), k)
			case size < 1:
				return nil, errkind.Errorf(errkind.Input, "%s: with %s, group %s would have %s = %d processes; every group needs at least one",
					s.Name, s.FormatParams(value), grp.Name, grp.sizeTermText(&s.spec), size)
			}
			sizes[g] = int(size)
		} else if !grp.Allows(k) {
			return nil, errkind.Errorf(errkind.Input, "%s: %s", s.Name, sizeOutside(grp, k))
		}
		if n += sizes[g]; n > MaxProcesses {
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
		if grp.Ranged || grp.OverParams() {
			st, _ := s.InitState(g) // one state: a rule of New
			out.Init[g][st] = sizes[g]
		}
	}
	shared, err := s.foldInitTerms(pv)
	if err != nil {
		return nil, err
	}
	out.Shared = shared
	out.Params = slices.Clone(s.Params)
	for k := range out.Params {
		out.Params[k].Fixed, out.Params[k].Value = true, value[k]
	}
	nv := s.NVar()
	sub := func(v presburger.Var) presburger.Term {
		if v == nv {
			return presburger.ConstTerm(int64(n))
		}
		if k, ok := s.ParamOf(v); ok {
			return presburger.ConstTerm(int64(value[k]))
		}
		return presburger.VarTerm(v)
	}
	// Folding is exact: an atom left without variables is decided by the
	// exact sign of its value, and a constant or coefficient of one that
	// keeps a variable is checked against MaxConstant after it is
	// computed exactly (fits, formulaFits); nothing wraps around.
	fold := func(f presburger.Formula) presburger.Formula {
		out, ok := presburger.SubstExact(f, sub)
		if !ok {
			return overflowed
		}
		return out
	}
	at := "with n = " + strconv.Itoa(n)
	if len(s.Params) > 0 {
		at = "with " + s.FormatParams(value)
	}
	var errs ErrorList
	foldUpdate := func(u Update, where string, pos Pos) Update {
		u.Assign = slices.Clone(u.Assign)
		for i := range u.Assign {
			v, ok := u.Assign[i].Value.SubstExact(sub)
			u.Assign[i].Value = v
			if !ok || !fits(v) {
				errs.Add(pos, "%s, the update of %s has a constant beyond the limit of %d", at, where, MaxConstant)
			}
		}
		return u
	}
	out.Transitions = make([]Transition, len(s.Transitions))
	for i, t := range s.Transitions {
		t.Blocks = append([]Block(nil), t.Blocks...)
		for j := range t.Blocks {
			b := &t.Blocks[j]
			b.Guard = fold(b.Guard)
			if !formulaFits(b.Guard) {
				errs.Add(b.Pos, "%s, the guard of %s has a constant beyond the limit of %d", at, s.TransitionName(&t), MaxConstant)
			}
			b.Update = foldUpdate(b.Update, s.TransitionName(&t), b.Pos)
		}
		out.Transitions[i] = t
	}
	out.Rendezvous = slices.Clone(s.Rendezvous)
	for i := range out.Rendezvous {
		r := &out.Rendezvous[i]
		r.Guard = fold(r.Guard)
		if !formulaFits(r.Guard) {
			errs.Add(r.Pos, "%s, the guard of %s has a constant beyond the limit of %d", at, s.RendezvousName(r), MaxConstant)
		}
		r.Update = foldUpdate(r.Update, s.RendezvousName(r), r.Pos)
	}
	out.Environment = slices.Clone(s.Environment)
	for i := range out.Environment {
		e := &out.Environment[i]
		if e.Guard != nil {
			e.Guard = fold(e.Guard)
			if !formulaFits(e.Guard) {
				errs.Add(e.Pos, "%s, the guard of %s has a constant beyond the limit of %d", at, s.EnvironmentName(i), MaxConstant)
			}
		}
		e.Update = foldUpdate(e.Update, s.EnvironmentName(i), e.Pos)
	}
	out.Fairness.Justice = slices.Clone(s.Fairness.Justice)
	for i := range out.Fairness.Justice {
		j := &out.Fairness.Justice[i]
		j.Formula = fold(j.Formula)
		if !formulaFits(j.Formula) {
			errs.Add(j.Pos, "%s, justice condition %d has a constant beyond the limit of %d", at, i+1, MaxConstant)
		}
	}
	if out.Assume.Formula != nil {
		out.Assume.Formula = fold(out.Assume.Formula)
	}
	out.Properties = make([]Property, len(s.Properties))
	for i, p := range s.Properties {
		p.Formula = ctl.MapAtoms(p.Formula, fold)
		for _, a := range ctl.Atoms(p.Formula) {
			if !formulaFits(a) {
				errs.Add(p.Pos, "%s, property %s has a constant beyond the limit of %d", at, p.Name, MaxConstant)
				break
			}
		}
		out.Properties[i] = p
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return seal(&out.spec), nil
}

// anyRanged reports whether some group's size is a range.
func (s *Spec) anyRanged() bool {
	for g := range s.Groups {
		if s.Groups[g].Ranged {
			return true
		}
	}
	return false
}

// FormatParams writes parameter values as "n=4, t=1, f=1".
func (s *Spec) FormatParams(values []int) string {
	return formatValues(values, func(k int) string { return s.Params[k].Name }, len(s.Params))
}

// formatValues writes "a=1, b=2", value i named name(i) when i < known
// and "?" otherwise.
func formatValues(values []int, name func(int) string, known int) string {
	parts := make([]string, len(values))
	for i, v := range values {
		n := "?"
		if i < known {
			n = name(i)
		}
		parts[i] = n + "=" + strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}

// sortedNames returns the names of named, sorted.
func sortedNames(named map[string]int) []string {
	names := make([]string, 0, len(named))
	for name := range named {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// ParamsByName turns parameter values given by name (as "vsym --params
// n=4,t=1,f=1" gives them) into the values InstantiateParams takes.
// Every parameter not fixed must be named; a fixed one may be left out
// or named with its value. An unknown name, a negative value or a
// parameter left out is errkind.Input, all reported at once.
func (s *System) ParamsByName(named map[string]int) ([]int, error) {
	values := make([]int, len(s.Params))
	index := make(map[string]int, len(s.Params))
	for k, p := range s.Params {
		index[p.Name] = k
		values[k] = -1
		if p.Fixed {
			values[k] = p.Value
		}
	}
	var problems []string
	names := sortedNames(named)
	for _, name := range names {
		v := named[name]
		k, ok := index[name]
		switch {
		case !ok && len(s.Params) == 0:
			problems = append(problems, "no parameter named "+name+" (the system has no parameters)")
		case !ok:
			problems = append(problems, "no parameter named "+name+" (the parameters are "+strings.Join(s.paramNames(), ", ")+")")
		case v < 0:
			problems = append(problems, "parameter "+name+" = "+strconv.Itoa(v)+" is negative")
		case s.Params[k].Fixed && v != s.Params[k].Value:
			problems = append(problems, "parameter "+name+" is fixed to "+strconv.Itoa(s.Params[k].Value)+", not "+strconv.Itoa(v))
		default:
			values[k] = v
		}
	}
	var missing []string
	for k, v := range values {
		if v < 0 && !slices.Contains(names, s.Params[k].Name) {
			missing = append(missing, s.Params[k].Name)
		}
	}
	if len(missing) > 0 {
		problems = append(problems, "no value given for the parameter"+plural(len(missing))+" "+strings.Join(missing, ", "))
	}
	if len(problems) > 0 {
		return nil, errkind.Errorf(errkind.Input, "%s", strings.Join(problems, "; "))
	}
	return values, nil
}

func (s *Spec) paramNames() []string {
	out := make([]string, len(s.Params))
	for k := range s.Params {
		out[k] = s.Params[k].Name
	}
	return out
}

// Smallest returns the instance of s in which every group has its least
// size: s itself when its sizes are fixed. A system with parameters not
// fixed has no smallest instance to pick (the least values satisfying
// the assumption are a question for a solver, and "least" has no single
// meaning over several parameters): Smallest refuses it, naming them.
func (s *System) Smallest() (*System, error) {
	if names := s.freeParams(); len(names) > 0 {
		return nil, errkind.Errorf(errkind.Input, "%s: the parameters %s have no smallest instance to pick; give their values (--params %s)",
			s.Name, strings.Join(names, ", "), strings.Join(names, "=…,")+"=…")
	}
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

// overflowed stands for a folded formula with a constant or coefficient
// beyond int64, which formulaFits refuses (beyond MaxConstant too).
var overflowed = presburger.Cmp{Op: presburger.Eq, T: presburger.ConstTerm(math.MaxInt64)}

// formulaFits reports whether every constant and coefficient of f lies
// within MaxConstant.
func formulaFits(f presburger.Formula) bool {
	for c := range presburger.Atoms(f) {
		if !fits(c.T) {
			return false
		}
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
		if !s.Groups[g].Ranged && !s.Groups[g].OverParams() {
			sizes[g] = s.Groups[g].Size
		}
	}
	var problems []string
	names := sortedNames(named)
	for _, name := range names {
		k := named[name]
		g, ok := index[name]
		switch {
		case !ok:
			problems = append(problems, "no group named "+name+" (the groups are "+s.groupList()+")")
		case s.Groups[g].OverParams():
			problems = append(problems, "the size of group "+name+" is "+s.Groups[g].sizeTermText(&s.spec)+", given by the parameters (give their values instead)")
		case !s.Groups[g].Allows(k):
			problems = append(problems, sizeOutside(&s.Groups[g], k))
		default:
			sizes[g] = k
		}
	}
	var missing []string
	for g, k := range sizes {
		if k < 0 && s.Groups[g].Ranged && !slices.Contains(names, s.Groups[g].Name) {
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
	return formatValues(sizes, func(g int) string { return s.Groups[g].Name }, len(s.Groups))
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

// NeedFixed returns nil for a system whose group sizes and parameters
// are all fixed, and otherwise an errkind.Input error saying that what
// (such as "a counter model") needs fixed sizes and naming the ranged
// groups, or the parameters and --params. The
// analyses that work on one structure call it first; a parametric
// system reaches them through Instantiate.
func (s *System) NeedFixed(what string) error {
	if !s.Parametric() {
		return nil
	}
	if names := s.freeParams(); len(names) > 0 {
		return errkind.Errorf(errkind.Input, "%s: the parameters %s are not fixed; %s needs an instance of the system (give their values with --params %s)",
			s.Name, strings.Join(names, ", "), what, strings.Join(names, "=…,")+"=…")
	}
	return errkind.Errorf(errkind.Input, "%s: group sizes are ranges (%s); %s needs fixed sizes (an instance of the system)",
		s.Name, strings.Join(s.RangedGroups(), ", "), what)
}
