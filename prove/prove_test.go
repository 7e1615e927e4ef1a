package prove_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
	"github.com/vsym/vsym/specs"
)

func load(t testing.TB, name string, src []byte) *gsst.System {
	t.Helper()
	sys, err := gsst.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// groupSafety returns the group-counter model of sys and the transition
// system of its first property, a safety property: its bad states
// violate it.
func groupSafety(t testing.TB, sys *gsst.System) (*counterabs.ParamModel, presburger.TransitionSystem) {
	t.Helper()
	m, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	phi, ok := counterabs.SafetyFormula(m.Properties[0].Formula)
	if !ok {
		t.Fatalf("%s: no safety property", sys.Name)
	}
	return m, safetyTS(m, phi)
}

// safetyTS is m's transition system with the states violating phi bad.
func safetyTS(m *counterabs.ParamModel, phi presburger.Formula) presburger.TransitionSystem {
	ps := m.TransitionSystem()
	return ps.Question(presburger.Negation(phi))
}

func bundled(t testing.TB, name string) *gsst.System {
	t.Helper()
	src, err := specs.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, name, src)
}

// TestKnownAnswers: the bundled parameterized specs, worked out by hand
// in their comments.
func TestKnownAnswers(t *testing.T) {
	grw, err := specs.GRWSized(3, "1..", 5)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sys  *gsst.System
		want map[string]prove.Verdict
		// sizes of the refutation, by property
		sizes map[string][]int
	}{
		{"readers-writers-param", bundled(t, "readers-writers-param"),
			map[string]prove.Verdict{"mutex": prove.Proved, "reachable": prove.Unknown, "can-progress": prove.Skipped}, nil},
		{"asr-param", bundled(t, "asr-param"),
			map[string]prove.Verdict{"mutex1": prove.Proved, "mutex2": prove.Proved, "mutex3": prove.Proved, "all_used": prove.Unknown}, nil},
		// printers: safe up to two processes, unsafe from three: the
		// least sizes in the order of the groups are staff=1, guest=2.
		{"printers", bundled(t, "printers"),
			map[string]prove.Verdict{"capacity": prove.Refuted, "can-print": prove.Unknown},
			map[string][]int{"capacity": {1, 2}}},
		{"grw", load(t, "grw.yaml", grw), map[string]prove.Verdict{"mutex": prove.Proved}, nil},
	}
	s := z3.New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := prove.Check(context.Background(), tc.sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				name := r.Property.Name
				if r.Verdict != tc.want[name] {
					t.Errorf("%s: %v (%s), want %v", name, r.Verdict, r.Reason, tc.want[name])
				}
				t.Logf("%s: %v on the %s-counter model, invariant %s, sizes %v (%s)", name, r.Verdict, r.Level, r.InvariantText, r.Sizes, r.Duration)
				if want, ok := tc.sizes[name]; ok && r.Verdict == prove.Refuted {
					if len(r.Sizes) != len(want) || r.Sizes[0] != want[0] || r.Sizes[1] != want[1] {
						t.Errorf("%s: refuted at %v, want %v", name, r.Sizes, want)
					}
					if r.Trace == nil || r.Trace.Lifted == nil || len(r.Trace.Lifted.Steps) != 6 {
						t.Errorf("%s: want a replayed trace of 6 moves, got %+v", name, r.Trace)
					}
				}
			}
		})
	}
}

// TestUnreadSharedVariable: a shared variable that nothing reads or
// writes, added to readers-writers, changes neither the model the
// safety property is proved on (the total-counter one, certified) nor
// the invariant printed.
func TestUnreadSharedVariable(t *testing.T) {
	src, err := specs.Read("readers-writers")
	if err != nil {
		t.Fatal(err)
	}
	withVar := strings.Replace(string(src), "\nstates:", "\nshared:\n  unused: {type: 0..3, init: 0}\nstates:", 1)
	if withVar == string(src) {
		t.Fatal("the spec has no states key")
	}
	s := z3.New()
	var reports []*prove.Report
	for _, text := range []string{string(src), withVar} {
		rep, err := prove.Check(context.Background(), load(t, "readers-writers.yaml", []byte(text)), s, s)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	if !reports[0].Cert.Certified() || !reports[1].Cert.Certified() {
		t.Errorf("certified %v without the variable, %v with it", reports[0].Cert.Certified(), reports[1].Cert.Certified())
	}
	for i, want := range reports[0].Results {
		got := reports[1].Results[i]
		if got.Verdict != want.Verdict || got.Level != want.Level || got.InvariantText != want.InvariantText || len(got.Lemmas) != len(want.Lemmas) {
			t.Errorf("%s: %v on the %s-counter model, invariant %q (%d lemmas), with an unread shared variable; without: %v, %s, %q (%d)",
				want.Property.Name, got.Verdict, got.Level, got.InvariantText, len(got.Lemmas), want.Verdict, want.Level, want.InvariantText, len(want.Lemmas))
		}
	}
}

// TestExhaustedWork: a property the prover cannot answer within MaxWork
// is unknown with Result.Exhausted naming the prover's work, however
// small the budget (Z3 may stop before its first query with a budget of
// 1), and not Stopped (no time bound ran out); with time as the bound
// instead, Stopped is set and Exhausted is not. The family below needs
// the prover (x stays even, which no cheap step sees, and it has an
// instance of every size, which no exploration finishes).
func TestExhaustedWork(t *testing.T) {
	sys := load(t, "even.yaml", []byte(`name: even
states: [A, B]
groups:
  p: "1.."
init:
  p: A
shared:
  x: {type: "0..", init: 0}
transitions:
  - {from: A, to: B, update: "x := x + 2"}
  - {from: B, to: A, update: "x := x + 2"}
properties:
  odd: "AG x != 151"
`))
	s := z3.New()
	for _, work := range []int64{1, 1000} {
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(work))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			if r.Verdict != prove.Unknown || r.Exhausted != prove.ProverWork || r.Stopped {
				t.Errorf("work %d: %s %v (%s), exhausted %q, stopped %v; want unknown for want of the prover's work",
					work, r.Property.Name, r.Verdict, r.Reason, r.Exhausted, r.Stopped)
			}
		}
	}
	rep, err := prove.Check(context.Background(), sys, s, s, prove.Timeout(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != prove.Unknown || r.Exhausted != "" || !r.Stopped {
			t.Errorf("timeout 1ns: %s %v (%s), exhausted %q, stopped %v; want unknown, stopped by the time",
				r.Property.Name, r.Verdict, r.Reason, r.Exhausted, r.Stopped)
		}
	}
}

