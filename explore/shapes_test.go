package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// shapeSystem: a process goes N -> T -> C -> N, or from T to a dead end D
// where it stays; the other may idle between N and I forever. Guards keep
// the two apart: nobody enters C while someone is in D.
const shapeSystem = `name: shapes
states: [N, I, T, C, D]
groups: {p: 1, q: 1}
init: N
transitions:
  - {from: N, to: I, guard: {q: "true"}}
  - {from: I, to: N}
  - {from: N, to: T, guard: {p: "true"}}
  - {from: T, to: C, guard: "#D = 0"}
  - {from: C, to: N}
  - {from: T, to: D, guard: {p: "#I = 1"}}
  - {from: D, to: N, guard: {p: "#I = 0"}}
`

// kinds keeps the kinds of a segment shape.
func kinds(shape string) string {
	var out []string
	for _, part := range strings.Split(shape, " ; ") {
		out = append(out, strings.SplitN(part, ":", 2)[0])
	}
	return strings.Join(out, " ")
}

// deadSystem: a process may end in a dead end D from T.
const deadSystem = `name: dead
states: [N, T, C, D]
groups: {p: 2}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#C = 0"}
  - {from: C, to: N}
  - {from: T, to: D}
`

// segmentShape writes a trace's segments as "kind:formula" items.
func segmentShape(tr *explore.Trace) string {
	var parts []string
	for _, s := range tr.Segments {
		parts = append(parts, string(s.Kind)+":"+s.Formula)
	}
	return strings.Join(parts, " ; ")
}

// TestTraceShapes checks the NuSMV-style explanations of the usual
// liveness shapes, in both engines, on both models: each verdict comes
// with the segments listed, and every trace replays on the unreduced
// system with the oracle's checks.
func TestTraceShapes(t *testing.T) {
	cases := []struct {
		name, prop string
		src        string // the system; shapeSystem when empty
		holds      bool
		shape      string // segment kinds and formulas
		deadlock   bool   // the last segment ends in a deadlock's stutter
		branches   int
	}{
		// AG (p -> AF q) fails: a path to a p-state where AF q fails, then
		// a lasso avoiding q.
		{name: "ag-af", prop: "AG (#T = 1 -> AF #C = 1)", holds: false,
			shape: "path:AG ((#T = 1) -> AF (#C = 1)) ; lasso:AF (#C = 1)"},
		// The same into a deadlock, which stutters forever.
		{name: "ag-af-deadlock", src: deadSystem, prop: "AG (#T >= 1 -> AF #C >= 1)", holds: false, deadlock: true,
			shape: "path:AG ((#T >= 1) -> AF (#C >= 1)) ; lasso:AF (#C >= 1)"},
		{name: "ef-eg", prop: "EF EG #C = 0", holds: true,
			shape: "path:EF EG (#C = 0) ; lasso:EG (#C = 0)"},
		{name: "ef-then-eg", prop: "EF (#T = 1 & EG #C = 0)", holds: true,
			shape: "path:EF ((#T = 1) & EG (#C = 0)) ; lasso:EG (#C = 0)"},
		{name: "ex-ex", prop: "EX EX #C = 1", holds: true,
			shape: "step:EX EX (#C = 1) ; step:EX (#C = 1)"},
		{name: "not-ef", prop: "!EF #C = 1", holds: false,
			shape: "path:EF (#C = 1)"},
		{name: "au", prop: "A[#C = 0 U #T = 1]", holds: false,
			shape: "lasso:A[(#C = 0) U (#T = 1)]"},
		{name: "conjunction", prop: "EF #C = 1 & EF #I = 1", holds: true,
			shape: "path:EF (#C = 1)", branches: 1},
	}
	for _, c := range cases {
		src := c.src
		if src == "" {
			src = shapeSystem
		}
		sys, err := gsst.Parse("p.yaml", []byte(src+fmt.Sprintf("properties:\n  p: %q\n", c.prop)))
		if err != nil {
			t.Fatal(err)
		}
		o := testsupport.NewOracle(sys)
		for _, level := range []counterabs.Level{counterabs.GroupLevel, counterabs.TotalLevel} {
			m, err := counterabs.BuildGroup(sys)
			if level == counterabs.TotalLevel {
				var certified bool
				if m, certified = enginetest.BruteCertified(sys); !certified {
					continue
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, eng := range engines() {
				rep, err := eng.Check(context.Background(), m)
				if err != nil {
					t.Fatal(err)
				}
				p := rep.Properties[0]
				where := fmt.Sprintf("%s, %s, %s model", c.name, eng.Name(), level)
				if p.Holds != c.holds || p.Trace == nil {
					t.Errorf("%s: holds %v (want %v), trace %v", where, p.Holds, c.holds, p.Trace != nil)
					continue
				}
				// The formulas are printed with the model's counter names:
				// compare them at the total level, the kinds at both.
				got := segmentShape(p.Trace)
				if level == counterabs.GroupLevel {
					got, want := kinds(got), kinds(c.shape)
					if got != want {
						t.Errorf("%s: segment kinds %q, want %q", where, got, want)
					}
				} else if got != c.shape {
					t.Errorf("%s: segments %q, want %q", where, got, c.shape)
				}
				if tr := p.Trace; c.deadlock {
					steps := tr.Lifted.Steps
					if tr.Loop != len(tr.States)-1 || len(steps) == 0 || !steps[len(steps)-1].Stutter {
						t.Errorf("%s: want a path into a deadlock that stutters, got loop %d of %d states, lifted %v", where, tr.Loop, len(tr.States), steps)
					}
				}
				if len(p.Trace.Branches) != c.branches {
					t.Errorf("%s: %d branches, want %d", where, len(p.Trace.Branches), c.branches)
				}
				subs := testsupport.Subformulas(sys.Properties[0].Formula, m.Properties[0].Formula, m.FormatProperty)
				if err := o.CheckTrace(enginetest.Trace(p.Trace, enginetest.TotalKey), subs); err != nil {
					t.Errorf("%s: %v", where, err)
				}
			}
		}
	}
}
