package cli

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
)

// TestReachabilityAgainstOracle: on random small uncertified systems
// (fixed seed), every answer of decideReachability, with the explicit
// and with the BDD engine, equals the brute-force oracle on the
// process-indexed configurations: whether the witness's enabled and
// disabled configurations are reachable and in how many steps at least,
// and whether an asymmetric configuration is reachable, how near, and
// that the one reported is one.
func TestReachabilityAgainstOracle(t *testing.T) {
	want := 200
	if testing.Short() {
		want = 40
	}
	r := rand.New(rand.NewSource(2024))
	ctx := context.Background()
	solver := z3.New()
	systems, yes, no := 0, map[string]int{}, map[string]int{}
	for try := 0; systems < want && try < 20*want; try++ {
		src := randomSpec(r)
		sys, err := gsst.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("try %d: generated spec does not parse: %v\n%s", try, err, src)
		}
		cert, err := detect.Certify(ctx, sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		if cert.Verdict() != detect.Violated {
			continue
		}
		systems++
		engine := []string{"explicit", "bdd"}[systems%2]
		got := decideReachability(ctx, cert, solver, engine, 0, 0)
		for _, e := range got.Engines {
			if e != engine {
				t.Fatalf("ran the engines %v, want %s", got.Engines, engine)
			}
		}
		o := newOracle(sys)
		for i, tr := range cert.Transitions {
			a := got.Transitions[i]
			if (a != nil) != (tr.Verdict == detect.Violated) {
				t.Fatalf("try %d: %s is %v, reachability answered: %v", try, sys.TransitionName(tr.Transition), tr.Verdict, a != nil)
			}
			if a == nil {
				continue
			}
			label := fmt.Sprintf("try %d (%s engine), %s", try, engine, sys.TransitionName(tr.Transition))
			w := tr.Witness
			for _, q := range []struct {
				name string
				ans  *reachAnswer
				f    func([]int) bool
			}{
				{"enabled", &a.Enabled, func(st []int) bool { return reflect.DeepEqual(o.groupCounts(st), w.Enabled) }},
				{"disabled", &a.Disabled, func(st []int) bool { return reflect.DeepEqual(o.groupCounts(st), w.Disabled) }},
				{"asymmetry", &a.Asymmetry, o.asymmetric(tr.Transition)},
			} {
				steps, reachable := o.nearest(q.f)
				switch {
				case q.ans.Reachable == nil:
					t.Fatalf("%s: %s undecided: %s\n%s", label, q.name, q.ans.Reason, src)
				case *q.ans.Reachable != reachable:
					t.Fatalf("%s: %s reachable = %v, oracle says %v\n%s", label, q.name, *q.ans.Reachable, reachable, src)
				case reachable && (q.ans.Steps == nil || *q.ans.Steps != steps):
					t.Fatalf("%s: %s in %v steps, oracle says %d\n%s", label, q.name, q.ans.Steps, steps, src)
				}
				if reachable {
					yes[q.name]++
				} else {
					no[q.name]++
				}
				if q.name != "asymmetry" || !reachable {
					continue
				}
				// The configuration reported is reachable and asymmetric.
				s := q.ans.State
				if s == nil {
					t.Fatalf("%s: no asymmetric configuration reported", label)
				}
				ok := false
				for c := range o.dist {
					st := o.decode(c)
					ok = ok || reflect.DeepEqual(o.groupCounts(st), s.Groups) && q.f(st)
				}
				if !ok {
					t.Fatalf("%s: reported configuration %v is not a reachable asymmetric one\n%s", label, s.Groups, src)
				}
			}
		}
	}
	t.Logf("%d uncertified systems; reachable %v, unreachable %v", systems, yes, no)
	if systems < want {
		t.Fatalf("only %d uncertified systems generated", systems)
	}
	for _, q := range []string{"enabled", "disabled", "asymmetry"} {
		if yes[q] < 10 || no[q] < 10 {
			t.Errorf("%s: %d reachable and %d unreachable answers; the sample does not exercise both", q, yes[q], no[q])
		}
	}
}

// TestReachabilityFallback: under "auto" an explicit search that outgrows
// reachExplicitStates hands the questions to the BDD engine, and the
// answers stay those of the explicit engine alone.
func TestReachabilityFallback(t *testing.T) {
	sys, err := gsst.Load("../../specs/rw-shared-reading.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	solver := z3.New()
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil || cert.Verdict() != detect.Violated {
		t.Fatalf("want a violation, got %v (%v)", cert.Verdict(), err)
	}
	want := decideReachability(ctx, cert, solver, "explicit", 0, 0)
	defer func(n int64) { reachExplicitStates = n }(reachExplicitStates)
	reachExplicitStates = 3 // the lock has 24 reachable configurations
	got := decideReachability(ctx, cert, solver, "auto", 0, 0)
	if fmt.Sprint(got.Engines) != "[explicit bdd explicit bdd]" {
		t.Errorf("engines %v, want each question batch tried explicitly, then with BDDs", got.Engines)
	}
	for i, a := range want.Transitions {
		if b := got.Transitions[i]; !reflect.DeepEqual(describeAll(a), describeAll(b)) {
			t.Errorf("transition %d: auto answered %v, explicit %v", i, describeAll(b), describeAll(a))
		}
	}
}

// describeAll prints the three answers: reachable, steps, and whether a
// configuration is reported (engines may reach different ones at the
// same distance; the oracle test checks that each is asymmetric).
func describeAll(a *reachJSON) []string {
	var out []string
	for _, x := range []*reachAnswer{&a.Enabled, &a.Disabled, &a.Asymmetry} {
		if x.Reachable == nil || x.Steps == nil {
			out = append(out, "undecided: "+x.Reason)
			continue
		}
		out = append(out, fmt.Sprintf("%v %d %v", *x.Reachable, *x.Steps, x.State != nil))
	}
	return out
}
