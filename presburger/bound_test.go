package presburger_test

import (
	"context"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

func TestBoundMethods(t *testing.T) {
	for _, tc := range []struct {
		b             pb.Bound
		rng           string
		finite, empty bool
		in, out       []int64
	}{
		{pb.Bound{Var: vx, Lo: 0, Hi: 5}, "0..5", true, false, []int64{0, 3, 5}, []int64{-1, 6}},
		{pb.Bound{Var: vx, Lo: 2, Hi: 1}, "2..1", true, true, nil, []int64{1, 2}},
		{pb.AtLeast(vx, 1), "1..", false, false, []int64{1, math.MaxInt64}, []int64{0, math.MinInt64}},
		{pb.Bound{Var: vx, Hi: -3, NoLo: true}, "..-3", false, false, []int64{-3, math.MinInt64}, []int64{-2}},
		{pb.AnyInt(vx), "..", false, false, []int64{math.MinInt64, 0, math.MaxInt64}, nil},
		// An open side ignores its number: Lo 9 with NoLo is no bound.
		{pb.Bound{Var: vx, Lo: 9, Hi: 5, NoLo: true}, "..5", false, false, []int64{5, -100}, []int64{6}},
	} {
		t.Run(tc.rng, func(t *testing.T) {
			if got := tc.b.Range(); got != tc.rng {
				t.Errorf("Range() = %q, want %q", got, tc.rng)
			}
			if tc.b.Finite() != tc.finite || tc.b.Empty() != tc.empty {
				t.Errorf("Finite %v Empty %v, want %v %v", tc.b.Finite(), tc.b.Empty(), tc.finite, tc.empty)
			}
			for _, x := range tc.in {
				if !tc.b.Contains(x) {
					t.Errorf("%d not contained", x)
				}
			}
			for _, x := range tc.out {
				if tc.b.Contains(x) {
					t.Errorf("%d contained", x)
				}
			}
		})
	}
}

// TestIntersectOpen: the intersection is open on a side only when every
// range of the variable is, and agrees with Contains on every value.
func TestIntersectOpen(t *testing.T) {
	ranges := []pb.Bound{
		{Var: vx, Lo: -2, Hi: 3}, {Var: vx, Lo: 0, Hi: 5}, pb.AtLeast(vx, 1), pb.AtLeast(vx, -4),
		{Var: vx, Hi: 2, NoLo: true}, {Var: vx, Hi: -1, NoLo: true}, pb.AnyInt(vx),
	}
	for _, a := range ranges {
		for _, b := range ranges {
			got := pb.Intersect([]pb.Bound{a, b})
			if len(got) != 1 {
				t.Fatalf("Intersect(%s, %s) = %v", a.Range(), b.Range(), got)
			}
			for x := int64(-8); x <= 8; x++ {
				if got[0].Contains(x) != (a.Contains(x) && b.Contains(x)) {
					t.Errorf("Intersect(%s, %s) = %s disagrees at %d", a.Range(), b.Range(), got[0].Range(), x)
				}
			}
			if got[0].NoLo != (a.NoLo && b.NoLo) || got[0].NoHi != (a.NoHi && b.NoHi) {
				t.Errorf("Intersect(%s, %s) = %s: wrong open sides", a.Range(), b.Range(), got[0].Range())
			}
		}
	}
}

func TestOpenRanges(t *testing.T) {
	ctx := context.Background()
	f := pb.Compare(tx, pb.Gt, ty)
	open := pb.Problem{Bounds: []pb.Bound{pb.AtLeast(vx, 0), {Var: vy, Lo: 0, Hi: 3}}, F: f}
	if err := open.CheckBounds(); err != nil {
		t.Errorf("CheckBounds on open free variables: %v", err)
	}
	// BruteForce cannot enumerate 0..: an error, never an answer.
	if a, err := (pb.BruteForce{}).Solve(ctx, open); err == nil || !strings.Contains(err.Error(), "open range 0..") {
		t.Errorf("BruteForce on 0..: got %v %v, want an error naming the range", a, err)
	}
	// Closed by a second bound, the range is enumerable.
	closed := open
	closed.Bounds = append(closed.Bounds, pb.Bound{Var: vx, Lo: -5, Hi: 1})
	a, err := (pb.BruteForce{}).Solve(ctx, closed)
	if err != nil || a.Result != pb.Sat || a.Model[vx] != 1 || a.Model[vy] != 0 {
		t.Errorf("BruteForce on 0.. & -5..1: got %v %v, want sat x=1 y=0", a, err)
	}
	// An Exists needs finite ranges: Eval enumerates them.
	ex := pb.Problem{Bounds: []pb.Bound{{Var: vx, Lo: 0, Hi: 1}},
		F: pb.Exists{Vars: []pb.Bound{pb.AtLeast(vz, 0)}, Body: pb.Compare(tz, pb.Eq, tx)}}
	if err := ex.CheckBounds(); err == nil || !strings.Contains(err.Error(), "open range") {
		t.Errorf("CheckBounds on an open Exists: %v, want an error", err)
	}
	// FoldBounds decides nothing about a variable with an open range.
	g := pb.Compare(tx, pb.Ge, k(0))
	if got := pb.FoldBounds(g, []pb.Bound{pb.AtLeast(vx, 0)}); !reflect.DeepEqual(got, g) {
		t.Errorf("FoldBounds over 0.. = %v, want the atom kept", got)
	}
	if got := pb.FoldBounds(g, []pb.Bound{pb.AtLeast(vx, 0), {Var: vx, Lo: 0, Hi: 3}}); got != pb.True {
		t.Errorf("FoldBounds over 0.. & 0..3 = %v, want true", got)
	}
}

// TestTightenRandom: Bound.Tighten keeps exactly the values of the
// range that satisfy the atom (a disequality: at least those, and
// within the range), enumerated, on random ranges and atoms.
func TestTightenRandom(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 3000; i++ {
		lo := int64(r.Intn(11) - 5)
		b := pb.Bound{Var: 0, Lo: lo, Hi: lo + int64(r.Intn(6))}
		a, k, op := int64(r.Intn(9)-4), int64(r.Intn(21)-10), pb.Op(r.Intn(6))
		got := b.Tighten(a, k, op)
		for x := b.Lo - 3; x <= b.Hi+3; x++ {
			in, want := got.Contains(x), b.Contains(x) && op.Holds(a*x+k)
			if in && !b.Contains(x) || want && !in || in != want && op != pb.Ne {
				t.Fatalf("%s tightened by %d*x + %d %s 0 is %s: x=%d in it %v, satisfies %v", b.Range(), a, k, op, got.Range(), x, in, want)
			}
		}
	}
}
