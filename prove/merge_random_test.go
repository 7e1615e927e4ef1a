package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestMergeSumsRandom cross-checks prove.Check on random systems with a
// counter written as two places x_a, x_b (merge.go, gsst's MergeSums)
// against explicit exploration of their instances as written: a
// property proved must hold at each instance explored, one refuted must
// fail at the instance Check names. Every answer through the merge must
// be carried: a safety proof re-checked on the model as written
// (checked here once more), a liveness certificate re-checked on the
// liveness question as written, a run replayed, never asked again; a
// liveness refutation (a fair lasso) and a run under justice are asked
// again as written, as merge.go says. Some systems break one
// condition of the merge (a copy of a step that takes left out, a guard
// or a property reading one place, a step moving a token from one place
// to the other), where nothing may be answered through it; those
// conditions matter there, so a merge that ignores one proves what
// fails or refutes what holds.
func TestMergeSumsRandom(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 60
	}
	// Joining case splits (gsst's JoinCases, before every stage) may
	// drop the guard that breaks a condition (x_b + x_a >= 1 with x_a
	// of type 1..), and the system it asks then merges rightly where
	// the system as written may not: the test is of the merge's
	// conditions, which it reads on the system as written.
	defer prove.SetCaseJoining(false)()
	s := z3.New()
	ctx := context.Background()
	r := rand.New(rand.NewSource(23))
	counts := map[string]int{}
	for i := range systems {
		breaks := 0
		if r.Intn(3) == 0 {
			breaks = 1 + r.Intn(4)
		}
		src := mergeSystem(r, breaks)
		sys, err := gsst.Parse(fmt.Sprintf("merge%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		for k, res := range rep.Results {
			merged := strings.Contains(res.LevelReason, "read as one counter")
			live := prove.IsLiveness(res.Property.Formula)
			// A fair lasso, and a run under justice (whose fair
			// continuation is explore's), are not carried through the
			// merge (merge.go): the property is asked again as written.
			lasso := res.Verdict == prove.Refuted && (live || len(sys.Fairness.Justice) > 0)
			counts[fmt.Sprintf("breaks=%v %v merged=%v live=%v", breaks > 0, res.Verdict, merged, live)]++
			switch {
			case merged && breaks > 0:
				t.Errorf("system %d: %s answered through a merge that breaks condition %d\n%s", i, res.Property.Name, breaks, src)
			case lasso:
			case prove.AskedAgain(res):
				t.Errorf("system %d: %s refuted through the merge, and asked again\n%s", i, res.Property.Name, src)
			case breaks == 0 && (res.Verdict == prove.Proved || res.Verdict == prove.Refuted) && !merged:
				counts["not carried"]++
			case merged && res.Verdict == prove.Proved && !live:
				checkAsWritten(t, ctx, s, i, sys, k, res)
			case merged && res.Verdict == prove.Proved && res.Live == nil:
				t.Errorf("system %d: %s proved through the merge with no liveness certificate (%s)\n%s", i, res.Property.Name, res.Reason, src)
			}
		}
		for n := 1; n <= 3; n++ {
			inst, err := sys.InstantiateParams([]int{n}, nil)
			if err != nil {
				t.Fatalf("system %d at n = %d: %v", i, n, err)
			}
			holds := explorePhase(t, inst)
			if holds == nil {
				continue
			}
			for _, res := range rep.Results {
				name := res.Property.Name
				switch {
				case res.Verdict == prove.Proved && !holds[name]:
					t.Errorf("system %d at n = %d: %s proved, fails by exploration (%s)\n%s", i, n, name, res.LevelReason, src)
				case res.Verdict == prove.Refuted && holds[name] && fmt.Sprint(res.Params) == fmt.Sprint([]int{n}):
					t.Errorf("system %d at n = %d: %s refuted there, holds by exploration\n%s", i, n, name, src)
				}
			}
		}
	}
	t.Logf("verdicts: %v", counts)
	if counts["breaks=false "+prove.Proved.String()+" merged=true live=false"] == 0 || counts["breaks=false "+prove.Refuted.String()+" merged=true live=false"] == 0 {
		t.Errorf("no safety property proved, or none refuted, through the merge")
	}
	if counts["breaks=false "+prove.Proved.String()+" merged=true live=true"] == 0 {
		t.Errorf("no liveness property proved through the merge")
	}
	if counts["not carried"] > 0 {
		t.Errorf("%d answers of systems that merge not carried through the merge", counts["not carried"])
	}
}

