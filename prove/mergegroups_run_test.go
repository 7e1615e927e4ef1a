package prove_test

import (
	"context"
	"slices"
	"strings"
	"testing"

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
