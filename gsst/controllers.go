package gsst

import (
	"slices"
	"strconv"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// A translation may write a shared variable as a controller: a group of
// one process whose local states are the variable's values (lock_F,
// lock_T), guards reading its counters (#lock_T = 1), and every write a
// rendezvous with it (a part lock_F -> lock_T), one per value it may
// hold before when the write does not read it (parts lock_F -> lock_T
// and lock_T -> lock_T). The second rendezvous of each such pair is a
// step no joining makes one with the first (their parts differ), and
// the prover reads two steps and a counter pair where the variable was
// one step and one value: mist's transthesis so written took 39 s of
// CPU, 0.14 s with its shared booleans.
//
// ControllersAsShared reads each controller as a shared variable with
// one value per state of the controller. A group g is a controller when
// it has one process, of a fixed size, starting in one state, and the
// states S it may reach (by the transitions and parts that allow g,
// from its initial state) are its own: no other group starts in S, no
// transition or part moves a process into S from outside it, no
// transfer moves a process from or into S, and no rendezvous has two
// parts from S. Then g's process is in S in every reachable
// configuration, and it is the only process there: the counter #x of a
// state x of S is 1 when g is in x and 0 otherwise, which the variable
// v says (v = k when g is in the k-th state of S). The system returned
// is the system as written with
//
//   - the group g left out, and its states kept, empty (so that the
//     other states and their counters keep their numbers);
//   - v a shared variable 0..|S|-1, starting at the index of g's
//     initial state;
//   - every formula read case by case over the values of the
//     controllers it reads: f as the disjunction over the values k of
//     v = k & f with #x read as 1 for the k-th state of S and 0 for the
//     others (#x[g] alike, #x[h] 0 for another group h, |g| 1, n as
//     the other groups' sizes plus one per controller);
//   - a part x -> y of a rendezvous, x in S, left out, the rendezvous
//     guarded by v = k(x) and updating v := k(y); a rendezvous left
//     with one part is a transition of the groups that part allows,
//     with none an environment step;
//   - a transition x -> y, x in S, an environment step guarded by v =
//     k(x) and its block's guard for g, updating v := k(y); the steps
//     g can never take (a block or part that leaves g out, from a
//     state of S) left out.
//
// Every step of the system as written is so a step of the system
// returned from the corresponding configuration (the counters of S
// read from v), with the same effect on every other process and
// variable, and conversely: the two have the same runs, up to where
// g's process is written. prove asks the system returned and carries
// the answers back, each re-checked or replayed on the system as
// written (an invariant with v read as the sum of k * #x_k over the
// states of S). ok is false when no group is a controller, or when s
// has weak fairness (a constraint per group names g), or a controller's
// counter is read where a formula cannot read it case by case (the
// value of an update, a group size, an initial value, the assumption),
// or its formulas would take more than maxControllerCases cases.
func (s *System) ControllersAsShared() (*Controlled, bool, error) {
	if len(s.Groups) < 2 || len(s.Fairness.Weak) > 0 {
		return nil, false, nil
	}
	var ctls []Controller
	owner := make([]int, len(s.States)) // the controller whose state each is, -1 for none
	for i := range owner {
		owner[i] = -1
	}
	for g := range s.Groups {
		states, ok := s.controlled(g)
		if !ok || slices.ContainsFunc(states, func(x int) bool { return owner[x] >= 0 }) {
			continue
		}
		for _, x := range states {
			owner[x] = len(ctls)
		}
		ctls = append(ctls, Controller{Group: g, States: states})
	}
	if len(ctls) == 0 || len(ctls) == len(s.Groups) {
		return nil, false, nil
	}
	b := &controlBuilder{s: s, ctls: ctls, owner: owner}
	return b.build()
}

// maxControllerCases bounds the cases a formula is read in: the product
// of the numbers of values of the controllers it reads.
const maxControllerCases = 64

// Controlled is a system whose controllers are read as shared variables
// (ControllersAsShared).
type Controlled struct {
	System *System
	// Groups[h] is the group of the system as written that group h of
	// System is.
	Groups      []int
	Controllers []Controller
}

// Controller is a group of the system as written read as a shared
// variable of Controlled.System.
type Controller struct {
	Group  int   // the group, in the system as written
	Shared int   // the variable, an index into Controlled.System.Shared
	States []int // value k of the variable is the process in States[k]
}

// controlled returns the states group g of s may reach, in increasing
// order, when g is a controller (ControllersAsShared).
func (s *System) controlled(g int) ([]int, bool) {
	grp := &s.Groups[g]
	if grp.Ranged || grp.OverParams() || grp.Size != 1 || s.InitOver != nil && s.InitOver[g] != nil {
		return nil, false
	}
	init, ok := s.InitState(g)
	if !ok {
		return nil, false
	}
	in := make([]bool, len(s.States))
	in[init] = true
	allows := func(groups []int) bool { return groups == nil || slices.Contains(groups, g) }
	for changed := true; changed; {
		changed = false
		reach := func(from, to int) {
			if in[from] && !in[to] {
				in[to], changed = true, true
			}
		}
		for i := range s.Transitions {
			t := &s.Transitions[i]
			if slices.ContainsFunc(t.Blocks, func(b Block) bool { return slices.Contains(b.Groups, g) }) {
				reach(t.From, t.To)
			}
		}
		for i := range s.Rendezvous {
			for _, p := range s.Rendezvous[i].Parts {
				if allows(p.Groups) {
					reach(p.From, p.To)
				}
			}
		}
	}
	// Nobody else starts in, enters or is moved out of those states,
	// and no rendezvous needs two processes there.
	for h := range s.Groups {
		if h == g {
			continue
		}
		if s.InitOver != nil && slices.ContainsFunc(s.InitOver[h], func(x int) bool { return in[x] }) {
			return nil, false
		}
		for x, k := range s.Init[h] {
			if k > 0 && in[x] {
				return nil, false
			}
		}
	}
	moves := func(xs []Transfer) bool {
		return slices.ContainsFunc(xs, func(x Transfer) bool { return in[x.From] || in[x.To] })
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		if !in[t.From] && in[t.To] || moves(t.Broadcast) {
			return nil, false
		}
	}
	for i := range s.Rendezvous {
		r := &s.Rendezvous[i]
		from := 0
		for _, p := range r.Parts {
			if !in[p.From] && in[p.To] {
				return nil, false
			}
			if in[p.From] {
				from++
			}
		}
		if from > 1 || moves(r.Broadcast) {
			return nil, false
		}
	}
	for i := range s.Environment {
		if moves(s.Environment[i].Broadcast) {
			return nil, false
		}
	}
	var states []int
	for x, ok := range in {
		if ok {
			states = append(states, x)
		}
	}
	return states, true
}

// controlBuilder builds the system of ControllersAsShared.
type controlBuilder struct {
	s     *System
	ctls  []Controller
	owner []int // by state: the controller whose state it is, or -1
	out   *Spec
	keep  []int // by group as written: its index in out, -1 for a controller
	ok    bool  // false once something cannot be read
	// fixed, while a step is rewritten, holds the value its mover
	// part requires of each controller it moves (-1: none), so that
	// its formulas are read in that case only.
	fixed []int
}

func (b *controlBuilder) build() (*Controlled, bool, error) {
	s := b.s
	isCtl := make([]bool, len(s.Groups))
	for _, c := range b.ctls {
		isCtl[c.Group] = true
	}
	spec := s.Spec()
	out := &Spec{Name: spec.Name, File: spec.File, States: spec.States}
	b.keep = make([]int, len(s.Groups))
	var groups []int
	for g := range s.Groups {
		b.keep[g] = -1
		if !isCtl[g] {
			b.keep[g] = len(out.Groups)
			out.Groups = append(out.Groups, spec.Groups[g])
			groups = append(groups, g)
			out.Init = append(out.Init, spec.Init[g])
			if spec.InitOver != nil {
				out.InitOver = append(out.InitOver, spec.InitOver[g])
			}
			if spec.InitPos != nil {
				out.InitPos = append(out.InitPos, spec.InitPos[g])
			}
		}
	}
	taken := spec.names()
	for _, c := range b.ctls {
		delete(taken, s.Groups[c.Group].Name) // a group no more
	}
	out.Shared = slices.Clone(spec.Shared)
	for i := range b.ctls {
		c := &b.ctls[i]
		init, _ := s.InitState(c.Group)
		k := slices.Index(c.States, init)
		name := s.Groups[c.Group].Name
		for taken[name] {
			name += "_"
		}
		taken[name] = true
		c.Shared = len(out.Shared)
		// Two states make a boolean: true for the second (lock_F,
		// lock_T), as the stages read booleans best.
		v := Shared{Name: name, Bool: len(c.States) == 2, Lo: 0, Hi: len(c.States) - 1, Init: k, InitTerm: presburger.ConstTerm(int64(k)), InitHi: k, InitText: strconv.Itoa(k), Pos: s.Groups[c.Group].Pos}
		if v.Bool {
			v.InitText = v.ValueName(k)
		}
		out.Shared = append(out.Shared, v)
	}
	out.Params = spec.Params
	b.out, b.ok = out, true
	b.fixed = make([]int, len(b.ctls))
	b.unfix()

	// Sizes, initial values and the assumption: terms and a formula
	// no controller's counter may be read in.
	for g := range out.Groups {
		out.Groups[g].SizeTerm = b.term(out.Groups[g].SizeTerm)
	}
	for j := range spec.Shared {
		out.Shared[j].InitTerm, out.Shared[j].InitHiTerm = b.term(spec.Shared[j].InitTerm), b.term(spec.Shared[j].InitHiTerm)
	}
	out.Assume = spec.Assume
	if spec.Assume.Formula != nil {
		if b.readsControllers(spec.Assume.Formula) {
			return nil, false, nil
		}
		out.Assume.Formula = b.formula(spec.Assume.Formula)
	}

	for i := range spec.Transitions {
		t := spec.Transitions[i]
		if c := b.owner[t.From]; c >= 0 {
			g := b.ctls[c].Group
			at := slices.IndexFunc(t.Blocks, func(bl Block) bool { return slices.Contains(bl.Groups, g) })
			if at < 0 {
				continue // never taken: only g is ever in t.From
			}
			bl := &t.Blocks[at]
			guard, update := b.movedRaw(c, t.From, t.To, bl.Guard, bl.Update)
			guard, update = b.formula(guard), b.update(update)
			b.unfix()
			out.Environment = append(out.Environment, Environment{Name: t.Name, NamePos: t.NamePos, Guard: guard, Update: update, Broadcast: b.transfers(t.Broadcast), Pos: t.Pos})
			continue
		}
		var blocks []Block
		for _, bl := range t.Blocks {
			gs := b.groups(bl.Groups)
			if len(gs) == 0 {
				continue
			}
			bl.Groups, bl.GroupPos = gs, nil
			bl.Guard, bl.Update = b.formula(bl.Guard), b.update(bl.Update)
			blocks = append(blocks, bl)
		}
		if len(blocks) == 0 {
			continue
		}
		t.Blocks, t.Broadcast = blocks, b.transfers(t.Broadcast)
		out.Transitions = append(out.Transitions, t)
	}
	for i := range spec.Rendezvous {
		r := spec.Rendezvous[i]
		guard, update := r.Guard, r.Update
		var parts []Part
		dead := false
		for _, p := range r.Parts {
			if c := b.owner[p.From]; c >= 0 {
				if p.Groups != nil && !slices.Contains(p.Groups, b.ctls[c].Group) {
					dead = true
				}
				guard, update = b.movedRaw(c, p.From, p.To, guard, update)
				continue
			}
			if p.Groups != nil {
				p.Groups = b.groups(p.Groups)
				if len(p.Groups) == 0 {
					dead = true
				}
			}
			parts = append(parts, p)
		}
		if dead {
			b.unfix()
			continue
		}
		guard, update = b.formula(guard), b.update(update)
		b.unfix()
		switch len(parts) {
		case 0:
			out.Environment = append(out.Environment, Environment{Name: r.Name, NamePos: r.NamePos, Guard: guard, Update: update, Broadcast: b.transfers(r.Broadcast), Pos: r.Pos})
		case 1:
			p := parts[0]
			gs := p.Groups
			if gs == nil {
				gs = make([]int, len(out.Groups))
				for h := range gs {
					gs[h] = h
				}
			}
			out.Transitions = append(out.Transitions, Transition{Name: r.Name, NamePos: r.NamePos, From: p.From, To: p.To, Pos: r.Pos,
				Blocks: []Block{{Groups: gs, Guard: guard, Pos: r.Pos, Update: update}}, Broadcast: b.transfers(r.Broadcast)})
		default:
			r.Parts, r.Guard, r.Update, r.Broadcast = parts, guard, update, b.transfers(r.Broadcast)
			out.Rendezvous = append(out.Rendezvous, r)
		}
	}
	for i := range spec.Environment {
		e := spec.Environment[i]
		e.Guard, e.Update, e.Broadcast = b.formula(e.Guard), b.update(e.Update), b.transfers(e.Broadcast)
		out.Environment = append(out.Environment, e)
	}
	out.Properties = slices.Clone(spec.Properties)
	for i := range out.Properties {
		p := &out.Properties[i]
		p.Formula = ctl.MapAtoms(p.Formula, b.formula)
		p.Syntax = nil
	}
	out.Fairness.Justice = slices.Clone(spec.Fairness.Justice)
	for i := range out.Fairness.Justice {
		out.Fairness.Justice[i].Formula = b.formula(out.Fairness.Justice[i].Formula)
	}
	if !b.ok {
		return nil, false, nil
	}
	// The texts as the system returned reads, written from the formulas.
	text := func(f presburger.Formula, was string) string {
		if was == "" && f == presburger.Formula(presburger.True) {
			return ""
		}
		return out.FormatFormula(f)
	}
	for i := range out.Transitions {
		for j := range out.Transitions[i].Blocks {
			bl := &out.Transitions[i].Blocks[j]
			bl.Text, bl.Update.Text = text(bl.Guard, bl.Text), out.FormatUpdate(&bl.Update)
		}
	}
	for i := range out.Rendezvous {
		r := &out.Rendezvous[i]
		r.Text, r.Update.Text = text(r.Guard, r.Text), out.FormatUpdate(&r.Update)
	}
	for i := range out.Environment {
		e := &out.Environment[i]
		e.Text, e.Update.Text = text(e.Guard, e.Text), out.FormatUpdate(&e.Update)
	}
	for i := range out.Properties {
		p := &out.Properties[i]
		p.Text = ctl.FormatAtoms(p.Formula, out.VarName, out.TypedAtom)
	}
	for i := range out.Fairness.Justice {
		j := &out.Fairness.Justice[i]
		j.Text = out.FormatFormula(j.Formula)
	}
	if out.Assume.Formula != nil {
		out.Assume.Text = out.FormatFormula(out.Assume.Formula)
	}
	sys, err := New(out)
	if err != nil {
		return nil, false, err
	}
	return &Controlled{System: sys, Groups: groups, Controllers: b.ctls}, true, nil
}

// unfix ends the rewriting of a step: no controller's value is fixed.
func (b *controlBuilder) unfix() {
	for c := range b.fixed {
		b.fixed[c] = -1
	}
}

// movedRaw returns the guard and update of a step that moves controller
// c's process from x to y: guard and v = k(x), update and v := k(y),
// over the variables of the system as written with v written as the
// controller's raw variable (rawVar), which formula and update map to
// v; and it fixes c at k(x) for the step's formulas.
func (b *controlBuilder) movedRaw(c, x, y int, guard presburger.Formula, u Update) (presburger.Formula, Update) {
	v := b.rawVar(c)
	ctl := &b.ctls[c]
	b.fixed[c] = slices.Index(ctl.States, x)
	at := presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(int64(b.fixed[c])))
	if guard == nil {
		guard = at
	} else {
		guard = presburger.Conj(guard, at)
	}
	// v := k(y) even where y is x: the same write as a part that
	// moves the controller elsewhere, so that the steps of one write
	// written per value before (lock_F -> lock_T, lock_T -> lock_T)
	// have one effect, which gsst's JoinCases makes one step.
	u.Assign = append(slices.Clone(u.Assign), Assign{Var: v, Value: presburger.ConstTerm(int64(slices.Index(ctl.States, y)))})
	return guard, u
}

