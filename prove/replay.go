package prove

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// refute turns the prover's counterexample into a refutation of property
// name at the counterexample's sizes, replayed on the instance of those
// sizes; under fairness, only once explore has found a fair path through
// a bad state there. A counterexample that does not replay is an
// internal error.
func refute(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, cex presburger.Counterexample, res *Result) error {
	sys := m.System
	if sys.Extensions() != 0 {
		return refuteExtended(ctx, cfg, m, name, cex, res)
	}
	sizes := make([]int, len(sys.Groups))
	n := int64(0)
	for g := range sys.Groups {
		k, ok := cex.Params[m.SizeVar(g)]
		if !ok || k < 0 || k > gsst.MaxProcesses {
			return errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s", k, sys.Groups[g].Name)
		}
		sizes[g] = int(k)
		n += k
	}
	if got := cex.Params[m.NVar()]; got != n {
		return errkind.Errorf(errkind.Internal, "counterexample with n = %d, but its sizes sum to %d", got, n)
	}
	inst, err := sys.Instantiate(sizes)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "counterexample at sizes %s: %w", sys.FormatSizes(sizes), err)
	}
	var phi presburger.Formula
	var prop gsst.Property
	at := -1
	for i, p := range inst.Properties {
		if p.Name == name {
			phi, _ = counterabs.SafetyFormula(p.Formula)
			prop, at = p, i
		}
	}
	if phi == nil {
		return errkind.Errorf(errkind.Internal, "the instance has no safety property %s", name)
	}
	tr, err := counterTrace(m, inst, cex, prop)
	if err != nil {
		return err
	}
	tr.Lifted = explore.Lift(inst, tr)
	if tr.Lifted.Error != "" {
		return errkind.Errorf(errkind.Internal, "the counterexample at sizes %s does not replay on the instance: %s", sys.FormatSizes(sizes), tr.Lifted.Error)
	}
	if err := execute(inst, tr.Lifted.Steps, phi); err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at sizes %s does not replay on the instance: %w", sys.FormatSizes(sizes), err)
	}
	res.Sizes, res.Instance = sizes, inst
	if inst.Fairness.Empty() {
		res.Verdict, res.Trace = Refuted, tr
		return nil
	}
	return fairRefute(ctx, cfg, inst.WithProperties(at), tr, res)
}

// counterTrace writes the counterexample's states as a trace of the
// instance: totals, and group counters for a group-counter model.
func counterTrace(m *counterabs.ParamModel, inst *gsst.System, cex presburger.Counterexample, p gsst.Property) (*explore.Trace, error) {
	tr := &explore.Trace{Kind: explore.Counterexample, Loop: -1}
	for j, st := range cex.States {
		totals := make([]int, len(inst.States))
		var groups [][]int
		if m.Level == counterabs.GroupLevel {
			groups = make([][]int, len(inst.Groups))
			for g := range groups {
				groups[g] = make([]int, len(inst.States))
			}
		}
		for i, c := range m.Counters {
			x := st[presburger.Var(i)]
			if x < 0 || x > gsst.MaxProcesses {
				return nil, errkind.Errorf(errkind.Internal, "counterexample state %d has %s = %d", j, m.VarName(presburger.Var(i)), x)
			}
			totals[c.State] += int(x)
			if groups != nil {
				groups[c.Group][c.State] = int(x)
			}
		}
		tr.States = append(tr.States, explore.SystemState(inst, totals, groups))
	}
	last := len(tr.States) - 1
	target := p.Text
	if phi, ok := counterabs.SafetyFormula(p.Formula); ok {
		target = inst.FormatFormula(phi)
	}
	tr.Segments = []explore.Segment{{
		Formula: p.Text, Kind: explore.PathSegment, Start: 0, End: last, Target: target,
	}}
	return tr, nil
}

