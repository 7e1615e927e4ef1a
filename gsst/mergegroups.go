package gsst

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// A translation may write one group of processes as two groups a and b
// that behave alike: a size n as proc_na and n - proc_na, a range 2..
// as 1.. and 1.., every count #S[g] as #S[a] + #S[b]. Each group has
// its own counters in the group-counter model, which liveness and the
// backward search read: twice the counters, and the lemmas, ranks and
// invariants found twice (ByMC's cc with its group so split took 2.1 s
// where the one group takes 0.4 s, and its termination was unknown).
//
// MergeGroups writes such a pair back as one group g. The result is the
// same system, up to which of the two groups a process belongs to, when
//
//   - every transition has a and b in the same guard block, or neither
//     (so both take every step under one guard and one update), and every
//     broadcast transfer and rendezvous part names both or neither;
//   - everything else reads their counters only through sums: in every
//     guard, update value, property atom, justice condition and the
//     assumption, #S[a] and #S[b] have the same coefficient for each
//     state S (and so have the sizes |a| and |b|);
//   - no weak fairness constraint names a or b (a constraint per group
//     is not one on their union);
//   - both start in the same state, or spread over the same states
//     (InitOver);
//   - their sizes add up to a size the language writes: two fixed sizes
//     or ranges (la..ha and lb..hb give la+lb..ha+hb), or two sizes over
//     the parameters (ta and tb give ta + tb, the assumption stating ta
//     >= 1 and tb >= 1, which every instance of the system as written
//     has: without them the merged family would have instances, such as
//     a single process, that the system as written lacks).
//
// Then an instance of the system, its sizes ka and kb, is related to
// the instance of the merged system at the same parameters with size
// ka + kb, and every instance of the merged system is so related to
// some instance of the system (a size la+lb..ha+hb is a sum of sizes
// of the two ranges; the parameters are the same, with the same
// assumption). Number the processes of g as those of a, then those of
// b: a run of one instance is a run of the other, process by process,
// since a process of a or b may take a step exactly when a process of g
// in the same local state may (same block, same guard read through
// sums, same update, and a rendezvous or transfer that takes either
// takes both). So the two have the same runs up to the names of the
// groups, every property and justice condition has the same truth on
// corresponding configurations, and each weak fairness constraint,
// which names neither group, is enabled and taken at the same steps:
// each property has the same answer on both, at every size. prove asks
// the merged system and carries the answers back (an invariant or a
// liveness certificate with #S[g] read as #S[a] + #S[b] and |g| as |a|
// + |b|, re-checked on the system as written).

// MergedGroups is a system with one pair of groups merged into one
// (MergeGroups).
type MergedGroups struct {
	System *System
	// A and B are the pair, indices into the given system's Groups (A
	// < B); the merged group has index A in System.Groups, and the
	// groups after B move down by one.
	A, B int
}

// Group returns the index in the merged system of group g of the given
// one (A for both of the pair).
func (m *MergedGroups) Group(g int) int {
	switch {
	case g == m.B:
		return m.A
	case g > m.B:
		return g - 1
	}
	return g
}

// MergeGroups returns s with the first pair of groups that satisfy the
// conditions above merged into one, and false when no pair does.
func (s *System) MergeGroups() (*MergedGroups, bool, error) {
	// Only groups in the same blocks of every transition may merge: a
	// system with a group per rule of a net (hundreds of groups) is
	// read once, not once per pair.
	blocks := make([]strings.Builder, len(s.Groups))
	for i := range s.Transitions {
		t := &s.Transitions[i]
		for g := range s.Groups {
			k := -1
			for j := range t.Blocks {
				if slices.Contains(t.Blocks[j].Groups, g) {
					k = j
				}
			}
			fmt.Fprintf(&blocks[g], "%d ", k)
		}
	}
	for a := range s.Groups {
		for b := a + 1; b < len(s.Groups); b++ {
			if blocks[a].String() != blocks[b].String() || !s.groupsAlike(a, b) || !s.groupSumsOnly(a, b) {
				continue
			}
			m, err := s.mergeGroups(a, b)
			if err != nil {
				return nil, false, err
			}
			if m != nil {
				return m, true, nil
			}
		}
	}
	return nil, false, nil
}

// bothOrNeither reports whether a group list names both a and b or
// neither (nil names every group).
func bothOrNeither(groups []int, a, b int) bool {
	return groups == nil || slices.Contains(groups, a) == slices.Contains(groups, b)
}

