package explicit

import (
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
)

// explicitGraph offers the explicit engine's sets and steps to the trace
// builder (explain.go). States are state numbers; finite paths are
// shortest, by breadth-first search.
type explicitGraph struct{ e *engine }

func (g explicitGraph) Sat(f ctl.Formula) (bitset, error) { return g.e.sat(f) }
func (g explicitGraph) Has(x bitset, s int) bool          { return x.has(s) }
func (g explicitGraph) And(a, b bitset) bitset            { return a.and(b) }
func (g explicitGraph) Same(a, b int) bool                { return a == b }
func (g explicitGraph) Justice() int                      { return len(g.e.justice) }

func (g explicitGraph) Single(s int) bitset {
	b := newBitset(g.e.st.n)
	b.set(s)
	return b
}

func (g explicitGraph) PreJustice(j int, z bitset) (bitset, error) { return g.e.preJustice(j, z) }

func (g explicitGraph) JusticeStep(s, j int, z bitset) (int, bool) {
	e := g.e
	vals, key := e.scratch()
	found := -1
	e.eachSucc(s, vals, key, func(k, mi int) bool {
		if z.has(k) && e.meets(j, s, mi) {
			found = k
			return false
		}
		return true
	})
	return found, found >= 0
}

func (g explicitGraph) Path(from int, through, target bitset) ([]int, error) {
	return g.e.bfs(from, through, target, false)
}

func (g explicitGraph) Far(from int, within bitset) ([]int, error) {
	return g.e.bfs(from, within, nil, true)
}

func (g explicitGraph) State(s int) explore.State {
	vals := make([]int64, g.e.sp.nvals)
	g.e.decodeState(s, vals)
	return g.e.sp.state(vals)
}

// bfs searches breadth-first from `from`, expanding only states of
// through. Without far it returns a shortest path to a state of target
// (nil when there is none); with far, a path to the last state it
// reaches, which is as far from `from` as any.
func (e *engine) bfs(from int, through, target bitset, far bool) ([]int, error) {
	if !far && target.has(from) {
		return []int{from}, nil
	}
	if !through.has(from) {
		if far {
			return []int{from}, nil
		}
		return nil, nil
	}
	parent := make([]int32, e.st.n)
	for i := range parent {
		parent[i] = -1
	}
	parent[from] = int32(from)
	queue := []int32{int32(from)}
	last := from
	vals, key := e.scratch()
	var buf []int
	for len(queue) > 0 {
		if err := e.tick(); err != nil {
			return nil, err
		}
		u := int(queue[0])
		queue = queue[1:]
		last = u
		buf = e.succs(u, vals, key, buf)
		for _, v := range buf {
			if parent[v] >= 0 {
				continue
			}
			if far && !through.has(v) {
				continue
			}
			parent[v] = int32(u)
			if !far && target.has(v) {
				return pathTo(parent, from, v), nil
			}
			if through.has(v) {
				queue = append(queue, int32(v))
			}
		}
	}
	if far {
		return pathTo(parent, from, last), nil
	}
	return nil, nil
}

// pathTo follows parent links back from v to from.
func pathTo(parent []int32, from, v int) []int {
	var rev []int
	for x := v; x != from; x = int(parent[x]) {
		rev = append(rev, x)
	}
	out := []int{from}
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}