// rawVar is the variable that stands for controller c's value in the
// formulas of the system as written while they are rewritten: past
// every variable of the system as written.
func (b *controlBuilder) rawVar(c int) presburger.Var {
	return b.s.ParamVar(len(b.s.Params)) + presburger.Var(c)
}

// readsControllers reports whether f reads a counter of a controller's
// states, or of a controller group.
func (b *controlBuilder) readsControllers(f presburger.Formula) bool {
	return slices.ContainsFunc(presburger.FreeVars(f), func(v presburger.Var) bool { _, ok := b.readOf(v); return ok })
}

// readOf returns the controller a variable of the system as written
// reads: a counter of one of its states, any of its group's counters,
// its size.
func (b *controlBuilder) readOf(v presburger.Var) (int, bool) {
	s := b.s
	if st, g, ok := s.Counter(v); ok {
		if c := b.owner[st]; c >= 0 {
			return c, true
		}
		if g >= 0 {
			return slices.IndexFunc(b.ctls, func(c Controller) bool { return c.Group == g }), b.keep[g] < 0
		}
		return 0, false
	}
	if g, ok := s.Param(v); ok && g >= 0 && b.keep[g] < 0 {
		return slices.IndexFunc(b.ctls, func(c Controller) bool { return c.Group == g }), true
	}
	return 0, false
}

