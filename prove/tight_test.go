package prove_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// tightLock is mist's bingham net with 4 places past the lock, the lock
// a shared integer typed TYPE: the lock's place `in` holds at most one
// token, which its guards and updates keep (in := 1 - in needs in <= 1
// to stay at or above 0), and GUARD joins the guard of the step into X1.
const tightLock = `
name: tight-lock
states: [X0, X1, X2, X3, X4]
groups: {proc: 1..}
shared:
  in: {type: "TYPE", init: 0}
init: X0
transitions:
  - {from: X0, to: X1, guard: "in = 0GUARD", update: "in := 1"}
  - {from: X1, to: X0, update: "in := 1 - in"}
  - {from: X1, to: X2}
  - {from: X2, to: X3}
  - {from: X3, to: X4}
  - {from: X2, to: X0, guard: "in = 1", update: "in := 0"}
  - {from: X3, to: X0, guard: "in = 1", update: "in := 0"}
  - {from: X4, to: X0, guard: "in = 1", update: "in := 0"}
properties:
  mutex: "AG #X4 <= 1"
  lockset: "AG in <= 1"
  lockfree: "AG in = 0"
`

// tightTicket counts the processes past a gate with a shared integer k
// typed TYPE, which the gate's guard keeps at 3 or less, and the
// entries with c, typed CTYPE.
const tightTicket = `
name: tight-ticket
states: [A, B]
groups: {proc: 1..}
shared:
  k: {type: "TYPE", init: 0}
  c: {type: "CTYPE", init: 0}
init: A
transitions:
  - {from: A, to: B, guard: "k < 3", update: "k := k + 1; c := c + 1"}
  - {from: B, to: A, update: "k := k - 1"}
properties:
  atmost3: "AG k <= 3"
  atmost2: "AG k <= 2"
  counted: "AG #B = k"
`

// tightPaired writes x with z, which its domain keeps at 4 or less:
// x := x + 1 is taken only where x + 3 <= 4, so x stays at 2 or less.
const tightPaired = `
name: tight-paired
states: [A]
groups: {proc: 1..}
shared:
  x: {type: "0..", init: 0}
  z: {type: "0..4", init: 0}
init: A
transitions:
  - {name: up, from: A, to: A, update: "x := x + 1; z := x + 3"}
  - {name: reset, from: A, to: A, update: "x := 0; z := 0"}
properties:
  small: "AG x <= 2"
`