// execute runs the process moves steps from the initial configuration
// of inst, checking each (the process is in the move's source state and
// its group's guard holds), and checks that phi fails at the end: the
// refutation itself, independent of how the moves were found.
func execute(inst *gsst.System, steps []explore.Step, phi presburger.Formula) error {
	proc := make([][]int, len(inst.Groups))
	vals := make([]int64, inst.NumVars())
	val := func(v presburger.Var) int64 {
		if v < 0 || int(v) >= len(vals) {
			return 0
		}
		return vals[v]
	}
	for g := range inst.Groups {
		for s, k := range inst.Init[g] {
			for range k {
				proc[g] = append(proc[g], s)
				vals[s]++
				vals[inst.GroupVar(s, g)]++
			}
		}
	}
	for i, st := range steps {
		if st.Stutter || st.Transition < 0 || st.Transition >= len(inst.Transitions) ||
			st.Group < 0 || st.Group >= len(proc) || st.Process < 0 || st.Process >= len(proc[st.Group]) {
			return fmt.Errorf("step %d (%s) is no move of the instance", i+1, st)
		}
		t := &inst.Transitions[st.Transition]
		b := t.BlockOf(st.Group)
		switch {
		case t.From != st.From || t.To != st.To:
			return fmt.Errorf("step %d (%s) names transition %s", i+1, st, inst.TransitionName(t))
		case proc[st.Group][st.Process] != t.From:
			return fmt.Errorf("step %d (%s): the process is in %s", i+1, st, inst.States[proc[st.Group][st.Process]])
		case b == nil || !presburger.Eval(b.Guard, val):
			return fmt.Errorf("step %d (%s): the guard of group %s is false", i+1, st, inst.Groups[st.Group].Name)
		}
		proc[st.Group][st.Process] = t.To
		vals[t.From]--
		vals[t.To]++
		vals[inst.GroupVar(t.From, st.Group)]--
		vals[inst.GroupVar(t.To, st.Group)]++
	}
	if presburger.Eval(phi, val) {
		return errors.New("the property's condition holds at the end of the run")
	}
	return nil
}

// fairRefute decides, by exploring the instance under its fairness
// constraints, whether AG phi, the one property of inst, fails there on
// a fair path. The prover's run reaches a bad state, but fair paths are
// fewer: explore's counterexample then shows a fair one.
func fairRefute(ctx context.Context, cfg config, inst *gsst.System, tr *explore.Trace, res *Result) error {
	gm, err := counterabs.BuildGroup(inst)
	if err != nil {
		return err
	}
	at := inst.FormatSizes(res.Sizes)
	rep, err := explicit.Engine{}.Check(ctx, gm, explore.MaxStates(cfg.maxStates), explore.Traces(true))
	if err != nil {
		switch k := errkind.Of(err); {
		case k == errkind.Limit, k == errkind.Unknown:
			res.Verdict, res.Trace = Unknown, tr
			res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but whether a fair path passes through one is not known: exploring that instance stopped: %v", at, err)
			return nil
		}
		return err
	}
	pr := rep.Properties[0]
	if !pr.Holds && !pr.Vacuous {
		res.Verdict, res.Trace = Refuted, pr.Trace
		res.Reason = fmt.Sprintf("a fair run (it meets every fairness constraint infinitely often), found by exploring the instance %s with the explicit engine", at)
		return nil
	}
	res.Verdict, res.Trace = Unknown, tr
	res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but no fair path passes through one there (the property holds under fairness at these sizes); other sizes were not examined", at)
	if pr.Vacuous {
		res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but no fair run from the initial state exists there (the fairness constraints exclude every run, so the property holds vacuously at these sizes); other sizes were not examined", at)
	}
	return nil
}

// Move is one step of a refutation's run on an instance of a system
// with shared variables, parameters, broadcasts or rendezvous, as
// executed: the processes that move by their own step (one, or each part
// of a rendezvous), the processes a broadcast moves with them, and the
// values of the shared variables after the step.
type Move struct {
	// Transition is the local transition taken (an index into
	// System.Transitions), -1 for a rendezvous, then Rendezvous's index
	// in System.Rendezvous.
	Transition  int
	Rendezvous  int
	Movers      []explore.Step
	Transferred []explore.Step
	Shared      []int
	sys         *gsst.System
}

