package detect

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// solvers lists the solvers every verdict test runs with. BruteForce is
// always there (with a small limit, so big queries answer unknown and are
// skipped in comparisons); the Z3 solver is added by z3_test.go.
var solvers = []struct {
	name string
	s    presburger.Solver
	// complete: the solver is expected to decide every query in the tests.
	complete bool
}{
	{"bruteforce", presburger.BruteForce{Limit: 1 << 18}, false},
}

// TestCorpus certifies every system of the known-answer corpus
// (testdata/corpus, expected verdicts of every transition and
// rendezvous derived by brute force on processes and by hand) with each
// solver, and checks the witnesses by hand or on processes.
func TestCorpus(t *testing.T) {
	cases, err := testsupport.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range solvers {
		for _, c := range cases {
			t.Run(sv.name+"/"+c.Name, func(t *testing.T) { checkKnown(t, sv.s, sv.complete, c.Sys, c.Certification) })
		}
	}
	t.Logf("%d archives, %d solvers", len(cases), len(solvers))
}

// transitionIndex returns the index of t in sys.Transitions, or -1 for
// nil (a rendezvous).
func transitionIndex(sys *gsst.System, t *gsst.Transition) int {
	for i := range sys.Transitions {
		if &sys.Transitions[i] == t {
			return i
		}
	}
	return -1
}

// rwSystem is readers/writers with one reader and two writers, Fig. 1(b)
// of the paper, or its broken variant of section 4.3.
func rwSystem(broken bool) *gsst.System {
	return testsupport.Parse("rw.yaml", testsupport.ReadersWritersYAML(1, 2, broken))
}