// mergeSystem draws a system with states A..D (every step forward, so
// that every run is finite), one group of n processes (1 <= n <= 3),
// a counter split into places x_a and x_b and a counter y, and the YAML
// that says it (each place counting from 0 or 1). Steps that add to the pair are written once or more,
// each way of sharing out what they add; steps that take k are written
// once per way (k + 1 copies). Guards and properties read the pair
// through x_a + x_b, with any coefficient. breaks makes the system
// break one condition of the merge: 1 leaves out one copy of a step
// that takes, 2 has a guard read x_a alone, 3 a property read x_b
// alone, 4 a step move a token from x_b to x_a. Two liveness
// properties and, a third of the time, a justice condition read the
// pair through a sum too.
func mergeSystem(r *rand.Rand, breaks int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: merge\nparams: [n]\nassume: \"n >= 1 & n <= 3\"\n")
	// The places' least values, 0 or 1 (a translation that counts from
	// 1), their sum the merged variable's.
	la, lb := r.Intn(2), r.Intn(2)
	fmt.Fprintf(&b, "shared:\n  x_a: {type: \"%d..\", init: %d}\n  x_b: {type: \"%d..\", init: %d}\n  y: {type: \"0..\", init: 0}\n", la, la+r.Intn(2), lb, lb+r.Intn(2))
	b.WriteString("states: [A, B, C, D]\ngroups: {p: n}\ninit: A\ntransitions:\n")
	states := []string{"A", "B", "C", "D"}
	sum := []string{"x_a + x_b", "2*x_a + 2*x_b", "x_b + x_a"}
	atoms := []string{"%s >= 1", "%s >= 2", "%s = 0", "%s < 2", "#B >= 1 | %s >= 1"}
	guardOf := func() string {
		switch r.Intn(4) {
		case 0:
			return ""
		case 1:
			return fmt.Sprintf("#B >= %d", r.Intn(2))
		case 2:
			return "y >= 1"
		}
		return fmt.Sprintf(atoms[r.Intn(len(atoms))], sum[r.Intn(len(sum))])
	}
	step := func(name string, from, to int, guard, update string) {
		fmt.Fprintf(&b, "  - {name: %s, from: %s, to: %s", name, states[from], states[to])
		if guard != "" {
			fmt.Fprintf(&b, ", guard: %q", guard)
		}
		if update != "" {
			fmt.Fprintf(&b, ", update: %q", update)
		}
		b.WriteString("}\n")
	}
	// share writes what a step adds to (sign +) or takes from (-) the
	// pair, i from x_a and k - i from x_b.
	share := func(sign string, i, k int) string {
		var parts []string
		if i > 0 {
			parts = append(parts, fmt.Sprintf("x_a := x_a %s %d", sign, i))
		}
		if k-i > 0 {
			parts = append(parts, fmt.Sprintf("x_b := x_b %s %d", sign, k-i))
		}
		return strings.Join(parts, "; ")
	}
	steps := 4 + r.Intn(3)
	broken := false
	for k := range steps {
		from := r.Intn(3)
		to := from + 1 + r.Intn(3-from)
		guard := guardOf()
		if breaks == 2 && k == 0 {
			guard = "x_a >= 1"
		}
		extra := ""
		if r.Intn(3) == 0 {
			extra = "y := y + 1"
		}
		with := func(u string) string {
			switch {
			case u == "":
				return extra
			case extra == "":
				return u
			}
			return u + "; " + extra
		}
		name := fmt.Sprintf("t%d", k)
		kind := r.Intn(3)
		if k == 0 && breaks == 1 || k == 1 {
			kind = 2 // a step that takes, at least one
		}
		switch {
		case breaks == 4 && k == 0:
			step(name, from, to, guard, with("x_a := x_a + 1; x_b := x_b - 1"))
		case kind == 0:
			step(name, from, to, guard, extra)
		case kind == 1:
			c := 1 + r.Intn(2)
			any := false
			for i := 0; i <= c; i++ {
				if r.Intn(2) == 0 || i == c && !any {
					step(fmt.Sprintf("%s_%d", name, i), from, to, guard, with(share("+", i, c)))
					any = true
				}
			}
		default:
			c := 1 + r.Intn(2)
			drop := -1
			if breaks == 1 && !broken {
				drop, broken = r.Intn(c+1), true
			}
			for i := 0; i <= c; i++ {
				if i != drop {
					step(fmt.Sprintf("%s_%d", name, i), from, to, guard, with(share("-", i, c)))
				}
			}
		}
	}
	b.WriteString("properties:\n")
	fmt.Fprintf(&b, "  p1: \"AG !(%s >= %d & #D >= 1)\"\n", sum[r.Intn(len(sum))], 1+r.Intn(2))
	fmt.Fprintf(&b, "  p2: \"AG (%s <= %d)\"\n", sum[r.Intn(len(sum))], 1+r.Intn(3))
	fmt.Fprintf(&b, "  p3: \"AG !(#C >= 1 & %s = 0)\"\n", sum[r.Intn(len(sum))])
	fmt.Fprintf(&b, "  p4: \"#A >= 2 -> AG (y <= 1 | %s >= 1)\"\n", sum[r.Intn(len(sum))])
	if breaks == 3 {
		b.WriteString("  p5: \"AG (x_b <= 1)\"\n")
	}
	// Liveness, and a third of the time a justice condition, read
	// through the sum too: every run ends in a deadlock, where it
	// stutters.
	fmt.Fprintf(&b, "  l1: \"AG (#B >= 1 -> AF (%s = 0 | #D >= 1))\"\n", sum[r.Intn(len(sum))])
	fmt.Fprintf(&b, "  l2: \"AF (%s >= %d | #D >= 1)\"\n", sum[r.Intn(len(sum))], 1+r.Intn(2))
	if r.Intn(3) == 0 {
		fmt.Fprintf(&b, "fairness:\n  justice: [\"%s >= 1 | #D >= 1\"]\n", sum[r.Intn(len(sum))])
	}
	return b.String()
}
