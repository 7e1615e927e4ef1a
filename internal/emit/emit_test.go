package emit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

func TestNamer(t *testing.T) {
	n := NewNamer(func(s string) bool { return s == "if" || s == "if_" }, func(s string) string {
		return strings.ReplaceAll(s, "-", "_")
	})
	tests := []struct{ in, want string }{
		{"x", "x"},
		{"x", "x_"},
		{"x", "x_2"},
		{"if", "if_2"}, // if and if_ reserved
		{"no-deadlock", "no_deadlock"},
		{"no_deadlock", "no_deadlock_"},
	}
	for _, tc := range tests {
		if got := n.Fresh(tc.in); got != tc.want {
			t.Errorf("Fresh(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestUncertifiedBanner(t *testing.T) {
	b := UncertifiedBanner("violated: T -> C", "--", 10)
	lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if lines[0] != "-- ##########" || lines[len(lines)-1] != lines[0] {
		t.Errorf("bars wrong:\n%s", b)
	}
	for _, want := range []string{"-- ## WARNING: UNCERTIFIED MODEL", "NOT exact", "-- ## Certification outcome: violated: T -> C"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(UncertifiedBanner("", " *", 4), "outcome") {
		t.Error("empty status printed")
	}
}

// TestCounterEffect: the terms CounterEffect reads off
// counterabs.StepInto give, at every state, the counters StepInto
// computes, for steps that move one process, several (the parts of a
// rendezvous, one leaving a transfer's source), and transfers whose
// target is another's source.
func TestCounterEffect(t *testing.T) {
	m := &counterabs.Model{Counters: make([]counterabs.Counter, 4)}
	trans := []counterabs.Transition{
		{From: 0, To: 1},
		{From: 0, To: 2, Also: []counterabs.Move{{From: 0, To: 3}, {From: 1, To: 2}}},
		{From: 1, To: 0, Transfers: []counterabs.Move{{From: 1, To: 2}, {From: 2, To: 3}}},
		{From: 3, To: 2, Also: []counterabs.Move{{From: 2, To: 1}}, Transfers: []counterabs.Move{{From: 2, To: 0}}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range trans {
		tr := &trans[i]
		after := CounterEffect(m, tr)
		for range 50 {
			x := make([]int, 4)
			for c := range x {
				x[c] = r.IntN(6)
			}
			want, err := m.Step(tr, x)
			if err != nil {
				t.Fatal(err)
			}
			for c := range x {
				if got := after[c].Eval(func(v presburger.Var) int64 { return int64(x[v]) }); got != int64(want[c]) {
					t.Fatalf("transition %d at %v: counter %d is %d by the terms %v, %d by StepInto", i, x, c, got, after[c], want[c])
				}
			}
		}
	}
}
