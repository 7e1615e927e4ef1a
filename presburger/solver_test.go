package presburger_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	pb "github.com/vsym/vsym/presburger"
)

func TestResultString(t *testing.T) {
	for r, want := range map[pb.Result]string{pb.Sat: "sat", pb.Unsat: "unsat", pb.Unknown: "unknown"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(r), r.String(), want)
		}
	}
}

func TestCheckBounds(t *testing.T) {
	f := pb.Conj(pb.Compare(tx, pb.Lt, ty),
		pb.Exists{Vars: []pb.Bound{{Var: vz, Lo: 0, Hi: 1}}, Body: pb.Compare(tz, pb.Eq, tx)})
	for _, tc := range []struct {
		name   string
		bounds []pb.Bound
		errHas string
	}{
		{"ok", []pb.Bound{{Var: vx, Lo: 0, Hi: 1}, {Var: vy, Lo: 0, Hi: 0}}, ""},
		{"missing", []pb.Bound{{Var: vx, Lo: 0, Hi: 1}}, "variable 1 has no bound"},
		{"empty", []pb.Bound{{Var: vx, Lo: 0, Hi: 1}, {Var: vy, Lo: 1, Hi: 0}}, "empty range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pb.Problem{Bounds: tc.bounds, F: f}.CheckBounds()
			switch {
			case tc.errHas == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)):
				t.Errorf("error %v, want one containing %q", err, tc.errHas)
			}
		})
	}
}

// TestBruteForceRandom checks BruteForce's answers against an
// independent enumeration with forAll: Sat exactly when some assignment
// satisfies the formula, and then with a model in range that does.
func TestBruteForceRandom(t *testing.T) {
	g := newGen(5, 3)
	count := map[pb.Result]int{}
	for i := 0; i < 400; i++ {
		p := pb.Problem{Bounds: g.bounds(), F: g.formula(4, g.vars())}
		a, err := pb.BruteForce{}.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		count[a.Result]++
		want := false
		forAll(p.Bounds, func(val func(pb.Var) int64) { want = want || pb.Eval(p.F, val) })
		if (a.Result == pb.Sat) != want || a.Result == pb.Unknown {
			t.Fatalf("%s: got %v, want sat=%v", pb.Format(p.F, name), a.Result, want)
		}
		if a.Result == pb.Sat {
			for _, b := range p.Bounds {
				if x, ok := a.Model[b.Var]; !ok || x < b.Lo || x > b.Hi {
					t.Fatalf("model %v out of bounds %v", a.Model, p.Bounds)
				}
			}
			if !pb.Eval(p.F, func(v pb.Var) int64 { return a.Model[v] }) {
				t.Fatalf("model %v does not satisfy %s", a.Model, pb.Format(p.F, name))
			}
		}
	}
	if count[pb.Sat] < 40 || count[pb.Unsat] < 40 {
		t.Errorf("unbalanced sample %v", count)
	}
}

func TestBruteForceUnknown(t *testing.T) {
	big := pb.Problem{
		Bounds: []pb.Bound{{Var: vx, Lo: 0, Hi: 999}, {Var: vy, Lo: 0, Hi: 999}},
		F:      pb.Compare(tx.Add(ty), pb.Lt, k(0)), // unsat: the whole space is searched
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		bf   pb.BruteForce
		ctx  context.Context
		want pb.Result
	}{
		{"within-limit", pb.BruteForce{}, context.Background(), pb.Unsat},
		{"over-limit", pb.BruteForce{Limit: 999_999}, context.Background(), pb.Unknown},
		{"at-limit", pb.BruteForce{Limit: 1_000_000}, context.Background(), pb.Unsat},
		{"cancelled", pb.BruteForce{}, cancelled, pb.Unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.bf.Solve(tc.ctx, big)
			if err != nil {
				t.Fatal(err)
			}
			if a.Result != tc.want {
				t.Errorf("got %v, want %v", a.Result, tc.want)
			}
			if a.Result == pb.Unknown && a.Reason == "" {
				t.Error("Unknown without a reason")
			}
		})
	}
	// The product of range sizes must not wrap to a small number: the
	// limit, not the deadline, has to stop this search.
	huge := pb.Problem{Bounds: []pb.Bound{
		{Var: 0, Lo: 0, Hi: 1 << 40}, {Var: 1, Lo: 0, Hi: 1 << 40}, {Var: 2, Lo: 0, Hi: 1 << 40}}, F: pb.False}
	ctx, cancel2 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel2()
	a, err := (pb.BruteForce{Limit: 1 << 62}).Solve(ctx, huge)
	if err != nil || a.Result != pb.Unknown || !strings.Contains(a.Reason, "limit") {
		t.Errorf("huge space: got %v %v, want unknown for the limit", a, err)
	}
}

