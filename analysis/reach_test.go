package analysis

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// TestReachabilityAgainstOracle: on random small uncertified systems
// (fixed seed), with and without fairness constraints, every answer of
// Reach, with the explicit and with the BDD engine, equals
// a plain forward search of the process-indexed configurations (the
// oracle, which knows nothing of fairness): whether the witness's
// enabled and disabled configurations are reachable and in how many
// steps at least, and whether an asymmetric configuration is reachable,
// how near, and that the one reported is one. Reachability is about
// every run: the spec's fairness must play no part, and the sample
// holds answers where fair EF (reachable and continued by a fair run,
// steps counted to the end of a fair lasso) would differ.
func TestReachabilityAgainstOracle(t *testing.T) {
	want := 200
	if testing.Short() {
		want = 60
	}
	r := rand.New(rand.NewSource(2024))
	// Small systems (at most 4096 process-indexed configurations) with
	// up to 3 fairness constraints: none, justice, weak or both.
	cfg := testsupport.Config{MaxSize: 2, MaxConfigs: 4096, MaxTransitions: 4, Fairness: testsupport.Fairness{Max: 3}}
	ctx := context.Background()
	solver := z3.New()
	systems, yes, no := 0, map[string]int{}, map[string]int{}
	kinds := map[string]int{}
	fairDiffers := 0 // answers where fair EF would not be the oracle's
	for try := 0; systems < want && try < 20*want; try++ {
		sys := testsupport.RandomSystem(r, cfg)
		src := testsupport.Describe(sys)
		kind := fairnessKind(sys)
		cert, err := detect.Certify(ctx, sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		if cert.Verdict() != detect.Violated {
			continue
		}
		systems++
		kinds[kind]++
		engine := []string{"explicit", "bdd"}[systems%2]
		got := Reach(ctx, cert, solver, ReachRequest{Engine: engine})
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
			label := fmt.Sprintf("try %d (%s engine, fairness: %s), %s", try, engine, kind, sys.TransitionName(tr.Transition))
			w := tr.Witness
			for _, q := range []struct {
				name string
				ans  *ReachAnswer
				f    func([]int) bool
				conf [][]int // the configuration asked about; nil: the asymmetry
			}{
				{"enabled", &a.Enabled, func(st []int) bool { return reflect.DeepEqual(o.groupCounts(st), w.Enabled) }, w.Enabled},
				{"disabled", &a.Disabled, func(st []int) bool { return reflect.DeepEqual(o.groupCounts(st), w.Disabled) }, w.Disabled},
				{"asymmetry", &a.Asymmetry, o.asymmetric(tr.Transition), nil},
			} {
				steps, reachable := o.nearest(q.f)
				compareAnswer(t, label+"\n"+src, q.name, q.ans, steps, reachable)
				if reachable {
					yes[q.name]++
				} else {
					no[q.name]++
				}
				if q.conf != nil && !sys.Fairness.Empty() && fairEFDiffers(t, ctx, sys, q.conf, reachable, steps) {
					fairDiffers++
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
	t.Logf("%d uncertified systems (fairness %v); reachable %v, unreachable %v; %d witness answers where fair EF would differ", systems, kinds, yes, no, fairDiffers)
	if systems < want {
		t.Fatalf("only %d uncertified systems generated", systems)
	}
	for _, q := range []string{"enabled", "disabled", "asymmetry"} {
		if yes[q] < 10 || no[q] < 10 {
			t.Errorf("%s: %d reachable and %d unreachable answers; the sample does not exercise both", q, yes[q], no[q])
		}
	}
	for _, k := range []string{"none", "justice", "weak", "justice+weak"} {
		if kinds[k] < want/10 {
			t.Errorf("%d systems with fairness %s; the sample does not exercise it", kinds[k], k)
		}
	}
	if fairDiffers < 10 {
		t.Errorf("only %d answers where fair EF would differ from reachability; the fairness of the sample does not exercise the difference", fairDiffers)
	}
}

// fairnessKind names the fairness constraints of sys: none, justice,
// weak or justice+weak.
func fairnessKind(sys *gsst.System) string {
	switch j, w := len(sys.Fairness.Justice) > 0, len(sys.Fairness.Weak) > 0; {
	case j && w:
		return "justice+weak"
	case j:
		return "justice"
	case w:
		return "weak"
	}
	return "none"
}

// compareAnswer fails t unless ans is the oracle's answer to question
// name: reachable, and then in steps steps at least.
func compareAnswer(t *testing.T, label, name string, ans *ReachAnswer, steps int, reachable bool) {
	t.Helper()
	switch {
	case ans.Reachable == nil:
		t.Fatalf("%s: %s undecided: %s", label, name, ans.Reason)
	case *ans.Reachable != reachable:
		t.Fatalf("%s: %s reachable = %v, oracle says %v", label, name, *ans.Reachable, reachable)
	case reachable && (ans.Steps == nil || *ans.Steps != steps):
		t.Fatalf("%s: %s in %v steps, oracle says %d", label, name, ans.Steps, steps)
	}
}

// fairEFDiffers reports whether EF of the group-counter configuration
// conf under the fairness of sys (what check asked before issue 19: a
// fair EF, whose trace ends in a fair lasso) answers other than plain
// reachability: reachable in steps steps, or not at all.
func fairEFDiffers(t *testing.T, ctx context.Context, sys *gsst.System, conf [][]int, reachable bool, steps int) bool {
	t.Helper()
	m, err := counterabs.BuildGroup(sys.WithProperties())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Justice) == 0 {
		t.Fatalf("the group-counter model of a system with fairness has no constraints")
	}
	m.Properties = []counterabs.Property{{Name: "ef", Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: configuration(m, conf, nil)}}}}
	rep, err := explicit.Engine{}.Check(ctx, m, explore.CountConcrete(false))
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Properties[0]
	if p.Holds != reachable {
		return true
	}
	return p.Holds && (p.Trace == nil || len(p.Trace.States)-1 != steps)
}

// TestReachabilityAuto: under "auto" every question batch goes to
// explore.Auto, and the answers are those of the explicit engine alone.
func TestReachabilityAuto(t *testing.T) {
	sys, err := gsst.Load("../specs/rw-shared-reading.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	solver := z3.New()
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil || cert.Verdict() != detect.Violated {
		t.Fatalf("want a violation, got %v (%v)", cert.Verdict(), err)
	}
	want := Reach(ctx, cert, solver, ReachRequest{Engine: "explicit"})
	got := Reach(ctx, cert, solver, ReachRequest{Engine: "auto"})
	if len(got.Engines) == 0 || strings.Trim(fmt.Sprint(got.Engines), "[auto ]") != "" {
		t.Errorf("engines %v, want explore.Auto for every question batch", got.Engines)
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
func describeAll(a *TransitionReach) []string {
	var out []string
	for _, x := range []*ReachAnswer{&a.Enabled, &a.Disabled, &a.Asymmetry} {
		if x.Reachable == nil || x.Steps == nil {
			out = append(out, "undecided: "+x.Reason)
			continue
		}
		out = append(out, fmt.Sprintf("%v %d %v", *x.Reachable, *x.Steps, x.State != nil))
	}
	return out
}
