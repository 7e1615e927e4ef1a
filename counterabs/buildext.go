package counterabs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// The total-counter model of a certified system beyond the paper's GSSTs
// (shared variables with updates, unrestricted broadcast, rendezvous).
//
// An abstract transition is a set of process steps with one effect on
// (total counters, shared variables) given the state before: a local
// transition r and one of its distinct updates u (the blocks of r whose
// update is u), or a rendezvous. Its domain phi(y, v) over group counters
// y and shared values v says that such a step is enabled: for (r, u),
// some process of a block with update u is in r's source and the block's
// guard holds; for a rendezvous, distinct processes for its parts exist
// (an assignment of groups to parts with enough processes in each group
// counter) and its guard holds; in both, every assigned value lies in its
// domain. The guard of the abstract transition is the existential
// abstraction of phi: g(x, v) holds when some y with totals x has
// phi(y, v). It is built like the paper's g_r (construct) for (r, u),
// since the extra conjunct in-domain(u) reads shared values only; by
// projection for a rendezvous whose parts are restricted to groups or
// whose guard reads group counters, and written directly otherwise
// (x_S >= the parts leaving S). The moves are constant on totals: the
// mover's, each part's, and for a broadcast every other process of a
// transfer's source (an unrestricted transfer moves a total counter).
//
// Every guard is checked against its definition as the paper's are
// (checkExt): no (y, v) has g(totals(y), v) differ from phi(y, v). That
// is exact because the system is certified: phi is closed under orbits.
// A guard failing the check is never used: a witness of a domain not
// closed under orbits is a NotCertifiedError, any other failure an
// InternalError.

// buildExt adds the transitions of a system beyond the paper to m.
func (b *builder) buildExt(m *Model) error {
	sys := b.sys
	if why := extGroupReason(sys); why != "" {
		return errkind.Errorf(errkind.Input, "counterabs: %s; use the group-counter model", why)
	}
	if b.cfg.force {
		return errkind.Errorf(errkind.Input, "counterabs: a total-counter model forced on a system with %s is not supported (its over-approximation and may-deadlock states are not built); use the group-counter model, exact for any system", sys.Extensions())
	}
	total := len(sys.Transitions) + len(sys.Rendezvous)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		b.cur = t
		b.cfg.progress.Report(progress.Event{Phase: progress.Build, Engine: progress.NameOf(b.solver), Item: sys.TransitionName(t), K: i + 1, N: total})
		for _, cls := range updateClasses(sys, t) {
			if err := b.classTransition(m, i, cls); err != nil {
				return err
			}
		}
	}
	b.cur = nil
	for ri := range sys.Rendezvous {
		r := &sys.Rendezvous[ri]
		b.cfg.progress.Report(progress.Event{Phase: progress.Build, Engine: progress.NameOf(b.solver), Item: sys.RendezvousName(r), K: len(sys.Transitions) + ri + 1, N: total})
		if err := b.rendezvousTransition(m, ri); err != nil {
			return err
		}
	}
	return nil
}

// extGroupReason says why the total-counter model cannot express a
// construct of sys: a broadcast whose transfer is restricted to groups
// (its effect on total counters depends on the group counters). It
// returns "" when there is none.
func extGroupReason(sys *gsst.System) string {
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for _, tr := range t.Broadcast {
			if tr.Groups != nil && !allGroups(sys, tr.Groups) {
				return fmt.Sprintf("the broadcast of %s transfers processes of some groups only (%s -> %s), which only the group-counter model keeps",
					sys.TransitionName(t), sys.States[tr.From], sys.States[tr.To])
			}
		}
	}
	return ""
}

// allGroups reports whether groups holds every group of sys with
// processes.
func allGroups(sys *gsst.System, groups []int) bool {
	for g, grp := range sys.Groups {
		if grp.Size > 0 && !slices.Contains(groups, g) {
			return false
		}
	}
	return true
}

// updateClasses partitions the blocks of t by their update (written in
// a canonical form), in order of first appearance; a class whose groups
// hold no process is left out.
func updateClasses(sys *gsst.System, t *gsst.Transition) [][]int {
	var keys []string
	var out [][]int
	for i := range t.Blocks {
		bl := &t.Blocks[i]
		k := updateKey(sys, &bl.Update)
		at := slices.Index(keys, k)
		if at < 0 {
			keys = append(keys, k)
			out = append(out, nil)
			at = len(out) - 1
		}
		out[at] = append(out[at], i)
	}
	return slices.DeleteFunc(out, func(cls []int) bool {
		for _, i := range cls {
			for _, g := range t.Blocks[i].Groups {
				if sys.Groups[g].Size > 0 {
					return false
				}
			}
		}
		return true
	})
}