// TestByOthers: the joint question fails (two properties are false),
// and asked again without those, it proves the others together. With
// one joint question only, each property is asked alone, and those the
// first's invariant implies ("at most k in the critical section" for k
// > 1) are proved by it, each with the same invariant: the conjunction
// of the invariants proved for properties on their own, none of those
// proved by the others (which once doubled the formula with each such
// property: a file of mist's bingham h150 with 152 properties took over
// a minute). With one joint question, whose run refutes late, the last
// property, false, is among those asked whether the invariant implies
// them, and is left out of their proof (byOthers' second query), then
// refuted on its own.
func TestByOthers(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: mutex\nstates: [N, T, C]\ngroups:\n  p: 1..\ninit: N\nshared:\n  lock: {type: bool, init: false}\n")
	b.WriteString("transitions:\n  - {from: N, to: T}\n  - {from: T, to: C, guard: \"!lock\", update: \"lock := true\"}\n  - {from: C, to: N, update: \"lock := false\"}\n")
	b.WriteString("properties:\n")
	for k := 1; k <= 8; k++ {
		fmt.Fprintf(&b, "  atmost%d: \"AG #C <= %d\"\n", k, k)
	}
	// The joint question's first run ends where #T = 1 and #C = 0.
	b.WriteString("  late: \"AG #T = 0\"\n  none: \"AG #C = 0\"\n")
	s := z3.New()
	sys := load(t, "mutex.yaml", []byte(b.String()))
	// Asked together again without none, which the joint question's
	// run refutes, the others are proved by one invariant.
	rep, err := prove.Check(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if want := prove.Proved; r.Property.Name == "none" || r.Property.Name == "late" {
			if r.Verdict != prove.Refuted {
				t.Errorf("%s: %v, want refuted", r.Property.Name, r.Verdict)
			}
		} else if r.Verdict != want || !strings.Contains(r.Reason, "together with 7 other") {
			t.Errorf("%s: %v (%s), want proved together with the 7 others", r.Property.Name, r.Verdict, r.Reason)
		}
	}
	restore := prove.OneJointQuestion()
	defer restore()
	rep, err = prove.Check(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	others := 0
	for _, r := range rep.Results {
		switch {
		case r.Property.Name == "none" || r.Property.Name == "late":
			if r.Verdict != prove.Refuted {
				t.Errorf("%s: %v, want refuted", r.Property.Name, r.Verdict)
			}
		case r.Verdict != prove.Proved:
			t.Errorf("%s: %v (%s), want proved", r.Property.Name, r.Verdict, r.Reason)
		case r.Method == prove.ByOthers && first == "":
			first = r.InvariantText
			others++
		case r.Method == prove.ByOthers:
			others++
			if r.InvariantText != first {
				t.Errorf("%s: proved by the others' invariant %q, where the first so proved has %q", r.Property.Name, r.InvariantText, first)
			}
		}
	}
	if others != 7 {
		t.Errorf("%d properties proved by the others' invariants, want the 7 after atmost1", others)
	}
}

// TestRefuteSpreadBeyondInitials: a run that starts in an instance with
// more initial configurations than gsst lists (400 processes spread over
// three states: 80,600) is replayed from its own start
// (gsst.InitialWith), where listing them made the refutation an
// internal error.
func TestRefuteSpreadBeyondInitials(t *testing.T) {
	sys := load(t, "spread400.yaml", []byte(`name: spread400
states: [A, B, C]
groups: {p: 1..}
init: [A, B, C]
transitions:
  - {from: B, to: A}
properties:
  few: "AG #A < 400"
`))
	rep, err := prove.Check(context.Background(), sys, z3.New(), z3.New())
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Verdict != prove.Refuted || fmt.Sprint(r.Sizes) != "[400]" || r.Trace == nil || r.Trace.Lifted == nil || r.Trace.Lifted.Error != "" {
		t.Fatalf("few: %v at %v (%s), want refuted at [400] with a replayed run", r.Verdict, r.Sizes, r.Reason)
	}
}
