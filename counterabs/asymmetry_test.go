package counterabs

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestAsymmetryRandom: on random uncertified systems, Asym_r holds at a
// group-counter vector exactly when, by brute force over L^n, no process
// can take r in a configuration with those group counters while some
// configuration with the same total counters lets one.
func TestAsymmetryRandom(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	ctx := context.Background()
	// 150 uncertified systems; -short takes the first 50, which reach
	// both answers (asymmetric and not) at once.
	want := 150
	if testing.Short() {
		want = 50
	}
	systems, violated, asym := 0, 0, 0
	for try := 0; try < 5000 && systems < want; try++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		brute := testsupport.BruteForce(sys)
		if brute.Certified() {
			continue
		}
		systems++
		label := fmt.Sprintf("try %d", try)
		total, err := Build(ctx, sys, bf, proj, Force())
		if err != nil {
			t.Fatalf("%s: %v\n%s", label, err, testsupport.Describe(sys))
		}
		group, err := BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		grp, _ := testsupport.Processes(sys)
		m := len(sys.States)
		for ri := range sys.Transitions {
			if !brute.Closed(ri) {
				violated++
			}
			f, err := Asymmetry(group, total, ri)
			if err != nil {
				t.Fatal(err)
			}
			forEachState(len(grp), m, func(st []int) {
				y := make([]int, len(group.Counters))
				totals := make([]int, m)
				for p, s := range st {
					y[group.Counter(s, grp[p])]++
					totals[s]++
				}
				enabled := false
				for p := range st {
					enabled = enabled || testsupport.Enabled(sys, &sys.Transitions[ri], grp, st, p)
				}
				want := !enabled && brute.EnabledAt(ri, totals)
				got := presburger.Eval(f, func(v presburger.Var) int64 { return int64(y[v]) })
				if got != want {
					t.Fatalf("%s: Asym of %s is %v at %v, brute force says %v\n%s", label,
						sys.TransitionName(&sys.Transitions[ri]), got, y, want, testsupport.Describe(sys))
				}
				if got {
					asym++
				}
			})
		}
	}
	t.Logf("%d uncertified systems, %d violated transitions, %d asymmetric global states", systems, violated, asym)
	if systems < want || asym == 0 {
		t.Fatalf("only %d uncertified systems, %d asymmetric states", systems, asym)
	}
	// Misuse is refused.
	sys := readersWriters()
	g1, _ := BuildGroup(sys)
	g2, _ := BuildGroup(sys)
	for _, bad := range [][2]*Model{{g1, g2}, {g2, g1}} {
		if _, err := Asymmetry(bad[0], bad[1], 0); err == nil {
			t.Error("Asymmetry accepted two group-counter models")
		}
	}
}

// forEachState calls f with every global state of n processes over m
// local states (st[p] is the state of process p); f must not keep st.
func forEachState(n, m int, f func(st []int)) {
	st := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(st)
			return
		}
		for s := range m {
			st[i] = s
			rec(i + 1)
		}
	}
	rec(0)
}
