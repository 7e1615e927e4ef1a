package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func init() {
	solvers = append(solvers, struct {
		name     string
		s        presburger.Solver
		complete bool
	}{"z3", z3.New(), true})
}

// TestWitnessSameOnEveryRun: the workers run the parts of the queries on
// several goroutines, and Z3's model of a query depends on what its
// reused context served before, so the witness of specs/peterson-broken
// once changed from run to run (5 of 12 runs printed another); asked
// again in a fresh context (WitnessSolver), it is the same on every run,
// with one worker or several.
func TestWitnessSameOnEveryRun(t *testing.T) {
	sys, err := gsst.Load(filepath.Join("..", "specs", "peterson-broken.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	witnesses := func(workers int) string {
		rep, err := Certify(context.Background(), sys, z3.New(), Workers(workers), WitnessSolver(z3.New(z3.Fresh())))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for k, tr := range rep.Transitions {
			if w := tr.Witness; w != nil {
				fmt.Fprintf(&b, "%d: %v %v %v %d %v %v", k, w.Sizes, w.Enabled, w.Disabled, w.Group, w.Shared, w.Params)
				if w.Step != nil {
					fmt.Fprintf(&b, " %+v", *w.Step)
				}
				b.WriteString("\n")
			}
		}
		if b.Len() == 0 {
			t.Fatal("no witness: the test wants peterson-broken's")
		}
		return b.String()
	}
	want := witnesses(1)
	for run := range 12 {
		if got := witnesses(3); got != want {
			t.Fatalf("run %d with 3 workers:\n%s\nwith one:\n%s", run, got, want)
		}
	}
}

// forgetful counts the calls of Forget of a Z3 solver.
type forgetful struct {
	*z3.Solver
	forgot *int
}

func (f forgetful) Forget() { *f.forgot++; f.Solver.Forget() }

// TestCertifyForgets: after queries on several workers, Certify has the
// solver forget (presburger.Forgetter), so that the caller's next calls
// (vsym prove's proof, after the certification) do not follow models
// that depend on which worker served which query; with one worker the
// history is the same on every run, and nothing is forgotten.
func TestCertifyForgets(t *testing.T) {
	sys, err := gsst.Load(filepath.Join("..", "specs", "peterson-broken.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for workers, want := range map[int]int{1: 0, 2: 1} {
		n := 0
		if _, err := Certify(context.Background(), sys, forgetful{z3.New(), &n}, Workers(workers)); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%d workers: forgot %d times, want %d", workers, n, want)
		}
	}
}
