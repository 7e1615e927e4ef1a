package detect

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestUnreadSharedChangesNothing: a shared variable that nothing reads
// or writes, and a fixed parameter that nothing reads, change nothing
// about symmetry, and nothing in the report: on random systems within
// the paper (fixed seed), each such variable added (a boolean, an
// enumeration, a bounded and an unbounded integer, each with a nonzero
// initial value where its domain allows), every problem sent to the
// solver is the same, bounds and formula, and every result has the same
// verdict, reason, number of queries and witness, the variable at its
// initial value in the witness. The solver is BruteForce, whose answer
// depends on the problem alone (Z3's may depend on what it solved
// before in the same process).
func TestUnreadSharedChangesNothing(t *testing.T) {
	systems := 150
	if testing.Short() {
		systems = 40
	}
	solver := solvers[0].s
	r := rand.New(rand.NewSource(2026112626))
	ctx := context.Background()
	unread := []gsst.Shared{
		{Name: "flag", Bool: true, Hi: 1, Init: 1},
		{Name: "mode", Values: []string{"a", "b", "c"}, Hi: 2, Init: 2},
		{Name: "k", Lo: -1, Hi: 3, Init: 2},
		{Name: "count", Unbounded: true, Init: 5},
	}
	violated, unknown := 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, randomConfig)
		for _, v := range unread {
			spec := sys.Spec()
			spec.Shared = append(spec.Shared, v)
			spec.Params = append(spec.Params, gsst.Param{Name: "unused", Fixed: true, Value: 7})
			with, err := gsst.New(spec)
			if err != nil {
				t.Fatal(err)
			}
			a, b := &recorder{}, &recorder{}
			plain, err := Certify(ctx, sys, recordingSolver{a, solver}, Workers(1))
			if err != nil {
				t.Fatal(err)
			}
			added, err := Certify(ctx, with, recordingSolver{b, solver}, Workers(1))
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("system %d with %s\n%s", i, v.Name, testsupport.Describe(sys))
			if len(a.problems) != len(b.problems) {
				t.Fatalf("%s: %d queries without the variable, %d with it", where, len(a.problems), len(b.problems))
			}
			for k := range a.problems {
				fa, fb := a.problems[k], b.problems[k]
				if fa != fb {
					t.Fatalf("%s: query %d differs:\n%s\n%s", where, k, fa, fb)
				}
			}
			for k, res := range plain.Results() {
				got := added.Results()[k]
				if res.Verdict == Unknown {
					unknown++
				}
				if got.Verdict != res.Verdict || got.Reason != res.Reason || got.Queries != res.Queries {
					t.Fatalf("%s: %s: %v (%s, %d queries) with the variable, %v (%s, %d) without", where, sys.TransitionName(res.Transition),
						got.Verdict, got.Reason, got.Queries, res.Verdict, res.Reason, res.Queries)
				}
				if res.Witness == nil {
					continue
				}
				violated++
				w, u := *res.Witness, *got.Witness
				if !slices.Equal(u.Shared, []int{v.Init}) {
					t.Fatalf("%s: witness with the variable at %v, not at its initial value", where, u.Shared)
				}
				u.Shared = nil
				if fmt.Sprint(w) != fmt.Sprint(u) {
					t.Fatalf("%s: witness %+v with the variable, %+v without", where, u, w)
				}
			}
		}
	}
	t.Logf("%d systems, each with 4 unread variables: %d witnesses compared (%d results unknown, the brute force's limit)", systems, violated, unknown)
	if violated < 20 {
		t.Errorf("only %d witnesses compared", violated)
	}
}

// recordingSolver records each problem and passes it on.
type recordingSolver struct {
	rec *recorder
	presburger.Solver
}

func (s recordingSolver) Solve(ctx context.Context, p presburger.Problem) (presburger.Answer, error) {
	s.rec.Solve(ctx, p)
	return s.Solver.Solve(ctx, p)
}
