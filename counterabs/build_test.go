package counterabs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/presburger"
)

var bf = presburger.BruteForce{}

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
	if want := []int{3, 0, 0}; vecKey(m.Init) != vecKey(want) {
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
	b := newSys([]string{"U", "V"}, map[string]int{"p": 2}, "p")
	b.trans("U", "V", blockSpec{b.all(), cmp(b.total("V"), presburger.Eq, 0)})
	sys := b.sys
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
		build func() *sysBuilder
		force bool
		guard string
		c     Case
	}
	groups := map[string]int{"a": 2, "b": 1}
	tests := []tc{
		{"a: one block, all groups", func() *sysBuilder {
			b := newSys([]string{"U", "V"}, groups, "a", "b")
			return b.trans("U", "V", blockSpec{b.all(), cmp(b.total("V"), presburger.Le, 1)})
		}, false, "#U >= 1 & #V <= 1", CaseA},
		{"b: two blocks, total guards", func() *sysBuilder {
			b := newSys([]string{"U", "V", "W"}, groups, "a", "b")
			return b.trans("U", "V",
				blockSpec{[]string{"a"}, cmp(b.total("W"), presburger.Eq, 0)},
				blockSpec{[]string{"b"}, cmp(b.total("W"), presburger.Eq, 0)})
		}, false, "#U >= 1 & #W = 0", CaseB},
		{"b: excluded group, certified by sizes", func() *sysBuilder {
			// Only a may move, and only when #U >= 2: then at least one
			// process of a is in U (b has one process), so Dom is
			// closed under orbits.
			b := newSys([]string{"U", "V"}, groups, "a", "b")
			return b.trans("U", "V", blockSpec{[]string{"a"}, cmp(b.total("U"), presburger.Ge, 2)})
		}, false, "#U >= 2", CaseB},
		{"b: excluded group, forced", func() *sysBuilder {
			b := newSys([]string{"U", "V"}, groups, "a", "b")
			return b.trans("U", "V", blockSpec{[]string{"a"}, presburger.True})
		}, true, "#U >= 1", CaseB},
		{"b: empty block is dropped", func() *sysBuilder {
			b := newSys([]string{"U", "V", "W"}, map[string]int{"a": 2, "z": 0}, "a", "z")
			return b.trans("U", "V",
				blockSpec{[]string{"a"}, cmp(b.total("W"), presburger.Eq, 0)},
				blockSpec{[]string{"z"}, presburger.True})
		}, false, "#U >= 1 & #W = 0", CaseB},
		{"c: priority on the source state", func() *sysBuilder {
			b := newSys([]string{"U", "V"}, map[string]int{"hi": 2, "lo": 2}, "hi", "lo")
			return b.trans("U", "V",
				blockSpec{[]string{"hi"}, cmp(b.total("V"), presburger.Eq, 0)},
				blockSpec{[]string{"lo"}, presburger.Conj(cmp(b.total("V"), presburger.Eq, 0), cmp(b.grp("U", "hi"), presburger.Eq, 0))})
		}, false, "#U >= 1 & #V = 0", CaseC},
		{"c: summed bounds", func() *sysBuilder {
			// Each group may move when its own count in U is 2..: the
			// orbit of "a has >= 2 in U" is #U >= 2; b (size 1) never
			// reaches 2. Exact: #U >= 2 with |b| = 1 puts >= 1 of a
			// there, but not 2, so this is forced.
			b := newSys([]string{"U", "V"}, map[string]int{"a": 3, "b": 1}, "a", "b")
			return b.trans("U", "V",
				blockSpec{[]string{"a", "b"}, presburger.Conj(cmp(b.grp("U", "a"), presburger.Ge, 2), cmp(b.grp("U", "b"), presburger.Le, 0))})
		}, true, "#U >= 2 & #U <= 3", CaseC},
		{"projection: group counter on another state", func() *sysBuilder {
			b := newSys([]string{"U", "V", "W"}, map[string]int{"a": 1, "b": 1}, "a", "b")
			return b.trans("U", "V",
				blockSpec{[]string{"a"}, cmp(b.grp("W", "b"), presburger.Eq, 0)},
				blockSpec{[]string{"b"}, cmp(b.grp("W", "a"), presburger.Eq, 0)})
		}, false, "", CaseProjection},
	}
	t.Logf("%d hand systems: case and guard, g_r against brute force over L^n", len(tests))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := tt.build().sys
			var opts []Option
			if tt.force {
				opts = append(opts, Force())
			}
			m, err := Build(context.Background(), sys, bf, bruteProjector{}, opts...)
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
			c := explore(sys)
			for _, a := range c.vectors {
				if evalVec(tr.Guard, a) != c.some[0][vecKey(a)] {
					t.Errorf("g(%v) = %v, brute force says %v", a, !c.some[0][vecKey(a)], c.some[0][vecKey(a)])
				}
			}
			if m.Exact != c.certified(0) {
				t.Errorf("Certified = %v, brute force says %v", m.Exact, c.certified(0))
			}
		})
	}
}

