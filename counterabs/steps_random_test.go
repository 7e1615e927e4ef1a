package counterabs

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestRandomStepsAgainstProcesses builds both models of random systems
// with shared variables, updates, broadcasts and rendezvous
// (testsupport.RandomSystem) and compares them, at every configuration
// and every shared valuation (unbounded variables cut a little above
// their least value), with the process-level reference semantics
// (testsupport.ProcSteps), which shares no code with the models or
// with gsst's steps:
//
//   - group-counter model: each transition is enabled exactly when the
//     oracle has a step of its origin (local transition and group, or
//     rendezvous and each part's group) that reaches the configuration
//     the transition's step gives; together they reach exactly the
//     oracle's successors;
//   - total-counter model (when Build accepts the system): each guard
//     holds at totals and shared values exactly when some configuration
//     with them has an oracle step of the transition's origin (of a
//     block of its update), every such step reaches the totals and shared
//     values the transition's step gives, and every configuration with
//     those totals agrees (the model is exact);
//   - a system Build refuses shows the refused steps enabled in the
//     witness's enabled configuration and not in its disabled one, with
//     the same totals and shared values; a group-restricted broadcast is
//     refused in words (GroupReason);
//   - with updates removed (every step simple) and Force on the
//     uncertified ones: every guard is the existential abstraction above
//     and MayDeadlock holds exactly where some configuration is
//     deadlocked.
func TestRandomStepsAgainstProcesses(t *testing.T) {
	systems := 150
	if testing.Short() {
		systems = 60
	}
	r := rand.New(rand.NewSource(2026_05_25))
	ctx := context.Background()
	z := z3.New() // unbounded shared variables are beyond brute force
	var st struct{ checked, built, refused, restricted, forced, bcast, rdv, shared, states, reached, dropped int }
	for i := range systems {
		sys := testsupport.RandomSystem(r, testsupport.Small(0, testsupport.AllConstructs))
		where := fmt.Sprintf("system %d", i)
		st.checked++
		steps := sys.Steps()
		for k := range steps {
			if len(steps[k].Transfers) > 0 {
				st.bcast++
				break
			}
		}
		if len(sys.Rendezvous) > 0 {
			st.rdv++
		}
		if len(sys.Shared) > 0 {
			st.shared++
		}
		o := newStepOracle(sys)
		gm, err := BuildGroup(sys)
		if err != nil {
			t.Fatalf("%s: %v\n%s", where, err, testsupport.Describe(sys))
		}
		st.states += o.checkGroup(t, where, gm)
		rm, err := BuildGroup(sys, RunSteps())
		if err != nil {
			t.Fatalf("%s: RunSteps: %v\n%s", where, err, testsupport.Describe(sys))
		}
		o.reachable()
		reached, dropped := o.checkGroupReachable(t, where, rm, gm)
		st.reached += reached
		st.dropped += dropped

		tm, err := Build(ctx, sys, z, z)
		var nc *NotCertifiedError
		switch {
		case errors.As(err, &nc):
			st.refused++
			o.checkWitness(t, where, nc)
		case err != nil && GroupReason(sys, false) != "" && strings.Contains(err.Error(), "some groups only"):
			st.restricted++
		case err != nil:
			t.Fatalf("%s: %v\n%s", where, err, testsupport.Describe(sys))
		default:
			st.built++
			o.checkTotal(t, where, tm, true)
		}

		// The same system with every update removed, its broadcasts and
		// rendezvous too: every step is simple, and Force applies.
		simple := simpleVersion(sys)
		so := newStepOracle(simple)
		if _, err := Build(ctx, simple, z, z); errors.As(err, &nc) {
			fm, err := Build(ctx, simple, z, z, Force())
			if err != nil {
				t.Fatalf("%s, simple steps: forced: %v\n%s", where, err, testsupport.Describe(simple))
			}
			st.forced++
			so.checkTotal(t, where+", simple steps, forced", fm, false)
		} else if err != nil {
			t.Fatalf("%s, simple steps: %v", where, err)
		}
		if why, beyond := ForceRefusal(sys), slices.ContainsFunc(steps, func(s gsst.Step) bool { return !s.Simple() }); (why != "") != beyond {
			t.Errorf("%s: ForceRefusal %q, though some step is not simple: %v", where, why, beyond)
		}
	}
	t.Logf("%d systems (%d with broadcast, %d with rendezvous, %d with shared variables); total-counter model built for %d, refused with a witness for %d, for a restricted broadcast for %d; %d forced on simple steps; %d group-level states compared; with RunSteps, %d transitions left out, %d reachable states compared",
		st.checked, st.bcast, st.rdv, st.shared, st.built, st.refused, st.restricted, st.forced, st.states, st.dropped, st.reached)
	if st.built < systems/5 || st.refused < systems/20 || st.restricted == 0 || st.forced < systems/20 || st.bcast < systems/5 || st.rdv < systems/5 || st.dropped < systems/5 || st.reached < systems {
		t.Errorf("the random sample exercises too little")
	}
}

