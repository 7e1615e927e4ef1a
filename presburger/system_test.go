package presburger_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

func TestVerdictString(t *testing.T) {
	for v, want := range map[pb.Verdict]string{pb.Proved: "proved", pb.Refuted: "refuted", pb.Undecided: "unknown"} {
		if v.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(v), v.String(), want)
		}
	}
	for o, want := range map[pb.Obligation]string{pb.Initiation: "initiation", pb.Consecution: "consecution", pb.Safety: "safety"} {
		if o.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(o), o.String(), want)
		}
	}
}

// The systems of these tests have two state variables x, y (variables 0
// and 1, next copies 3 and 4) and one parameter n (variable 2).
const (
	sx, sy, sn, sxn, syn = pb.Var(0), pb.Var(1), pb.Var(2), pb.Var(3), pb.Var(4)
)

func smallSystem() pb.TransitionSystem {
	return pb.TransitionSystem{
		Vars: []pb.Var{sx, sy}, Next: []pb.Var{sxn, syn}, Params: []pb.Var{sn},
		Domain: []pb.Bound{{Var: sx, Lo: 0, Hi: 2}, {Var: sy, Lo: 0, Hi: 2}, {Var: sn, Lo: 1, Hi: 2}},
		Init:   pb.Conj(pb.Compare(tx, pb.Eq, k(0)), pb.Compare(ty, pb.Eq, k(0))),
		// x' = x + 1, y' = y while x < n
		Trans: []pb.Formula{pb.Conj(pb.Compare(tx, pb.Lt, tz), pb.Compare(pb.VarTerm(sxn), pb.Eq, tx.Add(k(1))),
			pb.Compare(pb.VarTerm(syn), pb.Eq, ty))},
		Bad: pb.Compare(ty, pb.Gt, k(0)),
	}
}

func TestSystemCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mod    func(ts *pb.TransitionSystem)
		errHas string
	}{
		{"ok", func(*pb.TransitionSystem) {}, ""},
		{"lengths", func(ts *pb.TransitionSystem) { ts.Next = ts.Next[:1] }, "2 state variables but 1 next-state"},
		{"var twice", func(ts *pb.TransitionSystem) { ts.Params = []pb.Var{sx} }, "both a state variable and a parameter"},
		{"next is var", func(ts *pb.TransitionSystem) { ts.Next = []pb.Var{sxn, sx} }, "both a state variable and a next-state"},
		{"no domain", func(ts *pb.TransitionSystem) { ts.Domain = ts.Domain[:2] }, "parameter 2 has no domain bound"},
		{"domain on next", func(ts *pb.TransitionSystem) { ts.Domain = append(ts.Domain, pb.AtLeast(sxn, 0)) }, "domain bound on variable 3"},
		{"empty domain", func(ts *pb.TransitionSystem) { ts.Domain = append(ts.Domain, pb.Bound{Var: sx, Lo: 3, Hi: 2}) }, "empty range"},
		{"nil init", func(ts *pb.TransitionSystem) { ts.Init = nil }, "Init is nil"},
		{"nil trans", func(ts *pb.TransitionSystem) { ts.Trans = []pb.Formula{nil} }, "Trans[0] is nil"},
		{"bad reads next", func(ts *pb.TransitionSystem) { ts.Bad = pb.Compare(pb.VarTerm(sxn), pb.Eq, k(0)) }, "Bad reads variable 3"},
		{"init reads local", func(ts *pb.TransitionSystem) { ts.Init = pb.Compare(pb.VarTerm(9), pb.Eq, k(0)) }, "Init reads variable 9"},
		{"open exists", func(ts *pb.TransitionSystem) {
			ts.Trans = []pb.Formula{pb.Exists{Vars: []pb.Bound{pb.AtLeast(9, 0)}, Body: pb.True}}
		}, "the open range 0..; it needs a finite one (in Trans[0])"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := smallSystem()
			tc.mod(&ts)
			err := ts.Check()
			switch {
			case tc.errHas == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)):
				t.Errorf("error %v, want one containing %q", err, tc.errHas)
			}
		})
	}
}