// formula rewrites f, over the variables of the system as written (and
// the controllers' raw variables), over those of the system returned:
// each atom that reads controllers case by case over their values (v
// = k & the atom with #x read as 1 for the k-th state and 0 for the
// others), so that an atom over one state folds to its one case
// (#lock_T = 1 to lock = 1) and the formula keeps its shape.
func (b *controlBuilder) formula(f presburger.Formula) presburger.Formula {
	switch f := f.(type) {
	case nil:
		return nil
	case presburger.Bool:
		return f
	case presburger.Cmp:
		return b.atom(f)
	case presburger.Not:
		return presburger.Negation(b.formula(f.F))
	case presburger.And:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = b.formula(g)
		}
		return presburger.Conj(out...)
	case presburger.Or:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = b.formula(g)
		}
		return presburger.Disj(out...)
	}
	// An Exists: read as it is when it reads no controller.
	if b.readsControllers(f) {
		b.ok = false
		return f
	}
	g, ok := presburger.SubstExact(f, func(v presburger.Var) presburger.Term { return b.sub(v, nil) })
	if !ok {
		b.ok = false
	}
	return g
}

// atom rewrites one comparison (formula).
func (b *controlBuilder) atom(f presburger.Cmp) presburger.Formula {
	var read []int
	for _, m := range f.T.Monos {
		if c, ok := b.readOf(m.Var); ok && !slices.Contains(read, c) && b.fixed[c] < 0 {
			read = append(read, c)
		}
	}
	// The controllers a step fixes (a part that moves one from a
	// state) are read at that value only: its guard says so.
	cases := 1
	for _, c := range read {
		cases *= len(b.ctls[c].States)
		if cases > maxControllerCases {
			b.ok = false
			return f
		}
	}
	value := slices.Clone(b.fixed) // the case: each controller's value
	for _, c := range read {
		value[c] = 0
	}
	var out []presburger.Formula
	for {
		g, ok := presburger.SubstExact(f, func(v presburger.Var) presburger.Term { return b.sub(v, value) })
		if !ok {
			b.ok = false
			return f
		}
		parts := []presburger.Formula{g}
		for _, c := range read {
			parts = append(parts, presburger.Compare(presburger.VarTerm(b.out.SharedVar(b.ctls[c].Shared)), presburger.Eq, presburger.ConstTerm(int64(value[c]))))
		}
		out = append(out, presburger.Conj(parts...))
		// The next case: the values counted up, the first read
		// controller fastest.
		i := 0
		for ; i < len(read); i++ {
			c := read[i]
			if value[c]++; value[c] < len(b.ctls[c].States) {
				break
			}
			value[c] = 0
		}
		if i == len(read) {
			break
		}
	}
	return presburger.Disj(out...)
}

