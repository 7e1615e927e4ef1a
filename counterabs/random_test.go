package counterabs

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// randomConfig is what the cross-checks draw: up to 4 states, 3 groups of
// 0-2 processes (empty groups included), 3 transitions, guards of every
// style (total counters, group counters of the source or of any state,
// priority blocks), at most 256 configurations for the brute force.
var randomConfig = testsupport.Config{MaxSize: 2, EmptyGroups: true, MaxConfigs: 256, MaxTransitions: 3}

// TestRandomCrossCheck builds hundreds of random systems and compares
// every g_r, on every counter vector summing to n, with the existential
// abstraction computed by brute force from the concrete state space L^n.
// Certified systems (by brute force) must build without Force and be
// marked Certified; the others must be refused without Force (naming the
// first uncertified transition) and build with Force, marked not
// Certified, still with exact g_r.
func TestRandomCrossCheck(t *testing.T) {
	wantCertified, wantForced := 400, 160
	if testing.Short() {
		wantCertified, wantForced = 60, 25
	}
	crossCheck(t, 7, wantCertified, wantForced, nil)
}

// TestRandomCrossCheckOptions repeats the cross-check with the solver
// simplification off and a clause limit of 1, which sends most guards to
// projection and leaves DNFs unsimplified.
func TestRandomCrossCheckOptions(t *testing.T) {
	crossCheck(t, 8, 100, 50, []Option{MaxClauses(1), Simplify(false)})
}

func crossCheck(t *testing.T, seed int64, wantCertified, wantForced int, extra []Option) {
	r := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	cases := map[Case]int{}     // all systems
	certCases := map[Case]int{} // certified systems, multi-group only
	certified, forced, mayDead := 0, 0, 0
	// uncovered reports whether some case is below the counts asserted at
	// the end: the sample grows past the wanted sizes until every case is
	// exercised, so a short run stays small and still covers each case.
	uncovered := func() bool {
		if extra != nil {
			return false
		}
		for c := CaseA; c <= CaseProjection; c++ {
			if cases[c] < 10 || certCases[c] < 3 {
				return true
			}
		}
		return false
	}
	for try := 0; try < 20000 && (certified < wantCertified || forced < wantForced || uncovered()); try++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		brute := testsupport.BruteForce(sys)
		firstBad := brute.FirstViolated()
		if firstBad < 0 && certified >= wantCertified && !uncovered() || firstBad >= 0 && forced >= wantForced {
			continue
		}
		label := fmt.Sprintf("seed %d try %d", seed, try)
		opts := append([]Option(nil), extra...)
		if firstBad >= 0 {
			_, err := Build(ctx, sys, bf, proj, opts...)
			var nc *NotCertifiedError
			if !errors.As(err, &nc) {
				t.Fatalf("%s: uncertified system built without Force: err = %v\n%s", label, err, testsupport.Describe(sys))
			}
			if nc.Transition != &sys.Transitions[firstBad] {
				t.Fatalf("%s: refusal names %s, first uncertified is %s", label, nc.Name, sys.TransitionName(&sys.Transitions[firstBad]))
			}
			opts = append(opts, Force())
			forced++
		} else {
			certified++
		}
		m, err := Build(ctx, sys, bf, proj, opts...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", label, err, testsupport.Describe(sys))
		}
		if m.Exact != (firstBad < 0) {
			t.Fatalf("%s: Certified = %v, brute force says %v", label, m.Exact, firstBad < 0)
		}
		for _, tr := range m.Transitions {
			cases[tr.Case]++
			if firstBad < 0 && len(sys.Groups) > 1 {
				certCases[tr.Case]++
			}
		}
		if err := checkGuards(m, brute); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		// A forced model's MayDeadlock holds exactly at the totals of some
		// deadlocked configuration; an exact model has none.
		switch {
		case m.Exact && m.MayDeadlock != nil:
			t.Fatalf("%s: exact model with a deadlock over-approximation", label)
		case !m.Exact:
			mayDead++
			for j, a := range brute.Vectors {
				if got, want := evalVec(m.MayDeadlock, a), brute.MayDead[j]; got != want {
					t.Fatalf("%s: MayDeadlock = %s is %v at %v, brute force says %v\n%s", label,
						presburger.Format(m.MayDeadlock, sys.VarName), got, a, want, testsupport.Describe(sys))
				}
			}
		}
		// Deadlock holds exactly where no guard does.
		dl := m.Deadlock()
		for j, a := range brute.Vectors {
			any := false
			for i := range sys.Transitions {
				any = any || brute.Some[i][j]
			}
			if evalVec(dl, a) == any {
				t.Fatalf("%s: Deadlock is %v at %v", label, !any, a)
			}
		}
	}
	t.Logf("certified %d, forced %d (deadlock condition checked on %d), cases %v, in certified multi-group systems %v", certified, forced, mayDead, cases, certCases)
	if certified < wantCertified || forced < wantForced {
		t.Fatalf("generated only %d certified and %d uncertified systems", certified, forced)
	}
	if extra != nil {
		return
	}
	for c := CaseA; c <= CaseProjection; c++ {
		if cases[c] < 10 || certCases[c] < 3 {
			t.Errorf("case %v exercised only %d times (%d in certified multi-group systems)", c, cases[c], certCases[c])
		}
	}
}
