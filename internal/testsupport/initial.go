package testsupport

import (
	"math/rand"
	"slices"

	"github.com/vsym/vsym/gsst"
)

// initialSets gives sys's groups of fixed size a spread over two or three
// initial states, and its bounded integer shared variables a range of
// initial values, each at random; with want, at least one of them.
func initialSets(r *rand.Rand, sys *gsst.Spec, want bool) {
	m := len(sys.States)
	for try := 0; try < 20; try++ {
		for g := range sys.Groups {
			if sys.Groups[g].Ranged || sys.Groups[g].OverParams() || r.Intn(2) == 0 {
				continue
			}
			over := r.Perm(m)[:min(m, 2+r.Intn(2))]
			slices.Sort(over)
			if sys.InitOver == nil {
				sys.InitOver = make([][]int, len(sys.Groups))
			}
			sys.InitOver[g] = over
			row := make([]int, m)
			row[over[0]] = sys.Groups[g].Size
			sys.Init[g] = row
		}
		for j := range sys.Shared {
			v := &sys.Shared[j]
			if v.Bool || v.Values != nil || v.Unbounded || v.Init >= v.Hi || r.Intn(2) == 0 {
				continue
			}
			v.InitRange, v.InitHi = true, v.Init+1+r.Intn(v.Hi-v.Init)
		}
		if !want || !sys.SingleInitial() || len(sys.Groups) == 0 {
			return
		}
	}
}

// EachInitial returns one system per initial configuration of sys, each
// with that configuration as its only one: sys's verdicts are theirs
// together (a property holds when it holds in each). It lists the
// configurations from the spec's fields, apart from gsst.Spec.Initials.
func EachInitial(sys *gsst.System) ([]*gsst.System, error) {
	base := sys.Spec()
	rows := make([][][]int, len(base.Groups))
	for g := range base.Groups {
		if base.InitOver == nil || base.InitOver[g] == nil {
			rows[g] = [][]int{base.Init[g]}
			continue
		}
		over := base.InitOver[g]
		// Every vector of len(over) counts adding up to the size.
		var rec func(prefix []int, left int)
		rec = func(prefix []int, left int) {
			if len(prefix) == len(over)-1 {
				row := make([]int, len(base.States))
				for i, st := range over[:len(over)-1] {
					row[st] = prefix[i]
				}
				row[over[len(over)-1]] = left
				rows[g] = append(rows[g], row)
				return
			}
			for k := 0; k <= left; k++ {
				rec(append(prefix, k), left-k)
			}
		}
		rec(nil, base.Groups[g].Size)
	}
	var out []*gsst.System
	var err error
	init := make([][]int, len(base.Groups))
	shared := make([]int, len(base.Shared))
	var groups func(g int)
	var values func(j int)
	groups = func(g int) {
		if err != nil {
			return
		}
		if g == len(base.Groups) {
			one := sys.Spec()
			one.InitOver = nil
			for g := range init {
				one.Init[g] = slices.Clone(init[g])
			}
			for j := range one.Shared {
				one.Shared[j].InitRange, one.Shared[j].InitHi, one.Shared[j].Init = false, 0, shared[j]
			}
			var s *gsst.System
			if s, err = gsst.New(one); err == nil {
				out = append(out, s)
			}
			return
		}
		for _, row := range rows[g] {
			init[g] = row
			groups(g + 1)
		}
	}
	values = func(j int) {
		if j == len(base.Shared) {
			groups(0)
			return
		}
		v := &base.Shared[j]
		hi := v.Init
		if v.InitRange {
			hi = v.InitHi
		}
		for k := v.Init; k <= hi; k++ {
			shared[j] = k
			values(j + 1)
		}
	}
	values(0)
	return out, err
}
