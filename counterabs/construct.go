package counterabs

import (
	"fmt"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// construct builds the candidate guard of the abstract transition of
// the steps cls, over total counters and shared variables, and says
// which case built it. The candidate is checked by check before use.
//
// The guard is the existential abstraction of the steps' enabledness
// (System.EnabledFormula): a counter vector and shared values satisfy it
// when some configuration with those totals lets a process take one of
// the steps. Three ways build it:
//
//   - one step whose enabledness reads total counters only (every part
//     of any group, a guard over totals): that formula itself (case a);
//   - steps of one mover (the guard blocks of a local transition): the
//     paper's cases b, c and projection over the blocks (paperCases),
//     conjoined with the update's domain, which reads shared variables
//     only and so passes through the abstraction;
//   - any other step (a rendezvous whose parts are restricted to groups
//     or whose guard reads group counters, an environment step whose
//     guard reads group counters): Z3's projection of its enabledness
//     (projectSteps).
func (b *builder) construct(cls []int) (presburger.Formula, Case, error) {
	sys := b.sys
	first := &sys.Steps()[cls[0]]
	if f := sys.EnabledFormula(first); len(cls) == 1 && sys.IsTotal(f) {
		return f, CaseA, nil
	}
	if len(first.Parts) != 1 {
		f, err := b.projectSteps(cls)
		return f, CaseProjection, err
	}
	f, c, err := b.paperCases(b.blocks(cls))
	if err != nil {
		return nil, c, err
	}
	return presburger.Conj(f, sys.InDomain(&first.Update, sys.Shared)), c, nil
}

// blocks is a local transition u -> v as the paper's cases read it: its
// source u and its guard blocks, each a set of groups with a guard.
type blocks struct {
	u      int
	blocks []block
}

type block struct {
	groups []int // never nil
	guard  presburger.Formula
}

// blocks returns the steps cls, of one mover each, as the paper's guard
// blocks of their local transition.
func (b *builder) blocks(cls []int) blocks {
	sys := b.sys
	all := sys.Steps()
	out := blocks{u: all[cls[0]].Parts[0].From}
	for _, s := range cls {
		st := &all[s]
		bl := block{groups: st.Parts[0].Groups, guard: st.Guard}
		if bl.groups == nil {
			for g := range sys.Groups {
				bl.groups = append(bl.groups, g)
			}
		}
		out.blocks = append(out.blocks, bl)
	}
	return out
}

// paperCases builds g_r for the blocks t by the paper's cases: b when
// every guard reads total counters, c when they read group counters of
// the source only (in a form it handles), and projection otherwise.
func (b *builder) paperCases(t blocks) (presburger.Formula, Case, error) {
	sys := b.sys
	allTotal := true
	for _, bl := range t.blocks {
		allTotal = allTotal && sys.IsTotal(bl.guard)
	}
	if allTotal {
		f, err := b.caseB(t)
		return f, CaseB, err
	}
	if clauses, ok := b.orbitClauses(t); ok {
		f, err := b.simplifyClauses(presburger.Var(t.u), clauses)
		return f, CaseC, err
	}
	f, err := b.project(t)
	return f, CaseProjection, err
}

// source returns x_u >= 1: that one process of any group is in u, the
// enabledness of a mover from u on total counters.
func (b *builder) source(u int) presburger.Formula {
	return b.sys.MoversFormula([]gsst.Part{{From: u}})
}

// blockSize returns the number of processes in the groups of bl.
func (b *builder) blockSize(bl *block) int {
	k := 0
	for _, g := range bl.groups {
		k += b.sys.Groups[g].Size
	}
	return k
}

// caseB is the paper's case (b), read as the existential abstraction: a
// counter vector a has a concretization in which a process of block B is
// in u and B's guard holds iff a_u >= 1, B holds at least one process and
// g_B(a) (the guard reads total counters only, and the other processes
// can be spread over the states as a demands). So g_r = x_u >= 1 & OR of
// the guards of the non-empty blocks, for every system; certification is
// what makes this existential abstraction the exact quotient. Groups in no
// block only lose the chance to fire, which the OR already accounts for.
func (b *builder) caseB(t blocks) (presburger.Formula, error) {
	var guards []presburger.Formula
	seen := map[string]bool{}
	for i := range t.blocks {
		bl := &t.blocks[i]
		if b.blockSize(bl) == 0 {
			continue
		}
		key := presburger.Format(bl.guard, b.sys.VarName)
		if seen[key] {
			continue
		}
		seen[key] = true
		guards = append(guards, bl.guard)
	}
	src := b.source(t.u)
	raw := presburger.Conj(src, presburger.Disj(guards...))
	if dnfSize(raw, b.cfg.maxClauses) <= b.cfg.maxClauses {
		return b.simplifyClauses(presburger.Var(t.u), presburger.DNF(raw))
	}
	if len(guards) > 1 && b.cfg.simplify && len(guards) <= b.cfg.maxClauses {
		var err error
		guards, err = b.dropImplied(src, guards)
		if err != nil {
			return nil, err
		}
	}
	return presburger.Conj(src, presburger.Disj(guards...)), nil
}

// orbitClauses is the paper's case (c). It applies when every clause of
// every guard's DNF is a conjunction of atoms over total counters and of
// atoms c*#u[h] + k op 0 on one group counter of the source state u. For a
// firing group g and a clause, the states of the clause with a process of
// g in u are those where each group h has #u[h] in some interval
// lo_h..hi_h (0..size(h) unless the clause says more; lo_g >= 1) and the
// total atoms hold. Their orbit is exactly
//
//	sum lo_h <= x_u <= sum hi_h  &  total atoms
//
// because any split of x_u into per-group counts within the intervals can
// be completed to a configuration with the given totals (the remaining
// processes of each group go anywhere else; there is no capacity limit per
// state). The clauses of all firing groups are returned; ok is false when
// some guard is outside the fragment or its DNF is too large.
func (b *builder) orbitClauses(t blocks) (clauses [][]presburger.Formula, ok bool) {
	sys := b.sys
	u := t.u
	for i := range t.blocks {
		bl := &t.blocks[i]
		if b.blockSize(bl) == 0 {
			continue
		}
		if dnfSize(bl.guard, b.cfg.maxClauses) > b.cfg.maxClauses {
			return nil, false
		}
		type groupAtom struct {
			group  int
			lo, hi int64 // noLo / noHi for a missing side (atomInterval)
		}
		type parsed struct {
			totals []presburger.Formula
			groups []groupAtom
			empty  bool
		}
		var dnf []parsed
		for _, cl := range presburger.DNF(bl.guard) {
			var p parsed
			for _, a := range cl {
				c, isCmp := a.(presburger.Cmp)
				if !isCmp {
					return nil, false
				}
				if sys.IsTotal(c) {
					p.totals = append(p.totals, c)
					continue
				}
				if len(c.T.Monos) != 1 {
					return nil, false
				}
				s, h, _ := sys.Counter(c.T.Monos[0].Var)
				if s != u || h < 0 {
					return nil, false
				}
				lo, hi, nonEmpty := atomInterval(c.Op, c.T.Monos[0].Coef, c.T.Const)
				if !nonEmpty {
					p.empty = true
				}
				p.groups = append(p.groups, groupAtom{h, lo, hi})
			}
			dnf = append(dnf, p)
		}
		for _, g := range bl.groups {
			if sys.Groups[g].Size == 0 {
				continue
			}
			for _, p := range dnf {
				if p.empty {
					continue
				}
				lo := make([]int64, len(sys.Groups))
				hi := make([]int64, len(sys.Groups))
				for h, grp := range sys.Groups {
					hi[h] = int64(grp.Size)
				}
				lo[g] = 1
				for _, a := range p.groups {
					lo[a.group] = max(lo[a.group], a.lo)
					hi[a.group] = min(hi[a.group], a.hi)
				}
				var sumLo, sumHi int64
				feasible := true
				for h := range lo {
					if lo[h] > hi[h] {
						feasible = false
						break
					}
					sumLo += lo[h]
					sumHi += hi[h]
				}
				if !feasible {
					continue
				}
				x := presburger.VarTerm(presburger.Var(u))
				var atoms []presburger.Formula
				if sumLo == sumHi {
					atoms = append(atoms, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(sumLo)))
				} else {
					atoms = append(atoms, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(sumLo)))
					if sumHi < int64(b.n) {
						atoms = append(atoms, presburger.Compare(x, presburger.Le, presburger.ConstTerm(sumHi)))
					}
				}
				atoms = append(atoms, p.totals...)
				clauses = append(clauses, atoms)
			}
		}
	}
	return clauses, true
}

