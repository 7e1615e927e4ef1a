package gsst_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestJoinCases checks which transitions JoinCases joins and which case
// splits it drops, on one transition written in cases; transitions of
// one effect whose guards are no split of one guard stay apart.
func TestJoinCases(t *testing.T) {
	head := "states: [A, B, C]\ngroups: {p: 1.., q: 1}\ninit: {p: A, q: B}\nshared:\n  x: {type: 0.., init: 0}\n"
	tests := []struct {
		name, trans string
		// want lists the joined system's transitions, name and guard
		// text each ("" unguarded); nil: nothing joined or dropped.
		want []string
	}{
		{"halves on the source", `
- {name: many, from: A, to: B, guard: "#A >= 2"}
- {name: one, from: A, to: B, guard: "#A <= 1"}`, []string{"many_or_one: "}},
		{"halves on a natural", `
- {name: on, from: A, to: B, guard: "#C = 0 & x >= 1", update: "x := x + 1"}
- {name: off, from: A, to: B, guard: "x = 0 & #C = 0", update: "x := x + 1"}`, []string{"on_or_off: #C = 0"}},
		{"three cases", `
- {name: a, from: A, to: B, guard: "#B = 0"}
- {name: b, from: A, to: B, guard: "#B = 1"}
- {name: c, from: A, to: B, guard: "#B >= 2"}`, []string{"a_or_b_or_c: "}},
		{"the mover is in its source", `
- {name: a, from: A, to: B, guard: "#A >= 1 | #B >= 1"}`, []string{"a: "}},
		{"cases of an interval", `
- {name: one, from: A, to: B, guard: "x = 1", update: "x := x + 1"}
- {name: more, from: A, to: B, guard: "x > 1", update: "x := x + 1"}`, []string{"one_or_more: x >= 1"}},
		{"an atom spelled apart", `
- {name: one, from: A, to: B, guard: "x = 1 & #C > 0"}
- {name: more, from: A, to: B, guard: "1 <= #C & x > 1"}`, []string{"one_or_more: #C > 0 & x >= 1"}},
		{"an interval with a gap stays", `
- {name: a, from: A, to: B, guard: "x = 0"}
- {name: b, from: A, to: B, guard: "x >= 2"}`, nil},
		{"a gap stays", `
- {name: a, from: A, to: B, guard: "#B >= 2"}
- {name: b, from: A, to: B, guard: "#B = 0"}`, nil},
		{"unrelated guards stay apart", `
- {name: a, from: A, to: B, guard: "x = 2"}
- {name: b, from: A, to: B, guard: "x = 1 & #C = 0"}`, nil},
		{"a pair of three", `
- {name: a, from: A, to: B, guard: "#C = 0 & x >= 1"}
- {name: b, from: A, to: B, guard: "#B = 0"}
- {name: c, from: A, to: B, guard: "x = 0 & #C = 0"}`, []string{"a_or_c: #C = 0", "b: #B = 0"}},
		{"the same guard twice", `
- {name: a, from: A, to: B, guard: "#C = 0"}
- {name: b, from: A, to: B, guard: "#C = 0"}`, []string{"a_or_b: #C = 0"}},
		{"a guard written by cases", `
- {name: a, from: A, to: B, guard: "(#C = 0) & #B >= 2 | (#C = 0) & #B <= 1"}
- {name: b, from: B, to: C}`, []string{"a: #C = 0", "b: "}},
		{"a case split inside a conjunction", `
- {name: a, from: A, to: B, guard: "#C = 0 & (x >= 3 | x <= 2)"}`, []string{"a: #C = 0"}},
		{"comparisons that always hold", `
- {name: a, from: A, to: B, guard: {p: "true", q: "n >= 1 & #A >= 1"}}
- {name: b, from: B, to: C, guard: "#C = 0 & x >= 0"}`, []string{"a: ", "b: #C = 0"}},
		{"a step never taken", `
- {name: a, from: A, to: B, guard: "#A = 0 | x < 0"}
- {name: b, from: B, to: C, guard: {p: "#B[p] = 0", q: "#C = 0"}}`, []string{"b: #C = 0"}},
		{"updates differ", `
- {name: a, from: A, to: B, guard: "#A >= 2", update: "x := 1"}
- {name: b, from: A, to: B, guard: "#A <= 1"}`, nil},
		{"targets differ", `
- {name: a, from: A, to: B, guard: "#A >= 2"}
- {name: b, from: A, to: C, guard: "#A <= 1"}`, nil},
		{"groups differ", `
- {name: a, from: A, to: B, guard: {p: "#A >= 2"}}
- {name: b, from: A, to: B, guard: "#A <= 1"}`, nil},
		{"no split", `
- {name: a, from: A, to: B, guard: "#B >= 2 | #C = 0"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := gsst.Parse("cases.yaml", []byte(head+"transitions:"+tc.trans+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			joined, ok, err := sys.JoinCases()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				if tc.want != nil {
					t.Fatalf("nothing joined, want %q", tc.want)
				}
				return
			}
			var got []string
			for _, tr := range joined.Transitions {
				text := tr.Name + ": " + tr.Blocks[0].Text
				if len(tr.Blocks) > 1 {
					text += fmt.Sprintf(" (%d blocks)", len(tr.Blocks))
				}
				got = append(got, text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("joined %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJoinCasesWeak checks that a system with weak fairness, whose
// constraints name transitions, is left as written.
func TestJoinCasesWeak(t *testing.T) {
	src := `states: [A, B]
groups: {p: 2}
init: A
transitions:
- {name: many, from: A, to: B, guard: "#A >= 2"}
- {name: one, from: A, to: B, guard: "#A <= 1"}
fairness:
  weak: [many]
`
	sys, err := gsst.Parse("weak.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := sys.JoinCases(); ok || err != nil {
		t.Fatalf("joined under weak fairness (%v)", err)
	}
}

// TestJoinCasesSameSteps checks JoinCases' claim by brute force on
// random systems written in cases (testsupport.RandomSplit) at fixed
// sizes: from every configuration the system as written reaches, the
// joined system's steps lead to the same configurations. A split
// dropped where its cases miss a value (a gap read as complementary),
// or the mover's source read as nonempty for a guard's other
// counters, makes some configuration differ. It counts the systems
// joined (rendezvous and environment steps too) and the transitions
// whose split was dropped, which a JoinCases that never joins would
// leave at 0.
func TestJoinCasesSameSteps(t *testing.T) {
	systems := 200
	if testing.Short() {
		systems = 60
	}
	r := rand.New(rand.NewSource(2801))
	sizes := []string{"{p: 1, q: 1}", "{p: 2, q: 1}", "{p: 3, q: 1}", "{p: 2, q: 2}"}
	joinedCount, dropped, rendezvous, environment := 0, 0, 0, 0
	for i := range systems {
		src := testsupport.RandomSplit(r, sizes[r.Intn(len(sizes))], r.Intn(2) == 0)
		sys, joined := parseJoined(t, i, src)
		if joined == nil {
			continue
		}
		joinedCount++
		if len(joined.Rendezvous) < len(sys.Rendezvous) {
			rendezvous++
		}
		if len(joined.Environment) < len(sys.Environment) {
			environment++
		}
		for _, tr := range joined.Transitions {
			for _, b := range tr.Blocks {
				if strings.Contains(tr.Name, "_or_") && !strings.Contains(b.Text, "|") {
					dropped++
				}
			}
		}
		checkSameSteps(t, i, src, sys, joined)
	}
	t.Logf("%d systems: %d joined (%d rendezvous, %d environment steps), %d splits of transitions dropped", systems, joinedCount, rendezvous, environment, dropped)
	if joinedCount < systems/2 || dropped < systems/2 || rendezvous < systems/4 || environment < systems/4 {
		t.Errorf("the sample exercises too little")
	}
}

// TestJoinCasesSameStepsFamily is TestJoinCasesSameSteps for families:
// the random systems with a group of k processes, k a parameter of
// 1..3, whose questions JoinCases asks with k and the sizes bounded by
// the instance condition alone. At each instance, the joined family's
// instance steps from every configuration reached to the
// configurations the written one's steps to.
func TestJoinCasesSameStepsFamily(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 40
	}
	r := rand.New(rand.NewSource(3202))
	joinedCount := 0
	for i := range systems {
		src := "params: [k]\nassume: \"k >= 1 & k <= 3\"\n" + testsupport.RandomSplit(r, "{p: k, q: 1}", r.Intn(2) == 0)
		sys, joined := parseJoined(t, i, src)
		if joined == nil {
			continue
		}
		joinedCount++
		for k := 1; k <= 3; k++ {
			written, err := sys.InstantiateParams([]int{k}, nil)
			if err != nil {
				t.Fatalf("system %d at k = %d: %v\n%s", i, k, err, src)
			}
			read, err := joined.InstantiateParams([]int{k}, nil)
			if err != nil {
				t.Fatalf("system %d at k = %d, joined: %v\n%s", i, k, err, src)
			}
			checkSameSteps(t, i, src, written, read)
		}
	}
	t.Logf("%d families: %d joined", systems, joinedCount)
	if joinedCount < systems/2 {
		t.Errorf("the sample exercises too little")
	}
}

// parseJoined parses system i, written src, and returns it with its
// case splits joined (JoinCases), nil when nothing is joined.
func parseJoined(t *testing.T, i int, src string) (sys, joined *gsst.System) {
	t.Helper()
	sys, err := gsst.Parse(fmt.Sprintf("split%d.yaml", i), []byte(src))
	if err != nil {
		t.Fatalf("system %d: %v\n%s", i, err, src)
	}
	joined, _, err = sys.JoinCases()
	if err != nil {
		t.Fatalf("system %d: %v\n%s", i, err, src)
	}
	return sys, joined
}

// checkSameSteps fails t unless read, a system of sys's states, groups
// and variables, steps from every configuration sys reaches to the
// configurations sys steps to (system i, written src).
func checkSameSteps(t *testing.T, i int, src string, sys, read *gsst.System) {
	t.Helper()
	sp := testsupport.Procs(sys, 0)
	for _, st := range sp.States {
		next := func(s *gsst.System) []string {
			var out []string
			for _, step := range testsupport.ProcSteps(s, sp.Owner, st) {
				out = append(out, step.Next.Key())
			}
			slices.Sort(out)
			return slices.Compact(out)
		}
		if written, got := next(sys), next(read); !slices.Equal(written, got) {
			t.Fatalf("system %d: from %v the system as written steps to %v, read to %v\n%s\nread:\n%s", i, st.Key(), written, got, src, testsupport.Describe(read))
		}
	}
}

// TestJoinCasesRendezvous checks that a rendezvous and an environment
// step written as halves are joined, the rendezvous's split on the
// count of its parts' source dropped (two parts stand in A).
func TestJoinCasesRendezvous(t *testing.T) {
	src := `states: [A, B]
groups: {p: 1..}
init: A
shared:
  x: {type: 0.., init: 0}
transitions:
- {from: B, to: A}
rendezvous:
- {name: many, parts: [{from: A, to: B}, {from: A, to: B}], guard: "#A >= 3"}
- {name: two, parts: [{from: A, to: B}, {from: A, to: B}], guard: "#A = 2"}
environment:
- {name: up, guard: "x = 0 & #B >= 1", update: "x := 1"}
- {name: up2, guard: "#B >= 1 & x >= 1", update: "x := 1"}
`
	sys, err := gsst.Parse("rdv.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	joined, ok, err := sys.JoinCases()
	if err != nil || !ok {
		t.Fatalf("nothing joined (%v)", err)
	}
	if len(joined.Rendezvous) != 1 || joined.Rendezvous[0].Name != "many_or_two" || joined.Rendezvous[0].Text != "" {
		t.Errorf("rendezvous joined as %+v, want one, many_or_two, unguarded", joined.Rendezvous)
	}
	if len(joined.Environment) != 1 || joined.Environment[0].Name != "up_or_up2" || joined.Environment[0].Text != "#B >= 1" {
		t.Errorf("environment joined as %+v, want one, up_or_up2, guarded by #B >= 1", joined.Environment)
	}
}

// TestJoinGroups: a transition written once per group, with the same
// guard and effect, is one transition of all those groups; copies
// whose guards or groups differ stay apart.
func TestJoinGroups(t *testing.T) {
	src := `states: [A, B, C]
groups: {p: 1.., q: 1, r: 1}
init: {p: A, q: A, r: C}
transitions:
- {name: go_p, from: A, to: B, guard: {p: "#B <= n - 1"}}
- {name: go_q, from: A, to: B, guard: {q: "#B <= n - 1"}}
- {name: back_p, from: B, to: A, guard: {p: "#C = 0"}}
- {name: back_q, from: B, to: A, guard: {q: "#C >= 1"}}
- {name: c_p, from: C, to: A, guard: {"p, r": "#A >= 1"}}
- {name: c_r, from: C, to: A, guard: {r: "#A >= 1"}}
properties: {safe: "AG #B <= 5"}
`
	sys, err := gsst.Parse("groups.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	joined, ok, err := sys.JoinCases()
	if err != nil || !ok {
		t.Fatalf("JoinCases: %v, %v", ok, err)
	}
	var names []string
	for _, tr := range joined.Transitions {
		names = append(names, fmt.Sprintf("%s %d %d", tr.Name, len(tr.Blocks), len(tr.Blocks[0].Groups)))
	}
	if want := []string{"go_p_or_go_q 1 2", "back_p 1 1", "back_q 1 1", "c_p 1 2", "c_r 1 1"}; !slices.Equal(names, want) {
		t.Errorf("transitions %v, want %v", names, want)
	}
}

// TestPerGroupSameSteps checks by brute force, on random systems with
// rules written once per group (testsupport.RandomPerGroup), that
// JoinCases and then FreeGroups leave the steps the system as written
// takes from every configuration it reaches: the same successors.
func TestPerGroupSameSteps(t *testing.T) {
	r := rand.New(rand.NewSource(2904))
	joined, freed := 0, 0
	for i := range 300 {
		src := testsupport.RandomPerGroup(r)
		sys, err := gsst.Parse(fmt.Sprintf("pergroup%d.yaml", i), []byte(src))
		if err != nil {
			if strings.Contains(err.Error(), "given twice") || strings.Contains(err.Error(), "moves no process") {
				continue
			}
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		read := sys
		if j, ok, err := read.JoinCases(); err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		} else if ok {
			read, joined = j, joined+1
		}
		if f, ok, err := read.FreeGroups(); err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		} else if ok {
			read, freed = f, freed+1
		}
		if read == sys {
			continue
		}
		checkSameSteps(t, i, src, sys, read)
	}
	t.Logf("300 systems: %d joined, %d freed", joined, freed)
	if joined < 50 || freed < 50 {
		t.Errorf("the sample exercises too little")
	}
}

// TestJoinIntervalsSameSteps checks JoinCases on random systems whose
// transitions are written in cases that cover an interval of a counter
// or shared variable, each case spelled at random ("x = 1" and "x > 1",
// "1 <= x", "#B >= 2" ...), with a conjunct the cases share spelled
// apart ("#C > 0", "1 <= #C"): by brute force, every configuration
// reached has the same successors in the system as written and in the
// joined one (checkSameSteps), and most systems join.
func TestJoinIntervalsSameSteps(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 40
	}
	r := rand.New(rand.NewSource(3401))
	spell := func(v, op string, k int) string {
		flip := map[string]string{"=": "=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}
		if r.Intn(2) == 0 {
			return fmt.Sprintf("%d %s %s", k, flip[op], v)
		}
		return fmt.Sprintf("%s %s %d", v, op, k)
	}
	joinedCount := 0
	for i := range systems {
		var b strings.Builder
		b.WriteString("states: [A, B, C]\ngroups: {p: 2, q: 1}\ninit: {p: A, q: B}\nshared:\n  x: {type: 0..3, init: 0}\ntransitions:\n")
		b.WriteString("  - {name: up, from: A, to: C, guard: \"x <= 2\", update: \"x := x + 1\"}\n")
		b.WriteString("  - {name: back, from: C, to: A}\n")
		for k := range 2 + r.Intn(2) {
			v := []string{"x", "#B", "#A"}[r.Intn(3)]
			lo := r.Intn(2)
			// Cases of v >= lo, or of lo <= v <= lo + 1, or with a gap.
			var cases []string
			switch r.Intn(4) {
			case 0:
				cases = []string{spell(v, "=", lo), spell(v, ">", lo)}
			case 1:
				cases = []string{spell(v, "=", lo), spell(v, "=", lo+1), spell(v, ">=", lo+2)}
			case 2:
				cases = []string{spell(v, "<", lo+1), spell(v, "=", lo+1)}
			default:
				cases = []string{spell(v, "=", lo), spell(v, ">=", lo+2)} // a gap: stays apart
			}
			shared := []string{"", "#C > 0", "1 <= #C", "#C >= 1"}
			from, to := []string{"A", "B"}[r.Intn(2)], "C"
			for c, g := range cases {
				if s := shared[r.Intn(len(shared))]; s != "" && r.Intn(2) == 0 {
					g = s + " & " + g
				}
				fmt.Fprintf(&b, "  - {name: t%d_%d, from: %s, to: %s, guard: %q}\n", k, c, from, to, g)
			}
		}
		src := b.String()
		sys, joined := parseJoined(t, i, src)
		if joined == nil {
			continue
		}
		joinedCount++
		checkSameSteps(t, i, src, sys, joined)
	}
	t.Logf("%d of %d systems joined", joinedCount, systems)
	if joinedCount < systems/2 {
		t.Errorf("only %d of %d systems joined", joinedCount, systems)
	}
}