func (mv Move) String() string {
	var parts []string
	for _, s := range mv.Movers {
		parts = append(parts, s.String())
	}
	out := strings.Join(parts, " with ")
	if mv.Transition < 0 {
		out = "rendezvous " + out
	}
	if len(mv.Transferred) > 0 {
		var ts []string
		for _, s := range mv.Transferred {
			ts = append(ts, s.String())
		}
		out += "; broadcast moves " + strings.Join(ts, ", ")
	}
	if mv.sys != nil && len(mv.Shared) > 0 {
		var vs []string
		for j, k := range mv.Shared {
			vs = append(vs, mv.sys.Shared[j].Name+"="+mv.sys.Shared[j].ValueName(k))
		}
		out += " (" + strings.Join(vs, " ") + ")"
	}
	return out
}

// instanceValues returns the group sizes and parameter values of a
// counterexample of m, checked against the system itself: each size in
// its group's range or equal to its term over the parameters and at
// least 1, every parameter nonnegative, the assumption true.
func instanceValues(m *counterabs.ParamModel, cex presburger.Counterexample) (sizes, params []int, err error) {
	sys := m.System
	params = make([]int, len(sys.Params))
	for k := range sys.Params {
		v, ok := cex.Params[m.ParamVar(k)]
		if !ok || v < 0 || v > gsst.MaxConstant {
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with %s = %d", sys.Params[k].Name, v)
		}
		params[k] = int(v)
	}
	val := paramValuation(sys, params)
	if sys.Assume.Formula != nil && !presburger.Eval(sys.Assume.Formula, val) {
		return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with parameters %s, where the assumption %s is false", formatParams(sys, params), sys.Assume.Text)
	}
	sizes = make([]int, len(sys.Groups))
	n := int64(0)
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		k, ok := cex.Params[m.SizeVar(g)]
		switch {
		case !ok || k < 1 && hasSizeTerm(grp) || k < 0 || k > gsst.MaxProcesses:
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s", k, grp.Name)
		case hasSizeTerm(grp) && grp.SizeTerm.Sub(presburger.ConstTerm(k)).Sign(val) != 0:
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s, whose size is %s = %s there", k, grp.Name, grp.SizeTermText, grp.SizeTerm.ValueText(val))
		case !hasSizeTerm(grp) && !grp.Allows(int(k)):
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s, outside its range %s", k, grp.Name, grp.SizeText())
		}
		sizes[g] = int(k)
		n += k
	}
	if got := cex.Params[m.NVar()]; got != n {
		return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with n = %d, but its sizes sum to %d", got, n)
	}
	return sizes, params, nil
}

// hasSizeTerm reports whether g's size is a term over the parameters.
func hasSizeTerm(g *gsst.Group) bool { return g.OverParams() }

// paramValuation reads the parameters of sys at values params (any
// other variable reads 0).
func paramValuation(sys *gsst.System, params []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if k, ok := sys.ParamOf(v); ok {
			return int64(params[k])
		}
		return 0
	}
}

// formatParams writes parameter values as "n=4, t=1".
func formatParams(sys *gsst.System, params []int) string {
	var out []string
	for k, p := range sys.Params {
		out = append(out, fmt.Sprintf("%s=%d", p.Name, params[k]))
	}
	return strings.Join(out, ", ")
}

