package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestMergeGroupsRandom cross-checks prove.Check on random systems with
// one group written as two groups p_a and p_b (mergegroups.go, gsst's
// MergeGroups) against explicit exploration (explore's engine on the group-counter model of
// each instance, with its fairness) at every size
// combination of both groups up to 2: a property proved, safety or
// liveness, must hold at each, one refuted must fail at the instance
// Check names (for a refutation carried back through the merge, the
// split instance its run was replayed on). Some systems break one condition of the merge (a step
// that p_a takes under another guard than p_b, a guard or a property
// reading #B[p_a] alone, weak fairness of a step per group on p_a),
// where nothing may be answered through it; those conditions matter
// there, so a merge that ignores one proves what fails.
func TestMergeGroupsRandom(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 30
	}
	s := z3.New()
	ctx := context.Background()
	r := rand.New(rand.NewSource(24))
	counts := map[string]int{}
	for i := range systems {
		breaks := 0
		if r.Intn(3) == 0 {
			breaks = 1 + r.Intn(4)
		}
		src := groupSplitSystem(r, breaks)
		sys, err := gsst.Parse(fmt.Sprintf("split%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		explored := map[string]map[string]bool{}
		for _, sizes := range testsupport.Box(sys, 2) {
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("system %d at %v: %v", i, sizes, err)
			}
			explored[fmt.Sprint(sizes)] = explorePhase(t, inst)
		}
		for _, res := range rep.Results {
			p := res.Property
			merged := strings.Contains(res.LevelReason, "read as one group")
			lasso := res.Trace != nil && res.Trace.Loop >= 0
			counts[fmt.Sprintf("breaks=%v %v merged=%v live=%v lasso=%v", breaks > 0, res.Verdict, merged, res.Live != nil, lasso)]++
			switch {
			case merged && breaks > 0:
				t.Errorf("system %d: %s answered through a merge that breaks condition %d\n%s", i, p.Name, breaks, src)
			case breaks == 0 && res.Verdict == prove.Proved && !merged:
				// Every proof of the merged system is a certificate of
				// the system as written.
				t.Errorf("system %d: %s proved, not through the merge (%s)\n%s", i, p.Name, res.LevelReason, src)
			case lasso && merged && (len(res.Trace.States) != len(res.Trace.Lifted.Steps) || res.Trace.Loop != res.Trace.Lifted.Loop):
				// The trace shown is the run of the system as written:
				// a state per lifted step, the loop where theirs closes.
				t.Errorf("system %d: %s refuted through the merge, its trace (%d states, loop %d) not the lifted run's (%d steps, loop %d)\n%s", i, p.Name, len(res.Trace.States), res.Trace.Loop, len(res.Trace.Lifted.Steps), res.Trace.Lifted.Loop, src)
			case breaks == 0 && lasso && !merged && prove.IsLiveness(p.Formula):
				// The merged system's fair lasso, its processes renamed,
				// is one of the system as written (carryRun).
				t.Errorf("system %d: %s refuted, its fair lasso not carried through the merge (%s)\n%s", i, p.Name, res.LevelReason, src)
			case res.Verdict == prove.Refuted && merged:
				// A run carried back names the split instance it fails
				// at: exploration must find the property failing there.
				holds, ok := explored[fmt.Sprint(res.Sizes)]
				if !ok || holds == nil || holds[p.Name] {
					t.Errorf("system %d: %s (%s) refuted through the merge at %v, which exploration does not refute (explored: %v)\n%s", i, p.Name, p.Text, res.Sizes, ok && holds != nil, src)
				}
			}
			for key, holds := range explored {
				switch {
				case holds == nil:
				case res.Verdict == prove.Proved && !holds[p.Name]:
					t.Errorf("system %d at %s: %s (%s) proved (%s), fails by exploration\n%s", i, key, p.Name, p.Text, res.LevelReason, src)
				case res.Verdict == prove.Refuted && holds[p.Name] && fmt.Sprint(res.Sizes) == key:
					t.Errorf("system %d at %s: %s (%s) refuted there, holds by exploration\n%s", i, key, p.Name, p.Text, src)
				}
			}
		}
	}
	t.Logf("verdicts: %v", counts)
	if counts["breaks=false "+prove.Proved.String()+" merged=true live=true lasso=false"] == 0 || counts["breaks=false "+prove.Proved.String()+" merged=true live=false lasso=false"] == 0 {
		t.Errorf("no liveness property, or no safety property, proved through the merge")
	}
	if counts["breaks=false "+prove.Refuted.String()+" merged=true live=false lasso=false"] == 0 {
		t.Errorf("no safety property refuted through the merge")
	}
	if counts["breaks=false "+prove.Refuted.String()+" merged=true live=false lasso=true"] == 0 {
		t.Errorf("no liveness property refuted through the merge (its fair lasso carried)")
	}
}