// project eliminates the group counters from Dom(R_r) with the projector,
// one firing group at a time. Each problem is first made as small as the
// projection allows, which matters because quantifier elimination is
// expensive in the number of variables:
//
//   - only the total counters of the states the block's guard mentions
//     (and of u) are kept; the other states are merged into one slack
//     counter per group;
//   - the groups that the guard does not mention by a group counter, other
//     than the firing group, are merged into one pseudo-group whose size
//     is the sum of theirs.
//
// Both merges preserve the projection on the abstract state space, for
// the same reason: there is no capacity per state or per group, so any
// merged vector of counters with the right sums splits back into the
// merged states or groups (a transportation problem with only row and
// column sums is always feasible).
func (b *builder) project(t blocks) (presburger.Formula, error) {
	sys := b.sys
	name := b.cur.name
	if b.proj == nil {
		return nil, fmt.Errorf("counterabs: transition %s: its guards read group counters outside the paper's fragment, and no projector was given", name)
	}
	var parts []presburger.Formula
	for i := range t.blocks {
		bl := &t.blocks[i]
		for _, g := range bl.groups {
			if sys.Groups[g].Size == 0 {
				continue
			}
			p, keep := b.projectionProblem(t.u, g, bl.guard)
			f, res, err := b.proj.Project(b.ctx, p, keep)
			if err != nil {
				return nil, fmt.Errorf("counterabs: transition %s: projection for group %s: %w", name, sys.Groups[g].Name, err)
			}
			if res == presburger.Unknown || f == nil {
				return nil, &UnknownError{Transition: name, Pos: b.pos(), What: "projection for group " + sys.Groups[g].Name}
			}
			kept := map[presburger.Var]bool{}
			for _, v := range keep {
				kept[v] = true
			}
			for _, v := range presburger.FreeVars(f) {
				if !kept[v] {
					return nil, &InternalError{Transition: name, Msg: fmt.Sprintf("projection kept variable %d, which is not a kept total counter", v)}
				}
			}
			parts = append(parts, f)
		}
	}
	f := presburger.Disj(parts...)
	if dnfSize(f, b.cfg.maxClauses) <= b.cfg.maxClauses {
		var err error
		if f, err = b.simplifyClauses(presburger.Var(t.u), presburger.DNF(f)); err != nil {
			return nil, err
		}
	}
	return b.withSource(t.u, f), nil
}

