package checked

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestAgainstBig compares Add and Mul with exact big.Int arithmetic on
// random operands of every magnitude and on the edges of int64.
func TestAgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	edges := []int64{0, 1, -1, 2, -2, Limit, -Limit, Limit + 1, 1 << 31, -(1 << 31), 1 << 32, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	var xs []int64
	xs = append(xs, edges...)
	for range 400 {
		xs = append(xs, r.Int63()>>uint(r.Intn(63))*int64(1-2*r.Intn(2)))
	}
	limit := big.NewInt(Limit)
	minI, maxI := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	for _, a := range xs {
		for _, b := range xs {
			ba, bb := big.NewInt(a), big.NewInt(b)
			sum := new(big.Int).Add(ba, bb)
			s, ok := Add(a, b)
			fits := sum.Cmp(minI) >= 0 && sum.Cmp(maxI) <= 0
			if ok != fits || ok && s != sum.Int64() {
				t.Fatalf("Add(%d, %d) = %d, %v; exact %s", a, b, s, ok, sum)
			}
			prod := new(big.Int).Mul(ba, bb)
			p, ok := Mul(a, b)
			// MinInt64 operands are refused even when the product would
			// be small (the magnitude of MinInt64 does not fit).
			fits = new(big.Int).Abs(prod).Cmp(limit) <= 0 && a != math.MinInt64 && b != math.MinInt64
			if ok != fits || ok && p != prod.Int64() {
				t.Fatalf("Mul(%d, %d) = %d, %v; exact %s", a, b, p, ok, prod)
			}
		}
	}
}

// TestDiv compares FloorDiv and CeilDiv with the quotients rounded by
// math/big, on signs and edges.
func TestDiv(t *testing.T) {
	for _, a := range []int64{0, 1, -1, 7, -7, 8, -8, Limit, -Limit, math.MaxInt64, math.MinInt64 + 1} {
		for _, d := range []int64{1, 2, 3, 8, Limit} {
			q, m := new(big.Int).DivMod(big.NewInt(a), big.NewInt(d), new(big.Int)) // Euclidean: m >= 0, so q is the floor
			if got := FloorDiv(a, d); got != q.Int64() {
				t.Errorf("FloorDiv(%d, %d) = %d, want %d", a, d, got, q)
			}
			if m.Sign() != 0 {
				q.Add(q, big.NewInt(1))
			}
			if got := CeilDiv(a, d); got != q.Int64() {
				t.Errorf("CeilDiv(%d, %d) = %d, want %d", a, d, got, q)
			}
		}
	}
}
