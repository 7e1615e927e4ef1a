package detect

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// recorder is a solver that answers Unsat to every problem and keeps its
// text: the bounds, in order, and the formula.
type recorder struct {
	mu       sync.Mutex
	problems []string
}

func (r *recorder) Solve(_ context.Context, p presburger.Problem) (presburger.Answer, error) {
	var b strings.Builder
	for _, x := range p.Bounds {
		fmt.Fprintf(&b, "%d:%s ", x.Var, x.Range())
	}
	b.WriteString("| ")
	b.WriteString(presburger.Format(p.F, func(v presburger.Var) string { return fmt.Sprintf("v%d", v) }))
	r.mu.Lock()
	r.problems = append(r.problems, b.String())
	r.mu.Unlock()
	return presburger.Answer{Result: presburger.Unsat}, nil
}

// queryHash certifies each system with a recorder (one worker, so the
// order of the calls is fixed) and returns the SHA-256 of every problem
// sent, with the number of problems.
func queryHash(t *testing.T, systems []*gsst.System, opts ...Option) (string, int) {
	t.Helper()
	h := sha256.New()
	n := 0
	for i, sys := range systems {
		rec := &recorder{}
		if _, err := Certify(context.Background(), sys, rec, append(opts, Workers(1))...); err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		for _, p := range rec.problems {
			fmt.Fprintf(h, "%d %s\n", i, p)
		}
		n += len(rec.problems)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), n
}

// TestPaperQueriesUnchanged pins the queries of systems within the paper
// (every step one process, no update, no transfer): the problems sent to
// the solver for 300 random systems (fixed seed), 100 random families
// over group sizes, and GR&W, whole and split, are those the Theorem 6
// query of detect sent before certification read gsst's steps (recorded
// at commit b1cb4f8): the same bounds in the same order, and the same
// formulas as printed.
func TestPaperQueriesUnchanged(t *testing.T) {
	r := rand.New(rand.NewSource(25))
	var random, families []*gsst.System
	for range 300 {
		random = append(random, testsupport.RandomSystem(r, randomConfig))
	}
	for range 100 {
		families = append(families, testsupport.RandomSystem(r, paramConfig))
	}
	grw := []*gsst.System{testsupport.GRW(2, 2, 4), testsupport.GRW(5, 3, 6), testsupport.GRW(10, 10, 10)}
	for _, tc := range []struct {
		name    string
		systems []*gsst.System
		opts    []Option
		want    string
		n       int
	}{
		{"random", random, nil, "2140ebe5071c15e5d6919d47ceb44aab2922b101779d483fe4035523d960149a", 259},
		{"random/split2", random, []Option{Split(2)}, "142b609177ce1cf96b415ac27776196490275fab108fa055f99804ad49be94a9", 355},
		{"families", families, nil, "d880f438936781ac98fc8610f6898c1d731e8cb62ed24480ffaf54e29006131e", 107},
		{"grw", grw, nil, "6a5839973c9abc58515c3cb65ac597746875925ac96e1cc46ffff70382795c0a", 3},
		{"grw/split3", grw, []Option{Split(3)}, "795a5f7c075e050bfdbc431b4048d60599515f6de2252c775766680483f166a7", 8},
	} {
		got, n := queryHash(t, tc.systems, tc.opts...)
		t.Logf("%s: %d problems, %s", tc.name, n, got)
		if got != tc.want || n != tc.n {
			t.Errorf("%s: %d problems hashing to %s, want %d hashing to %s", tc.name, n, got, tc.n, tc.want)
		}
	}
}