// refuteExtended is refute for a system with constructs beyond the
// paper, on its group-counter model: the run is lifted to processes
// (liftMoves: for each mover the lowest-numbered process of its group in
// its source state) and executed on the instance by run, which reads the
// system and not the model, and must end where phi fails.
func refuteExtended(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, cex presburger.Counterexample, res *Result) error {
	sys := m.System
	if m.Level != counterabs.GroupLevel {
		return errkind.Errorf(errkind.Internal, "a refutation of a system with %s on the %s-counter model", sys.Extensions(), m.Level)
	}
	sizes, params, err := instanceValues(m, cex)
	if err != nil {
		return err
	}
	var phi presburger.Formula
	var prop gsst.Property
	for _, p := range sys.Properties {
		if p.Name == name {
			phi, _ = counterabs.SafetyFormula(p.Formula)
			prop = p
		}
	}
	if phi == nil {
		return errkind.Errorf(errkind.Internal, "the system has no safety property %s", name)
	}
	at := sys.FormatSizes(sizes)
	if len(params) > 0 {
		at = formatParams(sys, params) + " (" + at + ")"
	}
	moves, err := liftMoves(m, sizes, cex)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s does not lift to processes: %w", at, err)
	}
	states, err := run(sys, sizes, params, moves, phi)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s does not replay on the instance: %w", at, err)
	}
	// The model's states are those the execution went through.
	for j, st := range cex.States {
		for i := range m.NumState() {
			want := st[m.StateVar(i)]
			if got := states[j][i]; int64(got) != want {
				return errkind.Errorf(errkind.Internal, "the counterexample at %s has %s = %d in state %d, but the run on the instance %d", at, m.VarName(m.StateVar(i)), want, j, got)
			}
		}
	}
	tr := &explore.Trace{Kind: explore.Counterexample, Loop: -1}
	for _, x := range states {
		totals := make([]int, len(sys.States))
		groups := make([][]int, len(sys.Groups))
		for g := range groups {
			groups[g] = make([]int, len(sys.States))
		}
		for c, ctr := range m.Counters {
			totals[ctr.State] += x[c]
			groups[ctr.Group][ctr.State] = x[c]
		}
		tr.States = append(tr.States, explore.SystemState(sys, totals, groups))
	}
	tr.Segments = []explore.Segment{{
		Formula: prop.Text, Kind: explore.PathSegment, Start: 0, End: len(states) - 1,
		Target: sys.FormatFormula(phi),
	}}
	inst, err := sys.InstantiateParams(params, sizes)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s: %w", at, err)
	}
	res.Sizes, res.Params, res.Moves, res.Trace, res.Instance = sizes, params, moves, tr, inst
	if sys.Fairness.Empty() {
		res.Verdict = Refuted
		return nil
	}
	for i, p := range inst.Properties {
		if p.Name == name {
			err := fairRefute(ctx, cfg, inst.WithProperties(i), tr, res)
			if res.Trace != tr {
				// explore's fair run replaces the prover's, with its
				// own replay on the instance.
				res.Moves = nil
			}
			return err
		}
	}
	return errkind.Errorf(errkind.Internal, "the instance has no safety property %s", name)
}

