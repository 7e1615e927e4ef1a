package z3

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// rank is the rank of the integer vectors, by Gaussian elimination:
// independent of the joins it checks.
func rank(vs [][]*big.Int) int {
	rows := make([][]*big.Int, len(vs))
	for i, v := range vs {
		rows[i] = make([]*big.Int, len(v))
		for j, x := range v {
			rows[i][j] = new(big.Int).Set(x)
		}
	}
	r := 0
	for col := 0; len(rows) > 0 && col < len(rows[0]) && r < len(rows); col++ {
		k := r
		for k < len(rows) && rows[k][col].Sign() == 0 {
			k++
		}
		if k == len(rows) {
			continue
		}
		rows[r], rows[k] = rows[k], rows[r]
		for i := r + 1; i < len(rows); i++ {
			// row_i = p*row_i - q*row_r, which clears column col.
			p, q := new(big.Int).Set(rows[r][col]), new(big.Int).Set(rows[i][col])
			for j := range rows[i] {
				rows[i][j].Sub(new(big.Int).Mul(p, rows[i][j]), new(big.Int).Mul(q, rows[r][j]))
			}
		}
		r++
	}
	return r
}

// TestJoinPoint: joining random points one by one gives equalities that
// hold at every point, are independent and as many as the dimension
// leaves (n - rank of the differences), each in lowest terms with a
// positive first coefficient.
func TestJoinPoint(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 500; trial++ {
		n := 1 + r.Intn(6)
		dirs := make([][]int64, r.Intn(n+1))
		for i := range dirs {
			dirs[i] = make([]int64, n)
			for j := range dirs[i] {
				if r.Intn(2) == 0 {
					dirs[i][j] = int64(r.Intn(7) - 3)
				}
			}
		}
		p0 := make([]int64, n)
		for j := range p0 {
			p0[j] = int64(r.Intn(21) - 10)
		}
		var pts [][]*big.Int
		for k := 0; k < 1+r.Intn(n+2); k++ {
			p := make([]*big.Int, n)
			for j := range p {
				x := p0[j]
				for _, d := range dirs {
					x += int64(r.Intn(5)-2) * d[j]
				}
				p[j] = big.NewInt(x)
			}
			pts = append(pts, p)
		}
		eqs := pointEqualities(pts[0])
		for _, p := range pts[1:] {
			eqs = joinPoint(eqs, p)
		}
		var diffs, coefs [][]*big.Int
		for _, p := range pts[1:] {
			d := make([]*big.Int, n)
			for j := range d {
				d[j] = new(big.Int).Sub(p[j], pts[0][j])
			}
			diffs = append(diffs, d)
		}
		for _, e := range eqs {
			coefs = append(coefs, e[:n])
			for _, p := range pts {
				s := new(big.Int)
				for j := range p {
					s.Add(s, new(big.Int).Mul(e[j], p[j]))
				}
				if s.Cmp(e[n]) != 0 {
					t.Fatalf("trial %d: equality %v fails at %v", trial, e, p)
				}
			}
			g := new(big.Int)
			first := 0
			for _, a := range e[:n] {
				g.GCD(nil, nil, g, new(big.Int).Abs(a))
				if first == 0 && a.Sign() != 0 {
					first = a.Sign()
				}
			}
			if g.Cmp(big.NewInt(1)) != 0 || first != 1 {
				t.Fatalf("trial %d: equality %v not normalized", trial, e)
			}
		}
		if want := n - rank(diffs); len(eqs) != want || rank(coefs) != len(eqs) {
			t.Fatalf("trial %d: %d equalities of rank %d, want %d independent ones", trial, len(eqs), rank(coefs), want)
		}
	}
}

// grwSystem is the GR&W counter model with m counters (variables
// 0..m-1, next copies m..2m-1) and n >= 1 (variable 2m); guarded, the
// move into the last counter requires it to be empty.
func grwSystem(m int, guarded bool) presburger.TransitionSystem {
	x := func(i int) presburger.Var { return presburger.Var(i) }
	n := presburger.Var(2 * m)
	ts := presburger.TransitionSystem{Params: []presburger.Var{n}, Domain: []presburger.Bound{presburger.AtLeast(n, 1)}}
	init := []presburger.Formula{presburger.Compare(presburger.VarTerm(x(0)), presburger.Eq, presburger.VarTerm(n))}
	for i := 0; i < m; i++ {
		ts.Vars = append(ts.Vars, x(i))
		ts.Next = append(ts.Next, presburger.Var(m+i))
		ts.Domain = append(ts.Domain, presburger.AtLeast(x(i), 0))
		if i > 0 {
			init = append(init, presburger.Compare(presburger.VarTerm(x(i)), presburger.Eq, presburger.ConstTerm(0)))
		}
		conj := []presburger.Formula{presburger.Compare(presburger.VarTerm(x(i)), presburger.Ge, presburger.ConstTerm(1))}
		if guarded && i == m-2 {
			conj = append(conj, presburger.Compare(presburger.VarTerm(x(m-1)), presburger.Eq, presburger.ConstTerm(0)))
		}
		for k := 0; k < m; k++ {
			t := presburger.VarTerm(x(k))
			switch k {
			case i:
				t = t.Add(presburger.ConstTerm(-1))
			case (i + 1) % m:
				t = t.Add(presburger.ConstTerm(1))
			}
			conj = append(conj, presburger.Compare(presburger.VarTerm(presburger.Var(m+k)), presburger.Eq, t))
		}
		ts.Trans = append(ts.Trans, presburger.Conj(conj...))
	}
	ts.Init = presburger.Conj(init...)
	ts.Bad = presburger.Compare(presburger.VarTerm(x(m-1)), presburger.Ge, presburger.ConstTerm(2))
	return ts
}

// TestAffineHullGRW: the hull of GR&W with m counters is the one
// conservation law x0 + ... + x(m-1) = n, which alone does not exclude
// x(m-1) >= 2.
func TestAffineHullGRW(t *testing.T) {
	z, err := solvePool.acquire()
	if err != nil {
		t.Fatal(err)
	}
	eqs, ok, enough, err := New().affineHull(context.Background(), z, grwSystem(5, true))
	solvePool.release(z, err == nil)
	if err != nil || !ok || enough {
		t.Fatalf("got %v ok %v enough %v err %v", eqs, ok, enough, err)
	}
	name := func(v presburger.Var) string { return fmt.Sprintf("v%d", v) }
	if got := presburger.Format(presburger.Conj(eqs...), name); got != "v0 + v1 + v2 + v3 + v4 - v10 = 0" {
		t.Errorf("hull %s, want the sum of the counters equal to n", got)
	}
}

// BenchmarkAffineHullGRW measures the affine hull alone on GR&W.
func BenchmarkAffineHullGRW(b *testing.B) {
	for _, m := range []int{10, 30} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			ts := grwSystem(m, true)
			for i := 0; i < b.N; i++ {
				z, err := solvePool.acquire()
				if err != nil {
					b.Fatal(err)
				}
				_, ok, _, err := New().affineHull(context.Background(), z, ts)
				solvePool.release(z, err == nil)
				if err != nil || !ok {
					b.Fatal(err)
				}
			}
		})
	}
}