// groupSplitSystem draws a system with states A..D, one group written
// as two groups p_a and p_b of 1 or 2 processes each, a shared variable
// y, two safety and two liveness properties and (half the time) a
// justice condition or weak fairness of a step, all reading the two
// groups through sums, and the YAML that says it. breaks makes it
// break one condition of the merge: 1 gives p_a a guard of its own on
// one step, 2 has a guard read #B[p_a] alone, 3 a property read #C[p_a]
// alone, 4 asks weak fairness of a step per group for p_a.
func groupSplitSystem(r *rand.Rand, breaks int) string {
	var b strings.Builder
	b.WriteString("name: split\nshared:\n  y: {type: \"0..2\", init: 0}\nstates: [A, B, C, D]\ngroups: {p_a: \"1..2\", p_b: \"1..2\"}\ninit: A\ntransitions:\n")
	states := []string{"A", "B", "C", "D"}
	guards := []string{"", "#B[p_a] + #B[p_b] >= 1", "#C = 0", "y >= 1", "#A[p_a] + #A[p_b] = 0", "#D <= 1", "y = 0 | #C >= 1"}
	steps := 3 + r.Intn(3)
	for k := range steps {
		from := r.Intn(4)
		to := r.Intn(4)
		if to == from {
			to = (from + 1) % 4
		}
		if k == 0 {
			from, to = 0, 1 // the first leaves the initial state
		}
		guard := guards[r.Intn(len(guards))]
		if breaks == 2 && k == 0 {
			guard = "#B[p_a] >= 1"
		}
		update := ""
		if r.Intn(3) == 0 {
			update = "y := y + 1"
		}
		fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s", k, states[from], states[to])
		switch {
		case breaks == 1 && k == 0:
			// p_b's guard must differ from p_a's: two blocks with
			// one guard and update are one block (gsst joins them),
			// which breaks nothing.
			if guard == "" || guard == "y >= 1" {
				guard = "true"
			}
			fmt.Fprintf(&b, ", guard: {p_a: \"y >= 1\", p_b: %q}", guard)
		case guard != "":
			fmt.Fprintf(&b, ", guard: %q", guard)
		}
		if update != "" {
			fmt.Fprintf(&b, ", update: %q", update)
		}
		b.WriteString("}\n")
	}
	switch {
	case breaks == 4:
		b.WriteString("fairness:\n  weak: [\"t0 [p_a]\"]\n")
	case r.Intn(3) == 0:
		b.WriteString("fairness:\n  justice: [\"#A = 0 | y >= 1\"]\n")
	case r.Intn(2) == 0:
		b.WriteString("fairness:\n  weak: [t0, t1]\n")
	}
	b.WriteString("properties:\n")
	fmt.Fprintf(&b, "  s1: \"AG !(#D[p_a] + #D[p_b] >= %d & y >= 1)\"\n", 1+r.Intn(3))
	fmt.Fprintf(&b, "  s2: \"AG (#C <= %d | y = 0)\"\n", r.Intn(3))
	fmt.Fprintf(&b, "  l1: \"AF #%s >= 1\"\n", states[1+r.Intn(3)])
	fmt.Fprintf(&b, "  l2: \"AG (#B[p_a] + #B[p_b] >= 1 -> AF #%s >= %d)\"\n", states[2+r.Intn(2)], 1+r.Intn(2))
	if breaks == 3 {
		b.WriteString("  s3: \"AG #C[p_a] <= 1\"\n")
	}
	return b.String()
}