func TestLocalsPrime(t *testing.T) {
	ts := smallSystem()
	ts.Trans = append(ts.Trans, pb.Conj(pb.Compare(pb.VarTerm(sxn), pb.Eq, tx.Add(pb.VarTerm(7))),
		pb.Exists{Vars: []pb.Bound{{Var: 8, Lo: 0, Hi: 1}}, Body: pb.Compare(pb.VarTerm(8), pb.Eq, pb.VarTerm(6))}))
	if got := ts.Locals(0); len(got) != 0 {
		t.Errorf("Locals(0) = %v, want none", got)
	}
	if got := fmt.Sprint(ts.Locals(1)); got != "[6 7]" {
		t.Errorf("Locals(1) = %v, want [6 7] (8 is bound)", got)
	}
	inv := pb.Conj(pb.Compare(tx.Add(ty), pb.Le, tz), pb.Compare(pb.VarTerm(7), pb.Eq, k(0)))
	if got := pb.Format(ts.Prime(inv), name); got != "-z + v3 + v4 <= 0 & v7 = 0" {
		t.Errorf("Prime = %s", got)
	}
}

// randomSystem makes a system over the small layout with every range
// finite: x, y in 0..2, n in 1..2, random Init, one to three random
// transitions and a random Bad.
func randomSystem(g *gen) pb.TransitionSystem {
	ts := smallSystem()
	state := []pb.Var{sx, sy, sn}
	step := []pb.Var{sx, sy, sn, sxn, syn}
	ts.Init = g.formula(2, state)
	ts.Trans = nil
	for n := 1 + g.r.Intn(9); n > 0; n-- {
		ts.Trans = append(ts.Trans, g.formula(3, step))
	}
	ts.Bad = g.formula(2, state)
	return ts
}

// explicitRun searches the states of ts breadth first, for each value of
// n, and returns the set of reachable states (as "n x y" keys) and a
// shortest run into a bad state, or nil when there is none.
func explicitRun(ts pb.TransitionSystem) (map[[3]int64]bool, *pb.Counterexample) {
	reach := map[[3]int64]bool{}
	var best *pb.Counterexample
	for n := int64(1); n <= 2; n++ {
		type node struct {
			x, y   int64
			parent *node
			step   int
		}
		val := func(x, y, xn, yn int64) func(pb.Var) int64 {
			return func(v pb.Var) int64 { return [...]int64{x, y, n, xn, yn}[v] }
		}
		var frontier []*node
		for x := int64(0); x <= 2; x++ {
			for y := int64(0); y <= 2; y++ {
				if pb.Eval(ts.Init, val(x, y, 0, 0)) {
					reach[[3]int64{n, x, y}] = true
					frontier = append(frontier, &node{x: x, y: y, step: -1})
				}
			}
		}
		var found *node
		for len(frontier) > 0 && found == nil {
			var next []*node
			for _, u := range frontier {
				if pb.Eval(ts.Bad, val(u.x, u.y, 0, 0)) {
					found = u
					break
				}
				for i, tr := range ts.Trans {
					for xn := int64(0); xn <= 2; xn++ {
						for yn := int64(0); yn <= 2; yn++ {
							if key := [3]int64{n, xn, yn}; !reach[key] && pb.Eval(tr, val(u.x, u.y, xn, yn)) {
								reach[key] = true
								next = append(next, &node{xn, yn, u, i})
							}
						}
					}
				}
			}
			frontier = next
		}
		if found != nil {
			cex := &pb.Counterexample{Params: pb.Model{sn: n}}
			for u := found; u != nil; u = u.parent {
				cex.States = append([]pb.Model{{sx: u.x, sy: u.y}}, cex.States...)
				if u.parent != nil {
					cex.Steps = append([]int{u.step}, cex.Steps...)
				}
			}
			if best == nil || len(cex.States) < len(best.States) {
				best = cex
			}
		}
	}
	return reach, best
}

