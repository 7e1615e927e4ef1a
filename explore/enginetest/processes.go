package enginetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// The part of the conformance suite on every construct of the language
// (shared variables with updates, broadcast, rendezvous, fixed
// parameters): an engine on the group-counter model of random systems
// that may use them (testsupport.RandomSystem), and on their
// total-counter model when counterabs.Build accepts them, against the
// process-level semantics (testsupport.Procs), which shares no code with
// the models or engines.

// processSystems and processSystemsShort are the number of random
// systems processes checks, without and with -short.
const (
	processSystems      = 400
	processSystemsShort = 30
)

// processes checks the engine on hundreds of random systems that may
// use every construct against the unreduced system on processes: on
// the group-counter model (counterabs.BuildGroup) of every system, and
// on the total-counter model (counterabs.Build with Z3) of those it
// accepts, the reachable orbits and deadlocks (when the engine counts
// them), every verdict, every trace on the quotient (CheckVerdicts) and
// replayed on the unreduced system (testsupport.Replay). A system Build
// refuses must come with a witness: the refused step enabled in one
// configuration and not in another with the same totals and shared
// values.
func processes(t *testing.T, s Suite) {
	r := rand.New(rand.NewSource(2026_11_26))
	systems := processSystems
	if testing.Short() {
		systems = processSystemsShort
	}
	cfg := testsupport.Small(0, testsupport.AllConstructs)
	cfg.Properties, cfg.GroupProperties = 3, 3
	solver := z3.New()
	var st processStats
	for i := range systems {
		sys := testsupport.RandomSystem(r, cfg)
		sp := procs(sys, 20000)
		if sp == nil {
			st.infinite++
			continue
		}
		sys = sp.Sys
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(testsupport.Describe(sys))
				}
			}()
			s.system(t, sys, sp, solver, &st)
		})
	}
	t.Logf("%s: %d systems (%d with broadcast, %d with rendezvous, %d with shared variables, %d with deadlocks, %d left out as too large); "+
		"%d certified, %d total-counter models built, %d refused with a witness (%d where another step has the same effect), %d with group-restricted broadcast; "+
		"%d verdicts, %d traces checked, %d lifted traces replayed",
		s.Engine.Name(), st.checked, st.bcast, st.rdv, st.shared, st.dead, st.infinite, st.certified, st.built, st.refused, st.stricter, st.restricted,
		st.Verdicts, st.Traces, st.Lifted)
	if st.checked < systems*3/4 || st.bcast < st.checked/5 || st.rdv < st.checked/5 || st.shared < st.checked/2 || st.dead < st.checked/20 ||
		st.built < systems/5 || st.refused < systems/20 || st.restricted == 0 || st.Lifted < st.checked {
		t.Errorf("the random sample exercises too little")
	}
}

// processStats counts what processes checked.
type processStats struct {
	Stats
	checked, bcast, rdv, shared, dead, infinite int
	certified, built, refused, stricter         int
	restricted                                  int
}

// procs returns the reachable concrete states of sys, or nil when there
// are more than limit (an unbounded shared variable may make them
// infinite).
func procs(sys *gsst.System, limit int) (sp *testsupport.ProcSpace) {
	defer func() {
		if recover() != nil {
			sp = nil
		}
	}()
	return testsupport.Procs(sys, limit)
}

