package explicit

import (
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
)

// explicitGraph offers the explicit engine's sets and steps to the trace
// builder (explain.go). States are state numbers; paths are the
// canonical ones of package explore (canonical.go): shortest, chosen
// backwards by least states, so that they are the BDD engine's too.
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

// JusticeStep returns the least successor of s in z by an edge meeting
// constraint j.
func (g explicitGraph) JusticeStep(s, j int, z bitset) (int, bool) {
	e := g.e
	vals, key := e.scratch()
	var cands []int
	e.eachSucc(s, vals, key, func(k, mi int) bool {
		if z.has(k) && e.meets(j, s, mi) {
			cands = append(cands, k)
		}
		return true
	})
	if len(cands) == 0 {
		return -1, false
	}
	return e.least(cands), true
}

func (g explicitGraph) Path(from int, through, target bitset) ([]int, error) {
	e := g.e
	last, d, err := e.layers(from, through, target, false)
	defer e.endSearch()
	if err != nil || last == nil {
		return nil, err
	}
	return e.walkBack(e.least(last), d, through)
}

func (g explicitGraph) Far(from int, within bitset) ([]int, error) {
	e := g.e
	last, d, err := e.layers(from, within, nil, true)
	defer e.endSearch()
	if err != nil {
		return nil, err
	}
	return e.walkBack(e.least(last), d, within)
}

func (g explicitGraph) State(s int) explore.State {
	vals := make([]int64, g.e.sp.nvals)
	g.e.decodeState(s, vals)
	return g.e.sp.state(vals)
}

// layers runs a breadth-first search from `from` that expands only the
// states of through, layer by layer, recording each state's distance in
// e.dist (until endSearch). Without far it stops at the first layer
// that meets target and returns that layer's states of target and its
// distance (nil when no state of target is reached); with far, it
// returns the last layer (from's, when from is not in within). Its cost
// is that of the states it visits.
func (e *engine) layers(from int, through, target bitset, far bool) ([]int, int, error) {
	return e.layersFrom([]int{from}, through, target, far)
}

// layersFrom is layers from several states at once (the initial ones),
// each at distance 0; with far, froms holds one state.
func (e *engine) layersFrom(froms []int, through, target bitset, far bool) ([]int, int, error) {
	if e.dist == nil {
		e.dist = make([]int32, e.st.n)
		for i := range e.dist {
			e.dist[i] = -1
		}
	}
	e.visited = e.visited[:0]
	var cur, hits0 []int
	for _, from := range froms {
		e.dist[from] = 0
		e.visited = append(e.visited, int32(from))
		cur = append(cur, from)
		if !far && target.has(from) {
			hits0 = append(hits0, from)
		}
	}
	if hits0 != nil {
		return hits0, 0, nil
	}
	if len(froms) == 1 && !through.has(froms[0]) {
		if far {
			return cur, 0, nil
		}
		return nil, 0, nil
	}
	vals, key := e.scratch()
	var buf, next, hits []int
	for d := 1; ; d++ {
		next = next[:0]
		for _, u := range cur {
			if err := e.tick(); err != nil {
				return nil, 0, err
			}
			if !through.has(u) {
				continue
			}
			buf = e.succs(u, vals, key, buf)
			for _, v := range buf {
				if e.dist[v] >= 0 || far && !through.has(v) {
					continue
				}
				e.dist[v] = int32(d)
				e.visited = append(e.visited, int32(v))
				next = append(next, v)
				if !far && target.has(v) {
					hits = append(hits, v)
				}
			}
		}
		switch {
		case len(hits) > 0:
			return hits, d, nil
		case len(next) == 0 && far:
			return cur, d - 1, nil
		case len(next) == 0:
			return nil, 0, nil
		}
		cur, next = next, cur
	}
}

// endSearch forgets the distances of the last search (layers), in time
// proportional to the states it visited.
func (e *engine) endSearch() {
	for _, v := range e.visited {
		e.dist[v] = -1
	}
	e.visited = e.visited[:0]
}

// walkBack returns the canonical path of the last search (layers) from
// its start to v, a state at distance d: each earlier state is the least
// predecessor of the next at the distance before that lies in through.
func (e *engine) walkBack(v, d int, through bitset) ([]int, error) {
	if err := e.ensureReverse(); err != nil {
		return nil, err
	}
	path := make([]int, d+1)
	path[d] = v
	vals, key := e.scratch()
	var buf, cands []int
	for i := d - 1; i >= 0; i-- {
		if err := e.tick(); err != nil {
			return nil, err
		}
		buf = e.preds(path[i+1], vals, key, buf)
		cands = cands[:0]
		for _, u := range buf {
			if e.dist[u] == int32(i) && through.has(u) {
				cands = append(cands, u)
			}
		}
		if len(cands) == 0 {
			return nil, errkind.Errorf(errkind.Internal, "explore: no predecessor at distance %d while building a trace", i)
		}
		path[i] = e.least(cands)
	}
	return path, nil
}

// least returns the least of the states ss (at least one) in the order
// of explore.Compare.
func (e *engine) least(ss []int) int {
	if len(ss) == 1 {
		return ss[0]
	}
	best, cur := make([]int64, e.sp.nvals), make([]int64, e.sp.nvals)
	b := ss[0]
	e.decodeState(b, best)
	for _, s := range ss[1:] {
		e.decodeState(s, cur)
		if explore.Compare(cur, best) < 0 {
			b = s
			best, cur = cur, best
		}
	}
	return b
}