// firstFailure enumerates the obligations of CheckInvariant in its order
// and returns the first that some assignment in the box violates, with
// the transition for consecution; ok is false when none fails.
func firstFailure(ts pb.TransitionSystem, inv pb.Formula) (o pb.Obligation, trans int, ok bool) {
	state := []pb.Bound{{Var: sx, Lo: 0, Hi: 2}, {Var: sy, Lo: 0, Hi: 2}, {Var: sn, Lo: 1, Hi: 2}}
	step := append(state, pb.Bound{Var: sxn, Lo: 0, Hi: 2}, pb.Bound{Var: syn, Lo: 0, Hi: 2})
	exists := func(bs []pb.Bound, f pb.Formula) bool {
		found := false
		forAll(bs, func(val func(pb.Var) int64) { found = found || pb.Eval(f, val) })
		return found
	}
	if exists(state, pb.Conj(ts.Init, pb.Negation(inv))) {
		return pb.Initiation, -1, true
	}
	for i, tr := range ts.Trans {
		if exists(step, pb.Conj(inv, tr, pb.Negation(ts.Prime(inv)))) {
			return pb.Consecution, i, true
		}
	}
	if exists(state, pb.Conj(inv, ts.Bad)) {
		return pb.Safety, -1, true
	}
	return 0, 0, false
}

// exactInvariant is the disjunction of the reachable states: inductive,
// and safe exactly when no reachable state is bad.
func exactInvariant(reach map[[3]int64]bool) pb.Formula {
	var out []pb.Formula
	for s := range reach {
		out = append(out, pb.Conj(pb.Compare(tz, pb.Eq, k(s[0])), pb.Compare(tx, pb.Eq, k(s[1])), pb.Compare(ty, pb.Eq, k(s[2]))))
	}
	return pb.Disj(out...)
}

// TestCheckInvariantRandom compares CheckInvariant (with BruteForce) on
// random systems with an enumeration of each obligation: on random
// candidate invariants it must name the first obligation that fails with
// a witness that violates it, and on the exact reachable set it must
// accept exactly the safe systems.
func TestCheckInvariantRandom(t *testing.T) {
	checkInvariantRandom(t, newGen(11, 5), randomSystem)
}

// TestCheckInvariantDefinedSteps is TestCheckInvariantRandom on systems
// most of whose transitions define each next-state variable by an
// equality, as counter models' do: CheckInvariant substitutes those
// definitions (stepImage), and must answer as the enumeration does.
func TestCheckInvariantDefinedSteps(t *testing.T) {
	checkInvariantRandom(t, newGen(29, 5), definedSystem)
}

// definedSystem is randomSystem with two transitions in three made of a
// random guard, an equality x' = t and one y' = u (either side first),
// t and u often the variable plus -1, 0 or 1, and sometimes a random
// condition on the step besides.
func definedSystem(g *gen) pb.TransitionSystem {
	ts := randomSystem(g)
	state := []pb.Var{sx, sy, sn}
	value := func(v pb.Var) pb.Term {
		if g.r.Intn(2) == 0 {
			return pb.VarTerm(v).Add(k(int64(g.r.Intn(3) - 1)))
		}
		return g.term(state)
	}
	define := func(next, v pb.Var) pb.Formula {
		if g.r.Intn(2) == 0 {
			return pb.Compare(pb.VarTerm(next), pb.Eq, value(v))
		}
		return pb.Compare(value(v), pb.Eq, pb.VarTerm(next))
	}
	for i := range ts.Trans {
		if g.r.Intn(3) == 0 {
			continue
		}
		parts := []pb.Formula{g.formula(2, state), define(sxn, sx), define(syn, sy)}
		if g.r.Intn(4) == 0 {
			parts = append(parts, g.formula(1, []pb.Var{sx, sy, sn, sxn, syn}))
		}
		ts.Trans[i] = pb.Conj(parts...)
	}
	return ts
}

