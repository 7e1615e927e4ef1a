package counterabs

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// space is the set of group-counter variables of a query about one
// abstract transition. States that neither the source, the guards nor g_r mention
// only occur in the invariant, so each group's counters on them are merged
// into one slack counter (held by the group counter variable of the first
// such state). Merging preserves every answer: given the counters on the
// mentioned states, a slack value can always be spread over the merged
// states to meet any totals that sum right, since no state has a capacity.
type space struct {
	sys    *gsst.System
	in     []bool // mentioned states
	slack  int    // first unmentioned state, or -1
	bounds []presburger.Bound
}

func newSpace(sys *gsst.System, fs ...presburger.Formula) *space {
	sp := &space{sys: sys, in: make([]bool, len(sys.States)), slack: -1}
	for _, f := range fs {
		for _, v := range presburger.FreeVars(f) {
			if s, _, ok := sys.Counter(v); ok {
				sp.in[s] = true
			}
		}
	}
	for s, in := range sp.in {
		if !in {
			sp.slack = s
			break
		}
	}
	for s := range sys.States {
		if !sp.in[s] && s != sp.slack {
			continue
		}
		for g, grp := range sys.Groups {
			sp.bounds = append(sp.bounds, presburger.Bound{Var: sys.GroupVar(s, g), Lo: 0, Hi: int64(grp.Size)})
		}
	}
	return sp
}

// y is the term of #S[g]; s must be a mentioned state.
func (sp *space) y(s, g int) presburger.Term { return presburger.VarTerm(sp.sys.GroupVar(s, g)) }

// total is the term of #S, the sum of its group counters.
func (sp *space) total(s int) presburger.Term {
	var t presburger.Term
	for g := range sp.sys.Groups {
		t = t.Add(sp.y(s, g))
	}
	return t
}

// inv says that each group's counters (slack included) sum to its size.
func (sp *space) inv() presburger.Formula {
	var parts []presburger.Formula
	for g, grp := range sp.sys.Groups {
		var sum presburger.Term
		for s := range sp.sys.States {
			if sp.in[s] || s == sp.slack {
				sum = sum.Add(sp.y(s, g))
			}
		}
		parts = append(parts, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(grp.Size))))
	}
	return presburger.Conj(parts...)
}

// config expands a model into a full configuration [group][state], the
// slack going to the first unmentioned state.
func (sp *space) config(m presburger.Model) [][]int {
	conf := make([][]int, len(sp.sys.Groups))
	for g := range conf {
		conf[g] = make([]int, len(sp.sys.States))
		for s := range sp.sys.States {
			if sp.in[s] || s == sp.slack {
				conf[g][s] = int(m[sp.sys.GroupVar(s, g)])
			}
		}
	}
	return conf
}

// totals returns the total counters of a configuration.
func totals(sys *gsst.System, conf [][]int) []int {
	a := make([]int, len(sys.States))
	for g := range conf {
		for s, k := range conf[g] {
			a[s] += k
		}
	}
	return a
}

func vecVal(a []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if int(v) >= 0 && int(v) < len(a) {
			return int64(a[v])
		}
		return 0
	}
}

