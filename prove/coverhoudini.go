package prove

import (
	"slices"
)

// Steps that the semi-positive invariants exclude. A translation that
// writes each finite shared variable as a group of one process (the
// "globproc" style: "v := true" a rendezvous with v's process, split by
// v's value) has, for each assignment, the case where the variable
// already holds its new value: "Iwhile := false; Igetbusyflag := true"
// with Igetbusyflag's process already in Igetbusyflag_true moves I's
// token out of Iwhile_true and puts none in. No run takes that case
// (the one-token invariant of I's program counter, #Iwhile_true +
// #Igetbusyflag_true + ... = 1, excludes it), but as a step of the
// counter system it breaks that invariant, so the Farkas algorithm
// (semiPositiveInvariants) does not find it, nor the place invariants
// that go through the lock, and the backward search keeps elements
// that they rule out (mist's queuedbusyflag so written: exhausted after
// 200 million comparisons, where the places form is proved in 0.15 s).
// linearInvariants leaves such idle cases out at first (Houdini) when
// the assignment is a shared variable's; here the step is a rendezvous
// like any other.
//
// So the invariants are computed as a least fixpoint, forward: the
// Farkas algorithm over the steps that some state satisfying the
// invariants of the steps taken so far enables, starting from the
// invariants of no step (each variable at its initial value, where it
// has one), adding the steps that the invariants found do not exclude
// (a step is excluded when y.need > c for an invariant y.x = c, as the
// search prunes its elements) until none is added. The steps left then
// are excluded by the invariants, which the steps kept preserve: the
// invariants hold in every reachable state (by induction on a run, no
// step left out is ever enabled), and the search leaves those steps
// out. A proof then states the invariants (as when they prune an
// element), and is checked on the model as every proof; a run uses the
// steps kept, and is replayed as every run.

// noHoudiniSteps turns the fixpoint off (the tests compare the
// searches with and without it); brokenHoudiniSteps stops it after its
// first round, for the test that the checks catch the steps left out
// wrongly.
var noHoudiniSteps, brokenHoudiniSteps bool

// houdiniSteps returns the semi-positive invariants of cs, and leaves
// out of cs.steps those they exclude (cs.dropped counts them). When no
// step is excluded, they are semiPositiveInvariants', as computed over
// every step.
func (cs *coverSystem) houdiniSteps() []coverInvariant {
	if noHoudiniSteps || len(cs.steps) == 0 {
		return cs.semiPositiveInvariants()
	}
	k := len(cs.lo)
	f := newFarkas(k)
	colsOf := make([][][]int64, len(cs.steps))
	touched := make([]bool, k)
	for si := range cs.steps {
		colsOf[si] = cs.stepColumns(&cs.steps[si])
		for _, col := range colsOf[si] {
			for j, v := range col {
				if v != 0 {
					touched[j] = true
				}
			}
		}
	}
	for j := range k {
		f.inert[j] = !touched[j]
	}
	in := make([]bool, len(cs.steps))
	seen := map[string]bool{}
	saved := cs.invs
	defer func() { cs.invs = saved }()
	for {
		cs.invs = cs.constantInvariants(f.rows)
		idx := cs.newInvIndex()
		back := false
		for si := range cs.steps {
			if in[si] {
				continue
			}
			f.work += int64(len(cs.invs)) + 1
			if idx.unreachable(cs, cs.steps[si].need) {
				continue
			}
			in[si], back = true, true
			for _, col := range colsOf[si] {
				if !slices.ContainsFunc(col, func(v int64) bool { return v != 0 }) {
					continue
				}
				if key := vectorKey(col); !seen[key] {
					seen[key] = true
					if !f.column(col) || f.work > maxHoudiniWork {
						return cs.semiPositiveInvariants()
					}
				}
			}
		}
		if !back || brokenHoudiniSteps {
			break
		}
		if f.work > maxHoudiniWork {
			return cs.semiPositiveInvariants()
		}
	}
	if !slices.Contains(in, false) {
		return cs.semiPositiveInvariants()
	}
	invs := cs.constantInvariants(f.rows) // cs.invs's but when broken
	var kept []coverStep
	for si, s := range cs.steps {
		if in[si] {
			kept = append(kept, s)
		} else {
			cs.dropped++
		}
	}
	cs.steps = kept
	return invs
}

