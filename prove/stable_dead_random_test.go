package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// withState returns spec with a state Z added after its states, every
// formula and term renumbered for it (a state moves the group counters,
// the sizes, n, the shared variables and the parameters), and Z's index.
// No process starts in Z.
func withState(spec *gsst.Spec) (*gsst.Spec, int) {
	ns, ng := len(spec.States), len(spec.Groups)
	counters := presburger.Var(ns + ns*ng)
	spec.RenameVars(func(v presburger.Var) presburger.Var {
		switch {
		case v < presburger.Var(ns):
			return v // #S
		case v < counters: // #S[g]: ns + st*ng + g, with one total more before
			return v + 1
		default: // sizes, n, shared variables, parameters
			return v + presburger.Var(1+ng)
		}
	})
	z := ns
	spec.States = append(append([]string(nil), spec.States...), "Z")
	init := make([][]int, len(spec.Init))
	for g := range spec.Init {
		init[g] = append(append([]int(nil), spec.Init[g]...), 0)
	}
	spec.Init = init
	spec.InitPos = nil
	return spec, z
}

// deadStateSystem draws stableSystem's system and adds a state Z no
// process starts in, with steps out of it into each state p may hold
// in and out of (every state), each updating the shared variables
// (set to their least or greatest value, or raised by one when
// unbounded), which break p's
// stability if taken. kind says how Z is entered: "dead" (never: the
// steps are never taken), or, where they are, "step" (a transition from
// an initial state), "broadcast" (only by a broadcast's transfer out of
// an initial state) or "init" (some processes of the first group start
// there: its size when it has one state to start in). Only "dead"
// leaves the steps out of Z untaken.
func deadStateSystem(t *testing.T, r *rand.Rand, kind string) *gsst.System {
	t.Helper()
	base := stableSystem(t, r)
	spec, z := withState(base.Spec())
	var trs []gsst.Transition
	for st := range spec.States {
		if st == z {
			continue
		}
		var assign []gsst.Assign
		for j := range spec.Shared {
			v := &spec.Shared[j]
			x := spec.SharedVar(j)
			switch r.Intn(3) {
			case 0:
				assign = append(assign, gsst.Assign{Var: x, Value: presburger.ConstTerm(int64(v.Lo))})
			case 1:
				if v.Unbounded {
					assign = append(assign, gsst.Assign{Var: x, Value: presburger.VarTerm(x).Add(presburger.ConstTerm(1))})
				} else {
					assign = append(assign, gsst.Assign{Var: x, Value: presburger.ConstTerm(int64(v.Hi))})
				}
			}
		}
		b := gsst.Block{Groups: allGroups(spec), Guard: presburger.True, Update: gsst.Update{Assign: assign}}
		b.Update.Text = spec.FormatUpdate(&b.Update)
		trs = append(trs, gsst.Transition{Name: "fromZ" + spec.States[st], From: z, To: st, Blocks: []gsst.Block{b}})
	}
	first := -1
	for st, c := range spec.Init[0] {
		if c > 0 && first < 0 {
			first = st
		}
	}
	if first < 0 {
		first = 0
	}
	into := gsst.Block{Groups: allGroups(spec), Guard: presburger.True}
	switch kind {
	case "step":
		trs = append(trs, gsst.Transition{Name: "intoZ", From: first, To: z, Blocks: []gsst.Block{into}})
	case "broadcast":
		// The mover stays where it is; the others in first follow
		// the transfer into Z.
		trs = append(trs, gsst.Transition{Name: "intoZ", From: first, To: first, Blocks: []gsst.Block{into}, Broadcast: []gsst.Transfer{{From: first, To: z}}})
	case "init":
		spec.Init[0][z], spec.Init[0][first] = spec.Init[0][first], 0
	}
	spec.Transitions = append(append([]gsst.Transition(nil), spec.Transitions...), trs...)
	sys, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%s: %v\n%s", kind, err, testsupport.Describe(base))
	}
	return sys
}

// allGroups lists the groups of spec.
func allGroups(spec *gsst.Spec) []int {
	gs := make([]int, len(spec.Groups))
	for g := range gs {
		gs[g] = g
	}
	return gs
}

// TestProveStablePremiseDeadRandom checks AG (p -> AG q) on the random
// systems of TestProveStablePremiseRandom with a state Z added whose
// steps out of it would break p's stability (deadStateSystem): where no
// process can enter Z, those steps are never taken and p is as stable
// as without them, so prove must decide the property as often as on
// the system without Z (stableUnder leaves them out); where processes
// can be in Z (a step into it, a broadcast's transfer, an initial
// count), they are taken, and every verdict is checked against the
// oracle on every instance of the box.
func TestProveStablePremiseDeadRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 32
	}
	s := z3.New()
	counts := map[string]int{}
	kinds := []string{"dead", "dead", "step", "broadcast", "init"}
	for i := range systems {
		kind := kinds[i%len(kinds)]
		// One seed per system, so that every kind draws its base
		// system as the dead kind would.
		sys := deadStateSystem(t, rand.New(rand.NewSource(int64(300+i))), kind)
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d (%s): %v\n%s", i, kind, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[kind+" "+res.Verdict.String()]++
			if res.Verdict != prove.Proved && res.Verdict != prove.Refuted {
				continue
			}
			checkByOracle(t, fmt.Sprintf("system %d (%s)", i, kind), sys, p, res)
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	for _, kind := range []string{"dead", "step", "broadcast", "init"} {
		if counts[kind+" "+prove.Proved.String()] == 0 && counts[kind+" "+prove.Refuted.String()] == 0 {
			t.Errorf("no property decided with Z entered by %q: %v", kind, counts)
		}
	}
	if counts["dead "+prove.Skipped.String()] > counts["dead "+prove.Proved.String()]+counts["dead "+prove.Refuted.String()] {
		t.Errorf("with Z dead, more properties skipped than decided: the steps out of Z were read: %v", counts)
	}
}