// TestNotExact: without Force, Build refuses the modified R&W of
// section 4.3 (reader guard #C = 0 & #T = 2) with a verified witness.
func TestNotCertified(t *testing.T) {
	b := newSys([]string{"N", "T", "C"}, map[string]int{"r": 1, "w": 2}, "r", "w")
	b.trans("T", "C",
		blockSpec{[]string{"r"}, presburger.Conj(cmp(b.total("C"), presburger.Eq, 0), cmp(b.total("T"), presburger.Eq, 2))},
		blockSpec{[]string{"w"}, cmp(b.total("C"), presburger.Eq, 0)})
	sys := b.sys
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
	m, err := Build(context.Background(), sys, bf, nil, Force())
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

// TestMalformed: Build rejects malformed systems with an error, never a
// panic or a model.
func TestMalformed(t *testing.T) {
	mk := func(edit func(b *sysBuilder)) func() *sysBuilder {
		return func() *sysBuilder {
			b := newSys([]string{"U", "V"}, map[string]int{"a": 2}, "a")
			b.trans("U", "V", blockSpec{b.all(), presburger.True})
			edit(b)
			return b
		}
	}
	tests := []struct {
		name  string
		build func() *sysBuilder
	}{
		{"no states", mk(func(b *sysBuilder) { b.sys.States = nil; b.sys.Init[0] = nil; b.sys.Transitions = nil })},
		{"negative size", mk(func(b *sysBuilder) { b.sys.Groups[0].Size = -1 })},
		{"init size mismatch", mk(func(b *sysBuilder) { b.sys.Init[0][0] = 1 })},
		{"init groups mismatch", mk(func(b *sysBuilder) { b.sys.Init = nil })},
		{"state out of range", mk(func(b *sysBuilder) { b.sys.Transitions[0].To = 5 })},
		{"group out of range", mk(func(b *sysBuilder) { b.sys.Transitions[0].Blocks[0].Groups = []int{3} })},
		{"group in two blocks", mk(func(b *sysBuilder) {
			b.sys.Transitions[0].Blocks = append(b.sys.Transitions[0].Blocks, b.sys.Transitions[0].Blocks[0])
		})},
		{"nil guard", mk(func(b *sysBuilder) { b.sys.Transitions[0].Blocks[0].Guard = nil })},
		{"foreign variable", mk(func(b *sysBuilder) {
			b.sys.Transitions[0].Blocks[0].Guard = cmp(presburger.VarTerm(99), presburger.Eq, 0)
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Build(context.Background(), tt.build().sys, bf, bruteProjector{})
			if err == nil || m != nil {
				t.Fatalf("Build = %v, %v; want an error", m, err)
			}
		})
	}
	if _, err := Build(context.Background(), nil, bf, nil); err == nil {
		t.Error("nil system accepted")
	}
	if _, err := Build(context.Background(), readersWriters(), nil, nil); err == nil {
		t.Error("nil solver accepted")
	}
	// A guard outside the fragment needs a projector.
	b := newSys([]string{"U", "V"}, map[string]int{"a": 1, "b": 1}, "a", "b")
	b.trans("U", "V", blockSpec{[]string{"a"}, cmp(b.grp("V", "b"), presburger.Eq, 0)})
	if _, err := Build(context.Background(), b.sys, bf, nil, Force()); err == nil || !strings.Contains(err.Error(), "projector") {
		t.Errorf("err = %v, want a missing-projector error", err)
	}
}