// TestNoBlock: nobody may take U -> V (a transition without blocks, which
// the YAML syntax cannot write); the empty domain is closed, so the
// transition is certified.
func TestNoBlock(t *testing.T) {
	sys, err := gsst.New(&gsst.Spec{Name: "none", States: []string{"U", "V"},
		Groups: []gsst.Group{{Name: "a", Size: 1}, {Name: "b", Size: 1}}, Init: [][]int{{1, 0}, {1, 0}},
		Transitions: []gsst.Transition{{From: 0, To: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range solvers {
		checkKnown(t, sv.s, sv.complete, sys, []string{"certified"})
	}
}

// checkKnown certifies sys and compares the verdict of each transition,
// then each rendezvous, with want; an incomplete solver may answer
// unknown.
func checkKnown(t *testing.T, solver presburger.Solver, complete bool, sys *gsst.System, want []string) {
	t.Helper()
	rep, err := Certify(context.Background(), sys, solver)
	if err != nil {
		t.Fatal(err)
	}
	all := Symmetric // the system's verdict: violated over certified over symmetric
	for _, w := range want {
		switch {
		case w == "violated":
			all = Violated
		case w == "certified" && all != Violated:
			all = Certified
		}
	}
	for i, res := range rep.Results() {
		got, name := res.Verdict, resultName(sys, &res)
		if got == Unknown && !complete {
			t.Logf("%s: unknown (%s), skipped", name, res.Reason)
			continue
		}
		if got.String() != want[i] {
			t.Errorf("%s: got %v (%s), want %s", name, got, res.Reason, want[i])
		}
		if got != Violated {
			continue
		}
		// The witness, by hand for a system of the paper, else replayed
		// on the process-level semantics.
		if testsupport.ConstructsOf(sys) == 0 {
			if err := checkWitnessByHand(sys, res.Transition, res.Witness); err != nil {
				t.Errorf("%s: witness: %v", name, err)
			}
		} else if err := replayWitness(sys, transitionIndex(sys, res.Transition), res.Witness); err != nil {
			t.Errorf("%s: witness: %v", name, err)
		}
	}
	if got := rep.Verdict(); got != all && got != Unknown {
		t.Errorf("system verdict %v, want %v", got, all)
	}
	if rep.Certified() != all.OK() && rep.Verdict() != Unknown {
		t.Errorf("Certified() = %v", rep.Certified())
	}
}

// TestBrokenWitness checks the witness of section 4.3's broken R&W in
// detail: the enabled configuration has a writer alone in T (#T = 1, the
// writer's guard #C = 0 holds), the disabled one the reader alone in T
// (its guard needs #T = 2).
func TestBrokenWitness(t *testing.T) {
	sys := rwSystem(true)
	rep, err := Certify(context.Background(), sys, presburger.BruteForce{})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Transitions[1]
	if res.Verdict != Violated {
		t.Fatalf("T -> C: %v (%s)", res.Verdict, res.Reason)
	}
	w := res.Witness
	if err := VerifyWitness(sys, res.Transition, w); err != nil {
		t.Fatal(err)
	}
	if err := checkWitnessByHand(sys, res.Transition, w); err != nil {
		t.Fatal(err)
	}
	// Only one orbit mixes: #T = 1 and #C = 0 (#T = 2 enables the reader
	// too, and #T = 0 or #C >= 1 disables everyone).
	const T, C = 1, 2
	for _, conf := range [][][]int{w.Enabled, w.Disabled} {
		if tot := conf[0][T] + conf[1][T]; tot != 1 {
			t.Errorf("#T = %d, want 1", tot)
		}
		if tot := conf[0][C] + conf[1][C]; tot != 0 {
			t.Errorf("#C = %d, want 0", tot)
		}
	}
	if w.Group != 1 || w.Enabled[1][T] != 1 || w.Disabled[0][T] != 1 {
		t.Errorf("witness %+v: want a writer in T enabled, the reader in T disabled", w)
	}
}

// TestWitnessRejected feeds VerifyWitness broken witnesses.
func TestWitnessRejected(t *testing.T) {
	sys := rwSystem(true)
	tr := &sys.Transitions[1]
	good := &Witness{
		Enabled:  [][]int{{1, 0, 0}, {1, 1, 0}},
		Disabled: [][]int{{0, 1, 0}, {2, 0, 0}},
		Group:    1,
	}
	if err := VerifyWitness(sys, tr, good); err != nil {
		t.Fatalf("good witness rejected: %v", err)
	}
	bad := []struct {
		name string
		w    *Witness
	}{
		{"nil", nil},
		{"totals differ", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{1, 0, 0}, {2, 0, 0}}, Group: 1}},
		{"wrong group size", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 1}}, Disabled: [][]int{{0, 1, 0}, {2, 0, 1}}, Group: 1}},
		{"negative", &Witness{Enabled: [][]int{{2, -1, 0}, {1, 1, 0}}, Disabled: [][]int{{2, 0, -1}, {2, 0, 0}}, Group: 1}},
		{"group cannot fire", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{0, 1, 0}, {2, 0, 0}}, Group: 0}},
		{"disabled side fires", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Group: 1}},
		{"short", &Witness{Enabled: [][]int{{1, 0, 0}}, Disabled: [][]int{{0, 1, 0}}, Group: 0}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := VerifyWitness(sys, tr, tt.w); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// lyingSolver answers Sat with a model that is not a witness.
type lyingSolver struct{}

func (lyingSolver) Solve(context.Context, presburger.Problem) (presburger.Answer, error) {
	return presburger.Answer{Result: presburger.Sat, Model: presburger.Model{}}, nil
}

// unknownSolver never answers.
type unknownSolver struct{}

func (unknownSolver) Solve(context.Context, presburger.Problem) (presburger.Answer, error) {
	return presburger.Answer{Result: presburger.Unknown, Reason: "gave up"}, nil
}

func TestSolverMisbehaviour(t *testing.T) {
	sys := rwSystem(false)
	if _, err := Certify(context.Background(), sys, lyingSolver{}); err == nil {
		t.Error("a bogus sat model was accepted as a witness")
	}
	rep, err := Certify(context.Background(), sys, unknownSolver{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Certified() || rep.Verdict() != Unknown || rep.Transitions[1].Verdict != Unknown || rep.Transitions[1].Reason != "gave up" {
		t.Errorf("unknown answers: verdict %v, T -> C %+v", rep.Verdict(), rep.Transitions[1])
	}
	if _, err := Certify(context.Background(), sys, nil); err == nil {
		t.Error("no solver: no error")
	}
	// A system whose transitions are all symmetric needs no solver.
	if rep, err := Certify(context.Background(), testsupport.Parse("mutex.yaml", testsupport.MutexYAML(2)), nil); err != nil || rep.Verdict() != Symmetric {
		t.Errorf("mutex without solver: %v, %v", rep, err)
	}
	// A cancelled context must never certify. (BruteForce looks at the
	// context only every 65536 assignments, so it is not used here.)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tried := 0
	for _, sv := range solvers {
		if _, ok := sv.s.(presburger.BruteForce); ok {
			continue
		}
		tried++
		rep, err = Certify(ctx, testsupport.GRW(2, 2, 3), sv.s)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Certified() || rep.Transitions[1].Verdict != Unknown {
			t.Errorf("%s: cancelled context: %v", sv.name, rep.Verdict())
		}
	}
	if tried == 0 {
		t.Error("no solver ran with a cancelled context")
	}
	// Nor is the solver asked: the lying one would make Certify fail.
	rep, err = Certify(ctx, sys, lyingSolver{})
	if err != nil {
		t.Fatalf("cancelled context: the solver was asked: %v", err)
	}
	if rep.Transitions[1].Verdict != Unknown || rep.Transitions[1].Queries != 0 {
		t.Errorf("cancelled context: T -> C %+v", rep.Transitions[1])
	}
}

// checkWitnessByHand checks a witness with the reference semantics of
// package testsupport: the two configurations, laid out process by
// process, agree on total counters; in the first a process of w.Group can
// take the transition (Definition 3), in the second no process can.
func checkWitnessByHand(sys *gsst.System, tr *gsst.Transition, w *Witness) error {
	if w == nil {
		return fmt.Errorf("no witness")
	}
	if w.Group < 0 || w.Group >= len(sys.Groups) || len(w.Enabled) != len(sys.Groups) || len(w.Disabled) != len(sys.Groups) {
		return fmt.Errorf("witness has the wrong shape")
	}
	layout := func(conf [][]int) (owner, procs []int, err error) {
		for g, row := range conf {
			cnt := 0
			for s, k := range row {
				for range k {
					owner = append(owner, g)
					procs = append(procs, s)
				}
				cnt += k
			}
			if cnt != sys.Groups[g].Size {
				return nil, nil, fmt.Errorf("group %d has %d processes", g, cnt)
			}
		}
		return owner, procs, nil
	}
	o1, c1, err := layout(w.Enabled)
	if err != nil {
		return err
	}
	o2, c2, err := layout(w.Disabled)
	if err != nil {
		return err
	}
	if testsupport.TotalKey(testsupport.Totals(w.Enabled)) != testsupport.TotalKey(testsupport.Totals(w.Disabled)) {
		return fmt.Errorf("total counters differ")
	}
	moves := false
	for p := range c1 {
		moves = moves || o1[p] == w.Group && testsupport.Enabled(sys, tr, o1, c1, p)
	}
	if !moves {
		return fmt.Errorf("no process of group %d can move in the enabled configuration", w.Group)
	}
	for p := range c2 {
		if testsupport.Enabled(sys, tr, o2, c2, p) {
			return fmt.Errorf("process %d can move in the disabled configuration", p)
		}
	}
	return nil
}

// TestRandomCrossCheck compares the verdict of every transition of many
// random small GSSTs, with each solver, against the explicit check on L^n.
func TestRandomCrossCheck(t *testing.T) {
	// -short: about a third of the sample, each verdict still at least
	// 7 times (crossCheck).
	systems := 560
	if testing.Short() {
		systems = 200
	}
	variants := []struct {
		name string
		opts []Option
	}{
		{"default", nil},
		{"split3-workers2", []Option{Split(3), Workers(2)}},
	}
	for _, sv := range solvers {
		for _, v := range variants {
			if v.opts != nil && !sv.complete {
				continue // BruteForce: the default variant is enough
			}
			t.Run(sv.name+"/"+v.name, func(t *testing.T) {
				crossCheck(t, sv.s, sv.complete, systems, v.opts)
			})
		}
	}
}

// randomConfig is what the cross-checks draw: up to 4 states, 3 groups
// of 1-3 processes and 2 transitions, guards of every style, at most
// 2^14 process-indexed configurations for the brute force.
var randomConfig = testsupport.Config{MaxTransitions: 2}

// crossCheck certifies random systems (fixed seed) and compares every
// transition's verdict with Theorem 6 checked by brute force on L^n
// (testsupport.BruteForce); witnesses are checked by hand. Unknown is
// tolerated only for an incomplete solver.
func crossCheck(t *testing.T, solver presburger.Solver, complete bool, systems int, opts []Option) {
	r := rand.New(rand.NewSource(20261122))
	counts := map[Verdict]int{}
	var skipped, violatedRef, closedRef int
	for i := range systems {
		sys := testsupport.RandomSystem(r, randomConfig)
		rep, err := Certify(context.Background(), sys, solver, opts...)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		brute := testsupport.BruteForce(sys)
		for j, res := range rep.Transitions {
			tr := &sys.Transitions[j]
			closed := brute.Closed(j)
			if closed {
				closedRef++
			} else {
				violatedRef++
			}
			counts[res.Verdict]++
			switch res.Verdict {
			case Unknown:
				if complete {
					t.Errorf("system %d %s: unknown: %s", i, sys.TransitionName(tr), res.Reason)
				}
				skipped++
			case Symmetric, Certified:
				if !closed {
					t.Errorf("system %d %s: %v, but the domain is not closed under orbits\n%s", i, sys.TransitionName(tr), res.Verdict, testsupport.Describe(sys))
				}
				if res.Verdict == Symmetric != testsupport.Symmetric(sys, tr) {
					t.Errorf("system %d %s: %v, but the documented rule for symmetric says %v", i, sys.TransitionName(tr), res.Verdict, testsupport.Symmetric(sys, tr))
				}
			case Violated:
				if closed {
					t.Errorf("system %d %s: violated, but the domain is closed under orbits\n%s", i, sys.TransitionName(tr), testsupport.Describe(sys))
				}
				if err := checkWitnessByHand(sys, tr, res.Witness); err != nil {
					t.Errorf("system %d %s: bad witness: %v", i, sys.TransitionName(tr), err)
				}
			}
		}
	}
	t.Logf("%d systems: symmetric %d, certified %d, violated %d, unknown %d (reference: %d closed, %d not closed)",
		systems, counts[Symmetric], counts[Certified], counts[Violated], skipped, closedRef, violatedRef)
	least := 20 * systems / 560 // 20 in the full sample
	if counts[Certified] < least || counts[Violated] < least {
		t.Errorf("sample not mixed enough: %v", counts)
	}
}

func TestParts(t *testing.T) {
	tests := []struct {
		n, k int
		want [][2]int
	}{
		{0, 1, [][2]int{{0, 0}}},
		{0, 4, [][2]int{{0, 0}}},
		{1, 3, [][2]int{{0, 1}}},
		{5, 1, [][2]int{{0, 5}}},
		{5, 2, [][2]int{{0, 2}, {2, 5}}},
		{6, 3, [][2]int{{0, 2}, {2, 4}, {4, 6}}},
		{3, 0, [][2]int{{0, 3}}},
	}
	for _, tt := range tests {
		got := parts(tt.n, tt.k)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("parts(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
}

// FuzzCertify draws a random system from the seed and checks every
// verdict against the explicit reference, as TestRandomCrossCheck does.
//
//	go test ./detect -run '^$' -fuzz FuzzCertify -fuzztime 20s
func FuzzCertify(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 42, 20261122} {
		f.Add(seed)
	}
	s := solvers[len(solvers)-1] // Z3 when present
	f.Fuzz(func(t *testing.T, seed int64) {
		sys := testsupport.RandomSystem(rand.New(rand.NewSource(seed)), randomConfig)
		rep, err := Certify(context.Background(), sys, s.s)
		if err != nil {
			t.Fatal(err)
		}
		brute := testsupport.BruteForce(sys)
		for j, res := range rep.Transitions {
			tr := &sys.Transitions[j]
			closed := brute.Closed(j)
			switch {
			case res.Verdict == Unknown:
				if s.complete {
					t.Errorf("%s: unknown: %s", sys.TransitionName(tr), res.Reason)
				}
			case res.Verdict.OK() != closed:
				t.Errorf("%s: %v, reference closed=%v\n%s", sys.TransitionName(tr), res.Verdict, closed, testsupport.Describe(sys))
			case res.Verdict == Violated:
				if err := checkWitnessByHand(sys, tr, res.Witness); err != nil {
					t.Errorf("%s: %v", sys.TransitionName(tr), err)
				}
			}
		}
	})
}