// check verifies guard, over total counters and shared variables,
// against its definition for the steps cls, and reports whether they
// passed the certified check (their domain, where one of them can be
// taken, is closed under orbits, and guard is exact). Without Force, a
// failed certified check is a *NotCertifiedError with a verified
// witness.
func (b *builder) check(cls []int, guard presburger.Formula) (bool, error) {
	sys := b.sys
	name := b.cur.name
	probe := detect.Counters{Group: func(s, g int) presburger.Term { return presburger.VarTerm(sys.GroupVar(s, g)) }}
	// The states the enabledness reads (every part's source among them)
	// and those guard reads.
	sp := newSpace(sys, guard, b.enabled(cls, probe))
	sp.bounds = append(sp.bounds, sharedBounds(sys)...)
	yc := detect.Counters{Group: sp.y}
	phi := b.enabled(cls, yc)
	gy := detect.Guard(sys, guard, yc)
	inv := sp.inv()
	shared := func(m presburger.Model) []int {
		if len(sys.Shared) == 0 {
			return nil
		}
		out := make([]int, len(sys.Shared))
		for j := range out {
			out[j] = int(m[sys.SharedVar(j)])
		}
		return out
	}
	holds := func(conf [][]int, v []int) bool {
		return presburger.Eval(guard, sys.ValuationOf(gsst.Config{Counts: conf, Shared: v}))
	}

	// The certified check: no configuration y and shared values v have
	// g(totals(y), v) differ from phi(y, v). One query, the XOR of the
	// two.
	xor := presburger.Disj(
		presburger.Conj(gy, presburger.Negation(phi)),
		presburger.Conj(phi, presburger.Negation(gy)))
	ans, err := b.solve(name, "check of the guard against its domain", presburger.Problem{
		Bounds: sp.bounds, F: presburger.Conj(inv, xor)})
	if err != nil {
		return false, err
	}
	if ans.Result == presburger.Unsat {
		return true, nil
	}

	// Sat. Tell the two directions apart, one query each.
	//
	// (1) The guard covers the domain: needed for every system.
	ans, err = b.solve(name, "check that the guard covers its domain", presburger.Problem{
		Bounds: sp.bounds, F: presburger.Conj(inv, phi, presburger.Negation(gy))})
	if err != nil {
		return false, err
	}
	if ans.Result == presburger.Sat {
		conf, v := sp.config(ans.Model), shared(ans.Model)
		g, fired, err := b.fire(cls, conf, v)
		if err != nil {
			return false, err
		}
		if wellFormed(sys, conf) != nil || !fired || holds(conf, v) {
			return false, &InternalError{name, "solver model does not satisfy the coverage query"}
		}
		return false, &InternalError{name, fmt.Sprintf("the guard is false at %s, yet %s can take the step there", fmtVec(sys, totals(sys, conf)), groupText(sys, g))}
	}

	// (2) The guard at totals(y) implies phi(y): the XOR was sat and (1)
	// is not, so this must be sat.
	ans, err = b.solve(name, "check that the domain covers the guard", presburger.Problem{
		Bounds: sp.bounds, F: presburger.Conj(inv, gy, presburger.Negation(phi))})
	if err != nil {
		return false, err
	}
	if ans.Result == presburger.Unsat {
		return false, &InternalError{name, "inconsistent solver answers: the check is sat, neither of its directions is"}
	}

	// Sat: read the model by direct evaluation (gsst's semantics of a
	// step), independent of the query.
	conf, v := sp.config(ans.Model), shared(ans.Model)
	if err := wellFormed(sys, conf); err != nil {
		return false, &InternalError{name, "solver model is not a configuration: " + err.Error()}
	}
	a := totals(sys, conf)
	if _, fired, err := b.fire(cls, conf, v); err != nil {
		return false, err
	} else if fired || !holds(conf, v) {
		return false, &InternalError{name, "solver model does not satisfy the check query"}
	}

	// The guard holds at (a, v), but no process can take a step in conf.
	// Either some other configuration with totals a can (the steps are
	// not certified), or the guard is wrong.
	same := []presburger.Formula{inv, phi}
	for s := range sys.States {
		if sp.in[s] {
			same = append(same, presburger.Compare(sp.total(s), presburger.Eq, presburger.ConstTerm(int64(a[s]))))
		}
	}
	for j, k := range v {
		same = append(same, presburger.Compare(presburger.VarTerm(sys.SharedVar(j)), presburger.Eq, presburger.ConstTerm(int64(k))))
	}
	ans, err = b.solve(name, "search for an enabled configuration", presburger.Problem{Bounds: sp.bounds, F: presburger.Conj(same...)})
	if err != nil {
		return false, err
	}
	if ans.Result == presburger.Unsat {
		return false, &InternalError{name, fmt.Sprintf("the guard holds at %s, but no configuration with these total counters can take the step", fmtVec(sys, a))}
	}
	other := sp.config(ans.Model)
	g, fired, err := b.fire(cls, other, v)
	if err != nil {
		return false, err
	}
	if !fired || wellFormed(sys, other) != nil || !slices.Equal(totals(sys, other), a) {
		return false, &InternalError{name, "solver model does not satisfy the enabled-configuration query"}
	}
	if !b.cfg.force {
		return false, &NotCertifiedError{Transition: b.cur.local, Name: name, Pos: b.pos(), Shared: v,
			Witness: &detect.Witness{Enabled: other, Disabled: conf, Group: g}, Origin: &b.cur.origin}
	}
	return false, b.checkForced(cls, guard, sp)
}

// fire reports whether one of the steps cls can be taken in the
// configuration conf with shared values shared, by gsst's semantics of a
// step (System.Choices), and returns the least group whose process can
// take the first part of one (-1 for a step that moves no process).
func (b *builder) fire(cls []int, conf [][]int, shared []int) (least int, fired bool, err error) {
	all := b.sys.Steps()
	least = -1
	for _, s := range cls {
		err := b.sys.Choices(&all[s], gsst.Config{Counts: conf, Shared: shared}, func(groups, _ []int) bool {
			if len(groups) > 0 && (!fired || least < 0 || groups[0] < least) {
				least = groups[0]
			}
			fired = true
			return false // the first choice has the step's least group
		})
		if err != nil {
			return -1, false, err
		}
	}
	return least, fired, nil
}

