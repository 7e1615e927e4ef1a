package counterabs

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestPaperExample: section 5 derives g = #T >= 1 & #C = 0 for T -> C of
// the three-process readers-writers.
func TestPaperExample(t *testing.T) {
	sys := readersWriters()
	m, err := Build(context.Background(), sys, bf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Exact || m.N != 3 {
		t.Fatalf("Certified=%v N=%d, want true 3", m.Exact, m.N)
	}
	if want := []int{3, 0, 0}; !slices.Equal(m.Init, want) {
		t.Errorf("Init = %v, want %v", m.Init, want)
	}
	want := []struct {
		guard string
		c     Case
	}{
		{"#N >= 1", CaseA},
		{"#T >= 1 & #C = 0", CaseC},
		{"#C >= 1", CaseA},
	}
	for i, tr := range m.Transitions {
		got := presburger.Format(tr.Guard, sys.VarName)
		if got != want[i].guard || tr.Case != want[i].c {
			t.Errorf("%s: g = %q case %v, want %q case %v", sys.TransitionName(&sys.Transitions[tr.Local]), got, tr.Case, want[i].guard, want[i].c)
		}
	}
	// Every counter vector summing to 3 enables some transition.
	if got := presburger.Format(m.Deadlock(), sys.VarName); got != "false" {
		t.Errorf("Deadlock = %q, want false", got)
	}
}

// TestDeadlock checks the deadlock condition, simplified with the solver
// (from Build) and syntactically (a model assembled by hand).
func TestDeadlock(t *testing.T) {
	sys := spec("states: [U, V]\ngroups: {p: 2}\ninit: U\ntransitions:\n  - {from: U, to: V, guard: \"#V = 0\"}\n")
	m, err := Build(context.Background(), sys, bf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := presburger.Format(m.Deadlock(), sys.VarName); got != "#V >= 1" {
		t.Errorf("Deadlock = %q, want #V >= 1", got)
	}
	hand := &Model{System: sys, N: m.N, Counters: m.Counters, Pools: m.Pools, Init: m.Init, Transitions: m.Transitions, Exact: true}
	if got := presburger.Format(hand.Deadlock(), sys.VarName); got != "#U = 0 | #V >= 1" {
		t.Errorf("syntactic Deadlock = %q, want #U = 0 | #V >= 1", got)
	}
	// A copy with other transitions does not reuse the cached form.
	cp := *m
	cp.Transitions = nil
	if got := presburger.Format(cp.Deadlock(), sys.VarName); got != "true" {
		t.Errorf("Deadlock of a copy without transitions = %q, want true", got)
	}
	hand = &Model{System: readersWriters(), N: 3, Transitions: nil}
	if got := presburger.Format(hand.Deadlock(), sys.VarName); got != "true" {
		t.Errorf("Deadlock without transitions = %q, want true", got)
	}
}

// TestCases checks which construction is chosen on handmade systems and
// that the guard is the one the section describes.
func TestCases(t *testing.T) {
	type tc struct {
		name  string
		sys   func() *gsst.System
		force bool
		guard string
		c     Case
	}
	// Groups a (2 processes) and b (1), states U, V, W.
	ab := func(trans string) func() *gsst.System {
		return func() *gsst.System {
			return spec("states: [U, V, W]\ngroups: {a: 2, b: 1}\ninit: U\ntransitions:\n  - " + trans + "\n")
		}
	}
	tests := []tc{
		{"a: one block, all groups", ab(`{from: U, to: V, guard: "#V <= 1"}`), false, "#U >= 1 & #V <= 1", CaseA},
		{"b: two blocks, total guards", ab(`{from: U, to: V, guard: {a: "#W = 0", b: "#W <= 0"}}`), false, "#U >= 1 & #W = 0", CaseB},
		{"a: two blocks with one guard, merged", ab(`{from: U, to: V, guard: {a: "#W = 0", b: "#W = 0"}}`), false, "#U >= 1 & #W = 0", CaseA},
		// Only a may move, and only when #U >= 2: then at least one
		// process of a is in U (b has one process), so Dom is closed
		// under orbits.
		{"b: excluded group, certified by sizes", ab(`{from: U, to: V, guard: {a: "#U >= 2"}}`), false, "#U >= 2", CaseB},
		{"b: excluded group, forced", ab(`{from: U, to: V, guard: {a: "true"}}`), true, "#U >= 1", CaseB},
		{"b: empty block is dropped", func() *gsst.System {
			// The YAML syntax wants groups of at least one process; the
			// rules of gsst.New allow empty ones, so b is emptied by hand.
			spec := ab(`{from: U, to: V, guard: {a: "#W = 0", b: "true"}}`)().Spec()
			spec.Groups[1].Size, spec.Init[1] = 0, []int{0, 0, 0}
			sys, err := gsst.New(spec)
			if err != nil {
				panic(err)
			}
			return sys
		}, false, "#U >= 1 & #W = 0", CaseB},
		{"c: priority on the source state", func() *gsst.System {
			return spec(`states: [U, V]
groups: {hi: 2, lo: 2}
init: U
transitions:
  - {from: U, to: V, guard: {hi: "#V = 0", lo: "#V = 0 & #U[hi] = 0"}}
`)
		}, false, "#U >= 1 & #V = 0", CaseC},
		// Each group may move when its own count in U is 2..: the orbit
		// of "a has >= 2 in U" is #U >= 2; b (size 1) never reaches 2.
		// Exact: #U >= 2 with |b| = 1 puts >= 1 of a there, but not 2,
		// so this is forced.
		{"c: summed bounds", func() *gsst.System {
			return spec(`states: [U, V]
groups: {a: 3, b: 1}
init: U
transitions:
  - {from: U, to: V, guard: "#U[a] >= 2 & #U[b] <= 0"}
`)
		}, true, "#U >= 2 & #U <= 3", CaseC},
		{"projection: group counter on another state", func() *gsst.System {
			return spec(`states: [U, V, W]
groups: {a: 1, b: 1}
init: U
transitions:
  - {from: U, to: V, guard: {a: "#W[b] = 0", b: "#W[a] = 0"}}
`)
		}, false, "", CaseProjection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := tt.sys()
			var opts []Option
			if tt.force {
				opts = append(opts, Force())
			}
			m, err := Build(context.Background(), sys, bf, proj, opts...)
			if err != nil {
				t.Fatal(err)
			}
			tr := m.Transitions[0]
			got := presburger.Format(tr.Guard, sys.VarName)
			if tr.Case != tt.c || (tt.guard != "" && got != tt.guard) {
				t.Errorf("g = %q case %v, want %q case %v", got, tr.Case, tt.guard, tt.c)
			}
			// Whatever the construction, g_r is the existential
			// abstraction, by brute force over L^n.
			brute := testsupport.BruteForce(sys)
			if err := checkGuards(m, brute); err != nil {
				t.Error(err)
			}
			if m.Exact != brute.Closed(0) {
				t.Errorf("Certified = %v, brute force says %v", m.Exact, brute.Closed(0))
			}
		})
	}
}

// TestNotExact: without Force, Build refuses the modified R&W of
// section 4.3 (reader guard #C = 0 & #T = 2) with a verified witness.
func TestNotCertified(t *testing.T) {
	sys := spec(`states: [N, T, C]
groups: {r: 1, w: 2}
init: N
transitions:
  - {from: T, to: C, guard: {r: "#C = 0 & #T = 2", w: "#C = 0"}}
`)
	_, err := Build(context.Background(), sys, bf, nil)
	var nc *NotCertifiedError
	if !errors.As(err, &nc) {
		t.Fatalf("err = %v, want *NotCertifiedError", err)
	}
	if nc.Name != "T -> C" {
		t.Errorf("names %q", nc.Name)
	}
	if err := detect.VerifyWitness(sys, &sys.Transitions[0], nc.Witness); err != nil {
		t.Errorf("witness: %v", err)
	}
	m, err := Build(context.Background(), sys, bf, proj, Force())
	if err != nil {
		t.Fatal(err)
	}
	if m.Exact {
		t.Error("forced model of an uncertified system says Certified")
	}
	if got := presburger.Format(m.Transitions[0].Guard, sys.VarName); got != "#T >= 1 & #C = 0" {
		t.Errorf("forced g = %q", got)
	}
}

// TestMalformed: Build refuses a missing solver, and a guard outside
// the fragment without a projector, with an error, never a panic or a
// model. (A malformed system cannot reach it: gsst.New refuses it.)
func TestMalformed(t *testing.T) {
	if _, err := Build(context.Background(), readersWriters(), nil, nil); err == nil {
		t.Error("nil solver accepted")
	}
	// A guard outside the fragment needs a projector.
	outside := spec("states: [U, V]\ngroups: {a: 1, b: 1}\ninit: U\ntransitions:\n  - {from: U, to: V, guard: {a: \"#V[b] = 0\"}}\n")
	if _, err := Build(context.Background(), outside, bf, nil, Force()); err == nil || !strings.Contains(err.Error(), "projector") {
		t.Errorf("err = %v, want a missing-projector error", err)
	}
}