// system checks one random system. Three implementations judge its
// symmetry: certification (detect), Build's check of every abstract
// transition, and brute force (testsupport.FullSymmetry); Build may only
// accept what the other two accept, and may refuse a certified system
// only where another step makes up for the one it finds inexact.
func (s Suite) system(t *testing.T, sys *gsst.System, sp *testsupport.ProcSpace, solver *z3.Solver, st *processStats) {
	ctx := context.Background()
	counts := explore.NewConfig(s.Options...).CountStates
	st.checked++
	x := testsupport.ConstructsOf(sys)
	if x&testsupport.Broadcasts != 0 {
		st.bcast++
	}
	if x&testsupport.Rendezvous != 0 {
		st.rdv++
	}
	if x&testsupport.SharedVars != 0 {
		st.shared++
	}
	groupKey := func(i int) string { return fmt.Sprint(procCounters(sp, i), sp.States[i].Shared) }
	totalKey := func(i int) string { return testsupport.OrbitKey(sys, sp.Owner, sp.States[i]) }
	check := func(m *counterabs.Model, msys *gsst.System, quot *testsupport.Graph, key func(explore.State) string) {
		t.Helper()
		where := fmt.Sprintf("%s model, %s engine", m.Level, s.Engine.Name())
		rep, err := s.Engine.Check(ctx, m, s.Options...)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if counts && (rep.ReachableStates == nil || rep.ReachableStates.Int64() != int64(quot.Len()) || rep.Deadlocks.Int64() != int64(quot.Deadlocks())) {
			t.Errorf("%s: %v states, %v deadlocks; oracle %d, %d", where, rep.ReachableStates, rep.Deadlocks, quot.Len(), quot.Deadlocks())
		}
		for _, ex := range rep.DeadlockExamples {
			if i, ok := quot.Index[key(ex)]; !ok || !quot.Dead[i] {
				t.Errorf("%s: deadlock example %s is not a reachable deadlock", where, key(ex))
			}
		}
		for _, tr := range rep.DeadlockTraces {
			if _, err := testsupport.Replay(sys, Trace(tr, key)); err != nil {
				t.Errorf("%s: deadlock trace: %v", where, err)
			}
			st.Lifted++
		}
		CheckVerdicts(t, where, msys, rep, sp.Graph, quot, key, s.Shortest, &st.Stats)
	}

	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	gq := sp.Quotient(groupKey)
	if gq.Deadlocks() > 0 {
		st.dead++
	}
	check(m, sys, gq, groupStateKey)

	tsys := testsupport.TotalProperties(sys)
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil {
		t.Fatal(err)
	}
	certified := cert.Certified()
	if certified {
		st.certified++
	}
	tm, err := counterabs.Build(ctx, tsys, solver, solver)
	var nc *counterabs.NotCertifiedError
	switch {
	case err != nil && errors.As(err, &nc):
		st.refused++
		w := nc.Witness
		en := testsupport.ProcState{Conf: layout(w.Enabled), Shared: nc.Shared}
		dis := testsupport.ProcState{Conf: layout(w.Disabled), Shared: nc.Shared}
		if !classFires(sp, en, nc) || classFires(sp, dis, nc) {
			t.Errorf("%v: the witness does not show the step enabled in one configuration only", err)
		}
		if effects(sp, en) == effects(sp, dis) {
			// Another class of steps has the same effect where this
			// one is disabled: the system may be fully virtually
			// symmetric all the same, and Build's check, class by
			// class, is stricter than certification.
			st.stricter++
		} else if certified {
			t.Errorf("certification passed, but Build's witness %v shows two configurations of one orbit with different successor orbits", err)
		}
		return
	case err != nil && strings.Contains(err.Error(), "some groups only"):
		st.restricted++
		return
	case err != nil:
		t.Fatal(err)
	}
	st.built++
	if !certified {
		t.Errorf("Build accepted a system certification refuses (%v)", cert.Verdict())
	}
	// Build accepts a system only when the domain of each of its
	// abstract transitions is closed under orbits, which makes it fully
	// virtually symmetric: brute force must agree.
	if sym := testsupport.FullSymmetry(sys, 3); !sym.Symmetric {
		t.Errorf("Build accepted a system that is not fully virtually symmetric: %v and %v share an orbit, only the second has a successor in %s",
			sym.A, sym.B, sym.Orbit)
	}
	check(tm, tsys, sp.Quotient(totalKey), totalStateKey)
}

// sharedOf returns the shared values of a trace state, [] when it has
// none (as the reference semantics keeps them).
func sharedOf(x explore.State) []int {
	if x.Shared == nil {
		return []int{}
	}
	return x.Shared
}

// procCounters returns the group counters [group][state] of concrete
// state i.
func procCounters(sp *testsupport.ProcSpace, i int) [][]int {
	y := make([][]int, len(sp.Sys.Groups))
	for g := range y {
		y[g] = make([]int, len(sp.Sys.States))
	}
	for p, s := range sp.States[i].Conf {
		y[sp.Owner[p]][s]++
	}
	return y
}

// layout lists the local state of each process of a configuration given
// by group counters, as testsupport.Processes numbers them.
func layout(y [][]int) []int {
	var out []int
	for g := range y {
		for s, k := range y[g] {
			for range k {
				out = append(out, s)
			}
		}
	}
	return out
}

// effects returns the set of (totals, shared) successors of st, as a
// key.
func effects(sp *testsupport.ProcSpace, st testsupport.ProcState) string {
	var ks []string
	for _, step := range testsupport.ProcSteps(sp.Sys, sp.Owner, st) {
		ks = append(ks, testsupport.OrbitKey(sp.Sys, sp.Owner, step.Next))
	}
	slices.Sort(ks)
	return fmt.Sprint(slices.Compact(ks))
}

// classFires reports whether the steps a NotCertifiedError names can
// happen in st: its local transition by a process of a block with the
// update of group Witness.Group's block, or (Transition nil) the
// rendezvous named.
func classFires(sp *testsupport.ProcSpace, st testsupport.ProcState, nc *counterabs.NotCertifiedError) bool {
	sys := sp.Sys
	var want string
	if nc.Transition != nil {
		want = fmt.Sprint(nc.Transition.BlockOf(nc.Witness.Group).Update.Assign)
	}
	for _, step := range testsupport.ProcSteps(sys, sp.Owner, st) {
		if nc.Transition == nil {
			// The step is a rendezvous or an environment step, told
			// apart by where it comes from (two unnamed rendezvous
			// with the same parts have the same name).
			if o := nc.Origin; o != nil && (o.Rendezvous >= 0 && step.Rendezvous == o.Rendezvous ||
				o.Environment >= 0 && step.Environment == o.Environment) {
				return true
			}
			if nc.Origin == nil && step.Rendezvous >= 0 && sys.RendezvousName(&sys.Rendezvous[step.Rendezvous]) == nc.Name {
				return true
			}
			continue
		}
		if step.Transition >= 0 && &sys.Transitions[step.Transition] == nc.Transition &&
			fmt.Sprint(nc.Transition.BlockOf(step.Group).Update.Assign) == want {
			return true
		}
	}
	return false
}