// checkInvariantRandom compares CheckInvariant (with BruteForce) with
// the enumeration of each obligation on 300 systems of mk.
func checkInvariantRandom(t *testing.T, g *gen, mk func(*gen) pb.TransitionSystem) {
	ctx := context.Background()
	count := map[string]int{}
	for i := 0; i < 300; i++ {
		ts := mk(g)
		reach, cex := explicitRun(ts)
		// The fourth candidate is a conjunction of a condition on x and
		// one on y: a step that keeps one of them is checked on the
		// other's conjunct alone (stepImage).
		cands := []pb.Formula{exactInvariant(reach), g.formula(3, []pb.Var{sx, sy, sn}), pb.True,
			pb.Conj(g.formula(2, []pb.Var{sx, sn}), g.formula(2, []pb.Var{sy, sn}))}
		for j, inv := range cands {
			err := pb.CheckInvariant(ctx, pb.BruteForce{}, ts, inv)
			o, trans, fails := firstFailure(ts, inv)
			if ok, err := pb.IsInvariant(ctx, pb.BruteForce{}, ts, inv); ok == fails || err != nil {
				t.Fatalf("system %d, candidate %d: IsInvariant = %v, %v; the enumeration says it fails: %v", i, j, ok, err, fails)
			}
			if j == 0 && fails != (cex != nil) {
				t.Fatalf("system %d: exact invariant fails=%v but counterexample %v", i, fails, cex)
			}
			if !fails {
				count["accepted"]++
				if err != nil {
					t.Fatalf("system %d, candidate %d: %v, want nil", i, j, err)
				}
				continue
			}
			var ie *pb.InvariantError
			if !errors.As(err, &ie) {
				t.Fatalf("system %d, candidate %d: %v, want an InvariantError (%v)", i, j, err, o)
			}
			count[o.String()]++
			if ie.Obligation != o || (o == pb.Consecution && ie.Trans != trans) {
				t.Fatalf("system %d, candidate %d: %v, want %v under %d", i, j, err, o, trans)
			}
			val := func(v pb.Var) int64 { return ie.Witness[v] }
			var violated pb.Formula
			switch o {
			case pb.Initiation:
				violated = pb.Conj(ts.Init, pb.Negation(inv))
			case pb.Consecution:
				violated = pb.Conj(inv, ts.Trans[trans], pb.Negation(ts.Prime(inv)))
			default:
				violated = pb.Conj(inv, ts.Bad)
			}
			if !pb.Eval(violated, val) {
				t.Fatalf("system %d, candidate %d: witness %v does not violate %v", i, j, ie.Witness, o)
			}
		}
	}
	t.Logf("outcomes %v", count)
	for _, key := range []string{"accepted", "initiation", "consecution", "safety"} {
		if count[key] < 20 {
			t.Errorf("too few %s outcomes: %v", key, count)
		}
	}
}

func TestCheckInvariantErrors(t *testing.T) {
	ctx := context.Background()
	ts := smallSystem()
	inv := pb.Conj(pb.Compare(ty, pb.Eq, k(0)), pb.Compare(tx, pb.Le, tz))
	if err := pb.CheckInvariant(ctx, pb.BruteForce{}, ts, inv); err != nil {
		t.Fatalf("right invariant: %v", err)
	}
	// A solver that gives up: an UndecidedError, not an InvariantError.
	err := pb.CheckInvariant(ctx, pb.BruteForce{Limit: 2}, ts, inv)
	var ue *pb.UndecidedError
	var ie *pb.InvariantError
	if !errors.As(err, &ue) || errors.As(err, &ie) || !strings.Contains(ue.Reason, "limit") {
		t.Errorf("tiny limit: %v, want an UndecidedError", err)
	}
	// Malformed: neither of the two.
	for _, bad := range []pb.Formula{nil, pb.Compare(pb.VarTerm(sxn), pb.Eq, k(0)),
		pb.Exists{Vars: []pb.Bound{pb.AnyInt(9)}, Body: pb.True}} {
		err := pb.CheckInvariant(ctx, pb.BruteForce{}, ts, bad)
		if err == nil || errors.As(err, &ue) || errors.As(err, &ie) {
			t.Errorf("invariant %v: %v, want a plain error", bad, err)
		}
	}
	// Open domains are beyond BruteForce: an error, never a verdict.
	ts.Domain[0] = pb.AtLeast(sx, 0)
	if err := pb.CheckInvariant(ctx, pb.BruteForce{}, ts, inv); err == nil || errors.As(err, &ue) || errors.As(err, &ie) {
		t.Errorf("open domain with BruteForce: %v, want a plain error", err)
	}
}

