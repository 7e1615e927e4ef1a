package explore_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/nusmv"
)

var nusmvVerdict = regexp.MustCompile(`(?m)^-- specification .* is (true|false)$`)

// runNuSMV runs the binary on text and returns the verdicts of its
// specifications, in order.
func runNuSMV(t *testing.T, bin, text string, args ...string) []bool {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "m.smv")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, append(append([]string{"-dcx"}, args...), file)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("NuSMV: %v\n%s\nmodel:\n%s", err, out.String(), text)
	}
	var v []bool
	for _, m := range nusmvVerdict.FindAllStringSubmatch(out.String(), -1) {
		v = append(v, m[1] == "true")
	}
	return v
}

// TestNuSMVFairness runs the real NuSMV 2.6 (the binary named by the
// environment variable NUSMV) on the models vsym emits for random small
// systems with fairness constraints (JUSTICE, with weak fairness of
// transitions on the transition input variable): the group-counter model,
// the total-counter model of the certified ones, and the concrete model.
// Its verdicts must equal vsym's, which equal the oracle's.
func TestNuSMVFairness(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("set NUSMV to a NuSMV 2.6 binary to run the emitted models")
	}
	r := rand.New(rand.NewSource(9041))
	const systems = 120
	compared, models := 0, 0
	for k := 0; k < systems; k++ {
		total := k%2 == 1
		sys := explore.RandomSystem(r, fmt.Sprintf("smv%d", k), !total, total)
		if sys.Fairness.Empty() {
			continue
		}
		o := explore.NewOracle(sys)
		want := make([]bool, len(sys.Properties))
		for i, p := range sys.Properties {
			want[i] = o.Holds(p.Formula)
		}
		check := func(what, text string, args ...string) {
			got := runNuSMV(t, bin, text, args...)
			models++
			if len(got) != len(want) {
				t.Fatalf("%s: %s: NuSMV gave %d verdicts for %d properties\n%s", sys.Name, what, len(got), len(want), text)
			}
			for i := range want {
				compared++
				if got[i] != want[i] {
					t.Errorf("%s: %s: property %s: NuSMV says %v, vsym %v\n%s\n%s", sys.Name, what, sys.Properties[i].Name, got[i], want[i], explore.Describe(sys), text)
				}
			}
		}
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := explore.Explicit{}.Check(context.Background(), gm, explore.Traces(false))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range rep.Properties {
			if p.Holds != want[i] {
				t.Fatalf("%s: vsym and the oracle disagree on %s", sys.Name, p.Name)
			}
		}
		text, err := nusmv.Reduced(gm)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{}
		if k%3 == 0 {
			args = append(args, "-df") // no reachable states first
		}
		check("group-counter model", text, args...)
		if total {
			if am, certified := explore.BruteCertified(sys); certified {
				text, err := nusmv.Reduced(am)
				if err != nil {
					t.Fatal(err)
				}
				check("total-counter model", text, args...)
			}
		}
		text, err = nusmv.Concrete(sys)
		if err != nil {
			t.Fatal(err)
		}
		check("concrete model", text, args...)
	}
	t.Logf("NuSMV at %s: %d emitted models of random systems with fairness, %d verdicts compared", bin, models, compared)
	if compared < systems {
		t.Errorf("too few verdicts compared")
	}
}
