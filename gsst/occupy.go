package gsst

import "github.com/vsym/vsym/presburger"

// MayOccupy returns, for each group g and state st, whether a process of
// g may ever be in st: it starts there, or some step MayFire allows
// moves a process of g there (a part or a transfer that allows g). The
// numbers of processes are not read, so this over-approximates the
// reachable configurations: a counter (g, st) it rules out is 0 in
// every one of them, and a step that would move a process of g out of
// it is never taken. The group-level counter models leave such steps out
// (a rendezvous part that allows any group gets one copy per group; a
// token group's copy of a process's state is empty).
func (s *Spec) MayOccupy() [][]bool { return s.MayReach().Occupy }

// MayFire returns, for each step of s.Steps(), whether some run may take
// it: each of its parts may find a mover (MayOccupy), and its guard is
// not false by what the runs may give the variables it reads. That is
// read atom by atom: a counter of a state its group (or every group)
// never occupies is 0, and a shared variable with few values (a
// boolean, an enumeration, a range of at most maxTracked values) holds
// one of those it starts at or some step MayFire allows assigns; an
// atom that reads only such variables and holds for none of their
// values (or for all) is false (true). A step whose guard is then false
// is never taken, nor are the steps that only it would enable: Cubicle's
// German written with "Curcmd = Reqs" on steps of a system where no step
// sets Curcmd to Reqs. The counter models built for runs (counterabs
// RunSteps) leave them out.
func (s *Spec) MayFire() []bool { return s.MayReach().Fires }

// Reach is what MayReach finds the runs of a spec may do: which states
// each group's processes may be in (MayOccupy), which values each shared
// variable with at most maxTracked values may hold (by index from its
// Lo; nil for the others), and which steps may be taken (MayFire).
type Reach struct {
	Occupy [][]bool
	Values [][]bool
	Fires  []bool
}

// maxTracked bounds the domains whose values mayReach tracks, and
// maxCombos the combinations of values it tries for one atom or one
// assignment.
const (
	maxTracked = 64
	maxCombos  = 256
)

// reach is what mayReach has found so far: occ[g][st] says that a
// process of g may be in st, vals[j] (nil when not tracked) which
// values of shared variable j's domain, from Lo, it may hold.
type reach struct {
	s    *Spec
	occ  [][]bool
	vals [][]bool
}

// MayReach computes MayOccupy, the values and MayFire together: the
// occupancy, the values of the tracked shared variables and the steps
// that may fire grow together until no step adds to them.
func (s *Spec) MayReach() Reach { return s.mayReach(false) }

// MayReachTotals is MayReach with processes told apart by their states
// alone: a process of any group may be wherever one of some group may
// be. It over-approximates MayReach, and is what the total counters can
// state (prove checks what it finds on the total-counter model, which
// has no counter of a group's processes in a state).
func (s *Spec) MayReachTotals() Reach { return s.mayReach(true) }

// mayReach is MayReach, or MayReachTotals when totals.
func (s *Spec) mayReach(totals bool) Reach {
	r := &reach{s: s, occ: make([][]bool, len(s.Groups)), vals: s.initialValues()}
	for g := range s.Groups {
		r.occ[g] = make([]bool, len(s.States))
		_, one := s.InitState(g)
		spread := s.InitOver != nil && s.InitOver[g] != nil
		grp := &s.Groups[g]
		if !one && !spread && (grp.Ranged || grp.OverParams()) {
			// No initial state written for a size that may grow:
			// nothing is ruled out.
			for st := range r.occ[g] {
				r.occ[g][st] = true
			}
			continue
		}
		for st, k := range s.Init[g] {
			r.occ[g][st] = k > 0
		}
		if spread {
			for _, st := range s.InitOver[g] {
				r.occ[g][st] = true
			}
		}
	}
	if totals && len(s.Groups) > 0 {
		// One row for every group: a mark in it is a mark for all.
		union := make([]bool, len(s.States))
		for g := range r.occ {
			for st, may := range r.occ[g] {
				union[st] = union[st] || may
			}
			r.occ[g] = union
		}
	}
	steps := s.Steps()
	fires := make([]bool, len(steps))
	for changed := true; changed; {
		changed = false
		for i := range steps {
			st := &steps[i]
			if !s.mayFire(st, r.occ) || r.fold(st.Guard) == presburger.False {
				continue
			}
			if !fires[i] {
				fires[i], changed = true, true
			}
			mark := func(from, to int, allows func(int) bool) {
				for g := range s.Groups {
					if allows(g) && r.occ[g][from] && !r.occ[g][to] {
						r.occ[g][to], changed = true, true
					}
				}
			}
			for k := range st.Parts {
				mark(st.Parts[k].From, st.Parts[k].To, st.Parts[k].Allows)
			}
			for k := range st.Transfers {
				mark(st.Transfers[k].From, st.Transfers[k].To, st.Transfers[k].Allows)
			}
			if r.assign(&st.Update) {
				changed = true
			}
		}
	}
	return Reach{Occupy: r.occ, Values: r.vals, Fires: fires}
}