// TestBruteForceBounds: a variable bounded twice lies in the intersection
// of its ranges (as for the Z3 solver and FoldBounds), and a range that
// ends at MaxInt64 is enumerated without wrapping around.
func TestBruteForceBounds(t *testing.T) {
	x := pb.Bound{Var: vx, Lo: 0, Hi: 5}
	for _, tc := range []struct {
		name   string
		bounds []pb.Bound
		f      pb.Formula
		want   pb.Result
	}{
		{"intersection-sat", []pb.Bound{x, {Var: vx, Lo: 3, Hi: 9}}, pb.Compare(tx, pb.Lt, k(4)), pb.Sat},
		{"intersection-unsat", []pb.Bound{x, {Var: vx, Lo: 3, Hi: 9}}, pb.Compare(tx, pb.Gt, k(5)), pb.Unsat},
		{"later-bound-first", []pb.Bound{{Var: vx, Lo: 3, Hi: 9}, x}, pb.Compare(tx, pb.Gt, k(5)), pb.Unsat},
		{"disjoint", []pb.Bound{x, {Var: vx, Lo: 7, Hi: 9}}, pb.True, pb.Unsat},
		{"top-of-int64", []pb.Bound{{Var: vx, Lo: math.MaxInt64 - 1, Hi: math.MaxInt64}},
			pb.Cmp{Op: pb.Gt, T: tx.Add(k(-math.MaxInt64))}, pb.Unsat},
		{"top-of-int64-sat", []pb.Bound{{Var: vx, Lo: math.MaxInt64 - 1, Hi: math.MaxInt64}},
			pb.Cmp{Op: pb.Eq, T: tx.Add(k(-math.MaxInt64))}, pb.Sat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pb.Problem{Bounds: tc.bounds, F: tc.f}
			a, err := pb.BruteForce{}.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if a.Result != tc.want {
				t.Fatalf("got %v %v, want %v", a.Result, a.Model, tc.want)
			}
			if a.Result != pb.Sat {
				return
			}
			for _, b := range tc.bounds {
				if m := a.Model[b.Var]; m < b.Lo || m > b.Hi {
					t.Errorf("model %v outside bound %+v", a.Model, b)
				}
			}
			if !pb.Eval(tc.f, func(v pb.Var) int64 { return a.Model[v] }) {
				t.Errorf("model %v does not satisfy the formula", a.Model)
			}
		})
	}
}

func TestBruteForceMalformed(t *testing.T) {
	p := pb.Problem{Bounds: []pb.Bound{{Var: vx, Lo: 0, Hi: 1}}, F: pb.Compare(tx, pb.Lt, ty)}
	if a, err := (pb.BruteForce{}).Solve(context.Background(), p); err == nil {
		t.Errorf("got %v, want an error for the unbounded variable", a)
	}
}

// forgetful counts the calls of Forget.
type forgetful struct {
	pb.BruteForce
	forgot *int
}

func (f forgetful) Forget() { *f.forgot++ }

// TestChainForgets: a Chain forgets by having each of its solvers that
// can forget do so.
func TestChainForgets(t *testing.T) {
	n := 0
	c := pb.NewChain(pb.Quick{}, forgetful{pb.BruteForce{Limit: 10}, &n}, forgetful{pb.BruteForce{Limit: 10}, &n})
	pb.Forget(c)
	if n != 2 {
		t.Errorf("%d solvers forgot, want 2", n)
	}
	pb.Forget(pb.Quick{}) // no Forgetter: nothing to do
}
