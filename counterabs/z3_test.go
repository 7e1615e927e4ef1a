package counterabs

import (
	"context"
	"errors"
	"math/rand"
	"testing"
	"time"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestZ3CrossCheck repeats the random cross-check with Z3 as solver and
// projector (its quantifier elimination for CaseProjection, its
// quantified solving for the Force check), on fewer systems.
func TestZ3CrossCheck(t *testing.T) {
	want := 150
	if testing.Short() {
		want = 30
	}
	s := z3.New(z3.Timeout(60 * time.Second)) // generous: the machine may be loaded; correctness, not speed, is checked here
	r := rand.New(rand.NewSource(11))
	ctx := context.Background()
	cases := map[Case]int{}
	done, forced := 0, 0
	for try := 0; try < 5000 && done < want; try++ {
		sys := randomSystem(r)
		c := explore(sys)
		certified := true
		for i := range sys.Transitions {
			certified = certified && c.certified(i)
		}
		var opts []Option
		if !certified {
			opts = append(opts, Force())
			forced++
		}
		m, err := Build(ctx, sys, s, s, opts...)
		if err != nil {
			t.Fatalf("try %d: %v\n%s", try, err, dump(sys))
		}
		done++
		if m.Exact != certified {
			t.Fatalf("try %d: Certified = %v, brute force says %v", try, m.Exact, certified)
		}
		for i, tr := range m.Transitions {
			cases[tr.Case]++
			for _, a := range c.vectors {
				if got, want := evalVec(tr.Guard, a), c.some[i][vecKey(a)]; got != want {
					t.Fatalf("try %d: %s: g = %s (case %v) is %v at %v, brute force says %v\n%s", try,
						sys.TransitionName(&sys.Transitions[tr.Local]), presburger.Format(tr.Guard, sys.VarName), tr.Case, got, a, want, dump(sys))
				}
			}
		}
	}
	t.Logf("%d systems (%d forced), cases %v", done, forced, cases)
	if cases[CaseProjection] == 0 || forced == 0 || forced == done {
		t.Error("projection, certified or forced path not exercised")
	}
}

// TestZ3PaperExample builds the R&W with Z3 and checks the guard text.
func TestZ3PaperExample(t *testing.T) {
	s := z3.New(z3.Timeout(60 * time.Second)) // generous: the machine may be loaded; correctness, not speed, is checked here
	sys := readersWriters()
	m, err := Build(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	if got := presburger.Format(m.Transitions[1].Guard, sys.VarName); got != "#T >= 1 & #C = 0" {
		t.Errorf("g = %q", got)
	}
}

// TestUnknown: a cancelled context makes Build fail with errkind.Unknown,
// never with a model.
func TestUnknown(t *testing.T) {
	s := z3.New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := Build(ctx, readersWriters(), s, s)
	if m != nil || !errors.Is(err, errkind.Unknown) {
		t.Fatalf("Build = %v, %v; want nil, errkind.Unknown", m, err)
	}
}
