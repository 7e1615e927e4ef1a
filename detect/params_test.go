package detect

import (
	"context"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// completeSolver returns the solver that decides every query (Z3): the
// parametric queries have open ranges, which BruteForce refuses.
func completeSolver(t *testing.T) presburger.Solver {
	t.Helper()
	for _, sv := range solvers {
		if sv.complete {
			return sv.s
		}
	}
	t.Fatal("no complete solver")
	return nil
}

// TestAllSizesCrossCheck certifies random parametric systems for all
// sizes and compares every transition's verdict with the fixed-size
// reference (closedAt) at every instance of the box (each size in its
// range and at most boxMax):
//
//   - certified (or symmetric) for all sizes: every instance of the box
//     is closed;
//   - a system whose ranges lie inside the box: the verdict is exactly
//     the conjunction over the box;
//   - violated: the witness is re-checked on the instance of its sizes
//     by the explicit semantics (checkWitnessByHand), has no more
//     processes than the smallest violating instance of the box, and, if
//     every instance of the box is closed, lies outside the box;
//   - unknown never happens (the queries are small).
//
// One instance of the box per system is also certified with its fixed
// sizes, which must agree with closedAt (the reference against the
// fixed-size path, itself cross-checked against L^n in crossCheck).
func TestAllSizesCrossCheck(t *testing.T) {
	// -short: a third of the sample, each verdict still at least 7 times.
	systems, least := 350, 20
	if testing.Short() {
		systems, least = 120, 7
	}
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(20261123))
	ctx := context.Background()
	counts := map[Verdict]int{}
	var covered, beyondBox, instances, queries int
	for i := range systems {
		sys := testsupport.RandomSystem(r, paramConfig)
		rep, err := Certify(ctx, sys, solver)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if coveredByBox(sys) {
			covered++
		}
		boxes := testsupport.Box(sys, boxMax)
		insts := make([]*gsst.System, len(boxes))
		for k, sizes := range boxes {
			if insts[k], err = sys.Instantiate(sizes); err != nil {
				t.Fatalf("system %d sizes %v: %v", i, sizes, err)
			}
		}
		closed := closedInBox(insts)
		for j, res := range rep.Transitions {
			counts[res.Verdict]++
			queries += res.Queries
			allClosed, minBad := true, -1
			for k, sizes := range boxes {
				instances++
				if !closed[k][j] {
					allClosed = false
					if n := sum(sizes); minBad < 0 || n < minBad {
						minBad = n
					}
				}
			}
			where := func() string {
				return "system " + strconv.Itoa(i) + " " + sys.TransitionName(&sys.Transitions[j]) + "\n" + testsupport.Describe(sys)
			}
			switch res.Verdict {
			case Unknown:
				t.Errorf("%s: unknown: %s", where(), res.Reason)
			case Symmetric, Certified:
				if !allClosed {
					t.Errorf("%s: %v for all sizes, but an instance of the box with %d processes is not closed", where(), res.Verdict, minBad)
				}
			case Violated:
				w := res.Witness
				inst, err := sys.Instantiate(w.Sizes)
				if err != nil {
					t.Errorf("%s: witness sizes %v: %v", where(), w.Sizes, err)
					continue
				}
				if err := checkWitnessByHand(inst, &inst.Transitions[j], w); err != nil {
					t.Errorf("%s: witness at sizes %v: %v", where(), w.Sizes, err)
				}
				switch n := sum(w.Sizes); {
				case minBad >= 0 && n > minBad:
					t.Errorf("%s: witness with %d processes, but the box has a violation with %d", where(), n, minBad)
				case allClosed && inBox(w.Sizes):
					t.Errorf("%s: witness at sizes %v inside the box, where every instance is closed", where(), w.Sizes)
				case allClosed:
					beyondBox++
				}
			}
			if coveredByBox(sys) && res.Verdict.OK() != allClosed {
				t.Errorf("%s: %v for all sizes, but the box (which holds every instance) says closed=%v", where(), res.Verdict, allClosed)
			}
		}
		// The reference against the fixed-size path on one instance.
		k := r.Intn(len(insts))
		fixed, err := Certify(ctx, insts[k], solver)
		if err != nil {
			t.Fatal(err)
		}
		for j, res := range fixed.Transitions {
			if res.Verdict.OK() != closed[k][j] {
				t.Errorf("system %d at sizes %v, %s: fixed-size %v, reference closed=%v\n%s", i, boxes[k], sys.TransitionName(&sys.Transitions[j]), res.Verdict, closed[k][j], testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems (%d with every range inside the box), %d instances compared: symmetric %d, certified %d, violated %d (%d only beyond the box), unknown %d; %d solver calls",
		systems, covered, instances, counts[Symmetric], counts[Certified], counts[Violated], beyondBox, counts[Unknown], queries)
	if counts[Certified] < least || counts[Violated] < least {
		t.Errorf("sample not mixed enough: %v", counts)
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func inBox(sizes []int) bool {
	for _, k := range sizes {
		if k > boxMax {
			return false
		}
	}
	return true
}

// unbounded makes every group of sys range over k.. from its size k.
func unbounded(sys *gsst.System) *gsst.System {
	spec := sys.Spec()
	for g := range spec.Groups {
		spec.Groups[g].Ranged, spec.Groups[g].Max = true, gsst.Unbounded
	}
	out, err := gsst.New(spec)
	if err != nil {
		panic(err)
	}
	return out
}

func TestAllSizesKnownAnswers(t *testing.T) {
	solver := completeSolver(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		sys  *gsst.System
		want Verdict
	}{
		{"readers-writers", unbounded(testsupport.Parse("rw.yaml", testsupport.ReadersWritersYAML(1, 1, false))), Certified},
		{"grw-5-1-4", unbounded(testsupport.GRW(5, 1, 4)), Certified},
		{"mutex", unbounded(testsupport.Parse("mutex.yaml", testsupport.MutexYAML(1))), Symmetric},
	} {
		rep, err := Certify(ctx, tt.sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict() != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, rep.Verdict(), tt.want)
		}
	}

	// The broken readers/writers breaks in the smallest instance: one
	// writer alone in T may enter, the reader alone in T (#T = 1) may not.
	sys := unbounded(testsupport.Parse("broken.yaml", testsupport.ReadersWritersYAML(1, 1, true)))
	rep, err := Certify(ctx, sys, solver)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Transitions[1]
	if res.Verdict != Violated || sum(res.Witness.Sizes) != 2 {
		t.Fatalf("broken: %v, witness %+v", res.Verdict, res.Witness)
	}
	if err := VerifyWitness(sys, res.Transition, res.Witness); err != nil {
		t.Error(err)
	}

	// A violation that needs a million and one processes: below, a
	// process in T can always go; above, only the group a process can.
	// The witness cannot be evaluated directly, so the verdict is
	// unknown, with the reason.
	big := testsupport.Parse("big.yaml", `states: [N, T, C]
groups: {a: 1.., b: 1..}
init: N
transitions:
  - {from: T, to: C, guard: {a: "#C = 0", b: "#C = 0 & n <= 1000000"}}
`)
	rep, err = Certify(ctx, big, solver)
	if err != nil {
		t.Fatal(err)
	}
	if res := rep.Transitions[0]; res.Verdict != Unknown || !strings.Contains(res.Reason, "more than 1000000 processes") {
		t.Errorf("huge witness: %v (%s)", res.Verdict, res.Reason)
	}

	// A witness at sizes the ranges do not allow is rejected.
	w := *res.Witness
	w.Sizes = []int{0, 2}
	if err := VerifyWitness(sys, res.Transition, &w); err == nil || !strings.Contains(err.Error(), "group reader cannot have 0 processes") {
		t.Errorf("witness at size 0: %v", err)
	}
}

// FuzzCertifyAllSizes draws a random parametric system from the seed and
// checks its verdicts for all sizes against the box reference, as
// TestAllSizesCrossCheck does.
//
//	go test ./detect -run '^$' -fuzz FuzzCertifyAllSizes -fuzztime 20s
func FuzzCertifyAllSizes(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 42, 20261123} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		sys := testsupport.RandomSystem(rand.New(rand.NewSource(seed)), paramConfig)
		rep, err := Certify(context.Background(), sys, completeSolver(t))
		if err != nil {
			t.Fatal(err)
		}
		for j, res := range rep.Transitions {
			switch res.Verdict {
			case Unknown:
				t.Errorf("%s: unknown: %s", sys.TransitionName(res.Transition), res.Reason)
			case Violated:
				inst, err := sys.Instantiate(res.Witness.Sizes)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkWitnessByHand(inst, &inst.Transitions[j], res.Witness); err != nil {
					t.Errorf("%s: %v\n%s", sys.TransitionName(res.Transition), err, testsupport.Describe(sys))
				}
			default:
				for _, sizes := range testsupport.Box(sys, boxMax) {
					inst, err := sys.Instantiate(sizes)
					if err != nil {
						t.Fatal(err)
					}
					if !testsupport.BruteForce(inst).Closed(j) {
						t.Errorf("%s: %v for all sizes, not closed at %v\n%s", sys.TransitionName(res.Transition), res.Verdict, sizes, testsupport.Describe(sys))
					}
				}
			}
		}
	})
}
