package gsst

import (
	"strings"
	"testing"

	"github.com/vsym/vsym/presburger"
)

const fairSpec = `
states: [N, T, C]
groups: {reader: 1, writer: 2, guest: 1}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard: {"writer, guest": "#C = 0", reader: "#C = 0 & #T[writer] = 0"}
  - from: C
    to: N
    guard: {writer: "true"}
fairness:
  justice:
    - "#T[writer] = 0 | #C[writer] >= 1"
  weak:
    - N -> T
    - T -> C [*]
    - C -> N [writer]
    - all
`

func TestFairnessParsed(t *testing.T) {
	sys, err := Parse("fair.yaml", []byte(fairSpec))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range sys.Fairness.Weak {
		w := &sys.Fairness.Weak[i]
		got = append(got, sys.WeakName(w))
		if w.Pos.Line == 0 {
			t.Errorf("%s: no position", sys.WeakName(w))
		}
	}
	// "all" adds the per-transition constraints not yet asked for, once.
	want := "N -> T; T -> C [reader]; T -> C [writer]; T -> C [guest]; C -> N [writer]; T -> C; C -> N"
	if strings.Join(got, "; ") != want {
		t.Errorf("weak fairness\n got %s\nwant %s", strings.Join(got, "; "), want)
	}
	if len(sys.Fairness.Justice) != 1 {
		t.Fatalf("justice: %v", sys.Fairness.Justice)
	}
	j := sys.Fairness.Justice[0]
	if j.Text != "#T[writer] = 0 | #C[writer] >= 1" || j.Pos.Line != 15 || j.Pos.Col != 7 {
		t.Errorf("justice text %q at %v", j.Text, j.Pos)
	}
	// The condition over group counters, evaluated on two configurations.
	for _, c := range []struct {
		y    [][]int
		want bool
	}{
		{[][]int{{1, 0, 0}, {0, 1, 1}, {1, 0, 0}}, true},
		{[][]int{{1, 0, 0}, {1, 1, 0}, {1, 0, 0}}, false},
	} {
		if got := presburger.Eval(j.Formula, sys.Valuation(c.y, nil)); got != c.want {
			t.Errorf("justice at %v = %v, want %v", c.y, got, c.want)
		}
	}
	if _, err := New(sys.Spec()); err != nil {
		t.Fatal(err)
	}
	// New catches what only a hand-built system can get wrong.
	bad := sys.Spec()
	bad.Fairness = Fairness{
		Justice: []Justice{{Text: "x"}},
		Weak:    []Weak{{Transition: 7}, {Transition: 1, Group: 9}, {Transition: 2, Group: 0}},
	}
	_, err = New(bad)
	for _, msg := range []string{"justice condition 1 has no formula", "transition 7", "group 9 out of range", "for group reader: the group cannot take this transition"} {
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("New: %v, want %q", err, msg)
		}
	}
}

// TestFairnessEmpty: an empty fairness key, or empty lists, constrain
// nothing.
func TestFairnessEmpty(t *testing.T) {
	for _, tail := range []string{"fairness:\n", "fairness: {}\n", "fairness:\n  justice:\n  weak: []\n"} {
		src := "states: [A, B]\ngroups: {g: 1}\ninit: A\ntransitions: [{from: A, to: B}]\n" + tail
		sys, err := Parse("e.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", tail, err)
		}
		if !sys.Fairness.Empty() {
			t.Errorf("%q: fairness %+v", tail, sys.Fairness)
		}
	}
}