// groupText is "group g" for a group's index, "the environment" for -1.
func groupText(sys *gsst.System, g int) string {
	if g < 0 {
		return "the environment"
	}
	return "group " + sys.Groups[g].Name
}

// checkForced checks, for Force, that the guard is no larger than the
// existential abstraction of the steps cls (of one mover each, as Force
// requires): every counter vector in it has a concretization where one
// of the steps can be taken, that is, no vector in the abstract state
// space satisfies the guard and not "exists y". Exists distributes over
// the disjunction of the steps and their groups, so the concretization
// is sought per block and firing group, each in the reduced problem of
// the projection (states and groups the guard does not mention merged):
// many small quantifiers are far easier for Z3 than one large one.
func (b *builder) checkForced(cls []int, guard presburger.Formula, sp *space) error {
	sys := b.sys
	name := b.cur.name
	var xs []presburger.Bound
	var sumX presburger.Term
	for s := range sys.States {
		if !sp.in[s] {
			continue
		}
		x := presburger.Var(s)
		xs = append(xs, presburger.Bound{Var: x, Lo: 0, Hi: int64(b.n)})
		sumX = sumX.Add(presburger.VarTerm(x))
	}
	xs = append(xs, sharedBounds(sys)...)
	// The unmentioned states take the remaining n - sum x processes.
	op := presburger.Le
	if sp.slack < 0 {
		op = presburger.Eq
	}
	conj := []presburger.Formula{presburger.Compare(sumX, op, presburger.ConstTerm(int64(b.n))), guard}
	t := b.blocks(cls)
	for i := range t.blocks {
		bl := &t.blocks[i]
		for _, g := range bl.groups {
			if sys.Groups[g].Size == 0 {
				continue
			}
			p, keep := b.projectionProblem(t.u, g, bl.guard)
			kept := map[presburger.Var]bool{}
			for _, v := range keep {
				kept[v] = true
			}
			var ys []presburger.Bound
			for _, bd := range p.Bounds {
				if !kept[bd.Var] {
					ys = append(ys, bd)
				}
			}
			conj = append(conj, presburger.Negation(expandSmall(presburger.Exists{Vars: ys, Body: p.F})))
		}
	}
	ans, err := b.solve(name, "check that the guard is no larger than the abstraction of its domain", presburger.Problem{
		Bounds: xs, F: presburger.Conj(conj...)})
	if err != nil {
		return err
	}
	if ans.Result != presburger.Unsat {
		return &InternalError{name, "the guard holds at a counter vector with no concretization in its domain"}
	}
	return nil
}

// maxExpansion bounds the assignments expandSmall writes out.
const maxExpansion = 1 << 14

// expandSmall returns f written as a disjunction over its variables'
// values when there are at most maxExpansion of them, and f itself
// otherwise. Under a negation, Z3 meets a small Exists as a universal
// quantifier, and its instantiation may take minutes over it or not,
// depending on what earlier queries in the process left behind
// (TestZ3CrossCheck timed out at 60 s on a 4-state system of 4 processes
// after the package's other tests, and took 3 s alone); the disjunction
// is quantifier-free and decided at once. The deadlock checks
// (maydeadlock.go) use it too.
func expandSmall(f presburger.Exists) presburger.Formula {
	if e, err := presburger.Expand(f, maxExpansion); err == nil {
		return e
	}
	return f
}

// solve runs one query; Unknown becomes an *UnknownError.
func (b *builder) solve(name, what string, p presburger.Problem) (presburger.Answer, error) {
	ans, err := b.solver.Solve(b.ctx, p)
	if err != nil {
		return ans, fmt.Errorf("counterabs: transition %s: %s: %w", name, what, err)
	}
	switch ans.Result {
	case presburger.Unknown:
		return ans, &UnknownError{Transition: name, Pos: b.pos(), What: what, Reason: ans.Reason}
	case presburger.Sat:
		if ans.Model == nil {
			return ans, &InternalError{name, what + ": solver answered sat without a model"}
		}
	}
	return ans, nil
}

// wellFormed checks that conf has every group's counters nonnegative and
// summing to the group's size.
func wellFormed(sys *gsst.System, conf [][]int) error {
	for g, row := range conf {
		sum := 0
		for _, k := range row {
			if k < 0 {
				return fmt.Errorf("negative counter in group %s", sys.Groups[g].Name)
			}
			sum += k
		}
		if sum != sys.Groups[g].Size {
			return fmt.Errorf("group %s has %d processes, want %d", sys.Groups[g].Name, sum, sys.Groups[g].Size)
		}
	}
	return nil
}

// fmtVec prints a counter vector as (#A=1, #B=0).
func fmtVec(sys *gsst.System, a []int) string {
	s := "("
	for i, k := range a {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("#%s=%d", sys.States[i], k)
	}
	return s + ")"
}