// groupsAlike checks the conditions of MergeGroups on the steps, the
// fairness and the initial states of groups a and b.
func (s *System) groupsAlike(a, b int) bool {
	transfers := func(xs []Transfer) bool {
		for _, x := range xs {
			if !bothOrNeither(x.Groups, a, b) {
				return false
			}
		}
		return true
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		ba, bb := t.BlockOf(a), t.BlockOf(b)
		if ba != bb || !transfers(t.Broadcast) {
			return false
		}
	}
	for i := range s.Rendezvous {
		r := &s.Rendezvous[i]
		for _, p := range r.Parts {
			if !bothOrNeither(p.Groups, a, b) {
				return false
			}
		}
		if !transfers(r.Broadcast) {
			return false
		}
	}
	for i := range s.Environment {
		if !transfers(s.Environment[i].Broadcast) {
			return false
		}
	}
	for _, w := range s.Fairness.Weak {
		if w.Group == a || w.Group == b {
			return false
		}
	}
	ga, gb := &s.Groups[a], &s.Groups[b]
	switch {
	case ga.OverParams() != gb.OverParams():
		return false
	case s.InitOver != nil && !slices.Equal(s.InitOver[a], s.InitOver[b]):
		return false
	}
	// Two groups that start apart (mist's queuedbusyflag: threads i
	// and j of one process each, in Iwhile and Jwhile) would merge into
	// one spread over both, which is exact but no translation's split:
	// left as written.
	sa, oka := s.InitState(a)
	sb, okb := s.InitState(b)
	return oka && okb && sa == sb
}

// groupSumsOnly checks that every formula and assigned value of s reads
// the counters of a and b, and their sizes, only through their sums:
// with #S[a] read as #S[a] + d_S and #S[b] as #S[b] - d_S (|a| and |b|
// likewise), no d is left.
func (s *System) groupSumsOnly(a, b int) bool {
	// The d's are variables no formula of s has: past the parameters.
	first := s.ParamVar(len(s.Params)) + 1
	shift := func(v presburger.Var) presburger.Term {
		if st, g, ok := s.Counter(v); ok && (g == a || g == b) {
			d := presburger.VarTerm(first + presburger.Var(st))
			if g == a {
				return presburger.VarTerm(v).Add(d)
			}
			return presburger.VarTerm(v).Sub(d)
		}
		if g, ok := s.Param(v); ok && (g == a || g == b) {
			d := presburger.VarTerm(first + presburger.Var(len(s.States)))
			if g == a {
				return presburger.VarTerm(v).Add(d)
			}
			return presburger.VarTerm(v).Sub(d)
		}
		return presburger.VarTerm(v)
	}
	noD := func(vs []presburger.Var) bool {
		for _, v := range vs {
			if v >= first {
				return false
			}
		}
		return true
	}
	formula := func(f presburger.Formula) bool {
		if f == nil {
			return true
		}
		g, ok := presburger.SubstExact(f, shift)
		return ok && noD(presburger.FreeVars(g))
	}
	term := func(t presburger.Term) bool {
		u, ok := t.SubstExact(shift)
		return ok && noD(presburger.FreeVars(presburger.Compare(u, presburger.Eq, presburger.Term{})))
	}
	steps := s.Steps()
	for i := range steps {
		if !formula(steps[i].Guard) {
			return false
		}
		for _, as := range steps[i].Update.Assign {
			if !term(as.Value) {
				return false
			}
		}
	}
	for i := range s.Properties {
		for _, f := range ctl.Atoms(s.Properties[i].Formula) {
			if !formula(f) {
				return false
			}
		}
	}
	for i := range s.Fairness.Justice {
		if !formula(s.Fairness.Justice[i].Formula) {
			return false
		}
	}
	return formula(s.Assume.Formula)
}

// dropGroup returns groups without b, the groups after it one down, and
// the positions without b's; a nil list (every group) stays nil.
func dropGroup(groups []int, pos []Pos, b int) ([]int, []Pos) {
	if groups == nil {
		return nil, pos
	}
	withPos := len(pos) == len(groups)
	var out []int
	var outPos []Pos
	for k, g := range groups {
		if g == b {
			continue
		}
		if g > b {
			g--
		}
		out = append(out, g)
		if withPos {
			outPos = append(outPos, pos[k])
		}
	}
	if !withPos {
		outPos = pos
	}
	return out, outPos
}