// simpleVersion returns sys without updates, broadcasts, rendezvous and
// environment steps.
func simpleVersion(sys *gsst.System) *gsst.System {
	sp := sys.Spec()
	sp.Rendezvous, sp.Environment = nil, nil
	for i := range sp.Transitions {
		tr := &sp.Transitions[i]
		tr.Broadcast = nil
		for j := range tr.Blocks {
			tr.Blocks[j].Update = gsst.Update{}
		}
	}
	out, err := gsst.New(sp)
	if err != nil {
		panic(err)
	}
	return out
}

// stepOracle holds what the comparisons read: every configuration (by
// its totals), every shared valuation, and the processes' groups.
type stepOracle struct {
	sys    *gsst.System
	owner  []int
	confs  map[string][][][]int
	shared [][]int
	reach  map[string]bool // reachable, once asked
}

func newStepOracle(sys *gsst.System) *stepOracle {
	o := &stepOracle{sys: sys, confs: testsupport.ConfigsByTotals(sys), shared: [][]int{{}}}
	o.owner, _ = testsupport.Processes(sys)
	for j := range sys.Shared {
		v := &sys.Shared[j]
		hi := v.Hi
		if v.Unbounded {
			hi = v.Lo + 3
		}
		var next [][]int
		for _, vals := range o.shared {
			for k := v.Lo; k <= hi; k++ {
				next = append(next, append(slices.Clone(vals), k))
			}
		}
		o.shared = next
	}
	return o
}

// steps returns the oracle's steps from configuration y with shared
// values v.
func (o *stepOracle) steps(y [][]int, v []int) []testsupport.ProcStep {
	return testsupport.ProcSteps(o.sys, o.owner, testsupport.ProcState{Conf: testsupport.Layout(y), Shared: v})
}

// counts returns the group counters of an oracle state.
func (o *stepOracle) counts(ps testsupport.ProcState) [][]int {
	y := make([][]int, len(o.sys.Groups))
	for g := range y {
		y[g] = make([]int, len(o.sys.States))
	}
	for p, s := range ps.Conf {
		y[o.owner[p]][s]++
	}
	return y
}

// takes reports whether the oracle's step ps is one of the model
// transition's steps, taken by its groups (nil: any).
func (o *stepOracle) takes(m *Model, t *Transition, ps *testsupport.ProcStep) bool {
	return o.takesSteps(t.Steps, t.Groups, ps)
}

// takesSteps reports whether the oracle's step ps is one of steps
// (indices into System.Steps()) taken by groups (one per part; nil: any).
func (o *stepOracle) takesSteps(steps, groups []int, ps *testsupport.ProcStep) bool {
	all := o.sys.Steps()
	for _, s := range steps {
		st := &all[s]
		if st.Origin.Environment >= 0 {
			if ps.Environment == st.Origin.Environment {
				return true
			}
			continue
		}
		if st.Origin.Rendezvous >= 0 {
			if ps.Rendezvous != st.Origin.Rendezvous {
				continue
			}
			if groups == nil {
				return true
			}
			ok := true
			for i, p := range ps.Movers {
				ok = ok && o.owner[p] == groups[i]
			}
			if ok {
				return true
			}
			continue
		}
		if ps.Transition == st.Origin.Transition && st.Parts[0].Allows(ps.Group) && (groups == nil || groups[0] == ps.Group) {
			return true
		}
	}
	return false
}