// TestReplayRandom replays shortest runs found by explicit search into
// bad states of random systems, then breaks them in each of the ways
// Replay checks and expects a ReplayError.
func TestReplayRandom(t *testing.T) {
	ctx := context.Background()
	g := newGen(12, 5)
	replayed, broken := 0, 0
	for i := 0; i < 300; i++ {
		ts := randomSystem(g)
		_, cex := explicitRun(ts)
		if cex == nil {
			continue
		}
		if err := pb.Replay(ctx, pb.BruteForce{}, ts, *cex); err != nil {
			t.Fatalf("system %d: %v does not replay: %v", i, cex, err)
		}
		replayed++
		last := len(cex.States) - 1
		mutants := map[string]pb.Counterexample{}
		clone := func() pb.Counterexample {
			c := pb.Counterexample{Params: pb.Model{sn: cex.Params[sn]}, Steps: append([]int(nil), cex.Steps...)}
			for _, s := range cex.States {
				c.States = append(c.States, pb.Model{sx: s[sx], sy: s[sy]})
			}
			return c
		}
		c := clone()
		c.Params[sn] = 3
		mutants["param outside domain"] = c
		c = clone()
		delete(c.Params, sn)
		mutants["param missing"] = c
		c = clone()
		c.States[last][sx] = -1
		mutants["state outside domain"] = c
		c = clone()
		c.States = append(c.States, c.States[last])
		mutants["too many states"] = c
		val := func(s pb.Model, n pb.Model) func(pb.Var) int64 {
			return func(v pb.Var) int64 {
				if v == sn {
					return cex.Params[sn]
				}
				if v == sxn || v == syn {
					return n[v-3]
				}
				return s[v]
			}
		}
		// A non-bad last state, a non-initial first state, a step that
		// names a transition that does not hold: where one exists.
		for x := int64(0); x <= 2; x++ {
			for y := int64(0); y <= 2; y++ {
				s := pb.Model{sx: x, sy: y}
				if !pb.Eval(ts.Bad, val(s, nil)) {
					c = clone()
					c.States[last] = s
					mutants["last not bad"] = c
				}
				if !pb.Eval(ts.Init, val(s, nil)) {
					c = clone()
					c.States[0] = s
					mutants["first not initial"] = c
				}
			}
		}
		for j, i := range cex.Steps {
			for other := range ts.Trans {
				if other != i && !pb.Eval(ts.Trans[other], val(cex.States[j], cex.States[j+1])) {
					c = clone()
					c.Steps[j] = other
					mutants["wrong transition"] = c
				}
			}
			c = clone()
			c.Steps[j] = len(ts.Trans)
			mutants["no such transition"] = c
		}
		for what, m := range mutants {
			var re *pb.ReplayError
			if err := pb.Replay(ctx, pb.BruteForce{}, ts, m); !errors.As(err, &re) {
				t.Fatalf("system %d, %s: %v, want a ReplayError", i, what, err)
			}
			broken++
		}
	}
	t.Logf("%d counterexamples replayed, %d broken ones rejected", replayed, broken)
	if replayed < 50 {
		t.Errorf("only %d unsafe systems", replayed)
	}
}
