package detect

// The oracle for certification for all sizes: a random generator of
// parametric GSSTs (group sizes that are ranges, guards that read n), and
// a reference that decides Theorem 6 for one instance by enumerating its
// group-counter configurations, independently of the queries. Kept apart
// so that it can move to the shared test-support package.

import (
	"fmt"
	"math/rand"
	"strconv"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// boxMax is the greatest size the reference tries for a group whose
// range goes beyond it: the box of instances is every choice of sizes
// with each group's size in its range and at most boxMax.
const boxMax = 4

// randomParamSystem returns a parametric GSST: 2-4 states, 1-3 groups,
// each group's size fixed (1-3), a bounded range within 1..boxMax, or
// unbounded ("k.."), at least one group ranged; 1-2 transitions whose
// blocks are spread as in randomSystem, with guards over total and group
// counters, n and small constants. Every process starts in the first
// state. maxConfigs bounds the work of the box reference per transition
// (the sum over the box of the number of configurations); systems above
// it are drawn again.
func randomParamSystem(r *rand.Rand, maxConfigs int) *gsst.System {
	for {
		m := 2 + r.Intn(3)
		d := 1 + r.Intn(3)
		sys := &gsst.System{Name: "random-param"}
		for i := range m {
			sys.States = append(sys.States, "S"+strconv.Itoa(i))
		}
		for g := range d {
			grp := gsst.Group{Name: "g" + strconv.Itoa(g)}
			switch r.Intn(4) {
			case 0:
				grp.Size = 1 + r.Intn(3)
			case 1:
				grp.Size = 1 + r.Intn(boxMax-1)
				grp.Ranged, grp.Max = true, grp.Size+1+r.Intn(boxMax-grp.Size)
			default:
				grp.Size = 1 + r.Intn(2)
				grp.Ranged, grp.Max = true, gsst.Unbounded
			}
			sys.Groups = append(sys.Groups, grp)
			row := make([]int, m)
			row[0] = grp.Size
			sys.Init = append(sys.Init, row)
		}
		if !sys.Parametric() || boxConfigs(sys) > maxConfigs {
			continue
		}
		rs := &randSys{r, sys}
		for range 1 + r.Intn(2) {
			rs.paramTransition()
		}
		return sys
	}
}

// paramTransition adds a transition as randSys.transition does, with
// guards that may read n.
func (rs *randSys) paramTransition() {
	rs.transition()
	t := &rs.sys.Transitions[len(rs.sys.Transitions)-1]
	for i := range t.Blocks {
		if rs.r.Intn(2) == 0 {
			t.Blocks[i].Guard = presburger.Conj(t.Blocks[i].Guard, rs.nAtom())
		}
		if rs.r.Intn(4) == 0 {
			t.Blocks[i].Guard = presburger.Disj(t.Blocks[i].Guard, rs.nAtom())
		}
	}
}

// nAtom is a comparison between n (times 1 or 2) and a counter term plus
// a small constant, such as "#S1 + 1 < n" or "2*#S0[g1] >= n".
func (rs *randSys) nAtom() presburger.Formula {
	r, sys := rs.r, rs.sys
	s := r.Intn(len(sys.States))
	v := sys.TotalVar(s)
	if r.Intn(2) == 0 {
		v = sys.GroupVar(s, r.Intn(len(sys.Groups)))
	}
	lhs := presburger.VarTerm(v).Scale(int64(1 + r.Intn(2))).Add(presburger.ConstTerm(int64(r.Intn(4) - 1)))
	rhs := presburger.VarTerm(sys.NVar()).Scale(int64(1 + r.Intn(2)))
	return presburger.Compare(lhs, presburger.Op(r.Intn(6)), rhs)
}

// box returns every choice of sizes in the box, in a fixed order.
func box(sys *gsst.System) [][]int {
	out := [][]int{nil}
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		hi, bounded := grp.Bounded()
		if !bounded || hi > boxMax {
			hi = max(boxMax, grp.Size)
		}
		var next [][]int
		for _, prefix := range out {
			for k := grp.Size; k <= hi; k++ {
				next = append(next, append(append([]int(nil), prefix...), k))
			}
		}
		out = next
	}
	return out
}