// modelState returns the state of m at group counters y (or their
// totals, at TotalLevel) and shared values v.
func modelState(m *Model, y [][]int, v []int) []int {
	var x []int
	if m.Level == TotalLevel {
		x = testsupport.Totals(y)
		if x == nil {
			x = make([]int, len(m.Counters))
		}
	} else {
		for _, row := range y {
			x = append(x, row...)
		}
	}
	return append(x, v...)
}

// checkGroup compares the group-counter model with the oracle at every
// configuration and shared valuation and returns how many it compared.
func (o *stepOracle) checkGroup(t *testing.T, where string, m *Model) int {
	t.Helper()
	n := 0
	for _, list := range o.confs {
		for _, y := range list {
			for _, v := range o.shared {
				n++
				o.checkGroupAt(t, where, m, y, v)
			}
		}
	}
	return n
}

// checkGroupAt compares the group-counter model m with the oracle at
// configuration y and shared values v: each transition enabled exactly
// when the oracle has a step of its origin reaching its step's
// configuration, and together the oracle's successors.
func (o *stepOracle) checkGroupAt(t *testing.T, where string, m *Model, y [][]int, v []int) {
	t.Helper()
	x := modelState(m, y, v)
	val := func(u presburger.Var) int64 { return int64(x[u]) }
	oracle := o.steps(y, v)
	want := map[string]bool{}
	for _, ps := range oracle {
		want[fmt.Sprint(modelState(m, o.counts(ps.Next), ps.Next.Shared))] = true
	}
	got := map[string]bool{}
	for k := range m.Transitions {
		tr := &m.Transitions[k]
		enabled := presburger.Eval(tr.Guard, val)
		var next []int
		if enabled {
			next = mustStep(t, m, tr, x)
			got[fmt.Sprint(next)] = true
		}
		ref := slices.ContainsFunc(oracle, func(ps testsupport.ProcStep) bool {
			return o.takes(m, tr, &ps) && slices.Equal(modelState(m, o.counts(ps.Next), ps.Next.Shared), next)
		})
		if enabled != ref {
			t.Fatalf("%s: group model: %s is enabled=%v at %v, the oracle says %v (guard %s)\n%s", where, m.TransitionName(tr), enabled, x, ref,
				m.FormatFormula(tr.Guard), testsupport.Describe(o.sys))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: group model: %d successors of %v, the oracle has %d\n%s", where, len(got), x, len(want), testsupport.Describe(o.sys))
	}
}

// checkGroupReachable compares m, the group-counter model built with
// RunSteps, with the oracle at every configuration the oracle reaches
// from the initial one (reachable), where it must agree as the whole
// model does everywhere. It returns the configurations compared and the
// transitions RunSteps left out.
func (o *stepOracle) checkGroupReachable(t *testing.T, where string, m, whole *Model) (reached, dropped int) {
	t.Helper()
	for _, list := range o.confs {
		for _, y := range list {
			for _, v := range o.shared {
				if o.reach[fmt.Sprint(y, v)] {
					reached++
					o.checkGroupAt(t, where+", RunSteps", m, y, v)
				}
			}
		}
	}
	return reached, len(whole.Transitions) - len(m.Transitions)
}

// reachable returns the configurations and shared values (as
// fmt.Sprint(y, v)) the oracle reaches from the instance's initial
// configuration, shared values cut as in newStepOracle.
func (o *stepOracle) reachable() map[string]bool {
	if o.reach != nil {
		return o.reach
	}
	_, init := testsupport.Processes(o.sys)
	start := testsupport.ProcState{Conf: init, Shared: o.sys.InitShared()}
	seen := map[string]bool{start.Key(): true}
	o.reach = map[string]bool{}
	queue := []testsupport.ProcState{start}
	for len(queue) > 0 {
		ps := queue[0]
		queue = queue[1:]
		y := o.counts(ps)
		o.reach[fmt.Sprint(y, ps.Shared)] = true
		for _, st := range o.steps(y, ps.Shared) {
			if seen[st.Next.Key()] || !o.inCut(st.Next.Shared) {
				continue
			}
			seen[st.Next.Key()] = true
			queue = append(queue, st.Next)
		}
	}
	return o.reach
}

// inCut says whether shared values v lie among those the oracle
// compares (newStepOracle).
func (o *stepOracle) inCut(v []int) bool {
	return slices.ContainsFunc(o.shared, func(w []int) bool { return slices.Equal(v, w) })
}

// checkTotal compares the total-counter model m with the oracle at every
// vector of totals and shared valuation: each guard against the
// existential abstraction, each step against the oracle's; exact says
// that every configuration with the totals must agree (no Force); a
// forced model's MayDeadlock is compared with the deadlocked
// configurations.
func (o *stepOracle) checkTotal(t *testing.T, where string, m *Model, exact bool) {
	t.Helper()
	for _, list := range o.confs {
		for _, v := range o.shared {
			x := modelState(m, list[0], v)
			val := func(u presburger.Var) int64 { return int64(x[u]) }
			dead := slices.ContainsFunc(list, func(y [][]int) bool { return len(o.steps(y, v)) == 0 })
			for k := range m.Transitions {
				tr := &m.Transitions[k]
				got := presburger.Eval(tr.Guard, val)
				some, every := false, true
				for _, y := range list {
					fires := false
					for _, ps := range o.steps(y, v) {
						if !o.takes(m, tr, &ps) {
							continue
						}
						fires = true
						if next, after := modelState(m, o.counts(ps.Next), ps.Next.Shared), mustStep(t, m, tr, x); !slices.Equal(next, after) {
							t.Fatalf("%s: total model: %s from %v gives %v, the oracle's step %v", where, m.TransitionName(tr), x, after, next)
						}
					}
					some, every = some || fires, every && fires
				}
				if got != some || exact && some != every {
					t.Fatalf("%s: total model: %s guard %s is %v at %v; some configuration can take it: %v, every one: %v\n%s", where,
						m.TransitionName(tr), m.FormatFormula(tr.Guard), got, x, some, every, testsupport.Describe(o.sys))
				}
			}
			if !exact {
				if got := presburger.Eval(m.MayDeadlock, val); got != dead {
					t.Fatalf("%s: MayDeadlock %s is %v at %v, the oracle says %v", where, m.FormatFormula(m.MayDeadlock), got, x, dead)
				}
			}
		}
	}
}

// checkWitness checks a refusal's witness on the oracle: a step of the
// refused class is possible in the enabled configuration and none in
// the disabled one, which has the same totals; both with the witness's
// shared values.
func (o *stepOracle) checkWitness(t *testing.T, where string, nc *NotCertifiedError) {
	t.Helper()
	w := nc.Witness
	if !slices.Equal(testsupport.Totals(w.Enabled), testsupport.Totals(w.Disabled)) {
		t.Fatalf("%s: witness %v and %v have different totals", where, w.Enabled, w.Disabled)
	}
	v := nc.Shared
	if v == nil {
		v = []int{}
	}
	class := func(y [][]int) bool {
		for _, ps := range o.steps(y, v) {
			var name string
			switch {
			case ps.Environment >= 0:
				name = o.sys.EnvironmentName(ps.Environment)
			case ps.Rendezvous >= 0:
				name = o.sys.RendezvousName(&o.sys.Rendezvous[ps.Rendezvous])
			default:
				name = o.sys.TransitionName(&o.sys.Transitions[ps.Transition])
			}
			// The class's name starts with its transition's or
			// rendezvous's; its update, when named, must be the step's.
			if !strings.HasPrefix(nc.Name, name) {
				continue
			}
			if ps.Transition >= 0 && strings.Contains(nc.Name, "(update") {
				u := o.sys.Transitions[ps.Transition].BlockOf(ps.Group).Update.Text
				if !strings.Contains(nc.Name, fmt.Sprintf("(update %q)", u)) {
					continue
				}
			}
			return true
		}
		return false
	}
	// Two rendezvous with the same parts have one name, and the class is
	// then any of them: only the enabled side tells.
	alike := 0
	for i := range o.sys.Rendezvous {
		if strings.HasPrefix(nc.Name, o.sys.RendezvousName(&o.sys.Rendezvous[i])) {
			alike++
		}
	}
	if !class(w.Enabled) || alike < 2 && class(w.Disabled) {
		t.Fatalf("%s: the witness of %v does not show the step enabled in one configuration only\n%s", where, nc, testsupport.Describe(o.sys))
	}
}