// updateKey writes u canonically: its assignments sorted by variable.
func updateKey(sys *gsst.System, u *gsst.Update) string {
	as := slices.Clone(u.Assign)
	slices.SortFunc(as, func(a, b gsst.Assign) int { return int(a.Var) - int(b.Var) })
	var sb strings.Builder
	for _, a := range as {
		fmt.Fprintf(&sb, "%s:=%s;", sys.VarName(a.Var), a.Value.Format(sys.VarName))
	}
	return sb.String()
}

// sysDomain returns the atoms saying that every value u assigns lies in
// its variable's domain, over the system's variables.
func sysDomain(sys *gsst.System, u *gsst.Update) []presburger.Formula {
	var out []presburger.Formula
	for _, a := range u.Assign {
		if j, ok := sys.SharedOf(a.Var); ok {
			out = append(out, inDomain(&sys.Shared[j], a.Value, func(x presburger.Var) *gsst.Shared {
				if k, ok := sys.SharedOf(x); ok {
					return &sys.Shared[k]
				}
				return nil
			})...)
		}
	}
	return out
}

// classTransition adds the abstract transition of local transition i and
// the blocks cls (one update).
func (b *builder) classTransition(m *Model, i int, cls []int) error {
	sys := b.sys
	t := &sys.Transitions[i]
	sub := *t
	sub.Blocks = nil
	for _, k := range cls {
		sub.Blocks = append(sub.Blocks, t.Blocks[k])
	}
	sub.Broadcast = nil
	name := sys.TransitionName(t)
	if len(cls) < len(t.Blocks) {
		name += fmt.Sprintf(" (update %q)", t.Blocks[cls[0]].Update.Text)
	}
	guard, c, err := b.construct(&sub)
	if err != nil {
		return err
	}
	u := &t.Blocks[cls[0]].Update
	dom := sysDomain(sys, u)
	guard = presburger.Conj(append([]presburger.Formula{guard}, dom...)...)
	phi := func(yc detect.Counters) presburger.Formula {
		return presburger.Conj(append([]presburger.Formula{detect.Domain(sys, &sub, yc)}, dom...)...)
	}
	fire := func(conf [][]int, shared []int) int {
		val := sys.Valuation(conf, shared)
		for _, k := range cls {
			bl := &t.Blocks[k]
			for _, g := range bl.Groups {
				if conf[g][t.From] >= 1 && presburger.Eval(presburger.Conj(append([]presburger.Formula{bl.Guard}, dom...)...), val) {
					return g
				}
			}
		}
		return -1
	}
	if err := b.checkExt(extCheck{name: name, pos: t.Pos, local: t, from: t.From, guard: guard, phi: phi, fire: fire}); err != nil {
		return err
	}
	mg, err := m.Translate(guard)
	if err != nil {
		return err
	}
	assign, _, err := m.update(u)
	if err != nil {
		return err
	}
	var transfers []Move
	for _, tr := range t.Broadcast {
		transfers = append(transfers, Move{From: tr.From, To: tr.To})
	}
	m.Transitions = append(m.Transitions, Transition{From: t.From, To: t.To, Guard: mg, Case: c, Local: i, Group: -1, Transfers: transfers, Assign: assign})
	return nil
}