// initialValues returns, for each shared variable whose domain has at
// most maxTracked values, which of them (from Lo) it may start at; nil
// for the others.
func (s *Spec) initialValues() [][]bool {
	vals := make([][]bool, len(s.Shared))
	for j := range s.Shared {
		v := &s.Shared[j]
		if v.Unbounded || v.Hi-v.Lo+1 > maxTracked {
			continue
		}
		vals[j] = make([]bool, v.Hi-v.Lo+1)
		lo, hi := v.Init, v.Init
		if v.InitRange {
			hi = v.InitHi
			if v.InitNoHi {
				hi = v.Hi
			}
		}
		if !v.InitTerm.IsConst() || v.InitRange && !v.InitNoHi && !v.InitHiTerm.IsConst() {
			lo, hi = v.Lo, v.Hi // over the parameters: any value
		}
		for x := max(lo, v.Lo); x <= min(hi, v.Hi); x++ {
			vals[j][x-v.Lo] = true
		}
	}
	return vals
}

// fold returns f with its atoms over known variables decided (each
// false, or true, for every combination of the values r allows them),
// as far as that makes f True or False; f itself otherwise.
func (r *reach) fold(f presburger.Formula) presburger.Formula {
	switch f := f.(type) {
	case presburger.Cmp:
		holds, fails := false, false
		if !r.eachValue(f.T.Monos, func(val func(presburger.Var) int64) bool {
			if presburger.Eval(f, val) {
				holds = true
			} else {
				fails = true
			}
			return !holds || !fails
		}) {
			return f
		}
		switch {
		case !holds:
			return presburger.False
		case !fails:
			return presburger.True
		}
	case presburger.Not:
		switch r.fold(f.F) {
		case presburger.True:
			return presburger.False
		case presburger.False:
			return presburger.True
		}
	case presburger.And:
		return r.foldAll(f, presburger.False, presburger.True, f)
	case presburger.Or:
		return r.foldAll(f, presburger.True, presburger.False, f)
	}
	return f
}

// foldAll folds the operands fs of a conjunction (zero False, one True)
// or of a disjunction (zero True, one False): zero when one of them
// folds to it, one when all do, whole otherwise.
func (r *reach) foldAll(fs []presburger.Formula, zero, one, whole presburger.Formula) presburger.Formula {
	all := true
	for _, g := range fs {
		switch r.fold(g) {
		case zero:
			return zero
		case one:
		default:
			all = false
		}
	}
	if all {
		return one
	}
	return whole
}

// assign adds to r's values those u may assign to the tracked
// variables (every value of the domain where a term reads a variable
// that is not known, or too many combinations); it reports whether any
// was new.
func (r *reach) assign(u *Update) bool {
	grew := false
	for _, a := range u.Assign {
		j, isShared := r.s.SharedOf(a.Var)
		if !isShared || r.vals[j] == nil {
			continue
		}
		v := &r.s.Shared[j]
		add := func(x int64) {
			if x >= int64(v.Lo) && x <= int64(v.Hi) && !r.vals[j][x-int64(v.Lo)] {
				r.vals[j][x-int64(v.Lo)], grew = true, true
			}
		}
		if !r.eachValue(a.Value.Monos, func(val func(presburger.Var) int64) bool {
			if x, ok := a.Value.Value(val); ok {
				add(x)
			}
			return true
		}) {
			for x := v.Lo; x <= v.Hi; x++ {
				add(int64(x))
			}
		}
	}
	return grew
}

// known returns the values r allows variable v: a tracked shared
// variable's, or 0 for a counter of a state its group (a total
// counter: every group) never occupies; ok is false for any other
// variable (a counter that may be positive, an untracked shared
// variable, a parameter, a size, n).
func (r *reach) known(v presburger.Var) (xs []int64, ok bool) {
	s := r.s
	if j, isShared := s.SharedOf(v); isShared {
		if r.vals[j] == nil {
			return nil, false
		}
		for k, may := range r.vals[j] {
			if may {
				xs = append(xs, int64(s.Shared[j].Lo+k))
			}
		}
		return xs, true
	}
	st, group, isCounter := s.Counter(v)
	if !isCounter {
		return nil, false
	}
	for g := range s.Groups {
		if (group < 0 || g == group) && r.occ[g][st] {
			return nil, false
		}
	}
	return []int64{0}, true
}

// eachValue calls f with every combination of the values r allows the
// variables of monos, until f returns false; it returns false, calling
// f for none, when some variable is not known or the combinations
// exceed maxCombos.
func (r *reach) eachValue(monos []presburger.Mono, f func(val func(presburger.Var) int64) bool) bool {
	vars := make([]presburger.Var, 0, len(monos))
	choices := make([][]int64, 0, len(monos))
	combos := 1
	for _, mo := range monos {
		xs, ok := r.known(mo.Var)
		if !ok {
			return false
		}
		if combos *= len(xs); combos > maxCombos {
			return false
		}
		vars, choices = append(vars, mo.Var), append(choices, xs)
	}
	at := make(map[presburger.Var]int64, len(vars))
	val := func(v presburger.Var) int64 { return at[v] }
	var walk func(k int) bool
	walk = func(k int) bool {
		if k == len(vars) {
			return f(val)
		}
		for _, x := range choices[k] {
			at[vars[k]] = x
			if !walk(k + 1) {
				return false
			}
		}
		return true
	}
	walk(0)
	return true
}

// mayFire says whether each part of st may find a mover by occ.
func (s *Spec) mayFire(st *Step, occ [][]bool) bool {
	for k := range st.Parts {
		p := &st.Parts[k]
		found := false
		for g := range s.Groups {
			if p.Allows(g) && occ[g][p.From] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
