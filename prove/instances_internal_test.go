package prove

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestInstancesBeyondBox: the premise of bosco's fast0 holds only
// where n > 5*t (t >= 1), so on the model scoped to it (askLive) no
// instance has every choice at most searchMax. smallInstances then
// lists the least instances beyond that box, in order of the sum of
// the choices, each meeting the scoped model's constraint; and refuteLive
// finds the fair deadlock of testdata/styles/bosco-last-waits.yaml at
// the first of them, n = 6, t = 1, f = 0. With a premise no instance
// of an enumerable box meets (n > 1000*t), nothing is listed, nothing
// is explored, and the reason says so rather than that the small
// instances were explored.
func TestInstancesBeyondBox(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "styles", "bosco-last-waits.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	solver := z3.New()
	ctx := context.Background()
	scoped := func(src string) (*counterabs.ParamModel, presburger.TransitionSystem) {
		t.Helper()
		sys, err := gsst.Parse("bosco-last-waits.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		m, err := counterabs.BuildParamGroup(sys, counterabs.RunSteps())
		if err != nil {
			t.Fatal(err)
		}
		a, ok, err := askLive(ctx, solver, m, "fast0")
		if err != nil || !ok {
			t.Fatalf("askLive: %v, %v", ok, err)
		}
		return a.m, a.m.TransitionSystem().Question(nil)
	}
	m, ts := scoped(string(src))
	if small := instancesUpTo(m, ts, searchMax); len(small) != 0 {
		t.Fatalf("the scoped model has small instances %v, want none", small)
	}
	insts := smallInstances(m, ts)
	if len(insts) == 0 {
		t.Fatal("smallInstances lists no instance")
	}
	free := freeChoices(m)
	sum := func(p presburger.Model) (s int64) {
		for _, v := range free {
			s += p[v]
		}
		return s
	}
	n, tv, f := m.ParamVar(0), m.ParamVar(1), m.ParamVar(2)
	if p := insts[0]; p[n] != 6 || p[tv] != 1 || p[f] != 0 {
		t.Errorf("first instance n=%d t=%d f=%d, want n=6 t=1 f=0", p[n], p[tv], p[f])
	}
	constraint := paramPart(ts)
	for k, p := range insts {
		if !presburger.Eval(constraint, func(v presburger.Var) int64 { return p[v] }) {
			t.Errorf("instance %v does not meet %s", p, m.FormatFormula(constraint))
		}
		if k > 0 && sum(p) < sum(insts[k-1]) {
			t.Errorf("instance %v listed after %v, whose choices sum to more", p, insts[k-1])
		}
	}
	var res Result
	found, err := refuteLive(ctx, config{}, m, "fast0", &res)
	if err != nil {
		t.Fatal(err)
	}
	if !found || res.Verdict != Refuted {
		t.Fatalf("refuteLive found %v (%v), want the fair deadlock at n = 6", found, res.Verdict)
	}
	if got := formatParams(m.System, res.Params); got != "n=6, t=1, f=0" {
		t.Errorf("refuted at %s, want n=6, t=1, f=0", got)
	}

	// A safety property with such a premise is asked of its question's
	// initial states, and the search explores n = 6 as the first
	// instance: "n > 5*t & f = 0 -> AG #D0 = 0" fails there.
	premised := strings.Replace(string(src), "fast0: ", "early: \"n > 5*t & f = 0 -> AG #D0 = 0\"\n  fast0: ", 1)
	sys, err := gsst.Parse("bosco-early.yaml", []byte(premised))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := counterabs.BuildParamGroup(sys.WithProperties(0), counterabs.RunSteps())
	if err != nil {
		t.Fatal(err)
	}
	premise, phi, ok := counterabs.PremisedSafety(gm.Properties[0].Formula)
	if !ok {
		t.Fatalf("%s is no premised safety property", gm.Properties[0].Name)
	}
	sts := safetySystem(gm, premise, phi)
	if small := instancesUpTo(gm, sts, searchMax); len(small) != 0 {
		t.Fatalf("the safety question has small instances %v, want none", small)
	}
	states := searchStates
	cex, _ := exploreSmall(ctx, gm, sts, &states, nil)
	if cex == nil {
		t.Fatal("exploring the least instances found no run into #D0 > 0")
	}
	if p := cex.Params; p[gm.ParamVar(0)] != 6 || p[gm.ParamVar(1)] != 1 || p[gm.ParamVar(2)] != 0 {
		t.Errorf("the run is at n=%d t=%d f=%d, want n=6 t=1 f=0", p[gm.ParamVar(0)], p[gm.ParamVar(1)], p[gm.ParamVar(2)])
	}

	far := strings.Replace(string(src), "(f = 0 & n > 5*t | n > 7*t)", "n > 1000*t", 1)
	if far == string(src) {
		t.Fatal("the premise was not rewritten")
	}
	m, ts = scoped(far)
	if insts := smallInstances(m, ts); len(insts) != 0 {
		t.Fatalf("smallInstances lists %v under n > 1000*t, want none", insts[0])
	}
	res = Result{}
	if found, err := refuteLive(ctx, config{}, m, "fast0", &res); err != nil || found {
		t.Fatalf("refuteLive found %v, err %v, with no instance to explore", found, err)
	}
	if res.noLasso != noInstanceText {
		t.Errorf("the search says %q, want %q", res.noLasso, noInstanceText)
	}
}