// liftMoves turns the counterexample's steps into moves of processes:
// each mover of a model transition (its source and target counters, of
// one group each) becomes the lowest-numbered process of that group in
// the source state not already moving at that step. Which processes
// move with a broadcast, and the shared values, are left to run.
func liftMoves(m *counterabs.ParamModel, sizes []int, cex presburger.Counterexample) ([]Move, error) {
	sys := m.System
	S := len(sys.States)
	procs := initialProcesses(sys, sizes)
	var out []Move
	for j, i := range cex.Steps {
		if i < 0 || i >= len(m.Transitions) {
			return nil, fmt.Errorf("step %d takes transition %d, which the model does not have", j+1, i)
		}
		t := &m.Transitions[i]
		mv := Move{Transition: t.Local, Rendezvous: t.Rendezvous, sys: sys}
		taken := map[[2]int]bool{}
		for _, c := range append([]counterabs.Move{{From: t.From, To: t.To}}, t.Also...) {
			g, from, to := c.From/S, c.From%S, c.To%S
			p := slices.IndexFunc(procs[g], func(s int) bool { return s == from })
			for p >= 0 && taken[[2]int{g, p}] {
				q := slices.IndexFunc(procs[g][p+1:], func(s int) bool { return s == from })
				if q < 0 {
					p = -1
					break
				}
				p += 1 + q
			}
			if p < 0 {
				return nil, fmt.Errorf("step %d: no process of group %s in %s", j+1, sys.Groups[g].Name, sys.States[from])
			}
			taken[[2]int{g, p}] = true
			mv.Movers = append(mv.Movers, processStep(sys, mv.Transition, g, p, from, to))
		}
		for _, s := range mv.Movers {
			procs[s.Group][s.Process] = s.To
		}
		// Broadcasts move the others as run computes them; apply them
		// here too so that the next step's choice sees them.
		if t.Local >= 0 {
			for _, x := range sys.Transitions[t.Local].Broadcast {
				for g := range procs {
					if x.Groups != nil && !slices.Contains(x.Groups, g) {
						continue
					}
					for p, s := range procs[g] {
						if s == x.From && !taken[[2]int{g, p}] {
							procs[g][p] = -1 - x.To // marked: moved at this step
						}
					}
				}
			}
			for g := range procs {
				for p, s := range procs[g] {
					if s < 0 {
						procs[g][p] = -1 - s
					}
				}
			}
		}
		out = append(out, mv)
	}
	return out, nil
}

func processStep(sys *gsst.System, trans, g, p, from, to int) explore.Step {
	return explore.Step{
		Transition: trans, Group: g, GroupName: sys.Groups[g].Name, Process: p,
		From: from, To: to, FromName: sys.States[from], ToName: sys.States[to],
	}
}

// initialProcesses places the processes of each group in the instance
// of the given sizes: a group whose size is a range or a term in its one
// initial state, any other as Init says, in state order.
func initialProcesses(sys *gsst.System, sizes []int) [][]int {
	procs := make([][]int, len(sys.Groups))
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if st, ok := sys.InitState(g); ok && (grp.Ranged || hasSizeTerm(grp)) {
			for range sizes[g] {
				procs[g] = append(procs[g], st)
			}
			continue
		}
		for s, k := range sys.Init[g] {
			for range k {
				procs[g] = append(procs[g], s)
			}
		}
	}
	return procs
}