// coveredByBox reports whether every instance of sys lies in the box:
// then the verdict for all sizes must equal the conjunction over the box.
func coveredByBox(sys *gsst.System) bool {
	for g := range sys.Groups {
		if hi, ok := sys.Groups[g].Bounded(); !ok || hi > boxMax {
			return false
		}
	}
	return true
}

// boxConfigs is the number of configurations the box reference visits.
func boxConfigs(sys *gsst.System) int {
	total := 0
	for _, sizes := range box(sys) {
		k := 1
		for _, size := range sizes {
			k *= binomial(size+len(sys.States)-1, len(sys.States)-1)
		}
		total += k
	}
	return total
}

func binomial(n, k int) int {
	out := 1
	for i := 1; i <= k; i++ {
		out = out * (n - k + i) / i
	}
	return out
}

// closedAt decides Theorem 6 for transition i of the instance inst: it
// enumerates every configuration (group counters summing to each
// group's size), evaluates the guards on counters computed here (n is
// folded in an instance), and reports whether configurations with equal
// total counters always agree on whether some process can take the
// transition. On failure it returns such a pair, enabled first.
func closedAt(inst *gsst.System, i int) (closed bool, pair [2][][]int) {
	t := &inst.Transitions[i]
	m, d := len(inst.States), len(inst.Groups)
	type seen struct {
		in, out [][]int
	}
	byTotals := map[string]*seen{}
	conf := make([][]int, d)
	for g := range conf {
		conf[g] = make([]int, m)
	}
	copyConf := func() [][]int {
		out := make([][]int, d)
		for g := range conf {
			out[g] = append([]int(nil), conf[g]...)
		}
		return out
	}
	val := func(v presburger.Var) int64 {
		s, g, ok := inst.Counter(v)
		if !ok {
			panic("test: a variable that is not a counter in an instance")
		}
		k := 0
		for h := range conf {
			if g < 0 || g == h {
				k += conf[h][s]
			}
		}
		return int64(k)
	}
	fires := func() bool {
		for _, b := range t.Blocks {
			for _, g := range b.Groups {
				if conf[g][t.From] > 0 && presburger.Eval(b.Guard, val) {
					return true
				}
			}
		}
		return false
	}
	// place fills group g from state s on with left processes.
	var place func(g, s, left int) bool
	place = func(g, s, left int) bool {
		if g == d {
			key := make([]byte, m)
			for st := range m {
				for h := range d {
					key[st] += byte(conf[h][st])
				}
			}
			e := byTotals[string(key)]
			if e == nil {
				e = &seen{}
				byTotals[string(key)] = e
			}
			if fires() {
				if e.in == nil {
					e.in = copyConf()
				}
			} else if e.out == nil {
				e.out = copyConf()
			}
			if e.in != nil && e.out != nil {
				pair = [2][][]int{e.in, e.out}
				return false
			}
			return true
		}
		if s == m-1 {
			conf[g][s] = left
			ok := place(g+1, 0, inst.Groups[min(g+1, d-1)].Size)
			conf[g][s] = 0
			return ok
		}
		for k := 0; k <= left; k++ {
			conf[g][s] = k
			if !place(g, s+1, left-k) {
				conf[g][s] = 0
				return false
			}
		}
		conf[g][s] = 0
		return true
	}
	return place(0, 0, inst.Groups[0].Size), pair
}

// dumpParam prints a parametric system for failure messages.
func dumpParam(sys *gsst.System) string {
	s := "states " + fmt.Sprint(sys.States) + " groups"
	for _, g := range sys.Groups {
		s += " " + g.Name + ":" + g.SizeText()
	}
	s += "\n"
	for _, tr := range sys.Transitions {
		s += sys.TransitionName(&tr) + ":\n"
		for _, b := range tr.Blocks {
			s += fmt.Sprintf("  %v: %s\n", b.Groups, presburger.Format(b.Guard, sys.VarName))
		}
	}
	return s
}