// withSource conjoins x_u >= 1 to g unless every disjunct of g already
// bounds x_u from below by a positive constant: g implies it on the
// abstract state space (it is checked), and writing it makes the
// decrement of x_u visibly safe.
func (b *builder) withSource(u int, g presburger.Formula) presburger.Formula {
	has := func(f presburger.Formula) bool {
		atoms := []presburger.Formula{f}
		if a, ok := f.(presburger.And); ok {
			atoms = a
		}
		for _, a := range atoms {
			c, ok := a.(presburger.Cmp)
			if !ok || len(c.T.Monos) != 1 || c.T.Monos[0].Var != presburger.Var(u) || c.T.Monos[0].Coef <= 0 {
				continue
			}
			lo, _, _ := atomInterval(c.Op, c.T.Monos[0].Coef, c.T.Const)
			if lo >= 1 {
				return true
			}
		}
		return false
	}
	switch g := g.(type) {
	case presburger.Bool:
		return g
	case presburger.Or:
		for _, d := range g {
			if !has(d) {
				return presburger.Conj(b.source(u), g)
			}
		}
		return g
	}
	if has(g) {
		return g
	}
	return presburger.Conj(b.source(u), g)
}

// dnfSize returns the number of clauses DNF(f) would have, saturating just
// above limit.
func dnfSize(f presburger.Formula, limit int) int {
	var size func(f presburger.Formula, neg bool) int
	sat := func(k int) int { return min(k, limit+1) }
	size = func(f presburger.Formula, neg bool) int {
		switch f := f.(type) {
		case presburger.Bool:
			if bool(f) != neg {
				return 1
			}
			return 0
		case presburger.Cmp:
			op := f.Op
			if neg {
				op = op.Negate()
			}
			if op == presburger.Ne {
				return 2
			}
			return 1
		case presburger.Not:
			return size(f.F, !neg)
		case presburger.And, presburger.Or:
			var parts []presburger.Formula
			isAnd := false
			if a, ok := f.(presburger.And); ok {
				parts, isAnd = a, true
			} else {
				parts = f.(presburger.Or)
			}
			if neg {
				isAnd = !isAnd
			}
			if isAnd {
				k := 1
				for _, p := range parts {
					k = sat(k * size(p, neg))
				}
				return k
			}
			k := 0
			for _, p := range parts {
				k = sat(k + size(p, neg))
			}
			return k
		}
		return 1
	}
	return size(f, false)
}