// run executes moves on the instance of sys with the given sizes and
// parameter values, from its initial configuration, by the semantics of
// the language read off the system alone: each mover is a distinct
// process in its move's source state, of a group that may take the
// transition (of the part's groups, for a rendezvous); the guard (the
// mover's block's, or the rendezvous's) holds before the step; every
// value the update assigns lies in its variable's domain; then the
// movers move, every other process in a broadcast transfer's source (of
// its groups) moves to its target, and the shared variables take their
// new values. It checks that phi fails at the end and returns the states
// passed through, as the group counters (group by group, state by
// state) followed by the shared values, and fills each move's
// Transferred and Shared.
func run(sys *gsst.System, sizes, params []int, moves []Move, phi presburger.Formula) ([][]int, error) {
	procs := initialProcesses(sys, sizes)
	for g := range procs {
		if len(procs[g]) != sizes[g] {
			return nil, fmt.Errorf("group %s starts with %d processes, not %d", sys.Groups[g].Name, len(procs[g]), sizes[g])
		}
	}
	shared := sys.InitShared()
	counts := func() [][]int {
		y := make([][]int, len(sys.Groups))
		for g := range y {
			y[g] = make([]int, len(sys.States))
			for _, s := range procs[g] {
				y[g][s]++
			}
		}
		return y
	}
	valuation := func() func(presburger.Var) int64 {
		base := sys.Valuation(counts(), shared)
		return func(v presburger.Var) int64 {
			if k, ok := sys.ParamOf(v); ok {
				return int64(params[k])
			}
			return base(v)
		}
	}
	snapshot := func() []int {
		var out []int
		for _, row := range counts() {
			out = append(out, row...)
		}
		return append(out, shared...)
	}
	states := [][]int{snapshot()}
	for i := range moves {
		mv := &moves[i]
		val := valuation()
		var guard presburger.Formula
		var update *gsst.Update
		var broadcast []gsst.Transfer
		switch {
		case mv.Transition >= 0 && mv.Transition < len(sys.Transitions) && len(mv.Movers) == 1:
			t := &sys.Transitions[mv.Transition]
			st := mv.Movers[0]
			b := t.BlockOf(st.Group)
			if b == nil || t.From != st.From || t.To != st.To {
				return nil, fmt.Errorf("step %d (%s) is no move of transition %s", i+1, st, sys.TransitionName(t))
			}
			guard, update, broadcast = b.Guard, &b.Update, t.Broadcast
		case mv.Transition < 0 && mv.Rendezvous >= 0 && mv.Rendezvous < len(sys.Rendezvous):
			r := &sys.Rendezvous[mv.Rendezvous]
			if len(mv.Movers) != len(r.Parts) {
				return nil, fmt.Errorf("step %d moves %d processes by a rendezvous of %d parts", i+1, len(mv.Movers), len(r.Parts))
			}
			for k, p := range r.Parts {
				st := mv.Movers[k]
				if st.From != p.From || st.To != p.To || p.Groups != nil && !slices.Contains(p.Groups, st.Group) {
					return nil, fmt.Errorf("step %d: %s is no move of part %d of the rendezvous", i+1, st, k+1)
				}
			}
			guard, update = r.Guard, &r.Update
		default:
			return nil, fmt.Errorf("step %d is no step of the system", i+1)
		}
		seen := map[[2]int]bool{}
		for _, st := range mv.Movers {
			switch {
			case st.Group < 0 || st.Group >= len(procs) || st.Process < 0 || st.Process >= len(procs[st.Group]):
				return nil, fmt.Errorf("step %d: no process %s", i+1, st)
			case seen[[2]int{st.Group, st.Process}]:
				return nil, fmt.Errorf("step %d moves process %s[%d] twice", i+1, st.GroupName, st.Process)
			case procs[st.Group][st.Process] != st.From:
				return nil, fmt.Errorf("step %d (%s): the process is in %s", i+1, st, sys.States[procs[st.Group][st.Process]])
			}
			seen[[2]int{st.Group, st.Process}] = true
		}
		if guard != nil && !presburger.Eval(guard, val) {
			return nil, fmt.Errorf("step %d (%s): the guard is false", i+1, mv.Movers[0])
		}
		next := slices.Clone(shared)
		for _, a := range update.Assign {
			j, ok := sys.SharedOf(a.Var)
			if !ok {
				return nil, fmt.Errorf("step %d assigns variable %d", i+1, a.Var)
			}
			k, fits := a.Value.Value(val)
			if !fits || k < math.MinInt32 || k > math.MaxInt32 || !sys.Shared[j].Contains(int(k)) {
				return nil, fmt.Errorf("step %d (%s): %s := %s leaves its domain %s", i+1, mv.Movers[0], sys.Shared[j].Name, a.Value.ValueText(val), sys.Shared[j].TypeText())
			}
			next[j] = int(k)
		}
		mv.Transferred = nil
		for _, x := range broadcast {
			for g := range procs {
				if x.Groups != nil && !slices.Contains(x.Groups, g) {
					continue
				}
				for p, s := range procs[g] {
					if s == x.From && !seen[[2]int{g, p}] {
						mv.Transferred = append(mv.Transferred, processStep(sys, mv.Transition, g, p, x.From, x.To))
					}
				}
			}
		}
		for _, st := range mv.Movers {
			procs[st.Group][st.Process] = st.To
		}
		for _, st := range mv.Transferred {
			procs[st.Group][st.Process] = st.To
		}
		shared = next
		mv.Shared = slices.Clone(shared)
		states = append(states, snapshot())
	}
	if presburger.Eval(phi, valuation()) {
		return nil, errors.New("the property's condition holds at the end of the run")
	}
	return states, nil
}
