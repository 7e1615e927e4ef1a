package symbolic

import (
	"context"
	"errors"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestLinearExhaustive compares the BDD of random linear comparisons over
// up to 8 bits with direct evaluation on every assignment, for every
// operator and for weights large enough to exercise the cut-offs.
func TestLinearExhaustive(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	const nv = 8
	b, err := rudd.New(nv)
	if err != nil {
		t.Fatal(err)
	}
	for iter := 0; iter < 400; iter++ {
		var terms []bitTerm
		for k := 0; k < 1+r.Intn(nv); k++ {
			w := int64(r.Intn(41) - 20)
			if r.Intn(5) == 0 {
				w *= 1_000_000_007
			}
			terms = append(terms, bitTerm{level: r.Intn(nv), weight: w}) // repeated levels allowed
		}
		c := int64(r.Intn(81) - 40)
		op := presburger.Op(r.Intn(6))
		n, err := linear(b, terms, c, op)
		if err != nil {
			t.Fatal(err)
		}
		for a := 0; a < 1<<nv; a++ {
			sum := c
			for _, tm := range terms {
				if a>>tm.level&1 == 1 {
					sum += tm.weight
				}
			}
			want := presburger.Eval(presburger.Cmp{Op: op, T: presburger.ConstTerm(sum)}, nil)
			if got := evalBDD(b, n, a); got != want {
				t.Fatalf("terms %v c %d op %v, assignment %b: bdd %v, want %v", terms, c, op, a, got, want)
			}
		}
	}
}

func evalBDD(b *rudd.BDD, n rudd.Node, a int) bool {
	for *n > 1 {
		if a>>b.Label(n)&1 == 1 {
			n = b.High(n)
		} else {
			n = b.Low(n)
		}
	}
	return *n == 1
}

// TestEncodingErrors: inputs the encoding cannot represent exactly are
// refused with an error, never wrapped or panicked on.
func TestEncodingErrors(t *testing.T) {
	huge := presburger.Compare(v(0).Scale(1<<55).Add(v(1).Scale(1<<55)), presburger.Ge, k(1))
	wide := presburger.Exists{Vars: []presburger.Bound{{Var: 9, Lo: 0, Hi: 1 << 20}}, Body: presburger.Compare(v(0), presburger.Eq, presburger.VarTerm(9))}
	notCounter := presburger.Compare(v(7), presburger.Ge, k(1))
	for _, tc := range []struct {
		name string
		g    presburger.Formula
	}{{"coefficients", huge}, {"quantifier", wide}, {"variable", notCounter}} {
		t.Run(tc.name, func(t *testing.T) {
			m := grw(3, 1000)
			m.Transitions[0].Guard = tc.g
			if _, err := New(m, explore.NewConfig()); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// TestCancelled: a cancelled context yields an error, never a verdict.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, reach := range []bool{true, false} {
		rep, _, err := exploreModel(ctx, grw(5, 10), WithReachable(reach))
		if !errors.Is(err, context.Canceled) || rep != nil {
			t.Fatalf("reach=%v: report %v, error %v", reach, rep, err)
		}
	}
}

// countdownCtx is a context whose Err reports cancellation from its
// left+1-th call on, so a test can stop a run at every poll point in turn.
type countdownCtx struct {
	context.Context
	left, calls int
}

func (c *countdownCtx) Err() error {
	c.calls++
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestCancelledAtEveryPoll stops a run at each of its poll points in turn,
// trace construction included (shortest paths, lassos, A[U]): every stop
// must come back as the context's error with no report. (-short takes
// every few poll points, the last included.)
func TestCancelledAtEveryPoll(t *testing.T) {
	mod := grw(4, 3)
	// Break mutual exclusion so AG fails with a path counterexample.
	mod.Transitions[2].Guard = presburger.Compare(v(2), presburger.Ge, k(1))
	atom := func(i int, op presburger.Op, c int64) ctl.Formula {
		return ctl.Atom{P: presburger.Compare(v(i), op, k(c))}
	}
	mod.System.Properties = append(mod.System.Properties,
		gsst.Property{Name: "eg", Formula: ctl.Unary{Op: ctl.EG, X: atom(3, presburger.Le, 1)}},
		gsst.Property{Name: "eu", Formula: ctl.Until{L: atom(0, presburger.Ge, 1), R: atom(3, presburger.Ge, 2)}},
		gsst.Property{Name: "au", Formula: ctl.Until{All: true, L: atom(0, presburger.Ge, 0), R: atom(3, presburger.Ge, 3)}})
	mod = reassemble(mod)
	for _, reach := range []bool{true, false} {
		full := &countdownCtx{Context: context.Background(), left: 1 << 30}
		rep, _, err := exploreModel(full, mod, WithReachable(reach))
		if err != nil {
			t.Fatal(err)
		}
		traces := 0
		for _, p := range rep.Properties {
			if p.Trace != nil {
				traces++
			}
		}
		if traces != len(rep.Properties) {
			t.Fatalf("reach=%v: %d traces for %d properties; the test wants every property to build one", reach, traces, len(rep.Properties))
		}
		// -short stops at about 40 of the poll points, the first and the
		// last among them; the full run at every one.
		stride := 1
		if testing.Short() {
			stride = max(1, full.calls/40)
		}
		for stop := 0; stop < full.calls; stop = min(stop+stride, max(stop+1, full.calls-1)) {
			rep, _, err := exploreModel(&countdownCtx{Context: context.Background(), left: stop}, mod, WithReachable(reach))
			if !errors.Is(err, context.Canceled) || rep != nil {
				t.Fatalf("reach=%v, cancelled at poll %d of %d: report %v, error %v", reach, stop, full.calls, rep != nil, err)
			}
		}
	}
}

// TestMaxStatesStopsTheFixpoint checks that explore.MaxStates stops the
// reachable-state fixpoint while it grows, not after it: a bound below
// the reachable count makes Reachable return the state limit after fewer
// poll points than the whole fixpoint takes, and a bound equal to the
// count lets it finish.
func TestMaxStatesStopsTheFixpoint(t *testing.T) {
	mod := grw(6, 40)
	reach := func(bound int64) (*big.Int, int, error) {
		e, err := New(mod, explore.NewConfig(explore.MaxStates(bound)), WithStrategy(BFS))
		if err != nil {
			t.Fatal(err)
		}
		ctx := &countdownCtx{Context: context.Background(), left: 1 << 30}
		r, err := e.Reachable(ctx)
		if err != nil {
			return nil, ctx.calls, err
		}
		return e.Count(r), ctx.calls, nil
	}
	n, full, err := reach(0)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := reach(n.Int64()); err != nil || got.Cmp(n) != 0 {
		t.Fatalf("MaxStates(%v) on %v states: %v, %v", n, n, got, err)
	}
	_, polls, err := reach(10)
	var lim *explore.LimitError
	if !errors.As(err, &lim) || lim.Kind != "states" || lim.Limit != 10 || !errors.Is(err, errkind.Limit) {
		t.Fatalf("MaxStates(10) on %v states: %v", n, err)
	}
	if polls >= full {
		t.Errorf("MaxStates(10) stopped after %d poll points, the whole fixpoint takes %d", polls, full)
	}
}
