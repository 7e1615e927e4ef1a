package counterabs

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestZ3CrossCheck repeats the random cross-check with Z3 as solver and
// projector (its quantifier elimination for CaseProjection, its
// quantified solving for the Force check), on fewer systems.
func TestZ3CrossCheck(t *testing.T) {
	wantCertified, wantForced := 150, 45
	if testing.Short() {
		wantCertified, wantForced = 20, 10
	}
	s := z3.New() // no clock: correctness, not speed, is checked here (go test -timeout guards against a hang)
	r := rand.New(rand.NewSource(11))
	ctx := context.Background()
	cases := map[Case]int{}
	done, forced := 0, 0
	for try := 0; try < 5000 && (done-forced < wantCertified || forced < wantForced); try++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		brute := testsupport.BruteForce(sys)
		certified := brute.Certified()
		if certified && done-forced >= wantCertified || !certified && forced >= wantForced {
			continue
		}
		var opts []Option
		if !certified {
			opts = append(opts, Force())
			forced++
		}
		m, err := Build(ctx, sys, s, s, opts...)
		if err != nil {
			t.Fatalf("try %d: %v\n%s", try, err, testsupport.Describe(sys))
		}
		done++
		if m.Exact != certified {
			t.Fatalf("try %d: Certified = %v, brute force says %v", try, m.Exact, certified)
		}
		for _, tr := range m.Transitions {
			cases[tr.Case]++
		}
		if err := checkGuards(m, brute); err != nil {
			t.Fatalf("try %d: %v", try, err)
		}
	}
	t.Logf("%d systems (%d forced), cases %v", done, forced, cases)
	if cases[CaseProjection] == 0 || forced == 0 || forced == done {
		t.Error("projection, certified or forced path not exercised")
	}
}

// TestZ3PaperExample builds the R&W with Z3 and checks the guard text.
func TestZ3PaperExample(t *testing.T) {
	s := z3.New() // no clock: correctness, not speed, is checked here (go test -timeout guards against a hang)
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
