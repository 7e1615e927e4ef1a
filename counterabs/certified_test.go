package counterabs

import (
	"context"
	"fmt"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// countingSolver counts the queries it passes on.
type countingSolver struct {
	presburger.Solver
	n int
}

func (c *countingSolver) Solve(ctx context.Context, p presburger.Problem) (presburger.Answer, error) {
	c.n++
	return c.Solver.Solve(ctx, p)
}

// TestBuildParamCertified checks that BuildParam reads the certification
// it is handed for its system, or that system with other properties
// (asking no query of its own), and certifies again for any other
// system's: a report that says another system is certified must not
// make this one's model total-counter.
func TestBuildParamCertified(t *testing.T) {
	const src = `states: [A, B]
groups: {p: 1.., q: 1..}
init: A
transitions:
- {from: A, to: B, guard: %s}
properties:
  one: "AG #B >= 0"
  two: "AG #A >= 0"
`
	parse := func(guard string) *gsst.System {
		sys, err := gsst.Parse("certified.yaml", []byte(fmt.Sprintf(src, guard)))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	ctx := context.Background()
	s := z3.New()
	symmetric := parse(`"#B = 0"`)
	cert, err := detect.Certify(ctx, symmetric, s)
	if err != nil || !cert.Certified() {
		t.Fatalf("the symmetric system is not certified (%v)", err)
	}
	count := &countingSolver{Solver: s}
	m, err := BuildParam(ctx, symmetric.WithProperties(1), count, Certified(cert))
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != TotalLevel || count.n != 0 {
		t.Errorf("with its certification: %v, %d queries; want the total-counter model and none", m.Level, count.n)
	}
	// Another system, not symmetric: p and q read by different guards.
	other := parse(`{p: "#B = 0", q: "#B[p] = 0"}`)
	m, err = BuildParam(ctx, other, count, Certified(cert))
	if err != nil {
		t.Fatal(err)
	}
	if m.Level == TotalLevel || count.n == 0 {
		t.Errorf("with another system's certification: %v, %d queries; want it certified again, the group-counter model", m.Level, count.n)
	}
}
