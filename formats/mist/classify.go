package mist

// This file chooses which places are process states and which are
// shared counters.
//
// A token of a place is a process when the rules conserve such tokens:
// each rule moves the tokens of a process place to one process place
// (itself, when it keeps them) and takes as many tokens from process
// places as it puts into them. The other places are shared counters,
// integers from 0 that the rules update. The counters are a least set
// of places that makes every rule conserve the tokens of the rest
// (ties: fewer counters whose initial value is not one number, then
// counters as late in the vars section as possible), found by a
// deterministic branch and bound over the places; a transfer between
// two places keeps both on the same side, and a place whose tokens a
// rule copies or empties is a counter.

// maxNodes bounds the branch and bound; beyond it the best choice found
// so far is kept (every place a counter is always a choice).
const maxNodes = 1 << 18

// counterPlaces returns, for every place, whether it is a shared
// counter.
func (n *Net) counterPlaces() []bool {
	m := len(n.Places)
	parent := make([]int, m)
	for p := range parent {
		parent[p] = p
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int) {
		a, b = find(a), find(b)
		if a < b {
			a, b = b, a
		}
		parent[a] = b
	}
	forced := make([]bool, m)
	for _, r := range n.Rules {
		for _, q := range r.Touched() {
			dest := r.Dest(q)
			if len(dest) != 1 {
				forced[q] = true
			}
			for _, p := range dest {
				union(p, q)
			}
		}
	}
	// Classes, in the order of their first place.
	classOf := make([]int, m)
	var classes [][]int
	index := map[int]int{}
	for p := range m {
		root := find(p)
		k, ok := index[root]
		if !ok {
			k = len(classes)
			index[root] = k
			classes = append(classes, nil)
		}
		classes[k] = append(classes[k], p)
		classOf[p] = k
	}
	nc := len(classes)
	must := make([]bool, nc)
	cost := make([]int64, nc)
	for k, c := range classes {
		for _, p := range c {
			must[k] = must[k] || forced[p]
			cost[k] += 1 << 20 // one place
			if iv := n.Init[p]; iv.NoHi || iv.Lo != iv.Hi {
				cost[k]++ // a counter that starts at more than one value
			}
		}
	}
	// One equation per rule that adds or takes tokens: the counters
	// must take up what the rule adds in all.
	type row struct {
		coef   []int64
		target int64
	}
	var rows []row
	for _, r := range n.Rules {
		coef := make([]int64, nc)
		var total int64
		nonzero := false
		for p, e := range r.Eqs {
			coef[classOf[p]] += e.Add
			total += e.Add
			nonzero = nonzero || e.Add != 0
		}
		if nonzero {
			rows = append(rows, row{coef, total})
		}
	}
	// Branch on the classes in order, trying "process" before
	// "counter", so that of equal choices the first found, which is
	// kept, has the early places as processes.
	order := make([]int, 0, nc)
	for k := range nc {
		order = append(order, k)
	}
	lo := make([][]int64, len(rows)) // lo[i][d]: least sum of row i over order[d:]
	hi := make([][]int64, len(rows))
	for i, rw := range rows {
		lo[i] = make([]int64, nc+1)
		hi[i] = make([]int64, nc+1)
		for d := nc - 1; d >= 0; d-- {
			c := rw.coef[order[d]]
			lo[i][d], hi[i][d] = lo[i][d+1]+min(0, c), hi[i][d+1]+max(0, c)
		}
	}
	best := make([]bool, nc)
	var bestCost int64
	for k := range best {
		best[k] = true
		bestCost += cost[k]
	}
	choice := make([]bool, nc)
	sums := make([]int64, len(rows))
	nodes := 0
	var dfs func(d int, spent int64)
	dfs = func(d int, spent int64) {
		nodes++
		if nodes > maxNodes || spent >= bestCost {
			return
		}
		for i, rw := range rows {
			if rw.target < sums[i]+lo[i][d] || rw.target > sums[i]+hi[i][d] {
				return
			}
		}
		if d == nc {
			copy(best, choice)
			bestCost = spent
			return
		}
		k := order[d]
		for _, counter := range []bool{false, true} {
			if !counter && must[k] {
				continue
			}
			choice[k] = counter
			if counter {
				for i := range rows {
					sums[i] += rows[i].coef[k]
				}
				dfs(d+1, spent+cost[k])
				for i := range rows {
					sums[i] -= rows[i].coef[k]
				}
			} else {
				dfs(d+1, spent)
			}
			choice[k] = false
		}
	}
	dfs(0, 0)
	out := make([]bool, m)
	for p := range out {
		out[p] = best[classOf[p]]
	}
	return out
}