// rendezvousPhi returns the domain of rendezvous r over yc: for some
// assignment of groups (with processes) to its parts, each group counter
// holds the parts that leave it, and the guard holds and the update stays
// in its domains.
func rendezvousPhi(sys *gsst.System, r *gsst.Rendezvous, yc detect.Counters) presburger.Formula {
	var picks []presburger.Formula
	seen := map[string]bool{}
	pick := make([]int, len(r.Parts))
	var rec func(i int)
	rec = func(i int) {
		if i < len(r.Parts) {
			for _, g := range partGroups(sys, &r.Parts[i]) {
				pick[i] = g
				rec(i + 1)
			}
			return
		}
		count := map[[2]int]int{}
		var order [][2]int
		for k, p := range r.Parts {
			c := [2]int{p.From, pick[k]}
			if count[c] == 0 {
				order = append(order, c)
			}
			count[c]++
		}
		slices.SortFunc(order, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		key := fmt.Sprint(order, count)
		if seen[key] {
			return
		}
		seen[key] = true
		var atoms []presburger.Formula
		for _, c := range order {
			atoms = append(atoms, presburger.Compare(yc.Group(c[0], c[1]), presburger.Ge, presburger.ConstTerm(int64(count[c]))))
		}
		picks = append(picks, presburger.Conj(atoms...))
	}
	rec(0)
	parts := []presburger.Formula{presburger.Disj(picks...)}
	if r.Guard != nil {
		parts = append(parts, detect.Guard(sys, r.Guard, yc))
	}
	return presburger.Conj(append(parts, sysDomain(sys, &r.Update)...)...)
}

// rendezvousFires reports whether rendezvous r can happen in conf with
// shared values shared, by direct evaluation, and returns the group of
// its first part's process (-1 when it cannot).
func rendezvousFires(sys *gsst.System, r *gsst.Rendezvous, conf [][]int, shared []int) int {
	val := sys.Valuation(conf, shared)
	if r.Guard != nil && !presburger.Eval(r.Guard, val) {
		return -1
	}
	if !presburger.Eval(presburger.Conj(sysDomain(sys, &r.Update)...), val) {
		return -1
	}
	left := make([][]int, len(conf))
	for g := range conf {
		left[g] = slices.Clone(conf[g])
	}
	var rec func(i int) int
	rec = func(i int) int {
		if i == len(r.Parts) {
			return 0
		}
		p := &r.Parts[i]
		for _, g := range partGroups(sys, p) {
			if left[g][p.From] == 0 {
				continue
			}
			left[g][p.From]--
			ok := rec(i+1) >= 0
			left[g][p.From]++
			if ok {
				return g
			}
		}
		return -1
	}
	return rec(0)
}

// rendezvousTransition adds the abstract transition of rendezvous ri.
func (b *builder) rendezvousTransition(m *Model, ri int) error {
	sys := b.sys
	r := &sys.Rendezvous[ri]
	name := sys.RendezvousName(r)
	restricted := r.Guard != nil && !sys.IsTotal(r.Guard)
	for _, p := range r.Parts {
		restricted = restricted || p.Groups != nil && !allGroups(sys, p.Groups)
	}
	var guard presburger.Formula
	c := CaseA
	if !restricted {
		// Distinct processes for the parts exist in every configuration
		// whose totals hold as many processes as parts leave each state.
		var moves []Move
		for _, p := range r.Parts {
			moves = append(moves, Move{From: p.From, To: p.To})
		}
		parts := need(moves)
		if r.Guard != nil {
			parts = append(parts, r.Guard)
		}
		guard = presburger.Conj(append(parts, sysDomain(sys, &r.Update)...)...)
	} else {
		c = CaseProjection
		var err error
		if guard, err = b.projectExt(name, r.Pos, func(yc detect.Counters) presburger.Formula { return rendezvousPhi(sys, r, yc) }); err != nil {
			return err
		}
	}
	check := extCheck{name: name, pos: r.Pos, from: r.Parts[0].From, guard: guard,
		phi:  func(yc detect.Counters) presburger.Formula { return rendezvousPhi(sys, r, yc) },
		fire: func(conf [][]int, shared []int) int { return rendezvousFires(sys, r, conf, shared) }}
	for _, p := range r.Parts {
		check.mention = append(check.mention, p.From)
	}
	if err := b.checkExt(check); err != nil {
		return err
	}
	mg, err := m.Translate(guard)
	if err != nil {
		return err
	}
	assign, _, err := m.update(&r.Update)
	if err != nil {
		return err
	}
	var moves []Move
	for _, p := range r.Parts {
		moves = append(moves, Move{From: p.From, To: p.To})
	}
	m.Transitions = append(m.Transitions, Transition{From: moves[0].From, To: moves[0].To, Also: moves[1:], Guard: mg, Case: c,
		Local: -1, Group: -1, Rendezvous: ri, Assign: assign})
	return nil
}

// sharedBounds returns the domain of every shared variable of sys, over
// the system's variables.
func sharedBounds(sys *gsst.System) []presburger.Bound {
	out := make([]presburger.Bound, len(sys.Shared))
	for j := range sys.Shared {
		out[j] = sys.Shared[j].Bounds(sys.SharedVar(j))
	}
	return out
}

// projectExt returns the existential abstraction of phi: the formula over
// total counters and shared variables that holds where some
// configuration with those totals satisfies phi (Z3's quantifier
// elimination, through the projector).
func (b *builder) projectExt(name string, pos gsst.Pos, phi func(detect.Counters) presburger.Formula) (presburger.Formula, error) {
	sys := b.sys
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
	conj = append(conj, phi(yc))
	f, res, err := b.proj.Project(b.ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(conj...)}, keep)
	if err != nil {
		return nil, fmt.Errorf("counterabs: %s: projection: %w", name, err)
	}
	if res == presburger.Unknown || f == nil {
		return nil, &UnknownError{Transition: name, Pos: pos, What: "projection"}
	}
	return f, nil
}

// extCheck is the check of one abstract transition beyond the paper:
// guard, over total counters and shared variables (the system's), must
// equal the existential abstraction of phi, its domain over group
// counters and shared variables. fire evaluates the domain directly in a
// configuration and shared values, returning a group that can take the
// step (-1: none). local is the local transition, nil for a rendezvous;
// mention lists states phi reads besides from and those its formulas
// name.
type extCheck struct {
	name    string
	pos     gsst.Pos
	local   *gsst.Transition
	from    int
	mention []int
	guard   presburger.Formula
	phi     func(detect.Counters) presburger.Formula
	fire    func(conf [][]int, shared []int) int
}