// TestTightBound checks the bound tightBound finds for a variable typed
// wider than it ever gets, and that it finds none where the values grow
// without end, the variable is no integer, or the domain is no wider.
func TestTightBound(t *testing.T) {
	s := z3.New()
	ctx := context.Background()
	for _, c := range []struct {
		name, src, v string
		hi           int
		ok           bool
	}{
		{"lock unbounded", strings.NewReplacer("TYPE", "0..", "GUARD", "").Replace(tightLock), "in", 1, true},
		{"lock widened", strings.NewReplacer("TYPE", "0..6", "GUARD", "").Replace(tightLock), "in", 1, true},
		{"lock as typed", strings.NewReplacer("TYPE", "0..1", "GUARD", "").Replace(tightLock), "in", 0, false},
		{"lock below zero", strings.NewReplacer("TYPE", "-1..", "GUARD", "").Replace(tightLock), "in", 2, true},
		{"gate unbounded", strings.NewReplacer("CTYPE", "0..", "TYPE", "0..").Replace(tightTicket), "k", 3, true},
		{"gate widened", strings.NewReplacer("CTYPE", "0..", "TYPE", "0..9").Replace(tightTicket), "k", 3, true},
		{"growing", strings.NewReplacer("CTYPE", "0..", "TYPE", "0..").Replace(tightTicket), "c", 0, false},
		{"kept by another's domain", tightPaired, "x", 2, true},
		{"bounded by its type", strings.NewReplacer("CTYPE", "0..5", "TYPE", "0..").Replace(tightTicket), "c", 0, false},
	} {
		sys := load(t, c.name+".yaml", []byte(c.src))
		j := -1
		for k := range sys.Shared {
			if sys.Shared[k].Name == c.v {
				j = k
			}
		}
		hi, ok, err := prove.TightBound(ctx, sys, j, s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ok != c.ok || ok && hi != c.hi {
			t.Errorf("%s: %s bound %d (%v), want %d (%v)", c.name, c.v, hi, ok, c.hi, c.ok)
		}
	}
}

// TestTightDomains checks Check on the systems of TestTightBound with
// their variables typed wider than they get: every verdict is the one
// with the narrowing off and the one explicit exploration gives at 1 to
// 4 processes; a proof is a certificate of the model as written
// (checkAsWritten) and says which variables were read narrowed; a run
// is of the system as written, replayed there, not asked again.
func TestTightDomains(t *testing.T) {
	s := z3.New()
	ctx := context.Background()
	narrowed, explored := 0, 0
	for _, c := range []struct{ name, src, typed string }{
		{"lock unbounded", strings.NewReplacer("TYPE", "0..", "GUARD", "").Replace(tightLock), "in as 0..1"},
		{"lock widened", strings.NewReplacer("TYPE", "0..6", "GUARD", " & in <= 1").Replace(tightLock), "in as 0..1"},
		// c bounded, so that the exploration ends.
		{"gate unbounded", strings.NewReplacer("CTYPE", "0..5", "TYPE", "0..").Replace(tightTicket), "k as 0..3"},
		{"gate widened", strings.NewReplacer("CTYPE", "0..5", "TYPE", "0..9").Replace(tightTicket), "k as 0..3"},
	} {
		sys := load(t, c.name+".yaml", []byte(c.src))
		rep, err := prove.Check(ctx, sys, s, s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		restore := prove.SetTightening(false)
		off, err := prove.Check(ctx, sys, s, s)
		restore()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k, r := range rep.Results {
			name := sys.Properties[k].Name
			if r.Verdict != prove.Proved && r.Verdict != prove.Refuted {
				t.Errorf("%s: %s %v: %s", c.name, name, r.Verdict, r.Reason)
				continue
			}
			if w := off.Results[k].Verdict; (w == prove.Proved || w == prove.Refuted) && w != r.Verdict {
				t.Errorf("%s: %s %v, %v without the narrowing", c.name, name, r.Verdict, w)
			}
			if !strings.Contains(r.LevelReason, c.typed) {
				t.Errorf("%s: %s not asked with %s: %s", c.name, name, c.typed, r.LevelReason)
			} else {
				narrowed++
			}
			if prove.AskedAgain(r) {
				t.Errorf("%s: %s asked again as written", c.name, name)
			}
			switch r.Verdict {
			case prove.Proved:
				checkAsWritten(t, ctx, s, 0, sys, k, r)
			case prove.Refuted:
				if len(r.Instance.Shared) != len(sys.Shared) || r.Instance.Shared[0].Unbounded != sys.Shared[0].Unbounded || r.Instance.Shared[0].Hi != sys.Shared[0].Hi {
					t.Errorf("%s: %s refuted on an instance with other shared variables", c.name, name)
				}
			}
			for n := 1; n <= 4; n++ {
				holds, ok := exploreHolds(t, sys.WithProperties(k), testsupport.Instance{Sizes: []int{n}}, 0)
				if !ok {
					t.Fatalf("%s at %d processes: too many states to explore", c.name, n)
				}
				explored++
				if !holds && r.Verdict == prove.Proved {
					t.Errorf("%s: %s proved, fails at %d processes", c.name, name, n)
				}
				if holds && r.Verdict == prove.Refuted && fmt.Sprint(r.Sizes) == fmt.Sprint([]int{n}) {
					t.Errorf("%s: %s refuted at %d processes, where it holds", c.name, name, n)
				}
			}
		}
	}
	if narrowed < 10 || explored < 40 {
		t.Errorf("only %d answers read a narrowed variable, %d explored", narrowed, explored)
	}
}

// askedNothing is a solver a test expects never to be asked.
type askedNothing struct{ t *testing.T }

func (s askedNothing) Solve(context.Context, presburger.Problem) (presburger.Answer, error) {
	s.t.Helper()
	s.t.Error("tightBound asked the solver")
	return presburger.Answer{Result: presburger.Unknown, Reason: "not asked"}, nil
}

// TestTightBoundAsksNothing checks the variables tightBound refuses
// without a query: one written only by a step no run takes (out of a
// state no process enters; asked about, such steps with constants near
// 1e9 cost Z3 minutes), and one whose domain starts so low that lo..c
// would be no narrower than the domain it has.
func TestTightBoundAsksNothing(t *testing.T) {
	const src = `
name: tight-nothing
states: [A, B, C]
groups: {proc: 1..}
shared:
  x: {type: "0..", init: 0}
  y: {type: "-1000..", init: 0}
init: A
transitions:
  - {from: A, to: A, guard: "y <= 0", update: "y := 1 - y"}
  - {from: C, to: A, update: "x := 500000001*x + 3"}
properties:
  low: "AG x <= 1"
`
	sys := load(t, "tight-nothing.yaml", []byte(src))
	for j, want := range []string{"x", "y"} {
		if sys.Shared[j].Name != want {
			t.Fatalf("shared variable %d is %s, want %s", j, sys.Shared[j].Name, want)
		}
		if _, ok, err := prove.TightBound(context.Background(), sys, j, askedNothing{t}); err != nil || ok {
			t.Errorf("%s: bound found (%v, %v), want none", want, ok, err)
		}
	}
}