// sub maps variable v of the system as written to its term in the
// system returned, the controllers at the values given: a controller's
// counter 1 in its state of the value and 0 elsewhere, its size 1.
func (b *controlBuilder) sub(v presburger.Var, value []int) presburger.Term {
	s, out := b.s, b.out
	if raw := v - b.rawVar(0); v >= b.rawVar(0) && int(raw) < len(b.ctls) {
		return presburger.VarTerm(out.SharedVar(b.ctls[raw].Shared))
	}
	if c, ok := b.readOf(v); ok {
		st, g, isCounter := s.Counter(v)
		ctl := &b.ctls[c]
		switch {
		case !isCounter:
			return presburger.ConstTerm(1) // the controller's size
		case b.owner[st] == c && (g < 0 || g == ctl.Group) && ctl.States[value[c]] == st:
			return presburger.ConstTerm(1)
		}
		return presburger.Term{}
	}
	if st, g, ok := s.Counter(v); ok {
		if g < 0 {
			return presburger.VarTerm(out.TotalVar(st))
		}
		return presburger.VarTerm(out.GroupVar(st, b.keep[g]))
	}
	if g, ok := s.Param(v); ok {
		if g < 0 {
			return presburger.VarTerm(out.NVar()).Add(presburger.ConstTerm(int64(len(b.ctls))))
		}
		return presburger.VarTerm(out.SizeVar(b.keep[g]))
	}
	if j, ok := s.SharedOf(v); ok {
		return presburger.VarTerm(out.SharedVar(j))
	}
	if k, ok := s.ParamOf(v); ok {
		return presburger.VarTerm(out.ParamVar(k))
	}
	b.ok = false
	return presburger.VarTerm(v)
}

