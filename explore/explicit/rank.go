package explicit

import "math/bits"

// ranker numbers the vectors of a space perfectly: each pool's counters
// (k counters summing to a fixed s) get their rank among all such
// compositions in lexicographic order (the combinatorial number system),
// and the pools combine in mixed radix. When the rank space is small the
// breadth-first search marks visited states in a bitmap over it, one bit
// per possible vector, instead of probing a hash table: a membership test
// is one bit, and the hash index the model checker needs is built once,
// at its final size, after the search.
//
// The rank of x among compositions of s into k parts is
//
//	sum over i < k-1 of C(r_i + j_i, j_i) - C(r_i - x_i + j_i, j_i)
//
// where j_i = k-1-i parts follow position i and r_i = s - x_0 - ... -
// x_(i-1) remains: the hockey-stick identity sums the counts of
// compositions whose i-th part is smaller than x_i.
// Summing the hockey-stick terms telescopes to
//
//	rank = C(s+k-1, k-1) - 1 - sum over 1 <= i < k of T_i(r_i)
//
// with T_i(r) = C(r+k-1-i, k-i): each term depends on one prefix
// remainder r_i only. A move from position a to position b of a pool
// changes r_i by one for i between them, so the successor's rank is the
// current rank plus a few table differences (one for moves between
// neighbouring states), with no full re-ranking.
type ranker struct {
	pools []rankPool
	moves []rankMove
	size  uint64 // number of ranks
	rems  [][]int64
	cur   uint64
}

type rankPool struct {
	idx   []int32
	sum   int64
	radix uint64
	base  uint64     // C(s+k-1, k-1) - 1
	t     [][]uint64 // t[i][r] = T_i(r), 1 <= i < k, 0 <= r <= s
}

// rankMove places a move's source and target counters in their pool.
type rankMove struct {
	pool, a, b int
}

// Limits for using a bitmap over the rank space: at most maxDenseBits
// bits (16 MiB) and binomial tables of at most maxBinomEntries words.
const (
	maxDenseBits    = 1 << 27
	maxBinomEntries = 1 << 22
)

// newRanker returns the ranker of sp, or nil when the rank space or the
// tables would be too large.
func newRanker(sp *space) *ranker {
	rk := &ranker{size: 1}
	entries := 0
	for _, pl := range sp.pools {
		k, s := len(pl.idx), int(pl.sum)
		entries += k * (s + 1)
		if entries > maxBinomEntries {
			return nil
		}
		// binom[j][r] = C(r+j, j), by Pascal's rule, capped.
		binom := make([][]uint64, k)
		for j := range binom {
			binom[j] = make([]uint64, s+1)
			for r := 0; r <= s; r++ {
				switch {
				case j == 0 || r == 0:
					binom[j][r] = 1
				default:
					sum, carry := bits.Add64(binom[j-1][r], binom[j][r-1], 0)
					if carry != 0 || sum > maxDenseBits {
						sum = maxDenseBits + 1 // saturate: only too-large spaces need it
					}
					binom[j][r] = sum
				}
			}
		}
		count := binom[k-1][s] // C(s+k-1, k-1)
		if count > maxDenseBits {
			return nil
		}
		rp := rankPool{idx: pl.idx, sum: pl.sum, radix: rk.size, base: count - 1, t: make([][]uint64, k)}
		for i := 1; i < k; i++ {
			// T_i(r) = C(r+k-1-i, k-i) = C((r-1)+(k-i), k-i) = binom[k-i][r-1]; T_i(0) = 0.
			row := make([]uint64, s+1)
			for r := 1; r <= s; r++ {
				row[r] = binom[k-i][r-1]
			}
			rp.t[i] = row
		}
		hi, lo := bits.Mul64(rk.size, count)
		if hi != 0 || lo > maxDenseBits {
			return nil
		}
		rk.size = lo
		rk.pools = append(rk.pools, rp)
		rk.rems = append(rk.rems, make([]int64, k))
	}
	for _, mv := range sp.moves {
		rm := rankMove{pool: -1}
		for p, rp := range rk.pools {
			for i, x := range rp.idx {
				if x == mv.src {
					rm.pool, rm.a = p, i
				}
			}
		}
		if rm.pool < 0 {
			return nil
		}
		for i, x := range rk.pools[rm.pool].idx {
			if x == mv.dst {
				rm.b = i
			}
		}
		rk.moves = append(rk.moves, rm)
	}
	return rk
}

// rank returns the rank of valuation v.
func (rk *ranker) rank(v []int64) uint64 {
	rk.prepare(v)
	return rk.cur
}

// prepare records v's prefix remainders and rank, for succ.
func (rk *ranker) prepare(v []int64) {
	var out uint64
	for p := range rk.pools {
		rp := &rk.pools[p]
		rems := rk.rems[p]
		r := rp.base
		rem := rp.sum
		for i := 1; i < len(rp.idx); i++ {
			rem -= v[rp.idx[i-1]]
			rems[i] = rem
			r -= rp.t[i][rem]
		}
		out += r * rp.radix
	}
	rk.cur = out
}

// succ returns the rank after move mi from the prepared valuation.
func (rk *ranker) succ(mi int) uint64 {
	m := &rk.moves[mi]
	rp := &rk.pools[m.pool]
	rems := rk.rems[m.pool]
	var d uint64 // rank decrease, modulo 2^64
	if m.a < m.b {
		// r_i grows by one for a < i <= b.
		for i := m.a + 1; i <= m.b; i++ {
			d += rp.t[i][rems[i]+1] - rp.t[i][rems[i]]
		}
	} else {
		for i := m.b + 1; i <= m.a; i++ {
			d += rp.t[i][rems[i]-1] - rp.t[i][rems[i]]
		}
	}
	return rk.cur - d*rp.radix
}
