package prove_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	explorepkg "github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestMergeGroupsRun checks that a run of the merged system is reported
// of the system as written only when it replays there: carried as
// found, it names a split instance whose sizes add up to the merged
// one's and ends where the property fails; tampered with (cut before
// the failing state, or a step given to a process that is not where
// the step starts), the replay rejects it and the
// property is asked again as written.
func TestMergeGroupsRun(t *testing.T) {
	const src = `name: splitrun
params: [n]
assume: "n >= 3"
states: [A, B, C]
groups: {p_a: "n - 1", p_b: "n - 2"}
init: A
transitions:
  - {name: go, from: A, to: B}
  - {name: on, from: B, to: C, guard: "#B[p_a] + #B[p_b] >= 2"}
properties:
  s: "AG #C[p_a] + #C[p_b] <= 1"
`
	sys, err := gsst.Parse("splitrun.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	tests := []struct {
		name   string
		tamper func(*prove.Result)
		want   bool
	}{
		{"as found", func(*prove.Result) {}, true},
		{"cut before the failing state", func(r *prove.Result) {
			tr := *r.Trace
			lifted := *tr.Lifted
			lifted.Steps = lifted.Steps[:len(lifted.Steps)-1]
			tr.Lifted, tr.States = &lifted, tr.States[:len(tr.States)-1]
			r.Trace = &tr
		}, false},
		{"last step by a process in C already", func(r *prove.Result) {
			tr := *r.Trace
			lifted := *tr.Lifted
			lifted.Steps = slices.Clone(lifted.Steps)
			last := &lifted.Steps[len(lifted.Steps)-1]
			// The process that took the step before is in C already.
			prev := lifted.Steps[len(lifted.Steps)-2]
			last.Group, last.Process = prev.Group, prev.Process
			tr.Lifted = &lifted
			r.Trace = &tr
		}, false},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r, ok, err := prove.CarryGroupRun(ctx, sys, s, s, 0, tc.tamper)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Fatalf("carried %v, want %v (run %v)", ok, tc.want, r.Trace)
			}
			if !ok {
				return
			}
			if n := r.Params[0]; r.Instance.Groups[0].Size != n-1 || r.Instance.Groups[1].Size != n-2 {
				t.Errorf("groups of %d and %d processes at n = %d", r.Instance.Groups[0].Size, r.Instance.Groups[1].Size, n)
			}
			// The run, independently: it is explore's own replay of the
			// trace on the instance of the system as written.
			last := r.Trace.States[len(r.Trace.States)-1]
			if c := last.Counters[2]; c <= 1 {
				t.Errorf("the run ends with #C = %d, where the property holds", c)
			}
			if r.Trace.Lifted == nil || r.Trace.Lifted.Error != "" || len(r.Trace.Lifted.Steps) != len(r.Trace.States)-1 {
				t.Errorf("the run does not lift on the system as written: %+v", r.Trace.Lifted)
			}
		})
	}
}

// TestMergeGroupsLasso checks that a fair lasso of the merged system is
// reported of the system as written only when it is one there: its
// loop returns to the configuration it left and meets the justice
// condition and the weak fairness of the system as written. Carried as
// found, it names groups p_a and p_b and stays away from C; tampered
// into a loop that never has both processes in B (justice) or one that
// leaves a process in B where end stays enabled and is never taken
// (weak fairness), each still a loop of the merged instance's counters,
// the replay rejects it and the property is asked again as written.
func TestMergeGroupsLasso(t *testing.T) {
	const src = `name: splitlasso
states: [A, B, C]
groups: {p_a: 1, p_b: 1}
init: A
transitions:
  - {name: go, from: A, to: B}
  - {name: back, from: B, to: A}
  - {name: end, from: B, to: C}
fairness:
  justice: ["#B = 2"]
  weak: [end]
properties:
  l: "AF #C >= 1"
`
	sys, err := gsst.Parse("splitlasso.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	// loop replaces the lasso of r by the steps moves (each the first
	// step of the lasso by that transition, given to process p of the
	// merged group) looping back to the configuration after loopAt of
	// them, with the merged instance's states along it.
	loop := func(t *testing.T, r *prove.Result, loopAt int, moves ...[2]int) {
		tr := *r.Trace
		lifted := *tr.Lifted
		inst := r.Instance
		counts := slices.Clone(tr.States[0].Groups[0])
		states := []explorepkg.State{explorepkg.SystemState(inst, slices.Clone(counts), [][]int{slices.Clone(counts)})}
		lifted.Steps = nil
		for _, mv := range moves {
			k := slices.IndexFunc(tr.Lifted.Steps, func(st explorepkg.Step) bool { return !st.Stutter && st.Transition == mv[0] })
			if k < 0 {
				t.Fatalf("the lasso has no step by transition %d: %v", mv[0], tr.Lifted.Steps)
			}
			st := tr.Lifted.Steps[k]
			st.Process = mv[1]
			lifted.Steps = append(lifted.Steps, st)
			counts[st.From]--
			counts[st.To]++
			states = append(states, explorepkg.SystemState(inst, slices.Clone(counts), [][]int{slices.Clone(counts)}))
		}
		lifted.Loop = loopAt
		tr.States, tr.Loop, tr.Lifted = states[:len(states)-1], loopAt, &lifted
		r.Trace = &tr
	}
	const goT, back = 0, 1
	tests := []struct {
		name   string
		tamper func(*testing.T, *prove.Result)
		want   bool
	}{
		{"as found", func(*testing.T, *prove.Result) {}, true},
		{"loop without justice", func(t *testing.T, r *prove.Result) {
			loop(t, r, 0, [2]int{goT, 0}, [2]int{back, 0})
		}, false},
		{"loop without weak fairness", func(t *testing.T, r *prove.Result) {
			loop(t, r, 2, [2]int{goT, 0}, [2]int{goT, 1}, [2]int{back, 0}, [2]int{goT, 0})
		}, false},
		{"both justice and weak fairness met", func(t *testing.T, r *prove.Result) {
			loop(t, r, 0, [2]int{goT, 0}, [2]int{goT, 1}, [2]int{back, 0}, [2]int{back, 1})
		}, true},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r, ok, err := prove.CarryGroupRun(ctx, sys, s, s, 0, func(r *prove.Result) { tc.tamper(t, r) })
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Fatalf("carried %v, want %v (run %v)", ok, tc.want, r.Trace)
			}
			if !ok {
				return
			}
			if r.Trace.Loop < 0 || r.Trace.Lifted == nil || r.Trace.Lifted.Loop < 0 {
				t.Fatalf("the run carried is no lasso: %+v", r.Trace)
			}
			for _, st := range r.Trace.Lifted.Steps {
				if !st.Stutter && st.GroupName != "p_a" && st.GroupName != "p_b" {
					t.Errorf("step %v names a group the system as written does not have", st)
				}
			}
			for _, st := range r.Trace.States {
				if st.Counters[2] != 0 {
					t.Errorf("the lasso reaches C, where the obligation is met: %v", r.Trace.States)
				}
			}
		})
	}
}
