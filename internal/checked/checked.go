package checked

import "math/bits"

// Limit is the largest magnitude Mul returns. A value within it can be
// negated safely; the sum of two such values still overflows when both
// are +2^62, so sums go through Add.
const Limit = 1 << 62

// Add returns a+b, or false when the sum does not fit in int64.
func Add(a, b int64) (int64, bool) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, false
	}
	return s, true
}

// Mul returns a*b, or false when its magnitude exceeds Limit.
func Mul(a, b int64) (int64, bool) {
	if a == -1<<63 || b == -1<<63 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > Limit {
		return 0, false
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

// FloorDiv and CeilDiv return a/d rounded toward -inf and +inf; d > 0.
// (Go's / rounds toward zero.)
func FloorDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && a < 0 {
		q--
	}
	return q
}

func CeilDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && a > 0 {
		q++
	}
	return q
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