// checkExt verifies c.guard against its definition, as check does for a
// local transition of the paper: one query for the exact check, and when
// it fails, a verified witness (NotCertifiedError) or an InternalError.
func (b *builder) checkExt(c extCheck) error {
	sys := b.sys
	probe := detect.Counters{Group: func(s, g int) presburger.Term { return presburger.VarTerm(sys.GroupVar(s, g)) }}
	fs := []presburger.Formula{c.guard, c.phi(probe)}
	for _, s := range c.mention {
		fs = append(fs, presburger.Compare(presburger.VarTerm(sys.TotalVar(s)), presburger.Ge, presburger.ConstTerm(0)))
	}
	sp := newSpace(sys, c.from, fs...)
	sp.bounds = append(sp.bounds, sharedBounds(sys)...)
	yc := detect.Counters{Group: sp.y}
	phi := c.phi(yc)
	gy := detect.Guard(sys, c.guard, yc)
	inv := sp.inv()
	xor := presburger.Disj(
		presburger.Conj(gy, presburger.Negation(phi)),
		presburger.Conj(phi, presburger.Negation(gy)))
	ans, err := b.solve(c.name, "check of the guard against its domain", presburger.Problem{Bounds: sp.bounds, F: presburger.Conj(inv, xor)})
	if err != nil || ans.Result == presburger.Unsat {
		return err
	}
	shared := func(m presburger.Model) []int {
		out := make([]int, len(sys.Shared))
		for j := range out {
			out[j] = int(m[sys.SharedVar(j)])
		}
		return out
	}
	ans, err = b.solve(c.name, "check that the guard covers its domain", presburger.Problem{Bounds: sp.bounds, F: presburger.Conj(inv, phi, presburger.Negation(gy))})
	if err != nil {
		return err
	}
	if ans.Result == presburger.Sat {
		conf, v := sp.config(ans.Model), shared(ans.Model)
		a := totals(sys, conf)
		if wellFormed(sys, conf) != nil || c.fire(conf, v) < 0 || presburger.Eval(c.guard, sys.Valuation(conf, v)) {
			return &InternalError{c.name, "solver model does not satisfy the coverage query"}
		}
		return &InternalError{c.name, fmt.Sprintf("the guard is false at %s, yet the step can happen there", fmtVec(sys, a))}
	}
	ans, err = b.solve(c.name, "check that the domain covers the guard", presburger.Problem{Bounds: sp.bounds, F: presburger.Conj(inv, gy, presburger.Negation(phi))})
	if err != nil {
		return err
	}
	if ans.Result == presburger.Unsat {
		return &InternalError{c.name, "inconsistent solver answers: the check is sat, neither of its directions is"}
	}
	conf, v := sp.config(ans.Model), shared(ans.Model)
	if err := wellFormed(sys, conf); err != nil {
		return &InternalError{c.name, "solver model is not a configuration: " + err.Error()}
	}
	a := totals(sys, conf)
	if c.fire(conf, v) >= 0 || !presburger.Eval(c.guard, sys.Valuation(conf, v)) {
		return &InternalError{c.name, "solver model does not satisfy the check query"}
	}
	same := []presburger.Formula{inv, phi}
	for s := range sys.States {
		if sp.in[s] {
			same = append(same, presburger.Compare(sp.total(s), presburger.Eq, presburger.ConstTerm(int64(a[s]))))
		}
	}
	for j, k := range v {
		same = append(same, presburger.Compare(presburger.VarTerm(sys.SharedVar(j)), presburger.Eq, presburger.ConstTerm(int64(k))))
	}
	ans, err = b.solve(c.name, "search for an enabled configuration", presburger.Problem{Bounds: sp.bounds, F: presburger.Conj(same...)})
	if err != nil {
		return err
	}
	if ans.Result == presburger.Unsat {
		return &InternalError{c.name, fmt.Sprintf("the guard holds at %s, but no configuration with these total counters can take the step", fmtVec(sys, a))}
	}
	other := sp.config(ans.Model)
	g := c.fire(other, v)
	if g < 0 || wellFormed(sys, other) != nil || !slices.Equal(totals(sys, other), a) {
		return &InternalError{c.name, "solver model does not satisfy the enabled-configuration query"}
	}
	return &NotCertifiedError{Transition: c.local, Name: c.name, Pos: c.pos, Shared: v,
		Witness: &detect.Witness{Enabled: other, Disabled: conf, Group: g}}
}