// projectionProblem returns the reduced problem "some process of group g
// is in u and guard holds" over total counters x (kept) and group counters
// (eliminated); see project for the merges.
func (b *builder) projectionProblem(u, g int, guard presburger.Formula) (presburger.Problem, []presburger.Var) {
	sys := b.sys
	in := make([]bool, len(sys.States))
	in[u] = true
	named := make([]bool, len(sys.Groups)) // groups kept individually
	named[g] = true
	for _, v := range presburger.FreeVars(guard) {
		if s, h, ok := sys.Counter(v); ok {
			in[s] = true
			if h >= 0 {
				named[h] = true
			}
		}
	}
	var states []int // kept states, then the slack state if any
	slack := -1
	for s := range sys.States {
		switch {
		case in[s]:
			states = append(states, s)
		case slack < 0:
			slack = s
		}
	}
	if slack >= 0 {
		states = append(states, slack)
	}
	type grp struct {
		rep  int // group whose variables hold the counters
		size int
	}
	var groups []grp
	rest := grp{rep: -1}
	for h, gr := range sys.Groups {
		switch {
		case named[h]:
			groups = append(groups, grp{h, gr.Size})
		case gr.Size > 0:
			if rest.rep < 0 {
				rest.rep = h
			}
			rest.size += gr.Size
		}
	}
	if rest.rep >= 0 {
		groups = append(groups, rest)
	}

	var bounds []presburger.Bound
	var conj []presburger.Formula
	for _, gr := range groups {
		var sum presburger.Term
		for _, s := range states {
			v := sys.GroupVar(s, gr.rep)
			bounds = append(bounds, presburger.Bound{Var: v, Lo: 0, Hi: int64(gr.size)})
			sum = sum.Add(presburger.VarTerm(v))
		}
		conj = append(conj, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(gr.size))))
	}
	var keep []presburger.Var
	for _, s := range states {
		if s == slack {
			continue
		}
		x := presburger.Var(s)
		keep = append(keep, x)
		bounds = append(bounds, presburger.Bound{Var: x, Lo: 0, Hi: int64(b.n)})
		var total presburger.Term
		for _, gr := range groups {
			total = total.Add(presburger.VarTerm(sys.GroupVar(s, gr.rep)))
		}
		conj = append(conj, presburger.Compare(presburger.VarTerm(x), presburger.Eq, total))
	}
	// Shared variables the guard reads are kept, within their domains:
	// the projection is over totals and shared values.
	for _, v := range presburger.FreeVars(guard) {
		if j, ok := sys.SharedOf(v); ok {
			keep = append(keep, v)
			bounds = append(bounds, sys.Shared[j].Bounds(v))
		}
	}
	conj = append(conj,
		presburger.Compare(presburger.VarTerm(sys.GroupVar(u, g)), presburger.Ge, presburger.ConstTerm(1)),
		guard)
	return presburger.Problem{Bounds: bounds, F: presburger.Conj(conj...)}, keep
}

// projectSteps returns the existential abstraction of the enabledness of
// the steps cls: the formula over total counters and shared variables
// that holds where some configuration with those totals can take one of
// them (Z3's quantifier elimination, through the projector), with every
// group counter of every state eliminated.
func (b *builder) projectSteps(cls []int) (presburger.Formula, error) {
	sys := b.sys
	name := b.cur.name
	if b.proj == nil {
		return nil, fmt.Errorf("counterabs: %s: its guard needs projection, and no projector was given", name)
	}
	yc := detect.Counters{Group: func(s, g int) presburger.Term { return presburger.VarTerm(sys.GroupVar(s, g)) }}
	var bounds []presburger.Bound
	var conj []presburger.Formula
	for g, grp := range sys.Groups {
		var sum presburger.Term
		for s := range sys.States {
			bounds = append(bounds, presburger.Bound{Var: sys.GroupVar(s, g), Lo: 0, Hi: int64(grp.Size)})
			sum = sum.Add(yc.Group(s, g))
		}
		conj = append(conj, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(grp.Size))))
	}
	var keep []presburger.Var
	for s := range sys.States {
		x := presburger.Var(s)
		keep = append(keep, x)
		bounds = append(bounds, presburger.Bound{Var: x, Lo: 0, Hi: int64(b.n)})
		var total presburger.Term
		for g := range sys.Groups {
			total = total.Add(yc.Group(s, g))
		}
		conj = append(conj, presburger.Compare(presburger.VarTerm(x), presburger.Eq, total))
	}
	for j, bd := range sharedBounds(sys) {
		keep = append(keep, sys.SharedVar(j))
		bounds = append(bounds, bd)
	}
	conj = append(conj, b.enabled(cls, yc))
	f, res, err := b.proj.Project(b.ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(conj...)}, keep)
	if err != nil {
		return nil, fmt.Errorf("counterabs: %s: projection: %w", name, err)
	}
	if res == presburger.Unknown || f == nil {
		return nil, &UnknownError{Transition: name, Pos: b.pos(), What: "projection"}
	}
	return f, nil
}

// enabled returns the condition, over the counters yc, that one of the
// steps cls can be taken (System.EnabledFormula).
func (b *builder) enabled(cls []int, yc detect.Counters) presburger.Formula {
	all := b.sys.Steps()
	parts := make([]presburger.Formula, len(cls))
	for i, s := range cls {
		parts[i] = detect.Guard(b.sys, b.sys.EnabledFormula(&all[s]), yc)
	}
	return presburger.Disj(parts...)
}