// term rewrites t, which must read no controller.
func (b *controlBuilder) term(t presburger.Term) presburger.Term {
	for _, m := range t.Monos {
		if _, ok := b.readOf(m.Var); ok {
			b.ok = false
			return t
		}
	}
	u, ok := t.SubstExact(func(v presburger.Var) presburger.Term { return b.sub(v, nil) })
	if !ok {
		b.ok = false
	}
	return u
}

// update rewrites the assignments of u over the variables of the
// system returned.
func (b *controlBuilder) update(u Update) Update {
	u.Assign = slices.Clone(u.Assign)
	for i := range u.Assign {
		a := &u.Assign[i]
		a.Var = b.sub(a.Var, nil).Monos[0].Var
		a.Value = b.term(a.Value)
	}
	return u
}

// groups maps a group list of the system as written to the system
// returned, the controllers left out.
func (b *controlBuilder) groups(gs []int) []int {
	var out []int
	for _, g := range gs {
		if h := b.keep[g]; h >= 0 {
			out = append(out, h)
		}
	}
	return out
}

// transfers maps transfers to the system returned; a transfer that
// only controllers may take (none is ever in its source) is left out.
func (b *controlBuilder) transfers(xs []Transfer) []Transfer {
	var out []Transfer
	for _, x := range cloneTransfers(xs) {
		if x.Groups != nil {
			if x.Groups = b.groups(x.Groups); len(x.Groups) == 0 {
				continue
			}
		}
		out = append(out, x)
	}
	return out
}