// constantInvariants returns the rows of the Farkas algorithm whose
// right-hand side is a constant, as semiPositiveInvariants does.
func (cs *coverSystem) constantInvariants(rows []farkasRow) []coverInvariant {
	ys := make([][]int64, len(rows))
	for i, r := range rows {
		ys[i] = r.y
	}
	return cs.constantRows(ys)
}

// farkas is the Farkas algorithm of semiPositiveInvariants, one column
// at a time: rows are the minimal semi-positive vectors orthogonal to
// the columns given so far (the same set in any order of the columns).
type farkas struct {
	k     int
	rows  []farkasRow
	inert []bool // variables no column changes
	// work counts the rows and pairs of rows compared, and the
	// invariants that steps were compared with (houdiniSteps).
	work int64
}

// maxHoudiniWork bounds the work of houdiniSteps, beyond which the
// invariants are semiPositiveInvariants' (mist's queuedbusyflag with
// its shared variables as processes: 36 million).
const maxHoudiniWork = 100_000_000

type farkasRow struct {
	y   []int64
	sup []uint64
	// unit is the variable of an identity row (-1 for a combination).
	unit int
}

func newFarkas(k int) *farkas {
	f := &farkas{k: k, inert: make([]bool, k)}
	for j := range k {
		y := make([]int64, k)
		y[j] = 1
		f.rows = append(f.rows, farkasRow{y, f.support(y), j})
	}
	return f
}

func (f *farkas) support(y []int64) []uint64 {
	sup := make([]uint64, (f.k+63)/64)
	for j, w := range y {
		if w != 0 {
			sup[j/64] |= 1 << (j % 64)
		}
	}
	return sup
}

// column adds the column col; false when the rows would exceed
// maxInvariantRows or a weight would not fit.
func (f *farkas) column(col []int64) bool {
	var nz []int
	for j, v := range col {
		if v != 0 {
			nz = append(nz, j)
		}
	}
	var keep, pos, neg []farkasRow
	var dpos, dneg []int64
	var ipos, ineg []int
	f.work += int64(len(f.rows))
	for ri, r := range f.rows {
		d := int64(0)
		for _, j := range nz {
			if r.y[j] == 0 {
				continue
			}
			var ok bool
			if d, ok = combine(1, d, r.y[j], col[j]); !ok {
				return false
			}
		}
		switch {
		case d == 0:
			keep = append(keep, r)
		case d > 0:
			pos, dpos, ipos = append(pos, r), append(dpos, d), append(ipos, ri)
		default:
			neg, dneg, ineg = append(neg, r), append(dneg, d), append(ineg, ri)
		}
	}
	if len(pos) == 0 && len(neg) == 0 {
		return true
	}
	within := func(a, b []uint64) bool {
		for i, w := range a {
			if w&^b[i] != 0 {
				return false
			}
		}
		return true
	}
	union := make([]uint64, len(f.rows[0].sup))
	for pi, p := range pos {
	pairs:
		for qi, q := range neg {
			// Only adjacent pairs give minimal rows: no other row's
			// support within the two's (Chernikova's test).
			for w := range union {
				union[w] = p.sup[w] | q.sup[w]
			}
			for ri := range f.rows {
				f.work++
				if ri != ipos[pi] && ri != ineg[qi] && within(f.rows[ri].sup, union) {
					continue pairs
				}
			}
			a, b := -dneg[qi], dpos[pi]
			y := make([]int64, f.k)
			g := int64(0)
			for j := range y {
				if p.y[j] == 0 && q.y[j] == 0 {
					continue
				}
				v, ok := combine(a, p.y[j], b, q.y[j])
				if !ok {
					return false
				}
				y[j] = v
				g = gcd(g, v)
			}
			for j := range y {
				y[j] /= g
			}
			keep = append(keep, farkasRow{y, f.support(y), -1})
			if len(keep) > maxInvariantRows {
				return false
			}
		}
	}
	// The rows kept and the combinations of adjacent pairs are the
	// extreme rays of the cone, of minimal supports: no filter is
	// needed (a combination of two nonnegative rows has their union as
	// its support).
	f.rows = keep
	return true
}