// mergedGroupName is the name of the group merged from a and b: their
// common prefix without a trailing "_" when it is a free name, else
// a_b, with _ added until no other name of s is the same.
func (s *Spec) mergedGroupName(a, b string) string {
	taken := s.names()
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	name := strings.TrimRight(a[:k], "_")
	if name == "" || taken[name] || !validName(name) {
		name = a + "_" + b
	}
	for taken[name] {
		name += "_"
	}
	return name
}

// validName reports whether name is an identifier of the language.
func validName(name string) bool {
	for i, r := range name {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') && (i == 0 || !(r >= '0' && r <= '9')) {
			return false
		}
	}
	return name != ""
}

// mergeGroups builds the merged system of groups a and b, which passed
// groupsAlike and groupSumsOnly; nil when their sizes do not add up to
// one the language writes (see MergeGroups) or a sum would overflow.
func (s *System) mergeGroups(a, b int) (*MergedGroups, error) {
	ga, gb := s.Groups[a], s.Groups[b]
	g := ga
	g.Name = s.mergedGroupName(ga.Name, gb.Name)
	var assume []presburger.Formula
	switch {
	case ga.OverParams():
		t, ok := ga.SizeTerm.AddExact(gb.SizeTerm)
		if !ok {
			return nil, nil
		}
		one := presburger.ConstTerm(1)
		assume = append(assume, presburger.Compare(ga.SizeTerm, presburger.Ge, one), presburger.Compare(gb.SizeTerm, presburger.Ge, one))
		g.SizeTerm, g.SizeTermText = t, "("+ga.SizeTermText+") + ("+gb.SizeTermText+")"
		if t.IsConst() {
			// The sizes cancel out to a constant: a fixed size, which
			// the assumption makes the sum of two positive ones.
			if t.Const < 2 || t.Const > MaxProcesses {
				return nil, nil
			}
			g.Size, g.SizeTerm, g.SizeTermText = int(t.Const), presburger.Term{}, ""
		}
	default:
		lo, ok := checked.Add(int64(ga.Size), int64(gb.Size))
		if !ok || lo > MaxProcesses {
			return nil, nil
		}
		g.Size = int(lo)
		g.Ranged = ga.Ranged || gb.Ranged
		g.Max = 0
		if g.Ranged {
			ha, boundedA := ga.Bounded()
			hb, boundedB := gb.Bounded()
			g.Max = Unbounded
			if boundedA && boundedB {
				g.Max = ha + hb
			}
		}
	}
	spec := s.Spec()
	// Group b's counters read as 0 (they have a's coefficient), a's as
	// the merged group's, and every variable renumbered for one group
	// fewer.
	out := &Spec{States: spec.States, Groups: slices.Delete(slices.Clone(spec.Groups), b, b+1)}
	out.Groups[a] = g
	sub := func(v presburger.Var) presburger.Term {
		if st, h, ok := s.Counter(v); ok {
			switch {
			case h < 0:
				return presburger.VarTerm(out.TotalVar(st))
			case h == b:
				return presburger.Term{}
			case h > b:
				h--
			}
			return presburger.VarTerm(out.GroupVar(st, h))
		}
		if h, ok := s.Param(v); ok {
			switch {
			case h < 0:
				return presburger.VarTerm(out.NVar())
			case h == b:
				return presburger.Term{}
			case h > b:
				h--
			}
			return presburger.VarTerm(out.SizeVar(h))
		}
		// Shared variables and parameters follow n, one place fewer
		// after each of the d-1 counters and the size dropped.
		return presburger.VarTerm(v - presburger.Var(len(s.States)+1))
	}
	spec.Groups = out.Groups
	overflow := !spec.substAll(sub)
	spec.eachUpdate(func(u *Update) {
		for i := range u.Assign {
			u.Assign[i].Var = u.Assign[i].Var - presburger.Var(len(s.States)+1)
		}
	})
	if grp := &spec.Groups[a]; grp.OverParams() {
		grp.SizeTermText = grp.SizeTerm.Format(spec.VarName)
	}
	// Only the conditions the assumption does not state already (a
	// translation that wrote proc_na >= 1 & n - proc_na >= 1).
	have := map[string]bool{}
	if s.Assume.Formula != nil {
		for _, c := range presburger.Conjuncts(s.Assume.Formula) {
			have[presburger.Format(c, s.VarName)] = true
		}
	}
	assume = slices.DeleteFunc(assume, func(f presburger.Formula) bool { return have[presburger.Format(f, s.VarName)] })
	if len(assume) > 0 {
		extra, ok := presburger.SubstExact(presburger.Conj(assume...), sub)
		overflow = overflow || !ok
		text := spec.FormatFormula(extra)
		if spec.Assume.Formula != nil {
			spec.Assume.Formula = presburger.Conj(spec.Assume.Formula, extra)
			spec.Assume.Text = "(" + spec.Assume.Text + ") & " + text
		} else {
			spec.Assume.Formula, spec.Assume.Text = extra, text
		}
	}
	if overflow {
		return nil, nil
	}
	// The initial processes: a's row and b's added up, b's row gone.
	row := slices.Clone(spec.Init[a])
	if !ga.OverParams() {
		for st := range row {
			sum, ok := checked.Add(int64(row[st]), int64(spec.Init[b][st]))
			if !ok {
				return nil, nil
			}
			row[st] = int(sum)
		}
	}
	if ga.OverParams() && !g.OverParams() {
		// A sum over the parameters that is constant: its processes
		// where the placeholder's one starts.
		for st := range row {
			if row[st] > 0 {
				row[st] = g.Size
			}
		}
	}
	spec.Init[a] = row
	spec.Init = slices.Delete(spec.Init, b, b+1)
	if spec.InitOver != nil {
		spec.InitOver = slices.Delete(spec.InitOver, b, b+1)
	}
	if spec.InitPos != nil {
		spec.InitPos = slices.Delete(spec.InitPos, b, b+1)
	}
	// The group lists without b.
	for i := range spec.Transitions {
		t := &spec.Transitions[i]
		for j := range t.Blocks {
			bl := &t.Blocks[j]
			bl.Groups, bl.GroupPos = dropGroup(bl.Groups, bl.GroupPos, b)
		}
		t.Broadcast = dropTransfers(t.Broadcast, b)
	}
	spec.Rendezvous = slices.Clone(spec.Rendezvous)
	for i := range spec.Rendezvous {
		r := &spec.Rendezvous[i]
		r.Parts = slices.Clone(r.Parts)
		for k := range r.Parts {
			r.Parts[k].Groups, _ = dropGroup(r.Parts[k].Groups, nil, b)
		}
		r.Broadcast = dropTransfers(r.Broadcast, b)
	}
	spec.Environment = slices.Clone(spec.Environment)
	for i := range spec.Environment {
		spec.Environment[i].Broadcast = dropTransfers(spec.Environment[i].Broadcast, b)
	}
	spec.Fairness.Weak = slices.Clone(spec.Fairness.Weak)
	for k := range spec.Fairness.Weak {
		if w := &spec.Fairness.Weak[k]; w.Group > b {
			w.Group--
		}
	}
	// The texts as the merged system reads: a guard, property or
	// justice condition that named a group of the pair is written from
	// its formula.
	named := func(text string) bool {
		return strings.Contains(text, ga.Name) || strings.Contains(text, gb.Name)
	}
	for i := range spec.Transitions {
		t := &spec.Transitions[i]
		for j := range t.Blocks {
			if bl := &t.Blocks[j]; bl.Guard != nil && named(bl.Text) {
				bl.Text = spec.FormatFormula(bl.Guard)
			}
		}
	}
	for k := range spec.Rendezvous {
		if r := &spec.Rendezvous[k]; r.Guard != nil && named(r.Text) {
			r.Text = spec.FormatFormula(r.Guard)
		}
	}
	for k := range spec.Environment {
		if e := &spec.Environment[k]; e.Guard != nil && named(e.Text) {
			e.Text = spec.FormatFormula(e.Guard)
		}
	}
	for i := range spec.Properties {
		if p := &spec.Properties[i]; named(p.Text) {
			p.Text = ctl.FormatAtoms(p.Formula, spec.VarName, spec.TypedAtom)
			p.Syntax = nil
		}
	}
	for i := range spec.Fairness.Justice {
		if j := &spec.Fairness.Justice[i]; named(j.Text) {
			j.Text = spec.FormatFormula(j.Formula)
		}
	}
	merged, err := New(spec)
	if err != nil {
		return nil, err
	}
	return &MergedGroups{System: merged, A: a, B: b}, nil
}

// dropTransfers returns xs with group b left out of their group lists.
func dropTransfers(xs []Transfer, b int) []Transfer {
	out := cloneTransfers(xs)
	for k := range out {
		out[k].Groups, _ = dropGroup(out[k].Groups, nil, b)
	}
	return out
}
